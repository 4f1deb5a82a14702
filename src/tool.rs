//! The two model-facing tools and the one table of their arguments.
//!
//! Each argument is defined once, in [`Tool::arguments`]: its name (the
//! JSON field, the clap id), its kind (text, switch, number, choice), how
//! the command line takes it, its `--help` text and the description the
//! model reads in the schema. The command line (`cli`), the JSON arguments
//! (`arguments`) and the schema (`schema`) all read this table; the front
//! ends read each row into its field of [`GlobArgs`] or [`GrepArgs`], and
//! `request` applies the rules to those. So a new argument is one row
//! here, its field (a test holds the fields to the table), and its rule in
//! `request`.

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

/// One argument of a tool: one row of the table every front-end reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Argument {
    /// The JSON field name, and the command line's id for it (its flag is
    /// the name with `-` for `_`).
    pub name: &'static str,
    pub kind: ArgKind,
    pub required: bool,
    /// On the command line: positional (in table order), or a flag.
    pub positional: bool,
    /// The flag's short form, where rg's letter for it is free.
    pub short: Option<char>,
    /// The `--help` and man page text.
    pub help: &'static str,
    /// The JSON Schema description the model reads.
    pub description: &'static str,
}

/// What an argument's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A string; `value_name` is its placeholder in `--help` (`PATTERN`).
    Text { value_name: &'static str },
    /// `true` or `false`; a switch on the command line.
    Switch,
    /// A whole number from `min` to `max` (`None`: no upper bound).
    Number {
        value_name: &'static str,
        min: u64,
        max: Option<u64>,
    },
    /// One of `values`.
    Choice {
        value_name: &'static str,
        values: &'static [&'static str],
    },
}

/// grep's `output` modes (SPEC §3a), the default first.
pub const OUTPUT_MODES: [&str; 3] = ["content", "files", "count"];
/// Lines of context (`context`, `before`, `after`): at most 100 on either
/// side of a match.
const CONTEXT_LINES: ArgKind = ArgKind::Number {
    value_name: "N",
    min: 0,
    max: Some(100),
};

/// What a row says unless it says otherwise: an optional switch with no
/// short form.
const ROW: Argument = Argument {
    name: "",
    kind: ArgKind::Switch,
    required: false,
    positional: false,
    short: None,
    help: "",
    description: "",
};

const IGNORE_CASE: Argument = Argument {
    name: "ignore_case",
    short: Some('i'),
    help: "Match regardless of case",
    description: "Match regardless of case",
    ..ROW
};

/// `exclude` (SPEC §3a): one glob whose matches are left out, after every
/// other glob so it wins over include. One glob is not one path: braces
/// hold several, which a model does not guess from "one glob" alone.
const EXCLUDE: Argument = Argument {
    name: "exclude",
    kind: ArgKind::Text { value_name: "GLOB" },
    help: "Leave out files matching ONE glob, such as '**/*.min.js'; braces hold several: '{**/tests/**,src/macros/cfg.rs}' leaves out a directory and a file",
    description: "Glob of files to leave out, such as **/*.min.js; braces hold several: {**/tests/**,src/macros/cfg.rs}",
    ..ROW
};

/// `follow` (SPEC §3a): rg's `--follow`.
const FOLLOW: Argument = Argument {
    name: "follow",
    short: Some('L'),
    help: "Follow symbolic links (a linked directory is searched too)",
    description: "Follow symbolic links",
    ..ROW
};

pub const OFFSET: Argument = Argument {
    name: "offset",
    kind: ArgKind::Number {
        value_name: "N",
        min: 0,
        max: None,
    },
    help: "Entries of the ordered result to skip before the page (the next page's offset is printed)",
    description: "Entries of the ordered result to skip; a page says the next offset",
    ..ROW
};

pub const LIMIT: Argument = Argument {
    name: "limit",
    kind: ArgKind::Number {
        value_name: "N",
        min: 1,
        max: None,
    },
    help: "Entries on the page (at most the cap)",
    description: "Entries on the page (at most the cap)",
    ..ROW
};

const GLOB_PATTERN: Argument = Argument {
    name: "pattern",
    kind: ArgKind::Text {
        value_name: "PATTERN",
    },
    required: true,
    positional: true,
    help: "A ripgrep glob, such as '**/*.rs' or 'src/**/test_*.py'",
    description: "Glob matched against file paths, such as **/*.rs or src/**/test_*.py",
    ..ROW
};

