//! Benchmark for dsh-search: the command line and the glue between its two
//! halves, the deterministic corpus generator (`corpus.rs`) and the timing
//! harness that compares each dsh-search call with the raw `rg` command it
//! wraps (`timing.rs`).
//!
//! ```text
//! cargo run --release --locked --example bench -- all /tmp/dsh-corpus [--scale 1] [--runs 7]
//!
//! # or step by step:
//! cargo build --release --locked                  # the binary under test
//! cargo run --release --locked --example bench -- corpus /tmp/dsh-corpus [--scale 1]
//! cargo run --release --locked --example bench -- run /tmp/dsh-corpus \
//!     [--runs 7] [--bin target/release/dsh-search] [--out table.md]
//! cargo run --release --locked --example bench -- index /tmp/dsh-corpus \
//!     [--runs 7] [--bin target/release/dsh-search] [--out index.md]
//! ```
//!
//! `corpus DIR [--scale F]` writes a synthetic repository (see `corpus.rs`);
//! `run DIR` times dsh-search against raw rg on it and prints a Markdown
//! table (see `timing.rs`); `index DIR` times grep through one long-lived
//! `dsh-search mcp` that has built its index against raw rg, and prints a
//! second table; `all DIR` builds dsh-search, writes the corpus unless DIR
//! already holds one of that scale and version, and does both.

mod corpus;
mod timing;

use std::env;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::{Parser, Subcommand};

type BoxError = Box<dyn Error + Send + Sync>;
type Result<T, E = BoxError> = std::result::Result<T, E>;

/// Corpus generator and timing harness for dsh-search (see the file's docs).
#[derive(Debug, Parser)]
#[command(name = "bench")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Write the deterministic corpus into DIR (empty, or a corpus written before)
    Corpus {
        dir: PathBuf,
        /// Size factor: 1 is about 200,000 files and 300 MB
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
    },
    /// Everything in one command: build dsh-search (release), write the
    /// corpus unless DIR already holds one of this scale and version, then
    /// run and index
    All {
        dir: PathBuf,
        /// Size factor: 1 is about 200,000 files and 300 MB
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
        /// Timed rounds, after one warm-up round
        #[arg(long, default_value_t = 7)]
        runs: usize,
        /// Also write the Markdown tables to FILE
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Time dsh-search against the raw rg commands on the corpus in DIR
    Run {
        dir: PathBuf,
        /// Timed rounds, after one warm-up round
        #[arg(long, default_value_t = 7)]
        runs: usize,
        /// The dsh-search binary [default: target/release/dsh-search]
        #[arg(long)]
        bin: Option<PathBuf>,
        /// Only the cases whose name holds this text (repeatable)
        #[arg(long, value_name = "TEXT")]
        only: Vec<String>,
        /// Also write the Markdown table to FILE
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Time grep through one `dsh-search mcp` that has built its index
    /// against the raw rg commands on the corpus in DIR
    Index {
        dir: PathBuf,
        /// Timed rounds, after one warm-up round
        #[arg(long, default_value_t = 7)]
        runs: usize,
        /// The dsh-search binary [default: target/release/dsh-search]
        #[arg(long)]
        bin: Option<PathBuf>,
        /// Also write the Markdown table to FILE
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Corpus { dir, scale } => corpus::write(&dir, scale),
        Cmd::All {
            dir,
            scale,
            runs,
            out,
        } => all(&dir, scale, runs, out.as_deref()),
        Cmd::Run {
            dir,
            runs,
            bin,
            only,
            out,
        } => {
            timing::run(&dir, runs, bin, &only).and_then(|table| write_out(out.as_deref(), &table))
        }
        Cmd::Index {
            dir,
            runs,
            bin,
            out,
        } => timing::index(&dir, runs, bin).and_then(|table| write_out(out.as_deref(), &table)),
    };
    timing::remove_runtime_dir();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `bench all`: build, reuse or write the corpus, run, index.
fn all(dir: &Path, scale: f64, runs: usize, out: Option<&Path>) -> Result<()> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--release", "--locked", "--bin", "dsh-search"])
        .status()?;
    if !built.success() {
        return Err("cargo build --release --locked failed".into());
    }
    let reusable = corpus::recorded(dir).is_some_and(|recorded| {
        recorded.scale == scale.to_string() && recorded.version == corpus::VERSION
    });
    if reusable {
        println!(
            "bench: reusing the scale-{scale} corpus in {}",
            dir.display()
        );
    } else {
        corpus::write(dir, scale)?;
    }
    let run = timing::run(dir, runs, None, &[])?;
    println!();
    let index = timing::index(dir, runs, None)?;
    write_out(out, &format!("{run}\n{index}"))
}

/// Write `table` to `out`, if given.
fn write_out(out: Option<&Path>, table: &str) -> Result<()> {
    if let Some(out) = out {
        fs::write(out, table)?;
    }
    Ok(())
}

/// Bytes as MiB, for the corpus summary and the table.
#[expect(clippy::cast_precision_loss, reason = "sizes are far below 2^52")]
fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
