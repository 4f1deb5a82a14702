//! Text made safe to show: control characters escaped (SPEC §4). Below
//! both the renderers and the error messages, which quote paths and rg's
//! text, so neither has to reach up into the other.

use std::borrow::Cow;
use std::fmt::Write as _;

/// A path as one safe line: control characters (newline, tab, ESC, C1, …)
/// shown escaped, so a hostile name can neither split a result nor drive a
/// terminal (SPEC §4). JSON carries paths unescaped. Every path, file name
/// and one-line piece of rg's text shown in text output goes through this
/// (or [`escape_lines`]); `escape` is the one place that decides how.
pub fn escape_path(path: &str) -> Cow<'_, str> {
    escape(path, false)
}

/// Text that is several lines by nature (an error message quoting rg's
/// stderr, clap's usage) made safe: its line breaks stay, every other
/// control character is escaped as [`escape_path`] escapes it.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

fn escape(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let escaped = |c: char| c.is_control() && !(keep_newlines && c == '\n');
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !escaped(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}
