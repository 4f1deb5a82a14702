//! Test harness: a temp tree that looks like a git repo, a command builder
//! that runs the binary under test (the one cargo built, or
//! `DSH_SEARCH_TEST_BIN`) with a clean environment, and fake rgs for fault
//! injection: the fake-rg program (`tests/fake-rg`, every OS), which
//! follows a plan, and on Unix shell scripts for what only a shell shows
//! (process groups, sessions, signals).

#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::ops::Deref;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use filetime::FileTime;
use tempfile::TempDir;

/// The install advice dsh-search gives on this OS (its package managers).
pub const INSTALL_WAYS: &str = if cfg!(windows) {
    "winget install BurntSushi.ripgrep.MSVC, scoop install ripgrep, or cargo install ripgrep"
} else {
    "apt-get install ripgrep, brew install ripgrep, or cargo install ripgrep"
};

/// How `--explain` says a stopped run's processes died on this OS.
pub const KILLED: &str = if cfg!(windows) {
    "rg's job object was terminated"
} else {
    "the process group was killed"
};

/// The probes' least time, raised from 250 ms on every run, so that a
/// hint a test expects never depends on the machine's load (a test of the
/// floor itself removes it).
const PROBE_FLOOR: (&str, &str) = ("DSH_SEARCH_TEST_PROBE_FLOOR_MS", "30000");
/// How long a test's MCP server waits for its index before it serves:
/// a test tree's index is built in milliseconds; with a fake rg that
/// sleeps, the index's own check of the walk waits on it, and the server
/// serves (scanning) after this.
pub const INDEX_WAIT: (&str, &str) = ("DSH_SEARCH_TEST_INDEX_WAIT_MS", "3000");

/// Every test process is killed after this long; no test waits on luck.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest a condition a test waits for (a marker, an exit, a process
/// gone) may take.
pub const WAIT_LIMIT: Duration = Duration::from_secs(20);

/// The real rg the tests use: `DSH_SEARCH_TEST_RG` when set, else `rg` on
/// PATH. Resolved once; its version is printed into the test log.
pub fn real_rg() -> &'static str {
    static RG: OnceLock<String> = OnceLock::new();
    RG.get_or_init(|| {
        let rg = std::env::var("DSH_SEARCH_TEST_RG").unwrap_or_else(|_| "rg".to_owned());
        let out = std::process::Command::new(&rg)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("the tests need ripgrep: `{rg} --version` failed: {e}"));
        let version = String::from_utf8_lossy(&out.stdout);
        eprintln!("tests use {rg}: {}", version.lines().next().unwrap_or("?"));
        rg
    })
}

/// The dsh-search binary under test: `DSH_SEARCH_TEST_BIN` when set (an
/// absolute path to a prebuilt binary, such as the static musl build),
/// else [`cargo_binary`]. Every test that starts dsh-search starts this
/// one, except those that need the test hooks only a debug build has.
pub fn binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| match std::env::var_os("DSH_SEARCH_TEST_BIN") {
        Some(bin) => {
            let bin = PathBuf::from(bin);
            assert!(
                bin.is_absolute() && bin.is_file(),
                "DSH_SEARCH_TEST_BIN must be the absolute path of a dsh-search binary, not {}",
                bin.display()
            );
            eprintln!("tests run {}", bin.display());
            alone(bin)
        }
        None => cargo_binary().to_path_buf(),
    })
}

/// The dsh-search cargo built for this test run: a debug build, with the
/// test hooks, unless the run is `cargo test --release`. Found beside the
/// test binary at run time, so the suite built for Windows finds it under
/// wine too.
pub fn cargo_binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| alone(assert_cmd::cargo::cargo_bin("dsh-search")))
}

/// `bin`, once checked to have no `rg` beside it: the default `rg` is
/// looked up there before PATH, which would change which rg the tests run.
fn alone(bin: PathBuf) -> PathBuf {
    let real = fs::canonicalize(&bin).unwrap_or_else(|_| bin.clone());
    if let Some(dir) = real.parent() {
        assert!(
            !dir.join("rg").exists() && !dir.join("rg.exe").exists(),
            "{} has an rg beside it, which dsh-search would run instead of the tests' rg; test a copy of the binary elsewhere",
            real.display()
        );
    }
    bin
}

