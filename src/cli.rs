//! The command line, as clap types. Doc comments here ARE the `--help`
//! text and the man pages. No behaviour: [`Command::action`] and
//! [`GlobalArgs::settings`] hand plain values to the rest of the crate (the
//! argument rules are `request`'s, the lookups `settings`'), and nothing
//! else (but the generator) sees clap.

use std::ffi::OsString;
use std::num::{NonZeroU64, NonZeroUsize};
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

use clap::builder::PossibleValue;

use crate::error::exit_status_help;
use crate::locate::DEFAULT_RG;
use crate::settings::{
    DEFAULT_LIMITS, DEFAULT_SERVE_AFTER_MS, DEFAULT_SERVE_IDLE_MS, DEFAULT_TIMEOUT_MS, Format,
    GlobSort, Here, IndexMode, Limits, Settings,
};
use crate::spill::DEFAULT_HINT;
use crate::tool::{
    self, ArgKind, ArgReader, Argument, FromArgReader, GlobArgs, GrepArgs, Tool, ToolArgs,
};

const EXAMPLES: &str = r"Examples:
  Find Rust files, newest first:
    dsh-search glob '**/*.rs'
  Search TypeScript sources for a function, only in .ts and .tsx files:
    dsh-search grep 'function \w+Handler' src --include '*.{ts,tsx}'
  A pattern that starts with a dash goes after `--`:
    dsh-search grep -- '-->' docs
  One JSON object instead of text:
    dsh-search --format json grep TODO
  Keep complete results of capped searches, and see how a search ran:
    dsh-search --spill-dir ~/.cache/dsh-search --explain glob '**/*'
  Serve both tools to an agent over MCP:
    dsh-search mcp";

/// The top-level `--help` epilogue: the examples, then the exit status
/// table as `error.rs` defines it.
fn examples() -> String {
    format!("{EXAMPLES}\n\n{}", exit_status_help())
}

/// glob's `--help` epilogue, naming the VCS directories from their one list.
fn glob_examples() -> String {
    let [rest @ .., last] = tool::VCS_DIRS;
    format!(
        "Rules: hidden and ignored files are listed; {} and {last}\n{GLOB_RULES}",
        rest.join(", ")
    )
}

const GLOB_RULES: &str = r"directories never are. The complete list is ordered (--glob-sort) before it is
capped (--glob-max-results); a capped list ends with a note saying where the
complete list was saved (--spill-dir) or that it could not be.

Examples:
  Rust files anywhere, newest first:
    dsh-search glob '**/*.rs'
  Markdown files under docs/, by path:
    dsh-search --glob-sort path glob '*.md' docs
  A directory whose name starts with a dash:
    dsh-search glob '*.txt' -- -notes";

const GREP_EXAMPLES: &str = r"Rules: .gitignore and hidden-file rules apply, as in rg. Matches are grouped by
file, files in path order, lines by number; a line counts once however often
it matches. Previews are cut at --grep-max-line-bytes; when the match lies
beyond the cut, the preview is a window around it. If rg could not read some
paths but found matches, the matches are shown with a note.

Examples:
  Where a function is defined:
    dsh-search grep 'fn\s+parse_args'
  Only in TypeScript files under src/:
    dsh-search grep 'useEffect\(' src --include '*.{ts,tsx}'
  Leave out tests/ and one file, in one call (braces hold several globs):
    dsh-search grep 'cfg_if!' --exclude '{**/tests/**,src/macros/cfg.rs}'
  A pattern that starts with a dash:
    dsh-search grep -- '--no-config'
  The same search as JSON:
    dsh-search --format json grep 'TODO|FIXME'";

const CALL_EXAMPLES: &str = r#"Examples:
  dsh-search call glob '{"pattern": "**/*.rs"}'
  echo '{"pattern": "fn main", "include": "*.rs"}' | dsh-search call grep -

Output, exit status and JSON envelope are those of the same glob/grep call."#;

const MCP_EXAMPLES: &str = r"Register with an MCP client, e.g. Claude Code:
  claude mcp add dsh-search -- dsh-search --spill-dir ~/.cache/dsh-search mcp

Global options given here (caps, --spill-dir, --timeout-ms, --cwd) apply to every
call. Protocol messages go to stdout; diagnostics (and --explain) to stderr.";

const SERVE_EXAMPLES: &str = r"Callers start a server on their own: a grep whose scan took over
--serve-after-ms (200 ms), and every `mcp` session. To start one by hand, or see
what runs:
  dsh-search --cwd ~/src/project serve &
  dsh-search serve --status

