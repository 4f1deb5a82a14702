//! One tool call, whatever front-end it came from: request → search →
//! spill → [`Response`]. argv, `call` and MCP all come through
//! [`respond`], so no rule exists twice.

use crate::arguments::Arguments;
use crate::error::{Error, Reason};
use crate::explain;
use std::time::Instant;

use crate::index::{Index, Plan, Why};
use crate::render;
use crate::request::{GrepRequest, Request};
use crate::response::{Body, Response};
use crate::search::{self, SearchFailure, report::Report, report::Spill};
use crate::settings::Settings;
use crate::spill;
use crate::stop::{Budget, Stop};
use crate::tool::Tool;

/// Answer one call of `tool`. Its request is `Err` when the arguments broke
/// a rule of SPEC §3; `stop` (a signal, a cancellation) ends the search.
/// A server's grep asks its `index` (doc/SPEC.md §11); the one-shot
/// command line has none, and scans.
pub fn respond(
    tool: Tool,
    args: Arguments,
    settings: &Settings,
    stop: &Stop,
    index: Option<&Index>,
) -> Response {
    respond_planned(tool, args, settings, stop, |r, budget| {
        index.map(|index| index.plan(r, settings, budget))
    })
}

/// The tree's index server's grep (`serve`): answered from `index` only.
/// `Err`, with why, when the index would scan: the client then scans
/// itself, and the server never spends a scan's time on a call.
#[cfg_attr(not(unix), allow(dead_code, reason = "only Unix has a server"))]
pub fn respond_from_index(
    args: Arguments,
    settings: &Settings,
    stop: &Stop,
    index: &Index,
    planned: impl FnOnce(),
) -> Result<Response, Why> {
    let Ok(Request::Grep(r)) = &args.request else {
        return Err(Why::Server("not a grep".to_owned()));
    };
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    let plan = index.plan(r, settings, budget);
    if let Plan::Scan(why) = plan {
        return Err(why);
    }
    planned();
    Ok(respond_planned(Tool::Grep, args, settings, stop, |_, _| {
        Some(plan)
    }))
}

/// [`respond`], a grep searching what `plan` says.
fn respond_planned(
    tool: Tool,
    args: Arguments,
    settings: &Settings,
    stop: &Stop,
    plan: impl FnOnce(&GrepRequest, Budget<'_>) -> Option<Plan>,
) -> Response {
    let (body, explain) = match args.request {
        Ok(request) => {
            let outcome = search::search(&request, settings, stop, plan);
            // Debug builds' test hook: a defect after rg ended, on purpose.
            #[cfg(debug_assertions)]
            crate::watchdog::test_stall(&request);
            let body = body(tool, outcome.result, settings);
            let explain = settings.explain.then(|| {
                explain::render(&explain::Facts {
                    tool,
                    settings,
                    script: &outcome.script,
                    rg_version: outcome.rg_version.as_deref(),
                    rg_run: outcome.rg_run.as_ref(),
                    index: outcome.index.as_ref(),
                    body: &body,
                })
            });
            (body, explain)
        }
        Err(e) => (
            Body::Failed {
                error: Error::Argument(e),
                partial: None,
            },
            None,
        ),
    };
    Response {
        tool: Some(tool),
        body,
        ignored: args.ignored,
        explain,
    }
}

/// The body of a call whose search came to `result`, a capped result
/// saved first.
pub fn body(tool: Tool, mut result: Result<Report, SearchFailure>, settings: &Settings) -> Body {
    save_capped(tool, &mut result, settings);
    match result {
        Ok(report) => Body::Results(report),
        Err(SearchFailure { error, partial }) => Body::Failed { error, partial },
    }
}

/// SPEC §5: save the complete result of a capped search. What a timed-out
/// search found (its partial page) is saved as such (SPEC §4a): its file
/// must not read as the whole tree when it is opened later.
fn save_capped(tool: Tool, result: &mut Result<Report, SearchFailure>, settings: &Settings) {
    match result {
        Ok(report) if report.truncated() => report.spill = save(report, settings, None),
        Err(SearchFailure {
            error: Error::Search(error),
            partial: Some(report),
        }) if report.truncated() => {
            if let Reason::TimedOut { ms, .. } = error.reason() {
                let why = format!("{tool} timed out after {ms}ms");
                report.spill = save(report, settings, Some(&why));
            }
        }
        _ => {}
    }
}

/// Save the complete result of a capped search, or say why not.
/// `incomplete` says what cut the search short (`grep timed out after
/// 300ms`), for what a timed-out search found.
fn save(report: &Report, settings: &Settings, incomplete: Option<&str>) -> Spill {
    let Some(dir) = &settings.spill_dir else {
        return Spill::NotSaved {
            reason: "no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)"
                .to_owned(),
        };
    };
    if crate::stop::unwanted() {
        // Given up on (see `watchdog`): its text may be cut short, and
        // nobody will read its locator.
        return Spill::NotSaved {
            reason: "the call was given up on".to_owned(),
        };
    }
    let extent = match incomplete {
        None => spill::Extent::Complete,
        Some(_) => spill::Extent::Incomplete,
    };
    let content = render::text::complete(report, incomplete);
    match spill::save(dir, report.tool, extent, &content) {
        Ok(saved) => Spill::Saved {
            locator: saved.locator,
            hint: settings.spill_hint.clone(),
            reused: saved.reused,
        },
        Err(reason) => Spill::NotSaved { reason },
    }
}
