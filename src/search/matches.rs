//! grep's sink: `rg --json` decoded as it streams in, matches grouped by
//! file, ordered (files by path, lines by number) and previewed (SPEC §4).
//!
//! Previews are made as records arrive, so memory holds at most one preview
//! per matched line, never rg's raw output.

use std::collections::{BTreeSet, HashMap};

use super::paths::Workdir;
use super::preview::preview;
use super::report::{FileMatches, LineMatch};
use crate::rg::Sink;
use crate::rg::json::{self, Record};

/// Decodes rg's JSON lines as they arrive and keeps the matches.
pub struct MatchSink<'w> {
    workdir: &'w Workdir,
    line_cap: usize,
    /// Bytes of a record not yet ended by `\n`.
    pending: Vec<u8>,
    /// Records seen (non-blank lines), for error messages.
    records: u64,
    /// Displayed path → index in `files`.
    index: HashMap<Vec<u8>, usize>,
    files: Vec<(Vec<u8>, Vec<LineMatch>)>,
    /// Displayed paths of files rg found binary (their matches are not shown).
    binary: BTreeSet<Vec<u8>>,
    /// The first malformed record, described.
    error: Option<String>,
    /// Raw output bytes per path rg printed (match records), to say which
    /// files filled the output when it overflows. rg prints one file's
    /// records together, so a file's count is kept aside until the path
    /// changes, then appended here: no lookup per record (summed only when
    /// the output overflows).
    sizes: Vec<(Vec<u8>, u64)>,
    current: (Vec<u8>, u64),
}

/// Of an overflowing output, the files that made at least this share.
const HEAVY_SHARE: u64 = 25;
/// ... and at most this many of them.
const HEAVY_FILES: usize = 3;

/// What the sink kept: text files with their matched lines, and the
/// binary files that matched.
pub struct Matched {
    pub files: Vec<FileMatches>,
    /// Displayed paths, in byte order.
    pub binary_files: Vec<String>,
}

impl<'w> MatchSink<'w> {
    pub fn new(workdir: &'w Workdir, line_cap: usize) -> Self {
        Self {
            workdir,
            line_cap,
            pending: Vec::new(),
            records: 0,
            index: HashMap::new(),
            files: Vec::new(),
            binary: BTreeSet::new(),
            error: None,
            sizes: Vec::new(),
            current: (Vec::new(), 0),
        }
    }

    /// Count `bytes` of raw output against `path`.
    fn tally(&mut self, path: &[u8], bytes: u64) {
        if self.current.0 != path {
            let done = std::mem::replace(&mut self.current, (path.to_vec(), 0));
            if done.1 > 0 {
                self.sizes.push(done);
            }
        }
        self.current.1 += bytes;
    }

    /// The files that produced most of an overflowing output: each with its
    /// share in percent, largest first (SPEC §6: say which file to leave out).
    pub fn heavy(&mut self) -> Vec<(String, u8)> {
        let last = std::mem::take(&mut self.current);
        let mut summed: HashMap<&[u8], u64> = HashMap::new();
        for (path, n) in self.sizes.iter().chain(std::iter::once(&last)) {
            *summed.entry(path.as_slice()).or_default() += n;
        }
        let total: u64 = summed.values().sum();
        let mut sizes: Vec<(&[u8], u64)> = summed.into_iter().filter(|&(_, n)| n > 0).collect();
        sizes.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        sizes
            .into_iter()
            .take(HEAVY_FILES)
            .filter(|&(_, n)| total > 0 && n * 100 / total >= HEAVY_SHARE)
            .map(|(path, n)| {
                let shown = self.workdir.display(path);
                let share = u8::try_from(n * 100 / total).unwrap_or(100);
                (String::from_utf8_lossy(&shown).into_owned(), share)
            })
            .collect()
    }

    /// Split `bytes` into records (the last may stay pending) for `each`.
    fn records(&mut self, mut bytes: &[u8], each: fn(&mut Self, &[u8])) {
        if !self.pending.is_empty() {
            let Some(end) = memchr::memchr(b'\n', bytes) else {
                self.pending.extend_from_slice(bytes);
                return;
            };
            let mut line = std::mem::take(&mut self.pending);
            line.extend_from_slice(&bytes[..end]);
            each(self, &line);
            bytes = &bytes[end + 1..];
        }
        while let Some(end) = memchr::memchr(b'\n', bytes) {
            each(self, &bytes[..end]);
            bytes = &bytes[end + 1..];
        }
        self.pending.extend_from_slice(bytes);
    }

    /// A record looked over only for its path and size.
    fn skim_line(&mut self, line: &[u8]) {
        if let Some(path) = json::match_path(line) {
            self.tally(&path, line.len() as u64 + 1);
        }
    }

