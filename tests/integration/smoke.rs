//! The harness works: a real glob and grep in a fresh tree.

use crate::harness::{TestDir, assert_out};

#[test]
fn glob_and_grep_a_fresh_tree() {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\n");
    assert_out(&t.run(&["glob", "**/*.rs"]), 0, "src/main.rs\n");
    assert_out(
        &t.run(&["grep", "fn main"]),
        0,
        "Found 1 match\n\nsrc/main.rs\nLine 1: fn main() {}\n",
    );
}
