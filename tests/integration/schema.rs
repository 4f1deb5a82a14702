//! `dsh-search schema`: the tool definitions agent frameworks register.
//! A golden file pins the exact output; a change is reviewed, then
//! accepted with `DSH_SEARCH_BLESS=1` (refused when `CI` is set). The golden
//! file itself is checked against SPEC §8, so a careless bless cannot pin a
//! wrong document.

use std::fs;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::harness::{Ran, TestDir, assert_json, assert_same_output, stdout, stdout_json};

/// glob's prompt guidance, word for word as SPEC §8 gives it.
const GLOB_GUIDANCE: &str = "Use the glob tool — not shell find or ls — to discover files by path pattern. Results are sorted by modification time and include hidden and ignored files.";
/// grep's prompt guidance, word for word as SPEC §8 gives it.
const GREP_GUIDANCE: &str = "Use the grep tool — not shell grep or rg — to search file contents. Use read on a matched file when you need surrounding context.";

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/integration/golden/schema.json")
}

fn golden() -> String {
    fs::read_to_string(golden_path()).unwrap()
}

/// `dsh-search schema` with `args` (global options), which must succeed
/// quietly.
#[track_caller]
fn schema(t: &TestDir, args: &[&str]) -> Ran {
    let out = t.cmd().args(args).arg("schema").output().unwrap();
    assert!(
        out.status.code() == Some(0) && out.stderr.is_empty(),
        "{out:?}"
    );
    out
}

/// Where two texts first differ, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    let (mut want_lines, mut got_lines) = (want.lines(), got.lines());
    for n in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => break,
            (w, g) if w == g => {}
            (w, g) => {
                return format!(
                    "first difference at line {n}:\n  golden: {}\n  actual: {}",
                    w.unwrap_or("<end of file>"),
                    g.unwrap_or("<end of output>")
                );
            }
        }
    }
    "the texts differ only in their final newline".to_owned()
}

#[test]
fn schema_matches_the_golden_file() {
    let t = TestDir::new();
    let got = stdout(&schema(&t, &[]));
    let path = golden_path();
    let want = fs::read_to_string(&path).unwrap_or_default();
    if got == want {
        return;
    }
    let bless = std::env::var_os("DSH_SEARCH_BLESS").is_some_and(|v| v == "1");
    let ci = std::env::var_os("CI").is_some();
    if bless && !ci {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &got).unwrap();
        eprintln!("rewrote {}", path.display());
        return;
    }
    panic!(
        "`dsh-search schema` differs from {}\n{}\n\
         Review the new output (`cargo run -q -- schema | diff {} -`); if it is right, refresh the golden file with\n  \
         DSH_SEARCH_BLESS=1 cargo test --test integration schema::schema_matches_the_golden_file\n{}",
        path.display(),
        first_difference(&want, &got),
        path.display(),
        if bless {
            "(DSH_SEARCH_BLESS is ignored because CI is set.)"
        } else {
            ""
        }
    );
}

