//! Integration tests: the built binary against real ripgrep in temp trees,
//! and against fake-rg scripts for the faults real rg cannot be made to show.

// Tests fail loudly: unwrap is the assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `call TOOL ARGS`: JSON arguments from argv or stdin, same output as argv.
mod call;
// The shared harness: TestDir, the command builder, fake rg scripts.
mod harness;
// Watching processes: bounded polls, sleepers a fake rg starts, bounded waits.
#[cfg(unix)]
mod procs;
// `mcp`: the MCP server over real pipes, both protocol eras, every reply asserted.
mod mcp;
// `schema`: the tool definitions, pinned by a golden file.
mod schema;
// A smoke test of the harness itself.
mod smoke;
// man/ and completions/ match the clap definition; --help and --version.
mod generated;
// --explain on stderr, stdout unchanged.
mod explain;
// The MCP server's index: the scan's bytes while the tree changes (it
// answers on Linux only: elsewhere every call scans).
#[cfg(target_os = "linux")]
mod index;
// glob against real rg: order, caps, VCS dirs, path display.
mod glob;
// grep against real rg: grouping, caps, previews, paths, environment.
mod grep;
// Matches in binary files: listed, their lines never shown.
mod binary;
// stdout and stderr that cannot be written.
mod output;
// Messages that say what is wrong and what to do.
mod messages;
// Verbatim arguments, argument errors and usage errors.
mod arguments;
// Fault injection: fake rg scripts, signals, timeouts, orphans, malformed output.
mod faults;
// Bounds whatever the children do: strays outside the group, glob's stat
// phase, fatal signals, SIGKILL, an rg planted in the tree.
#[cfg(unix)]
mod bounds;
// The spill store: saved complete results, names, modes, refusals.
mod spill;
// --format json: one object per outcome, key order, text-mode parity.
mod json;
// Where to look next: probes of empty results, remainder lines, timeout pages.
mod hints;
// The README and doc/: links that land, examples that print what they show.
mod docs;
// Each module's unit tests in tests/unit/, at its path, declared by it.
mod layout;
// The optional arguments: output modes, context, case, literal, multiline, type.
mod modes;
// exclude, follow, the link probe, and rg's letters (-C, -L).
mod filters;
// Stable pages: offset and limit, headers, next-page lines, past the end.
mod pages;
// The three output modes agree on every kind of path: a property over
// generated trees, paths and options (symbolic links: Unix).
#[cfg(unix)]
mod agree;
// The watchdog: the deadline and SIGTERM end a call stuck in our own work.
mod watchdog;
// Windows (SPEC §10): the Job Object, console events, a planted rg.exe,
// separators, the command line rg receives.
#[cfg(windows)]
mod windows;
// The fuzz targets' seeds (fuzz/corpus/, and those made from the fixtures), replayed on stable.
mod fuzz_corpus;
// function_context (-W): each match inside its definition, one fixture per language.
mod function_context;
// function_context where the parse is the question: syntax errors in nine
// languages, a doc comment that makes a function long, a large file.
mod function_context_parse;
