//! The files the scan searches, walked as rg walks them (ripgrep's own
//! `ignore` crate, set up as rg sets it up for a search with no path and
//! no filters), each directory watched before it is read; and the index
//! built over them.
//!
//! A walk starts at any directory of the tree (the workdir for the whole
//! tree): `ignore` reads the rules of the directories above it as rg does
//! for a path it is given, so a part walked again lists what a walk of the
//! whole tree lists there. Every file found comes with its `lstat`
//! ([`Stat`]): what the index read is still what a name holds only if the
//! two agree (`files.rs`).

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use ignore::WalkBuilder;
use rustix::fs::{FileType, OFlags};
use rustix::io::Errno;

use super::grams::{Bits, Builder, Postings};
use super::names::{Name, join, parent, under};
use super::watch::Watcher;

/// What a file's `lstat` (or, as read, `fstat`) says of its content: equal
/// values, the same content. A write changes `ctime`, which nothing but
/// the kernel sets; `ino` tells a file moved or replaced under the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub ino: u64,
    pub size: u64,
    pub mtime: i64,
    pub ctime: i64,
    /// Names the file has, in the tree or not (not part of equality with
    /// what was read: see [`Stat::same`]).
    pub links: u64,
}

impl Stat {
    fn of(meta: &std::fs::Metadata) -> Self {
        let ns = |s: i64, n: i64| s.saturating_mul(1_000_000_000).saturating_add(n);
        Self {
            ino: meta.ino(),
            size: meta.size(),
            mtime: ns(meta.mtime(), meta.mtime_nsec()),
            ctime: ns(meta.ctime(), meta.ctime_nsec()),
            links: meta.nlink(),
        }
    }

    /// Whether this is the file, unchanged, that `read` describes.
    pub fn same(&self, read: &Stat) -> bool {
        (self.ino, self.size, self.mtime, self.ctime)
            == (read.ino, read.size, read.mtime, read.ctime)
    }
}

/// How long after its last change a file read may still change without
/// its `ctime` telling (a file system keeps times to a second, or two, or
/// to the kernel's tick): the `lstat` of a file read this soon after a
/// change never vouches for it (git's index treats such an entry as
/// "racily clean"). The watcher's events still do: the build watches a
/// directory before it reads the files in it.
const RACY_NS: i64 = 2_000_000_000;

/// A file a walk found.
#[derive(Debug, Clone)]
pub struct FoundFile {
    pub name: Name,
    pub stat: Stat,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<FoundFile>,
    /// The directories walked, the first one walked included.
    pub dirs: Vec<Name>,
    /// Those of them that hold `.git` (their `info/exclude` is one of the
    /// rules rg reads, `sources.rs`).
    pub repos: Vec<Name>,
    /// What could not be read, by the directory it was met in: rg says
    /// so on stderr, which only a scan gives, so the index does not answer
    /// while any remains.
    pub errors: Vec<(Name, String)>,
}

/// How deep a walk goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The whole tree under the directory.
    Whole,
    /// The directory's own entries (its directories listed, not walked).
    Entries,
}

/// Why the walk cannot serve the index at all.
pub type Refusal = String;

