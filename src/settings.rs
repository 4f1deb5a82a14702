//! The options of SPEC §1, resolved once into the configuration every other
//! module sees. Nothing here knows clap: `cli` makes the one [`Settings`]
//! from the options as given, asking [`Here`] for what they name (the
//! workdir and spill directory made absolute, rg found by `locate`), and
//! every front-end (`call`, `mcp`) reuses the one value.

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

/// Where the options' places and rg are looked up: this process's current
/// directory, its `PATH` and its own executable (SPEC §1, §2).
pub struct Here {
    current: Option<PathBuf>,
}

impl Here {
    pub fn now() -> Self {
        Self {
            current: std::env::current_dir().ok(),
        }
    }

    /// `dir` as given (relative to the current directory) made absolute;
    /// none given, the current directory. A missing directory is not an
    /// error here: the search reports it, naming the tool.
    pub fn absolute(&self, dir: Option<&Path>) -> PathBuf {
        match (dir, &self.current) {
            (Some(dir), Some(current)) => current.join(dir),
            (Some(dir), None) => dir.to_path_buf(),
            (None, Some(current)) => current.clone(),
            (None, None) => PathBuf::from("."),
        }
    }

    /// The rg that `--rg` names (a name looked up on `PATH`, or a path).
    pub fn rg(&self, given: &str) -> Rg {
        let exe = std::env::current_exe().ok();
        let path = std::env::var_os("PATH");
        Rg::resolve(
            given,
            self.current.as_deref(),
            path.as_deref(),
            exe.as_deref(),
        )
    }
}

impl Settings {
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.get())
    }
}
