//! The timing harness: the cases, the commands they run, timing, peak RSS,
//! and the Markdown table with its footnotes.
//!
//! `bench run DIR` first runs each case once as `dsh-search --explain --cwd DIR
//! ARGS` and takes from its account the exact `sh -c` script dsh-search runs
//! and the raw-output cap; the raw rg command a case is compared with is
//! derived from that script ([`Derive`]), so nothing of dsh-search's command
//! line is rebuilt here. Then it times, per case, dsh-search (`--cwd DIR`) and
//! the raw command (run under `sh -c` with DIR as current dir): one warm-up
//! round, then `--runs` rounds in which the commands alternate (case A dsh,
//! case A raw, case B dsh, …), stdout to /dev/null, wall time from spawn to
//! exit. Glob cases compare with rg's own sorted listing (`rg --files
//! --sort=modified …`) and also show the unsorted listing dsh-search runs.
//! Peak RSS comes from one extra untimed run of each command under
//! `/usr/bin/time -f %M`; dsh-search's own high-water mark is also sampled
//! from `/proc/PID/status`, because the kernel folds the peak of every reaped
//! descendant (sh, rg) into `%M`. Every dsh-search run of a case must exit
//! with the code its `--explain` run reported (5, the raw-output overflow,
//! for the `the` case on a full-size corpus); the raw commands may exit 0 or
//! 1, as rg does. The result is a Markdown table, printed and written to
//! `--out`.
//!
//! `bench index DIR` times grep answered by the tree's index server
//! (`dsh-search serve`, SPEC §11), asked by an MCP session and by the CLI
//! (a process per call, its start included). It starts one `dsh-search
//! --cwd DIR --explain mcp` with `DSH_SEARCH_TEST_INDEX_WAIT_MS` set: the
//! session starts the tree's server and serves only once its index is
//! built; the time from spawn to the `initialize` reply is the build's.
//! Each case's raw command is derived as above, from the account of a
//! one-off `dsh-search --explain --index off` run of the same grep. The
//! rounds alternate a `tools/call` to the session (timed from writing the
//! request to reading its reply), the CLI run and the raw command; the
//! `index:` lines of the session's and the CLI's accounts (answered by the
//! server with N of M files as candidates, or scanned and why) go into the
//! table. Then a second MCP session on the same tree: the RSS of both
//! sessions and of the one server show that they share one index.
//! Every dsh-search the bench runs has the bench's own private directory
//! as `XDG_RUNTIME_DIR` and `DSH_SEARCH_SERVE_AFTER_MS=0`: no server of
//! the user's answers it, and `bench run` measures scans only. The
//! session's stderr is read on a thread of its own, so it never waits on
//! the bench.
//! Linux only, as the index is (and `/proc`).

use std::env;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::corpus::{self, CONFIG, MEDIUM, NOT_UTF8, RARE};
use crate::{Result, mib};

/// Exit codes that count as success for the raw commands: 0 (matches or
/// paths found) and 1 (none), which `sh -c` passes on from the rg it
/// `exec`s (`head` exits 0 for the overflow pipeline). That is rg's own
/// documented contract, not a copy of dsh-search's exit table: the exit
/// dsh-search must have comes from its `--explain` account, per case.
const RAW_OK: [i32; 2] = [0, 1];

/// How a case's raw command is derived from the script dsh-search runs
/// (the `sh -c:` line of its `--explain` account). Nothing of dsh-search's
/// command line is rebuilt here, so the bench measures exactly what runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Derive {
    /// The script without ` --binary`: raw `rg --json` as rg runs by
    /// default, which skips binary files (dsh-search adds `--binary` to
    /// report the matches in them).
    Grep,
    /// [`Derive::Grep`], then ` | head -c CAP` with CAP the raw-output cap
    /// `--explain` reports: the time rg needs to print as much as dsh-search
    /// reads before it stops with the overflow.
    Overflow,
    /// rg's own sorted listing: the script with ` --null` replaced by
    /// ` --sort=modified`, and without the ` -- 'dir'` walk root dsh-search
    /// adds by itself for a pattern with a literal directory prefix (the
    /// glob cases give no PATH, so a walk root is always dsh-search's own).
    /// The unsorted column runs the script itself.
    Glob,
}

struct Case {
    name: String,
    /// Arguments after `dsh-search --cwd DIR`.
    dsh: Vec<String>,
    derive: Derive,
    cwd: PathBuf,
}

fn glob_case(dir: &Path, pattern: &str) -> Case {
    Case {
        name: format!("glob `{pattern}`"),
        dsh: vec!["glob".into(), pattern.into()],
        derive: Derive::Glob,
        cwd: dir.to_owned(),
    }
}

fn grep_case(dir: &Path, pattern: &str, path: Option<&str>, include: Option<&str>) -> Case {
    let mut dsh = vec!["grep".to_owned(), pattern.to_owned()];
    let mut name = format!("grep `{pattern}`");
    if let Some(include) = include {
        let _ = write!(name, " --include `{include}`");
    }
    if let Some(path) = path {
        dsh.push(path.to_owned());
        let _ = write!(name, " in `{path}`");
    }
    if let Some(include) = include {
        dsh.extend(["--include".to_owned(), include.to_owned()]);
    }
    Case {
        name,
        dsh,
        derive: Derive::Grep,
        cwd: dir.to_owned(),
    }
}

/// `case` with grep's optional arguments `extra` (SPEC §3a) after it.
fn with(mut case: Case, extra: &[&str]) -> Case {
    case.dsh.extend(extra.iter().map(|a| (*a).to_owned()));
    let _ = write!(case.name, " {}", extra.join(" "));
    case
}

