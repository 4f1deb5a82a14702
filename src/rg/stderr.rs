//! rg's standard error, kept bounded: its first few KiB (where rg puts a
//! pattern error), its last few, how much lay between, and how many
//! non-blank lines it had (one per path rg could not search).

/// Bytes of rg's stderr kept from its start (where rg puts pattern errors).
const STDERR_HEAD: usize = 6 * 1024;
/// Bytes of rg's stderr kept from its end.
const STDERR_TAIL: usize = 2 * 1024;

/// rg's stderr, bounded: its first and last few KiB and how much lay between.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stderr {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes dropped between `head` and `tail`.
    omitted: u64,
    /// Non-blank lines seen in the whole stream.
    pub lines: u64,
    line_has_text: bool,
}

impl Stderr {
    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                if self.line_has_text {
                    self.lines += 1;
                }
                self.line_has_text = false;
            } else if !b.is_ascii_whitespace() {
                self.line_has_text = true;
            }
        }
        let room = STDERR_HEAD.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        bytes = rest;
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > STDERR_TAIL {
            let drop = self.tail.len() - STDERR_TAIL;
            self.tail.drain(..drop);
            self.omitted += drop as u64;
        }
    }

    pub(super) fn close(&mut self) {
        if self.line_has_text {
            self.lines += 1;
            self.line_has_text = false;
        }
    }

    /// The kept text, trimmed, lossily decoded, with the cut marked.
    pub fn excerpt(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        if self.omitted == 0 {
            let tail = String::from_utf8_lossy(&self.tail);
            return format!("{head}{tail}").trim().to_owned();
        }
        let tail = String::from_utf8_lossy(&self.tail);
        format!(
            "{} […{} bytes of stderr omitted…] {}",
            head.trim_end(),
            self.omitted,
            tail.trim_start()
        )
        .trim()
        .to_owned()
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
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_head_and_tail_and_counts_lines() {
        let mut s = Stderr::default();
        s.push(b"rg: a: Permission denied\n\n");
        for _ in 0..2000 {
            s.push(b"rg: b: Permission denied\n");
        }
        s.push(b"last line without newline");
        s.close();
        assert_eq!(s.lines, 2002);
        assert_eq!(s.first_line(), "rg: a: Permission denied");
        let excerpt = s.excerpt();
        assert!(excerpt.contains("bytes of stderr omitted"));
        assert!(excerpt.ends_with("last line without newline"));
        assert!(excerpt.len() < STDERR_HEAD + STDERR_TAIL + 100);
    }
}
