//! One tool call, whatever front-end it came from: request → search →
//! spill → the rendered response. argv, `call` and MCP all come through
//! [`call`], so no rule exists twice.

use serde_json::Value;

use crate::arguments::Arguments;
use crate::error::{Error, ErrorCode, Exit, Kind};
use crate::explain;
use crate::render;
use crate::request::Request;
use crate::search::{self, report::Report, report::Spill};
use crate::settings::{Format, Settings};
use crate::spill;
use crate::stop::Stop;
use crate::tool::Tool;

/// What a call printed and how it ended.
#[derive(Debug)]
pub struct Response {
    /// The JSON envelope. Its `text` field is the text form (see
    /// [`Response::text`]), so the two cannot differ.
    pub envelope: Value,
    pub exit: Exit,
    /// The `--explain` account, when asked for and a search ran.
    pub explain: Option<String>,
}

impl Response {
    /// What stdout gets in `format`, final newline included.
    pub fn stdout(&self, format: Format) -> String {
        match format {
            Format::Text => format!("{}\n", self.text()),
            Format::Json => format!("{}\n", self.envelope),
        }
    }

    /// The text form, without its final newline.
    pub fn text(&self) -> &str {
        self.envelope
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The class of failure, when the call failed (an argument or search error).
    pub fn failed(&self) -> Option<ErrorCode> {
        match self.exit {
            Exit::Failed(code) => Some(code),
            Exit::Success | Exit::Empty => None,
        }
    }

    fn failure(tool: Option<Tool>, e: &Error) -> Self {
        Self {
            envelope: render::json::error(tool, e),
            exit: Exit::Failed(e.code()),
            explain: None,
        }
    }

    /// Add `tail` to the end of the text form.
    fn append_text(&mut self, tail: &str) {
        if let Some(Value::String(text)) = self.envelope.get_mut("text") {
            text.push_str(tail);
        }
    }
}

/// Run one call of `tool`. Its request is `Err` when the arguments broke a
/// rule of SPEC §3; `stop` (a signal, a cancellation) ends the search.
/// Ignored arguments are named at the end of whatever the call printed.
pub fn run(tool: Tool, args: Arguments, settings: &Settings, stop: &Stop) -> Response {
    let mut response = match args.request {
        Ok(request) => search_and_render(tool, &request, settings, stop),
        Err(e) => Response::failure(Some(tool), &Error::from(e)),
    };
    response.note_ignored(&args.ignored);
    response
}

impl Response {
    /// SPEC §4a: a timeout keeps what rg found before it, after the error
    /// line in text, as `partial` beside the error in JSON.
    fn add_partial(&mut self, partial: &Report) {
        let partial = render::json::report(partial);
        let page = partial
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default();
        self.append_text(&format!("\n\n{page}"));
        if let Value::Object(envelope) = &mut self.envelope {
            envelope.insert("partial".to_owned(), partial);
        }
    }

    /// SPEC §8: one closing text line names the ignored fields, and JSON
    /// `warnings` names each.
    fn note_ignored(&mut self, ignored: &[String]) {
        if ignored.is_empty() {
            return;
        }
        let noun = if ignored.len() == 1 {
            "argument"
        } else {
            "arguments"
        };
        self.append_text(&format!(
            "\n\n(ignored unknown {noun}: {})",
            ignored.join(", ")
        ));
        if let Value::Object(envelope) = &mut self.envelope {
            let warnings = envelope
                .entry("warnings")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = warnings {
                list.extend(
                    ignored
                        .iter()
                        .map(|name| Value::String(format!("ignored unknown argument: {name}"))),
                );
            }
        }
    }
}

fn search_and_render(tool: Tool, request: &Request, settings: &Settings, stop: &Stop) -> Response {
    let mut outcome = search::run(request, settings, stop);
    if let Ok(report) = &mut outcome.result {
        if report.truncated() {
            report.spill = save(report, settings, None);
        }
    }
    // What a timed-out search found (the only kind of partial page) is
    // saved as such (SPEC §4a): its file must not read as the whole tree
    // when it is opened later.
    if let (Some(report), Err(e)) = (&mut outcome.partial, &outcome.result) {
        if let (true, Kind::TimedOut { ms, .. }) = (report.truncated(), &e.kind) {
            let why = format!("{tool} timed out after {ms}ms");
            report.spill = save(report, settings, Some(&why));
        }
    }
    let exit = match &outcome.result {
        Ok(report) if report.is_empty() => Exit::Empty,
        Ok(_) => Exit::Success,
        Err(e) => Exit::Failed(e.code()),
    };
    let explain = settings.explain.then(|| {
        explain::render(&explain::Facts {
            tool,
            settings,
            script: &outcome.script,
            rg_version: outcome.rg_version.as_deref(),
            run: outcome.run.as_ref(),
            result: outcome.result.as_ref(),
            exit,
        })
    });
    let mut response = match outcome.result {
        Err(e) => {
            let mut response = Response::failure(Some(tool), &Error::from(e));
            if let Some(partial) = &outcome.partial {
                response.add_partial(partial);
            }
            response
        }
        Ok(report) => Response {
            envelope: render::json::report(&report),
            exit,
            explain: None,
        },
    };
    response.explain = explain;
    response
}

/// SPEC §5: save the complete result of a capped search, or say why not.
/// `incomplete` says what cut the search short (`grep timed out after
/// 300ms`), for what a timed-out search found.
fn save(report: &Report, settings: &Settings, incomplete: Option<&str>) -> Spill {
    let Some(dir) = &settings.spill_dir else {
        return Spill::NotSaved {
            reason: "no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)"
                .to_owned(),
        };
    };
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
