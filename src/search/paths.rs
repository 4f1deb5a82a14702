//! How rg's paths are shown: absolute paths inside the workdir become
//! relative to it, everything else stays exactly as rg printed it (SPEC §4).

use std::borrow::Cow;
use std::ffi::OsStr;
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
            Component::Normal(name) => is_vcs_dir(name.as_bytes()),
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
        let path = Path::new(OsStr::from_bytes(raw));
        if !path.is_absolute() {
            return Cow::Borrowed(raw);
        }
        for base in std::iter::once(&self.path).chain(&self.canonical) {
            if let Ok(rest) = path.strip_prefix(base) {
                let rest = rest.as_os_str().as_bytes();
                return Cow::Owned(if rest.is_empty() {
                    b".".to_vec()
                } else {
                    rest.to_vec()
                });
            }
        }
        Cow::Borrowed(raw)
    }

    /// Where a path rg printed lies on disk.
    pub fn resolve(&self, raw: &[u8]) -> PathBuf {
        self.path.join(OsStr::from_bytes(raw))
    }

    /// Whether a path rg printed lies inside a VCS metadata directory,
    /// counting the workdir's own components: rg's `!**/.git/**` excludes
    /// only see the part below the search root, so a search run from inside
    /// `.git` needs this second look (SPEC §2).
    pub fn in_vcs_dir(&self, raw: &[u8]) -> bool {
        let relative = raw.first() != Some(&b'/');
        (relative && self.inside_vcs) || raw.split(|&b| b == b'/').any(is_vcs_dir)
    }
}

fn is_vcs_dir(name: &[u8]) -> bool {
    VCS_DIRS.iter().any(|d| d.as_bytes() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_rules() {
        let w = Workdir::new(Path::new("/nonexistent/work"));
        assert_eq!(&*w.display(b"src/a.rs"), b"src/a.rs");
        assert_eq!(&*w.display(b"./src/a.rs"), b"./src/a.rs");
        assert_eq!(&*w.display(b"/nonexistent/work/src/a.rs"), b"src/a.rs");
        assert_eq!(&*w.display(b"/nonexistent/work"), b".");
        assert_eq!(
            &*w.display(b"/nonexistent/workshop/a"),
            b"/nonexistent/workshop/a"
        );
        assert_eq!(&*w.display(b"/etc/hosts"), b"/etc/hosts");
    }

    #[test]
    fn vcs_dirs_anywhere_in_the_path() {
        let w = Workdir::new(Path::new("/r/.git/objects"));
        assert!(w.in_vcs_dir(b"ab/cd"));
        let w = Workdir::new(Path::new("/r"));
        assert!(w.in_vcs_dir(b"sub/.hg/store"));
        assert!(w.in_vcs_dir(b".git"));
        assert!(!w.in_vcs_dir(b"src/.github/x"));
        assert!(!w.in_vcs_dir(b"/elsewhere/a.git/x"));
    }
}
