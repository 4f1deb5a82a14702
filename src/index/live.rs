//! Linux: the index kept live. Three threads serve it:
//!
//! - the drain thread empties the watcher's queue as events come (each
//!   call drains it once more before it plans), applying writes at once
//!   and queueing what must be walked again ([`Work`]);
//! - the walker walks again what changed (a directory's entries, or a
//!   whole part of the tree) and takes the walk in, a part at a time;
//! - the builder reads the whole tree (at the lowest priority), first and
//!   whenever enough has changed, while the index it replaces answers.
//!
//! A call never walks or reads the tree itself, and never holds the lock
//! while anything runs: it drains, reads the rules outside the tree
//! ([`Sources`]), then waits for the walker to take in every change made
//! before the call started, for a bounded part of its time ([`CATCH_UP`]).
//! A call that cannot wait scans.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::files::{Content, Files, Work};
use super::names::{self, Name};
use super::query::{self, Pattern, Query};
use super::sources::Sources;
use super::tree::{self, Depth, Walked};
use super::watch::{Event, Watcher};
use super::{Plan, Why, listing};
use crate::request::GrepRequest;
use crate::settings::Settings;
use crate::stop::{Budget, Stop};

/// Changed and new files the index carries as candidates before it is
/// rebuilt (in the background, while this index still answers): this
/// many, or one in a thousand of its files if more; in a small tree,
/// where a rebuild costs little, a quarter of its files if fewer.
const REBUILD_AFTER: usize = 64;
/// The size under which an index is kept whatever the bytes it covers:
/// the half-the-bytes bound is for big trees; a small tree's index is
/// mostly its table of trigrams, and costs nothing to keep.
const SMALL_INDEX: u64 = 4 * 1024 * 1024;
/// How long the drain thread waits for an event before looking again.
const DRAIN_TICK: Duration = Duration::from_secs(1);
/// The longest a call waits for the walker to take in the changes made
/// before it started, and the most of its time: past either, it scans.
const CATCH_UP: Duration = Duration::from_millis(250);
const CATCH_UP_SHARE: u32 = 4;
/// Walks of the whole tree in a row when each finds a repository the
/// rules read before it did not know (`Sources`).
const SETTLE: usize = 3;
/// Why a build or a walk gives up after [`SETTLE`] walks.
const UNSETTLED: &str = "repositories keep appearing in the tree";

pub struct Live {
    shared: Arc<LiveIndex>,
    /// A directory that holds nothing: what rg searches when no file is a
    /// candidate (the server's, in its user's private directory).
    empty: PathBuf,
}

struct LiveIndex {
    workdir: PathBuf,
    /// The workdir's file system: the tree must stay on it.
    device: u64,
    /// The resolved rg, which the first walk is checked against.
    rg: Option<String>,
    watcher: Arc<Watcher>,
    /// `--explain`: say on stderr when a build ends, and what it cost.
    explain: bool,
    /// The server's signals, and the index's own rg runs, killed with it.
    stop: Stop,
    state: Mutex<LiveState>,
    /// Signalled whenever work is queued or done, or a build asked for
    /// or ended.
    changed: Condvar,
    /// The first build's walk was checked against `rg --files`.
    checked: AtomicBool,
    /// The server is going.
    gone: AtomicBool,
    /// Tests: the builder waits before it installs, with draining held.
    paused: AtomicBool,
}

