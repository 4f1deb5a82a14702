//! Unit tests of `src/search/places.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

/// A model of [`holds`] built another way: `dir`'s components are the
/// first components of `path` (`""` is the workdir, with none; `/` the
/// top of absolute paths, whose first component is empty).
fn model_holds(dir: &str, path: &str) -> bool {
    let components = |p: &str| -> Vec<String> {
        match p {
            "" => Vec::new(),
            "/" => vec![String::new()],
            _ => p.split('/').map(str::to_owned).collect(),
        }
    };
    let (dir, path) = (components(dir), components(path));
    path.len() >= dir.len() && path[..dir.len()] == dir[..]
}

#[test]
fn holds_agrees_with_the_component_model() {
    let names = [
        "", "/", "a", "a-b", "a/b", "a/b/c", "ab", "/a", "/a/b", "/ab", "a.b/c", "é/x",
    ];
    for dir in names {
        for path in names {
            if path.is_empty() || (dir == "/" && path == "/") {
                // Not a leaf or place a listing holds.
                continue;
            }
            assert_eq!(
                holds(dir, path),
                model_holds(dir, path),
                "holds({dir:?}, {path:?})"
            );
        }
    }
}

#[test]
fn a_part_is_always_deeper_than_its_place() {
    assert_eq!(child_of("", "//home/x"), Some("/"));
    // `/` split into `/` again, and `a` into `a`, looped for ever.
    assert_eq!(child_of("/", "//home/x"), Some("//home"));
    assert_eq!(child_of("//home", "//home/x"), Some("//home/x"));
    assert_eq!(child_of("a", "a//b"), Some("a//b"));
    assert_eq!(child_of("a", "a//b/c"), Some("a//b"));
    assert_eq!(child_of("", "///"), Some("/"));
    assert_eq!(child_of("/", "///"), None);
    assert_eq!(child_of("/", "///x"), Some("///x"));
    assert_eq!(child_of("a", "a/"), None);
    assert_eq!(child_of("a", "a//"), None);
    assert_eq!(child_of("a/b", "a/b"), None);
    assert_eq!(child_of("", ""), None);
    assert_eq!(parent_bytes(b"a//x"), b"a");
    assert_eq!(parent_bytes(b"//x"), b"/");
    assert_eq!(parent_bytes(b"///x"), b"/");
    assert_eq!(parent_bytes(b"//home//me/x"), b"//home//me");
    assert_eq!(parent_bytes(b"/"), b"");
}

