//! The README and doc/ stay true: every link between them lands on a file
//! and a heading that exist, and every console example marked as run on
//! the demo tree prints what it shows, byte for byte. The contract the
//! code cites is in the repository: every `SPEC §N` names a section of
//! doc/SPEC.md, and nothing cites a document outside the repository.

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
                "{}: `{command}` exited {code}: {out:?}",
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

/// The contract the code cites as `SPEC §N`.
const SPEC: &str = "doc/SPEC.md";

/// The sections of doc/SPEC.md, in order: the numbering the citations in
/// the code were written against. A section may be added; removing or
/// renumbering one breaks the citations of it.
const SECTIONS: [&str; 14] = [
    "1", "2", "3", "3a", "3b", "4", "4a", "5", "6", "7", "8", "9", "10", "11",
];

/// The folders whose files may cite the contract (all of them, at any
/// depth, but build output).
const CITING_DIRS: [&str; 5] = ["src", "tests", "scripts", ".ci", "examples"];
/// Files at the top of the repository that may cite it too (besides the
/// README and doc/, see [`documents`]).
const CITING_FILES: [&str; 2] = ["Cargo.toml", "pyproject.toml"];

/// Every file under [`CITING_DIRS`], plus [`CITING_FILES`], the README and
/// doc/*.md: the text files a citation or a reference may be in.
fn citing_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                // Build output (a fuzz or helper crate's) is not ours.
                if path.file_name().is_some_and(|n| n != "target") {
                    walk(&path, out);
                }
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in CITING_DIRS {
        walk(&repo().join(dir), &mut files);
    }
    files.extend(CITING_FILES.iter().map(|f| repo().join(f)));
    files.extend(documents());
    files
}

/// `path` relative to the repository, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The sections of the contract: for each `## §N. Title` heading (outside
/// code blocks), `N` and the titles of the `###` headings inside it.
fn spec_sections() -> Vec<(String, Vec<String>)> {
    let text = fs::read_to_string(repo().join(SPEC))
        .unwrap_or_else(|e| panic!("{SPEC} cannot be read: {e}; the code cites it as SPEC §N"));
    let mut fenced = false;
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.starts_with("```") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("## ") {
            let Some((id, _)) = rest.strip_prefix('§').and_then(|r| r.split_once(". ")) else {
                panic!("{SPEC}: the heading `{line}` is not of the form `## §N. Title`")
            };
            sections.push((id.to_owned(), Vec::new()));
        } else if let Some(title) = line.strip_prefix("### ") {
            if let Some((_, subsections)) = sections.last_mut() {
                subsections.push(title.trim().to_owned());
            }
        }
    }
    sections
}

/// One `§N` (and the `"Subsection"` quoted right after it, if any) cited
/// at a line of a file.
#[derive(Debug)]
struct Citation {
    at: String,
    section: String,
    subsection: Option<String>,
}

/// Every `§N` in `text`: a section number and an optional lower-case
/// letter (`§3a`), as in `SPEC §3a`, `SPEC §2, §4` or a citation broken
/// across comment lines (`SPEC` / `§4a`). No other document uses `§`, so
/// each is a citation of the contract. A `§` without a number after it
/// (`SPEC §N` in prose) is none.
fn citations(file: &str, text: &str) -> Vec<Citation> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        for (i, _) in line.match_indices('§') {
            let rest = &line[i + '§'.len_utf8()..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                continue;
            }
            let letter = rest[digits..]
                .chars()
                .next()
                .filter(char::is_ascii_lowercase)
                .filter(|_| {
                    // `§3a`, not the `s` of `§3's` or a word run on.
                    !rest[digits + 1..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphanumeric)
                });
            let end = digits + letter.map_or(0, char::len_utf8);
            // The quoted title after it, on this line or, when the line
            // ends there, at the start of the next comment line.
            let after = match rest[end..].trim_end() {
                "" => lines.get(n + 1).map_or("", |next| {
                    next.trim_start()
                        .trim_start_matches(['/', '!', '#', '*'])
                        .trim_start()
                }),
                here => here.strip_prefix(' ').unwrap_or(""),
            };
            let subsection = after
                .strip_prefix('"')
                .and_then(|r| r.split_once('"'))
                .map(|(title, _)| title.to_owned());
            out.push(Citation {
                at: format!("{file}:{}", n + 1),
                section: rest[..end].to_owned(),
                subsection,
            });
        }
    }
    out
}

#[test]
fn the_spec_keeps_the_numbering_the_code_cites() {
    let sections = spec_sections();
    let ids: Vec<&str> = sections.iter().map(|(id, _)| id.as_str()).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        ids.len(),
        "{SPEC}: a section number twice: {ids:?}"
    );
    // Each of SECTIONS, in this order (others may come between).
    let mut rest = ids.iter();
    for want in SECTIONS {
        assert!(
            rest.any(|id| *id == want),
            "{SPEC}: no `## §{want}. Title` heading in its place; its sections are {ids:?}, and the code was written against {SECTIONS:?}"
        );
    }
}

