//! Integration tests: the built binary against real ripgrep in temp trees,
//! and against fake-rg scripts for the faults real rg cannot be made to show.

// Tests fail loudly: unwrap is the assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `call TOOL ARGS`: JSON arguments from argv or stdin, same output as argv.
mod call;
// The shared harness: TestDir, the command builder, fake rg scripts.
mod harness;
// `mcp`: the MCP server over real pipes, every reply asserted.
mod mcp;
// `schema`: the tool definitions, pinned by a golden file.
mod schema;
// A smoke test of the harness itself.
mod smoke;