/// Walk the directory `root` (a name; empty for the workdir) as rg does,
/// watching each directory walked before its entries are read. `None`
/// when `root` is no longer a directory (its parent's listing says what
/// became of it). Refused when a directory lies on another file system,
/// or on one that does not report every change, or cannot be watched.
///
/// Every walk starts where rg's does, at `./` with the workdir as the
/// current directory (the server's, see `Live::start`), and is pruned to
/// `root` and the directories above it: `ignore` matches a rule of a
/// directory above the workdir against a path built from the walk's own
/// start, so a walk started anywhere else could judge a path otherwise
/// than rg's.
pub fn walk(
    workdir: &Path,
    root: &[u8],
    depth: Depth,
    watcher: &Arc<Watcher>,
    device: u64,
) -> Result<Option<Walked>, Refusal> {
    let path = join(workdir, root);
    match file_system(&path, device).and_then(|_| watch(watcher, workdir, root, &path)) {
        Ok(()) => {}
        Err(Unfit::Gone) => return Ok(None),
        Err(Unfit::Refused(why)) => return Err(why),
    }
    let refusal = Arc::new(Mutex::new(None::<Refusal>));
    let part = Part {
        root: root.to_vec(),
        depth,
    };
    let builder = walker(&part, workdir, watcher, device, &refusal);
    let mut walked = Walked::default();
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let at = error_path(&e).map_or_else(|| root.to_vec(), relative);
                walked.errors.push((at, e.to_string()));
                continue;
            }
        };
        let rel = relative(entry.path());
        if !part.holds(&rel) {
            // A directory above the part, walked through.
            continue;
        }
        if let Some(e) = entry.error() {
            // An ignore file that could not be read or parsed: rg says so.
            walked.errors.push((rel.clone(), e.to_string()));
        }
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if rel != root && depth == Depth::Entries {
                walked.dirs.push(rel);
                continue;
            }
            if entry.path().join(".git").metadata().is_ok() {
                walked.repos.push(rel.clone());
            }
            walked.dirs.push(rel);
        } else if kind.is_file() {
            match entry.path().symlink_metadata() {
                Ok(meta) => walked.files.push(FoundFile {
                    name: rel,
                    stat: Stat::of(&meta),
                }),
                // Gone since it was listed: its removal has an event.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => walked
                    .errors
                    .push((rel, format!("{}: {e}", entry.path().display()))),
            }
        }
    }
    let refused = refusal
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    match refused {
        Some(why) => Err(why),
        None => Ok(Some(walked)),
    }
}

/// The part of the tree a walk is for.
#[derive(Clone)]
struct Part {
    root: Name,
    depth: Depth,
}

impl Part {
    /// Whether the entry `rel` is one of the part's: the root, what lies
    /// under it (for [`Depth::Entries`], only its own entries).
    fn holds(&self, rel: &[u8]) -> bool {
        match self.depth {
            Depth::Whole => rel == self.root.as_slice() || under(rel, &self.root),
            Depth::Entries => rel == self.root.as_slice() || parent(rel) == self.root.as_slice(),
        }
    }

    /// Whether the walk goes into the directory `rel`: one of the part's,
    /// or one above its root.
    fn enters(&self, rel: &[u8]) -> bool {
        self.holds(rel) || under(&self.root, rel) || rel.is_empty()
    }
}

/// The name of a path as a walk from `./` gives it (`./src/a.rs`), or as
/// an error names it.
fn relative(path: &Path) -> Name {
    let bytes = path.as_os_str().as_bytes();
    let bytes = bytes.strip_prefix(b"./").unwrap_or(bytes);
    let bytes = if bytes == b"." { &[][..] } else { bytes };
    bytes.to_vec()
}

/// A walk set up as rg sets up its own, from `./`: rg's defaults, hidden
/// files skipped; `.gitignore` (in a git repository), `.git/info/exclude`,
/// the global excludes, `.ignore` and `.rgignore` honoured, in each
/// directory and its parents; links not followed. It enters only the
/// directories of `part` and those above it. A walk of a whole part
/// watches each of its directories once `ignore` has decided to walk it
/// and before it reads the directory's ignore files or entries (what
/// refuses the index, in `refusal`).
fn walker(
    part: &Part,
    workdir: &Path,
    watcher: &Arc<Watcher>,
    device: u64,
    refusal: &Arc<Mutex<Option<Refusal>>>,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new("./");
    builder
        .hidden(true)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .require_git(true)
        .follow_links(false)
        .add_custom_ignore_filename(".rgignore");
    if part.depth == Depth::Entries {
        let below = part
            .root
            .split(|&b| b == b'/')
            .filter(|c| !c.is_empty())
            .count();
        builder.max_depth(Some(below + 1));
    }
    let (part, watcher, workdir, refusal) = (
        part.clone(),
        Arc::clone(watcher),
        workdir.to_path_buf(),
        Arc::clone(refusal),
    );
    builder.filter_entry(move |entry| {
        let rel = relative(entry.path());
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        if !is_dir {
            return part.holds(&rel);
        }
        if !part.enters(&rel) {
            return false;
        }
        // Only a whole part's own directories are walked here; those
        // above it are watched already, and an entries part's own are
        // listed, not walked.
        if part.depth == Depth::Entries || !part.holds(&rel) || rel == part.root {
            return true;
        }
        let path = entry.path();
        match file_system(path, device).and_then(|_| watch(&watcher, &workdir, &rel, path)) {
            Ok(()) => true,
            // Gone since it was listed: its removal has an event.
            Err(Unfit::Gone) => false,
            Err(Unfit::Refused(why)) => {
                refusal
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(why);
                false
            }
        }
    });
    builder
}

