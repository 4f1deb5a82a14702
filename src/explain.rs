//! `--explain`: a short account of one run for the person debugging it,
//! written to stderr (never stdout, so the model-facing bytes stay the
//! same with and without it).

use std::fmt::Write as _;
use std::path::Path;

use crate::error::{Error, Reason};
use crate::index::Account;
use crate::locate::{DEFAULT_RG, Rg, RgSource};
use crate::render::text::{self, count, thousands};
use crate::response::Body;
use crate::search::report::{Items, Report, Spill};
use crate::search::{Ending, RgExit, RgRun, SHOWN_AS};
use crate::settings::Settings;
use crate::stop::{self, Halt};
use crate::tool::Tool;

/// The facts of one call, as `call::respond` saw them.
pub struct Facts<'a> {
    pub tool: Tool,
    pub settings: &'a Settings,
    pub script: &'a str,
    pub rg_version: Option<&'a str>,
    pub rg_run: Option<&'a RgRun>,
    /// What the index did (a server's grep only).
    pub index: Option<&'a Account>,
    pub body: &'a Body,
}

/// The account, one `label: value` per line.
pub fn render(f: &Facts<'_>) -> String {
    let s = f.settings;
    let mut out = format!("dsh-search --explain: {}\n", f.tool);
    let mut line = |label: &str, value: &str| {
        let _ = writeln!(out, "  {label:<9} {value}");
    };
    line(SHOWN_AS, f.script);
    line("workdir:", &s.workdir.display().to_string());
    line("rg:", &rg(&s.rg, f.rg_version));
    if let Some(account) = f.index {
        line("index:", &index(account));
    }
    match f.rg_run {
        None => line("run:", "rg was not started"),
        Some(raw) => {
            line("ended:", &ended(raw, s));
            let stdout = format!(
                "{} bytes raw (cap {})",
                raw.stdout_bytes, s.limits.raw_output_max_bytes
            );
            line("stdout:", &stdout);
            let stderr = if raw.stderr.is_empty() {
                "(empty)".to_owned()
            } else {
                // rg's words, which may quote a hostile file name: its
                // line breaks stay, other control characters are escaped.
                crate::escape::escape_lines(&raw.stderr).replace('\n', "\n            ")
            };
            line("stderr:", &stderr);
            let elapsed = format!("{:.1} ms", raw.elapsed.as_secs_f64() * 1000.0);
            line("elapsed:", &elapsed);
        }
    }
    match f.body {
        Body::Results(report) => {
            let (option, cap) = match report.items {
                Items::Glob(_) => ("--glob-max-results", s.limits.glob_max_results),
                _ => ("--grep-max-matches", s.limits.grep_max_matches),
            };
            line("results:", &counts(report, &format!("{option} {cap}"), s));
            line("spill:", &spill(&report.spill, s.spill_dir.as_deref()));
            let limit = if report.paged {
                let (first, last) = report.entry_numbers();
                format!(
                    "the page asked for shows entries {first} to {last} of {} ({option} {cap})",
                    report.total
                )
            } else if report.truncated() {
                format!("{option} ({cap}) capped the page")
            } else {
                "none".to_owned()
            };
            line("limit:", &limit);
        }
        Body::Failed { error, .. } => {
            let reason = match error {
                Error::Search(e) => Some(e.reason()),
                Error::Usage(_) | Error::Argument(_) => None,
            };
            let limit = match reason {
                Some(Reason::RawOutputOverflow { cap, .. }) => {
                    format!("--raw-output-max-bytes ({cap}) stopped the run")
                }
                Some(Reason::TimedOut { ms, .. }) => format!("--timeout-ms ({ms}) stopped the run"),
                Some(Reason::Interrupted { signal }) => format!("{signal} stopped the run"),
                Some(Reason::Cancelled) => "the client's cancellation stopped the run".to_owned(),
                _ => "none".to_owned(),
            };
            line("limit:", &limit);
            line("error:", error.code().as_str());
        }
    }
    line("exit:", &f.body.exit().code().to_string());
    out
}