fn cases(dir: &Path, tiny: &Path) -> Vec<Case> {
    let mut overflow = grep_case(dir, "the", None, None);
    "grep `the` (overflow)".clone_into(&mut overflow.name);
    overflow.derive = Derive::Overflow;
    let mut startup = grep_case(tiny, "hello", None, None);
    "startup (grep, one-file dir)".clone_into(&mut startup.name);
    vec![
        startup,
        glob_case(dir, "**/*.rs"),
        glob_case(dir, "*.md"),
        glob_case(dir, "*.nosuchext"),
        glob_case(dir, "**/*"),
        glob_case(dir, "src/mod_001/**/*.rs"),
        grep_case(dir, RARE, None, None),
        grep_case(dir, MEDIUM, None, Some("*.ts")),
        with(
            grep_case(dir, MEDIUM, None, Some("*.ts")),
            &["--output", "files"],
        ),
        with(
            grep_case(dir, MEDIUM, None, Some("*.ts")),
            &["--output", "count"],
        ),
        with(
            grep_case(dir, MEDIUM, None, Some("*.ts")),
            &["--context", "3"],
        ),
        with(grep_case(dir, "the", None, None), &["--output", "files"]),
        overflow,
        grep_case(dir, r"fn\s+\w+_handler\(", None, None),
        grep_case(dir, "ERROR 4[0-9]{2}", Some("logs/huge.log"), None),
        grep_case(dir, "zzzNoSuchThingzzz", None, None),
        with(
            grep_case(dir, RARE, None, None),
            &["--exclude", "**/tests/**"],
        ),
        with(grep_case(dir, RARE, None, None), &["--follow"]),
        with(
            grep_case(dir, MEDIUM, None, Some("*.ts")),
            &["--exclude", "**/tests/**"],
        ),
        with(glob_case(dir, "**/*.rs"), &["--exclude", "**/tests/**"]),
        with(glob_case(dir, "**/*.rs"), &["--follow"]),
    ]
}

/// What `dsh-search --explain` reported for one case.
struct Explained {
    /// The `sh -c:` line: the exact script dsh-search runs.
    script: String,
    /// The raw-output cap, from the `stdout:` line (`N bytes raw (cap C)`).
    cap: u64,
    /// The `exit:` line: the exit every timed run of the case must have.
    exit: i32,
    /// The `limit:` line: which limit, if any, shaped the result.
    limit: Option<String>,
}

/// A case with the commands it is timed with.
struct Prepared {
    case: Case,
    explained: Explained,
    /// The raw command, run as `sh -c` in the case's cwd.
    raw: String,
    /// For globs: the unsorted listing, the script dsh-search itself runs.
    unsorted: Option<String>,
}

/// Run the case once as `dsh-search GLOBAL --cwd DIR ARGS` (stdout to
/// /dev/null), GLOBAL holding `--explain`, and read its account from stderr.
fn explain(bin: &Path, case: &Case, global: &[&str]) -> Result<Explained> {
    let invocation = Invocation::dsh_with(bin, global, case);
    let output = invocation.command(&[]).output()?;
    let account = String::from_utf8(output.stderr)
        .map_err(|e| format!("`{}`: the account is not UTF-8: {e}", invocation.describe()))?;
    let field = |label: &str| {
        account_field(&account, label).ok_or_else(|| {
            format!(
                "`{}` (exit {}): no `{label}:` line in its --explain account:\n{account}",
                invocation.describe(),
                output.status
            )
        })
    };
    let script = field("sh -c")?.to_owned();
    let stdout = field("stdout")?;
    let cap = stdout
        .rsplit_once("(cap ")
        .and_then(|(_, cap)| cap.strip_suffix(')')?.parse().ok())
        .ok_or_else(|| format!("no `(cap C)` in the --explain line `stdout: {stdout}`"))?;
    let exit = field("exit")?;
    let exit = exit
        .parse()
        .map_err(|e| format!("the --explain line `exit: {exit}`: {e}"))?;
    if output.status.code() != Some(exit) {
        return Err(format!(
            "`{}` exited with {}, but its account says exit {exit}",
            invocation.describe(),
            output.status
        )
        .into());
    }
    let limit = account_field(&account, "limit").map(str::to_owned);
    Ok(Explained {
        script,
        cap,
        exit,
        limit,
    })
}

/// The value of the `  label:    value` line of an `--explain` account.
/// Labels start two spaces in; the lines that continue rg's stderr are
/// indented further and never match.
fn account_field<'a>(account: &'a str, label: &str) -> Option<&'a str> {
    account.lines().find_map(|line| {
        let value = line
            .strip_prefix("  ")?
            .strip_prefix(label)?
            .strip_prefix(':')?;
        Some(value.strip_prefix(' ')?.trim_start_matches(' '))
    })
}

/// `script` with its one word `word` (written with its leading space, so it
/// starts a word; a space or the end must follow) replaced by `with`. An
/// error unless the word occurs exactly once: a bench that silently
/// measured some other command would be worse than none.
fn replace_word(script: &str, word: &str, with: &str) -> Result<String> {
    let at: Vec<usize> = script
        .match_indices(word)
        .map(|(i, _)| i)
        .filter(|&i| matches!(script.as_bytes().get(i + word.len()), None | Some(b' ')))
        .collect();
    match at[..] {
        [i] => Ok(format!(
            "{}{with}{}",
            &script[..i],
            &script[i + word.len()..]
        )),
        _ => Err(format!(
            "expected `{}` once in the --explain script, found it {} times: {script}",
            word.trim_start(),
            at.len()
        )
        .into()),
    }
}

