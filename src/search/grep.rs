//! grep: `rg --json` decoded as it streams in, matches grouped by file,
//! ordered (files by path, lines by number) and previewed (SPEC §4).
//!
//! Previews are made as records arrive, so memory holds at most one preview
//! per matched line, never rg's raw output.

use std::collections::HashMap;

use super::paths::Workdir;
use super::preview::preview;
use super::report::{FileMatches, LineMatch};
use crate::rg::json;
use crate::rg::run::Sink;

/// Decodes rg's JSON lines as they arrive and keeps the matches.
pub struct GrepSink<'w> {
    workdir: &'w Workdir,
    line_cap: usize,
    /// Bytes of a record not yet ended by `\n`.
    pending: Vec<u8>,
    /// Records seen (non-blank lines), for error messages.
    records: u64,
    /// Displayed path → index in `files`.
    index: HashMap<Vec<u8>, usize>,
    files: Vec<(Vec<u8>, Vec<LineMatch>)>,
    /// The first malformed record, described.
    error: Option<String>,
}

impl<'w> GrepSink<'w> {
    pub fn new(workdir: &'w Workdir, line_cap: usize) -> Self {
        Self {
            workdir,
            line_cap,
            pending: Vec::new(),
            records: 0,
            index: HashMap::new(),
            files: Vec::new(),
            error: None,
        }
    }

    fn line(&mut self, line: &[u8]) {
        if self.error.is_some() || line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        self.records += 1;
        match json::decode(line) {
            Ok(None) => {}
            Ok(Some(record)) => {
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
        !self.files.is_empty()
    }

    /// The files, by path in byte order, their lines by number.
    pub fn into_files(self) -> Vec<FileMatches> {
        let mut files = self.files;
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        files
            .into_iter()
            .map(|(path, mut matches)| {
                matches.sort_by_key(|m| m.line_number);
                FileMatches {
                    path: String::from_utf8_lossy(&path).into_owned(),
                    matches,
                }
            })
            .collect()
    }
}

impl Sink for GrepSink<'_> {
    fn chunk(&mut self, mut bytes: &[u8]) {
        if !self.pending.is_empty() {
            let Some(end) = memchr::memchr(b'\n', bytes) else {
                self.pending.extend_from_slice(bytes);
                return;
            };
            let mut line = std::mem::take(&mut self.pending);
            line.extend_from_slice(&bytes[..end]);
            self.line(&line);
            bytes = &bytes[end + 1..];
        }
        while let Some(end) = memchr::memchr(b'\n', bytes) {
            self.line(&bytes[..end]);
            bytes = &bytes[end + 1..];
        }
        self.pending.extend_from_slice(bytes);
    }

    fn finish(&mut self) {
        let line = std::mem::take(&mut self.pending);
        self.line(&line);
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
            let mut sink = GrepSink::new(&w, 100);
            for chunk in stream.as_bytes().chunks(size) {
                sink.chunk(chunk);
            }
            sink.finish();
            assert_eq!(sink.error(), None);
            let files = sink.into_files();
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
        let mut sink = GrepSink::new(&w, 100);
        sink.chunk(b"\n{\"type\":\"begin\"}\n{oops\nmore junk\n");
        sink.finish();
        assert!(
            sink.error()
                .unwrap()
                .starts_with("record 2: not a JSON record")
        );
    }
}
