//! The timing harness: the cases, the commands they run, timing, peak RSS,
//! and the Markdown table with its footnotes.
//!
//! `bench run DIR` times, per case, dsh-search (`-C DIR`) and the raw rg
//! command line it is compared with (run under `sh -c` with DIR as current
//! dir): one warm-up round, then `--runs` rounds in which the commands
//! alternate (case A dsh, case A raw, case B dsh, …), stdout to /dev/null,
//! wall time from spawn to exit. Glob cases compare with the seed's own
//! command (`rg --files --sort=modified …`) and also show the unsorted
//! listing dsh-search runs. Peak RSS comes from one extra untimed run of each
//! command under `/usr/bin/time -f %M`; dsh-search's own high-water mark is
//! also sampled from `/proc/PID/status`, because the kernel folds the peak of
//! every reaped descendant (sh, rg) into `%M`. Exit codes 0, 1 and 5
//! (raw-output overflow, expected for the `the` case) count as success. The
//! result is a Markdown table, printed and written to `--out`.

use std::collections::BTreeSet;
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

const VCS_DIRS: [&str; 6] = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];
const OVERFLOW_CAP: u64 = 20_000_000;
/// dsh-search exit codes that count as success: results, empty, overflow.
const DSH_OK: [i32; 3] = [0, 1, 5];
/// rg (and `sh -c`) exit codes that count as success: results, empty.
const RAW_OK: [i32; 2] = [0, 1];

/// POSIX single quoting, the same form as `src/rg/quote.rs`.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

fn vcs_excludes() -> String {
    let mut out = String::new();
    for d in VCS_DIRS {
        let (dir, inside) = (quote(&format!("!**/{d}")), quote(&format!("!**/{d}/**")));
        let _ = write!(out, " --glob={dir} --glob={inside}");
    }
    out
}

struct Case {
    name: String,
    /// Arguments after `dsh-search -C DIR`.
    dsh: Vec<String>,
    /// The raw command, run as `sh -c` in `cwd`.
    raw: String,
    /// For globs: the unsorted listing dsh-search itself runs.
    unsorted: Option<String>,
    cwd: PathBuf,
}

fn glob_case(dir: &Path, pattern: &str) -> Case {
    let excludes = vcs_excludes();
    let glob = quote(pattern);
    Case {
        name: format!("glob `{pattern}`"),
        dsh: vec!["glob".into(), pattern.into()],
        raw: format!(
            "rg --files --glob={glob} --sort=modified --no-ignore --hidden{excludes} >/dev/null"
        ),
        unsorted: Some(format!(
            "rg --no-config --files --null --glob={glob} --no-ignore --hidden{excludes} >/dev/null"
        )),
        cwd: dir.to_owned(),
    }
}

fn grep_case(dir: &Path, pattern: &str, path: Option<&str>, include: Option<&str>) -> Case {
    let mut dsh = vec!["grep".to_owned(), pattern.to_owned()];
    let mut raw = format!("rg --no-config --json --regexp={}", quote(pattern));
    let mut name = format!("grep `{pattern}`");
    if let Some(include) = include {
        let _ = write!(raw, " --glob={}", quote(include));
        let _ = write!(name, " --include `{include}`");
    }
    if let Some(path) = path {
        dsh.push(path.to_owned());
        let _ = write!(raw, " -- {}", quote(path));
        let _ = write!(name, " in `{path}`");
    }
    if let Some(include) = include {
        dsh.extend(["--include".to_owned(), include.to_owned()]);
    }
    raw.push_str(" >/dev/null");
    Case {
        name,
        dsh,
        raw,
        unsorted: None,
        cwd: dir.to_owned(),
    }
}

fn cases(dir: &Path, tiny: &Path) -> Vec<Case> {
    let mut overflow = grep_case(dir, "the", None, None);
    "grep `the` (overflow)".clone_into(&mut overflow.name);
    overflow.raw = format!(
        "rg --no-config --json --regexp={} | head -c {OVERFLOW_CAP} >/dev/null",
        quote("the")
    );
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
        overflow,
        grep_case(dir, r"fn\s+\w+_handler\(", None, None),
        grep_case(dir, "ERROR 4[0-9]{2}", Some("logs/huge.log"), None),
        grep_case(dir, "zzzNoSuchThingzzz", None, None),
    ]
}

/// What one command is: a program and its arguments, run in `cwd`.
struct Invocation<'a> {
    program: &'a OsStr,
    args: Vec<OsString>,
    cwd: &'a Path,
}