struct LiveState {
    ready: Option<Ready>,
    /// Why there is no index now (while `ready` is `None`).
    why_not: Why,
    /// What the walker has yet to take.
    work: Work,
    /// Changes queued so far, and of them those taken in: a call waits
    /// until `done` reaches what was queued when it drained.
    queued: u64,
    done: u64,
    /// The walker holds work: files written meanwhile (re-applied after
    /// each part it takes in, which would otherwise undo them).
    walking: bool,
    written_meanwhile: Vec<Name>,
    /// How long the last walk of the whole tree took, and when the one
    /// under way (if any) started: a call does not wait for one that
    /// cannot end within its wait.
    whole_took: Duration,
    whole_since: Option<Instant>,
    /// Names the walker is looking at (files changed while the tree did
    /// not hold them), and what events since said became of each.
    looking: HashMap<Name, Fate>,
    /// A build is asked for; one runs (what changed since it walked).
    rebuild: bool,
    building: Option<Log>,
    /// Bumped when a build is installed: work taken before is void.
    epoch: u64,
    /// The rules outside the tree, as the last walk of it read them.
    sources: Arc<Sources>,
    /// The files of filtered calls (a path, type, include or exclude), as
    /// `rg --files` listed them; forgotten when the tree's shape changes.
    listed: HashMap<listing::Key, Arc<Vec<Name>>>,
}

/// What became of a name the walker looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Unknown,
    /// Moved to another name of the tree, which is looked at in its turn.
    Moved,
    /// Removed, or moved out of the tree.
    Removed,
}

/// A built index and the tree it covers.
struct Ready {
    content: Content,
    files: Files,
}

/// What changed since a build's walk started, taken in by the index it
/// builds once it is installed. Past [`LOG_MAX`] events, what a lost
/// queue asks: walk everything again.
#[derive(Default)]
struct Log {
    events: Vec<Event>,
}

const LOG_MAX: usize = 100_000;

impl Log {
    fn add(&mut self, event: &Event) {
        if self.events.len() < LOG_MAX {
            self.events.push(event.clone());
        } else if self.events.last() != Some(&Event::Lost) {
            self.events.push(Event::Lost);
        }
    }
}

impl LiveState {
    /// Take one event in.
    fn take(&mut self, event: &Event) {
        trace(|| format!("event {event:?}"));
        if let Some(log) = &mut self.building {
            log.add(event);
        }
        match event {
            Event::Moved { from, to } => {
                if let Some(fate) = self.looking.get_mut(from) {
                    *fate = Fate::Moved;
                    self.work.unknown.insert(to.clone());
                }
            }
            Event::Removed(name) => {
                if let Some(fate) = self.looking.get_mut(name) {
                    if *fate == Fate::Unknown {
                        *fate = Fate::Removed;
                    }
                }
            }
            _ => {}
        }
        if let Event::Written { name, .. } = event {
            if self.walking {
                self.written_meanwhile.push(name.clone());
            }
            if let Some(ready) = &mut self.ready {
                if ready.files.written(name, &mut ready.content) {
                    return;
                }
            }
        }
        self.work.add(event);
        if !self.work.is_empty() {
            self.queued += 1;
        }
    }

    /// Whether `dir` is a directory of the tree as the index knows it.
    fn holds_dir(&self, dir: &[u8]) -> bool {
        self.ready
            .as_ref()
            .is_some_and(|ready| ready.files.is_dir(dir))
    }

    /// The tree's shape changed: filtered calls list their files again.
    fn reshaped(&mut self) {
        self.listed.clear();
    }
}

impl Live {
    pub fn start(settings: &Settings, stop: &Stop, empty: &Path) -> Result<Self, String> {
        let watcher = Watcher::new().map_err(|e| format!("inotify is not available ({e})"))?;
        let empty = empty_dir(empty)?;
        let device = tree::file_system(&settings.workdir, u64::MAX).map_err(String::from)?;
        // The walks start at `./`, as rg's (`tree::walk`).
        let here = std::env::current_dir().and_then(std::fs::canonicalize).ok();
        if here.is_none() || here != settings.workdir.canonicalize().ok() {
            return Err("the index walks from the workdir as its current directory".to_owned());
        }
        let shared = Arc::new(LiveIndex {
            workdir: settings.workdir.clone(),
            device,
            rg: settings.rg.path().map(str::to_owned),
            watcher: Arc::new(watcher),
            explain: settings.explain,
            stop: stop.for_call(),
            state: Mutex::new(LiveState {
                ready: None,
                why_not: Why::NotReady,
                work: Work::default(),
                queued: 0,
                done: 0,
                walking: false,
                written_meanwhile: Vec::new(),
                whole_took: Duration::ZERO,
                whole_since: None,
                looking: HashMap::new(),
                rebuild: true,
                building: None,
                epoch: 0,
                sources: Arc::new(Sources::default()),
                listed: HashMap::new(),
            }),
            changed: Condvar::new(),
            checked: AtomicBool::new(false),
            gone: AtomicBool::new(false),
            paused: AtomicBool::new(false),
        });
        for (name, task) in [
            ("index-build", LiveIndex::build_loop as fn(&LiveIndex)),
            ("index-walk", LiveIndex::walk_loop),
            ("index-drain", LiveIndex::drain_loop),
        ] {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(name.into())
                .spawn(move || task(&shared))
                .map_err(|e| format!("cannot start {name} ({e})"))?;
        }
        Ok(Self { shared, empty })
    }

