//! How rg's paths are shown: absolute paths inside the workdir become
//! relative to it, everything else stays exactly as rg printed it (SPEC §4).
//!
//! On Windows rg prints `\` between components; every `\` is shown as `/`
//! (SPEC §10), so the same tree gives the same bytes on every OS. That is
//! lossless there: `\` cannot be part of a Windows file name. A listing is
//! rewritten in place ([`use_slashes`]), so its displayed paths stay
//! slices of it.

use std::borrow::Cow;
#[cfg(unix)]
use std::ffi::OsStr;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::tool::VCS_DIRS;

/// The workdir, in the forms a path from rg may start with.
#[derive(Debug, Clone)]
pub struct Workdir {
    path: PathBuf,
    canonical: Option<PathBuf>,
    /// The workdir itself lies inside a VCS metadata directory.
    inside_vcs: bool,
}

impl Workdir {
    pub fn new(path: &Path) -> Self {
        let canonical = path.canonicalize().ok().filter(|c| c != path);
        let inside_vcs = path.components().any(|c| match c {
            Component::Normal(name) => is_vcs_dir(name.as_encoded_bytes()),
            _ => false,
        });
        Self {
            path: path.to_path_buf(),
            canonical,
            inside_vcs,
        }
    }

    /// The displayed form of a path rg printed.
    pub fn display<'a>(&self, raw: &'a [u8]) -> Cow<'a, [u8]> {
        let raw = slashes(raw);
        let path = as_path(&raw);
        if !path.is_absolute() {
            return raw;
        }
        for base in std::iter::once(&self.path).chain(&self.canonical) {
            if let Ok(rest) = path.strip_prefix(base) {
                let rest = rest.as_os_str().as_encoded_bytes();
                return Cow::Owned(if rest.is_empty() {
                    b".".to_vec()
                } else {
                    rest.to_vec()
                });
            }
        }
        raw
    }

    /// Where a path rg printed lies on disk.
    pub fn resolve(&self, raw: &[u8]) -> PathBuf {
        self.path.join(as_path(raw))
    }

    /// Whether a path rg printed lies inside a VCS metadata directory,
    /// counting the workdir's own components: rg's `!**/.git/**` excludes
    /// only see the part below the search root, so a search run from inside
    /// `.git` needs this second look (SPEC §2).
    pub fn in_vcs_dir(&self, raw: &[u8]) -> bool {
        let relative = !as_path(raw).is_absolute();
        (relative && self.inside_vcs) || raw.split(|&b| is_separator(b)).any(is_vcs_dir)
    }
}

/// A path rg printed, as a path. Unix: its bytes are the path. Windows: rg
/// prints paths as UTF-8 (one that is not valid Unicode, lossily).
#[cfg(unix)]
fn as_path(raw: &[u8]) -> Cow<'_, Path> {
    Cow::Borrowed(Path::new(OsStr::from_bytes(raw)))
}

#[cfg(windows)]
fn as_path(raw: &[u8]) -> Cow<'_, Path> {
    match String::from_utf8_lossy(raw) {
        Cow::Borrowed(text) => Cow::Borrowed(Path::new(text)),
        Cow::Owned(text) => Cow::Owned(PathBuf::from(text)),
    }
}

/// Whether `b` separates components in a path rg printed.
fn is_separator(b: u8) -> bool {
    b == b'/' || (cfg!(windows) && b == b'\\')
}

/// `raw` with `/` between components (Windows: every `\` rewritten).
fn slashes(raw: &[u8]) -> Cow<'_, [u8]> {
    if cfg!(windows) && raw.contains(&b'\\') {
        let mut owned = raw.to_vec();
        use_slashes(&mut owned);
        Cow::Owned(owned)
    } else {
        Cow::Borrowed(raw)
    }
}

/// Rewrite rg's separators to `/` in place (Windows; elsewhere a path's
/// `\` is part of a name and stays). `\` is one ASCII byte, never part
/// of a longer UTF-8 character, so the bytes around it are untouched.
pub fn use_slashes(bytes: &mut [u8]) {
    if cfg!(windows) {
        for b in bytes.iter_mut().filter(|b| **b == b'\\') {
            *b = b'/';
        }
    }
}

fn is_vcs_dir(name: &[u8]) -> bool {
    VCS_DIRS.iter().any(|d| d.as_bytes() == name)
}

#[cfg(test)]
#[path = "../../tests/unit/search/paths.rs"]
mod tests;
