//! The seeds of the fuzz targets (`fuzz/corpus/<target>/`), each run
//! through its target's function of `dsh_search::fuzzing`, as libFuzzer
//! runs them first: on stable, with every other test, so a change that
//! breaks a target's rules on a seed fails here before any fuzzing. Inputs
//! that once crashed a target belong here too, as regression seeds, once
//! fixed (a seed that crashes fails this test and `scripts/fuzz`).

use std::fs;
use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut seeds: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    seeds.sort();
    assert!(
        seeds.len() >= 10,
        "{}: {} seeds",
        dir.display(),
        seeds.len()
    );
    for seed in seeds {
        let data = fs::read(&seed).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target} fails on {}", seed.display());
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
