//! `dsh-search serve`: one index server per tree and user, shared by every
//! caller (the CLI, `call`, every MCP session), started on demand and gone
//! when idle, as watchman and sccache keep theirs (doc/SPEC.md §11).
//!
//! The server holds the index of its workdir (`index/`, the same code an
//! MCP session kept before) and listens on a Unix socket in the user's
//! private directory ([`place`]). A client asks it a grep ([`wire`]);
//! the server drains its watcher, plans, and answers only when its index
//! can: otherwise it says why at once and the client scans, so a server
//! never spends a scan's time on anyone's behalf, and a client never
//! waits longer than the server's planning for the word to scan
//! ([`client`]). The answer is the bytes the client prints, made by the
//! same code a scan's would be, so the one rule of §11 holds through the
//! socket.
//!
//! The server exits after `--idle-ms` without a call, when its workdir is
//! gone or replaced, when its socket is taken from it, and on SIGINT,
//! SIGTERM or SIGHUP, removing its socket. Two servers started at once
//! for one tree make one: each takes the tree's lock first.

#[cfg(unix)]
pub mod client;
#[cfg(unix)]
pub mod place;
#[cfg(unix)]
mod server;
pub mod wire;

use crate::arguments::Arguments;
use crate::index::{Index, Why};
use crate::request::Request;
use crate::settings::{IndexMode, Settings};
use crate::stop::Budget;
use crate::tool::Tool;

#[cfg(unix)]
pub use server::serve;

/// What a front-end's grep does before it runs itself: ask the tree's
/// index server (doc/SPEC.md §11).
pub enum Served {
    /// The server answered: what to print (or send), as is.
    #[cfg_attr(not(unix), allow(dead_code, reason = "only Unix has a server"))]
    Answered(wire::Answer),
    /// Run here: the scan, with the index that says why (for
    /// `--explain`; `None` for what the index never concerns); `absent`
    /// when there was no server at all.
    Here { index: Option<Index>, absent: bool },
}

/// Ask the tree's server for the call of `tool` in `args`, for `front`,
/// within `budget`: a grep with `--index auto`, on Unix.
pub fn ask_server(
    tool: Tool,
    args: &Arguments,
    settings: &Settings,
    front: wire::Front,
    budget: Budget<'_>,
) -> Served {
    if tool != Tool::Grep || !matches!(args.request, Ok(Request::Grep(_))) {
        return Served::Here {
            index: None,
            absent: false,
        };
    }
    if settings.index == IndexMode::Off {
        return Served::Here {
            index: Some(Index::none(Why::Off)),
            absent: false,
        };
    }
    #[cfg(unix)]
    match client::ask(args, settings, front, budget) {
        Ok(answer) => Served::Answered(answer),
        Err(unanswered) => Served::Here {
            index: Some(Index::none(unanswered.why)),
            absent: unanswered.absent,
        },
    }
    #[cfg(not(unix))]
    {
        let _ = (front, budget);
        Served::Here {
            index: Some(Index::none(Why::Unavailable(
                crate::index::NO_WATCHER.to_owned(),
            ))),
            absent: false,
        }
    }
}

/// `dsh-search serve` where there is no Unix socket to serve on.
#[cfg(not(unix))]
pub fn serve(
    _settings: &Settings,
    _idle: std::time::Duration,
    _stop: &std::sync::Arc<crate::stop::Stop>,
) -> crate::error::Exit {
    no_index_here()
}

/// `dsh-search serve` where no index answers: it says so, and fails.
fn no_index_here() -> crate::error::Exit {
    crate::diag::note(&format!(
        "dsh-search serve: {}; the index answers on Linux only",
        crate::index::NO_WATCHER
    ));
    crate::error::Exit::Fault(crate::error::Fault::Serve)
}

/// `serve --status`: each server of this user, a line each.
pub fn status_text() -> String {
    #[cfg(unix)]
    {
        use std::fmt::Write as _;
        let servers = match client::statuses() {
            Ok(servers) => servers,
            Err(e) => return format!("No index server can run here: {e}\n"),
        };
        if servers.is_empty() {
            return "No index server is running.\n".to_owned();
        }
        let mut out = String::new();
        for (socket, status) in servers {
            let _ = match status {
                Ok(s) => writeln!(
                    out,
                    "{}  pid {}  {}  {} files  {} memory  up {} s  {} calls",
                    s.tree,
                    s.pid,
                    match (s.ready, &s.unavailable) {
                        (true, _) => "ready".to_owned(),
                        (false, Some(why)) => format!("index unavailable ({why})"),
                        (false, None) => "building".to_owned(),
                    },
                    s.files.map_or_else(|| "?".to_owned(), |n| n.to_string()),
                    s.memory.map_or_else(|| "?".to_owned(), mib),
                    s.age_ms / 1000,
                    s.calls,
                ),
                Err(e) => writeln!(out, "{}  not answering ({e})", socket.display()),
            };
        }
        out
    }
    #[cfg(not(unix))]
    "No index server can run here: the index answers on Linux only.\n".to_owned()
}

/// `bytes` as MiB, to a tenth.
#[cfg(unix)]
fn mib(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    format!("{}.{} MiB", bytes / MIB, bytes % MIB * 10 / MIB)
}