/// The absolute path dsh-search resolves the pinned rg to (SPEC §2): the
/// value itself when it holds a `/` (or, on Windows, a `\\`), else the
/// first absolute PATH directory that has it.
pub fn real_rg_path() -> String {
    let rg = real_rg();
    if rg.contains('/') || (cfg!(windows) && rg.contains('\\')) {
        return std::path::absolute(rg)
            .unwrap()
            .to_string_lossy()
            .into_owned();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(format!("{rg}{}", std::env::consts::EXE_SUFFIX)))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{rg} is not on PATH"))
        .to_string_lossy()
        .into_owned()
}

/// The fake-rg program (`tests/fake-rg`): `DSH_SEARCH_TEST_FAKE_RG` when
/// set (the Windows suite under wine cannot run cargo, so
/// `scripts/test-windows` builds it first), else built here once, with the
/// cargo that runs the tests, into this test target's own directory.
pub fn fake_rg_program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        if let Some(given) = std::env::var_os("DSH_SEARCH_TEST_FAKE_RG") {
            return PathBuf::from(given);
        }
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-rg/Cargo.toml");
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-rg");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = std::process::Command::new(&cargo)
            .args(["build", "--release", "--quiet", "--locked", "--offline"])
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target)
            .env_remove("CARGO_BUILD_TARGET")
            .status()
            .unwrap_or_else(|e| panic!("cannot run {cargo:?} to build tests/fake-rg: {e}"));
        assert!(status.success(), "building tests/fake-rg failed: {status}");
        target.join(format!("release/fake-rg{}", std::env::consts::EXE_SUFFIX))
    })
}

/// A temp directory with a `.git` dir, so ignore rules apply as in a repo.
pub struct TestDir {
    dir: TempDir,
    /// A HOME with nothing in it, so no global git excludes leak in.
    home: TempDir,
}

