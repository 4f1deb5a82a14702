//! Integration tests: the built binary against real ripgrep in temp trees,
//! and against fake-rg scripts for the faults real rg cannot be made to show.

// The shared harness: TestDir, the command builder, fake rg scripts.
mod harness;
// A smoke test of the harness itself.
mod smoke;
// glob against real rg: order, caps, VCS dirs, path display.
mod glob;
// grep against real rg: grouping, caps, previews, paths, environment.
mod grep;
// Verbatim arguments, argument errors and usage errors.
mod arguments;
