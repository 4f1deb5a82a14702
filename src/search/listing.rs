//! A NUL-separated listing of paths from rg (`--files --null`, or a
//! probe's `--files-with-matches --null`): collected, filtered (VCS
//! directories), and for glob ordered by `--glob-sort` over the COMPLETE
//! list before anything is capped (SPEC §2, §4).

#[cfg(unix)]
use std::ffi::OsStr;
#[cfg(unix)]
use std::os::fd::{AsFd, OwnedFd};
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::thread;

#[cfg(unix)]
use rustix::fs::{AtFlags, FileType, Mode, OFlags};

use super::paths::{self, Workdir};
use super::report::{FileCount, PathList};
use super::sort;
use crate::rg::Sink;
use crate::settings::GlobSort;
use crate::stop::{Budget, Halt};

/// Collects grep's `--count --null` listing: `PATH NUL COUNT \n` per file
/// (a path may hold any byte but NUL, a newline included).
#[derive(Debug, Default)]
pub struct CountSink {
    pending: Vec<u8>,
    counts: Vec<(Vec<u8>, u64)>,
    /// The sum of the counts (refused past `u64::MAX`).
    counted: u64,
    records: u64,
    error: Option<String>,
}

impl CountSink {
    fn record(&mut self, record: &[u8]) {
        self.records += 1;
        let parsed = memchr::memrchr(0, record).and_then(|nul| {
            let count = std::str::from_utf8(&record[nul + 1..])
                .ok()?
                .parse::<u64>()
                .ok()?;
            Some((record[..nul].to_vec(), count))
        });
        let counted = parsed.as_ref().map(|(_, n)| self.counted.checked_add(*n));
        let problem = match (parsed, counted) {
            (Some(entry), Some(Some(counted))) => {
                self.counted = counted;
                self.counts.push(entry);
                return;
            }
            (Some(_), _) => super::matches::too_many_counted(),
            (None, _) => "expected a count of rg's form (a path, NUL, a number)".to_owned(),
        };
        self.error.get_or_insert_with(|| {
            let read = crate::rg::read_excerpt(record);
            format!("record {}: {problem}, {read}", self.records)
        });
    }

    /// The first record that was not a count, described.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn has_counts(&self) -> bool {
        !self.counts.is_empty()
    }

    /// The counts by displayed path, in path order.
    pub fn into_counts(self, workdir: &Workdir) -> Vec<FileCount> {
        let mut counts: Vec<FileCount> = self
            .counts
            .into_iter()
            .map(|(path, count)| FileCount {
                path: String::from_utf8_lossy(&workdir.display(&path)).into_owned(),
                count,
            })
            .collect();
        counts.sort_unstable_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        counts
    }
}

impl Sink for CountSink {
    fn chunk(&mut self, mut bytes: &[u8]) {
        // A record ends at the newline after its NUL (a path may hold a
        // newline of its own).
        while !bytes.is_empty() {
            // Given up on (see `watchdog`): nobody will read these counts.
            if crate::stop::unwanted() {
                return;
            }
            let nul_seen = memchr::memchr(0, &self.pending).is_some();
            let end = if nul_seen {
                memchr::memchr(b'\n', bytes)
            } else {
                memchr::memchr(0, bytes)
                    .and_then(|nul| memchr::memchr(b'\n', &bytes[nul..]).map(|nl| nul + nl))
            };
            let Some(end) = end else {
                self.pending.extend_from_slice(bytes);
                return;
            };
            self.pending.extend_from_slice(&bytes[..end]);
            let record = std::mem::take(&mut self.pending);
            self.record(&record);
            bytes = &bytes[end + 1..];
        }
    }

    fn finish(&mut self) {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            // What is left has no NUL (or no newline after it): rg ended
            // it with its `\n`, which is not part of what was read.
            self.record(rest.strip_suffix(b"\n").unwrap_or(&rest));
        }
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
    displayed_len: u32,
}

impl Entry {
    fn raw(&self) -> (usize, usize) {
        (self.end - self.raw_len as usize, self.end)
    }

    fn displayed(&self) -> (usize, usize) {
        (self.end - self.displayed_len as usize, self.end)
    }
}

/// Whether rg's listing holds at least one path glob would show.
pub fn lists_a_path(listing: &[u8], workdir: &Workdir) -> bool {
    listing.split(|&b| b == 0).any(|p| shows(p, workdir))
}

/// Whether a piece of rg's listing is a path glob shows: not empty, not
/// inside a VCS directory.
pub fn shows(piece: &[u8], workdir: &Workdir) -> bool {
    !piece.is_empty() && !workdir.in_vcs_dir(piece)
}