/// Why a directory is not walked.
#[derive(Debug)]
pub enum Unfit {
    /// It is no longer a directory there (its parent's event says so).
    Gone,
    /// It cannot serve the index at all.
    Refused(Refusal),
}

impl From<Unfit> for Refusal {
    fn from(unfit: Unfit) -> Self {
        match unfit {
            Unfit::Gone => "a directory of the tree is gone".to_owned(),
            Unfit::Refused(why) => why,
        }
    }
}

/// Watch the directory `rel` (at `path`). One that cannot be read cannot
/// be watched either: the walk then says it cannot be read, and the
/// event of its parent that makes it readable again walks it.
fn watch(watcher: &Watcher, workdir: &Path, rel: &[u8], path: &Path) -> Result<(), Unfit> {
    match watcher.watch(workdir, rel) {
        Ok(()) => Ok(()),
        Err(e) => match e.raw_os_error().map(Errno::from_raw_os_error) {
            Some(Errno::NOENT | Errno::NOTDIR) => Err(Unfit::Gone),
            Some(Errno::ACCESS) => Ok(()),
            _ => Err(Unfit::Refused(format!(
                "cannot watch {} ({e})",
                path.display()
            ))),
        },
    }
}

/// File systems whose files change without an event here: network and
/// cluster file systems (another machine writes), FUSE (its server
/// writes: sshfs, virtiofs, Docker Desktop's shared folders), 9P (WSL 2's
/// Windows drives, a VM's shares), a hypervisor's shared folders, WSL 1's
/// and aufs (events known to go missing). Their magic numbers as
/// `statfs(2)` gives them; the list is coreutils' `stat` "remote" types,
/// overlayfs and pipefs aside (a container's root: written here only),
/// with 9P and WSL 1's added.
const REMOTE: [u32; 27] = [
    0x6969,      // NFS
    0x6E66_7364, // nfsd
    0x517B,      // SMB
    0xFF53_4D42, // CIFS
    0xFE53_4D42, // SMB2
    0x6573_5546, // FUSE
    0x0102_1997, // 9P
    0x00C3_6400, // Ceph
    0x5346_414F, // AFS
    0x6B41_4653, // kAFS
    0x7375_7245, // Coda
    0x6163_6673, // ACFS
    0x6175_6673, // aufs
    0x1983_0326, // BeeGFS (fhgfs)
    0x0116_1970, // GFS2
    0x4750_4653, // GPFS
    0x0131_11A8, // IBRIX
    0x0BD0_0BD0, // Lustre
    0x564C,      // NCP
    0x7461_636F, // OCFS2
    0xAAD7_AAEA, // PanFS
    0x7C7C_6673, // Parallels shared folders
    0xBEEF_DEAD, // StorNext
    0x786F_4256, // VirtualBox shared folders
    0xBACB_ACBC, // VMware shared folders
    0xA501_FCF5, // VxFS
    0x5346_4846, // WSL 1
];