/// `script` without the walk root, the ` -- 'dir'` at its end, if it has
/// one: the last two shell words are `--` and the root, and what comes
/// before ` -- ` splits into all the others.
fn without_walk_root(script: &str) -> Result<&str> {
    let words = shlex::split(script)
        .ok_or_else(|| format!("cannot split the --explain script: {script}"))?;
    let Some(others) = words.len().checked_sub(2) else {
        return Ok(script);
    };
    if words[others] != "--" {
        return Ok(script);
    }
    script
        .rfind(" -- ")
        .map(|cut| &script[..cut])
        .filter(|head| shlex::split(head).as_deref() == Some(&words[..others]))
        .ok_or_else(|| {
            format!("cannot find the walk root in the --explain script: {script}").into()
        })
}

/// The case's `--explain` account and the raw commands derived from it (see
/// [`Derive`]).
fn prepare(bin: &Path, case: Case) -> Result<Prepared> {
    let explained = explain(bin, &case, &["--explain"])?;
    derive(case, explained)
}

/// The case with the raw commands derived from its account `explained`.
fn derive(case: Case, explained: Explained) -> Result<Prepared> {
    let script = &explained.script;
    let (raw, unsorted) = match case.derive {
        Derive::Grep => {
            let raw = replace_word(script, " --binary", "")?;
            (format!("{raw} >/dev/null"), None)
        }
        Derive::Overflow => {
            let raw = replace_word(script, " --binary", "")?;
            let cap = explained.cap;
            (format!("{raw} | head -c {cap} >/dev/null"), None)
        }
        Derive::Glob => {
            let sorted = replace_word(without_walk_root(script)?, " --null", " --sort=modified")?;
            (
                format!("{sorted} >/dev/null"),
                Some(format!("{script} >/dev/null")),
            )
        }
    };
    Ok(Prepared {
        case,
        explained,
        raw,
        unsorted,
    })
}

/// What one command is: a program and its arguments, run in `cwd`.
struct Invocation<'a> {
    program: &'a OsStr,
    args: Vec<OsString>,
    cwd: &'a Path,
}

impl<'a> Invocation<'a> {
    /// `dsh-search --cwd DIR ARGS`.
    fn dsh(bin: &'a Path, case: &'a Case) -> Self {
        Self::dsh_with(bin, &[], case)
    }

    fn dsh_with(bin: &'a Path, global: &[&str], case: &'a Case) -> Self {
        let mut args: Vec<OsString> = global.iter().map(OsString::from).collect();
        args.extend(["--cwd".into(), case.cwd.clone().into_os_string()]);
        args.extend(case.dsh.iter().map(OsString::from));
        Self {
            program: bin.as_os_str(),
            args,
            cwd: &case.cwd,
        }
    }

    fn sh(script: &str, cwd: &'a Path) -> Self {
        Self {
            program: OsStr::new("sh"),
            args: vec!["-c".into(), script.into()],
            cwd,
        }
    }

    /// The command with the user's rg and dsh-search configuration removed,
    /// stdin from /dev/null, stdout to /dev/null.
    fn command(&self, wrapper: &[OsString]) -> Command {
        let mut cmd = if let Some((first, rest)) = wrapper.split_first() {
            let mut cmd = Command::new(first);
            cmd.args(rest).arg(self.program);
            cmd
        } else {
            Command::new(self.program)
        };
        cmd.args(&self.args)
            .current_dir(self.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .env_remove("RIPGREP_CONFIG_PATH");
        for (key, _) in env::vars_os() {
            if key.to_string_lossy().starts_with("DSH_SEARCH_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("DSH_SEARCH_SERVE_AFTER_MS", "0");
        if let Some(runtime) = RUNTIME.get() {
            cmd.env("XDG_RUNTIME_DIR", runtime);
        }
        cmd
    }

    fn describe(&self) -> String {
        let mut words = vec![self.program.to_string_lossy().into_owned()];
        words.extend(self.args.iter().map(|a| a.to_string_lossy().into_owned()));
        words.join(" ")
    }

    /// One timed run: wall time from spawn to exit; an error unless it exits
    /// with one of the `accepted` codes.
    fn time(&self, accepted: &[i32]) -> Result<Duration> {
        let start = Instant::now();
        let output = self.command(&[]).output()?;
        let elapsed = start.elapsed();
        let code = output.status.code().unwrap_or(-1);
        if !accepted.contains(&code) {
            return Err(format!(
                "`{}` in {} exited with {} (expected {}): {}",
                self.describe(),
                self.cwd.display(),
                output.status,
                accepted
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(" or "),
                String::from_utf8_lossy(&output.stderr).trim()
            )
            .into());
        }
        Ok(elapsed)
    }

    /// Peak RSS in KiB as `/usr/bin/time -f %M` reports it.
    fn time_rss(&self, scratch: &Path) -> Result<u64> {
        let wrapper: Vec<OsString> = vec![
            "/usr/bin/time".into(),
            "-f".into(),
            "%M".into(),
            "-o".into(),
            scratch.into(),
        ];
        self.command(&wrapper)
            .output()
            .map_err(|e| format!("cannot run /usr/bin/time (GNU time): {e}"))?;
        let report = fs::read_to_string(scratch)?;
        // On a non-zero exit GNU time writes a "Command exited" line first.
        let last = report.lines().rev().find(|l| !l.trim().is_empty());
        Ok(last.ok_or("/usr/bin/time wrote nothing")?.trim().parse()?)
    }

    /// The process's own peak RSS in KiB (`VmHWM`), sampled from /proc until
    /// it exits; its children are not included.
    fn own_hwm(&self) -> Result<u64> {
        let mut child = self.command(&[]).stderr(Stdio::null()).spawn()?;
        let status = PathBuf::from(format!("/proc/{}/status", child.id()));
        let mut peak = 0;
        while child.try_wait()?.is_none() {
            if let Ok(text) = fs::read_to_string(&status) {
                peak = peak.max(status_kib(&text, "VmHWM").unwrap_or(0));
            }
            thread::sleep(Duration::from_micros(200));
        }
        Ok(peak)
    }
}

/// The value in KiB of the `field:` line (`VmHWM`, `VmRSS`) of a
/// `/proc/PID/status` text.
fn status_kib(status: &str, field: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[derive(Default)]
struct Timings {
    dsh: Vec<Duration>,
    raw: Vec<Duration>,
    unsorted: Vec<Duration>,
}

fn median_ms(samples: &mut [Duration]) -> f64 {
    samples.sort_unstable();
    let n = samples.len();
    let mid = if n % 2 == 1 {
        samples[n / 2].as_secs_f64()
    } else {
        f64::midpoint(
            samples[n / 2 - 1].as_secs_f64(),
            samples[n / 2].as_secs_f64(),
        )
    };
    mid * 1000.0
}

/// `<target dir>/release/dsh-search`, found from this example's own path
/// (`<target dir>/<profile>/examples/bench`), so `CARGO_TARGET_DIR` works.
fn default_bin() -> PathBuf {
    env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.join("release/dsh-search")))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/dsh-search"))
}

/// Warn when `bin` is older than a file under the crate's `src/`: the
/// numbers would describe old code.
fn warn_if_stale(bin: &Path) {
    let Ok(built) = fs::metadata(bin).and_then(|m| m.modified()) else {
        return;
    };
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if fs::metadata(&path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t > built)
            {
                eprintln!(
                    "bench: warning: {} is newer than {}; rebuild with `cargo build --release`",
                    path.display(),
                    bin.display()
                );
                return;
            }
        }
    }
}

