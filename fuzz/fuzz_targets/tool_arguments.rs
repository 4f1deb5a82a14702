//! A tool's arguments as JSON text, for glob and for grep: a request or an
//! argument error, rendered as text and JSON (see
//! `dsh_search::fuzzing::tool_arguments`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dsh_search::fuzzing::tool_arguments(data));
