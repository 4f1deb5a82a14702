//! Four header bytes choosing the search and its caps, then rg's stdout:
//! through the sink, the judgement and the paging to the rendered page
//! (see `dsh_search::fuzzing::rg_output` for the header).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dsh_search::fuzzing::rg_output(data));