    /// Wait until the index is ready and has taken in every change, or
    /// has failed, at most `timeout` (the tests' and the benchmark's way
    /// to know the index answers).
    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        let mut state = self.shared.lock();
        loop {
            if state.ready.is_some() && state.done >= state.queued {
                return true;
            }
            if matches!(state.why_not, Why::Unavailable(_)) {
                return false;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self.shared.wait(state, left);
        }
    }

    /// Why the index will not answer again, once its build failed.
    pub fn unavailable(&self) -> Option<String> {
        let state = self.shared.lock();
        match (&state.ready, &state.why_not) {
            (None, Why::Unavailable(why)) => Some(why.clone()),
            _ => None,
        }
    }

    /// Files the index covers, once built.
    pub fn files(&self) -> Option<usize> {
        self.shared
            .lock()
            .ready
            .as_ref()
            .map(|ready| ready.content.files())
    }

    /// Stop the index's threads and kill its rg runs (the server is going).
    pub fn shutdown(&self) {
        self.shared.gone.store(true, Ordering::SeqCst);
        drop(self.shared.lock());
        self.shared.changed.notify_all();
        self.shared.stop.cancel();
        self.shared.stop.kill_running();
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
        })
        .filter(|query| *query != Query::All) else {
            return Plan::Scan(Why::NoLiteral);
        };
        let shared = &self.shared;
        let mut state = match shared.caught_up(budget) {
            Ok(state) => state,
            Err(why) => return Plan::Scan(why),
        };
        let Some(ready) = &state.ready else {
            return Plan::Scan(state.why_not.clone());
        };
        if let Some(error) = ready.files.error() {
            return Plan::Scan(Why::Unreadable(error.to_owned()));
        }
        let key = listing::Key::of(r);
        let plan = if key.is_default() {
            listing::candidates(
                &ready.content,
                &query,
                ready.files.iter().map(|(name, id)| (name.as_slice(), id)),
                &self.empty,
            )
        } else {
            let cached = state.listed.get(&key).map(Arc::clone);
            let names = if let Some(names) = cached {
                names
            } else {
                // rg lists the call's files with the lock let go.
                drop(state);
                let names = match listing::list_for(r, settings, budget) {
                    Ok(names) => Arc::new(names),
                    Err(why) => return Plan::Scan(why),
                };
                state = shared.lock();
                if key.cacheable(&shared.workdir, |dir| state.holds_dir(dir)) {
                    state.listed.insert(key, Arc::clone(&names));
                }
                names
            };
            let Some(ready) = &state.ready else {
                return Plan::Scan(state.why_not.clone());
            };
            listing::candidates(
                &ready.content,
                &query,
                names.iter().map(|name| {
                    let id = names::relative(name, &shared.workdir)
                        .and_then(|rel| ready.files.reading(&rel));
                    (name.as_slice(), id)
                }),
                &self.empty,
            )
        };
        if let Some(ready) = &state.ready {
            let carried = ready.files.unread() + ready.content.changed();
            let files = ready.content.files();
            let bound = REBUILD_AFTER.max(files / 1000).min(files / 4);
            if carried > bound && state.building.is_none() {
                state.rebuild = true;
                shared.changed.notify_all();
            }
        }
        plan
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl LiveIndex {
    /// The state, once every change made before the call started is taken
    /// in: the call drains the queue, reads the rules outside the tree
    /// again, and waits for the walker, for at most a quarter of what is
    /// left of `budget` and [`CATCH_UP`] (not at all for a walk of the
    /// whole tree that cannot end by then); or why the call scans.
    fn caught_up(&self, budget: Budget<'_>) -> Result<MutexGuard<'_, LiveState>, Why> {
        // Every change made before the call started is in the queue now.
        let sources = {
            let mut state = self.lock();
            self.drain(&mut state);
            if state.ready.is_none() {
                return Err(state.why_not.clone());
            }
            Arc::clone(&state.sources)
        };
        let moved = sources.changed();
        let mut state = self.lock();
        if moved {
            state.work.whole = true;
            state.queued += 1;
        }
        let need = state.queued;
        let wait = (budget.remaining() / CATCH_UP_SHARE).min(CATCH_UP);
        let until = Instant::now() + wait;
        let whole_ends = match state.whole_since {
            Some(since) => Some(since + state.whole_took),
            None => state.work.whole.then(|| Instant::now() + state.whole_took),
        };
        if state.done < need && whole_ends.is_some_and(|ends| ends > until) {
            return Err(Why::CatchingUp);
        }
        while state.ready.is_some() && state.done < need {
            self.changed.notify_all();
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || budget.check().is_err() {
                return Err(Why::CatchingUp);
            }
            state = self.wait(state, left);
        }
        Ok(state)
    }

    fn gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(
        &self,
        state: MutexGuard<'a, LiveState>,
        timeout: Duration,
    ) -> MutexGuard<'a, LiveState> {
        let waited = self.changed.wait_timeout(state, timeout);
        waited.unwrap_or_else(PoisonError::into_inner).0
    }

    /// Read the watcher's queue and take in what it says.
    fn drain(&self, state: &mut MutexGuard<'_, LiveState>) {
        if self.paused.load(Ordering::SeqCst) {
            return;
        }
        let queued = state.queued;
        self.watcher.drain(&mut |event| state.take(&event));
        if state.queued != queued {
            self.changed.notify_all();
        }
    }

    fn drain_loop(&self) {
        loop {
            self.watcher.wait(DRAIN_TICK);
            if self.gone() {
                return;
            }
            self.drain(&mut self.lock());
        }
    }

    /// Take in the work queued, part by part, as it comes.
    fn walk_loop(&self) {
        loop {
            let (work, epoch, target) = {
                let mut state = self.lock();
                while !self.gone() && (state.ready.is_none() || state.work.is_empty()) {
                    state = self.wait(state, DRAIN_TICK);
                }
                if self.gone() {
                    return;
                }
                state.walking = true;
                state.written_meanwhile.clear();
                (std::mem::take(&mut state.work), state.epoch, state.queued)
            };
            trace(|| format!("take in {work:?}"));
            let outcome = self.take_in(&work, epoch);
            let mut state = self.lock();
            state.walking = false;
            match outcome {
                Ok(true) if state.epoch == epoch => state.done = state.done.max(target),
                Ok(_) => {}
                Err(why) => {
                    state.ready = None;
                    state.why_not = Why::Unavailable(why);
                }
            }
            self.changed.notify_all();
        }
    }

    /// Walk again what `work` names and take each walk in, while the index
    /// of `epoch` is the one installed: `Ok(false)` once it is not.
    fn take_in(&self, work: &Work, epoch: u64) -> Result<bool, String> {
        let mut whole: Vec<Name> = Vec::new();
        if work.whole || work.vanished {
            return self.take_in_whole(epoch, work.lost || work.vanished);
        }
        for dir in &work.rules {
            if Work::covered(&whole, dir) || !self.lock().holds_dir(dir) {
                continue;
            }
            match self.walk_part(dir, Depth::Whole, epoch, &BTreeSet::new())? {
                Intake::Taken(_) => whole.push(dir.clone()),
                Intake::Gone => {}
                Intake::Void => return Ok(false),
                Intake::NewRepository => return self.take_in_whole(epoch, false),
            }
        }
        for (dir, replaced) in &work.entries {
            if Work::covered(&whole, dir) || !self.lock().holds_dir(dir) {
                continue;
            }
            let next = match self.walk_part(dir, Depth::Entries, epoch, replaced)? {
                Intake::Taken(next) => next,
                Intake::Gone => continue,
                Intake::Void => return Ok(false),
                Intake::NewRepository => return self.take_in_whole(epoch, false),
            };
            for child in next {
                match self.walk_part(&child, Depth::Whole, epoch, &BTreeSet::new())? {
                    Intake::Taken(_) => whole.push(child),
                    Intake::Gone => {}
                    Intake::Void => return Ok(false),
                    Intake::NewRepository => return self.take_in_whole(epoch, false),
                }
            }
        }
        self.look_at_unknown(work, epoch)
    }

    /// A file changed that the tree did not hold: a second name of a file
    /// read makes its readings stale; a name gone before it was looked at
    /// (but moved within the tree, an atomic save) walks everything.
    fn look_at_unknown(&self, work: &Work, epoch: u64) -> Result<bool, String> {
        use std::os::unix::fs::MetadataExt;
        self.lock().looking = work
            .unknown
            .iter()
            .map(|name| (name.clone(), Fate::Unknown))
            .collect();
        for name in &work.unknown {
            let held = self.lock().ready.as_ref().map(|r| r.files.contains(name));
            if held != Some(false) {
                continue;
            }
            if let Ok(meta) = std::fs::symlink_metadata(names::join(&self.workdir, name)) {
                if meta.is_file() && meta.nlink() > 1 {
                    let mut state = self.lock();
                    if state.epoch != epoch {
                        return Ok(false);
                    }
                    if let Some(ready) = &mut state.ready {
                        ready.content.stale_inode(meta.ino());
                    }
                }
                continue;
            }
            // Gone since: the events of what took it away are in the
            // queue by now.
            let mut state = self.lock();
            self.drain(&mut state);
            if state.looking.get(name) != Some(&Fate::Moved) {
                state.looking.clear();
                drop(state);
                return self.take_in_whole(epoch, true);
            }
        }
        self.lock().looking.clear();
        Ok(true)
    }

    /// Walk the whole tree again, and the rules outside it (`lost`: with
    /// events lost, or a change that none reported).
    fn take_in_whole(&self, epoch: u64, lost: bool) -> Result<bool, String> {
        let started = Instant::now();
        self.lock().whole_since = Some(started);
        let taken = self.walk_whole(epoch, lost);
        let mut state = self.lock();
        state.whole_since = None;
        state.whole_took = started.elapsed();
        taken
    }

    fn walk_whole(&self, epoch: u64, lost: bool) -> Result<bool, String> {
        let mut repos: Vec<Name> = self
            .lock()
            .ready
            .as_ref()
            .map(|ready| ready.files.repos().cloned().collect())
            .unwrap_or_default();
        for _ in 0..SETTLE {
            let (walked, sources, known) = self.walk_with_rules(&mut repos)?;
            let mut state = self.lock();
            if state.epoch != epoch {
                return Ok(false);
            }
            if known {
                state.sources = Arc::new(sources);
                drop(state);
                return Ok(self
                    .apply(b"", Depth::Whole, walked, epoch, &BTreeSet::new(), lost)
                    .is_some());
            }
        }
        Err(UNSETTLED.to_owned())
    }

    /// Walk the whole tree, and read the rules outside it for `repos`
    /// (which become the walk's): whether the walk found no repository
    /// the rules were not read for.
    fn walk_with_rules(&self, repos: &mut Vec<Name>) -> Result<(Walked, Sources, bool), String> {
        let sources = Sources::read(&self.workdir, repos.iter());
        let walked = tree::walk(&self.workdir, b"", Depth::Whole, &self.watcher, self.device)?
            .ok_or("the workdir is gone")?;
        let known = walked.repos.iter().all(|r| repos.contains(r));
        repos.clone_from(&walked.repos);
        Ok((walked, sources, known))
    }

    /// Walk the part `dir` (a directory of the tree) to `depth`, and take
    /// it in.
    fn walk_part(
        &self,
        dir: &[u8],
        depth: Depth,
        epoch: u64,
        replaced: &BTreeSet<Name>,
    ) -> Result<Intake, String> {
        let Some(walked) = tree::walk(&self.workdir, dir, depth, &self.watcher, self.device)?
        else {
            trace(|| format!("walk {:?} {depth:?}: gone", String::from_utf8_lossy(dir)));
            return Ok(Intake::Gone);
        };
        trace(|| {
            format!(
                "walk {:?} {depth:?}: {} files, dirs {:?}",
                String::from_utf8_lossy(dir),
                walked.files.len(),
                walked
                    .dirs
                    .iter()
                    .map(|d| String::from_utf8_lossy(d).into_owned())
                    .collect::<Vec<_>>()
            )
        });
        let known = {
            let state = self.lock();
            let Some(ready) = &state.ready else {
                return Ok(Intake::Void);
            };
            let repos: Vec<&Name> = ready.files.repos().collect();
            walked.repos.iter().all(|r| repos.contains(&r))
        };
        if !known {
            return Ok(Intake::NewRepository);
        }
        Ok(self
            .apply(dir, depth, walked, epoch, replaced, false)
            .map_or(Intake::Void, Intake::Taken))
    }

    /// Take the walk of `dir` in, unless another index was installed
    /// since it was walked: the directories to walk whole next.
    fn apply(
        &self,
        dir: &[u8],
        depth: Depth,
        walked: Walked,
        epoch: u64,
        replaced: &BTreeSet<Name>,
        lost: bool,
    ) -> Option<Vec<Name>> {
        let mut state = self.lock();
        if state.epoch != epoch {
            return None;
        }
        let written = std::mem::take(&mut state.written_meanwhile);
        let ready = state.ready.as_mut()?;
        let mut gone = Vec::new();
        let next = ready.files.apply(
            dir,
            depth,
            walked,
            &mut ready.content,
            replaced,
            lost,
            &mut gone,
        );
        // A write reported while the part was walked may have come after
        // the walk looked at its file.
        for name in &written {
            ready.files.written(name, &mut ready.content);
        }
        for dir in &gone {
            self.watcher.unwatch_under(dir, false, |_| false);
        }
        if depth == Depth::Whole {
            let files = &ready.files;
            self.watcher
                .unwatch_under(dir, true, |name| files.is_dir(name));
        }
        state.reshaped();
        Some(next)
    }

    fn build_loop(&self) {
        // The lowest priority: a build must not slow the calls it serves
        // (on Linux this is the calling thread's).
        let _ = rustix::process::setpriority_process(None, 19);
        loop {
            {
                let mut state = self.lock();
                while !state.rebuild && !self.gone() {
                    state = self.wait(state, DRAIN_TICK);
                }
                if self.gone() {
                    return;
                }
                state.rebuild = false;
                state.building = Some(Log::default());
            }
            let built = self.build_once();
            test_pause(self);
            let mut state = self.lock();
            let log = state.building.take().unwrap_or_default();
            match built {
                Ok((ready, sources, walk_took)) => {
                    state.whole_took = walk_took;
                    Self::install(&mut state, ready, sources, log);
                }
                Err(why) => {
                    state.ready = None;
                    state.why_not = Why::Unavailable(why);
                    self.changed.notify_all();
                    return;
                }
            }
            self.changed.notify_all();
        }
    }

    /// Make `ready` the index, with what changed since its walk started.
    fn install(state: &mut LiveState, ready: Ready, sources: Sources, log: Log) {
        state.ready = Some(ready);
        state.why_not = Why::NotReady;
        state.epoch += 1;
        state.sources = Arc::new(sources);
        state.reshaped();
        // Work queued before the build walked is covered by its walk.
        state.work = Work::default();
        for event in log.events {
            state.take(&event);
        }
        if state.work.is_empty() {
            state.done = state.queued;
        } else {
            state.queued += 1;
            state.done = 0;
        }
    }

    fn build_once(&self) -> Result<(Ready, Sources, Duration), String> {
        let started = Instant::now();
        let mut repos: Vec<Name> = Vec::new();
        let mut settled = None;
        for _ in 0..SETTLE {
            let (walked, sources, known) = self.walk_with_rules(&mut repos)?;
            if known {
                settled = Some((walked, sources));
                break;
            }
        }
        let (walked, sources) = settled.ok_or(UNSETTLED)?;
        let walk_took = started.elapsed();
        if !self.checked.load(Ordering::SeqCst) {
            listing::check(&walked, self.rg.as_deref(), &self.workdir, &self.stop)?;
            self.checked.store(true, Ordering::SeqCst);
        }
        let dirs: std::collections::HashSet<&Name> = walked.dirs.iter().collect();
        self.watcher
            .unwatch_under(b"", true, |name| dirs.contains(&name.to_vec()));
        let checked_at = started.elapsed();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let names: Vec<Name> = walked.files.iter().map(|f| f.name.clone()).collect();
        let built = tree::build(&self.workdir, &names, threads);
        drop(names);
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
        let content = Content::new(built);
        let files = Files::built(walked);
        Ok((Ready { content, files }, sources, walk_took))
    }
}

