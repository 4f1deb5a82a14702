//! man/ and completions/ are generated from the clap definition and
//! committed; this fails when they are stale and says how to refresh them.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::harness::{TestDir, assert_exit, assert_out, stdout};

const REFRESH: &str = "cargo run --locked -- generate --out-dir .";

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        out.insert(
            entry.file_name().to_string_lossy().into_owned(),
            fs::read(entry.path()).unwrap(),
        );
    }
    out
}

#[test]
fn man_pages_and_completions_are_up_to_date() {
    let t = TestDir::new();
    let out = t.path().join("generated");
    let status = t
        .cmd()
        .args(["generate", "--out-dir"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "generate failed: {status:?}");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["man", "completions"] {
        let fresh = files(&out.join(sub));
        let committed = files(&repo.join(sub));
        assert_eq!(
            fresh.keys().collect::<Vec<_>>(),
            committed.keys().collect::<Vec<_>>(),
            "{sub}/ holds other files than the generator writes; refresh with `{REFRESH}`"
        );
        for (name, bytes) in &fresh {
            assert!(
                committed[name] == *bytes,
                "{sub}/{name} is stale; refresh with `{REFRESH}` and commit"
            );
        }
    }
}

/// Two generations with the clock set apart (another second of wall time,
/// another `SOURCE_DATE_EPOCH`, another time zone) give the same bytes: no
/// date stamp, no time of any kind, leaks in.
#[test]
fn generation_is_byte_stable() {
    let t = TestDir::new();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let second = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let first_second = second();
    for (dir, epoch, tz) in [(&a, "0", "UTC"), (&b, "2000000000", "Asia/Tokyo")] {
        if dir == &b {
            // Into the next second of wall time (at most one second away).
            while second() == first_second {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        let out = t
            .cmd()
            .env("SOURCE_DATE_EPOCH", epoch)
            .env("TZ", tz)
            .args(["generate", "--out-dir"])
            .arg(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "generate failed: {out:?}");
    }
    for sub in ["man", "completions"] {
        assert_eq!(
            files(&a.join(sub)),
            files(&b.join(sub)),
            "{sub}/ differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn help_for_every_subcommand_exits_zero() {
    let t = TestDir::new();
    for args in [
        &["--help"][..],
        &["-h"],
        &["glob", "--help"],
        &["grep", "--help"],
        &["call", "--help"],
        &["schema", "--help"],
        &["mcp", "--help"],
        &["help", "grep"],
    ] {
        let out = t.run(args);
        assert_exit(&out, 0);
        assert!(stdout(&out).contains("Usage: dsh-search"), "{out:?}");
    }
    let grep = t.run(&["grep", "--help"]);
    for needle in [
        "--include",
        "DSH_SEARCH_GREP_MAX_MATCHES",
        "[default: 250]",
        "Examples:",
    ] {
        assert!(stdout(&grep).contains(needle), "no {needle}: {grep:?}");
    }
}

#[test]
fn version_prints_the_crate_version() {
    let t = TestDir::new();
    assert_out(
        &t.run(&["--version"]),
        0,
        &format!("dsh-search {}\n", env!("CARGO_PKG_VERSION")),
    );
}
