//! The unit tests' layout (doc/DEVELOPMENT.md "Tests"): every file in
//! `tests/unit/` is the `tests` module of the `src/` module at its path,
//! and that module declares it. A file no module declares would never be
//! compiled, so its tests would pass by not running.

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.rs` files below `dir`, in order.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The `src/` file of the module whose tests `unit` (a path below
/// `tests/unit/`) holds: `a/b.rs` is `src/a/b.rs`, or `src/a/b/mod.rs`.
fn module_of(unit: &Path) -> PathBuf {
    let file = repo().join("src").join(unit);
    if file.exists() {
        return file;
    }
    repo()
        .join("src")
        .join(unit.with_extension(""))
        .join("mod.rs")
}

/// The path a `#[path]` in `module` gives to reach `unit`.
fn path_from(module: &Path, unit: &Path) -> String {
    let dir = module.parent().unwrap().strip_prefix(repo()).unwrap();
    let up = "../".repeat(dir.components().count());
    format!("{up}tests/unit/{}", unit.display()).replace('\\', "/")
}

#[test]
fn every_unit_test_file_is_the_tests_module_of_the_module_at_its_path() {
    let units = repo().join("tests/unit");
    let mut declared = 0;
    for file in sources(&units) {
        let unit = file.strip_prefix(&units).unwrap();
        let module = module_of(unit);
        let text = fs::read_to_string(&module).unwrap_or_else(|e| {
            panic!(
                "tests/unit/{} has no module at its path ({}: {e})",
                unit.display(),
                module.display()
            )
        });
        let declaration = format!("#[path = \"{}\"]\nmod tests;\n", path_from(&module, unit));
        // The attributes above it, `#[cfg(test)]` among them.
        let attributes: Vec<&str> = text
            .strip_suffix(&declaration)
            .unwrap_or_default()
            .lines()
            .rev()
            .take_while(|l| l.starts_with("#["))
            .collect();
        assert!(
            attributes.contains(&"#[cfg(test)]"),
            "{} does not end by declaring its tests, tests/unit/{}, as\n#[cfg(test)]\n{declaration}",
            module.display(),
            unit.display()
        );
        declared += 1;
    }
    // And no module keeps its tests elsewhere.
    let mut pointing = 0;
    for module in sources(&repo().join("src")) {
        let text = fs::read_to_string(&module).unwrap();
        let tail = text.lines().rev().nth(1).unwrap_or_default();
        if text.contains("mod tests") {
            assert!(
                tail.starts_with("#[path = \"") && tail.contains("tests/unit/"),
                "{} holds or declares its tests outside tests/unit/",
                module.display()
            );
            pointing += 1;
        }
    }
    assert_eq!(
        declared, pointing,
        "tests/unit/ files against modules declaring them"
    );
}
