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

use std::env;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::corpus::{self, MEDIUM, RARE};
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

/// Run the case once as `dsh-search --explain --cwd DIR ARGS` (stdout to
/// /dev/null) and read its account from stderr.
fn explain(bin: &Path, case: &Case) -> Result<Explained> {
    let invocation = Invocation::explain(bin, case);
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
    let explained = explain(bin, &case)?;
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

    /// `dsh-search --explain --cwd DIR ARGS`.
    fn explain(bin: &'a Path, case: &'a Case) -> Self {
        Self::dsh_with(bin, &["--explain"], case)
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
                let hwm = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
                peak = peak.max(hwm.unwrap_or(0));
            }
            thread::sleep(Duration::from_micros(200));
        }
        Ok(peak)
    }
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

/// `bench run`: time every case on the corpus in `dir` and print the table.
pub fn run(
    dir: &Path,
    runs: usize,
    bin: Option<PathBuf>,
    only: &[String],
    out: Option<&Path>,
) -> Result<()> {
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
    let dir =
        fs::canonicalize(dir).map_err(|e| format!("corpus directory {}: {e}", dir.display()))?;
    let scratch = env::temp_dir().join(format!("dsh-bench-{}", std::process::id()));
    fs::create_dir_all(&scratch)?;
    let tiny = scratch.join("tiny");
    fs::create_dir_all(&tiny)?;
    fs::write(tiny.join("hello.txt"), "hello world\n")?;
    let result = run_cases(&dir, &tiny, &scratch, runs, &bin, only, out);
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
    out: Option<&Path>,
) -> Result<()> {
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
    if let Some(out) = out {
        fs::write(out, &table)?;
    }
    eprintln!("bench: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// What the RSS columns mean, and every command, for the README.
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