/// The device of `dir` when it is a directory on `device`'s file system
/// (any, for `u64::MAX`), one that sends events for every change (a
/// network, cluster or FUSE file system does not report changes made by
/// other machines or by its server).
pub fn file_system(dir: &Path, device: u64) -> Result<u64, Unfit> {
    let gone = |e: Errno| match e {
        Errno::NOENT | Errno::NOTDIR => Unfit::Gone,
        e => Unfit::Refused(format!("cannot read {} ({e})", dir.display())),
    };
    // Not through a link: a directory replaced by one is gone.
    let dev = match rustix::fs::lstat(dir) {
        Ok(s) if FileType::from_raw_mode(s.st_mode) == FileType::Directory => s.st_dev,
        Ok(_) => return Err(Unfit::Gone),
        Err(e) => return Err(gone(e)),
    };
    let stat = rustix::fs::statfs(dir).map_err(gone)?;
    // A magic number is 32 bits; f_type is a signed long on most
    // architectures, so 0xFF534D42 would be negative on a 32-bit one.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::unnecessary_cast,
        reason = "f_type's width and sign differ by architecture"
    )]
    let kind = stat.f_type as u32;
    if REMOTE.contains(&kind) {
        return Err(Unfit::Refused(format!(
            "{} is on a file system that sends no events for every change",
            dir.display()
        )));
    }
    #[allow(clippy::useless_conversion, reason = "st_dev's width differs by OS")]
    let dev = u64::from(dev);
    if device != u64::MAX && dev != device {
        return Err(Unfit::Refused(format!(
            "{} is on another file system",
            dir.display()
        )));
    }
    Ok(dev)
}

/// The index over `files`, read from `workdir`, and what each file was as
/// it was read. A file is `always` a candidate when the index cannot
/// vouch for what it read: it could not be read, rg would decode it from
/// UTF-16 (its byte order mark), or it has another name (a hard link: a
/// write through that name is reported under that name only, if at all);
/// or when it is not worth indexing ([`DENSE`]).
/// A file is `racy` when it changed too recently for its `ctime` to tell
/// a later change ([`RACY_NS`]).
pub struct Built {
    pub postings: Postings,
    pub read: Vec<Stat>,
    pub always: Bits,
    pub racy: Bits,
    /// Bytes of the files read.
    pub covered: u64,
}

/// Past this many distinct trigrams, a file that holds a NUL byte, or
/// has more of them than half its bytes read, is not indexed, nor read
/// on; below it, one that has both. Random or compressed data (an image,
/// an archive, a model's weights) holds nearly as many trigrams as bytes:
/// one such file of 14 MB would make an index of 9.5 million trigrams, and
/// a tree of small images an index bigger than the tree's text. A program
/// or a library holds fewer, but still millions: a 14 MB executable made
/// an index of 8.7 MB. Such a file is searched by every call instead, as
/// a file the index cannot vouch for (`always`), and the index stays
/// under half the bytes it covers (`live`'s bound) file by file. Text has
/// no NUL byte, and is far from the ratio except a small file (its
/// distinct trigrams are nearly all its bytes), hence the floor.
const DENSE: usize = 1 << 16;

/// Bytes read from a file at a time: the memory of a build is one such
/// buffer per thread and the index itself, whatever the files' sizes.
const CHUNK: usize = 256 * 1024;

/// Build the index of `files` on `threads` threads (each a contiguous
/// share, its numbers shifted after), each at the lowest priority.
pub fn build(workdir: &Path, files: &[Name], threads: usize) -> Built {
    let share = files.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Share> = std::thread::scope(|scope| {
        let running: Vec<_> = files
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let _ = rustix::process::setpriority_process(None, 19);
                    read_all(workdir, part)
                })
            })
            .collect();
        running.into_iter().filter_map(|t| t.join().ok()).collect()
    });
    let mut whole = Builder::default();
    let (mut always, mut racy) = (Vec::new(), Vec::new());
    let mut read = Vec::with_capacity(files.len());
    let mut covered = 0;
    for part in parts {
        let shift = whole.files();
        always.extend(part.always.into_iter().map(|id| id + shift));
        racy.extend(part.racy.into_iter().map(|id| id + shift));
        read.extend(part.read);
        covered += part.covered;
        whole.append(part.builder);
    }
    let postings = whole.freeze();
    let bits = |ids: Vec<u32>| {
        let mut bits = Bits::none(postings.files());
        for id in ids {
            bits.insert(id);
        }
        bits
    };
    Built {
        always: bits(always),
        racy: bits(racy),
        postings,
        read,
        covered,
    }
}

