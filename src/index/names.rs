//! Names of the tree's files and directories as the index keeps them: the
//! bytes of the path relative to the workdir, `/`-separated, with no `./`
//! (empty for the workdir itself). Bytes, not strings: on Unix a file name
//! is any bytes, and rg takes any bytes as a path.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

pub type Name = Vec<u8>;

/// `rel` (a name) under `workdir`.
pub fn join(workdir: &Path, rel: &[u8]) -> PathBuf {
    if rel.is_empty() {
        workdir.to_path_buf()
    } else {
        workdir.join(OsStr::from_bytes(rel))
    }
}

/// Whether `name` lies strictly under the directory `dir`.
pub fn under(name: &[u8], dir: &[u8]) -> bool {
    if dir.is_empty() {
        return !name.is_empty();
    }
    name.len() > dir.len() && name.starts_with(dir) && name[dir.len()] == b'/'
}

/// The directory holding `name` (empty for one in the workdir).
pub fn parent(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'/') {
        Some(at) => &name[..at],
        None => &[],
    }
}

/// The name of `path` (relative to the workdir, or absolute) as the index
/// knows it, or `None` when it names something outside the workdir or
/// goes through `..`.
pub fn relative(path: &[u8], workdir: &Path) -> Option<Name> {
    let path = Path::new(OsStr::from_bytes(path));
    let rest = if path.is_absolute() {
        path.strip_prefix(workdir).ok()?
    } else {
        path
    };
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in rest.as_os_str().as_bytes().split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => return None,
            part => parts.push(part),
        }
    }
    Some(parts.join(&b'/'))
}

#[cfg(test)]
#[path = "../../tests/unit/index/names.rs"]
mod tests;
