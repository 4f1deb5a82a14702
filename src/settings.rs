//! The options of SPEC §1, resolved once into the configuration every other
//! module sees. Nothing here knows clap: `cli` hands over the [`Options`]
//! as given, [`Settings::resolve`] looks up what they name (the workdir and
//! spill directory made absolute, rg found by `locate`), and every
//! front-end (`call`, `mcp`) reuses the one value.

use std::num::{NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::locate::Rg;

/// Order of glob results (SPEC §2); ties are always broken by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum GlobSort {
    /// Modification time, newest first.
    #[default]
    Newest,
    /// Modification time, oldest first (rg's own `--sort=modified` order).
    Oldest,
    /// Path, byte order.
    Path,
}

/// Whether `dsh-search mcp` keeps an index of its workdir (`--index`,
/// SPEC §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum IndexMode {
    /// Built in the background; calls scan until it is ready.
    #[default]
    Auto,
    /// Every call scans.
    Off,
}

/// The caps of SPEC §1, each at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Paths one glob keeps inline.
    pub glob_max_results: NonZeroUsize,
    /// Matched lines one grep keeps inline.
    pub grep_max_matches: NonZeroUsize,
    /// Bytes of one line preview (of the original line, before decoding).
    pub grep_max_line_bytes: NonZeroUsize,
    /// Raw rg stdout bytes one search may parse.
    pub raw_output_max_bytes: NonZeroU64,
}

/// The shipped caps (SPEC §1): the command line's defaults.
pub const DEFAULT_LIMITS: Limits = Limits {
    glob_max_results: NonZeroUsize::new(100).unwrap(),
    grep_max_matches: NonZeroUsize::new(250).unwrap(),
    grep_max_line_bytes: NonZeroUsize::new(2000).unwrap(),
    raw_output_max_bytes: NonZeroU64::new(20_000_000).unwrap(),
};

/// A grep whose scan took longer starts the tree's index server (ms).
pub const DEFAULT_SERVE_AFTER_MS: u64 = 200;

/// An index server exits after this long without a call (ms).
pub const DEFAULT_SERVE_IDLE_MS: NonZeroU64 = NonZeroU64::new(600_000).unwrap();

/// The shipped budget for one search, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: NonZeroU64 = NonZeroU64::new(30_000).unwrap();

/// How a call's result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// The model-facing text of SPEC §4.
    #[default]
    Text,
    /// One JSON object (SPEC §7).
    Json,
}

/// The options as a front-end took them, before anything is looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `--cwd`: the workdir as given (relative to the current directory).
    pub cwd: Option<PathBuf>,
    pub limits: Limits,
    pub timeout_ms: NonZeroU64,
    /// `--rg` as given: a name to look up on PATH, or a path.
    pub rg: String,
    pub glob_sort: GlobSort,
    pub format: Format,
    pub spill_dir: Option<PathBuf>,
    pub spill_hint: String,
    pub explain: bool,
    pub mcp_structured: bool,
    pub index: IndexMode,
    /// `--serve-after-ms`: 0, never.
    pub serve_after_ms: u64,
}

/// Everything one call needs besides its request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Absolute workdir rg runs in; output paths are shown relative to it.
    pub workdir: PathBuf,
    /// The ripgrep executable, resolved in the caller's context.
    pub rg: Rg,
    pub limits: Limits,
    /// Budget for one search, in milliseconds.
    pub timeout_ms: NonZeroU64,
    pub glob_sort: GlobSort,
    pub format: Format,
    /// Absolute directory for complete results of capped searches.
    pub spill_dir: Option<PathBuf>,
    /// Printed after a spill locator.
    pub spill_hint: String,
    /// Write an account of each run to stderr.
    pub explain: bool,
    /// MCP: also send each result as `structuredContent`, with an
    /// `outputSchema` on each tool (SPEC §9).
    pub mcp_structured: bool,
    /// Whether grep asks the tree's index server (SPEC §11).
    pub index: IndexMode,
    /// A grep whose scan took longer than this starts the tree's server
    /// (`None`: never).
    pub serve_after: Option<Duration>,
}

impl Settings {
    /// Resolve `options` in this process's context: its current directory,
    /// its `PATH` and its own executable (SPEC §1, §2).
    pub fn resolve(options: Options) -> Self {
        let current = std::env::current_dir().ok();
        let absolute = |dir: Option<&Path>| match (dir, &current) {
            (Some(dir), Some(current)) => current.join(dir),
            (Some(dir), None) => dir.to_path_buf(),
            (None, Some(current)) => current.clone(),
            (None, None) => PathBuf::from("."),
        };
        // A missing directory is not an error here: the search reports it,
        // naming the tool.
        let workdir = absolute(options.cwd.as_deref());
        let spill_dir = options.spill_dir.as_deref().map(|d| absolute(Some(d)));
        let exe = std::env::current_exe().ok();
        let rg = Rg::resolve(
            &options.rg,
            current.as_deref(),
            std::env::var_os("PATH").as_deref(),
            exe.as_deref(),
        );
        Self {
            workdir,
            rg,
            limits: options.limits,
            timeout_ms: options.timeout_ms,
            glob_sort: options.glob_sort,
            format: options.format,
            spill_dir,
            spill_hint: options.spill_hint,
            explain: options.explain,
            mcp_structured: options.mcp_structured,
            index: options.index,
            serve_after: (options.serve_after_ms > 0)
                .then(|| Duration::from_millis(options.serve_after_ms)),
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.get())
    }
}
