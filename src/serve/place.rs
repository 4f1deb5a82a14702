//! Where a tree's index server listens, and who may talk to it.
//!
//! One directory per user, private: `$XDG_RUNTIME_DIR/dsh-search`, else
//! the cache directory's `dsh-search/run` (`$XDG_CACHE_HOME`, else
//! `~/.cache`), made 0700 and refused unless it is a directory (not a
//! link) the user owns that nobody else may enter. In it, for each tree,
//! named from the hash of the workdir's real path: `KEY.sock` (0600, the
//! socket), `KEY.lock` (held by the one live server, so that two servers
//! started at once make one) and `KEY.log` (what the server says). Over
//! this, each side checks the other's user: the server answers only its
//! own user's connections, and a client talks only to a server of its
//! own user.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The files of one tree's server.
#[derive(Debug, Clone)]
pub struct ServerFiles {
    pub dir: PathBuf,
    pub socket: PathBuf,
    pub lock: PathBuf,
    pub log: PathBuf,
    /// The workdir's real path, which names the server.
    pub tree: PathBuf,
}

/// A socket's path must fit in `sun_path` (108 bytes on Linux, 104 on
/// macOS and the BSDs), with its terminating NUL.
const SOCKET_PATH_MAX: usize = 100;

impl ServerFiles {
    /// The place of the server of `workdir`.
    pub fn of(workdir: &Path) -> Result<Self, String> {
        let tree = workdir
            .canonicalize()
            .map_err(|e| format!("cannot resolve {} ({e})", workdir.display()))?;
        let key = key(&tree);
        let mut dir = private_dir()?;
        if dir.join(format!("{key}.sock")).as_os_str().len() > SOCKET_PATH_MAX {
            dir = short_dir()?;
        }
        Ok(Self {
            socket: dir.join(format!("{key}.sock")),
            lock: dir.join(format!("{key}.lock")),
            log: dir.join(format!("{key}.log")),
            dir,
            tree,
        })
    }
}

/// The name of the server of the tree at `tree` (a real path).
fn key(tree: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let digest = Sha256::digest(tree.as_os_str().as_bytes());
    digest[..16]
        .iter()
        .fold(String::with_capacity(32), |mut key, b| {
            use std::fmt::Write as _;
            let _ = write!(key, "{b:02x}");
            key
        })
}

/// The user's private directory for servers, made if need be.
pub fn private_dir() -> Result<PathBuf, String> {
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute());
    let base = if let Some(runtime) = runtime {
        runtime.join("dsh-search")
    } else {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
            .or_else(|| {
                #[allow(deprecated, reason = "HOME, as the rest of dsh-search reads it")]
                std::env::home_dir().map(|h| h.join(".cache"))
            })
            .ok_or("neither XDG_RUNTIME_DIR nor a home directory is known")?;
        cache.join("dsh-search").join("run")
    };
    private(&base)
}

/// A directory under `/tmp` for servers whose private directory's path is
/// too long for a socket's.
fn short_dir() -> Result<PathBuf, String> {
    private(&std::env::temp_dir().join(format!("dsh-search-{}", uid())))
}

/// `dir`, made 0700 if missing (its parents as usual), once it is known to
/// be a directory of this user's that nobody else may enter.
fn private(dir: &Path) -> Result<PathBuf, String> {
    if let Some(parent) = dir.parent() {
        let _ = fs::create_dir_all(parent);
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot make {} ({e})", dir.display())),
    }
    let meta =
        fs::symlink_metadata(dir).map_err(|e| format!("cannot read {} ({e})", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    if meta.uid() != uid() {
        return Err(format!("{} belongs to another user", dir.display()));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(format!(
            "{} may be entered by other users (mode {:o})",
            dir.display(),
            meta.permissions().mode() & 0o777
        ));
    }
    Ok(dir.to_path_buf())
}

/// This process's effective user.
pub fn uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The user at the other end of a Unix socket.
#[cfg(target_os = "linux")]
pub fn peer_uid(socket: &impl std::os::fd::AsFd) -> io::Result<u32> {
    rustix::net::sockopt::socket_peercred(socket)
        .map(|cred| cred.uid.as_raw())
        .map_err(io::Error::from)
}

/// The user at the other end of a Unix socket.
#[cfg(all(unix, not(target_os = "linux")))]
#[allow(unsafe_code)]
pub fn peer_uid(socket: &impl std::os::fd::AsRawFd) -> io::Result<u32> {
    let (mut uid, mut gid) = (0, 0);
    // SAFETY: getpeereid writes the two ids through the pointers given,
    // which point at live locals, and reads nothing else; the descriptor
    // is one this process holds open.
    let status = unsafe { libc::getpeereid(socket.as_raw_fd(), &mut uid, &mut gid) };
    if status == 0 {
        Ok(uid)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// What identifies a file's content without reading it: its device,
/// inode, size and times (a new build of dsh-search, or another rg, has
/// another).
pub fn file_id(path: &Path) -> Option<String> {
    let meta = fs::metadata(path).ok()?;
    Some(format!(
        "{}:{}:{}:{}.{}:{}.{}",
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec()
    ))
}

#[cfg(test)]
#[path = "../../tests/unit/serve/place.rs"]
mod tests;
