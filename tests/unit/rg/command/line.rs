//! Unit tests of `src/rg/command/line.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn windows_command_lines_quote_as_std_does() {
    let mut line = CommandLine::new(r"C:\rg\rg.exe");
    for arg in [
        "plain",
        "",
        "a b",
        "tab\there",
        r#"say "hi""#,
        r"dir\",
        r"dir with space\",
        r#"a\"b"#,
        r"--glob=**\*.rs",
    ] {
        line.words.push(Word::Value(arg.to_owned()));
    }
    assert_eq!(
        line.windows_command_line(),
        concat!(
            r#""C:\rg\rg.exe" plain "" "a b" "tab	here" "say \"hi\"" "#,
            r#"dir\ "dir with space\\" a\\\"b --glob=**\*.rs"#
        )
    );
}
