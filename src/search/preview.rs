//! Line previews (SPEC §4): the matched line without its terminator, cut to
//! a byte cap at a character boundary, or a window around the first match
//! when that match ends past the cap.
//!
//! Work is done on raw bytes (rg's `bytes` form need not be UTF-8) and the
//! result is decoded lossily, so an invalid byte shows as U+FFFD.

/// Appended to a preview that does not show the whole line.
pub const TRUNCATED_MARK: &str = " (line truncated)";
/// Put before a window that does not start at the beginning of the line.
pub const WINDOW_MARK: &str = "…";

/// A line preview ready to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The text shown after `Line N: `, marks included.
    pub text: String,
    /// Whether the preview omits part of the line.
    pub truncated: bool,
}

/// Build the preview of `line` (terminator included or not) whose first
/// match spans `first_match` (byte offsets into `line`), capped at `cap`
/// bytes of the original line.
pub fn preview(line: &[u8], first_match: Option<(usize, usize)>, cap: usize) -> Preview {
    let line = strip_terminator(line);
    if line.len() <= cap {
        return Preview {
            text: String::from_utf8_lossy(line).into_owned(),
            truncated: false,
        };
    }
    // The plain cut ends at the last character boundary within the cap;
    // a match (widened to whole characters) that ends past it gets the
    // window instead.
    let cut = floor_boundary(line, cap);
    match first_match {
        Some((start, end))
            if start < line.len() && ceil_boundary(line, end.min(line.len())) > cut =>
        {
            window_preview(line, start, end.min(line.len()), cap)
        }
        _ => head_preview(line, cap),
    }
}

/// The preview of a line longer than `cap` known by its first bytes,
/// `head`: cut at the cap, and truncated whatever `head` holds (the rest of
/// a line too large to hold, see `rg::giant`, is longer than any cap).
pub fn head_preview(head: &[u8], cap: usize) -> Preview {
    let to = floor_boundary(head, cap.min(head.len()));
    Preview {
        text: format!("{}{TRUNCATED_MARK}", String::from_utf8_lossy(&head[..to])),
        truncated: true,
    }
}

/// The window preview of the match at `start..end` of `region`, a line
/// longer than `cap` or a part of one too long to hold, read from its
/// file: `…`, at most `cap` bytes around the match, the mark (SPEC §4).
pub fn window_preview(region: &[u8], start: usize, end: usize, cap: usize) -> Preview {
    let (from, to) = window(region, start, end, cap);
    Preview {
        text: format!(
            "{WINDOW_MARK}{}{TRUNCATED_MARK}",
            String::from_utf8_lossy(&region[from..to])
        ),
        truncated: true,
    }
}

/// Drop one trailing `\n` or `\r\n`; a lone trailing `\r` is content.
fn strip_terminator(line: &[u8]) -> &[u8] {
    match line.strip_suffix(b"\n") {
        Some(rest) => rest.strip_suffix(b"\r").unwrap_or(rest),
        None => line,
    }
}

/// The window `[from, to)` of at most `cap` bytes that holds as much of the
/// match `[start, end)` as fits, centred on it, on character boundaries.
///
/// The match is first widened to whole characters (rg may report a match
/// that starts or ends inside one: `(?-u:\x9f)` in a line holding 😀);
/// every later step only narrows the window inside that, so its ends never
/// cross: `from <= start' <= end' <= to` when the widened match fits in
/// `cap`, and `start' <= from <= to <= start' + cap` when it does not (then
/// as many whole characters of the match as fit, possibly none).
fn window(line: &[u8], start: usize, end: usize, cap: usize) -> (usize, usize) {
    let start = floor_boundary(line, start.min(line.len()));
    let end = ceil_boundary(line, end.clamp(start, line.len())).max(start);
    let len = end - start;
    if len >= cap {
        let to = floor_boundary(line, start.saturating_add(cap)).max(start);
        return (start, to);
    }
    let slack = cap - len;
    let mut from = start.saturating_sub(slack / 2);
    let mut to = from.saturating_add(cap);
    if to > line.len() {
        to = line.len();
        from = to.saturating_sub(cap);
    }
    // `from <= start` and `end <= to` here; rounding inwards keeps both.
    let from = ceil_boundary(line, from).min(start);
    let to = floor_boundary(line, to).max(end);
    (from, to)
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The largest character boundary at or below `i` (a UTF-8 sequence is at
/// most 4 bytes, so at most 3 continuation bytes are skipped; in invalid
/// data each stray byte counts as its own character).
fn floor_boundary(line: &[u8], i: usize) -> usize {
    if i >= line.len() {
        return line.len();
    }
    let mut j = i;
    while j > 0 && i - j < 3 && is_continuation(line[j]) {
        j -= 1;
    }
    if is_continuation(line[j]) { i } else { j }
}

/// The smallest character boundary at or above `i`.
fn ceil_boundary(line: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < line.len() && j - i < 3 && is_continuation(line[j]) {
        j += 1;
    }
    if j < line.len() && is_continuation(line[j]) {
        i
    } else {
        j
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/preview.rs"]
mod tests;