One server per tree and user. Its socket is in $XDG_RUNTIME_DIR/dsh-search
(else ~/.cache/dsh-search/run), private to the user; what it says goes to
the log file beside it when a caller started it. Linux only: elsewhere every
call scans.";

/// Bounded, deterministic file discovery for AI agents, backed by ripgrep.
///
/// `glob` lists files whose paths match a glob; `grep` lists the lines that
/// match a regex, grouped by file. Results are capped, ordered the same way
/// on every run, and failures are typed with their own exit codes.
#[derive(Debug, Parser)]
#[command(name = "dsh-search", version, after_long_help = examples())]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options that apply to every subcommand (before or after it). In a
/// tool's `--help` they come after the tool's own arguments.
#[derive(Debug, Args)]
#[command(next_display_order = 100)]
pub struct GlobalArgs {
    // No short letter: `-C` is context, as in rg and grep.
    /// Directory rg runs in; output paths are shown relative to it
    /// [default: the current directory]
    #[arg(long, env = "DSH_SEARCH_CWD", value_name = "DIR", global = true)]
    pub cwd: Option<PathBuf>,

    // The number options of SPEC §1, each a whole number of at least 1.
    /// Paths one glob shows inline
    #[arg(
        long,
        env = "DSH_SEARCH_GLOB_MAX_RESULTS",
        value_name = "N",
        default_value_t = DEFAULT_LIMITS.glob_max_results,
        value_parser = count,
        allow_negative_numbers = true,
        global = true
    )]
    pub glob_max_results: NonZeroUsize,

    /// Matched lines one grep shows inline
    #[arg(
        long,
        env = "DSH_SEARCH_GREP_MAX_MATCHES",
        value_name = "N",
        default_value_t = DEFAULT_LIMITS.grep_max_matches,
        value_parser = count,
        allow_negative_numbers = true,
        global = true
    )]
    pub grep_max_matches: NonZeroUsize,

    /// Bytes of one line preview; longer lines are cut and marked "(line truncated)"
    #[arg(
        long,
        env = "DSH_SEARCH_GREP_MAX_LINE_BYTES",
        value_name = "N",
        default_value_t = DEFAULT_LIMITS.grep_max_line_bytes,
        value_parser = count,
        allow_negative_numbers = true,
        global = true
    )]
    pub grep_max_line_bytes: NonZeroUsize,

    /// Bytes of raw rg output one search may parse; more fails with exit 5
    #[arg(
        long,
        env = "DSH_SEARCH_RAW_OUTPUT_MAX_BYTES",
        value_name = "N",
        default_value_t = DEFAULT_LIMITS.raw_output_max_bytes,
        value_parser = at_least_one,
        allow_negative_numbers = true,
        global = true
    )]
    pub raw_output_max_bytes: NonZeroU64,

    /// Milliseconds one search may take; longer fails with exit 6
    #[arg(
        long,
        env = "DSH_SEARCH_TIMEOUT_MS",
        value_name = "N",
        default_value_t = DEFAULT_TIMEOUT_MS,
        value_parser = at_least_one,
        allow_negative_numbers = true,
        global = true
    )]
    pub timeout_ms: NonZeroU64,

    /// The ripgrep executable (by default the rg beside dsh-search, else on PATH; another name is looked up on PATH, or a path)
    #[arg(
        long,
        env = "DSH_SEARCH_RG",
        value_name = "PATH",
        default_value = DEFAULT_RG,
        value_parser = Utf8,
        global = true
    )]
    pub rg: String,

    /// Output: model-facing text, or one JSON object
    #[arg(
        long,
        env = "DSH_SEARCH_FORMAT",
        value_enum,
        value_name = "FORMAT",
        default_value = "text",
        global = true
    )]
    pub format: Format,

    /// Directory where the complete result of a capped search is saved
    /// (created with mode 0700) [default: none: capped results are not saved]
    #[arg(long, env = "DSH_SEARCH_SPILL_DIR", value_name = "DIR", global = true)]
    pub spill_dir: Option<PathBuf>,

    /// The retrieval hint printed after a spill file's path
    #[arg(long, env = "DSH_SEARCH_SPILL_HINT", value_name = "TEXT", default_value = DEFAULT_HINT, hide_default_value = true, value_parser = Utf8, global = true)]
    pub spill_hint: String,

    /// Print to stderr how the search ran: the exact sh -c command, rg's
    /// version and exit status, byte counts, results kept, spill outcome
    #[arg(long, global = true)]
    pub explain: bool,

    /// MCP: also send each result as structuredContent (the JSON envelope),
    /// declared by an outputSchema. Off by default: Claude Code and Codex
    /// show the model structuredContent instead of the text when it is there
    #[arg(
        long,
        env = "DSH_SEARCH_MCP_STRUCTURED",
        global = true,
        value_parser = clap::builder::FalseyValueParser::new()
    )]
    pub mcp_structured: bool,

    /// Order of glob results; ties are broken by path
    #[arg(
        long,
        env = "DSH_SEARCH_GLOB_SORT",
        value_enum,
        value_name = "ORDER",
        default_value = "newest",
        global = true
    )]
    pub glob_sort: GlobSort,

    /// grep asks the workdir's index server (`dsh-search serve`), so
    /// that it reads only the files that can hold a match (same results;
    /// --explain says what it did); with none there, or none ready, it
    /// scans
    #[arg(
        long,
        env = "DSH_SEARCH_INDEX",
        value_enum,
        value_name = "MODE",
        default_value = "auto",
        global = true
    )]
    pub index: IndexMode,

    /// Start the workdir's index server in the background once a grep's
    /// own scan took longer than MS milliseconds (0: never); `mcp` starts
    /// one at once
    #[arg(
        long,
        env = "DSH_SEARCH_SERVE_AFTER_MS",
        value_name = "MS",
        default_value_t = DEFAULT_SERVE_AFTER_MS,
        global = true
    )]
    pub serve_after_ms: u64,
}

