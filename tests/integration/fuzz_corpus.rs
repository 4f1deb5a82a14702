//! The fuzz targets' seeds, each run through its target's function of
//! `dsh_search::fuzzing` as libFuzzer runs them first: on stable, with
//! every other test (the suite's dev-dependency on this crate turns the
//! `fuzzing` feature on), so a change that breaks a target's rules on a
//! seed fails here before any fuzzing. A target's seeds are its committed
//! corpus (`fuzz/corpus/<target>/`: small hand-made inputs, and inputs
//! that once crashed it, once fixed: a seed that crashes fails this test
//! and `scripts/fuzz`) and the inputs made from the suite's own fixtures
//! ([`derived`]), which `scripts/fuzz --seeds` makes the same way for
//! libFuzzer (checked here too).

use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir`, by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
}

/// The seeds of `target` made from the suite's files, named as
/// `scripts/fuzz --seeds` names them: for `outline`, each fixture of
/// function context (`fixture-NAME`) behind the byte that picks its
/// language; for `tool_arguments`, the schema's golden file
/// (`golden-schema.json`), a large JSON object that is no tool's
/// arguments.
fn derived(target: &str) -> Vec<(String, Vec<u8>)> {
    let integration = repo().join("tests/integration");
    match target {
        "outline" => files(&integration.join("fixtures/function_context"))
            .iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let seed = dsh_search::fuzzing::outline_seed(&name, &fs::read(path).unwrap())
                    .unwrap_or_else(|| {
                        panic!("{}: no language of function context", path.display())
                    });
                (format!("fixture-{name}"), seed)
            })
            .collect(),
        "tool_arguments" => vec![(
            "golden-schema.json".to_owned(),
            fs::read(integration.join("golden/schema.json")).unwrap(),
        )],
        _ => Vec::new(),
    }
}

fn replay(target: &str, run: fn(&[u8])) {
    let dir = repo().join("fuzz/corpus").join(target);
    let mut seeds: Vec<(String, Vec<u8>)> = files(&dir)
        .iter()
        .map(|path| (path.display().to_string(), fs::read(path).unwrap()))
        .collect();
    seeds.extend(derived(target));
    assert!(
        seeds.len() >= 10,
        "{target}: {} seeds in {} and from the fixtures",
        seeds.len(),
        dir.display()
    );
    for (name, data) in seeds {
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target} fails on its seed {name}");
    }
}

#[test]
fn mcp_line_seeds() {
    replay("mcp_line", dsh_search::fuzzing::mcp_line);
}

#[test]
fn tool_arguments_seeds() {
    replay("tool_arguments", dsh_search::fuzzing::tool_arguments);
}

#[test]
fn rg_output_seeds() {
    replay("rg_output", dsh_search::fuzzing::rg_output);
}

#[test]
fn outline_seeds() {
    replay("outline", dsh_search::fuzzing::outline);
}

/// `scripts/fuzz --seeds DIR` writes, for libFuzzer, exactly the seeds
/// this file replays from the fixtures: the same names and bytes (its
/// table of languages is the one `fuzzing::outline_seed` reads).
// Unix only: the script is bash.
#[cfg(unix)]
#[test]
fn scripts_fuzz_makes_the_seeds_replayed_here() {
    let out = tempfile::tempdir().unwrap();
    let script = repo().join("scripts/fuzz");
    let what = format!(
        "`bash {} --seeds {}`",
        script.display(),
        out.path().display()
    );
    let ran = std::process::Command::new("bash")
        .arg(&script)
        .arg("--seeds")
        .arg(out.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what} did not start: {e}"));
    assert!(
        ran.status.success(),
        "{}",
        crate::harness::transcript(&what, &ran)
    );
    for target in ["mcp_line", "tool_arguments", "rg_output", "outline"] {
        let want = derived(target);
        let dir = out.path().join(target);
        let got: Vec<(String, Vec<u8>)> = if dir.exists() {
            files(&dir)
                .iter()
                .map(|path| {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    (name, fs::read(path).unwrap())
                })
                .collect()
        } else {
            Vec::new()
        };
        let names = |seeds: &[(String, Vec<u8>)]| -> Vec<String> {
            seeds.iter().map(|(name, _)| name.clone()).collect()
        };
        assert_eq!(names(&got), names(&want), "{what}: the {target} seeds");
        for ((name, got), (_, want)) in got.iter().zip(&want) {
            assert!(
                got == want,
                "{what}: {target}/{name} differs: its first bytes are {:?}, not {:?}",
                &got[..got.len().min(8)],
                &want[..want.len().min(8)]
            );
        }
    }
}
