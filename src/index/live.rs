//! Linux: the index kept live. A builder thread (at the lowest priority)
//! walks and reads the tree, a drain thread empties the watcher's queue
//! between calls, and each call drains it once more before it plans.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::grams::{Bits, Postings};
use super::query::{self, Pattern, Query};
use super::tree::{self, Walked};
use super::watch::{Changes, Watcher};
use super::{Plan, Why};
use crate::request::GrepRequest;
use crate::rg::command;
use crate::rg::process::{self, Spec};
use crate::rg::{Ending, ListingSink, RgExit};
use crate::settings::Settings;
use crate::stop::Budget;

/// Changed and new files the index carries as candidates before it is
/// rebuilt (in the background, while this index still answers): this
/// many, or one in a thousand of its files if more.
const REBUILD_AFTER: usize = 64;
/// The size under which an index is kept whatever the bytes it covers:
/// the half-the-bytes bound is for big trees; a small tree's index is
/// mostly the per-trigram table, and costs nothing to keep.
const SMALL_INDEX: u64 = 4 * 1024 * 1024;
/// How long the first build's `rg --files` may take.
const CHECK_LIMIT: Duration = Duration::from_secs(60);
/// How long the drain thread waits for an event before looking again.
const DRAIN_TICK: Duration = Duration::from_secs(1);

pub struct Live {
    shared: Arc<Shared>,
    /// A directory that holds nothing: what rg searches when no file is a
    /// candidate.
    empty: tempfile::TempDir,
}

struct Shared {
    workdir: PathBuf,
    /// The resolved rg, which the first walk is checked against.
    rg: Option<String>,
    watcher: Watcher,
    /// `--explain`: say on stderr when a build ends, and what it cost.
    explain: bool,
    state: Mutex<State>,
    /// Signalled when a build is asked for, or when one ends.
    changed: Condvar,
}

#[derive(Default)]
struct State {
    ready: Option<Ready>,
    /// Why there is no index now (while `ready` is `None`).
    why_not: Option<Why>,
    /// A build is asked for.
    rebuild: bool,
    /// Changes seen while a build runs: the new index starts with them.
    during_build: Option<Pending>,
    /// The first build's walk was checked against `rg --files`.
    checked: bool,
}

#[derive(Default)]
struct Pending {
    dirty: HashSet<String>,
    structural: bool,
}

/// A built index and what changed since.
struct Ready {
    /// The files read, in number order, and their numbers.
    ids: HashMap<String, u32>,
    postings: Postings,
    /// Files the index could not read: always candidates.
    always: Bits,
    /// Files changed since they were read, by name and by number.
    dirty: HashSet<String>,
    dirty_ids: Bits,
    /// The tree's shape changed: walk again before planning.
    stale: bool,
    /// The files the scan searches now (the build's, or the latest walk's).
    files: Arc<Listing>,
    /// The directories walked.
    dirs: HashSet<String>,
    /// The files of filtered calls (a path, type, include or exclude), as
    /// `rg --files` listed them; emptied when the tree's shape changes.
    listed: HashMap<Key, Arc<Listing>>,
}

/// The filters that choose a call's files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct Key {
    path: Option<String>,
    file_type: Option<String>,
    include: Option<String>,
    exclude: Option<String>,
}

/// Files as rg names them, each with its number in the index (`None`: a
/// file the index has not read); `lossy` those whose name is not UTF-8.
#[derive(Default)]
struct Listing {
    names: Vec<String>,
    ids: Vec<Option<u32>>,
    lossy: HashSet<String>,
}

impl Listing {
    /// `names` numbered by `ids` (the index's names, relative to
    /// `workdir`), looked up once, when the listing is made.
    fn new(
        names: Vec<String>,
        lossy: HashSet<String>,
        ids: &HashMap<String, u32>,
        workdir: &Path,
    ) -> Self {
        let numbers = names
            .iter()
            .map(|name| match ids.get(name.as_str()) {
                Some(&id) => Some(id),
                None => relative(name, workdir).and_then(|rel| ids.get(&rel).copied()),
            })
            .collect();
        Self {
            names,
            ids: numbers,
            lossy,
        }
    }
}