/// `--format`: settings' own type, so nothing copies it (settings never
/// sees clap; the impl lives here).
impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Text, Self::Json]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Self::Text => PossibleValue::new("text").help("Model-facing text"),
            Self::Json => PossibleValue::new("json").help("One JSON object per call"),
        })
    }
}

/// `--glob-sort`.
impl ValueEnum for GlobSort {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Newest, Self::Oldest, Self::Path]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Self::Newest => PossibleValue::new("newest").help("Modification time, newest first"),
            Self::Oldest => PossibleValue::new("oldest").help("Modification time, oldest first"),
            Self::Path => PossibleValue::new("path").help("Path, byte order"),
        })
    }
}

/// `--index`.
impl ValueEnum for IndexMode {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::Auto, Self::Off]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Self::Auto => PossibleValue::new("auto")
                .help("Ask the tree's index server; scan when it cannot answer"),
            Self::Off => PossibleValue::new("off").help("Always scan; start no server"),
        })
    }
}

/// `call TOOL`.
impl ValueEnum for Tool {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self {
            Self::Glob => "Files whose paths match a glob",
            Self::Grep => "Lines matching a regex",
        };
        Some(PossibleValue::new(self.as_str()).help(help))
    }
}

/// A tool's arguments on the command line (`GlobArgs`, `GrepArgs`), by
/// its table (`tool::Tool::arguments`): positionals in order, the rest as
/// `--name`.
#[derive(Debug, Clone)]
pub struct Argv<A>(pub A);

impl<A: FromArgReader> clap::FromArgMatches for Argv<A> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let Ok(args) = A::from_reader(&mut Matches(matches));
        Ok(Self(args))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<A: FromArgReader> Args for Argv<A> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        A::TOOL
            .arguments()
            .iter()
            .enumerate()
            .fold(cmd, |cmd, (i, argument)| {
                cmd.arg(tool_arg(argument).display_order(i))
            })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// What clap matched, read by the table (its types checked by
/// [`tool_arg`]'s value parsers).
struct Matches<'a>(&'a clap::ArgMatches);

impl ArgReader for Matches<'_> {
    type Error = std::convert::Infallible;

    fn text(&mut self, row: &Argument) -> Result<Option<String>, Self::Error> {
        Ok(self.0.get_one::<String>(row.name).cloned())
    }

    fn switch(&mut self, row: &Argument) -> Result<bool, Self::Error> {
        Ok(self.0.get_flag(row.name))
    }

    fn number(&mut self, row: &Argument) -> Result<Option<u64>, Self::Error> {
        Ok(self.0.get_one::<u64>(row.name).copied())
    }
}

