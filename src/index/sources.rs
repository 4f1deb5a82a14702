//! The rules rg reads from outside the directories the index watches: the
//! ignore files and `.git` of every directory above the workdir (a
//! `.gitignore` there applies once a `.git` is found at or above it), the
//! `info/exclude` of each repository the tree is in or holds, and the
//! global excludes file with the git configuration that names it.
//!
//! These are few and small, so each call reads them again
//! ([`Sources::changed`]) and compares what it reads with what the last
//! walk of the whole tree was done under: reading is exact at the moment
//! of the call, where a watch on each (and on every directory that could
//! come to hold one) would not be simpler. A difference walks the whole
//! tree again.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::names::{Name, join};
use super::watch::RULE_FILES;

/// What a path held when read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seen {
    Absent,
    Dir,
    /// A file, by the digest of its content.
    File([u8; 32]),
    /// Anything else (a link to nothing, a FIFO, no permission to read).
    Other,
}

/// The rules' files outside the watched tree, as last read.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    seen: Vec<(PathBuf, Seen)>,
}

impl Sources {
    /// Read the rules' files of a tree at `workdir` whose repositories
    /// (directories holding `.git`, by name) are `repos`.
    pub fn read<'a>(workdir: &Path, repos: impl Iterator<Item = &'a Name>) -> Self {
        let mut paths = Vec::new();
        // `ignore` reads the directories above the workdir's real path.
        let real = workdir
            .canonicalize()
            .unwrap_or_else(|_| workdir.to_path_buf());
        for dir in real.ancestors().skip(1) {
            paths.extend(RULE_FILES.iter().map(|name| dir.join(name)));
        }
        // The repositories: the one holding the workdir (the nearest
        // `.git` above it, or its own) and those inside it; `ignore`
        // reads `info/exclude` of each directory holding `.git`.
        for dir in real.ancestors() {
            exclude_of(dir, &mut paths);
        }
        for repo in repos {
            exclude_of(&join(workdir, repo), &mut paths);
        }
        // The global excludes: the file git's configuration names, the
        // configuration that names it.
        if let Some(home) = home() {
            paths.push(home.join(".gitconfig"));
        }
        if let Some(config) = xdg_config() {
            paths.push(config.join("git/config"));
        }
        paths.extend(ignore::gitignore::gitconfig_excludes_path());
        paths.sort();
        paths.dedup();
        let seen = paths
            .into_iter()
            .map(|path| {
                let seen = seen(&path);
                (path, seen)
            })
            .collect();
        Self { seen }
    }

    /// Whether any of the files read differs now.
    pub fn changed(&self) -> bool {
        self.seen.iter().any(|(path, was)| seen(path) != *was)
    }
}

/// The files that say where `dir`'s repository keeps `info/exclude`, as
/// `ignore` finds it (a `.git` file names a worktree's git directory,
/// whose `commondir` names the shared one), and that file, when `dir`
/// holds `.git`.
fn exclude_of(dir: &Path, paths: &mut Vec<PathBuf>) {
    let git = dir.join(".git");
    let Ok(meta) = git.metadata() else {
        return;
    };
    paths.push(git.clone());
    if !meta.is_file() {
        paths.push(git.join("info/exclude"));
        return;
    }
    let Some(gitdir) = first_line(&git).and_then(|l| l.strip_prefix("gitdir: ").map(PathBuf::from))
    else {
        return;
    };
    let commondir = gitdir.join("commondir");
    paths.push(commondir.clone());
    if let Some(line) = first_line(&commondir) {
        let common = if line.starts_with('.') {
            gitdir.join(line)
        } else {
            PathBuf::from(line)
        };
        paths.push(common.join("info/exclude"));
    }
}

fn first_line(path: &Path) -> Option<String> {
    let file = File::open(path).ok()?;
    BufReader::new(file).lines().next()?.ok()
}

/// What `path` holds now.
fn seen(path: &Path) -> Seen {
    let Ok(meta) = path.metadata() else {
        return match path.symlink_metadata() {
            Ok(_) => Seen::Other,
            Err(_) => Seen::Absent,
        };
    };
    if meta.is_dir() {
        return Seen::Dir;
    }
    if !meta.is_file() {
        return Seen::Other;
    }
    let Ok(mut file) = File::open(path) else {
        return Seen::Other;
    };
    let mut hasher = Sha256::new();
    match std::io::copy(&mut file, &mut hasher) {
        Ok(_) => Seen::File(hasher.finalize().into()),
        Err(_) => Seen::Other,
    }
}

/// `$HOME`, as `ignore` finds it.
#[allow(
    deprecated,
    reason = "the very function `ignore` uses, so both find one home"
)]
fn home() -> Option<PathBuf> {
    std::env::home_dir()
}

/// `$XDG_CONFIG_HOME`, else `$HOME/.config`, as `ignore` finds it.
fn xdg_config() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|x| !x.is_empty())
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".config")))
}

#[cfg(test)]
#[path = "../../tests/unit/index/sources.rs"]
mod tests;