#[test]
fn places_are_named_as_narrowly_as_they_hold() {
    type Counts<'a> = &'a [(&'a str, usize)];
    let cases: [(Leaf, Counts<'_>, Counts<'_>); 12] = [
        // Paths with empty components are placed.
        (
            Leaf::File,
            &[
                ("//home/me/proj/a.rs", 2),
                ("//home/me/proj/sub/b.rs", 1),
                ("//home/me/proj/sub/c.rs", 1),
            ],
            &[
                ("//home/me/proj/a.rs", 2),
                ("//home/me/proj/sub/b.rs", 1),
                ("//home/me/proj/sub/c.rs", 1),
            ],
        ),
        (
            Leaf::FilesIn,
            &[("//home/me/proj", 3), ("//home/me/proj/sub", 3)],
            &[("//home/me/proj/", 3), ("//home/me/proj/sub/", 3)],
        ),
        (
            Leaf::File,
            &[("a//b/x", 2), ("a//b/y", 2), ("a/c", 1), ("///z", 1)],
            &[("a//b/", 4), ("///z", 1), ("a/c", 1)],
        ),
        (
            Leaf::FilesIn,
            &[("a//b", 2), ("a/", 1), ("/", 1), ("", 1)],
            &[("a/", 3), ("./", 1), ("/", 1)],
        ),
        // One big directory is split into its parts.
        (
            Leaf::File,
            &[
                ("packages/a/x.ts", 3000),
                ("packages/b/y.ts", 700),
                ("docs/z.md", 50),
            ],
            &[
                ("packages/a/x.ts", 3000),
                ("packages/b/y.ts", 700),
                ("docs/z.md", 50),
            ],
        ),
        (
            Leaf::FilesIn,
            &[("packages/a", 3000), ("packages/b", 700), ("docs", 50)],
            &[("packages/a/", 3000), ("packages/b/", 700), ("docs/", 50)],
        ),
        // Files in the workdir, and ties in path order.
        (
            Leaf::FilesIn,
            &[("", 3), ("b", 2), ("a", 2)],
            &[("./", 3), ("a/", 2), ("b/", 2)],
        ),
        (
            Leaf::File,
            &[("z.rs", 1), ("y.rs", 1), ("x.rs", 1), ("w.rs", 1)],
            &[("w.rs", 1), ("x.rs", 1), ("y.rs", 1)],
        ),
        (Leaf::File, &[], &[]),
        // Absolute paths keep their root.
        (
            Leaf::File,
            &[("/opt/a/x.rs", 2), ("/opt/b/y.rs", 1), ("opt/c.rs", 1)],
            &[("/opt/a/x.rs", 2), ("/opt/b/y.rs", 1), ("opt/c.rs", 1)],
        ),
        (
            Leaf::FilesIn,
            &[("/opt/a", 2), ("/opt/b", 1), ("opt", 1)],
            &[("/opt/a/", 2), ("/opt/b/", 1), ("opt/", 1)],
        ),
        // 500 files directly in src/, 3,000 under src/gen/: src/ is
        // split only if its parts lose at most a tenth of it, and they
        // lose none.
        (
            Leaf::FilesIn,
            &[("src", 500), ("src/gen", 3000), ("lib", 10)],
            &[("src/gen/", 3000), ("src/", 500), ("lib/", 10)],
        ),
    ];
    for (leaf, leaves, want) in cases {
        assert_eq!(places(leaves, leaf), named(want), "{leaf:?} {leaves:?}");
    }
}

fn places(leaves: &[(&str, usize)], leaf: Leaf) -> Vec<(String, usize)> {
    largest(leaves.iter().copied(), leaf)
}

fn named(list: &[(&str, usize)]) -> Vec<(String, usize)> {
    list.iter().map(|&(p, n)| (p.to_owned(), n)).collect()
}

#[test]
fn a_place_that_holds_nearly_all_of_its_parent_is_named_instead() {
    let mut leaves = vec![
        ("src/lib/a.rs", 100),
        ("tests/fixtures/f.rs", 500),
        ("docs/d.md", 150),
    ];
    let generated: Vec<String> = (0..31).map(|i| format!("src/gen/g{i:02}.rs")).collect();
    leaves.extend(generated.iter().map(|p| (p.as_str(), 100)));
    assert_eq!(
        places(&leaves, Leaf::File),
        named(&[
            ("src/gen/", 3100),
            ("tests/fixtures/f.rs", 500),
            ("docs/d.md", 150)
        ])
    );
}

#[test]
fn many_small_files_stay_one_directory() {
    let generated: Vec<String> = (0..38).map(|i| format!("src/gen_{i}.rs")).collect();
    let mut leaves: Vec<(&str, usize)> = generated.iter().map(|p| (p.as_str(), 1)).collect();
    leaves.extend([("tests/t1.rs", 2), ("tests/t2.rs", 2), ("tests/t3.rs", 2)]);
    assert_eq!(
        places(&leaves, Leaf::File),
        named(&[("src/", 38), ("tests/", 6)])
    );
}

#[test]
fn every_directory_splits_into_parts_that_hold_all_of_it() {
    // Names chosen so that byte order and component order differ
    // (`a-b`, `a.b` sort between `a` and `a/…` by bytes).
    let names = ["a", "a-b", "a.b", "b", "a0"];
    let mut seed: u64 = 7;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap_or(0) % n
    };
    let mut paths: Vec<String> = (0..400)
        .map(|_| {
            let depth = 1 + next(4);
            let mut p: Vec<&str> = (0..depth).map(|_| names[next(names.len())]).collect();
            if next(5) == 0 {
                p.insert(0, "");
            }
            p.join("/")
        })
        .collect();
    paths.sort();
    paths.dedup();
    for leaf in [Leaf::File, Leaf::FilesIn] {
        let leaves: Vec<(&str, usize)> = paths.iter().map(|p| (p.as_str(), p.len())).collect();
        let dir_of = |p: &str| -> String {
            match leaf {
                Leaf::File => parent_of(p).to_owned(),
                Leaf::FilesIn => p.to_owned(),
            }
        };
        // Every directory on the way to a leaf, found the slow way.
        let mut dirs: Vec<String> = vec![String::new()];
        for (p, _) in &leaves {
            let mut d = dir_of(p);
            while !d.is_empty() {
                dirs.push(d.clone());
                d = parent_of(&d).to_owned();
            }
        }
        dirs.sort();
        dirs.dedup();
        for d in &dirs {
            let held: usize = leaves
                .iter()
                .filter(|(p, _)| model_holds(d, &dir_of(p)))
                .map(|&(_, n)| n)
                .sum();
            let place = Place {
                path: d,
                kind: PlaceKind::Dir,
                count: held,
            };
            let parts = parts(&leaves, leaf, &place);
            assert_eq!(
                parts.iter().map(|p| p.count).sum::<usize>(),
                held,
                "{leaf:?} {d:?}"
            );
            for part in &parts {
                assert!(
                    model_holds(d, part.path),
                    "{leaf:?} {d:?} holds {:?}",
                    part.path
                );
                assert!(
                    part.kind != PlaceKind::Dir || part.path != d.as_str(),
                    "{d:?} is its own part"
                );
            }
            let mut names: Vec<String> = parts
                .iter()
                .map(|p| format!("{:?}{}", p.kind, p.path))
                .collect();
            let all = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), all, "{leaf:?} {d:?}: a part twice");
        }
    }
}
