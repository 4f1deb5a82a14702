//! The one shell-quoting function. Every model-controlled value that reaches
//! `sh -c` (pattern, path, include, the rg path) passes through [`quote`].
//!
//! The form is POSIX single quoting, always: `'` … `'`, with each `'` inside
//! written as `'\''`. Inside single quotes no character is special to `sh`,
//! so no value can expand, substitute or end the word early. Quoting every
//! value (rather than only "when necessary") keeps one rule with no
//! exceptions: reserved words, `=` in command position and `~` never need a
//! second thought.
//!
//! A NUL byte cannot cross `sh -c` (C strings end there). It is refused
//! where values come in: the request rules reject it as an argument error
//! (SPEC §3), and the rg path and the workdir come from the operating
//! system, which cannot hold one. Were one to slip through, std refuses to
//! start a process whose arguments hold a NUL, so the call would fail to
//! start, never run a different command.

/// Quote `value` as one POSIX shell word.
pub fn quote(value: &str) -> String {
    // Quoting adds only ASCII around and between whole characters.
    String::from_utf8(quote_bytes(value.as_bytes()))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Quote the bytes `value` as one POSIX shell word: a file's path, which
/// on Unix is any bytes but NUL (the index's candidates, doc/SPEC.md §11).
pub fn quote_bytes(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len() + 2);
    out.push(b'\'');
    for &b in value {
        if b == b'\'' {
            out.extend_from_slice(br"'\''");
        } else {
            out.push(b);
        }
    }
    out.push(b'\'');
    out
}

#[cfg(test)]
#[path = "../../tests/unit/rg/quote.rs"]
mod tests;