#[test]
fn every_spec_citation_names_a_section_of_the_spec() {
    let sections = spec_sections();
    let headings: Vec<String> = sections.iter().map(|(id, _)| format!("§{id}")).collect();
    let mut broken = Vec::new();
    let mut cited = 0;
    for file in citing_files() {
        // Not text (a binary fixture): it cites nothing.
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for c in citations(&shown(&file), &text) {
            cited += 1;
            let Some((_, subsections)) = sections.iter().find(|(id, _)| *id == c.section) else {
                broken.push(format!(
                    "{}: cites §{}, which {SPEC} has no heading for",
                    c.at, c.section
                ));
                continue;
            };
            if let Some(sub) = &c.subsection {
                if !subsections.contains(sub) {
                    broken.push(format!(
                        "{}: cites §{} \"{sub}\", but §{} of {SPEC} has no `### {sub}` heading (it has {subsections:?})",
                        c.at, c.section, c.section
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{}\n{SPEC}'s sections are {}",
        broken.join("\n"),
        headings.join(", ")
    );
    // The scan itself works: the code cites the contract.
    assert!(cited > 100, "only {cited} citations of SPEC §N found");
}

/// What marks a reference to a document outside the repository, matched
/// case-insensitively, and what to write instead. `../shared` alone is no
/// mark: the link probe's examples and tests hold a symbolic link to
/// `../shared/docs` in a test tree, which is data, not a document.
const OUTSIDE: [(&str, &str); 9] = [
    (
        "shared/spec",
        "the contract outside the repository: cite doc/SPEC.md as SPEC §N",
    ),
    (
        "shared/seed",
        "the original package's README outside the repository: state the rule itself",
    ),
    (
        "seed/",
        "the original package's README outside the repository: state the rule itself",
    ),
    (
        "shared/tools",
        "a folder outside the repository: say what the project's own copy does",
    ),
    (
        "the seed",
        "the original package, which a clone does not have: state the rule itself (a random seed: say \"RNG seed\")",
    ),
    (
        "seed's",
        "the original package, which a clone does not have: state the rule itself",
    ),
    (
        "typescript original",
        "the original package, which a clone does not have: state the rule itself",
    ),
    (
        "original tool",
        "the original package, which a clone does not have: state the rule itself",
    ),
    (
        "tool-fs-search",
        "the original package, which a clone does not have: state the rule itself",
    ),
];

/// The references to outside documents in one line: each mark of
/// [`OUTSIDE`] that stands as a word (not inside a longer one: `seeds`,
/// `reseed's`), and an absolute path into the workspace (`/work/…`, but
/// not `C:/work` or `/tmp/work/`).
fn outside_references(line: &str) -> Vec<(&'static str, &'static str)> {
    let lower = line.to_lowercase();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut found = Vec::new();
    for (mark, instead) in OUTSIDE {
        let stands = lower.match_indices(mark).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + mark.len()..].chars().next();
            let starts_word = mark.starts_with(char::is_alphanumeric);
            let ends_word = mark.ends_with(char::is_alphanumeric);
            let runs_on = (starts_word && word(before)) || (ends_word && word(after));
            !runs_on
        });
        if stands {
            found.push((mark, instead));
        }
    }
    let rooted = lower.match_indices("/work/").any(|(i, _)| {
        lower[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && !matches!(c, '/' | ':' | '.' | '_' | '-' | '~'))
    });
    if rooted {
        found.push((
            "/work/",
            "a path on the machine the project was written on: name a file in the repository",
        ));
    }
    found
}

#[test]
fn nothing_cites_a_document_outside_the_repository() {
    // This file names the marks it looks for.
    let this = repo().join("tests/integration/docs.rs");
    let mut broken = Vec::new();
    for file in citing_files() {
        if file == this {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let found = outside_references(line);
            let Some((_, instead)) = found.first() else {
                continue;
            };
            let marks: Vec<String> = found.iter().map(|(m, _)| format!("`{m}`")).collect();
            broken.push(format!(
                "{}:{}: {}\n    {} refers outside the repository: {instead}",
                shown(&file),
                n + 1,
                line.trim(),
                marks.join(", ")
            ));
        }
    }
    assert!(
        broken.is_empty(),
        "A clone has only the repository; these lines point outside it:\n{}",
        broken.join("\n")
    );
}

/// The checks above, on lines whose answer is known.
#[test]
fn the_citation_and_reference_checks_read_lines_as_meant() {
    let found = |text: &str| -> Vec<(String, Option<String>)> {
        citations("f", text)
            .into_iter()
            .map(|c| (c.section, c.subsection))
            .collect()
    };
    let plain = |s: &str| (s.to_owned(), None);
    assert_eq!(
        found("// SPEC §2, §3b and §4a; SPEC §3's rules; SPEC §N"),
        [plain("2"), plain("3b"), plain("4a"), plain("3")]
    );
    assert_eq!(found("/// (SPEC\n/// §10)"), [plain("10")]);
    assert_eq!(
        found("//! (SPEC §6\n//! \"Output\"): …"),
        [("6".to_owned(), Some("Output".to_owned()))]
    );
    assert_eq!(
        found(r#"SPEC §6 "Output": …"#),
        [("6".to_owned(), Some("Output".to_owned()))]
    );
    assert_eq!(found("§4an"), [plain("4")]);
    assert_eq!(citations("f", "a\n§1")[0].at, "f:2");

    let marks = |line: &str| -> Vec<&str> {
        outside_references(line)
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    };
    assert_eq!(marks("/// The seed's guidance"), ["the seed", "seed's"]);
    assert_eq!(marks("see /work/shared/SPEC.md"), ["shared/spec", "/work/"]);
    assert_eq!(
        marks("# (Adapted from the workspace's shared/tools/x)"),
        ["shared/tools"]
    );
    assert_eq!(
        marks("as the TypeScript original allows"),
        ["typescript original"]
    );
    for fine in [
        "/// The RNG seed of the property's cases",
        "/// seeds, reseeded",
        "symlink(\"../shared/docs\", dir)",
        "w.display(b\"/nonexistent/work/src/a.rs\")",
        "w.display(b\"C:/work/src/a.rs\")",
        "// the original line, before decoding",
    ] {
        assert_eq!(marks(fine), Vec::<&str>::new(), "{fine}");
    }
}
