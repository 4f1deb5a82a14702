//! Unit tests of `src/search/types.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn known() -> Vec<FileType> {
    parse(
        "c: *.[chH], *.[chH].in, *.cats\n\
         cpp: *.[ChH], *.cc, *.cpp\n\
         py: *.py, *.pyi\n\
         python: *.py\n\
         rust: *.rs\n\
         ts: *.cts, *.mts, *.ts, *.tsx\n\
         toml: *.toml, Cargo.lock\n\
         txt: *.txt\n\
         make: [Gg][Nn][Uu]makefile, [Mm]akefile\n",
    )
}

#[test]
fn the_list_is_parsed() {
    let types = known();
    assert_eq!(types.len(), 9);
    assert_eq!(types[4].name, "rust");
    assert_eq!(types[0].globs, ["*.[chH]", "*.[chH].in", "*.cats"]);
}

#[test]
fn close_names_come_nearest_first() {
    let types = known();
    assert_eq!(close("rs", &types), ["rust"]);
    assert_eq!(close("Rust", &types), ["rust"]);
    assert_eq!(close("rsut", &types), ["rust"]);
    let mut with_rst = types.clone();
    with_rst.push(FileType {
        name: "rst".into(),
        globs: vec!["*.rst".into()],
    });
    assert_eq!(close("rsut", &with_rst), ["rust", "rst"]);
    assert_eq!(close("typescript", &types), ["ts"]);
    assert_eq!(close("pyhton", &types), ["python", "py"]);
    assert_eq!(close("tsx", &types), ["ts"]);
    assert_eq!(close("mak", &types), ["make"]);
    assert!(close("zzzzzz", &types).is_empty());
    assert!(close("", &types).is_empty());
    assert!(close("x", &types).len() <= CLOSE);
}

#[test]
fn edits_count_a_swap_once() {
    assert!(within("ts", "typescript") && !within("st", "ts"));
    assert_eq!(edits("rust", "rust"), 0);
    assert_eq!(edits("rsut", "rust"), 1);
    assert_eq!(edits("rs", "rust"), 2);
    assert_eq!(edits("", "ab"), 2);
}
