//! Unit tests of `src/error.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn ms(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).unwrap()
}

/// SPEC §6, pinned: a change here is a change of the contract.
#[test]
fn exit_code_table() {
    // In the order of `ErrorCode::ALL`, which `--help` lists.
    let table = ErrorCode::ALL.map(|code| (code.exit_code(), code.as_str(), code.name()));
    assert_eq!(
        table,
        [
            (2, "INVALID_ARGUMENT", "ArgumentError"),
            (3, "SEARCH_INVALID_PATTERN", "SearchError"),
            (4, "SEARCH_FAILED", "SearchError"),
            (5, "SEARCH_RAW_OUTPUT_OVERFLOW", "SearchError"),
            (6, "SEARCH_ABORTED", "SearchError"),
        ]
    );
    assert_eq!((Exit::Success.code(), Exit::Empty.code()), (0, 1));
    assert_eq!(Exit::Failed(ErrorCode::SearchAborted).code(), 6);
    for fault in [Fault::WriteOutput, Fault::Serve, Fault::Generate] {
        assert_eq!(Exit::Fault(fault).code(), 4, "{fault:?}");
    }
}

#[test]
fn messages_name_the_option_that_raises_a_limit() {
    let overflow =
        |tool, cap, heavy| SearchError::new(tool, Reason::RawOutputOverflow { cap, heavy });
    let timed_out = |tool, n, page| SearchError::halted(tool, Halt::TimedOut, ms(n), page);
    for (error, want) in [
        (
            timed_out(Tool::Grep, 30000, TimeoutPage::Nothing),
            "grep timed out after 30000ms; narrow pattern, path, or include and retry, or raise --timeout-ms.",
        ),
        (
            timed_out(Tool::Glob, 300, TimeoutPage::InPathOrder),
            "glob timed out after 300ms; showing what was found in that time (incomplete, in path order); narrow pattern or path and retry, or raise --timeout-ms.",
        ),
        (
            overflow(Tool::Glob, 20_000_000, Vec::new()),
            "glob output is over the 20000000-byte cap on raw ripgrep output; narrow pattern or path, or raise --raw-output-max-bytes.",
        ),
        (
            overflow(
                Tool::Grep,
                100,
                vec![("a.js".into(), 60), ("b.js".into(), 30)],
            ),
            "grep output is over the 100-byte cap on raw ripgrep output, 60% of it from a.js and 30% from b.js; narrow pattern, path, or include (leave those files out), or raise --raw-output-max-bytes.",
        ),
    ] {
        assert_eq!(error.to_string(), want);
    }
}

#[test]
fn halts_are_named() {
    let signal = SearchError::halted(Tool::Glob, Halt::Signal(15), ms(1), TimeoutPage::Nothing);
    // Windows notes console events as the signals they stand for.
    let name = if cfg!(windows) {
        "the session ending"
    } else {
        "SIGTERM"
    };
    assert_eq!(
        signal.to_string(),
        format!("glob was interrupted by {name}; the search was stopped.")
    );
    let cancelled = SearchError::halted(Tool::Grep, Halt::Cancelled, ms(1), TimeoutPage::Nothing);
    assert_eq!(
        cancelled.to_string(),
        "grep was cancelled by the client; the search was stopped."
    );
    assert_eq!(cancelled.reason().code(), ErrorCode::SearchAborted);
}
