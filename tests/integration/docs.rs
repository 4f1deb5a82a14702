//! The README and doc/ stay true: every link between them lands on a file
//! and a heading that exist, and every console example marked as run on
//! the demo tree prints what it shows, byte for byte.

use std::fs;
use std::path::{Path, PathBuf};

use crate::harness::{T0, TestDir, assert_out};

/// What marks a console block whose commands this file runs.
const CHECKED: &str = "<!-- checked: the demo tree of tests/integration/docs.rs -->";
/// The spill directory the examples name; replaced by a temp dir.
const DEMO_SPILL: &str = "/tmp/dsh-spill";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every Markdown file in doc/.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![repo().join("README.md")];
    let mut guides: Vec<PathBuf> = fs::read_dir(repo().join("doc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    docs.extend(guides);
    docs
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and
/// `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of the Markdown links `](target)` in `text`.
fn links(text: &str) -> Vec<String> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            rest.find(')').map(|end| rest[..end].to_owned())
        })
        .collect()
}

#[test]
fn every_link_lands_on_a_file_and_a_heading() {
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap();
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            assert!(
                target.exists(),
                "{}: the link ({link}) names {}, which does not exist",
                doc.display(),
                target.display()
            );
            if !fragment.is_empty() {
                let headings = anchors(&fs::read_to_string(&target).unwrap());
                assert!(
                    headings.iter().any(|h| h == fragment),
                    "{}: the link ({link}) names no heading of {}; it has {headings:?}",
                    doc.display(),
                    target.display()
                );
            }
        }
    }
}

/// The small repository the README's quick examples describe: two Rust
/// files, a README, an ignored build directory, newest first as listed.
fn demo_tree() -> TestDir {
    let t = TestDir::new();
    t.write(
        "src/main.rs",
        "fn main() {\n    let config = load_config();\n    run(config);\n}\n",
    );
    t.write(
        "src/config.rs",
        "pub fn load_config() -> Config {\n    Config::default()\n}\n",
    );
    t.write("README.md", "# demo\n\nCall load_config() first.\n");
    t.write(".gitignore", "target/\n");
    t.write("target/build.log", "build ok\n");
    let newest_first = [
        ".gitignore",
        "target/build.log",
        "src/main.rs",
        "src/config.rs",
        "README.md",
    ];
    for (i, path) in newest_first.iter().enumerate() {
        t.mtime(path, T0 - 60 * i64::try_from(i).unwrap());
    }
    t
}

/// The examples of one checked block: each `$ dsh-search …` line and the
/// lines it prints (up to the blank line before the next `$`).
fn examples(block: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push((command.to_owned(), String::new()));
        } else if let Some((_, printed)) = out.last_mut() {
            printed.push_str(line);
            printed.push('\n');
        }
    }
    for (_, printed) in &mut out {
        if printed.ends_with("\n\n") {
            printed.pop();
        }
    }
    out
}

/// Every console block after the [`CHECKED`] mark, in every document.
fn checked_blocks() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap();
        for (at, _) in text.match_indices(CHECKED) {
            let rest = &text[at + CHECKED.len()..];
            let body = rest
                .trim_start()
                .strip_prefix("```console\n")
                .unwrap_or_else(|| {
                    panic!("{}: {CHECKED} is not before a console block", doc.display())
                });
            let end = body.find("\n```").unwrap();
            out.push((doc.clone(), body[..=end].to_owned()));
        }
    }
    out
}

#[test]
fn the_checked_examples_print_what_they_show() {
    let blocks = checked_blocks();
    assert!(!blocks.is_empty(), "no example is marked {CHECKED}");
    for (doc, block) in blocks {
        for (command, printed) in examples(&block) {
            let t = demo_tree();
            let spill = t.path().join("spill");
            let spill = spill.to_str().unwrap();
            // Split first: a Windows path holds backslashes a shell would eat.
            let words: Vec<String> = shlex::split(&command)
                .unwrap_or_else(|| panic!("{}: cannot split `{command}`", doc.display()))
                .into_iter()
                .map(|word| word.replace(DEMO_SPILL, spill))
                .collect();
            assert_eq!(words[0], "dsh-search", "{}: `{command}`", doc.display());
            let out = t.cmd().args(&words[1..]).output().unwrap();
            let code = out.status.code().unwrap_or(-1);
            // The example shows the output; its exit code is the one a
            // run gives, checked to be a success or the error it shows.
            let want_failure = printed.starts_with("Error: ");
            assert_eq!(
                code != 0 && code != 1,
                want_failure,
                "{}: `{command}` exited {code}",
                doc.display()
            );
            // A locator is a path of this OS's own (`\` on Windows).
            let printed = printed
                .replace(
                    &format!("{DEMO_SPILL}/"),
                    &format!("{spill}{}", std::path::MAIN_SEPARATOR),
                )
                .replace(DEMO_SPILL, spill);
            assert_out(&out, code, &printed);
        }
    }
}
