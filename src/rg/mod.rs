//! Everything that knows about `sh`, `rg` and processes: the quoting
//! function, the command lines, the runner (with its feed, its bounded
//! stderr and the one account of how a run ended) and the `--json` model.

pub mod command;
mod ending;
mod feed;
pub mod giant;
pub mod json;
pub mod process;
// `sh -c` is Unix's; Windows starts rg with its words (SPEC §10).
#[cfg(any(unix, test, feature = "fuzzing"))]
pub mod quote;
mod stderr;

pub use ending::{Ending, RgExit};
pub use feed::{ListingSink, Sink};
pub use stderr::Stderr;

/// The most of a record an error message quotes.
const EXCERPT: usize = 80;

/// What an unparsable record held, for the error that names it (SPEC §6:
/// say what was read, not guess why): `read "<its first bytes>"`, at most
/// [`EXCERPT`] bytes cut at a character boundary, `…` after a cut, decoded
/// lossily. Control characters stay: the message escapes them when shown.
pub fn read_excerpt(record: &[u8]) -> String {
    let mut end = record.len().min(EXCERPT);
    // Back off a character the cut split (at most 3 continuation bytes).
    let mut back = 0;
    while end < record.len() && back < 3 && end > 0 && record[end] & 0xC0 == 0x80 {
        end -= 1;
        back += 1;
    }
    let cut = if end < record.len() { "…" } else { "" };
    format!("read \"{}{cut}\"", String::from_utf8_lossy(&record[..end]))
}

#[cfg(test)]
#[path = "../../tests/unit/rg.rs"]
mod tests;