/// One row of a tool's argument table as a clap argument. Ranges and
/// choices are checked by the request rules (the same for every
/// front-end); clap knows the choices only for `--help` and completions.
fn tool_arg(argument: &Argument) -> clap::Arg {
    let arg = clap::Arg::new(argument.name)
        .help(argument.help)
        .required(argument.required);
    let arg = match argument.kind {
        ArgKind::Text { value_name } => arg.value_name(value_name).value_parser(Utf8),
        ArgKind::Switch => arg.action(clap::ArgAction::SetTrue),
        ArgKind::Number { value_name, .. } => arg
            .value_name(value_name)
            .value_parser(clap::value_parser!(u64)),
        ArgKind::Choice { value_name, values } => {
            arg.value_name(value_name)
                .value_parser(clap::builder::PossibleValuesParser::new(
                    values.iter().copied(),
                ))
        }
    };
    if argument.positional {
        return arg;
    }
    // `ignore_case` is `--ignore-case`.
    arg.long(argument.name.replace('_', "-"))
        .short(argument.short)
        .allow_hyphen_values(matches!(argument.kind, ArgKind::Text { .. }))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List files whose paths match a glob (hidden and ignored files
    /// included, VCS directories such as .git excluded)
    #[command(after_long_help = glob_examples())]
    Glob(Argv<GlobArgs>),
    /// List lines matching a regex, grouped by file (ignore files and
    /// hidden-file rules apply, as in rg)
    #[command(after_long_help = GREP_EXAMPLES)]
    Grep(Argv<GrepArgs>),
    /// Run a tool with its arguments as one JSON object, as a model
    /// produced them: {"pattern": ..., "path": ..., "include": ...}
    #[command(after_long_help = CALL_EXAMPLES)]
    Call {
        /// The tool to run
        #[arg(value_enum, value_name = "TOOL")]
        tool: Tool,
        /// The arguments as a JSON object; `-` or nothing reads them from stdin
        #[arg(value_name = "ARGS_JSON", allow_hyphen_values = true, value_parser = Utf8)]
        args: Option<String>,
    },
    /// Print both tools' definitions (description, JSON Schema of the
    /// arguments, prompt guidance) as one JSON document
    Schema,
    /// Serve both tools over the Model Context Protocol on stdin/stdout
    /// (newline-delimited JSON-RPC 2.0)
    #[command(after_long_help = MCP_EXAMPLES)]
    Mcp,
    /// Keep the index of the workdir and answer grep from it for every
    /// caller of this user (the CLI, call, MCP sessions), over a private
    /// Unix socket; started by those callers on their own, and gone after
    /// --idle-ms without a call, when the workdir is gone, or on a signal
    #[command(after_long_help = SERVE_EXAMPLES)]
    Serve {
        /// Exit after this many milliseconds without a call
        #[arg(
            long,
            env = "DSH_SEARCH_SERVE_IDLE_MS",
            value_name = "MS",
            default_value_t = DEFAULT_SERVE_IDLE_MS,
            value_parser = at_least_one
        )]
        idle_ms: NonZeroU64,
        /// List the running servers (tree, files, memory, age, calls) and
        /// exit
        #[arg(long)]
        status: bool,
    },
    /// Write man pages and shell completions (for packagers and the repo)
    #[command(hide = true)]
    Generate {
        /// Directory that receives man/ and completions/
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
    },
}

impl GlobalArgs {
    /// The settings the options give, what they name looked up in this
    /// process's context (SPEC §1, §2).
    pub fn settings(&self) -> Settings {
        let here = Here::now();
        Settings {
            workdir: here.absolute(self.cwd.as_deref()),
            rg: here.rg(&self.rg),
            limits: Limits {
                glob_max_results: self.glob_max_results,
                grep_max_matches: self.grep_max_matches,
                grep_max_line_bytes: self.grep_max_line_bytes,
                raw_output_max_bytes: self.raw_output_max_bytes,
            },
            timeout_ms: self.timeout_ms,
            glob_sort: self.glob_sort,
            format: self.format,
            spill_dir: self.spill_dir.as_deref().map(|d| here.absolute(Some(d))),
            spill_hint: self.spill_hint.clone(),
            explain: self.explain,
            mcp_structured: self.mcp_structured,
            index: self.index,
            serve_after: (self.serve_after_ms > 0)
                .then(|| std::time::Duration::from_millis(self.serve_after_ms)),
        }
    }
}

/// A number option: a whole number of at least 1 (SPEC §1), said so.
fn at_least_one(value: &str) -> Result<NonZeroU64, String> {
    let n: u64 = value.parse().map_err(|e: std::num::ParseIntError| {
        if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) {
            format!("must be at most {}", u64::MAX)
        } else {
            "must be a whole number of at least 1".to_owned()
        }
    })?;
    NonZeroU64::new(n).ok_or_else(|| "must be at least 1".to_owned())
}

