//! rg's standard error, kept bounded: its first few KiB (where rg puts a
//! pattern error), its last few, how much lay between, and how many
//! messages it held (one per path rg could not search).
//!
//! A message is not always one line: a path rg names may hold a newline
//! (`rg: ./bad` `dir: Permission denied (os error 13)` on two lines), and a
//! few of rg's own messages continue on the next line. rg 14 starts every
//! message with `rg: `, so once the first message starts that way, a line
//! that does not is the continuation of the message before it: a path
//! with a newline counts once. (A path whose newline is followed by
//! `rg: ` itself cannot be told from a new message; it counts twice, never
//! more.) rg 13 has no prefix: each non-blank line is a message there.

/// Bytes of rg's stderr kept from its start (where rg puts pattern errors).
const STDERR_HEAD: usize = 6 * 1024;
/// Bytes of rg's stderr kept from its end.
const STDERR_TAIL: usize = 2 * 1024;
/// How rg 14 starts each of its messages.
const PREFIX: &[u8] = b"rg: ";

/// rg's stderr, bounded: its first and last few KiB and how much lay between.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stderr {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes dropped between `head` and `tail`.
    omitted: u64,
    /// rg's messages in the whole stream (see the module's note).
    pub messages: u64,
    line_has_text: bool,
    /// The first bytes of the line being read (as many as [`PREFIX`]).
    line_start: Vec<u8>,
    /// Whether messages start with [`PREFIX`]: decided by the first
    /// non-blank line.
    prefixed: Option<bool>,
}

impl Stderr {
    pub(super) fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                self.end_line();
                continue;
            }
            if self.line_start.len() < PREFIX.len() {
                self.line_start.push(b);
            }
            if !b.is_ascii_whitespace() {
                self.line_has_text = true;
            }
        }
        let room = STDERR_HEAD.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        self.tail.extend_from_slice(rest);
        if self.tail.len() > STDERR_TAIL {
            let drop = self.tail.len() - STDERR_TAIL;
            self.tail.drain(..drop);
            self.omitted = self.omitted.saturating_add(drop as u64);
        }
    }

    /// Add what a later run of rg wrote (the index runs one rg per
    /// chunk of its candidates): as if one rg had written both.
    pub fn append(&mut self, other: &Stderr) {
        self.push(&other.head);
        self.omitted = self.omitted.saturating_add(other.omitted);
        self.push(&other.tail);
        self.close();
    }

    pub(super) fn close(&mut self) {
        self.end_line();
    }

    /// A line ended: count it if it starts a message.
    fn end_line(&mut self) {
        if self.line_has_text {
            let starts = self.line_start == PREFIX;
            let prefixed = *self.prefixed.get_or_insert(starts);
            if starts || !prefixed {
                self.messages = self.messages.saturating_add(1);
            }
        }
        self.line_has_text = false;
        self.line_start.clear();
    }

    /// The kept text, trimmed, lossily decoded, with the cut marked.
    pub fn excerpt(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        let tail = String::from_utf8_lossy(&self.tail);
        if self.omitted == 0 {
            return format!("{head}{tail}").trim().to_owned();
        }
        format!(
            "{} […{} bytes of stderr omitted…] {}",
            head.trim_end(),
            self.omitted,
            tail.trim_start()
        )
        .trim()
        .to_owned()
    }

    /// The first message as kept, trimmed: the first non-blank line and,
    /// when rg prefixes its messages, the lines that continue it (a path
    /// with a newline). Its line breaks stay: whoever shows it escapes
    /// them.
    pub fn first_message(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        let mut lines = head.split('\n').skip_while(|l| l.trim().is_empty());
        let Some(first) = lines.next() else {
            return String::new();
        };
        let mut message = first.to_owned();
        if first.starts_with("rg: ") {
            for line in lines.take_while(|l| !l.starts_with("rg: ") && !l.trim().is_empty()) {
                message.push('\n');
                message.push_str(line);
            }
        }
        message.trim().to_owned()
    }

    /// The first non-blank line, trimmed.
    pub fn first_line(&self) -> String {
        String::from_utf8_lossy(&self.head)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether the kept text contains `needle` (rg's messages are ASCII).
    pub fn contains(&self, needle: &str) -> bool {
        let n = needle.as_bytes();
        [&self.head, &self.tail]
            .iter()
            .any(|part| part.windows(n.len()).any(|w| w == n))
    }
}

#[cfg(test)]
#[path = "../../tests/unit/rg/stderr.rs"]
mod tests;
