//! Lines of an MCP session, as a client sent them, to one server whose rg
//! cannot be found: every reply must be one line of JSON-RPC 2.0 (see
//! `dsh_search::fuzzing::mcp_line`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dsh_search::fuzzing::mcp_line(data));