impl Live {
    pub fn start(settings: &Settings) -> Result<Self, String> {
        let watcher = Watcher::new().map_err(|e| format!("inotify is not available ({e})"))?;
        let empty = tempfile::Builder::new()
            .prefix("dsh-search-empty-")
            .tempdir()
            .map_err(|e| format!("cannot make an empty directory ({e})"))?;
        let shared = Arc::new(Shared {
            workdir: settings.workdir.clone(),
            rg: settings.rg.path().map(str::to_owned),
            watcher,
            explain: settings.explain,
            state: Mutex::new(State {
                rebuild: true,
                why_not: Some(Why::NotReady),
                ..State::default()
            }),
            changed: Condvar::new(),
        });
        let builder = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("index-build".into())
            .spawn(move || builder.build_loop())
            .map_err(|e| format!("cannot start the builder ({e})"))?;
        let drainer = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("index-drain".into())
            .spawn(move || drainer.drain_loop())
            .map_err(|e| format!("cannot start the watcher ({e})"))?;
        Ok(Self { shared, empty })
    }

    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        let Ok(mut state) = self.shared.state.lock() else {
            return false;
        };
        loop {
            if state.ready.is_some() {
                return true;
            }
            if matches!(state.why_not, Some(Why::Unavailable(_))) {
                return false;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = match self.shared.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(_) => return false,
            };
        }
    }

    pub fn plan(&self, r: &GrepRequest, settings: &Settings, budget: Budget<'_>) -> Plan {
        if r.follow {
            return Plan::Scan(Why::Follow);
        }
        let Some(query) = query::plan(Pattern {
            text: &r.pattern,
            ignore_case: r.ignore_case,
            literal: r.literal,
            multiline: r.multiline,
        }) else {
            return Plan::Scan(Why::NoLiteral);
        };
        if query == Query::All {
            return Plan::Scan(Why::NoLiteral);
        }
        let Ok(mut state) = self.shared.state.lock() else {
            return Plan::Scan(Why::NotReady);
        };
        self.shared.drain(&mut state);
        let shared = &self.shared;
        let Some(ready) = state.ready.as_mut() else {
            return Plan::Scan(state.why_not.clone().unwrap_or(Why::NotReady));
        };
        if ready.stale {
            match tree::walk(&shared.workdir, &shared.watcher) {
                Ok(walked) => ready.rewalked(walked, &shared.watcher, &shared.workdir),
                Err(why) => {
                    state.ready = None;
                    state.why_not = Some(Why::Unavailable(why));
                    return Plan::Scan(state.why_not.clone().unwrap_or(Why::NotReady));
                }
            }
        }
        let files = match ready.listing(r, settings, budget, &shared.workdir) {
            Ok(files) => files,
            Err(why) => return Plan::Scan(why),
        };
        let plan = ready.candidates(&query, &files, self.empty.path());
        let unknown = files.names.len().saturating_sub(ready.ids.len());
        if ready.dirty.len() + unknown > REBUILD_AFTER.max(ready.ids.len() / 1000)
            && state.during_build.is_none()
        {
            state.rebuild = true;
            shared.changed.notify_all();
        }
        plan
    }
}

impl Shared {
    /// Read the watcher's queue and apply what it says.
    fn drain(&self, state: &mut MutexGuard<'_, State>) {
        let mut changes = Changes::default();
        self.watcher.drain(&mut changes);
        if changes.lost {
            // Nothing known can be trusted: rebuild, and scan meanwhile.
            state.ready = None;
            state.why_not = Some(Why::NotReady);
            if let Some(pending) = &mut state.during_build {
                pending.structural = true;
            }
            state.rebuild = true;
            self.changed.notify_all();
        }
        if let Some(ready) = &mut state.ready {
            ready.stale |= changes.structural;
            if changes.structural {
                ready.listed.clear();
            }
            ready.mark_dirty(changes.dirty.iter().cloned());
        }
        if let Some(pending) = &mut state.during_build {
            pending.structural |= changes.structural;
            pending.dirty.extend(changes.dirty);
        }
    }

    fn drain_loop(&self) {
        loop {
            self.watcher.wait(DRAIN_TICK);
            match self.state.lock() {
                Ok(mut state) => self.drain(&mut state),
                Err(_) => return,
            }
        }
    }