fn first_line(program: impl AsRef<OsStr>, arg: &str) -> String {
    Command::new(program)
        .arg(arg)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

fn machine_line(bin: &Path, runs: usize) -> String {
    let nproc = thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let bin_version = first_line(bin, "--version");
    format!(
        "Machine: nproc {nproc}, {cpu}; {}; {bin_version}; {} UTC; \
         median of {runs} interleaved runs after 1 warm-up round.",
        first_line("rg", "--version"),
        corpus::timestamp(now).replace('T', " ")
    )
}

/// Warn when the corpus in `dir` was written by an older bench: some cases
/// would search for what it does not hold.
fn warn_if_old_corpus(dir: &Path) {
    if let Some(recorded) = corpus::recorded(dir) {
        if recorded.version != corpus::VERSION {
            eprintln!(
                "bench: warning: the corpus in {} is version {}, this bench writes version {}; \
                 write it again with `bench corpus`",
                dir.display(),
                recorded.version,
                corpus::VERSION
            );
        }
    }
}

fn corpus_line(dir: &Path) -> String {
    match corpus::recorded(dir) {
        Some(recorded) => format!(
            "Corpus: `bench corpus --scale {}` ({} files, {:.0} MiB) in {}.",
            recorded.scale,
            recorded.files,
            mib(recorded.bytes),
            dir.display()
        ),
        None => format!("Corpus: {} (not written by `bench corpus`).", dir.display()),
    }
}

/// The `XDG_RUNTIME_DIR` of every dsh-search the bench runs: its index
/// servers' sockets live there, apart from the user's.
static RUNTIME: OnceLock<PathBuf> = OnceLock::new();

/// [`RUNTIME`], made private (0700) on first use.
fn runtime_dir() -> Result<&'static Path> {
    if let Some(dir) = RUNTIME.get() {
        return Ok(dir);
    }
    let dir = env::temp_dir().join(format!("dsh-bench-run-{}", std::process::id()));
    #[cfg(unix)]
    let builder = {
        let mut builder = fs::DirBuilder::new();
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
    };
    #[cfg(not(unix))]
    let builder = fs::DirBuilder::new();
    builder
        .create(&dir)
        .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(RUNTIME.get_or_init(|| dir))
}

/// Remove [`RUNTIME`], once nothing the bench started is running.
pub fn remove_runtime_dir() {
    if let Some(dir) = RUNTIME.get() {
        let _ = fs::remove_dir_all(dir);
    }
}

/// What `bench run` and `bench index` check first: at least one run, the
/// binary (`--bin`, or the default) and the corpus directory, both made
/// absolute.
fn setup(runs: usize, bin: Option<PathBuf>, dir: &Path) -> Result<(PathBuf, PathBuf)> {
    if runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let bin = bin.unwrap_or_else(default_bin);
    if !bin.is_file() {
        return Err(format!(
            "dsh-search binary not found at {}; build it first with \
             `cargo build --release --locked`, or pass --bin PATH",
            bin.display()
        )
        .into());
    }
    let bin = fs::canonicalize(&bin)?;
    warn_if_stale(&bin);
    runtime_dir()?;
    let dir =
        fs::canonicalize(dir).map_err(|e| format!("corpus directory {}: {e}", dir.display()))?;
    warn_if_old_corpus(&dir);
    Ok((bin, dir))
}

/// `bench run`: time every case on the corpus in `dir`; print the table and
/// return it.
pub fn run(dir: &Path, runs: usize, bin: Option<PathBuf>, only: &[String]) -> Result<String> {
    let (bin, dir) = setup(runs, bin, dir)?;
    let scratch = env::temp_dir().join(format!("dsh-bench-{}", std::process::id()));
    fs::create_dir_all(&scratch)?;
    let tiny = scratch.join("tiny");
    fs::create_dir_all(&tiny)?;
    fs::write(tiny.join("hello.txt"), "hello world\n")?;
    let result = run_cases(&dir, &tiny, &scratch, runs, &bin, only);
    fs::remove_dir_all(&scratch)?;
    result
}

