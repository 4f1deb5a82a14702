//! dsh-search as a library: the binary's one entry point, [`run`], and,
//! with the `fuzzing` feature only, a hidden seam for the fuzz targets
//! (`fuzzing`). Every module stays private; the command-line tool and the
//! MCP server are the interface.
//!
//! [`run`] parses the command line, runs one tool call (under the
//! watchdog, `watchdog.rs`) or the schema, the MCP server, the generator,
//! prints what the renderer returned and says how to exit, with the code
//! of SPEC §6. Nothing else.

mod arguments;
mod call;
mod cli;
mod diag;
mod error;
mod escape;
mod explain;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
#[path = "../fuzz/harness/fuzzing.rs"]
pub mod fuzzing;
mod generate;
mod index;
mod locate;
mod mcp;
mod outline;
mod render;
mod request;
mod response;
mod rg;
mod schema;
mod search;
mod serve;
mod settings;
mod signals;
mod spill;
mod stop;
mod tool;
mod watchdog;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use crate::arguments::Arguments;
use crate::cli::{Action, Input, Rejected};
use crate::error::{Exit, Fault};
use crate::response::Response;
use crate::serve::wire::{Answer, Front};
use crate::settings::{Format, Settings};
use crate::stop::{Halt, Stop};

/// How long the process waits at its end for stderr to take what is
/// queued for it (`diag`): a pipe nobody reads must not hold the exit.
const STDERR_FLUSH: std::time::Duration = std::time::Duration::from_secs(2);

/// Run dsh-search with this process's arguments; what `main` returns.
#[must_use]
pub fn run() -> ExitCode {
    let exit = dispatch();
    diag::flush(STDERR_FLUSH);
    exit.into()
}

fn dispatch() -> Exit {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(Rejected::Answered(printed)) => {
            return diag::after_stdout("dsh-search", printed.err().as_ref(), Exit::Success);
        }
        Err(Rejected::Usage(message)) => return usage_error(message, &args),
    };
    let stop = Arc::new(Stop::new());
    let settings = cli.global.settings();
    match cli.command.action() {
        Action::Tool(tool, input) => {
            // `call` reads its arguments first, with the default signal
            // actions: a Ctrl-C while stdin stays open ends the process,
            // and no search has started that could outlive it.
            let args = match input {
                Input::Argv(args) => Arguments::new(*args, Vec::new()),
                Input::Json(given) => match arguments::read(given) {
                    Ok(text) => arguments::parse(tool, &text),
                    Err(e) => Arguments::rejected(e),
                },
            };
            signals::install(&stop);
            let answer = respond(tool, args, settings, &stop);
            // A signal that would have killed dsh-search does so now that
            // the search (and its process group) is gone.
            signals::die_if_fatal(&stop);
            if let Some(explain) = &answer.explain {
                diag::write(explain);
            }
            print(&answer.stdout, answer.exit)
        }
        Action::Schema => {
            let document = schema::document(&settings);
            print(&format!("{document:#}\n"), Exit::Success)
        }
        Action::Mcp => {
            signals::install(&stop);
            mcp::serve(&settings, &stop)
        }
        Action::Serve { idle_ms, status } => {
            if status {
                return print(&serve::status_text(), Exit::Success);
            }
            signals::install(&stop);
            serve::serve(
                &settings,
                std::time::Duration::from_millis(idle_ms.get()),
                &stop,
            )
        }
        Action::Generate(dir) => match generate::write_all(&cli::command(), &dir) {
            Ok(()) => Exit::Success,
            Err(e) => {
                diag::note(&format!(
                    "dsh-search generate: cannot write under {}: {e}",
                    dir.display()
                ));
                Exit::Fault(Fault::Generate)
            }
        },
    }
}

/// Answer one tool call, rendered, under the watchdog: the call runs on a
/// worker thread, and should it overrun its deadline or a signal by the
/// watchdog's grace, the answer is the error an ordinary timeout or
/// interrupt prints, the call's process groups are killed, and the
/// process's exit (which follows) ends the worker.
fn respond(tool: tool::Tool, args: Arguments, settings: Settings, stop: &Arc<Stop>) -> Answer {
    let (format, timeout_ms, timeout) = (settings.format, settings.timeout_ms, settings.timeout());
    let ignored = args.ignored.clone();
    let worker_stop = Arc::clone(stop);
    let answered = watchdog::run(stop, timeout, move || {
        let started = std::time::Instant::now();
        let budget = stop::Budget {
            deadline: started + settings.timeout(),
            stop: &worker_stop,
        };
        let (index, absent) = match serve::ask_server(tool, &args, &settings, Front::Cli, budget) {
            serve::Served::Answered(answer) => return answer,
            serve::Served::Here { index, absent } => (index, absent),
        };
        let mut response = call::respond(tool, args, &settings, &worker_stop, index.as_ref());
        // A tree whose scan is slow gets a server for the next calls.
        #[cfg(unix)]
        if absent
            && settings
                .serve_after
                .is_some_and(|after| started.elapsed() > after)
        {
            let _ = serve::client::start(&settings);
        }
        #[cfg(not(unix))]
        let _ = absent;
        Answer {
            explain: response.explain.take(),
            stdout: render::stdout(&response, format),
            exit: response.exit(),
            result: None,
        }
    });
    answered.unwrap_or_else(|gave_up| {
        diag::note(&format!(
            "dsh-search: the call did not end within {}ms of {}; ended by the watchdog",
            watchdog::GRACE.as_millis(),
            match gave_up.halt {
                Halt::TimedOut => "its deadline",
                _ => "being interrupted",
            }
        ));
        let response = Response::halted(tool, gave_up.halt, timeout_ms, ignored);
        Answer {
            explain: None,
            stdout: render::stdout(&response, format),
            exit: response.exit(),
            result: None,
        }
    })
}

/// The command line was rejected. Like every failure, a usage error exits
/// 2 and is reported on stdout (SPEC §4): `Error: <message>`, or one JSON
/// object when JSON output was asked for (SPEC §7). An agent sees only
/// stdout.
fn usage_error(message: String, args: &[OsString]) -> Exit {
    let response = Response::usage(cli::tool_named(args), message);
    let format = if cli::wants_json(args) {
        Format::Json
    } else {
        Format::Text
    };
    print(&render::stdout(&response, format), response.exit())
}

/// Write `text` to stdout and end with `exit`, if it could be written.
fn print(text: &str, exit: Exit) -> Exit {
    let mut out = io::stdout().lock();
    let printed = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    diag::after_stdout("dsh-search", printed.err().as_ref(), exit)
}
