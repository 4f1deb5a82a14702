//! The options of SPEC §1, resolved once into the configuration every other
//! module sees. Nothing here knows clap: `cli` converts its types into
//! [`Settings`], and later front-ends (`call`, `mcp`) reuse the same value.

use std::path::PathBuf;
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

/// Everything one search needs besides its request.
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
}

impl Settings {
    /// Resolve `cwd` against the process's current directory. A missing
    /// workdir is not an error here: the search reports it as
    /// `SEARCH_FAILED`, naming the tool.
    pub fn new(
        cwd: Option<PathBuf>,
        rg: String,
        limits: Limits,
        timeout_ms: u64,
        glob_sort: GlobSort,
    ) -> Self {
        let current = std::env::current_dir().ok();
        let workdir = match (cwd, current) {
            (Some(dir), Some(current)) => current.join(dir),
            (Some(dir), None) => dir,
            (None, Some(current)) => current,
            (None, None) => PathBuf::from("."),
        };
        Self {
            workdir,
            rg,
            limits,
            timeout_ms,
            glob_sort,
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}