fn run_cases(
    dir: &Path,
    tiny: &Path,
    scratch: &Path,
    runs: usize,
    bin: &Path,
    only: &[String],
) -> Result<String> {
    let started = Instant::now();
    eprintln!("bench: --explain runs");
    let cases = cases(dir, tiny)
        .into_iter()
        .filter(|case| only.is_empty() || only.iter().any(|o| case.name.contains(o.as_str())))
        .map(|case| prepare(bin, case))
        .collect::<Result<Vec<_>>>()?;
    let mut timings: Vec<Timings> = cases.iter().map(|_| Timings::default()).collect();
    for round in 0..=runs {
        let label = if round == 0 {
            "warm-up".to_owned()
        } else {
            format!("run {round}/{runs}")
        };
        eprintln!("bench: {label}");
        for (prepared, t) in cases.iter().zip(&mut timings) {
            let (case, cwd) = (&prepared.case, &prepared.case.cwd);
            let dsh = Invocation::dsh(bin, case).time(&[prepared.explained.exit])?;
            let raw = Invocation::sh(&prepared.raw, cwd).time(&RAW_OK)?;
            let unsorted = match &prepared.unsorted {
                Some(script) => Some(Invocation::sh(script, cwd).time(&RAW_OK)?),
                None => None,
            };
            if round > 0 {
                t.dsh.push(dsh);
                t.raw.push(raw);
                t.unsorted.extend(unsorted);
            }
        }
    }

    eprintln!("bench: peak RSS runs");
    let rss_file = scratch.join("rss");
    let mut table = String::new();
    let _ = writeln!(table, "{}", machine_line(bin, runs));
    let _ = writeln!(table, "{}", corpus_line(dir));
    table.push('\n');
    table.push_str(
        "| case | dsh-search median ms | raw rg median ms | ratio | unsorted rg ms (globs) \
         | dsh-search peak RSS MiB ¹ | dsh-search own RSS MiB ² | raw peak RSS MiB ¹ \
         | dsh-search exit |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for (prepared, t) in cases.iter().zip(&mut timings) {
        let case = &prepared.case;
        let dsh = Invocation::dsh(bin, case);
        let raw = Invocation::sh(&prepared.raw, &case.cwd);
        let dsh_rss = dsh.time_rss(&rss_file)?;
        let dsh_own = dsh.own_hwm()?;
        let raw_rss = raw.time_rss(&rss_file)?;
        let (dsh_ms, raw_ms) = (median_ms(&mut t.dsh), median_ms(&mut t.raw));
        let unsorted = if t.unsorted.is_empty() {
            "–".to_owned()
        } else {
            format!("{:.1}", median_ms(&mut t.unsorted))
        };
        let _ = writeln!(
            table,
            "| {} | {dsh_ms:.1} | {raw_ms:.1} | {:.2} | {unsorted} | {:.1} | {:.1} | {:.1} | {} |",
            case.name,
            dsh_ms / raw_ms,
            mib(dsh_rss * 1024),
            mib(dsh_own * 1024),
            mib(raw_rss * 1024),
            prepared.explained.exit
        );
    }
    table.push_str(&footnotes(&cases)?);
    print!("{table}");
    eprintln!("bench: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(table)
}

/// What the RSS columns mean, and every command, for doc/PERFORMANCE.md.
fn footnotes(cases: &[Prepared]) -> Result<String> {
    // `$VCS` stands for the run of VCS excludes in dsh-search's glob script,
    // found there rather than rebuilt.
    let vcs = cases.iter().find_map(|p| vcs_excludes(&p.explained.script));
    let show = |script: &str| {
        let script = script.strip_suffix(" >/dev/null").unwrap_or(script);
        match vcs {
            Some(vcs) => script.replace(vcs, " $VCS"),
            None => script.to_owned(),
        }
    };
    let overflow = cases
        .iter()
        .find(|p| p.case.derive == Derive::Overflow)
        .map_or_else(String::new, |p| {
            let limit = p.explained.limit.as_deref().unwrap_or("none");
            format!(
                " For {}, `--explain` reported exit {} and `limit: {limit}` \
                 (a {}-byte raw-output cap).",
                p.case.name,
                p.explained.exit,
                thousands(p.explained.cap)
            )
        });
    let mut out = format!(
        "\n¹ `/usr/bin/time -f %M` of one extra untimed run: ru_maxrss of the process it \
         waits for, into which Linux folds the peak of every descendant that process reaped, \
         so it is max(dsh-search, sh, rg) for dsh-search and max(sh, rg, head) for raw: \
         a maximum, not a sum.\n\n\
         ² `VmHWM` of the dsh-search process alone (children excluded), sampled from \
         /proc/PID/status every 0.2 ms in one more untimed run.\n\n\
         Exit: every dsh-search run of a case must exit with the code its `--explain` run \
         reported; the raw commands may exit 0 or 1 (rg's own: found, found nothing).\
         {overflow}\n\n\
         Commands: `dsh-search --cwd DIR ARGS`; each raw command is derived from the script on \
         the `sh -c:` line that `dsh-search --explain --cwd DIR ARGS` prints, and runs under \
         `sh -c` with DIR as current directory and stdout to /dev/null (DIR is the corpus, \
         or for `startup` a directory holding one file). Grep cases: the script without \
         `--binary` (raw `rg --json` skips binary files, as rg does by default; dsh-search \
         adds `--binary` to report the matches in them); the overflow case then pipes into \
         `head -c CAP`, CAP being the raw-output cap `--explain` reports. Glob cases: rg's \
         own sorted listing, the script with `--null` replaced by `--sort=modified` and \
         without the `-- 'dir'` walk root dsh-search adds by itself for a pattern with a \
         literal directory prefix; the unsorted column runs the script itself."
    );
    if let Some(vcs) = vcs {
        let _ = write!(out, " `$VCS` is `{}`.", vcs.trim_start());
    }
    out.push_str("\n\n");
    for prepared in cases {
        let case = &prepared.case;
        let args = case
            .dsh
            .iter()
            .map(|a| shlex::try_quote(a))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", case.name))?;
        let _ = write!(
            out,
            "- {}: `{}` vs `{}`",
            case.name,
            args.join(" "),
            show(&prepared.raw)
        );
        if let Some(unsorted) = &prepared.unsorted {
            let _ = write!(out, "; unsorted `{}`", show(unsorted));
        }
        out.push('\n');
    }
    Ok(out)
}

/// The run of ` --glob='!**/…'` words (the VCS excludes) in `script`, from
/// the first such word to the last one that follows it without a gap.
fn vcs_excludes(script: &str) -> Option<&str> {
    const EXCLUDE: &str = " --glob='!**/";
    let start = script.find(EXCLUDE)?;
    let mut end = start;
    while script[end..].starts_with(EXCLUDE) {
        end = script[end + 1..]
            .find(' ')
            .map_or(script.len(), |space| end + 1 + space);
    }
    Some(&script[start..end])
}

/// `n` with a comma between groups of three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

// ---------------------------------------------------------------------------
// The index: grep answered by the tree's server, through MCP and the CLI
// ---------------------------------------------------------------------------

/// How long the first session may wait for its server's index before it
/// serves (`DSH_SEARCH_TEST_INDEX_WAIT_MS`); the `initialize` reply comes
/// once the index is built, or once this has passed.
const INDEX_WAIT: Duration = Duration::from_secs(600);
/// How long a call's `--explain` account may take to reach the session's
/// stderr after its reply (the session queues the account for its stderr
/// writer thread before it sends the reply).
const ACCOUNT_WAIT: Duration = Duration::from_secs(10);
/// How long a session or the server may take to exit once told to.
const EXIT_WAIT: Duration = Duration::from_secs(10);
/// The protocol revision the bench speaks (`initialize`, legacy era).
const PROTOCOL: &str = "2025-11-25";

/// A grep timed as a `tools/call` to a session, as a CLI run and as the
/// raw rg command derived from the CLI's `--explain --index off` account
/// of the same search.
struct IndexCase {
    prepared: Prepared,
    /// The `tools/call` arguments.
    arguments: Value,
}

/// The grep cases of `bench index`: each as a CLI case (for its account
/// and raw command) and as its `tools/call` arguments.
fn index_cases(dir: &Path) -> Vec<(Case, Value)> {
    let grep = |pattern: &str| {
        (
            grep_case(dir, pattern, None, None),
            json!({ "pattern": pattern }),
        )
    };
    let mut not_utf8 = grep(NOT_UTF8);
    not_utf8
        .0
        .name
        .push_str(" (in the file whose name is not UTF-8)");
    vec![
        grep(RARE),
        grep(CONFIG),
        grep(r"fn\s+\w+_handler\("),
        grep("error"),
        not_utf8,
    ]
}

/// Whether the raw-output cap stopped the run `explained` accounts for:
/// then the raw command stops where dsh-search does ([`Derive::Overflow`]).
fn overflowed(explained: &Explained) -> bool {
    explained
        .limit
        .as_deref()
        .is_some_and(|limit| limit.starts_with("--raw-output-max-bytes"))
}

/// The `index:` line of the CLI's `--explain` account of `case`.
fn cli_index_line(bin: &Path, case: &Case) -> Result<String> {
    let invocation = Invocation::dsh_with(bin, &["--explain"], case);
    let output = invocation.command(&[]).output()?;
    let account = String::from_utf8_lossy(&output.stderr);
    account_field(&account, "index")
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "`{}`: no `index:` line in its account:\n{account}",
                invocation.describe()
            )
            .into()
        })
}