impl TestDir {
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("dsh-test")
            .tempdir()
            .unwrap();
        fs::create_dir(dir.path().join(".git")).unwrap();
        Self {
            dir,
            home: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The HOME (and `XDG_CONFIG_HOME`) the binary runs with.
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Write `contents` at `rel`, creating parent directories.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&path, contents).unwrap();
        path
    }

    pub fn mkdir(&self, rel: &str) -> PathBuf {
        let path = self.path().join(rel);
        fs::create_dir_all(&path).unwrap();
        path
    }

    /// Set the modification time of `rel` to `secs` after the epoch.
    pub fn mtime(&self, rel: &str, secs: i64) {
        let t = FileTime::from_unix_time(secs, 0);
        filetime::set_file_mtime(self.path().join(rel), t).unwrap();
    }

    /// A fake rg at `rel` (plus `.exe` on Windows) that follows `plan`
    /// (see `tests/fake-rg/src/main.rs`), and its absolute path: the
    /// fake-rg program copied there, its plan beside it.
    pub fn fake_rg_plan(&self, rel: &str, plan: &str) -> PathBuf {
        let path = self
            .path()
            .join(format!("{rel}{}", std::env::consts::EXE_SUFFIX));
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::copy(fake_rg_program(), &path).unwrap();
        let mut plan_path = path.clone().into_os_string();
        plan_path.push(".plan");
        fs::write(plan_path, plan).unwrap();
        path
    }

    /// Write an executable shell script at `rel` (a fake rg) and return its
    /// absolute path.
    #[cfg(unix)]
    pub fn fake_rg(&self, rel: &str, body: &str) -> PathBuf {
        let path = self.write(rel, format!("#!/bin/sh\n{body}\n"));
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The binary, run in this directory, with a clean environment and the
    /// pinned real rg; every run is killed after [`TEST_TIMEOUT`].
    pub fn cmd(&self) -> Cmd {
        self.wrap(self.cmd_std(), None, None)
    }

    /// [`TestDir::cmd`] of the binary `bin` instead of [`binary`].
    pub fn cmd_of(&self, bin: &Path) -> Cmd {
        self.wrap(self.cmd_std_of(bin), None, None)
    }

    /// [`TestDir::cmd`], run as the user and group `uid`/`gid` (the test
    /// must be root to ask for that), from a copy of the binary that user
    /// may run (the binary under test may sit where only root may look,
    /// such as root's home).
    #[cfg(unix)]
    pub fn cmd_as(&self, uid: u32, gid: u32) -> Cmd {
        use std::os::unix::process::CommandExt;
        let copy = tempfile::Builder::new()
            .prefix("dsh-bin")
            .tempdir()
            .unwrap();
        fs::set_permissions(copy.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let bin = copy.path().join("dsh-search");
        fs::copy(binary(), &bin).unwrap();
        fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
        let mut std = self.cmd_std_of(&bin);
        std.uid(uid).gid(gid);
        self.wrap(std, Some(uid), Some(copy))
    }

    fn wrap(&self, std: std::process::Command, uid: Option<u32>, copy: Option<TempDir>) -> Cmd {
        let mut inner = assert_cmd::Command::from_std(std);
        inner.timeout(TEST_TIMEOUT);
        Cmd {
            inner,
            words: Vec::new(),
            envs: Vec::new(),
            cwd: self.path().to_path_buf(),
            uid,
            stdin: None,
            copy,
        }
    }

    /// The same as a `std::process::Command`, for tests that spawn the
    /// binary and signal it or talk to it over pipes: `DSH_SEARCH_*`,
    /// `RIPGREP_CONFIG_PATH` removed, HOME and `XDG_CONFIG_HOME` empty.
    pub fn cmd_std(&self) -> std::process::Command {
        self.cmd_std_of(binary())
    }

    /// [`TestDir::cmd_std`] of the binary `bin` instead of [`binary`].
    pub fn cmd_std_of(&self, bin: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(bin);
        cmd.current_dir(self.path());
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy().into_owned();
            if key.starts_with("DSH_SEARCH_") {
                cmd.env_remove(&key);
            }
        }
        cmd.env_remove("RIPGREP_CONFIG_PATH")
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path())
            // Index servers (SPEC §11) of this test's own: their sockets
            // under its HOME, none started by a slow scan unless a test
            // asks, and none outliving its tree for long.
            .env("XDG_RUNTIME_DIR", self.home.path().join("run"))
            .env("DSH_SEARCH_SERVE_AFTER_MS", "0")
            .env("DSH_SEARCH_SERVE_IDLE_MS", "120000")
            .env("DSH_SEARCH_RG", real_rg())
            .env(PROBE_FLOOR.0, PROBE_FLOOR.1);
        // The MCP server's index (SPEC §11): on, and waited for, so that
        // every server test runs with calls the index answers; or off,
        // when the suite runs with DSH_SEARCH_TEST_INDEX_MODE=off (CI runs
        // the MCP tests both ways).
        match std::env::var("DSH_SEARCH_TEST_INDEX_MODE").as_deref() {
            Ok("off") => cmd.env("DSH_SEARCH_INDEX", "off"),
            _ => cmd
                .env("DSH_SEARCH_INDEX", "auto")
                .env(INDEX_WAIT.0, INDEX_WAIT.1),
        };
        cmd
    }

    /// Run the binary with `args` and return its output.
    pub fn run(&self, args: &[&str]) -> Ran {
        self.cmd().args(args).output().unwrap()
    }

    /// `path` made absolute as dsh-search run here makes a path given on
    /// its command line (relative to this directory; on Windows, onto its
    /// drive: `/x` is `C:\x`).
    pub fn absolute(&self, path: &str) -> String {
        std::path::absolute(self.path().join(path))
            .unwrap()
            .display()
            .to_string()
    }

    /// The workdir's path as a string, for replacing in expected output.
    pub fn root(&self) -> String {
        self.path().to_string_lossy().into_owned()
    }
}

/// A run of the binary being built: what the test asked for (arguments,
/// variables, directory), so a failure can say what ran.
pub struct Cmd {
    inner: assert_cmd::Command,
    words: Vec<OsString>,
    envs: Vec<(OsString, Option<OsString>)>,
    cwd: PathBuf,
    /// The user it runs as, when not the test's own.
    uid: Option<u32>,
    /// What it is given on stdin, if anything.
    stdin: Option<String>,
    /// The directory of the copy of the binary it runs, if it runs one
    /// (see [`TestDir::cmd_as`]); removed with the command.
    copy: Option<TempDir>,
}

impl Cmd {
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Self {
        self.words.push(arg.as_ref().to_owned());
        self.inner.arg(arg);
        self
    }

