//! The index a tree's server keeps (`dsh-search serve`, doc/SPEC.md §11): grep
//! answered from the files that can hold a match instead of every file,
//! with the bytes the scan gives.
//!
//! - `query`: what a pattern requires, as a trigram query;
//! - `grams`: the trigrams of every file, and a query's answer;
//! - and on Linux: `tree`, the files the scan searches (rg's own `ignore`
//!   crate) with what each was when read, each directory watched before
//!   it is read, and the index built over them; `watch`, inotify, read to
//!   its end before each call; `sources`, the rules rg reads from outside
//!   the watched tree, read again at each call; `files`, the tree as the
//!   index knows it and which names still hold what was read; `listing`,
//!   a call's files and its candidates; `live`, the threads that keep it
//!   all current, and the plan.
//!
//! [`Index::plan`] is all a grep sees: the candidate files, named as rg
//! names them, or why this call scans. The search then runs the same rg
//! command over those files (`rg::command::grep_over_lines`). Nothing here
//! shapes what the model reads: a plan only narrows the files rg opens.
//!
//! How it stays exact:
//! - the file set is rg's: the walk uses rg's crate and rg's defaults,
//!   and the first build checks it against `rg --files` (any difference:
//!   no index); a call with a path, type, include or exclude asks
//!   `rg --files` itself for its files, kept until the tree's shape
//!   changes;
//! - a file is vouched for only while it is the file read, unchanged
//!   (its inode, size and times), and has no other name; one written
//!   since (a watcher event, drained before each call) or never read is
//!   a candidate;
//! - a change to the tree's shape (an entry made, removed or moved, an
//!   ignore file changed) walks the part it touched again before the call
//!   plans; a change to the rules outside the tree, or lost events (the
//!   kernel's queue overflowed), walk the whole tree again, and each file
//!   found is checked against what was read.

// The index answers on Linux only (see `watch`); elsewhere these are
// built for their tests.
#[cfg(target_os = "linux")]
mod files;
#[cfg(any(target_os = "linux", test))]
mod grams;
#[cfg(target_os = "linux")]
mod listing;
#[cfg(target_os = "linux")]
mod live;
#[cfg(target_os = "linux")]
mod names;
#[cfg(any(target_os = "linux", test))]
mod query;
#[cfg(target_os = "linux")]
mod sources;
#[cfg(target_os = "linux")]
mod tree;
#[cfg(target_os = "linux")]
mod watch;

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::request::GrepRequest;
use crate::settings::Settings;
use crate::stop::{Budget, Stop};

/// What one grep call does: search these files, or scan.
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub enum Plan {
    /// rg searches `paths` (at most `files` of them; `dirty` changed since
    /// they were read); `empty` is a directory holding nothing, searched
    /// when there is no candidate.
    Paths {
        paths: Vec<OsString>,
        files: usize,
        dirty: usize,
        empty: PathBuf,
        /// The index server answering (`dsh-search serve`), by pid.
        server: Option<u32>,
    },
    Scan(Why),
}

/// Why a call scans.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub enum Why {
    Off,
    /// The index is being built (or rebuilt after lost events).
    NotReady,
    /// The index cannot be kept here, and why.
    Unavailable(String),
    NoLiteral,
    /// This many percent of the files are candidates.
    TooMany(usize),
    /// The call follows links: the index walks without.
    Follow,
    /// Listing the call's files did not go cleanly.
    Listing(String),
    /// The tree changed, and the index had not taken the change in within
    /// the part of the call's time it may wait.
    CatchingUp,
    /// A directory of the tree (or an ignore file) could not be read: rg
    /// says so, which only a scan gives.
    Unreadable(String),
    /// The call's filters leave no file: rg's walk says so in its own
    /// words, which only a walk gives.
    NoFiles,
    /// The tree's index server did not answer, and why (a client's).
    Server(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Off => f.write_str("off"),
            Why::NotReady => f.write_str("not ready"),
            Why::Unavailable(why) => write!(f, "unavailable: {why}"),
            Why::NoLiteral => f.write_str("no required literal"),
            Why::TooMany(percent) => write!(f, "{percent}% of files are candidates"),
            Why::Follow => f.write_str("follow: links are outside the index"),
            Why::Listing(why) => write!(f, "the call's files could not be listed: {why}"),
            Why::CatchingUp => f.write_str("the tree changed and the index is catching up"),
            Why::Unreadable(why) => write!(f, "part of the tree cannot be read: {why}"),
            Why::NoFiles => f.write_str("the filters leave no file to search"),
            Why::Server(why) => write!(f, "server: {why}"),
        }
    }
}

