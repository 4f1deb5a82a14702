//! glob: the NUL-separated `rg --files` listing, filtered, ordered by
//! `--glob-sort` over the COMPLETE list, then capped (SPEC §2, §4).

use std::fs;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::thread;

use nix::fcntl::AtFlags;
use nix::sys::stat::fstatat;

use super::paths::Workdir;
use super::report::PathList;
use crate::rg::run::Sink;
use crate::settings::GlobSort;

/// Collects rg's raw listing (bounded by the runner's byte cap).
#[derive(Debug, Default)]
pub struct GlobSink {
    pub bytes: Vec<u8>,
}

impl Sink for GlobSink {
    fn chunk(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }
}

/// Modification time in nanoseconds since the epoch (an `i64` spans the
/// years 1678 to 2262; times beyond saturate).
type Mtime = i64;

/// One listed path: its mtime, where rg's path (what is stat'ed) lies in
/// the listing, and how long the displayed path (a suffix of it) is. Kept
/// small: a listing can hold hundreds of thousands of paths.
struct Entry {
    mtime: Mtime,
    end: usize,
    /// Bytes of rg's path (a path is at most a few KiB: `PATH_MAX`).
    raw_len: u32,
    shown_len: u32,
}

impl Entry {
    fn raw(&self) -> (usize, usize) {
        (self.end - self.raw_len as usize, self.end)
    }

    fn shown(&self) -> (usize, usize) {
        (self.end - self.shown_len as usize, self.end)
    }
}

/// Whether rg's listing holds at least one path glob would show.
pub fn lists_a_path(listing: &[u8], workdir: &Workdir) -> bool {
    listing
        .split(|&b| b == 0)
        .any(|p| !p.is_empty() && !workdir.in_vcs_dir(p))
}

/// The displayed paths of rg's NUL-separated `listing`, VCS paths removed,
/// in `sort` order (ties by path). The listing buffer becomes the result's
/// storage: nothing is copied per path.
pub fn ordered_paths(listing: Vec<u8>, workdir: &Workdir, sort: GlobSort) -> PathList {
    let mut entries = Vec::with_capacity(memchr::memchr_iter(0, &listing).count() + 1);
    let mut start = 0;
    for piece in listing.split(|&b| b == 0) {
        let end = start + piece.len();
        if let (false, false, Ok(raw_len)) = (
            piece.is_empty(),
            workdir.in_vcs_dir(piece),
            u32::try_from(piece.len()),
        ) {
            // The displayed form is the raw path or a suffix of it.
            let shown_len = workdir.display(piece).len().min(piece.len());
            entries.push(Entry {
                mtime: 0,
                end,
                raw_len,
                shown_len: u32::try_from(shown_len).unwrap_or(raw_len),
            });
        }
        start = end + 1;
    }
    let path = |e: &Entry| {
        let (from, to) = e.shown();
        &listing[from..to]
    };
    match sort {
        GlobSort::Path => entries.sort_unstable_by(|a, b| path(a).cmp(path(b))),
        GlobSort::Newest | GlobSort::Oldest => {
            stat_entries(&mut entries, &listing, workdir);
            let newest_first = sort == GlobSort::Newest;
            entries.sort_unstable_by(|a, b| {
                let by_time = a.mtime.cmp(&b.mtime);
                let by_time = if newest_first {
                    by_time.reverse()
                } else {
                    by_time
                };
                by_time.then_with(|| path(a).cmp(path(b)))
            });
        }
    }
    let ranges = entries.iter().map(Entry::shown).collect();
    PathList::new(listing, ranges)
}

/// Below this many paths one thread stats them all; above, the work is
/// split across the machine's cores.
const PARALLEL_STAT_THRESHOLD: usize = 2048;

