//! The options of SPEC §1, resolved once into the configuration every other
//! module sees. Nothing here knows clap: `cli` converts its types into
//! [`Settings`], and later front-ends (`call`, `mcp`) reuse the same value.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Order of glob results (SPEC §2); ties are always broken by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GlobSort {
    /// Modification time, newest first.
    #[default]
    Newest,
    /// Modification time, oldest first (the seed's `--sort=modified`).
    Oldest,
    /// Path, byte order.
    Path,
}

/// The caps of SPEC §1. All are at least 1 (the CLI's types enforce it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Paths one glob keeps inline.
    pub glob_max_results: usize,
    /// Matched lines one grep keeps inline.
    pub grep_max_matches: usize,
    /// Bytes of one line preview (of the original line, before decoding).
    pub grep_max_line_bytes: usize,
    /// Raw rg stdout bytes one search may parse.
    pub raw_output_max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            glob_max_results: 100,
            grep_max_matches: 250,
            grep_max_line_bytes: 2000,
            raw_output_max_bytes: 20_000_000,
        }
    }
}

/// How a call's result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The model-facing text of SPEC §4.
    #[default]
    Text,
    /// One JSON object (SPEC §7).
    Json,
}

/// Everything one call needs besides its request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Absolute workdir rg runs in; output paths are shown relative to it.
    pub workdir: PathBuf,
    /// The ripgrep executable, as given (looked up on PATH by `sh`).
    pub rg: String,
    pub limits: Limits,
    /// Budget for one search, in milliseconds (at least 1).
    pub timeout_ms: u64,
    pub glob_sort: GlobSort,
    pub format: Format,
    /// Absolute directory for complete results of capped searches.
    pub spill_dir: Option<PathBuf>,
    /// Printed after a spill locator.
    pub spill_hint: String,
    /// Write an account of each run to stderr.
    pub explain: bool,
}

impl Settings {
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

/// `dir` made absolute against the process's current directory (the
/// current directory itself for `None`). A missing directory is not an
/// error here: the search reports it, naming the tool.
pub fn absolute(dir: Option<&Path>) -> PathBuf {
    let current = std::env::current_dir().ok();
    match (dir, current) {
        (Some(dir), Some(current)) => current.join(dir),
        (Some(dir), None) => dir.to_path_buf(),
        (None, Some(current)) => current,
        (None, None) => PathBuf::from("."),
    }
}