impl<'a> Invocation<'a> {
    fn dsh(bin: &'a Path, case: &'a Case) -> Self {
        let mut args: Vec<OsString> = vec!["-C".into(), case.cwd.clone().into_os_string()];
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

    /// One timed run: wall time from spawn to exit, and the exit code.
    fn time(&self, accepted: &[i32]) -> Result<(Duration, i32)> {
        let start = Instant::now();
        let output = self.command(&[]).output()?;
        let elapsed = start.elapsed();
        let code = output.status.code().unwrap_or(-1);
        if !accepted.contains(&code) {
            return Err(format!(
                "`{}` in {} exited with {}: {}",
                self.describe(),
                self.cwd.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            )
            .into());
        }
        Ok((elapsed, code))
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
    dsh_codes: BTreeSet<i32>,
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
pub fn run(dir: &Path, runs: usize, bin: Option<PathBuf>, out: Option<&Path>) -> Result<()> {
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
    let result = run_cases(&dir, &tiny, &scratch, runs, &bin, out);
    fs::remove_dir_all(&scratch)?;
    result
}

fn run_cases(
    dir: &Path,
    tiny: &Path,
    scratch: &Path,
    runs: usize,
    bin: &Path,
    out: Option<&Path>,
) -> Result<()> {
    let started = Instant::now();
    let cases = cases(dir, tiny);
    let mut timings: Vec<Timings> = cases.iter().map(|_| Timings::default()).collect();
    for round in 0..=runs {
        let label = if round == 0 {
            "warm-up".to_owned()
        } else {
            format!("run {round}/{runs}")
        };
        eprintln!("bench: {label}");
        for (case, t) in cases.iter().zip(&mut timings) {
            let (dsh, code) = Invocation::dsh(bin, case).time(&DSH_OK)?;
            let (raw, _) = Invocation::sh(&case.raw, &case.cwd).time(&RAW_OK)?;
            let unsorted = match &case.unsorted {
                Some(script) => Some(Invocation::sh(script, &case.cwd).time(&RAW_OK)?.0),
                None => None,
            };
            if round > 0 {
                t.dsh.push(dsh);
                t.raw.push(raw);
                t.unsorted.extend(unsorted);
                t.dsh_codes.insert(code);
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
    for (case, t) in cases.iter().zip(&mut timings) {
        let dsh = Invocation::dsh(bin, case);
        let raw = Invocation::sh(&case.raw, &case.cwd);
        let dsh_rss = dsh.time_rss(&rss_file)?;
        let dsh_own = dsh.own_hwm()?;
        let raw_rss = raw.time_rss(&rss_file)?;
        let (dsh_ms, raw_ms) = (median_ms(&mut t.dsh), median_ms(&mut t.raw));
        let unsorted = if t.unsorted.is_empty() {
            "–".to_owned()
        } else {
            format!("{:.1}", median_ms(&mut t.unsorted))
        };
        let codes: Vec<String> = t.dsh_codes.iter().map(i32::to_string).collect();
        let _ = writeln!(
            table,
            "| {} | {dsh_ms:.1} | {raw_ms:.1} | {:.2} | {unsorted} | {:.1} | {:.1} | {:.1} | {} |",
            case.name,
            dsh_ms / raw_ms,
            mib(dsh_rss * 1024),
            mib(dsh_own * 1024),
            mib(raw_rss * 1024),
            codes.join("/")
        );
    }
    table.push_str(&footnotes(&cases));
    print!("{table}");
    if let Some(out) = out {
        fs::write(out, &table)?;
    }
    eprintln!("bench: done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// What the RSS columns mean, and every command, for the README.
fn footnotes(cases: &[Case]) -> String {
    let excludes = vcs_excludes();
    let show = |script: &str| {
        script
            .trim_end_matches(" >/dev/null")
            .replace(&excludes, " $VCS")
    };
    let mut out = format!(
        "\n¹ `/usr/bin/time -f %M` of one extra untimed run: ru_maxrss of the process it \
         waits for, into which Linux folds the peak of every descendant that process reaped, \
         so it is max(dsh-search, sh, rg) for dsh-search and max(sh, rg, head) for raw: \
         a maximum, not a sum.\n\n\
         ² `VmHWM` of the dsh-search process alone (children excluded), sampled from \
         /proc/PID/status every 0.2 ms in one more untimed run.\n\n\
         Exit 5 is the expected raw-output overflow (20,000,000-byte cap).\n\n\
         Commands: `dsh-search -C DIR ARGS`; the raw commands run under `sh -c` with DIR as \
         current directory and stdout to /dev/null (DIR is the corpus, or for `startup` a \
         directory holding one file); `$VCS` is `{}`.\n\n",
        excludes.trim_start()
    );
    for case in cases {
        let args: Vec<String> = case.dsh.iter().map(|a| shell_word(a)).collect();
        let _ = write!(
            out,
            "- {}: `{}` vs `{}`",
            case.name,
            args.join(" "),
            show(&case.raw)
        );
        if let Some(unsorted) = &case.unsorted {
            let _ = write!(out, "; unsorted `{}`", show(unsorted));
        }
        out.push('\n');
    }
    out
}

/// `value` as one shell word, quoted only when it must be (for display).
fn shell_word(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=:,+@%".contains(&b));
    if plain {
        value.to_owned()
    } else {
        quote(value)
    }
}