/// A count option: as [`at_least_one`], saturating where a `usize` is
/// narrower than a `u64`.
fn count(value: &str) -> Result<NonZeroUsize, String> {
    at_least_one(value).map(|n| NonZeroUsize::try_from(n).unwrap_or(NonZeroUsize::MAX))
}

/// A text value that must be UTF-8 (it becomes part of the `sh -c`
/// string or the output): clap's own check does not name the argument.
#[derive(Clone, Copy)]
struct Utf8;

impl clap::builder::TypedValueParser for Utf8 {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value.to_str().map(str::to_owned).ok_or_else(|| {
            let name = arg.map_or_else(|| "an argument".to_owned(), |a| format!("{a}"));
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!(
                    "{name} is not valid UTF-8 (it reads {:?}); dsh-search passes every value to rg as text\n",
                    value.to_string_lossy()
                ),
            )
            .with_cmd(cmd)
        })
    }
}

/// What `main` is asked to do, with clap's types left behind.
pub enum Action {
    /// Run one tool call (`glob`, `grep`, or `call` once its JSON is read).
    Tool(Tool, Input),
    Schema,
    Mcp,
    /// Run the workdir's index server, or list the servers running.
    Serve {
        idle_ms: NonZeroU64,
        status: bool,
    },
    /// Write man pages and completions under this directory.
    Generate(PathBuf),
}

/// The clap definition, for the generator.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Where a tool call's arguments come from.
pub enum Input {
    /// The arguments on the command line.
    Argv(Box<ToolArgs>),
    /// A JSON object on the command line, or `None` for stdin.
    Json(Option<String>),
}

impl Command {
    pub fn action(self) -> Action {
        match self {
            Self::Glob(Argv(args)) => {
                Action::Tool(Tool::Glob, Input::Argv(Box::new(ToolArgs::Glob(args))))
            }
            Self::Grep(Argv(args)) => {
                Action::Tool(Tool::Grep, Input::Argv(Box::new(ToolArgs::Grep(args))))
            }
            Self::Call { tool, args } => Action::Tool(tool, Input::Json(args.filter(|a| a != "-"))),
            Self::Schema => Action::Schema,
            Self::Mcp => Action::Mcp,
            Self::Serve { idle_ms, status } => Action::Serve { idle_ms, status },
            Self::Generate { out_dir } => Action::Generate(out_dir),
        }
    }
}

/// Why the command line did not yield a [`Cli`].
pub enum Rejected {
    /// `--help` or `--version`: clap printed the answer (or failed to).
    Answered(std::io::Result<()>),
    /// A usage error, as clap words it (without its `error: ` prefix).
    Usage(String),
}

/// Parse `args` (program name first). `try_parse`, not `parse`: a usage
/// error must still be reported the way the caller asked (text or JSON).
pub fn parse(args: &[OsString]) -> Result<Cli, Rejected> {
    Cli::try_parse_from(args).map_err(|e| {
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            // Help goes to stdout, styled when that is a terminal.
            return Rejected::Answered(e.print());
        }
        let rendered = e.render().to_string();
        Rejected::Usage(rendered.trim().trim_start_matches("error: ").to_owned())
    })
}

/// Whether a command line that clap rejected asked for JSON output (by
/// flag, or else by `DSH_SEARCH_FORMAT`), so its usage error can be JSON too.
pub fn wants_json(args: &[OsString]) -> bool {
    let mut words = options_part(args);
    while let Some(word) = words.next() {
        match word.to_str() {
            Some("--format") => return words.next().and_then(|v| v.to_str()) == Some("json"),
            Some(w) if w.starts_with("--format=") => return w == "--format=json",
            _ => {}
        }
    }
    std::env::var("DSH_SEARCH_FORMAT").is_ok_and(|v| v == "json")
}

/// The tool a rejected command line named, if any.
pub fn tool_named(args: &[OsString]) -> Option<Tool> {
    options_part(args).find_map(|w| w.to_str().and_then(Tool::named))
}

/// The words before `--`, program name skipped.
fn options_part(args: &[OsString]) -> impl Iterator<Item = &OsString> {
    args.iter().skip(1).take_while(|w| w.to_str() != Some("--"))
}

/// The settings every option's default gives, for unit tests.
#[cfg(test)]
pub fn test_settings() -> Settings {
    match Cli::try_parse_from(["dsh-search", "schema"]) {
        Ok(cli) => cli.global.settings(),
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
#[path = "../tests/unit/cli.rs"]
mod tests;
