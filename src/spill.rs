//! The spill store (SPEC §5): the complete result of a capped search, saved
//! under a name derived from its content.
//!
//! `<dir>/<12 hex of SHA-256>-<tool>-results.txt`: the same result always
//! gets the same locator, and an identical file already there is reused.
//! What a timed-out search found is saved as `…-results-incomplete.txt`, so
//! the name alone tells a later reader that the list is not the whole tree
//! (a glob spill is paths only, with no room for a note).
//! On Unix the directory is created with mode 0700, the file with 0600; on
//! Windows both keep the ACL they inherit from where they are made (the
//! user's own, under a profile directory), as there are no POSIX modes to
//! set (SPEC §10). The content goes to a fresh temp file in the same
//! directory (created exclusively, so never through a planted symlink,
//! junction or other link) and is moved into place only if the final name
//! is free (a link there counts as taken), so a reader never sees half a
//! file and nothing is ever written through a link at the final name. Any
//! failure leaves no temp file behind and is reported as a reason, never as
//! an error.

use std::fmt::Write as _;
use std::fs::{self, DirBuilder};
use std::io::{self, Write};
#[cfg(unix)]
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::tool::Tool;

/// The retrieval hint printed after a locator unless `--spill-hint` says otherwise.
pub const DEFAULT_HINT: &str = "Use read with offset/limit, or grep this path to search within it.";

/// A saved result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// Absolute path of the file.
    pub locator: PathBuf,
    /// The identical file was already there.
    pub reused: bool,
}

/// Whether a saved result is the whole search or what a timed-out one found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    Complete,
    Incomplete,
}

/// The file name `content` is saved under.
pub fn file_name(tool: Tool, extent: Extent, content: &str) -> String {
    let digest = Sha256::digest(content.as_bytes());
    let mut hex = String::with_capacity(12);
    for byte in &digest[..6] {
        let _ = write!(hex, "{byte:02x}");
    }
    let tail = match extent {
        Extent::Complete => "",
        Extent::Incomplete => "-incomplete",
    };
    format!("{hex}-{tool}-results{tail}.txt")
}

/// Save `content` in `dir`. The error is a sentence saying why not.
pub fn save(dir: &Path, tool: Tool, extent: Extent, content: &str) -> Result<Saved, String> {
    let describe = |what: &str, e: io::Error| format!("{what} {}: {e}", dir.display());
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    builder.mode(0o700);
    builder
        .create(dir)
        .map_err(|e| match dangling_symlink(dir) {
            Some((link, target)) => format!(
                "cannot create the spill directory {}: {} is a symlink to {}, which does not exist",
                dir.display(),
                link.display(),
                target.display()
            ),
            None => describe("cannot create the spill directory", e),
        })?;
    let dir = dir
        .canonicalize()
        .map(plain)
        .map_err(|e| describe("cannot resolve the spill directory", e))?;
    let target = dir.join(file_name(tool, extent, content));
    if is_our_file(&target, content) {
        return Ok(Saved {
            locator: target,
            reused: true,
        });
    }
    let mut temp = tempfile::Builder::new();
    temp.prefix(".dsh-search-").suffix(".tmp");
    #[cfg(unix)]
    temp.permissions(fs::Permissions::from_mode(0o600));
    let mut temp = temp
        .tempfile_in(&dir)
        .map_err(|e| describe("cannot write in the spill directory", e))?;
    temp.write_all(content.as_bytes())
        .and_then(|()| temp.flush())
        .map_err(|e| describe("cannot write in the spill directory", e))?;
    match temp.persist_noclobber(&target) {
        Ok(_) => Ok(Saved {
            locator: target,
            reused: false,
        }),
        // Another dsh-search saved the same result first: equally good.
        Err(_) if is_our_file(&target, content) => Ok(Saved {
            locator: target,
            reused: true,
        }),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Err(format!(
            "{} is taken by something that is not this result",
            target.display()
        )),
        Err(e) => Err(format!("cannot save {}: {}", target.display(), e.error)),
    }
}

/// A canonical path as people write it. Unix: as it is. Windows:
/// `canonicalize` gives the verbatim form (`\\?\C:\x`, `\\?\UNC\srv\share\x`),
/// which some programs cannot open; the locator is the ordinary form
/// (`C:\x`, `\\srv\share\x`), which names the same file.
#[cfg(unix)]
fn plain(path: PathBuf) -> PathBuf {
    path
}

#[cfg(windows)]
fn plain(path: PathBuf) -> PathBuf {
    let Some(text) = path.to_str() else {
        return path;
    };
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return PathBuf::from(format!(r"\\{rest}"));
    }
    match text.strip_prefix(r"\\?\") {
        // Only a drive path (`C:\…`); other verbatim forms have no plain one.
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => PathBuf::from(rest),
        _ => path,
    }
}

/// The first of `dir` and its ancestors that is a symlink to nothing, and
/// where it points: `create_dir_all` says only "File exists" there.
fn dangling_symlink(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    dir.ancestors().find_map(|p| {
        let meta = fs::symlink_metadata(p).ok()?;
        if meta.file_type().is_symlink() && fs::metadata(p).is_err() {
            Some((p.to_path_buf(), fs::read_link(p).ok()?))
        } else {
            None
        }
    })
}

/// A regular file (not a symlink) at `path` holding exactly `content`.
fn is_our_file(path: &Path, content: &str) -> bool {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() && meta.len() == content.len() as u64 => {
            fs::read(path).is_ok_and(|bytes| bytes == content.as_bytes())
        }
        _ => false,
    }
}

#[cfg(test)]
#[path = "../tests/unit/spill.rs"]
mod tests;
