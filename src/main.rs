//! dsh-search: the binary. Everything it does is the library's
//! [`dsh_search::run`]; only the allocator of the static builds is the
//! binary's own.

mod allocator;

use std::process::ExitCode;

fn main() -> ExitCode {
    dsh_search::run()
}