/// One thread's share of a build.
struct Share {
    builder: Builder,
    read: Vec<Stat>,
    always: Vec<u32>,
    racy: Vec<u32>,
    covered: u64,
}

fn read_all(workdir: &Path, files: &[Name]) -> Share {
    let mut share = Share {
        builder: Builder::default(),
        read: Vec::with_capacity(files.len()),
        always: Vec::new(),
        racy: Vec::new(),
        covered: 0,
    };
    let mut buf = vec![0u8; CHUNK];
    for name in files {
        let id = share.builder.begin();
        let read = read_one(&join(workdir, name), &mut share.builder, &mut buf);
        // What the index cannot vouch for costs it nothing.
        if read.as_ref().is_ok_and(|r| r.trusted) {
            share.builder.finish();
        } else {
            share.builder.abandon();
        }
        let read = read.unwrap_or(Reading {
            stat: Stat {
                ino: 0,
                size: u64::MAX,
                mtime: 0,
                ctime: 0,
                links: 0,
            },
            bytes: 0,
            trusted: false,
            racy: true,
        });
        share.covered += read.bytes;
        share.read.push(read.stat);
        if !read.trusted {
            share.always.push(id);
        }
        if read.racy {
            share.racy.push(id);
        }
    }
    share
}

/// One file as read.
struct Reading {
    /// What it was as it was read.
    stat: Stat,
    bytes: u64,
    /// The index can vouch for what it read (see [`Built`]).
    trusted: bool,
    racy: bool,
}

/// Read the file at `path` into `builder` (`Err` too when it is no longer
/// a regular file: read as one that could not be).
fn read_one(path: &Path, builder: &mut Builder, buf: &mut [u8]) -> io::Result<Reading> {
    // Not through a link, and never blocking on a FIFO put in the file's
    // place since the walk: only a regular file is read.
    let flags = (OFlags::NOFOLLOW | OFlags::NONBLOCK).bits();
    let mut file = File::options()
        .read(true)
        .custom_flags(i32::try_from(flags).unwrap_or(0))
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::ErrorKind::InvalidInput.into());
    }
    let stat = Stat::of(&meta);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(i64::MAX, |d| {
            i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
        });
    let racy = now.saturating_sub(stat.ctime) < RACY_NS;
    let mut trusted = stat.links == 1;
    let mut total = 0u64;
    let mut first = true;
    let mut nul = false;
    loop {
        let n = read_full(&mut file, buf)?;
        if n == 0 {
            break;
        }
        if first && (buf[..n].starts_with(b"\xFF\xFE") || buf[..n].starts_with(b"\xFE\xFF")) {
            trusted = false;
        }
        first = false;
        nul |= buf[..n].contains(&0);
        builder.feed(&buf[..n]);
        total += n as u64;
        let distinct = builder.distinct() as u64;
        let (many, dense) = (distinct > DENSE as u64, distinct > total / 2);
        if (many && (nul || dense)) || (nul && dense) {
            trusted = false;
            break;
        }
    }
    Ok(Reading {
        stat,
        bytes: total,
        trusted,
        racy,
    })
}

/// Fill `buf` as far as the file goes (a short read mid-file would split
/// the byte order mark check).
fn read_full(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The path an error of the walk is about, if it names one.
fn error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(errs) => errs.iter().find_map(error_path),
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/index/tree.rs"]
mod tests;