    pub fn args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for arg in args {
            self.arg(arg);
        }
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Self {
        let (key, value) = (key.as_ref(), value.as_ref());
        self.envs.push((key.to_owned(), Some(value.to_owned())));
        self.inner.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Self {
        self.envs.push((key.as_ref().to_owned(), None));
        self.inner.env_remove(key);
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.cwd = self.cwd.join(dir.as_ref());
        self.inner.current_dir(dir);
        self
    }

    /// Kill the run after `limit` instead of [`TEST_TIMEOUT`], so a test
    /// of something that once hung fails soon if it hangs again.
    pub fn timeout(&mut self, limit: Duration) -> &mut Self {
        self.inner.timeout(limit);
        self
    }

    pub fn write_stdin(&mut self, input: impl Into<Vec<u8>>) -> &mut Self {
        let input = input.into();
        self.stdin = Some(String::from_utf8_lossy(&input).into_owned());
        self.inner.write_stdin(input);
        self
    }

    /// Run it to the end (or [`TEST_TIMEOUT`]).
    pub fn output(&mut self) -> std::io::Result<Ran> {
        let mut tries = 0;
        let output = loop {
            match self.inner.output() {
                // A copy of the binary just written (`cmd_as`) is busy
                // while a child another test forked meanwhile still holds
                // it open for writing, until that child execs: a moment.
                Err(e) if text_busy(&e) && tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                other => break other?,
            }
        };
        let envs = self
            .envs
            .iter()
            .map(|(k, v)| match v {
                Some(v) => format!("{}={}", k.to_string_lossy(), v.to_string_lossy()),
                None => format!("-u {}", k.to_string_lossy()),
            })
            .collect::<Vec<_>>();
        let mut command = command_line(&self.words);
        if let Some(stdin) = &self.stdin {
            let _ = write!(command, " <<< {}", quoted(stdin));
        }
        Ok(Ran {
            output,
            command,
            envs: envs.join(" "),
            cwd: self.cwd.clone(),
            uid: self.uid,
        })
    }
}

/// Whether `e` is ETXTBSY: the program to run is open for writing.
#[cfg(unix)]
fn text_busy(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::TXTBSY.raw_os_error())
}

#[cfg(not(unix))]
fn text_busy(_: &std::io::Error) -> bool {
    false
}

/// `dsh-search` and `words`, shell-quoted (see [`quoted`]).
fn command_line<S: AsRef<OsStr>>(words: &[S]) -> String {
    let mut command = "dsh-search".to_owned();
    for word in words {
        let _ = write!(command, " {}", quoted(&word.as_ref().to_string_lossy()));
    }
    command
}

/// `word` shell-quoted for a failure message; past its first 200
/// characters, only its length (some tests pass or feed megabytes).
fn quoted(word: &str) -> String {
    let shown: String = word.chars().take(200).collect();
    let quoted = shlex::try_quote(&shown)
        .map_or_else(|_| format!("{shown:?}"), std::borrow::Cow::into_owned);
    if shown.len() < word.len() {
        format!("{quoted}…({} bytes)", word.len())
    } else {
        quoted
    }
}

/// What ran, for a failure message: the command, its directory, the user
/// it ran as when not the test's, and the variables the test gave it.
fn what_ran(command: &str, cwd: &Path, uid: Option<u32>, envs: &str) -> String {
    let envs = if envs.is_empty() {
        String::new()
    } else {
        format!(" (env: {envs})")
    };
    let user = uid.map_or(String::new(), |uid| format!(" as uid {uid}"));
    format!("`{command}` in {}{user}{envs}", cwd.display())
}