/// The part of a listing that ends in a NUL: a listing cut short (rg
/// killed, a byte cap) may end in half a path.
pub fn whole_paths(listing: &[u8]) -> &[u8] {
    &listing[..memchr::memrchr(0, listing).map_or(0, |i| i + 1)]
}

/// The displayed paths of rg's NUL-separated `listing`, VCS paths removed,
/// in `order` (ties by path). The listing buffer becomes the result's
/// storage: nothing is copied per path. Stat'ing and sorting millions of
/// paths takes seconds, so both check `budget` as they go and stop at the
/// deadline or on a signal (SPEC §6). On Windows rg's `\` separators
/// become `/` in place first (SPEC §10).
pub fn ordered_paths(
    mut listing: Vec<u8>,
    workdir: &Workdir,
    order: GlobSort,
    budget: Budget<'_>,
) -> Result<PathList, (Halt, Vec<u8>)> {
    paths::use_slashes(&mut listing);
    match order_entries(&listing, workdir, order, true, budget) {
        Ok(entries) => {
            let ranges = entries.iter().map(Entry::displayed).collect();
            Ok(PathList::new(listing, ranges))
        }
        // The listing comes back: a timed-out glob still shows it.
        Err(halt) => Err((halt, listing)),
    }
}

/// The displayed paths of grep's `--files-with-matches --null` listing, in
/// path order (the VCS filter is glob's: grep lists what rg searched).
pub fn matched_files(
    mut listing: Vec<u8>,
    workdir: &Workdir,
    budget: Budget<'_>,
) -> Result<PathList, (Halt, Vec<u8>)> {
    paths::use_slashes(&mut listing);
    match order_entries(&listing, workdir, GlobSort::Path, false, budget) {
        Ok(entries) => {
            let ranges = entries.iter().map(Entry::displayed).collect();
            Ok(PathList::new(listing, ranges))
        }
        Err(halt) => Err((halt, listing)),
    }
}

/// The entries of `listing` (without VCS paths when `skip_vcs`) in `order`.
fn order_entries(
    listing: &[u8],
    workdir: &Workdir,
    order: GlobSort,
    skip_vcs: bool,
    budget: Budget<'_>,
) -> Result<Vec<Entry>, Halt> {
    let mut entries = Vec::with_capacity(memchr::memchr_iter(0, listing).count() + 1);
    let mut start = 0;
    for (i, piece) in listing.split(|&b| b == 0).enumerate() {
        if i % STAT_BLOCK == 0 {
            budget.check()?;
        }
        let end = start + piece.len();
        let kept = if skip_vcs {
            shows(piece, workdir)
        } else {
            !piece.is_empty()
        };
        if let (true, Ok(raw_len)) = (kept, u32::try_from(piece.len())) {
            // The displayed form is the raw path or a suffix of it.
            let displayed_len = workdir.display(piece).len().min(piece.len());
            entries.push(Entry {
                mtime: 0,
                end,
                raw_len,
                displayed_len: u32::try_from(displayed_len).unwrap_or(raw_len),
            });
        }
        start = end + 1;
    }
    let path = |e: &Entry| {
        let (from, to) = e.displayed();
        &listing[from..to]
    };
    match order {
        GlobSort::Path => sort::sort_by(&mut entries, &mut |a, b| path(a).cmp(path(b)), budget)?,
        GlobSort::Newest | GlobSort::Oldest => {
            stat_entries(&mut entries, listing, workdir, budget)?;
            let newest_first = order == GlobSort::Newest;
            let mut by_time_then_path = |a: &Entry, b: &Entry| {
                let (x, y) = if newest_first { (b, a) } else { (a, b) };
                x.mtime.cmp(&y.mtime).then_with(|| path(a).cmp(path(b)))
            };
            sort::sort_by(&mut entries, &mut by_time_then_path, budget)?;
        }
    }
    Ok(entries)
}

/// Below this many paths one thread stats them all; above, the work is
/// split across the machine's cores.
const PARALLEL_STAT_THRESHOLD: usize = 2048;
/// Paths stat'ed between two looks at the budget (about a millisecond).
const STAT_BLOCK: usize = 4096;

