//! Unit tests of `src/watchdog.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

#[test]
fn an_answer_in_time_is_returned() {
    let stop = Arc::new(Stop::new());
    let answer = run(&stop, Duration::from_secs(600), || 42);
    assert_eq!(answer.ok(), Some(42));
    assert_eq!(stop.halt(), None);
}

/// A worker that never answers, but looks at `unwanted`: the watch
/// gives up on it after the deadline and its grace, cancels the call
/// and kills what is enrolled; the worker then ends.
#[test]
fn a_stuck_worker_is_given_up_on_and_told_to_stop() {
    let stop = Arc::new(Stop::new());
    let killed = Arc::new(AtomicBool::new(false));
    let kill: stop::Kill = {
        let killed = Arc::clone(&killed);
        Box::new(move || killed.store(true, Ordering::SeqCst))
    };
    let worker_stop = Arc::clone(&stop);
    let gave_up = run(&stop, Duration::from_millis(1), move || {
        let _enrolled = worker_stop.enroll(kill);
        while !stop::unwanted() {
            thread::sleep(Duration::from_millis(1));
        }
    })
    .err()
    .unwrap();
    assert_eq!(gave_up.halt, Halt::TimedOut);
    assert_eq!(stop.halt(), Some(Halt::Cancelled));
    assert!(killed.load(Ordering::SeqCst));
    let worker = gave_up.worker.unwrap();
    assert!(worker.join().is_ok());
}

/// A signal during the call: given up on after the grace, with the
/// signal as the reason, long before the deadline.
#[test]
fn a_signal_is_the_reason_given() {
    let stop = Arc::new(Stop::new());
    stop.signal_slot().store(15, Ordering::SeqCst);
    let gave_up = run(&stop, Duration::from_secs(600), || {
        while !stop::unwanted() {
            thread::sleep(Duration::from_millis(1));
        }
    })
    .err()
    .unwrap();
    assert_eq!(gave_up.halt, Halt::Signal(15));
}

#[test]
#[should_panic(expected = "worker panic")]
fn a_panic_goes_on_in_the_caller() {
    let stop = Arc::new(Stop::new());
    let _ = run(&stop, Duration::from_secs(600), || -> u8 {
        panic!("worker panic")
    });
}
