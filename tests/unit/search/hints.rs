//! Unit tests of `src/search/hints.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::search::places::parent_bytes;

#[test]
fn the_path_to_search_is_the_file_or_the_common_directory() {
    let cases: [(&[&str], &str); 9] = [
        (&["node_modules/lib/x.js"], "node_modules/lib/x.js"),
        (
            &["node_modules/lib/x.js", "node_modules/lib/y.js"],
            "node_modules/lib",
        ),
        (
            &["node_modules/a/x.js", "node_modules/b/y.js"],
            "node_modules",
        ),
        (&["target/x", "vendor/y"], "target/x"),
        (&[".env", "target/x"], ".env"),
        (
            &[
                ".config/a",
                "node_modules/lib/x.js",
                "node_modules/lib/y.js",
            ],
            "node_modules/lib",
        ),
        // An absolute path keeps its root.
        (&["/opt/ext/lib/x.js", "/opt/ext/lib/y.js"], "/opt/ext/lib"),
        (&["/opt/a/x", "/srv/b/y", "/srv/b/z"], "/srv/b"),
        // Only `/` in common, and no directory holds two: the first file.
        (&["/x", "/y"], "/x"),
    ];
    for (paths, want) in cases {
        let paths: Vec<String> = paths.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(path_to_search(&paths), want, "{paths:?}");
    }
    assert_eq!(parent_bytes(b"/x"), b"/");
    assert_eq!(parent_bytes(b"x"), b"");
    assert_eq!(parent_of("/opt/é/x"), "/opt/é");
}
