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

/// Below this many paths one thread stats them all; above, the work is
/// split across the machine's cores.
const PARALLEL_STAT_THRESHOLD: usize = 2048;

/// Modification time as (seconds, nanoseconds) since the epoch.
type Mtime = (i64, i64);

/// The displayed paths of a listing, in `sort` order, VCS paths removed.
/// Each entry keeps rg's own path (what is stat'ed) and the displayed one.
pub fn ordered_paths(listing: &[u8], workdir: &Workdir, sort: GlobSort) -> Vec<Vec<u8>> {
    let paths: Vec<&[u8]> = listing
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty() && !workdir.in_vcs_dir(p))
        .collect();
    let mut keyed: Vec<(Mtime, Vec<u8>)> = match sort {
        GlobSort::Path => paths
            .iter()
            .map(|p| ((0, 0), workdir.display(p).into_owned()))
            .collect(),
        GlobSort::Newest | GlobSort::Oldest => modification_times(&paths, workdir)
            .into_iter()
            .zip(&paths)
            .map(|(mtime, p)| (mtime, workdir.display(p).into_owned()))
            .collect(),
    };
    if sort == GlobSort::Newest {
        keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    } else {
        keyed.sort_unstable();
    }
    keyed.into_iter().map(|(_, p)| p).collect()
}

/// mtime of each path (as rg printed it, so relative to the workdir); a
/// path that cannot be stat'ed (removed since rg listed it) sorts as the
/// oldest possible time.
fn modification_times(paths: &[&[u8]], workdir: &Workdir) -> Vec<Mtime> {
    let threads = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if paths.len() < PARALLEL_STAT_THRESHOLD || threads == 1 {
        return stat_all(paths, workdir);
    }
    let chunk = paths.len().div_ceil(threads);
    thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(chunk)
            .map(|part| scope.spawn(move || stat_all(part, workdir)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// Paths are looked up from an open handle on the workdir, so the kernel
/// does not walk the workdir's own path for each file. (Opening each parent
/// directory once was measured too: rg's parallel walk interleaves
/// directories, and the extra opens cost what the shorter lookups save.)
fn stat_all(paths: &[&[u8]], workdir: &Workdir) -> Vec<Mtime> {
    let root = open_dir(&workdir.resolve(b"."));
    let dirfd = root.as_ref().map(AsRawFd::as_raw_fd);
    paths.iter().map(|path| stat(dirfd, path)).collect()
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
        .map_or((i64::MIN, 0), |st| (st.st_mtime, st.st_mtime_nsec))
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
        let listing = b"b\0a/.git/HEAD\0a\0\0/nonexistent/c\0";
        let got = ordered_paths(listing, &w, GlobSort::Path);
        assert_eq!(got, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    }
}
