//! What one tool call answers, typed until the edge: a search's report, or
//! the error (with, for a timeout, the page of what was found), and the
//! argument fields that were ignored. The front-ends print it through the
//! renderers, which make the text and the JSON envelope from this one value.

use std::num::NonZeroU64;

use crate::error::{Error, ErrorCode, Exit, SearchError, TimeoutPage};
use crate::request::Ignored;
use crate::search::report::Report;
use crate::stop::Halt;
use crate::tool::Tool;

/// One call's answer.
#[derive(Debug)]
pub struct Response {
    /// The tool called; `None` when a command line was too broken to tell.
    pub tool: Option<Tool>,
    pub body: Body,
    /// Arguments given and not used (SPEC §8).
    pub ignored: Vec<Ignored>,
    /// The `--explain` account, when asked for and a search ran.
    pub explain: Option<String>,
}

/// What the call found, or why it failed.
#[derive(Debug)]
pub enum Body {
    Results(Report),
    Failed {
        error: Error,
        /// A timed-out search's page of what it found (SPEC §4a).
        partial: Option<Box<Report>>,
    },
}

impl Response {
    /// The answer of a call that failed with `error` and found nothing,
    /// with the call's `ignored` arguments.
    pub fn of_error(tool: Option<Tool>, error: Error, ignored: Vec<Ignored>) -> Self {
        Self {
            tool,
            body: Body::Failed {
                error,
                partial: None,
            },
            ignored,
            explain: None,
        }
    }

    /// The answer to a command line that was rejected (SPEC §4: usage
    /// errors are reported on stdout, like every failure).
    pub fn usage(tool: Option<Tool>, message: String) -> Self {
        Self::of_error(tool, Error::Usage(message), Vec::new())
    }

    /// The answer to a call of `tool` that `halt` ended before it found
    /// anything usable: the error an ordinary timeout (`timeout_ms`), signal
    /// or cancellation gives then, with the call's `ignored` arguments. The
    /// watchdog answers with it when it gives up on a call.
    pub fn halted(tool: Tool, halt: Halt, timeout_ms: NonZeroU64, ignored: Vec<Ignored>) -> Self {
        let error = SearchError::halted(tool, halt, timeout_ms, TimeoutPage::Nothing);
        Self::of_error(Some(tool), Error::Search(error), ignored)
    }

    /// How the process ends after printing this (SPEC §6).
    pub fn exit(&self) -> Exit {
        self.body.exit()
    }

    /// The class of failure, when the call failed.
    pub fn failed(&self) -> Option<ErrorCode> {
        match &self.body {
            Body::Results(_) => None,
            Body::Failed { error, .. } => Some(error.code()),
        }
    }
}

impl Body {
    /// How the process ends after printing this (SPEC §6).
    pub fn exit(&self) -> Exit {
        match self {
            Self::Results(report) if report.is_empty() => Exit::Empty,
            Self::Results(_) => Exit::Success,
            Self::Failed { error, .. } => Exit::Failed(error.code()),
        }
    }
}
