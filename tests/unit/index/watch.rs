//! Unit tests of `src/index/watch.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn drained(w: &Watcher) -> Vec<Event> {
    let mut events = Vec::new();
    w.drain(&mut |e| events.push(e));
    events
}

#[test]
fn events_say_what_to_walk_again() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join("d")).unwrap();
    let w = Watcher::new().unwrap();
    w.watch(root, b"").unwrap();
    w.watch(root, b"d").unwrap();
    std::fs::write(root.join("d/a.txt"), "x").unwrap();
    std::fs::write(root.join("d/.ignore"), "x").unwrap();
    std::fs::create_dir(root.join("e")).unwrap();
    let events = drained(&w);
    assert!(events.contains(&Event::Written {
        name: b"d/a.txt".to_vec(),
        changed: true
    }));
    assert!(events.contains(&Event::Entries {
        dir: b"d".to_vec(),
        child: None
    }));
    assert!(events.contains(&Event::Rules(b"d".to_vec())));
    assert!(events.contains(&Event::Entries {
        dir: Vec::new(),
        child: Some(b"e".to_vec())
    }));
}

#[test]
fn a_directory_watched_again_under_a_new_name_reports_under_it() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir(root.join("d")).unwrap();
    let w = Watcher::new().unwrap();
    w.watch(root, b"d").unwrap();
    std::fs::rename(root.join("d"), root.join("e")).unwrap();
    w.watch(root, b"e").unwrap();
    drained(&w);
    std::fs::write(root.join("e/a.txt"), "x").unwrap();
    assert!(drained(&w).contains(&Event::Written {
        name: b"e/a.txt".to_vec(),
        changed: true
    }));
    assert_eq!(w.watched(), 1);
}

#[test]
fn a_move_within_the_tree_is_one_event_and_one_out_is_a_removal() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("d")).unwrap();
    std::fs::create_dir_all(root.join("out")).unwrap();
    std::fs::write(root.join("a"), "x").unwrap();
    std::fs::write(root.join("b"), "x").unwrap();
    let w = Watcher::new().unwrap();
    w.watch(root, b"").unwrap();
    w.watch(root, b"d").unwrap();
    std::fs::rename(root.join("a"), root.join("d/a2")).unwrap();
    std::fs::rename(root.join("b"), root.join("out/b")).unwrap();
    let events = drained(&w);
    assert!(events.contains(&Event::Moved {
        from: b"a".to_vec(),
        to: b"d/a2".to_vec()
    }));
    assert!(events.contains(&Event::Removed(b"b".to_vec())));
}

#[test]
fn unwatched_directories_report_nothing() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::fs::create_dir_all(root.join("d/sub")).unwrap();
    let w = Watcher::new().unwrap();
    w.watch(root, b"d").unwrap();
    w.watch(root, b"d/sub").unwrap();
    w.unwatch_under(b"d", true, |_| false);
    std::fs::write(root.join("d/sub/a.txt"), "x").unwrap();
    assert_eq!(drained(&w), Vec::new());
    assert_eq!(w.watched(), 1);
}