/// [`Ran::describe`] for a `std::process::Command` from
/// [`TestDir::cmd_std`]: the variables shown are those set beyond the
/// harness's clean environment.
pub fn describe_command(cmd: &std::process::Command) -> String {
    let words: Vec<&OsStr> = cmd.get_args().collect();
    let envs: Vec<String> = cmd
        .get_envs()
        .filter_map(|(k, v)| Some((k.to_string_lossy(), v?.to_string_lossy())))
        .filter(|(k, v)| {
            let harness = matches!(k.as_ref(), "HOME" | "XDG_CONFIG_HOME")
                || (k == "DSH_SEARCH_RG" && v == real_rg())
                || (k == PROBE_FLOOR.0 && v == PROBE_FLOOR.1)
                || (k == INDEX_WAIT.0 && v == INDEX_WAIT.1)
                || k == "DSH_SEARCH_INDEX";
            !harness
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    what_ran(
        &command_line(&words),
        cmd.get_current_dir().unwrap_or(Path::new(".")),
        None,
        &envs.join(" "),
    )
}

/// What ran and all it printed, for a failure message: `what` (see
/// [`Ran::describe`]), how it ended, its stdout and its stderr.
pub fn transcript(what: &str, out: &Output) -> String {
    format!(
        "{what}\n{}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// What a [`Cmd`] printed, and what it was.
pub struct Ran {
    pub output: Output,
    /// The command line, shell-quoted, and what it was given on stdin.
    pub command: String,
    /// The variables the test set or removed (the rest is the harness's
    /// clean environment).
    pub envs: String,
    pub cwd: PathBuf,
    pub uid: Option<u32>,
}

/// `{ran:?}` is its [`Ran::transcript`], the message of a failed
/// assertion on a run.
impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.transcript())
    }
}

impl Deref for Ran {
    type Target = Output;

    fn deref(&self) -> &Output {
        &self.output
    }
}

impl Ran {
    /// What ran, for a failure message: the command, its directory and the
    /// variables the test gave it.
    pub fn describe(&self) -> String {
        what_ran(&self.command, &self.cwd, self.uid, &self.envs)
    }

    /// What ran and all it printed (see [`transcript`]).
    pub fn transcript(&self) -> String {
        transcript(&self.describe(), &self.output)
    }
}

/// Assert exit code and stdout byte for byte; on a mismatch, say what ran
/// and where, show the lines that differ (as fd's test environment does),
/// then both in full, and stderr.
#[track_caller]
pub fn assert_out(ran: &Ran, code: i32, stdout: &str) {
    let got = String::from_utf8_lossy(&ran.stdout);
    if (ran.status.code(), got.as_ref()) == (Some(code), stdout) {
        return;
    }
    panic!(
        "{} did not produce the expected output\nexit {:?} (want {code})\n{}\n--- want\n{stdout}\n--- got\n{got}\n--- stderr\n{}",
        ran.describe(),
        ran.status.code(),
        line_diff(stdout, &got),
        String::from_utf8_lossy(&ran.stderr)
    );
}

/// Assert exit code and the JSON value stdout holds; on a mismatch, say
/// what ran, show the lines that differ (pretty-printed), then both, and
/// stderr.
#[track_caller]
pub fn assert_json(ran: &Ran, code: i32, want: &serde_json::Value) {
    let got = stdout_json(ran);
    if ran.status.code() == Some(code) && got == *want {
        return;
    }
    let (want, got) = (format!("{want:#}"), format!("{got:#}"));
    panic!(
        "{} did not produce the expected JSON\nexit {:?} (want {code})\n{}\n--- want\n{want}\n--- got\n{got}\n--- stderr\n{}",
        ran.describe(),
        ran.status.code(),
        line_diff(&want, &got),
        String::from_utf8_lossy(&ran.stderr)
    );
}

/// Assert the exit code alone; on a mismatch, say what ran and all it
/// printed.
#[track_caller]
pub fn assert_exit(ran: &Ran, code: i32) {
    assert!(
        ran.status.code() == Some(code),
        "want exit {code}: {}",
        ran.transcript()
    );
}

/// Assert that `got` exited as `want` did and printed the same stdout,
/// byte for byte; on a mismatch, show the lines that differ, then both
/// runs in full.
#[track_caller]
pub fn assert_same_output(got: &Ran, want: &Ran) {
    if (got.status.code(), &got.stdout) == (want.status.code(), &want.stdout) {
        return;
    }
    panic!(
        "{} differs from {}\n{}\n=== got\n{}\n=== want\n{}",
        got.describe(),
        want.describe(),
        line_diff(&stdout(want), &stdout(got)),
        got.transcript(),
        want.transcript()
    );
}

/// Run `tool argv`, and `call tool JSON` with `json`, both after the
/// global options `global`: assert they exit alike with the same stdout
/// bytes (see [`assert_same_output`]), and return the argv run.
#[track_caller]
pub fn argv_and_call(
    t: &TestDir,
    global: &[&str],
    tool: &str,
    argv: &[&str],
    json: &serde_json::Value,
) -> Ran {
    let direct = t.cmd().args(global).arg(tool).args(argv).output().unwrap();
    let called = t
        .cmd()
        .args(global)
        .args(["call", tool])
        .arg(json.to_string())
        .output()
        .unwrap();
    assert_same_output(&called, &direct);
    direct
}

/// The lines where `want` and `got` differ, `-` for want and `+` for got,
/// with their line numbers.
pub fn line_diff(want: &str, got: &str) -> String {
    let (want, got): (Vec<&str>, Vec<&str>) =
        (want.split('\n').collect(), got.split('\n').collect());
    let mut out = String::new();
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i), got.get(i));
        if w != g {
            if let Some(w) = w {
                let _ = writeln!(out, "{:>4} - {w:?}", i + 1);
            }
            if let Some(g) = g {
                let _ = writeln!(out, "{:>4} + {g:?}", i + 1);
            }
        }
    }
    out
}

