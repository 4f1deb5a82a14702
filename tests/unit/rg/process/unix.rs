//! Unit tests of `src/rg/process/unix.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use std::path::Path;
use std::time::Instant;

use super::super::{Finished, run};
use super::*;
use crate::rg::Sink;
use crate::rg::command::CommandLine;
use crate::rg::ending::Ending;
use crate::stop::{Budget, Halt, Stop};

/// Keeps every byte it is given, and whether it was finished.
#[derive(Default)]
struct Keep {
    bytes: Vec<u8>,
    finished: bool,
}

impl Sink for Keep {
    fn chunk(&mut self, bytes: &[u8]) {
        assert!(!self.finished);
        self.bytes.extend_from_slice(bytes);
    }
    fn finish(&mut self) {
        self.finished = true;
    }
}

fn run_line(
    line: &CommandLine,
    dir: &Path,
    stop: &Stop,
    cap: u64,
    keep: &mut Keep,
) -> io::Result<Finished> {
    let spec = Spec {
        line,
        workdir: dir,
        budget: Budget {
            deadline: Instant::now() + Duration::from_secs(20),
            stop,
        },
        stdout_cap: cap,
    };
    run(&spec, keep)
}

#[test]
fn every_byte_arrives_in_order_inline_or_threaded() {
    let dir = tempfile::tempdir().unwrap();
    // 6 MB: past the inline limit, so most of it goes through the thread.
    let data: Vec<u8> = (0..6_000_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.path().join("data"), &data).unwrap();
    let stop = Stop::new();
    for (line, want) in [
        (CommandLine::of("cat", &["data"]), &data[..]),
        (CommandLine::of("printf", &["abc"]), b"abc"),
    ] {
        let mut keep = Keep::default();
        let raw = run_line(&line, dir.path(), &stop, 1 << 30, &mut keep).unwrap();
        assert!(
            raw.ending == Ending::Exited(RgExit::Status(0)),
            "{:?}",
            raw.ending
        );
        assert_eq!(raw.stdout_bytes, want.len() as u64);
        assert!(keep.bytes == want, "{}: bytes differ", line.script());
        assert!(keep.finished);
    }
}

#[test]
fn overflow_and_halts_leave_the_sink_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let stop = Stop::new();
    let mut keep = Keep::default();
    let yes = CommandLine::of("yes", &[]);
    let raw = run_line(&yes, dir.path(), &stop, 1 << 20, &mut keep).unwrap();
    assert_eq!(raw.ending, Ending::Overflow);
    assert!(!keep.finished && keep.bytes.len() <= 1 << 20);
    stop.cancel();
    let mut keep = Keep::default();
    let sleep = CommandLine::of("sleep", &["5"]);
    let raw = run_line(&sleep, dir.path(), &stop, 10, &mut keep).unwrap();
    assert_eq!(raw.ending, Ending::Halted(Halt::Cancelled));
    assert!(!keep.finished);
}

/// The backstop behind the request rules (see `quote`): a script that
/// holds a NUL is refused before any process starts.
#[test]
fn a_nul_byte_never_reaches_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let stop = Stop::new();
    let mut keep = Keep::default();
    let line = CommandLine::of("touch", &["made\0", "here"]);
    let started = run_line(&line, dir.path(), &stop, 10, &mut keep);
    assert!(started.is_err(), "{started:?}");
    assert!(!dir.path().join("made").exists());
}
