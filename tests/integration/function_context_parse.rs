//! Function context (SPEC §4) on a large file: a file where every
//! function matches is parsed once, and its tree walked once, not once
//! per match.

use std::fmt::Write as _;

use crate::harness::{TestDir, assert_out};

#[test]
fn a_file_where_every_function_matches_is_parsed_once() {
    // 20,000 functions, each matched: a walk of the tree per match took
    // 83 s in a release build; the last page shows the last two whole.
    let t = TestDir::new();
    let mut text = String::new();
    for i in 0..20_000 {
        let _ = writeln!(text, "def f_{i}():\n    return {i}");
    }
    t.write("many.py", &text);
    assert_out(
        &t.run(&["grep", "def f_", "-W", "--offset", "19998"]),
        0,
        "Found 2 of 20000 matches, from match 19999\n\nmany.py\n\
         Line 39997: def f_19998():\n\
         Line 39998-     return 19998\n\
         Line 39999: def f_19999():\n\
         Line 40000-     return 19999\n\n\
         (The other 19,998 matches: many.py 19,998)\n\n\
         (The complete result could not be saved; narrow pattern, path, or include to see more.)\n",
    );
}
