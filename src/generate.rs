//! The hidden `generate --out-dir DIR` subcommand: man pages (`clap_mangen`)
//! into `DIR/man/` and shell completions (`clap_complete`) into
//! `DIR/completions/`, all from the same clap definition as the parser.
//!
//! The repository keeps the output of `dsh-search generate --out-dir .`
//! committed; a test regenerates it and fails when it is stale. The output
//! is byte-stable: no dates, and clap shows no environment values (run it
//! with no `DSH_SEARCH_*` variables set). Generation lives in the binary,
//! not in `build.rs`, so packagers can run the same command.

use std::fs;
use std::io;
use std::path::Path;

use clap_complete::Shell;

/// Write every man page and completion file for `cmd` under `out`.
pub fn write_all(cmd: &clap::Command, out: &Path) -> io::Result<()> {
    let man = out.join("man");
    let completions = out.join("completions");
    fs::create_dir_all(&man)?;
    fs::create_dir_all(&completions)?;
    clap_mangen::generate_to(cmd.clone(), &man)?;
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut cmd = cmd.clone();
        clap_complete::generate_to(shell, &mut cmd, "dsh-search", &completions)?;
    }
    Ok(())
}