    fn line(&mut self, line: &[u8]) {
        if self.error.is_some() || line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        self.records += 1;
        match json::decode(line) {
            Ok(None) => {}
            Ok(Some(Record::Binary { path })) => {
                self.binary.insert(self.workdir.display(&path).into_owned());
            }
            Ok(Some(Record::Match(record))) => {
                let size = line.len() as u64 + 1;
                self.tally(&record.path, size);
                let preview = preview(&record.line, record.first_match, self.line_cap);
                let entry = LineMatch {
                    line_number: record.line_number,
                    preview: preview.text,
                    line_truncated: preview.truncated,
                };
                let path = self.workdir.display(&record.path);
                // rg prints one file's records together; look up only on change.
                match self.files.last_mut() {
                    Some((last, matches)) if *last == *path => matches.push(entry),
                    _ => {
                        if let Some(&i) = self.index.get(&*path) {
                            self.files[i].1.push(entry);
                        } else {
                            let path = path.into_owned();
                            self.index.insert(path.clone(), self.files.len());
                            self.files.push((path, vec![entry]));
                        }
                    }
                }
            }
            Err(e) => self.error = Some(format!("record {}: {e}", self.records)),
        }
    }

    /// The malformed-output description, if any record was not understood.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn has_matches(&self) -> bool {
        !self.files.is_empty() || !self.binary.is_empty()
    }

    /// The text files, by path in byte order, their lines by number; and
    /// the binary files that matched, whose lines are never shown (SPEC §2).
    pub fn into_matched(self) -> Matched {
        let binary = self.binary;
        let mut files = self.files;
        files.retain(|(path, _)| !binary.contains(path));
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let files = files
            .into_iter()
            .map(|(path, mut matches)| {
                matches.sort_by_key(|m| m.line_number);
                FileMatches {
                    path: String::from_utf8_lossy(&path).into_owned(),
                    matches,
                }
            })
            .collect();
        Matched {
            files,
            binary_files: binary
                .into_iter()
                .map(|p| String::from_utf8_lossy(&p).into_owned())
                .collect(),
        }
    }
}

impl Sink for MatchSink<'_> {
    fn chunk(&mut self, bytes: &[u8]) {
        self.records(bytes, Self::line);
    }

    fn finish(&mut self) {
        let line = std::mem::take(&mut self.pending);
        self.line(&line);
    }

    fn skim(&mut self, bytes: &[u8]) {
        self.records(bytes, Self::skim_line);
    }

    fn overflowed(&mut self) {
        // A record cut off by the cap (a minified file's one huge line)
        // still names its file in its first bytes.
        let line = std::mem::take(&mut self.pending);
        self.skim_line(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn record(path: &str, n: u64, text: &str) -> String {
        format!(
            r#"{{"type":"match","data":{{"path":{{"text":"{path}"}},"lines":{{"text":"{text}\n"}},"line_number":{n},"submatches":[{{"start":0,"end":1}}]}}}}"#
        )
    }

    #[test]
    fn groups_orders_and_survives_any_chunking() {
        let w = Workdir::new(Path::new("/nonexistent"));
        let stream = [
            record("b.rs", 9, "x9"),
            record("b.rs", 2, "x2"),
            String::new(),
            r#"{"type":"begin","data":{"path":{"text":"a.rs"}}}"#.to_owned(),
            record("/nonexistent/a.rs", 1, "x1"),
            record("b.rs", 5, "x5"),
        ]
        .join("\n");
        for size in [1, 7, 64, stream.len()] {
            let mut sink = MatchSink::new(&w, 100);
            for chunk in stream.as_bytes().chunks(size) {
                sink.chunk(chunk);
            }
            sink.finish();
            assert_eq!(sink.error(), None);
            let files = sink.into_matched().files;
            let got: Vec<(String, Vec<u64>)> = files
                .iter()
                .map(|f| {
                    (
                        f.path.clone(),
                        f.matches.iter().map(|m| m.line_number).collect(),
                    )
                })
                .collect();
            assert_eq!(
                got,
                vec![
                    ("a.rs".to_owned(), vec![1]),
                    ("b.rs".to_owned(), vec![2, 5, 9])
                ],
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn first_malformed_record_is_named() {
        let w = Workdir::new(Path::new("/"));
        let mut sink = MatchSink::new(&w, 100);
        sink.chunk(b"\n{\"type\":\"begin\"}\n{oops\nmore junk\n");
        sink.finish();
        assert!(
            sink.error()
                .unwrap()
                .starts_with("record 2: not a JSON record")
        );
    }
}