    fn build_loop(&self) {
        // The lowest priority: a build must not slow the calls it serves
        // (on Linux this is the calling thread's).
        let _ = rustix::process::setpriority_process(None, 19);
        loop {
            {
                let Ok(mut state) = self.state.lock() else {
                    return;
                };
                while !state.rebuild {
                    state = match self.changed.wait(state) {
                        Ok(state) => state,
                        Err(_) => return,
                    };
                }
                state.rebuild = false;
                state.during_build = Some(Pending::default());
            }
            let built = self.build_once();
            let Ok(mut state) = self.state.lock() else {
                return;
            };
            let pending = state.during_build.take().unwrap_or_default();
            match built {
                Ok(mut ready) => {
                    ready.mark_dirty(pending.dirty);
                    ready.stale = pending.structural;
                    state.ready = Some(ready);
                    state.why_not = None;
                }
                Err(why) => {
                    state.ready = None;
                    state.why_not = Some(Why::Unavailable(why));
                    self.changed.notify_all();
                    return;
                }
            }
            self.changed.notify_all();
        }
    }

    fn build_once(&self) -> Result<Ready, String> {
        let started = Instant::now();
        let walked = tree::walk(&self.workdir, &self.watcher)?;
        let walk_took = started.elapsed();
        let checked = self.state.lock().is_ok_and(|s| s.checked);
        if !checked {
            self.check(&walked)?;
            if let Ok(mut state) = self.state.lock() {
                state.checked = true;
            }
        }
        self.watcher.keep_only(&walked.dirs);
        let checked_at = started.elapsed();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let built = tree::build(&self.workdir, &walked.files, threads);
        if self.explain {
            crate::diag::note(&format!(
                "dsh-search mcp: index of {} files ({} bytes read) built in {:.2} s (walk {:.2} s, checked against rg --files by {:.2} s): {} bytes",
                walked.files.len(),
                built.covered,
                started.elapsed().as_secs_f64(),
                walk_took.as_secs_f64(),
                checked_at.as_secs_f64(),
                built.postings.size(),
            ));
        }
        let size = built.postings.size() as u64;
        if size > (built.covered / 2).max(SMALL_INDEX) {
            return Err(format!(
                "an index of {size} bytes would be over half the {} bytes it covers",
                built.covered
            ));
        }
        let ids: HashMap<String, u32> = walked
            .files
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), i as u32))
            .collect();
        let files = Listing::new(walked.files, walked.lossy, &ids, &self.workdir);
        Ok(Ready {
            dirty_ids: Bits::none(ids.len() as u32),
            ids,
            postings: built.postings,
            always: built.always,
            dirty: HashSet::new(),
            stale: false,
            files: Arc::new(files),
            dirs: walked.dirs,
            listed: HashMap::new(),
        })
    }

    /// The walk must list exactly the files `rg --files` lists. rg runs
    /// as every search's rg does (its own process group, gone with this
    /// process), for [`CHECK_LIMIT`] at most.
    fn check(&self, walked: &Walked) -> Result<(), String> {
        let rg = self
            .rg
            .as_deref()
            .ok_or("no rg to check the walk against")?;
        let stop = crate::stop::Stop::new();
        let budget = Budget {
            deadline: Instant::now() + CHECK_LIMIT,
            stop: &stop,
        };
        let line = command::files_line(rg);
        let (names, _) = list(&line, &self.workdir, budget, u64::MAX)?;
        let listed: HashSet<String> = names.into_iter().collect();
        let walked_set: HashSet<&String> = walked.files.iter().collect();
        if listed.len() != walked.files.len() || listed.iter().any(|n| !walked_set.contains(n)) {
            return Err(format!(
                "the walk found {} files and rg --files {}",
                walked.files.len(),
                listed.len()
            ));
        }
        Ok(())
    }
}

impl Ready {
    fn mark_dirty(&mut self, names: impl IntoIterator<Item = String>) {
        for name in names {
            if let Some(&id) = self.ids.get(&name) {
                self.dirty_ids.insert(id);
            }
            self.dirty.insert(name);
        }
    }

    fn rewalked(&mut self, walked: Walked, watcher: &Watcher, workdir: &Path) {
        watcher.keep_only(&walked.dirs);
        self.files = Arc::new(Listing::new(walked.files, walked.lossy, &self.ids, workdir));
        self.dirs = walked.dirs;
        self.listed.clear();
        self.stale = false;
    }

