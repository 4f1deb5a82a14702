//! One byte choosing the language, then a file's bytes: parsed for
//! function context (see `dsh_search::fuzzing::outline`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dsh_search::fuzzing::outline(data));
