//! A `--json` record too large to hold (a matched or context line of a
//! minified file can be tens of megabytes), read as it streams in and kept
//! only as far as a preview needs: the record's type, path, line number
//! and byte offset, the first submatch, and the first bytes of the line
//! and of the first match. Nothing else of it stays in memory.
//!
//! The reader is a small JSON tokenizer that follows where it is in the
//! record (`data.lines.text`, `data.submatches[0].start`, …) and keeps a
//! bounded prefix of the strings it was asked for, still escaped; the
//! prefix is decoded once, at the end, cut where no escape is split.
//!
//! Whatever the record holds, the reader's memory is bounded (its nesting
//! is cut at [`MAX_DEPTH`], every kept string at its own bound) and its
//! time is linear in the record's bytes (each byte is looked at once, and
//! where a value lies is read from the few levels above it, not copied).

mod decode;

use decode::{decode_base64, decode_text};

/// The longest path kept (paths are at most a few KiB: `PATH_MAX`).
const PATH_BOUND: usize = 64 * 1024;
/// The deepest nesting of arrays and objects read. rg's records nest 5
/// deep at most (`data.submatches[0].match.text`); a record nested deeper
/// is no record of rg's, and the parse fails there instead of keeping a
/// level for each of millions of `[`.
const MAX_DEPTH: usize = 16;
/// The longest object key kept (rg's keys are short words).
const KEY_BOUND: usize = 4096;

/// What a giant record says, as far as it was kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Giant {
    /// `match` or `context` (or whatever rg wrote, cut short).
    pub kind: String,
    pub path: Vec<u8>,
    pub line_number: Option<u64>,
    /// Where the line starts in the file, in bytes.
    pub absolute_offset: Option<u64>,
    /// The first bytes of the line (decoded).
    pub head: Vec<u8>,
    /// The first submatch, as byte offsets into the line.
    pub first_match: Option<(usize, usize)>,
    /// The first bytes of the first submatch's text (decoded).
    pub match_head: Vec<u8>,
    /// The record's own first bytes, as rg wrote them: what an error
    /// message about it quotes.
    pub opening: Vec<u8>,
}

/// Bytes of the record kept for [`Giant::opening`]: more than
/// `rg::read_excerpt` quotes, so it shows that it was cut.
const OPENING: usize = 128;

/// Where in the record a value lies, as far as the reader cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RecordField {
    Type,
    PathText,
    PathBytes,
    LinesText,
    LinesBytes,
    LineNumber,
    AbsoluteOffset,
    Start,
    End,
    MatchText,
    MatchBytes,
    /// A value nothing is kept of.
    Other,
}

/// One level of nesting: an object (the key being read or last read) or an
/// array (the index of the element being read).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Level {
    Object(Option<String>),
    Array(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    /// Before a value (or a key, in an object that expects one).
    Value,
    /// Inside a string; `escaped` after a backslash.
    Str { escaped: bool },
    /// Inside a number or a literal (`true`, `null`).
    Bare,
    /// After an object key: `:` comes.
    Colon,
    /// After a value: `,` or a closing bracket comes.
    After,
}

/// The reader of one giant record.
#[derive(Debug)]
pub struct GiantReader {
    stack: Vec<Level>,
    state: Syntax,
    /// Reading an object key rather than a value.
    key: bool,
    /// The raw bytes kept of the string or bare value being read, and the
    /// most that may be kept of it.
    raw: Vec<u8>,
    bound: usize,
    slot: RecordField,
    /// The bytes of the line's head to keep, escaped (a JSON escape is at
    /// most 6 bytes for one character).
    head_bound: usize,
    giant: Giant,
    error: Option<String>,
    /// Bytes of the record fed so far.
    bytes: u64,
}

