//! glob: the NUL-separated `rg --files` listing, filtered, ordered by
//! `--glob-sort` over the COMPLETE list, then capped (SPEC §2, §4).

use std::fs;
use std::thread;
use std::time::SystemTime;

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

/// The displayed paths of a listing, in `sort` order, VCS paths removed.
pub fn ordered_paths(listing: &[u8], workdir: &Workdir, sort: GlobSort) -> Vec<Vec<u8>> {
    let paths: Vec<Vec<u8>> = listing
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty() && !workdir.in_vcs_dir(p))
        .map(|p| workdir.display(p).into_owned())
        .collect();
    match sort {
        GlobSort::Path => {
            let mut paths = paths;
            paths.sort_unstable();
            paths
        }
        GlobSort::Newest | GlobSort::Oldest => {
            let mtimes = modification_times(&paths, workdir);
            let mut keyed: Vec<(SystemTime, Vec<u8>)> = mtimes.into_iter().zip(paths).collect();
            if sort == GlobSort::Newest {
                keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            } else {
                keyed.sort_unstable();
            }
            keyed.into_iter().map(|(_, p)| p).collect()
        }
    }
}

/// mtime of each path; a path that cannot be stat'ed (removed since rg
/// listed it) sorts as the oldest possible time.
fn modification_times(paths: &[Vec<u8>], workdir: &Workdir) -> Vec<SystemTime> {
    let stat = |p: &Vec<u8>| {
        let full = workdir.resolve(p);
        fs::metadata(&full)
            .or_else(|_| fs::symlink_metadata(&full))
            .and_then(|m| m.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH)
    };
    let threads = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if paths.len() < PARALLEL_STAT_THRESHOLD || threads == 1 {
        return paths.iter().map(stat).collect();
    }
    let chunk = paths.len().div_ceil(threads);
    thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(stat).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn path_order_and_vcs_filter() {
        let w = Workdir::new(Path::new("/nonexistent"));
        let listing = b"b\0a/.git/HEAD\0a\0\0/nonexistent/c\0";
        let got = ordered_paths(listing, &w, GlobSort::Path);
        assert_eq!(got, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    }
}