const GLOB_PATH: Argument = Argument {
    name: "path",
    kind: ArgKind::Text { value_name: "PATH" },
    positional: true,
    help: "Directory to search [default: the workdir]",
    description: "Directory to search; omit to search the workdir",
    ..ROW
};

const GREP_PATTERN: Argument = Argument {
    help: "A ripgrep regex, such as 'fn \\w+_test'",
    description: "Ripgrep regex searched for in file contents, such as fn\\s+main",
    ..GLOB_PATTERN
};

const GREP_PATH: Argument = Argument {
    help: "File or directory to search [default: the workdir]",
    description: "File or directory to search; omit to search the workdir",
    ..GLOB_PATH
};

const INCLUDE: Argument = Argument {
    name: "include",
    kind: ArgKind::Text { value_name: "GLOB" },
    help: "Search only files matching ONE glob, such as '*.rs' or '*.{ts,tsx}'; braces hold several: '{src/**,tests/**}'",
    description: "Glob that files must match, such as *.rs or *.{ts,tsx}",
    ..ROW
};

const OUTPUT: Argument = Argument {
    name: "output",
    kind: ArgKind::Choice {
        value_name: "MODE",
        values: &OUTPUT_MODES,
    },
    help: "What to print: matched lines (content), the files that match (files), or matches per file (count)",
    description: "content: matched lines (default); files: matching files; count: matches per file",
    ..ROW
};

pub const CONTEXT: Argument = Argument {
    name: "context",
    kind: CONTEXT_LINES,
    short: Some('C'),
    help: "Lines of context before and after each match (0-100; output content)",
    description: "Lines shown before and after each match (content only)",
    ..ROW
};

pub const BEFORE: Argument = Argument {
    name: "before",
    kind: CONTEXT_LINES,
    short: Some('B'),
    help: "Lines of context before each match (0-100; wins over --context)",
    description: "Lines shown before each match; overrides context",
    ..ROW
};

pub const AFTER: Argument = Argument {
    name: "after",
    kind: CONTEXT_LINES,
    short: Some('A'),
    help: "Lines of context after each match (0-100; wins over --context)",
    description: "Lines shown after each match; overrides context",
    ..ROW
};

/// `function_context` (SPEC §3a): each match inside its definition.
pub const FUNCTION_CONTEXT: Argument = Argument {
    name: "function_context",
    short: Some('W'),
    help: "Show each match inside the function, method, class or other definition that holds it, found by parsing the file (output content)",
    description: "Show each match within its enclosing function or definition (parsed; long ones cut around the match)",
    ..ROW
};

const LITERAL: Argument = Argument {
    name: "literal",
    short: Some('F'),
    help: "Search for the pattern as written, not as a regex",
    description: "Search for the pattern as written, not as a regex",
    ..ROW
};

const MULTILINE: Argument = Argument {
    name: "multiline",
    short: Some('U'),
    help: "Let a match span lines ('.' matches a newline too); each of its lines is shown",
    description: "Let matches span lines; . matches newlines",
    ..ROW
};

const TYPE: Argument = Argument {
    name: "type",
    kind: ArgKind::Text { value_name: "TYPE" },
    short: Some('t'),
    help: "Search only files of one ripgrep file type, such as rust or py (rg --type-list)",
    description: "Ripgrep file type to search, such as rust, py or ts",
    ..ROW
};

const GLOB_ARGUMENTS: [Argument; 7] = [
    GLOB_PATTERN,
    GLOB_PATH,
    EXCLUDE,
    IGNORE_CASE,
    FOLLOW,
    OFFSET,
    LIMIT,
];

