//! Unit tests of `src/cli.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use clap::CommandFactory;

#[test]
fn verify_cli() {
    Cli::command().debug_assert();
}

#[test]
fn global_options_go_anywhere_and_dashes_pass_after_double_dash() {
    let cli = Cli::try_parse_from([
        "dsh-search",
        "grep",
        "--grep-max-matches",
        "7",
        "--include",
        "-x*",
        "--",
        "-e",
        "-dir",
    ])
    .unwrap();
    assert_eq!(cli.global.grep_max_matches.get(), 7);
    let Command::Grep(Argv(args)) = cli.command else {
        panic!("grep")
    };
    let want = GrepArgs {
        pattern: "-e".into(),
        path: Some("-dir".into()),
        include: Some("-x*".into()),
        ..GrepArgs::default()
    };
    assert_eq!(args, want);
}

/// The command line of each tool is its table: every argument, in
/// order, required as the table says.
#[test]
fn tool_subcommands_follow_the_argument_table() {
    let cmd = Cli::command();
    for tool in Tool::ALL {
        let sub = cmd.find_subcommand(tool.as_str()).unwrap();
        let got: Vec<(&str, bool, bool)> = sub
            .get_arguments()
            .filter(|a| !a.is_global_set())
            .map(|a| (a.get_id().as_str(), a.is_required_set(), a.is_positional()))
            .collect();
        let want: Vec<(&str, bool, bool)> = tool
            .arguments()
            .iter()
            .map(|a| (a.name, a.required, a.positional))
            .collect();
        assert_eq!(got, want, "{tool}");
    }
}

#[test]
fn the_exit_status_help_is_the_table() {
    assert_eq!(
        exit_status_help(),
        "Exit status: 0 results, 1 nothing found, 2 usage or argument error,\n3 pattern rejected by ripgrep, 4 search failed, 5 raw output over the cap,\n6 timed out or interrupted."
    );
}

/// The number options: each default is SPEC §1's, each flag sets
/// exactly its own field, each variable is the one SPEC §1 names, and
/// 0 is refused naming the flag.
#[test]
fn number_options() {
    type Getter = fn(&Settings) -> u64;
    let options = |args: &[&str]| {
        let mut argv = vec!["dsh-search"];
        argv.extend(args);
        argv.push("schema");
        Cli::try_parse_from(argv).map(|cli| cli.global.settings())
    };
    let table: [(&str, &str, u64, Getter); 5] = [
        (
            "glob-max-results",
            "DSH_SEARCH_GLOB_MAX_RESULTS",
            100,
            |o| o.limits.glob_max_results.get() as u64,
        ),
        (
            "grep-max-matches",
            "DSH_SEARCH_GREP_MAX_MATCHES",
            250,
            |o| o.limits.grep_max_matches.get() as u64,
        ),
        (
            "grep-max-line-bytes",
            "DSH_SEARCH_GREP_MAX_LINE_BYTES",
            2000,
            |o| o.limits.grep_max_line_bytes.get() as u64,
        ),
        (
            "raw-output-max-bytes",
            "DSH_SEARCH_RAW_OUTPUT_MAX_BYTES",
            20_000_000,
            |o| o.limits.raw_output_max_bytes.get(),
        ),
        ("timeout-ms", "DSH_SEARCH_TIMEOUT_MS", 30_000, |o| {
            o.timeout_ms.get()
        }),
    ];
    let defaults = options(&[]).unwrap();
    let cmd = Cli::command();
    for (long, env, default, field) in table {
        assert_eq!(field(&defaults), default, "--{long} default");
        let set = options(&[&format!("--{long}"), "7"]).unwrap();
        for (other, _, _, other_field) in table {
            let want = if other == long {
                7
            } else {
                other_field(&defaults)
            };
            assert_eq!(other_field(&set), want, "--{long} sets only its field");
        }
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(long))
            .unwrap();
        assert_eq!(arg.get_env().and_then(|e| e.to_str()), Some(env));
        let err = options(&[&format!("--{long}"), "0"]).unwrap_err();
        assert!(err.to_string().contains(&format!("--{long}")), "{err}");
    }
}