/// stdout as a string.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// stdout parsed as JSON; when it is not, the test fails saying what ran
/// and all it printed.
#[track_caller]
pub fn stdout_json(ran: &Ran) -> serde_json::Value {
    serde_json::from_slice(&ran.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {ran:?}"))
}

/// The one file `ran` saved in the spill directory `dir`, as `read_dir`
/// names it; when there is not exactly one, the test fails saying what
/// ran.
#[track_caller]
pub fn spill_file(dir: &Path, ran: &Ran) -> PathBuf {
    let files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}): {ran:?}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert!(
        files.len() == 1,
        "not one file in {}: {files:?}: {ran:?}",
        dir.display()
    );
    files[0].clone()
}

/// Whether the tests run as root, whom file permissions do not stop.
#[cfg(unix)]
pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Poll `done` every 10 ms until it holds; fail the test, saying `what`
/// did not happen, after [`WAIT_LIMIT`].
#[track_caller]
pub fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT_LIMIT;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "{what}: not within {WAIT_LIMIT:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether process `pid` still runs. Linux: `/proc/<pid>` is there and is
/// no zombie (an exited process nobody reaped runs nothing). Windows: a
/// handle to it can be opened and is not yet signalled.
#[cfg(unix)]
pub fn running(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[cfg(windows)]
#[allow(unsafe_code)]
pub fn running(pid: u32) -> bool {
    use windows_sys::Win32::Foundation::{CloseHandle, WAIT_TIMEOUT};
    use windows_sys::Win32::System::Threading::{
        OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_SYNCHRONIZE, WaitForSingleObject,
    };
    // SAFETY: plain Win32 calls on a handle this function opens and closes.
    unsafe {
        let handle = OpenProcess(
            PROCESS_SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION,
            0,
            pid,
        );
        if handle.is_null() {
            return false;
        }
        let alive = WaitForSingleObject(handle, 0) == WAIT_TIMEOUT;
        CloseHandle(handle);
        alive
    }
}

/// Kill process `pid` (a stray a test started), if it still runs.
#[cfg(unix)]
pub fn kill_process(pid: u32) {
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status();
}

#[cfg(windows)]
#[allow(unsafe_code)]
pub fn kill_process(pid: u32) {
    use windows_sys::Win32::Foundation::CloseHandle;
    use windows_sys::Win32::System::Threading::{OpenProcess, PROCESS_TERMINATE, TerminateProcess};
    // SAFETY: plain Win32 calls on a handle this function opens and closes.
    unsafe {
        let handle = OpenProcess(PROCESS_TERMINATE, 0, pid);
        if !handle.is_null() {
            TerminateProcess(handle, 1);
            CloseHandle(handle);
        }
    }
}

/// `path` made canonical, in the form dsh-search shows a locator in: on
/// Windows without the verbatim `\\?\` prefix `canonicalize` gives.
pub fn canonical(path: &Path) -> PathBuf {
    let canonical = path.canonicalize().unwrap();
    #[cfg(windows)]
    if let Some(plain) = canonical
        .to_str()
        .and_then(|c| c.strip_prefix(r"\\?\"))
        .filter(|rest| rest.as_bytes().get(1) == Some(&b':'))
    {
        return PathBuf::from(plain);
    }
    canonical
}

/// A path as dsh-search shows one rg printed: with `/` between components
/// (on Windows rg prints `\`; SPEC §10).
pub fn shown(path: &str) -> String {
    if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_owned()
    }
}

/// A fixed base time for mtimes: 2020-01-01T00:00:00Z.
pub const T0: i64 = 1_577_836_800;
