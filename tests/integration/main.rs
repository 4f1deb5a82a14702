//! Integration tests: the built binary against real ripgrep in temp trees,
//! and against fake-rg scripts for the faults real rg cannot be made to show.

// The shared harness: TestDir, the command builder, fake rg scripts.
mod harness;
// A smoke test of the harness itself.
mod smoke;
// Fault injection: fake rg scripts, signals, timeouts, orphans, malformed output.
mod faults;