/// Fill in each entry's mtime; a path that cannot be stat'ed (removed since
/// rg listed it) gets the oldest possible time. Paths are looked up from an
/// open handle on the workdir, so the kernel does not walk the workdir's own
/// path each time. (Two alternatives were measured and dropped: opening
/// each parent directory once, since rg's parallel walk interleaves
/// directories; and stat'ing while rg still lists, since rg already keeps
/// both cores busy.)
fn stat_entries(entries: &mut [Entry], listing: &[u8], workdir: &Workdir) {
    let root = open_dir(&workdir.resolve(b"."));
    let dirfd = root.as_ref().map(AsRawFd::as_raw_fd);
    let stat_all = |part: &mut [Entry]| {
        for e in part {
            let (from, to) = e.raw();
            e.mtime = stat(dirfd, &listing[from..to]);
        }
    };
    let threads = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if entries.len() < PARALLEL_STAT_THRESHOLD || threads == 1 {
        stat_all(entries);
        return;
    }
    let chunk = entries.len().div_ceil(threads);
    thread::scope(|scope| {
        for part in entries.chunks_mut(chunk) {
            scope.spawn(move || stat_all(part));
        }
    });
}

/// The directory a glob with no PATH can be walked from instead of the
/// whole workdir: the literal leading components of `pattern` (`src/lib`
/// for `src/lib/**/*.rs`), when they name real directories.
///
/// rg matches a glob against the path relative to its working directory
/// and prints paths the same way whether it starts at `.` or at `src/lib`,
/// so the listing is byte-identical (tests pin this). It is not used when
/// any component is a symlink (rg follows a symlink given as a path but
/// not one met during the walk), is `.`/`..`, or when the directory does
/// not exist (rg would then fail where the whole walk finds nothing).
pub fn walk_root(pattern: &str, workdir: &Path) -> Option<String> {
    let literal_end = pattern
        .find(['*', '?', '[', '{', '\\'])
        .unwrap_or(pattern.len());
    let prefix = &pattern[..pattern[..literal_end].rfind('/')?];
    if prefix.is_empty() || prefix.starts_with('/') {
        return None;
    }
    let mut dir = workdir.to_path_buf();
    for component in prefix.split('/') {
        if matches!(component, "" | "." | "..") {
            return None;
        }
        dir.push(component);
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_dir() => {}
            _ => return None,
        }
    }
    Some(prefix.to_owned())
}

/// A handle on a directory for lookups only (`O_PATH`: no read access needed).
fn open_dir(path: &std::path::Path) -> Option<fs::File> {
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_PATH | nix::libc::O_DIRECTORY)
        .open(path)
        .ok()
}

fn stat(dirfd: Option<RawFd>, path: &[u8]) -> Mtime {
    fstatat(dirfd, path, AtFlags::empty())
        .or_else(|_| fstatat(dirfd, path, AtFlags::AT_SYMLINK_NOFOLLOW))
        .map_or(i64::MIN, |st| {
            st.st_mtime
                .saturating_mul(1_000_000_000)
                .saturating_add(st.st_mtime_nsec)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn walk_root_is_the_literal_directory_prefix() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("src/lib")).unwrap();
        fs::write(dir.path().join("src/file"), "").unwrap();
        std::os::unix::fs::symlink("src", dir.path().join("link")).unwrap();
        let root = |p: &str| walk_root(p, dir.path());
        assert_eq!(root("src/lib/**/*.rs").as_deref(), Some("src/lib"));
        assert_eq!(root("src/**").as_deref(), Some("src"));
        assert_eq!(root("src/lib/x.rs").as_deref(), Some("src/lib"));
        assert_eq!(root("src/li*/x.rs").as_deref(), Some("src"));
        assert_eq!(root("src/{lib,bin}/*.rs").as_deref(), Some("src"));
        for none in [
            "**/*.rs",
            "*.rs",
            "src",
            "src/file/*",
            "link/**",
            "missing/**",
            "./src/**",
            "src/../src/**",
            "/abs/**",
            "src//lib/*",
            r"s\rc/*",
        ] {
            assert_eq!(root(none), None, "{none}");
        }
    }

    #[test]
    fn path_order_and_vcs_filter() {
        let w = Workdir::new(Path::new("/nonexistent"));
        let listing = b"b\0a/.git/HEAD\0a\0\0/nonexistent/c\0".to_vec();
        let got: Vec<String> = {
            let list = ordered_paths(listing, &w, GlobSort::Path);
            list.take(list.len())
                .map(std::borrow::Cow::into_owned)
                .collect()
        };
        assert_eq!(got, ["a", "b", "c"]);
    }
}
