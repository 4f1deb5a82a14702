//! The global allocator of the static musl builds (the release archives
//! for `x86_64-unknown-linux-musl` and `aarch64-unknown-linux-musl`):
//! jemalloc, as ripgrep uses on musl. Every other build keeps the system
//! allocator (glibc's and macOS's are fast, and a plain `cargo build`
//! compiles no C for this).
//!
//! musl's malloc takes one lock for every call, and a grep that parses
//! fast while rg writes (the reader and the parser thread both allocate)
//! pays for it. Measured on the benchmark corpus (2-core VM, rg 14.1.1,
//! one interleaved series of 31 runs, ratio to the raw `rg --json | head
//! -c 20000000`): the overflow grep `the` took 1.09× with glibc, 1.22×
//! with musl's malloc, 1.08× with jemalloc, 1.07× with mimalloc (but with
//! a wide spread, and mimalloc's arenas tripled dsh-search's own memory
//! on most cases: 30 MiB against 6 MiB). The other cases of `bench run`
//! did not move beyond the run-to-run noise with either allocator.
//!
//! On aarch64 jemalloc fixes its page size when it is built; the release
//! build sets `JEMALLOC_SYS_WITH_LG_PAGE=16` (64 KiB), which runs on 4, 16
//! and 64 KiB kernels alike (scripts/release).

#[cfg(all(target_env = "musl", target_pointer_width = "64"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;
