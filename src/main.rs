//! dsh-search: parse the command line, run one tool call, print what the
//! renderer returned, exit with the code of SPEC §6. Nothing else.

mod cli;
mod error;
mod render;
mod request;
mod rg;
mod search;
mod settings;
mod signals;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::error::{EXIT_EMPTY, EXIT_RESULTS, Error};

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and exit 0; usage errors
            // go to stderr with exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    signals::install();
    let settings = cli.global.settings();
    let (text, code) = match cli.command.request() {
        Err(e) => {
            let e = Error::from(e);
            (render::text::error(&e), e.code().exit_code())
        }
        Ok(request) => match search::run(&request, &settings).result {
            Ok(report) => {
                let code = if report.is_empty() { EXIT_EMPTY } else { EXIT_RESULTS };
                (render::text::report(&report), code)
            }
            Err(e) => {
                let e = Error::from(e);
                (render::text::error(&e), e.code().exit_code())
            }
        },
    };
    print(&text);
    ExitCode::from(code)
}

/// Write `text` and its final newline; a closed stdout (`| head`) is not an
/// error worth a panic.
fn print(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
}