/// Fill in each entry's mtime; a path that cannot be stat'ed (removed since
/// rg listed it) gets the oldest possible time. Paths are looked up from an
/// open handle on the workdir, so the kernel does not walk the workdir's own
/// path each time. (Two alternatives were measured and dropped: opening
/// each parent directory once, since rg's parallel walk interleaves
/// directories; and stat'ing while rg still lists, since rg already keeps
/// both cores busy.)
fn stat_entries(
    entries: &mut [Entry],
    listing: &[u8],
    workdir: &Workdir,
    budget: Budget<'_>,
) -> Result<(), Halt> {
    let root = Root::open(workdir.resolve(b"."));
    let stat_all = |part: &mut [Entry]| -> Result<(), Halt> {
        for block in part.chunks_mut(STAT_BLOCK) {
            budget.check()?;
            for e in block {
                let (from, to) = e.raw();
                e.mtime = root.mtime(&listing[from..to]);
            }
        }
        Ok(())
    };
    let threads = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if entries.len() < PARALLEL_STAT_THRESHOLD || threads == 1 {
        return stat_all(entries);
    }
    let chunk = entries.len().div_ceil(threads);
    thread::scope(|scope| {
        let parts: Vec<_> = entries
            .chunks_mut(chunk)
            .map(|part| scope.spawn(move || stat_all(part)))
            .collect();
        // Every part is joined; the first halt is the answer.
        parts
            .into_iter()
            .map(|part| part.join().unwrap_or(Ok(())))
            .fold(Ok(()), Result::and)
    })
}

/// Where listed paths are looked up from: an open handle on the workdir
/// (`O_RDONLY | O_DIRECTORY`, on every Unix), or, if the workdir cannot be
/// opened, its path joined in front of each listed one.
#[cfg(unix)]
enum Root {
    Dir(OwnedFd),
    Path(PathBuf),
}

#[cfg(unix)]
impl Root {
    fn open(workdir: PathBuf) -> Self {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        match rustix::fs::open(&workdir, flags, Mode::empty()) {
            Ok(fd) => Self::Dir(fd),
            Err(_) => Self::Path(workdir),
        }
    }

    /// The modification time of `path` (relative to the workdir, or
    /// absolute), following a symlink; a dangling symlink gets its own
    /// time, a path that is gone the oldest time there is. One `lstat`
    /// for anything but a symlink.
    fn mtime(&self, path: &[u8]) -> Mtime {
        let path = OsStr::from_bytes(path);
        let at = |flags| match self {
            Self::Dir(fd) => rustix::fs::statat(fd.as_fd(), path, flags),
            Self::Path(base) => rustix::fs::statat(rustix::fs::CWD, base.join(path), flags),
        };
        let Ok(link) = at(AtFlags::SYMLINK_NOFOLLOW) else {
            return Mtime::MIN;
        };
        if FileType::from_raw_mode(link.st_mode) == FileType::Symlink {
            if let Ok(target) = at(AtFlags::empty()) {
                return nanos(&target);
            }
        }
        nanos(&link)
    }
}

/// Windows: listed paths are looked up by the workdir's path joined in
/// front (std's metadata; Windows has no `*at` calls to speak of).
#[cfg(windows)]
struct Root(PathBuf);

#[cfg(windows)]
impl Root {
    fn open(workdir: PathBuf) -> Self {
        Self(workdir)
    }

    /// As on Unix: following a symlink (or junction), a dangling one's own
    /// time, a path that is gone the oldest time there is.
    fn mtime(&self, path: &[u8]) -> Mtime {
        let path = self.0.join(String::from_utf8_lossy(path).as_ref());
        let Ok(link) = std::fs::symlink_metadata(&path) else {
            return Mtime::MIN;
        };
        let meta = if link.file_type().is_symlink() {
            std::fs::metadata(&path).unwrap_or(link)
        } else {
            link
        };
        meta.modified().map_or(Mtime::MIN, |t| {
            match t.duration_since(std::time::UNIX_EPOCH) {
                Ok(after) => i64::try_from(after.as_nanos()).unwrap_or(Mtime::MAX),
                Err(before) => {
                    i64::try_from(before.duration().as_nanos()).map_or(Mtime::MIN, |n| -n)
                }
            }
        })
    }
}

/// A stat's modification time in nanoseconds (the field types differ by
/// OS: `time_t`, `long`, `unsigned long`, `u32`).
#[cfg(unix)]
#[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)]
fn nanos(st: &rustix::fs::Stat) -> Mtime {
    let secs = i64::try_from(st.st_mtime).unwrap_or(i64::MAX);
    let nsec = i64::try_from(st.st_mtime_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nsec)
}

// Unix only: Unix absolute paths (paths.rs tests the Windows forms).
#[cfg(test)]
#[cfg(unix)]
#[path = "../../tests/unit/search/listing.rs"]
mod tests;