/// The golden document says what SPEC §8 requires.
#[test]
fn golden_schema_says_what_the_spec_requires() {
    let document: Value = serde_json::from_str(&golden()).unwrap();
    assert_eq!(document["version"], json!(1));
    assert_eq!(
        document["instructions"],
        json!(format!("{GLOB_GUIDANCE}\n\n{GREP_GUIDANCE}"))
    );
    let tools = document["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["glob", "grep"]);
    let (glob, grep) = (&tools[0], &tools[1]);

    assert_eq!(glob["guidance"], json!(GLOB_GUIDANCE));
    assert_eq!(grep["guidance"], json!(GREP_GUIDANCE));

    // The descriptions state the default caps.
    let glob_description = glob["description"].as_str().unwrap();
    assert!(
        glob_description.contains("at most 100 paths"),
        "{glob_description}"
    );
    let grep_description = grep["description"].as_str().unwrap();
    assert!(
        grep_description.contains("at most 250 matching lines, each cut at 2000 bytes"),
        "{grep_description}"
    );

    // SPEC §3a: each argument, in table order, with its JSON type.
    let glob_fields = [
        ("pattern", "string"),
        ("path", "string"),
        ("exclude", "string"),
        ("ignore_case", "boolean"),
        ("follow", "boolean"),
        ("offset", "integer"),
        ("limit", "integer"),
    ];
    let grep_fields = [
        ("pattern", "string"),
        ("path", "string"),
        ("include", "string"),
        ("exclude", "string"),
        ("output", "string"),
        ("context", "integer"),
        ("before", "integer"),
        ("after", "integer"),
        ("function_context", "boolean"),
        ("ignore_case", "boolean"),
        ("literal", "boolean"),
        ("multiline", "boolean"),
        ("type", "string"),
        ("follow", "boolean"),
        ("offset", "integer"),
        ("limit", "integer"),
    ];
    for (tool, fields) in [(glob, &glob_fields[..]), (grep, &grep_fields)] {
        let input = &tool["input_schema"];
        assert_eq!(input["type"], json!("object"), "{tool}");
        assert_eq!(input["required"], json!(["pattern"]), "{tool}");
        assert_eq!(input["additionalProperties"], json!(false), "{tool}");
        let properties = input["properties"].as_object().unwrap();
        let got: Vec<(&str, &str)> = properties
            .iter()
            .map(|(name, p)| (name.as_str(), p["type"].as_str().unwrap()))
            .collect();
        assert_eq!(got, fields);
        for (name, property) in properties {
            let description = property["description"].as_str().unwrap();
            assert!(
                !description.is_empty() && !description.contains('\n'),
                "{name}: one line"
            );
        }
    }
    let grep_properties = &grep["input_schema"]["properties"];
    assert_eq!(
        grep_properties["output"]["enum"],
        json!(["content", "files", "count"])
    );
    for side in ["context", "before", "after"] {
        assert_eq!(
            (
                &grep_properties[side]["minimum"],
                &grep_properties[side]["maximum"]
            ),
            (&json!(0), &json!(100)),
            "{side}"
        );
    }
    assert_eq!(grep_properties["offset"]["minimum"], json!(0));
    assert_eq!(grep_properties["limit"]["minimum"], json!(1));
}

#[test]
fn descriptions_state_the_caps_in_force() {
    let t = TestDir::new();
    // The default document (pinned by the golden test) with the new caps.
    let mut want = stdout_json(&schema(&t, &[]));
    for (i, from, to) in [
        (0, "at most 100 paths", "at most 7 paths"),
        (
            1,
            "at most 250 matching lines, each cut at 2000 bytes",
            "at most 9 matching lines, each cut at 11 bytes",
        ),
    ] {
        let description = want["tools"][i]["description"].as_str().unwrap();
        assert!(description.contains(from), "{description}");
        want["tools"][i]["description"] = json!(description.replace(from, to));
    }

    let caps = [
        "--glob-max-results",
        "7",
        "--grep-max-matches",
        "9",
        "--grep-max-line-bytes",
        "11",
    ];
    assert_json(&schema(&t, &caps), 0, &want);

    // The same caps after the subcommand, and from the environment.
    let after = t.cmd().arg("schema").args(caps).output().unwrap();
    assert_json(&after, 0, &want);
    let from_env = t
        .cmd()
        .arg("schema")
        .env("DSH_SEARCH_GLOB_MAX_RESULTS", "7")
        .env("DSH_SEARCH_GREP_MAX_MATCHES", "9")
        .env("DSH_SEARCH_GREP_MAX_LINE_BYTES", "11")
        .output()
        .unwrap();
    assert_json(&from_env, 0, &want);
}

#[test]
fn schema_is_the_same_on_every_run() {
    let t = TestDir::new();
    let first = schema(&t, &[]);
    assert_same_output(&schema(&t, &[]), &first);
}
