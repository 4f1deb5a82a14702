//! One tool call, whatever front-end it came from: request → search →
//! spill → the rendered response. argv, `call` and MCP all come through
//! [`call`], so no rule exists twice.

use serde_json::Value;

use crate::error::{ArgumentError, EXIT_EMPTY, EXIT_RESULTS, Error};
use crate::explain;
use crate::render;
use crate::request::{Request, Tool};
use crate::search::{self, report::Report, report::Spill};
use crate::settings::{Format, Settings};
use crate::spill;
use crate::stop::Stop;

/// What a call printed and how it ended.
#[derive(Debug)]
pub struct Response {
    /// The text form, without its final newline.
    pub text: String,
    /// The JSON envelope (its `text` field equals [`Response::text`]).
    pub envelope: Value,
    pub exit: u8,
    /// Whether the call failed (an argument or search error).
    pub is_error: bool,
    /// The `--explain` account, when asked for and a search ran.
    pub explain: Option<String>,
}

impl Response {
    /// What stdout gets in `format`, final newline included.
    pub fn stdout(&self, format: Format) -> String {
        match format {
            Format::Text => format!("{}\n", self.text),
            Format::Json => format!("{}\n", self.envelope),
        }
    }

    fn failure(tool: Option<Tool>, e: &Error) -> Self {
        Self {
            text: render::text::error(e),
            envelope: render::json::error(tool, e),
            exit: e.code().exit_code(),
            is_error: true,
            explain: None,
        }
    }
}

/// Run one call of `tool`. `request` is `Err` when its arguments broke a
/// rule of SPEC §3; `stop` (a signal, a cancellation) ends the search.
pub fn call(
    tool: Tool,
    request: Result<Request, ArgumentError>,
    settings: &Settings,
    stop: &Stop,
) -> Response {
    let request = match request {
        Ok(r) => r,
        Err(e) => return Response::failure(Some(tool), &Error::from(e)),
    };
    let mut outcome = search::run(&request, settings, stop);
    if let Ok(report) = &mut outcome.result {
        if report.truncated() {
            report.spill = save(report, settings);
        }
    }
    let exit = match &outcome.result {
        Ok(report) if report.is_empty() => EXIT_EMPTY,
        Ok(_) => EXIT_RESULTS,
        Err(e) => e.code().exit_code(),
    };
    let explain = settings.explain.then(|| {
        explain::render(&explain::Facts {
            tool,
            settings,
            script: &outcome.script,
            rg_version: outcome.rg_version.as_deref(),
            raw: outcome.raw.as_ref(),
            result: outcome.result.as_ref(),
            exit,
        })
    });
    let mut response = match outcome.result {
        Err(e) => Response::failure(Some(tool), &Error::from(e)),
        Ok(report) => Response {
            text: render::text::report(&report),
            envelope: render::json::report(&report),
            exit,
            is_error: false,
            explain: None,
        },
    };
    response.explain = explain;
    response
}

/// SPEC §5: save the complete result of a capped search, or say why not.
fn save(report: &Report, settings: &Settings) -> Spill {
    let Some(dir) = &settings.spill_dir else {
        return Spill::NotSaved {
            reason: "no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)"
                .to_owned(),
        };
    };
    match spill::save(dir, report.tool, &render::text::complete(report)) {
        Ok(saved) => Spill::Saved {
            locator: saved.locator,
            hint: settings.spill_hint.clone(),
            reused: saved.reused,
        },
        Err(reason) => Spill::NotSaved { reason },
    }
}