/// What became of a part walked.
enum Intake {
    /// Taken in: the directories to walk whole next.
    Taken(Vec<Name>),
    /// No longer a directory: its parent's listing says what it is.
    Gone,
    /// Another index was installed since the work was taken.
    Void,
    /// It holds a repository the rules outside the tree were not read for.
    NewRepository,
}

/// Test seam, debug builds only (the tests'): with
/// `DSH_SEARCH_TEST_INDEX_PAUSE` set to a path, a build that has read the
/// tree stops before it is installed, draining nothing meanwhile: it makes
/// `PATH.paused`, says so on stderr, and goes on once `PATH.resume` exists
/// (a minute at most), so a test can change the tree and overflow the
/// kernel's queue while the build's reading goes stale.
fn test_pause(shared: &LiveIndex) {
    #[cfg(debug_assertions)]
    if let Some(path) = std::env::var_os("DSH_SEARCH_TEST_INDEX_PAUSE").map(PathBuf::from) {
        shared.paused.store(true, Ordering::SeqCst);
        let _ = std::fs::write(path.with_extension("paused"), "");
        crate::diag::note("dsh-search: test hook: index build paused");
        let until = Instant::now() + Duration::from_secs(60);
        while !path.with_extension("resume").exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        shared.paused.store(false, Ordering::SeqCst);
    }
    #[cfg(not(debug_assertions))]
    let _ = shared;
}

/// Test seam, debug builds only: with `DSH_SEARCH_TEST_INDEX_TRACE` set,
/// the walker says on stderr what it takes in and what each walk found.
fn trace(line: impl FnOnce() -> String) {
    #[cfg(debug_assertions)]
    if std::env::var_os("DSH_SEARCH_TEST_INDEX_TRACE").is_some() {
        crate::diag::note(&format!("index trace: {}", line()));
    }
    #[cfg(not(debug_assertions))]
    let _ = line;
}

/// `path` as a directory that holds nothing, made if missing. It is never
/// removed: one per user, it outlives a server killed by a signal without
/// leaving one behind per server.
fn empty_dir(path: &Path) -> Result<PathBuf, String> {
    match std::fs::create_dir(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot make {} ({e})", path.display())),
    }
    let holds = std::fs::read_dir(path)
        .map_err(|e| format!("cannot read {} ({e})", path.display()))?
        .next()
        .is_some();
    if holds || !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(format!("{} is not an empty directory", path.display()));
    }
    Ok(path.to_path_buf())
}