    /// The files the grep `r` searches.
    fn listing(
        &mut self,
        r: &GrepRequest,
        settings: &Settings,
        budget: Budget<'_>,
        workdir: &Path,
    ) -> Result<Arc<Listing>, Why> {
        let key = Key {
            path: r.path.clone(),
            file_type: r.file_type.clone(),
            include: r.include.clone(),
            exclude: r.exclude.clone(),
        };
        if key == Key::default() {
            return Ok(Arc::clone(&self.files));
        }
        if let Some(listing) = self.listed.get(&key) {
            return Ok(Arc::clone(listing));
        }
        let rg = settings.rg.path().ok_or(Why::NotReady)?;
        let line = command::grep_files_line(rg, r);
        let cap = settings.limits.raw_output_max_bytes.get();
        let (names, lossy) = list(&line, &settings.workdir, budget, cap).map_err(Why::Listing)?;
        let listing = Arc::new(Listing::new(names, lossy, &self.ids, workdir));
        // Kept while the tree keeps its shape, if every directory it
        // searched is watched: the path a walked directory, or a file.
        let watched = match &key.path {
            None => true,
            Some(path) => {
                let rel = relative(path, workdir);
                rel.as_deref()
                    .is_some_and(|rel| self.dirs.contains(rel) || self.ids.contains_key(rel))
            }
        };
        if watched && listing.ids.iter().all(Option::is_some) {
            self.listed.insert(key, Arc::clone(&listing));
        }
        Ok(listing)
    }

    /// The plan over `files` for `query`.
    fn candidates(&self, query: &Query, files: &Listing, empty: &Path) -> Plan {
        if files.names.is_empty() {
            return Plan::Scan(Why::NoFiles);
        }
        let bits = self.postings.answer(query);
        let mut paths = Vec::new();
        let mut dirty = 0;
        for (name, id) in files.names.iter().zip(&files.ids) {
            let (candidate, changed) = match *id {
                None => (true, true),
                Some(id) => {
                    let changed = self.dirty_ids.contains(id);
                    let holds = bits.as_ref().is_none_or(|b| b.contains(id));
                    (changed || holds || self.always.contains(id), changed)
                }
            };
            if candidate {
                if files.lossy.contains(name) {
                    return Plan::Scan(Why::Unnamed);
                }
                dirty += usize::from(changed);
                paths.push(name.clone());
            }
        }
        let total = files.names.len();
        if paths.len() * 2 > total {
            return Plan::Scan(Why::TooMany(paths.len() * 100 / total.max(1)));
        }
        Plan::Paths {
            paths,
            files: total,
            dirty,
            empty: empty.to_string_lossy().into_owned(),
        }
    }
}

/// The name the index knows `name` by (relative to the workdir, no `./`),
/// or `None` when it names something outside the workdir or through `..`.
fn relative(name: &str, workdir: &Path) -> Option<String> {
    let mut rest = name;
    if Path::new(name).is_absolute() {
        rest = Path::new(name).strip_prefix(workdir).ok()?.to_str()?;
    }
    let mut parts = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The files `line` (an `rg --files --null`) lists, run as every rg is
/// (`process::run`), and those of them whose name is not UTF-8 (kept
/// lossily); `Err` unless rg listed cleanly: an error message, a limit,
/// a signal.
fn list(
    line: &command::CommandLine,
    workdir: &Path,
    budget: Budget<'_>,
    cap: u64,
) -> Result<(Vec<String>, HashSet<String>), String> {
    let spec = Spec {
        line,
        workdir,
        budget,
        stdout_cap: cap,
    };
    let mut sink = ListingSink::default();
    let finished =
        process::run(&spec, &mut sink).map_err(|e| format!("cannot run rg --files ({e})"))?;
    match finished.ending {
        Ending::Exited(RgExit::Status(0 | 1)) if finished.stderr.messages == 0 => {}
        Ending::Exited(_) => return Err("rg --files reported errors".to_owned()),
        Ending::Overflow => return Err("too many files".to_owned()),
        Ending::Halted(_) => return Err("stopped".to_owned()),
    }
    let (mut names, mut lossy) = (Vec::new(), HashSet::new());
    for name in sink.bytes.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        if let Ok(name) = std::str::from_utf8(name) {
            names.push(name.to_owned());
        } else {
            let name = String::from_utf8_lossy(name).into_owned();
            lossy.insert(name.clone());
            names.push(name);
        }
    }
    Ok((names, lossy))
}
