//! The files the scan searches, walked as rg walks them (ripgrep's own
//! `ignore` crate, set up as rg sets it up for a search with no path and
//! no filters), each directory watched before it is read; and the index
//! built over them.

use std::collections::HashSet;
use std::path::Path;

use ignore::WalkBuilder;

use super::grams::{Bits, Builder, Postings};
#[cfg(target_os = "linux")]
use super::watch::Watcher;

/// What a walk found.
pub struct Walked {
    /// The files, named as rg names them searching with no path
    /// (`src/main.rs`); a name that is not UTF-8 is kept lossily and
    /// listed in `lossy`.
    pub files: Vec<String>,
    pub lossy: HashSet<String>,
    /// The directories walked (`""` for the workdir).
    pub dirs: HashSet<String>,
}

/// Why the walk cannot serve the index.
pub type Refusal = String;

/// Walk `workdir` as rg does; with a watcher, each directory is watched
/// before its entries are read.
#[cfg(target_os = "linux")]
pub fn walk(workdir: &Path, watcher: &Watcher) -> Result<Walked, Refusal> {
    let mut walked = Walked {
        files: Vec::new(),
        lossy: HashSet::new(),
        dirs: HashSet::new(),
    };
    let root_fs = file_system(workdir)?;
    // rg's defaults: hidden files skipped; .gitignore (in a git
    // repository), .git/info/exclude, the global excludes, .ignore and
    // .rgignore honoured, in this directory and its parents; links not
    // followed.
    let mut builder = WalkBuilder::new(workdir);
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
    for entry in builder.build() {
        let entry = entry.map_err(|e| format!("the walk met an error ({e})"))?;
        let Some(kind) = entry.file_type() else {
            continue;
        };
        let rel = entry.path().strip_prefix(workdir).unwrap_or(entry.path());
        let (name, exact) = match rel.to_str() {
            Some(name) => (name.to_owned(), true),
            None => (rel.to_string_lossy().into_owned(), false),
        };
        if kind.is_dir() {
            if entry.depth() > 0 && file_system(entry.path())? != root_fs {
                return Err(format!("{name} is on another file system"));
            }
            watcher
                .watch(workdir, &name)
                .map_err(|e| format!("cannot watch {name} ({e})"))?;
            walked.dirs.insert(name);
        } else if kind.is_file() {
            if !exact {
                walked.lossy.insert(name.clone());
            }
            walked.files.push(name);
        }
    }
    Ok(walked)
}

/// The device of `dir`, once its file system is known to send events for
/// every change (a network or FUSE file system does not report changes
/// made by other machines or by its server).
#[cfg(target_os = "linux")]
fn file_system(dir: &Path) -> Result<u64, Refusal> {
    // NFS, SMB, CIFS, SMB2, FUSE, 9P, Ceph, AFS, Coda.
    const REMOTE: [i64; 9] = [
        0x6969,
        0x517B,
        0xFF53_4D42,
        0xFE53_4D42,
        0x6573_5546,
        0x0102_1997,
        0x00C3_6400,
        0x5346_414F,
        0x7375_7245,
    ];
    let stat = rustix::fs::statfs(dir)
        .map_err(|e| format!("cannot read the file system of {} ({e})", dir.display()))?;
    #[allow(
        clippy::cast_lossless,
        clippy::unnecessary_cast,
        reason = "f_type's width differs by architecture"
    )]
    let kind = stat.f_type as i64;
    if REMOTE.contains(&kind) {
        return Err(format!(
            "{} is on a file system that sends no events for every change",
            dir.display()
        ));
    }
    rustix::fs::stat(dir)
        .map(|s| s.st_dev)
        .map_err(|e| format!("cannot read {} ({e})", dir.display()))
}

/// The index over `files`, read from `workdir`: a file that cannot be
/// read, or that rg would decode from UTF-16 (its byte order mark), is
/// `always` a candidate.
pub struct Built {
    pub postings: Postings,
    pub always: Bits,
    /// Bytes of the files read.
    pub covered: u64,
}

/// Build the index of `files` on `threads` threads (each a contiguous
/// share, its numbers shifted after), each at the lowest priority.
pub fn build(workdir: &Path, files: &[String], threads: usize) -> Built {
    let share = files.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Builder, Vec<u32>, u64)> = std::thread::scope(|scope| {
        let running: Vec<_> = files
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    #[cfg(target_os = "linux")]
                    let _ = rustix::process::setpriority_process(None, 19);
                    read_all(workdir, part)
                })
            })
            .collect();
        running.into_iter().filter_map(|t| t.join().ok()).collect()
    });
    let mut whole = Builder::default();
    let mut unknown = Vec::new();
    let mut covered = 0;
    for (part, part_unknown, part_covered) in parts {
        let shift = whole.files();
        unknown.extend(part_unknown.into_iter().map(|id| id + shift));
        covered += part_covered;
        whole.append(part);
    }
    let postings = whole.freeze();
    let mut always = Bits::none(postings.files());
    for id in unknown {
        always.insert(id);
    }
    Built {
        postings,
        always,
        covered,
    }
}

/// One share of a build: its builder, the files it could not read, and
/// the bytes it read.
fn read_all(workdir: &Path, files: &[String]) -> (Builder, Vec<u32>, u64) {
    let mut builder = Builder::default();
    let mut unknown = Vec::new();
    let mut covered = 0u64;
    let mut buf = vec![0; CHUNK];
    for name in files {
        match read_one(&mut builder, &workdir.join(name), &mut buf) {
            Ok(bytes) => covered += bytes,
            Err(id) => unknown.push(id),
        }
    }
    (builder, unknown, covered)
}

/// The bytes a build reads at a time.
const CHUNK: usize = 256 << 10;

/// Feed the file at `path` to `builder`, a chunk at a time through `buf`:
/// the bytes read, or the file's number if it could not be read whole or
/// starts with a UTF-16 byte order mark.
fn read_one(builder: &mut Builder, path: &Path, buf: &mut [u8]) -> Result<u64, u32> {
    let Ok(mut file) = std::fs::File::open(path) else {
        return Err(builder.skip());
    };
    // The mark needs the first 2 bytes, which a first read may not give.
    let mut start = 0;
    while start < 2 {
        match read(&mut file, &mut buf[start..]) {
            Ok(0) => break,
            Ok(n) => start += n,
            Err(_) => return Err(builder.skip()),
        }
    }
    if buf[..start].starts_with(b"\xFF\xFE") || buf[..start].starts_with(b"\xFE\xFF") {
        return Err(builder.skip());
    }
    let id = builder.begin();
    builder.feed(&buf[..start]);
    let mut covered = start as u64;
    loop {
        match read(&mut file, buf) {
            Ok(0) => break,
            Ok(n) => {
                builder.feed(&buf[..n]);
                covered += n as u64;
            }
            Err(_) => {
                builder.finish();
                return Err(id);
            }
        }
    }
    builder.finish();
    Ok(covered)
}

/// One read, retried when interrupted (as `std::fs::read` does).
fn read(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match std::io::Read::read(file, buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}
