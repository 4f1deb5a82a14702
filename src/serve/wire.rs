//! What a client and a tree's server say to each other on the socket: one
//! [`Ask`] from the client, then [`Reply`]s, each a frame (its length as 4
//! bytes, big-endian, then that much JSON).
//!
//! A grep is asked with everything that shapes its answer: the request,
//! the resolved settings (workdir, caps, format, spill directory, …), the
//! front-end it is for, the time it may take, and who asks ([`Identity`]:
//! the build of dsh-search, the rg, the environment rg reads its global
//! rules from). The server answers only a client that is its twin in all
//! of these. It replies [`Reply::Planned`] once its index can answer (or
//! [`Reply::Scan`] / [`Reply::Refused`] at once, and the client scans),
//! then [`Reply::Answer`]: the very bytes the client prints, or the MCP
//! result it sends.
//!
//! The wire is portable; only Unix has a server to speak it with.
#![cfg_attr(not(unix), allow(dead_code))]

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use crate::error::Exit;
use crate::render::ToolResult;
use crate::request::{GrepRequest, Ignored};
use crate::settings::Settings;

/// The longest frame read: a page is bounded (SPEC §1), and this is far
/// above any.
const FRAME_MAX: u32 = 64 * 1024 * 1024;

/// Who asks, or who answers: equal, or the server does not answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// dsh-search's version and its executable's identity.
    pub build: String,
    /// The rg that runs, and its file's identity.
    pub rg: Option<String>,
    pub rg_file: Option<String>,
    /// What rg reads its global excludes by.
    pub home: Option<String>,
    pub xdg_config_home: Option<String>,
}

// Unix only: only a Unix client and server ask (`place` names files there).
#[cfg(unix)]
impl Identity {
    /// This process's, running `settings.rg`.
    pub fn here(rg: Option<&str>) -> Self {
        let exe = std::env::current_exe().ok();
        let var = |name| std::env::var(name).ok();
        Self {
            build: format!(
                "{} {}",
                env!("CARGO_PKG_VERSION"),
                exe.as_deref()
                    .and_then(super::place::file_id)
                    .unwrap_or_default()
            ),
            rg: rg.map(str::to_owned),
            rg_file: rg.and_then(|rg| super::place::file_id(std::path::Path::new(rg))),
            home: var("HOME"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
        }
    }

    /// What differs between this and `other`, said for `--explain`.
    pub fn differs(&self, other: &Self) -> Option<&'static str> {
        if self.build != other.build {
            Some("another build of dsh-search")
        } else if self.rg != other.rg || self.rg_file != other.rg_file {
            Some("another rg")
        } else if self.home != other.home || self.xdg_config_home != other.xdg_config_home {
            Some("another HOME or XDG_CONFIG_HOME")
        } else {
            None
        }
    }
}

/// Which front-end the answer is printed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Front {
    /// The command line: the text or JSON it prints, and its exit.
    Cli,
    /// MCP: the `tools/call` result.
    Mcp,
}

/// One grep, asked of the server.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GrepCall {
    pub identity: Identity,
    pub settings: Settings,
    pub request: GrepRequest,
    pub ignored: Vec<Ignored>,
    pub front: Front,
    /// The longest the server may take, from when it reads the call.
    pub budget_ms: u64,
}

/// What a client asks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Ask {
    Grep(Box<GrepCall>),
    /// The server's state, for `serve --status` and for waiting on its
    /// index.
    Status,
}

/// A server's state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Status {
    pub pid: u32,
    pub tree: String,
    /// Its index answers (built, and every change taken in).
    pub ready: bool,
    /// Files the index covers (once built).
    pub files: Option<usize>,
    /// Why its index will never be ready (its build failed), if so.
    #[serde(default)]
    pub unavailable: Option<String>,
    /// Resident memory, bytes.
    pub memory: Option<u64>,
    pub age_ms: u64,
    pub calls: u64,
    pub identity: Identity,
}

/// What the server says.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Reply {
    /// The index answers: the answer follows.
    Planned,
    /// The index would scan, and why: the client scans.
    Scan(String),
    /// Not this client's twin, or not now (why).
    Refused(String),
    Answer(Answer),
    Status(Box<Status>),
}

/// A call's answer, as the client gives it: the server's, or (the
/// command line's) its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    /// The command line's stdout and exit (front [`Front::Cli`]).
    pub stdout: String,
    pub exit: Exit,
    /// The MCP `tools/call` result (front [`Front::Mcp`]).
    pub result: Option<ToolResult>,
    /// The `--explain` account, if asked for.
    pub explain: Option<String>,
}

/// Write `message` as one frame.
pub fn send<T: Serialize>(out: &mut impl Write, message: &T) -> io::Result<()> {
    let json = serde_json::to_vec(message).map_err(io::Error::other)?;
    let len = u32::try_from(json.len())
        .ok()
        .filter(|&len| len <= FRAME_MAX)
        .ok_or_else(|| io::Error::other("a frame over 64 MiB"))?;
    let mut frame = Vec::with_capacity(json.len() + 4);
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(&json);
    out.write_all(&frame)?;
    out.flush()
}

/// Read one frame as a `T`.
pub fn receive<T: for<'de> Deserialize<'de>>(input: &mut impl Read) -> io::Result<T> {
    let mut len = [0u8; 4];
    input.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len);
    if len > FRAME_MAX {
        return Err(io::Error::other("a frame over 64 MiB"));
    }
    let mut json = vec![0u8; len as usize];
    input.read_exact(&mut json)?;
    serde_json::from_slice(&json).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
#[path = "../../tests/unit/serve/wire.rs"]
mod tests;