/// The server's pid in an `index:` line (`answered by server pid N, …`).
fn server_pid(index: &str) -> Option<u32> {
    let rest = index.strip_prefix("answered by server pid ")?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// A `/proc/PID/status` field of process `pid`, in KiB.
fn proc_kib(pid: u32, field: &str) -> Result<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))?;
    status_kib(&status, field)
        .ok_or_else(|| format!("no `{field}:` line in /proc/{pid}/status").into())
}

/// A running `dsh-search --cwd DIR --explain mcp`, spoken to over its stdin
/// and stdout. Its stderr is read on a thread of its own, so the session
/// never waits on it, and arrives here line by line.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: Receiver<String>,
    next_id: u64,
}

impl Session {
    /// Start a session on `dir` and complete the `initialize` handshake;
    /// also returns the time from spawn to the `initialize` reply, which
    /// comes once the tree's server has built its index.
    fn start(bin: &Path, dir: &Path) -> Result<(Self, Duration)> {
        let invocation = Invocation {
            program: bin.as_os_str(),
            args: vec!["--cwd".into(), dir.into(), "--explain".into(), "mcp".into()],
            cwd: dir,
        };
        let mut command = invocation.command(&[]);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).env(
            "DSH_SEARCH_TEST_INDEX_WAIT_MS",
            INDEX_WAIT.as_millis().to_string(),
        );
        let started = Instant::now();
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", invocation.describe()))?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the session was started without its pipes".into());
        };
        let (lines, received) = mpsc::channel();
        let reader = thread::Builder::new()
            .name("session-stderr".to_owned())
            .spawn(move || {
                let mut stderr = BufReader::new(stderr);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match stderr.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&line);
                            // Once nobody listens, the session's stderr is
                            // still drained.
                            let _ = lines.send(text.trim_end_matches('\n').to_owned());
                        }
                    }
                }
            });
        let mut session = Self {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            stderr: received,
            next_id: 0,
        };
        reader?;
        let params = json!({
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "dsh-search-bench", "version": "0"},
        });
        session.request("initialize", &params)?;
        let built = started.elapsed();
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok((session, built))
    }

    fn send(&mut self, message: &Value) -> Result<()> {
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        let stdin = self.stdin.as_mut().ok_or("the session's stdin is closed")?;
        stdin.write_all(&line)?;
        stdin.flush()?;
        Ok(())
    }

    /// One request, timed from writing it to reading its reply's line; an
    /// error unless the reply is the request's and has a `result`.
    fn request(&mut self, method: &str, params: &Value) -> Result<Duration> {
        self.next_id += 1;
        let id = self.next_id;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let start = Instant::now();
        self.send(&request)?;
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line)?;
        let elapsed = start.elapsed();
        if read == 0 {
            return Err(format!(
                "{method}: the session closed its stdout ({}); its stderr:\n{}",
                self.child
                    .try_wait()?
                    .map_or_else(|| "still running".to_owned(), |s| s.to_string()),
                self.drain_stderr()
            )
            .into());
        }
        let reply: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{method}: a reply that is not JSON ({e}): {line}"))?;
        if reply.get("id") != Some(&json!(id)) {
            return Err(format!("{method}: a reply to another request: {line}").into());
        }
        if reply.get("result").is_none() {
            return Err(format!("{method}: the session answered {line}").into());
        }
        Ok(elapsed)
    }

    /// One timed grep; also returns the `index:` line of its `--explain`
    /// account, an error unless the account's exit is `exit`.
    fn grep(&mut self, arguments: &Value, exit: i32) -> Result<(Duration, String)> {
        let params = json!({"name": "grep", "arguments": arguments});
        let elapsed = self.request("tools/call", &params)?;
        let account = self.account()?;
        let got = account_field(&account, "exit");
        if got != Some(exit.to_string().as_str()) {
            return Err(format!(
                "grep {arguments}: the session's account says exit {}, the CLI's {exit}:\n{account}",
                got.unwrap_or("(none)")
            )
            .into());
        }
        let index = account_field(&account, "index").unwrap_or("(no `index:` line)");
        Ok((elapsed, index.to_owned()))
    }

    /// The `--explain` account of the call just answered: the stderr lines
    /// from its first (`dsh-search --explain: grep`) to its `exit:` line.
    fn account(&mut self) -> Result<String> {
        let mut account = String::new();
        loop {
            let line = self.stderr.recv_timeout(ACCOUNT_WAIT).map_err(|_| {
                format!(
                    "no complete --explain account on the session's stderr within {} s \
                     of its reply; so far:\n{account}",
                    ACCOUNT_WAIT.as_secs()
                )
            })?;
            if account.is_empty() && !line.starts_with("dsh-search --explain:") {
                continue;
            }
            account.push_str(&line);
            account.push('\n');
            if account_field(&line, "exit").is_some() {
                return Ok(account);
            }
        }
    }

    /// What arrived on stderr and was not read yet, for an error message.
    fn drain_stderr(&self) -> String {
        self.stderr.try_iter().collect::<Vec<_>>().join("\n")
    }

    /// End the session as a client does, by closing its stdin; an error
    /// unless it exits with 0 within [`EXIT_WAIT`].
    fn finish(mut self) -> Result<()> {
        drop(self.stdin.take());
        let until = Instant::now() + EXIT_WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait()? {
                break status;
            }
            if Instant::now() > until {
                return Err(format!(
                    "the session did not exit within {} s of the end of its input",
                    EXIT_WAIT.as_secs()
                )
                .into());
            }
            thread::sleep(Duration::from_millis(10));
        };
        if !status.success() {
            return Err(format!(
                "the session exited with {status}; its stderr:\n{}",
                self.drain_stderr()
            )
            .into());
        }
        Ok(())
    }
}

