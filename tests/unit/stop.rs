//! Unit tests of `src/stop.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn signal_outranks_cancel_and_deadline() {
    let stop = Stop::new();
    let later = Budget {
        deadline: Instant::now() + Duration::from_secs(60),
        stop: &stop,
    };
    assert_eq!(later.check(), Ok(()));
    stop.cancel();
    assert_eq!(later.check(), Err(Halt::Cancelled));
    stop.signal_slot().store(15, Ordering::SeqCst);
    assert_eq!(later.check(), Err(Halt::Signal(15)));
    let past = Budget {
        deadline: Instant::now(),
        stop: &Stop::new(),
    };
    assert_eq!(past.check(), Err(Halt::TimedOut));
}

/// A server's call has the server's signals, but a cancellation of
/// its own.
#[test]
fn a_call_shares_signals_not_cancellation() {
    let server = Stop::new();
    let call = server.for_call();
    call.cancel();
    assert_eq!(call.halt(), Some(Halt::Cancelled));
    assert_eq!(server.halt(), None);
    server.signal_slot().store(2, Ordering::SeqCst);
    assert_eq!(call.halt(), Some(Halt::Signal(2)));
    assert_eq!(server.for_call().halt(), Some(Halt::Signal(2)));
}

/// The kills of the groups enrolled, until their guards are dropped.
#[test]
fn kill_running_kills_what_is_enrolled() {
    let stop = Stop::new();
    let killed = Arc::new(AtomicUsize::new(0));
    let kill = |n: usize| -> Kill {
        let killed = Arc::clone(&killed);
        Box::new(move || {
            killed.fetch_add(n, Ordering::SeqCst);
        })
    };
    let one = stop.enroll(kill(1));
    let ten = stop.enroll(kill(10));
    stop.kill_running();
    assert_eq!(killed.load(Ordering::SeqCst), 11);
    drop(one);
    stop.kill_running();
    assert_eq!(killed.load(Ordering::SeqCst), 21);
    drop(ten);
    stop.kill_running();
    assert_eq!(killed.load(Ordering::SeqCst), 21);
}

/// A group being started is enrolled before any kill can come; once
/// the call is cancelled, nothing starts.
#[test]
fn a_kill_waits_for_the_group_being_started() {
    let stop = Arc::new(Stop::new());
    let killed = Arc::new(AtomicBool::new(false));
    let starting = stop.starting().unwrap();
    let cancel_and_kill = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            stop.cancel();
            stop.kill_running();
        })
    };
    // The other thread has cancelled by now, most likely, and waits.
    std::thread::sleep(Duration::from_millis(50));
    let enrolled = starting.enroll({
        let killed = Arc::clone(&killed);
        Box::new(move || killed.store(true, Ordering::SeqCst))
    });
    cancel_and_kill.join().unwrap();
    assert!(killed.load(Ordering::SeqCst));
    drop(enrolled);
    assert_eq!(stop.starting().err(), Some(Halt::Cancelled));
}

/// `unwanted` follows the cancellation of the call the thread works
/// for, and of none on other threads; a helper thread can adopt it.
#[test]
fn unwanted_follows_the_call_of_the_thread() {
    let stop = Arc::new(Stop::new());
    let worker = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            assert!(!unwanted());
            work_for(&stop);
            let call = this_call();
            assert!(!unwanted());
            stop.cancel();
            let helper = std::thread::spawn(move || {
                assert!(!unwanted());
                adopt(call);
                unwanted()
            });
            (unwanted(), helper.join().unwrap())
        })
    };
    assert_eq!(worker.join().unwrap(), (true, true));
    // This thread works for no call: never unwanted.
    assert!(stop.halt() == Some(Halt::Cancelled) && !unwanted());
}