/// Why the index answers nothing where it is not on Linux (see `watch`).
pub const NO_WATCHER: &str = "no watcher here promises that a change is seen before the next call";

/// What a plan did, for `--explain` (which words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Account {
    /// `candidates` of the call's `files` searched, `dirty` of them
    /// changed since the index read them (or never read).
    Answered {
        candidates: usize,
        files: usize,
        dirty: usize,
        /// The index server that answered, by pid.
        server: Option<u32>,
    },
    Scanned(Why),
}

impl Plan {
    pub fn account(&self) -> Account {
        match self {
            Plan::Paths {
                paths,
                files,
                dirty,
                server,
                ..
            } => Account::Answered {
                candidates: paths.len(),
                files: *files,
                dirty: *dirty,
                server: *server,
            },
            Plan::Scan(why) => Account::Scanned(why.clone()),
        }
    }
}

/// The index of one server's workdir, or the reason there is none.
#[cfg_attr(not(unix), allow(dead_code, reason = "only Unix has a server"))]
pub struct Index {
    #[cfg(target_os = "linux")]
    live: Option<live::Live>,
    why_not: Why,
}

#[cfg_attr(not(unix), allow(dead_code, reason = "only Unix has a server"))]
impl Index {
    /// Start building the index of `settings.workdir` in the background
    /// (`--index auto`), or say why there is none: the tree's server's,
    /// whose answers name it by pid. Its own rg runs stop on `stop`'s
    /// signals; `empty` names a directory that holds nothing (made if
    /// missing), searched when no file is a candidate.
    pub fn start(settings: &Settings, stop: &Stop, empty: &Path) -> Self {
        #[cfg(target_os = "linux")]
        {
            match live::Live::start(settings, stop, empty) {
                Ok(live) => Self {
                    live: Some(live),
                    why_not: Why::NotReady,
                },
                Err(why) => Self::none(Why::Unavailable(why)),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (settings, stop, empty);
            Self::none(Why::Unavailable(NO_WATCHER.to_owned()))
        }
    }

    /// An index that answers nothing, every call scanning for `why_not`
    /// (a client whose tree's server did not answer says why so).
    pub fn none(why_not: Why) -> Self {
        Self {
            #[cfg(target_os = "linux")]
            live: None,
            why_not,
        }
    }

    /// Whether the index answers now (built, and every change taken in),
    /// and the files it covers once built.
    pub fn state(&self) -> (bool, Option<usize>) {
        #[cfg(target_os = "linux")]
        if let Some(live) = &self.live {
            return (live.wait_ready(std::time::Duration::ZERO), live.files());
        }
        (false, None)
    }

    /// Why the index will not answer until the server restarts (its build
    /// failed, or it could not start), if so: `serve --status` says it
    /// rather than "building" forever.
    pub fn unavailable(&self) -> Option<String> {
        #[cfg(target_os = "linux")]
        if let Some(live) = &self.live {
            return live.unavailable();
        }
        match &self.why_not {
            Why::Unavailable(why) => Some(why.clone()),
            _ => None,
        }
    }

    /// The plan for the grep `r`, within `budget` (listing a filtered
    /// call's files runs rg).
    pub fn plan(&self, r: &GrepRequest, settings: &Settings, budget: Budget<'_>) -> Plan {
        #[cfg(target_os = "linux")]
        if let Some(live) = &self.live {
            let mut plan = live.plan(r, settings, budget);
            if let Plan::Paths { server, .. } = &mut plan {
                *server = Some(std::process::id());
            }
            return plan;
        }
        let _ = (r, settings, budget);
        Plan::Scan(self.why_not.clone())
    }

    /// Stop keeping the index: its threads end and its rg runs are killed
    /// (the server is going).
    pub fn shutdown(&self) {
        #[cfg(target_os = "linux")]
        if let Some(live) = &self.live {
            live.shutdown();
        }
    }
}
