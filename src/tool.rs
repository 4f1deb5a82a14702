//! The two model-facing tools and the one table of their arguments.
//!
//! Each argument is defined once, in [`Tool::arguments`]: its name (the
//! JSON field, the clap id), how the command line takes it, its `--help`
//! text and the description the model reads in the schema. The command
//! line (`cli`), the JSON arguments (`arguments`), the schema (`schema`)
//! and the request rules (`request`) all read this table, so a new
//! argument is one row here plus its rule in `request`.

use std::fmt;

/// VCS metadata directories glob never lists, even under `--no-ignore
/// --hidden`, in the order SPEC §2 gives their excludes.
pub const VCS_DIRS: [&str; 6] = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];

/// The two model-facing tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Glob,
    Grep,
}

/// One argument of a tool. Every argument is a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Argument {
    /// The JSON field name, and the command line's id for it.
    pub name: &'static str,
    /// The placeholder in `--help` (`PATTERN`).
    pub value_name: &'static str,
    pub required: bool,
    /// On the command line: positional (in table order), or `--name VALUE`.
    pub positional: bool,
    /// The `--help` and man page text.
    pub help: &'static str,
    /// The JSON Schema description the model reads.
    pub description: &'static str,
}

const GLOB_ARGUMENTS: [Argument; 2] = [
    Argument {
        name: "pattern",
        value_name: "PATTERN",
        required: true,
        positional: true,
        help: "A ripgrep glob, such as '**/*.rs' or 'src/**/test_*.py'",
        description: "Glob matched against file paths, such as **/*.rs or src/**/test_*.py",
    },
    Argument {
        name: "path",
        value_name: "PATH",
        required: false,
        positional: true,
        help: "Directory to search [default: the workdir]",
        description: "Directory to search; omit to search the workdir",
    },
];

const GREP_ARGUMENTS: [Argument; 3] = [
    Argument {
        name: "pattern",
        value_name: "PATTERN",
        required: true,
        positional: true,
        help: "A ripgrep regex, such as 'fn \\w+_test'",
        description: "Ripgrep regex searched for in file contents, such as fn\\s+main",
    },
    Argument {
        name: "path",
        value_name: "PATH",
        required: false,
        positional: true,
        help: "File or directory to search [default: the workdir]",
        description: "File or directory to search; omit to search the workdir",
    },
    Argument {
        name: "include",
        value_name: "GLOB",
        required: false,
        positional: false,
        help: "Search only files matching ONE glob, such as '*.rs' or '*.{ts,tsx}'",
        description: "One glob that file names must match, such as *.rs or *.{ts,tsx}",
    },
];

impl Tool {
    /// Every tool, in the order they are listed to agents.
    pub const ALL: [Self; 2] = [Self::Glob, Self::Grep];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Glob => "glob",
            Self::Grep => "grep",
        }
    }

    /// The tool called `name`, if dsh-search has one.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|tool| tool.as_str() == name)
    }

    /// The tool's arguments, in command-line order.
    pub fn arguments(self) -> &'static [Argument] {
        match self {
            Self::Glob => &GLOB_ARGUMENTS,
            Self::Grep => &GREP_ARGUMENTS,
        }
    }

    /// What a model can do to get a smaller result from this tool: narrow
    /// each of its arguments.
    pub fn narrow_advice(self) -> &'static str {
        match self {
            Self::Glob => "narrow pattern or path",
            Self::Grep => "narrow pattern, path, or include",
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool's argument values by name, as a front-end read them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values(Vec<(&'static str, String)>);

impl Values {
    pub fn set(&mut self, name: &'static str, value: String) {
        self.0.push((name, value));
    }

    /// Take the value of `name`, if it was given.
    pub fn take(&mut self, name: &str) -> Option<String> {
        let at = self.0.iter().position(|(n, _)| *n == name)?;
        Some(self.0.swap_remove(at).1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_narrowing_advice_names_every_argument() {
        for tool in Tool::ALL {
            let names: Vec<&str> = tool.arguments().iter().map(|a| a.name).collect();
            let advice = tool.narrow_advice().trim_start_matches("narrow ");
            let listed: Vec<&str> = advice
                .split([',', ' '])
                .filter(|w| !w.is_empty() && *w != "or")
                .collect();
            assert_eq!(listed, names, "{tool}");
        }
    }
}