impl Drop for Session {
    /// A session left running by an error is stopped, so it does not
    /// outlive the bench.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// End the index server `pid` (SIGTERM, as `kill` sends it) and wait for
/// it to go; an error unless it does within [`EXIT_WAIT`].
fn stop_server(pid: u32) -> Result<()> {
    Command::new("kill").arg(pid.to_string()).status()?;
    let until = Instant::now() + EXIT_WAIT;
    while Path::new(&format!("/proc/{pid}")).exists() {
        if Instant::now() > until {
            return Err(format!("the index server {pid} did not exit on SIGTERM").into());
        }
        thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

/// The server's note on its index build, from its log in the bench's
/// runtime directory.
fn build_note() -> Option<String> {
    let dir = RUNTIME.get()?.join("dsh-search");
    fs::read_dir(dir).ok()?.flatten().find_map(|entry| {
        let log = fs::read_to_string(entry.path()).ok()?;
        log.lines()
            .find(|l| l.contains(" index of "))
            .map(|l| l.trim().to_owned())
    })
}

/// One case's timings, and every different `index:` line of the
/// session's and the CLI's accounts.
#[derive(Default)]
struct IndexTimings {
    mcp: Vec<Duration>,
    cli: Vec<Duration>,
    raw: Vec<Duration>,
    seen: Vec<String>,
}

/// A second MCP session on the tree of `first`, answered by the same
/// `server`: the RSS (KiB) of both sessions and of the server, once both
/// have called; both sessions are ended.
fn two_sessions(
    bin: &Path,
    dir: &Path,
    first: Session,
    server: u32,
    cases: &[IndexCase],
) -> Result<[u64; 3]> {
    eprintln!("bench: a second MCP session on the same tree");
    let (mut second, _) = Session::start(bin, dir)?;
    let rare = cases.first().ok_or("no case")?;
    let (_, index) = second.grep(&rare.arguments, rare.prepared.explained.exit)?;
    if server_pid(&index) != Some(server) {
        return Err(
            format!("the second session was not answered by server {server}: {index}").into(),
        );
    }
    let rss = [first.child.id(), second.child.id(), server].map(|pid| proc_kib(pid, "VmRSS"));
    first.finish()?;
    second.finish()?;
    let [a, b, c] = rss;
    Ok([a?, b?, c?])
}

/// `bench index`: time grep answered by the tree's index server, through
/// an MCP session and the CLI, against raw rg, on the corpus in `dir`;
/// print the table and return it.
pub fn index(dir: &Path, runs: usize, bin: Option<PathBuf>) -> Result<String> {
    let (bin, dir) = setup(runs, bin, dir)?;
    let started = Instant::now();
    eprintln!("bench: --explain --index off runs");
    let cases = index_cases(&dir)
        .into_iter()
        .map(|(mut case, arguments)| {
            let explained = explain(&bin, &case, &["--explain", "--index", "off"])?;
            if overflowed(&explained) {
                case.derive = Derive::Overflow;
            }
            let prepared = derive(case, explained)?;
            Ok(IndexCase {
                prepared,
                arguments,
            })
        })
        .collect::<Result<Vec<_>>>()?;

    eprintln!("bench: an MCP session; it serves once its tree's server has built the index");
    let (mut session, built) = Session::start(&bin, &dir)?;
    eprintln!("bench: index built in {:.2} s", built.as_secs_f64());
    let mut server = None;
    let mut timings: Vec<IndexTimings> = cases.iter().map(|_| IndexTimings::default()).collect();
    for round in 0..=runs {
        let label = if round == 0 {
            "warm-up".to_owned()
        } else {
            format!("run {round}/{runs}")
        };
        eprintln!("bench: {label}");
        for (case, t) in cases.iter().zip(&mut timings) {
            let prepared = &case.prepared;
            let exit = prepared.explained.exit;
            let (mcp, index) = session.grep(&case.arguments, exit)?;
            server = server.or_else(|| server_pid(&index));
            let cli = Invocation::dsh(&bin, &prepared.case).time(&[exit])?;
            let raw = Invocation::sh(&prepared.raw, &prepared.case.cwd).time(&RAW_OK)?;
            if round == 0 {
                let cli_index = format!("CLI {}", cli_index_line(&bin, &prepared.case)?);
                for seen in [format!("MCP {index}"), cli_index] {
                    if !t.seen.contains(&seen) {
                        t.seen.push(seen);
                    }
                }
            } else {
                t.mcp.push(mcp);
                t.cli.push(cli);
                t.raw.push(raw);
            }
        }
    }
    let server = server.ok_or("no call was answered by the index server")?;
    let (server_rss, server_peak) = (proc_kib(server, "VmRSS")?, proc_kib(server, "VmHWM")?);
    let [first_rss, second_rss, shared_rss] = two_sessions(&bin, &dir, session, server, &cases)?;
    let note = build_note();
    stop_server(server)?;

    let mut table = String::new();
    let _ = writeln!(table, "{}", machine_line(&bin, runs));
    let _ = writeln!(table, "{}", corpus_line(&dir));
    let _ = write!(
        table,
        "Index server (`dsh-search serve`, started by the first MCP session, which \
         serves once the index is built): built in {:.2} s (from the session's spawn \
         to its `initialize` reply); RSS {:.1} MiB after the timed rounds, peak RSS \
         (`VmHWM`) {:.1} MiB. With two MCP sessions on the tree: the sessions' RSS \
         {:.1} MiB and {:.1} MiB, the one server's {:.1} MiB.",
        built.as_secs_f64(),
        mib(server_rss * 1024),
        mib(server_peak * 1024),
        mib(first_rss * 1024),
        mib(second_rss * 1024),
        mib(shared_rss * 1024),
    );
    if let Some(note) = note {
        let _ = write!(table, " Its log: `{note}`.");
    }
    table.push_str(
        "\n\n| case | MCP median ms | CLI median ms | raw rg median ms | MCP ratio | CLI ratio | index |\n\
         |---|--:|--:|--:|--:|--:|---|\n",
    );
    for (case, t) in cases.iter().zip(&mut timings) {
        let mcp_ms = median_ms(&mut t.mcp);
        let cli_ms = median_ms(&mut t.cli);
        let raw_ms = median_ms(&mut t.raw);
        let _ = writeln!(
            table,
            "| {} | {mcp_ms:.1} | {cli_ms:.1} | {raw_ms:.1} | {:.2} | {:.2} | {} |",
            case.prepared.case.name,
            mcp_ms / raw_ms,
            cli_ms / raw_ms,
            t.seen.join("; ")
        );
    }
    table.push_str(&index_footnotes(&cases));
    print!("{table}");
    eprintln!("bench: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(table)
}

/// What the columns of the index table mean, and every command.
fn index_footnotes(cases: &[IndexCase]) -> String {
    let mut out = "\nMCP: one `tools/call` of `grep` on the session's stdin, from writing \
        the request to reading its reply (newline-delimited JSON-RPC, protocol \
        2025-11-25); the session asks the tree's index server. CLI: `dsh-search --cwd \
        DIR grep PATTERN`, from spawn to exit, asking the same server. The calls run \
        one at a time, interleaved with the raw commands. Raw rg: derived, as in `bench run`, from the `sh -c:` line \
        that `dsh-search --explain --index off --cwd DIR grep PATTERN` prints: the \
        script without `--binary` (raw `rg --json`), piped into `head -c CAP` when \
        the raw-output cap stopped that run; under `sh -c` with DIR as current \
        directory and stdout to /dev/null. Index: the `index:` lines of the \
        session's and the CLI's `--explain` accounts of the call in the warm-up round \
        (every different one); each call must exit as the `--index off` run did.\n\n"
        .to_owned();
    for case in cases {
        let prepared = &case.prepared;
        let raw = prepared
            .raw
            .strip_suffix(" >/dev/null")
            .unwrap_or(&prepared.raw);
        let _ = writeln!(
            out,
            "- {}: `{}` vs `{raw}` (exit {})",
            prepared.case.name, case.arguments, prepared.explained.exit
        );
    }
    out
}
