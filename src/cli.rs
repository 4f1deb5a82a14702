//! The command line, as clap derive types. Doc comments here ARE the
//! `--help` text. No behaviour: [`Cli::into_parts`] hands plain values to
//! `settings` and `request`, and nothing else in the crate sees clap.

use std::num::{NonZeroU64, NonZeroUsize};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::ArgumentError;
use crate::request::{GlobRequest, GrepRequest, Request};
use crate::settings::{GlobSort, Limits, Settings};

const EXAMPLES: &str = "\
Examples:
  Find Rust files, newest first:
    dsh-search glob '**/*.rs'
  Search TypeScript sources for a function:
    dsh-search grep 'function \\w+Handler' src --include '*.{ts,tsx}'
  A pattern that starts with a dash goes after `--`:
    dsh-search grep -- '-->' docs
  Search another directory and list paths by name:
    dsh-search -C ~/project --glob-sort path glob '*.md'

Exit status: 0 results, 1 nothing found, 2 usage or argument error,
3 pattern rejected by ripgrep, 4 search failed, 5 raw output over the cap,
6 timed out or interrupted.";

/// Bounded, deterministic file discovery for AI agents, backed by ripgrep.
///
/// `glob` lists files whose paths match a glob; `grep` lists the lines that
/// match a regex, grouped by file. Results are capped, ordered the same way
/// on every run, and failures are typed with their own exit codes.
#[derive(Debug, Parser)]
#[command(name = "dsh-search", version, after_long_help = EXAMPLES)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options that apply to every subcommand (before or after it).
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Directory rg runs in; output paths are shown relative to it
    /// [default: the current directory]
    #[arg(short = 'C', long, env = "DSH_SEARCH_CWD", value_name = "DIR", global = true)]
    pub cwd: Option<PathBuf>,

    /// Paths one glob shows inline
    #[arg(long, env = "DSH_SEARCH_GLOB_MAX_RESULTS", value_name = "N", default_value = "100", global = true)]
    pub glob_max_results: NonZeroUsize,

    /// Matched lines one grep shows inline
    #[arg(long, env = "DSH_SEARCH_GREP_MAX_MATCHES", value_name = "N", default_value = "250", global = true)]
    pub grep_max_matches: NonZeroUsize,

    /// Bytes of one line preview; longer lines are cut and marked "(line truncated)"
    #[arg(long, env = "DSH_SEARCH_GREP_MAX_LINE_BYTES", value_name = "N", default_value = "2000", global = true)]
    pub grep_max_line_bytes: NonZeroUsize,

    /// Bytes of raw rg output one search may parse; more fails with exit 5
    #[arg(long, env = "DSH_SEARCH_RAW_OUTPUT_MAX_BYTES", value_name = "N", default_value = "20000000", global = true)]
    pub raw_output_max_bytes: NonZeroU64,

    /// Milliseconds one search may take; longer fails with exit 6
    #[arg(long, env = "DSH_SEARCH_TIMEOUT_MS", value_name = "N", default_value = "30000", global = true)]
    pub timeout_ms: NonZeroU64,

    /// The ripgrep executable (a name looked up on PATH, or a path)
    #[arg(long, env = "DSH_SEARCH_RG", value_name = "PATH", default_value = "rg", global = true)]
    pub rg: String,

    /// Order of glob results; ties are broken by path
    #[arg(long, env = "DSH_SEARCH_GLOB_SORT", value_enum, value_name = "ORDER", default_value = "newest", global = true)]
    pub glob_sort: GlobSortArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GlobSortArg {
    /// Modification time, newest first
    Newest,
    /// Modification time, oldest first
    Oldest,
    /// Path, byte order
    Path,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List files whose paths match a glob (hidden and ignored files
    /// included, VCS directories such as .git excluded)
    Glob {
        /// A ripgrep glob, such as '**/*.rs' or 'src/**/test_*.py'
        #[arg(value_name = "PATTERN")]
        pattern: String,
        /// Directory to search [default: the workdir]
        #[arg(value_name = "PATH")]
        path: Option<String>,
    },
    /// List lines matching a regex, grouped by file (ignore files and
    /// hidden-file rules apply, as in rg)
    Grep {
        /// A ripgrep regex, such as 'fn \w+_test'
        #[arg(value_name = "PATTERN")]
        pattern: String,
        /// File or directory to search [default: the workdir]
        #[arg(value_name = "PATH")]
        path: Option<String>,
        /// Search only files matching ONE glob, such as '*.rs' or '*.{ts,tsx}'
        #[arg(long, value_name = "GLOB", allow_hyphen_values = true)]
        include: Option<String>,
    },
}

impl GlobalArgs {
    pub fn settings(&self) -> Settings {
        Settings::new(
            self.cwd.clone(),
            self.rg.clone(),
            Limits {
                glob_max_results: self.glob_max_results.get(),
                grep_max_matches: self.grep_max_matches.get(),
                grep_max_line_bytes: self.grep_max_line_bytes.get(),
                raw_output_max_bytes: self.raw_output_max_bytes.get(),
            },
            self.timeout_ms.get(),
            match self.glob_sort {
                GlobSortArg::Newest => GlobSort::Newest,
                GlobSortArg::Oldest => GlobSort::Oldest,
                GlobSortArg::Path => GlobSort::Path,
            },
        )
    }
}

impl Command {
    pub fn request(self) -> Result<Request, ArgumentError> {
        Ok(match self {
            Self::Glob { pattern, path } => Request::Glob(GlobRequest::new(pattern, path)?),
            Self::Grep {
                pattern,
                path,
                include,
            } => Request::Grep(GrepRequest::new(pattern, path, include)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn global_options_go_anywhere_and_dashes_pass_after_double_dash() {
        let cli = Cli::try_parse_from([
            "dsh-search", "grep", "--grep-max-matches", "7", "--include", "-x*", "--", "-e", "-dir",
        ])
        .unwrap();
        assert_eq!(cli.global.grep_max_matches.get(), 7);
        let Command::Grep { pattern, path, include } = cli.command else { panic!("grep") };
        assert_eq!((pattern.as_str(), path.as_deref(), include.as_deref()), ("-e", Some("-dir"), Some("-x*")));
    }

    #[test]
    fn zero_is_a_usage_error_naming_the_option() {
        let err = Cli::try_parse_from(["dsh-search", "--timeout-ms", "0", "glob", "*"]).unwrap_err();
        assert!(err.to_string().contains("--timeout-ms"), "{err}");
    }
}
