//! Unit tests of `src/rg/quote.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn forms() {
    assert_eq!(quote(""), "''");
    assert_eq!(quote("abc"), "'abc'");
    assert_eq!(quote("it's"), r"'it'\''s'");
    assert_eq!(quote("$(rm -rf /)"), "'$(rm -rf /)'");
}

/// A real `sh` as the oracle (Unix: the quoting is for `sh -c`).
#[cfg(unix)]
mod through_a_shell {
    use super::*;
    use std::process::Command;

    /// Runs `sh -c 'printf %s <quoted>'` and returns what the shell passed on.
    fn through_sh(value: &str) -> Vec<u8> {
        let script = format!("printf %s {}", quote(value));
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .env_clear()
            .output()
            .unwrap();
        assert!(out.status.success(), "sh failed for {value:?}");
        out.stdout
    }

    #[test]
    fn hostile_strings_round_trip() {
        for s in [
            "-e",
            "--files",
            "a b",
            "'",
            "''",
            "\"",
            "\\",
            "`id`",
            "$(id)",
            "${HOME}",
            "$HOME",
            "a\nb",
            "*",
            "~",
            "!x",
            "a=b",
            "if",
            "; touch pwned",
            "ünï €",
            "\t",
            "%s",
        ] {
            assert_eq!(through_sh(s), s.as_bytes(), "value {s:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any NUL-free string comes out of a real `sh -c` byte for byte, and
        /// agrees with shlex's parser as an independent oracle.
        #[test]
        fn round_trips_through_sh(s in "[^\u{0}]{0,40}") {
            proptest::prop_assert_eq!(through_sh(&s), s.as_bytes().to_vec());
            let quoted = quote(&s);
            proptest::prop_assert_eq!(shlex::split(&quoted), Some(vec![s.clone()]));
        }

        /// No quoted string executes anything: a marker file that a command
        /// substitution would create never appears.
        #[test]
        fn never_executes(prefix in "[ -~]{0,8}", suffix in "[ -~]{0,8}") {
            let dir = tempfile::tempdir().unwrap();
            let marker = dir.path().join("pwned");
            let payload = format!("{prefix}$(touch {m})`touch {m}`'; touch {m}; '{suffix}", m = marker.display());
            let script = format!("printf %s {} >/dev/null", quote(&payload));
            let status = Command::new("sh").arg("-c").arg(script).status().unwrap();
            proptest::prop_assert!(status.success());
            proptest::prop_assert!(!marker.exists());
        }
    }
}