/// What the index did: `answered, 12 of 198,138 files are candidates (3
/// dirty)` or `scanned (no required literal)` (SPEC §11).
fn index(account: &Account) -> String {
    match account {
        Account::Answered {
            candidates,
            files,
            dirty,
            server,
        } => format!(
            "answered{}, {} of {} files are candidates ({} dirty)",
            server.map_or_else(String::new, |pid| format!(" by server pid {pid}")),
            thousands(*candidates),
            thousands(*files),
            thousands(*dirty)
        ),
        Account::Scanned(why) => format!("scanned ({why})"),
    }
}

/// Which rg ran, its version, and how it was found: `rg → /venv/bin/rg
/// (ripgrep 14.1.0), beside dsh-search`.
fn rg(rg: &Rg, version: Option<&str>) -> String {
    let how = match rg.source {
        RgSource::BesideExe => "beside dsh-search",
        RgSource::Path => "from PATH",
        RgSource::Given => "from --rg/DSH_SEARCH_RG",
    };
    match &rg.resolved {
        Ok(path) => {
            let named = if path.as_os_str() == rg.given.as_str() {
                path.display().to_string()
            } else {
                format!("{} → {}", rg.given, path.display())
            };
            format!("{named} ({}), {how}", version.unwrap_or("version unknown"))
        }
        Err(_) if rg.given == DEFAULT_RG => {
            format!("{} (not found beside dsh-search or on PATH)", rg.given)
        }
        Err(_) => format!("{} (not found), {how}", rg.given),
    }
}

/// How a stopped run's processes died: the process group on Unix, the Job
/// Object on Windows (SPEC §10).
const KILLED: &str = if cfg!(windows) {
    "rg's job object was terminated"
} else {
    "the process group was killed"
};

fn ended(run: &RgRun, s: &Settings) -> String {
    match run.ending {
        Ending::Exited(RgExit::Status(code)) => format!("rg exited with status {code}"),
        Ending::Exited(RgExit::Signal(sig)) => format!("rg was killed by signal {sig}"),
        Ending::Overflow => format!(
            "stopped: raw output passed {} bytes; {KILLED}",
            s.limits.raw_output_max_bytes
        ),
        Ending::Halted(Halt::TimedOut) => format!("stopped: {} ms passed; {KILLED}", s.timeout_ms),
        Ending::Halted(Halt::Cancelled) => {
            format!("stopped: the client cancelled; {KILLED}")
        }
        Ending::Halted(Halt::Signal(sig)) => format!(
            "stopped: dsh-search got {}; {KILLED}",
            stop::signal_name(sig)
        ),
    }
}

/// What the search found and its page shows; `cap` names the page's cap
/// (`--grep-max-matches 500`).
fn counts(r: &Report, cap: &str, s: &Settings) -> String {
    let shown = format!("{} shown ({cap})", r.shown);
    match &r.items {
        Items::Glob(_) | Items::Files(_) => {
            let (one, many) = text::entry_nouns(&r.items);
            format!("{} seen, {shown}", count(r.total, one, many))
        }
        Items::Counts(files) => format!(
            "{} in {} seen, {shown}",
            count(text::total_count(files), "match", "matches"),
            count(r.total, "file", "files"),
        ),
        Items::Lines(_) => {
            let cut = r
                .line_page()
                .iter()
                .flat_map(|(_, lines)| lines.iter())
                .filter(|(_, line)| line.truncated)
                .count();
            let binary = match r.binary_files.len() {
                0 => String::new(),
                n => format!(
                    "; {} matched, lines not shown",
                    count(n, "binary file", "binary files")
                ),
            };
            format!(
                "{} in {} seen, {shown}; {} cut at {} bytes{binary}",
                count(r.total, "match", "matches"),
                count(r.total_files(), "file", "files"),
                count(cut, "shown preview", "shown previews"),
                s.limits.grep_max_line_bytes
            )
        }
    }
}

fn spill(spill: &Spill, dir: Option<&Path>) -> String {
    match spill {
        Spill::NotNeeded => "not needed (the result fit inline)".to_owned(),
        Spill::Saved {
            locator,
            reused: false,
            ..
        } => format!("saved to {}", locator.display()),
        Spill::Saved {
            locator,
            reused: true,
            ..
        } => format!("reused the identical {}", locator.display()),
        Spill::NotSaved { reason } => match dir {
            Some(dir) => format!("not saved in {}: {reason}", dir.display()),
            None => format!("not saved: {reason}"),
        },
    }
}

#[cfg(test)]
#[path = "../tests/unit/explain.rs"]
mod tests;