impl GiantReader {
    /// A reader that keeps about `head` bytes of the line and of the match.
    pub fn new(head: usize) -> Self {
        Self {
            stack: Vec::new(),
            state: Syntax::Value,
            key: false,
            raw: Vec::new(),
            bound: 0,
            slot: RecordField::Other,
            head_bound: head.saturating_mul(6).saturating_add(64),
            giant: Giant::default(),
            error: None,
            bytes: 0,
        }
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The path of the record, once it was read (a record cut short by
    /// the raw-output cap still names its file).
    pub fn path(&self) -> Option<&[u8]> {
        (!self.giant.path.is_empty()).then_some(self.giant.path.as_slice())
    }

    /// Read the next bytes of the record (never its closing `\n`).
    pub fn feed(&mut self, bytes: &[u8]) {
        self.bytes = self.bytes.saturating_add(bytes.len() as u64);
        let opening = &mut self.giant.opening;
        let room = OPENING.saturating_sub(opening.len()).min(bytes.len());
        opening.extend_from_slice(&bytes[..room]);
        let mut i = 0;
        while i < bytes.len() && self.error.is_none() {
            let b = bytes[i];
            match self.state {
                Syntax::Str { escaped } => {
                    // Runs of plain string bytes are the bulk of a giant
                    // record: take them in one step.
                    if !escaped {
                        let run = bytes[i..]
                            .iter()
                            .position(|&c| c == b'"' || c == b'\\')
                            .unwrap_or(bytes.len() - i);
                        if run > 0 {
                            self.keep(&bytes[i..i + run]);
                            i += run;
                            continue;
                        }
                    }
                    if !escaped && b == b'"' {
                        self.end_string();
                    } else {
                        self.keep(&[b]);
                        self.state = Syntax::Str {
                            escaped: !escaped && b == b'\\',
                        };
                    }
                    i += 1;
                }
                Syntax::Bare => {
                    if matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace() {
                        self.end_bare();
                    } else {
                        self.keep(&[b]);
                        i += 1;
                    }
                }
                Syntax::Value | Syntax::Colon | Syntax::After => {
                    self.punctuation(b);
                    i += 1;
                }
            }
        }
    }

    /// The record, once its last byte was fed; `Err` says why it is not
    /// one of rg's.
    pub fn finish(mut self) -> Result<Giant, String> {
        if self.state == Syntax::Bare {
            self.end_bare();
        }
        let read = || super::read_excerpt(&self.giant.opening);
        if let Some(e) = &self.error {
            return Err(format!("{e}, {}", read()));
        }
        if !self.stack.is_empty() || self.state != Syntax::After {
            return Err(format!(
                "a record that is too large to hold ends before it is whole, {}",
                read()
            ));
        }
        Ok(self.giant)
    }

    fn fail(&mut self, why: &str) {
        self.error
            .get_or_insert_with(|| format!("a record that is too large to hold {why}"));
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = self.bound.saturating_sub(self.raw.len());
        self.raw.extend_from_slice(&bytes[..room.min(bytes.len())]);
    }

    fn punctuation(&mut self, b: u8) {
        if b.is_ascii_whitespace() {
            return;
        }
        let in_object = matches!(self.stack.last(), Some(Level::Object(_)));
        match (self.state, b) {
            (Syntax::Value, b'"') => {
                self.key = in_object && !self.has_key();
                let bound = if self.key {
                    KEY_BOUND
                } else {
                    self.bound_here()
                };
                self.begin(bound);
                self.state = Syntax::Str { escaped: false };
            }
            (Syntax::Colon, b':') => self.state = Syntax::Value,
            (Syntax::Value, b'{' | b'[') if self.stack.len() >= MAX_DEPTH => {
                self.fail("nests deeper than rg's records do");
            }
            (Syntax::Value, b'{') => self.stack.push(Level::Object(None)),
            (Syntax::Value, b'[') => self.stack.push(Level::Array(0)),
            (Syntax::Value, b'}') if in_object && !self.has_key() => self.close(),
            (Syntax::Value, b']') if matches!(self.stack.last(), Some(Level::Array(0))) => {
                self.close();
            }
            (Syntax::Value, _)
                if (!in_object || self.has_key()) && (b == b'-' || b.is_ascii_alphanumeric()) =>
            {
                let bound = self.bound_here().max(32);
                self.begin(bound);
                self.keep(&[b]);
                self.state = Syntax::Bare;
            }
            (Syntax::After, b',') => {
                match self.stack.last_mut() {
                    Some(Level::Object(key)) => *key = None,
                    Some(Level::Array(i)) => *i = i.saturating_add(1),
                    None => self.fail("has more than one value"),
                }
                self.state = Syntax::Value;
            }
            (Syntax::After, b'}') if in_object => self.close(),
            (Syntax::After, b']') if matches!(self.stack.last(), Some(Level::Array(_))) => {
                self.close();
            }
            _ => self.fail("is not JSON"),
        }
    }

    fn has_key(&self) -> bool {
        matches!(self.stack.last(), Some(Level::Object(Some(_))))
    }

    fn begin(&mut self, bound: usize) {
        self.raw.clear();
        self.bound = bound;
    }

    fn close(&mut self) {
        self.stack.pop();
        self.state = Syntax::After;
    }

    /// The slot the value about to be read fills.
    fn slot_here(&self) -> RecordField {
        fn key(level: &Level) -> Option<&str> {
            match level {
                Level::Object(Some(k)) => Some(k.as_str()),
                _ => None,
            }
        }
        // Read in place: a value's slot depends on the levels above it,
        // which are few (see MAX_DEPTH); nothing is copied per value.
        match self.stack.as_slice() {
            [top] => match key(top) {
                Some("type") => RecordField::Type,
                _ => RecordField::Other,
            },
            [top, l2] if key(top) == Some("data") => match key(l2) {
                Some("line_number") => RecordField::LineNumber,
                Some("absolute_offset") => RecordField::AbsoluteOffset,
                _ => RecordField::Other,
            },
            [top, l2, l3] if key(top) == Some("data") => match (key(l2), key(l3)) {
                (Some("path"), Some("text")) => RecordField::PathText,
                (Some("path"), Some("bytes")) => RecordField::PathBytes,
                (Some("lines"), Some("text")) => RecordField::LinesText,
                (Some("lines"), Some("bytes")) => RecordField::LinesBytes,
                _ => RecordField::Other,
            },
            [top, l2, Level::Array(0), l4]
                if key(top) == Some("data") && key(l2) == Some("submatches") =>
            {
                match key(l4) {
                    Some("start") => RecordField::Start,
                    Some("end") => RecordField::End,
                    _ => RecordField::Other,
                }
            }
            [top, l2, Level::Array(0), l4, l5]
                if key(top) == Some("data")
                    && key(l2) == Some("submatches")
                    && key(l4) == Some("match") =>
            {
                match key(l5) {
                    Some("text") => RecordField::MatchText,
                    Some("bytes") => RecordField::MatchBytes,
                    _ => RecordField::Other,
                }
            }
            _ => RecordField::Other,
        }
    }

    fn bound_here(&mut self) -> usize {
        self.slot = self.slot_here();
        match self.slot {
            RecordField::Type => 64,
            RecordField::PathText | RecordField::PathBytes => PATH_BOUND + 1,
            RecordField::LinesText
            | RecordField::LinesBytes
            | RecordField::MatchText
            | RecordField::MatchBytes => self.head_bound,
            RecordField::LineNumber
            | RecordField::AbsoluteOffset
            | RecordField::Start
            | RecordField::End => 32,
            RecordField::Other => 0,
        }
    }

    fn end_string(&mut self) {
        self.state = Syntax::After;
        let raw = std::mem::take(&mut self.raw);
        let cut = raw.len() >= self.bound;
        let text = |raw: &[u8]| decode_text(raw, cut);
        if self.key {
            self.key = false;
            let key = text(&raw);
            match self.stack.last_mut() {
                Some(Level::Object(slot)) => {
                    *slot = Some(String::from_utf8_lossy(&key).into_owned());
                }
                _ => self.fail("is not JSON"),
            }
            self.state = Syntax::Colon;
            return;
        }
        let g = &mut self.giant;
        match self.slot {
            RecordField::Type => g.kind = String::from_utf8_lossy(&text(&raw)).into_owned(),
            RecordField::PathText | RecordField::PathBytes if raw.len() > PATH_BOUND => {
                self.fail("has a path over 64 KiB");
            }
            RecordField::PathText => g.path = text(&raw),
            RecordField::PathBytes => g.path = decode_base64(&raw),
            RecordField::LinesText => g.head = text(&raw),
            RecordField::LinesBytes => g.head = decode_base64(&raw),
            RecordField::MatchText => g.match_head = text(&raw),
            RecordField::MatchBytes => g.match_head = decode_base64(&raw),
            _ => {}
        }
    }

    fn end_bare(&mut self) {
        self.state = Syntax::After;
        let raw = std::mem::take(&mut self.raw);
        let number = std::str::from_utf8(&raw)
            .ok()
            .and_then(|t| t.parse::<u64>().ok());
        let g = &mut self.giant;
        match self.slot {
            RecordField::LineNumber => g.line_number = number,
            RecordField::AbsoluteOffset => g.absolute_offset = number,
            RecordField::Start => {
                let end = g.first_match.map_or(0, |(_, e)| e);
                g.first_match = number.map(|s| (count(s), end));
            }
            RecordField::End => {
                let start = g.first_match.map_or(0, |(s, _)| s);
                g.first_match = number.map(|e| (start, count(e)));
            }
            _ => {}
        }
    }
}

fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

#[cfg(test)]
#[path = "../../tests/unit/rg/giant.rs"]
mod tests;
