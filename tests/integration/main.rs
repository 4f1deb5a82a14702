//! Integration tests: the built binary against real ripgrep in temp trees,
//! and against fake-rg scripts for the faults real rg cannot be made to show.

// Tests fail loudly: unwrap is the assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The shared harness: TestDir, the command builder, fake rg scripts.
mod harness;
// A smoke test of the harness itself.
mod smoke;
// The spill store: saved complete results, names, modes, refusals.
mod spill;
// --format json: one object per outcome, key order, text-mode parity.
mod json;