const GREP_ARGUMENTS: [Argument; 16] = [
    GREP_PATTERN,
    GREP_PATH,
    INCLUDE,
    EXCLUDE,
    OUTPUT,
    CONTEXT,
    BEFORE,
    AFTER,
    FUNCTION_CONTEXT,
    IGNORE_CASE,
    LITERAL,
    MULTILINE,
    TYPE,
    FOLLOW,
    OFFSET,
    LIMIT,
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

/// How a front-end gives the values of a tool's arguments (the command
/// line's matches, a JSON object): each by its row of the table, typed by
/// its kind. A choice is read as text: its values are a rule of `request`.
pub trait ArgReader {
    type Error;
    fn text(&mut self, row: &Argument) -> Result<Option<String>, Self::Error>;
    /// Whether the switch was given as true.
    fn switch(&mut self, row: &Argument) -> Result<bool, Self::Error>;
    fn number(&mut self, row: &Argument) -> Result<Option<u64>, Self::Error>;
}

/// A tool's arguments, typed: one field per row of its table, in table
/// order, each read from its own row (a test holds every tool to that).
pub trait FromArgReader: Sized {
    const TOOL: Tool;
    /// Each row read once, in table order (so a front-end that checks
    /// types reports the first wrong argument of the table).
    fn from_reader<R: ArgReader>(reader: &mut R) -> Result<Self, R::Error>;
}

/// glob's arguments as a front-end gave them (SPEC §3's rules not yet
/// applied: `request` does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobArgs {
    /// Required: empty only when a front-end let it be missing.
    pub pattern: String,
    pub path: Option<String>,
    pub exclude: Option<String>,
    pub ignore_case: bool,
    pub follow: bool,
    pub offset: Option<u64>,
    pub limit: Option<u64>,
}

impl FromArgReader for GlobArgs {
    const TOOL: Tool = Tool::Glob;

    fn from_reader<R: ArgReader>(reader: &mut R) -> Result<Self, R::Error> {
        Ok(Self {
            pattern: reader.text(&GLOB_PATTERN)?.unwrap_or_default(),
            path: reader.text(&GLOB_PATH)?,
            exclude: reader.text(&EXCLUDE)?,
            ignore_case: reader.switch(&IGNORE_CASE)?,
            follow: reader.switch(&FOLLOW)?,
            offset: reader.number(&OFFSET)?,
            limit: reader.number(&LIMIT)?,
        })
    }
}

/// grep's arguments as a front-end gave them (SPEC §3's rules not yet
/// applied: `request` does).
// Each switch is one independent argument of the table (SPEC §3a).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GrepArgs {
    /// Required: empty only when a front-end let it be missing.
    pub pattern: String,
    pub path: Option<String>,
    pub include: Option<String>,
    pub exclude: Option<String>,
    pub output: Option<String>,
    pub context: Option<u64>,
    pub before: Option<u64>,
    pub after: Option<u64>,
    pub function_context: bool,
    pub ignore_case: bool,
    pub literal: bool,
    pub multiline: bool,
    pub r#type: Option<String>,
    pub follow: bool,
    pub offset: Option<u64>,
    pub limit: Option<u64>,
}

impl FromArgReader for GrepArgs {
    const TOOL: Tool = Tool::Grep;

    fn from_reader<R: ArgReader>(reader: &mut R) -> Result<Self, R::Error> {
        Ok(Self {
            pattern: reader.text(&GREP_PATTERN)?.unwrap_or_default(),
            path: reader.text(&GREP_PATH)?,
            include: reader.text(&INCLUDE)?,
            exclude: reader.text(&EXCLUDE)?,
            output: reader.text(&OUTPUT)?,
            context: reader.number(&CONTEXT)?,
            before: reader.number(&BEFORE)?,
            after: reader.number(&AFTER)?,
            function_context: reader.switch(&FUNCTION_CONTEXT)?,
            ignore_case: reader.switch(&IGNORE_CASE)?,
            literal: reader.switch(&LITERAL)?,
            multiline: reader.switch(&MULTILINE)?,
            r#type: reader.text(&TYPE)?,
            follow: reader.switch(&FOLLOW)?,
            offset: reader.number(&OFFSET)?,
            limit: reader.number(&LIMIT)?,
        })
    }
}

/// The arguments of one tool call, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolArgs {
    Glob(GlobArgs),
    Grep(GrepArgs),
}

impl ToolArgs {
    /// The arguments of `tool`, from `reader`.
    pub fn from_reader<R: ArgReader>(tool: Tool, reader: &mut R) -> Result<Self, R::Error> {
        Ok(match tool {
            Tool::Glob => Self::Glob(GlobArgs::from_reader(reader)?),
            Tool::Grep => Self::Grep(GrepArgs::from_reader(reader)?),
        })
    }
}

#[cfg(test)]
#[path = "../tests/unit/tool.rs"]
mod tests;
