//! grep's sink: `rg --json` decoded as it streams in, lines grouped by
//! file, ordered (files by path, lines by number) and previewed (SPEC §4).
//!
//! Previews are made as records arrive, so memory holds at most one preview
//! per line shown, never rg's raw output. A record longer than the record
//! bound (a matched line of a minified file) is not held at all: it is read
//! as it streams (`rg::giant`), and its preview made from the part kept, or
//! from the file itself when the match lies further in.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use super::paths::Workdir;
use super::preview::{self, Preview};
use super::report::{FileCount, FileLines, Line};
use crate::rg::Sink;
use crate::rg::giant::{self, Giant};
use crate::rg::json::{self, LinesRecord, Record, Want};

/// Of an overflowing output, the files that made at least this share.
const HEAVY_SHARE: u64 = 25;
/// ... and at most this many of them.
const HEAVY_FILES: usize = 3;

/// The longest record held whole, for a preview cap of `line_cap` bytes:
/// far more than a preview needs, so only lines no preview could show
/// whole are read as they stream.
pub fn record_bound(line_cap: usize) -> usize {
    (1 << 20usize).max(line_cap.saturating_mul(8).saturating_add(64 * 1024))
}

/// Decodes rg's JSON lines as they arrive and keeps the lines to show.
pub struct MatchSink<'w> {
    workdir: &'w Workdir,
    line_cap: usize,
    want: Want,
    /// Records longer than this are read as they stream; `None`: every
    /// record is held whole (the runner then counts it whole).
    record_bound: Option<usize>,
    /// Bytes of a record not yet ended by `\n`.
    pending: Vec<u8>,
    /// The record being read as it streams, when it is too long to hold.
    giant: Option<giant::Reader>,
    /// Records seen (non-blank lines), for error messages.
    records: u64,
    /// Displayed path → index in `files`.
    index: HashMap<Vec<u8>, usize>,
    files: Vec<(Vec<u8>, Vec<Line>)>,
    /// Matched lines per displayed path ([`Want::counts`]).
    counts: Vec<(Vec<u8>, u64)>,
    /// Displayed paths of files rg found binary (their matches are not shown).
    binary: BTreeSet<Vec<u8>>,
    /// The first malformed record, described.
    error: Option<String>,
    /// Raw output bytes per path rg printed (match and context records), to
    /// say which files filled the output when it overflows. rg prints one
    /// file's records together, so a file's count is kept aside until the
    /// path changes, then appended here: no lookup per record (summed only
    /// when the output overflows).
    sizes: Vec<(Vec<u8>, u64)>,
    current: (Vec<u8>, u64),
}

/// What the sink kept: text files with their lines, the binary files that
/// matched, and (when counting) the files' counts.
pub struct Matched {
    pub files: Vec<FileLines>,
    /// Displayed paths, in byte order.
    pub binary_files: Vec<String>,
    pub counts: Vec<FileCount>,
}

impl<'w> MatchSink<'w> {
    /// A sink for lines previewed at `line_cap` bytes, reading what `want`
    /// asks, holding no record longer than `record_bound`.
    pub fn new(
        workdir: &'w Workdir,
        line_cap: usize,
        want: Want,
        record_bound: Option<usize>,
    ) -> Self {
        Self {
            workdir,
            line_cap,
            want,
            record_bound,
            pending: Vec::new(),
            giant: None,
            records: 0,
            index: HashMap::new(),
            files: Vec::new(),
            counts: Vec::new(),
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

    /// Split `bytes` into records (the last may stay pending, or be read as
    /// it streams) and decode each, or after an overflow only `skim` it.
    fn records(&mut self, mut bytes: &[u8], skim: bool) {
        let each = if skim { Self::skim_line } else { Self::line };
        loop {
            // Given up on (see `watchdog`): nobody will read these records.
            if crate::stop::unwanted() {
                return;
            }
            let newline = memchr::memchr(b'\n', bytes);
            if let Some(reader) = &mut self.giant {
                let end = newline.unwrap_or(bytes.len());
                reader.feed(&bytes[..end]);
                let Some(end) = newline else { return };
                if let Some(reader) = self.giant.take() {
                    self.giant_record(reader, skim);
                }
                bytes = &bytes[end + 1..];
                continue;
            }
            let Some(end) = newline else {
                self.pending.extend_from_slice(bytes);
                if let Some(bound) = self.record_bound {
                    if self.pending.len() > bound {
                        let mut reader = giant::Reader::new(self.line_cap);
                        reader.feed(&self.pending);
                        self.pending = Vec::new();
                        self.giant = Some(reader);
                    }
                }
                return;
            };
            if self.pending.is_empty() {
                each(self, &bytes[..end]);
            } else {
                let mut line = std::mem::take(&mut self.pending);
                line.extend_from_slice(&bytes[..end]);
                each(self, &line);
            }
            bytes = &bytes[end + 1..];
        }
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
        match json::decode(line, self.want) {
            Ok(None) => {}
            Ok(Some(Record::Binary { path })) => {
                self.binary.insert(self.workdir.display(&path).into_owned());
            }
            Ok(Some(Record::Count {
                path,
                matched_lines,
            })) => {
                let path = self.workdir.display(&path).into_owned();
                self.counts.push((path, matched_lines));
            }
            Ok(Some(Record::Match(record))) => {
                self.tally(&record.path, line.len() as u64 + 1);
                let (cap, multiline) = (self.line_cap, self.want.all_submatches);
                matched_lines(&record, cap, multiline, self.lines_of(&record.path));
            }
            Ok(Some(Record::Context(record))) => {
                self.tally(&record.path, line.len() as u64 + 1);
                let preview = preview::preview(&record.lines, None, self.line_cap);
                let line = shown(record.line_number, false, preview);
                self.lines_of(&record.path).push(line);
            }
            Err(e) => self.error = Some(format!("record {}: {e}", self.records)),
        }
    }

    /// A record that was read as it streamed.
    fn giant_record(&mut self, reader: giant::Reader, skim: bool) {
        if self.error.is_some() {
            return;
        }
        if skim {
            // After an overflow only sizes are wanted; what was kept of
            // the path says whose record it was.
            if let Ok(g) = reader.finish() {
                self.tally(&g.path, self.record_bound.unwrap_or(0) as u64);
            }
            return;
        }
        self.records += 1;
        let record = self.records;
        let g = match reader.finish() {
            Ok(g) => g,
            Err(e) => {
                self.error = Some(format!("record {record}: {e}"));
                return;
            }
        };
        let Some(number) = g.line_number else {
            self.error = Some(format!(
                "record {record}: a {} record that is too large to hold has no line_number",
                g.kind
            ));
            return;
        };
        self.tally(&g.path, self.record_bound.unwrap_or(0) as u64);
        let line = match g.kind.as_str() {
            "match" => shown(number, true, self.giant_preview(&g)),
            "context" => shown(number, false, preview::head_preview(&g.head, self.line_cap)),
            _ => return,
        };
        self.lines_of(&g.path).push(line);
    }

    /// The preview of a matched line too long to hold: from its first
    /// bytes when the match is among them; else the window around the
    /// match, read from the file where rg said the line starts, once the
    /// file is seen to hold the match there; else the match alone.
    fn giant_preview(&self, g: &Giant) -> Preview {
        let cap = self.line_cap;
        let Some((start, end)) = g.first_match.filter(|&(_, e)| e > cap) else {
            return preview::head_preview(&g.head, cap);
        };
        let from = start.saturating_sub(cap);
        let to = if end - start >= cap {
            start + cap
        } else {
            end + cap
        };
        let region = g.absolute_offset.and_then(|offset| {
            read_at(
                &self.workdir.resolve(&g.path),
                offset + from as u64,
                to - from,
            )
        });
        if let Some(mut region) = region {
            // The line may end before the region does.
            if let Some(nl) = memchr::memchr(b'\n', &region[(end - from).min(region.len())..]) {
                region.truncate(end - from + nl);
            }
            let at = start - from;
            let known = g.match_head.len().min(end - start);
            if region.get(at..at + known) == Some(&g.match_head[..known]) {
                return preview::window_preview(&region, at, end - from, cap);
            }
        }
        let shown_match = &g.match_head[..g.match_head.len().min(cap)];
        preview::window_preview(shown_match, 0, shown_match.len(), cap)
    }

    /// The lines kept of the file rg printed as `path`.
    fn lines_of(&mut self, path: &[u8]) -> &mut Vec<Line> {
        let path = self.workdir.display(path);
        // rg prints one file's records together; look up only on change.
        let at = match self.files.last() {
            Some((last, _)) if *last == *path => self.files.len() - 1,
            _ => {
                if let Some(&i) = self.index.get(&*path) {
                    i
                } else {
                    let path = path.into_owned();
                    self.index.insert(path.clone(), self.files.len());
                    self.files.push((path, Vec::new()));
                    self.files.len() - 1
                }
            }
        };
        &mut self.files[at].1
    }

    /// The malformed-output description, if any record was not understood.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn has_matches(&self) -> bool {
        self.files
            .iter()
            .any(|(_, lines)| lines.iter().any(|l| l.matched))
            || !self.binary.is_empty()
            || !self.counts.is_empty()
    }

    /// The text files, by path in byte order, their lines by number (each
    /// once, a matched line over a context line); the binary files that
    /// matched, whose lines are never shown (SPEC §2); the counts, by path.
    pub fn into_matched(self) -> Matched {
        let binary = self.binary;
        let mut files = self.files;
        files.retain(|(path, lines)| !binary.contains(path) && lines.iter().any(|l| l.matched));
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let files = files
            .into_iter()
            .map(|(path, mut lines)| {
                lines.sort_by_key(|l| (l.number, !l.matched));
                lines.dedup_by_key(|l| l.number);
                FileLines {
                    path: String::from_utf8_lossy(&path).into_owned(),
                    lines,
                }
            })
            .collect();
        let mut counts = self.counts;
        counts.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Matched {
            files,
            binary_files: binary
                .into_iter()
                .map(|p| String::from_utf8_lossy(&p).into_owned())
                .collect(),
            counts: counts
                .into_iter()
                .map(|(path, count)| FileCount {
                    path: String::from_utf8_lossy(&path).into_owned(),
                    count,
                })
                .collect(),
        }
    }
}

/// The lines of a match record, previewed at `cap` bytes, into `out`: one,
/// or each line of a `multiline` match, with its own first submatch.
fn matched_lines(record: &LinesRecord<'_>, cap: usize, multiline: bool, out: &mut Vec<Line>) {
    let text: &[u8] = &record.lines;
    let last = text.len().saturating_sub(1);
    if !multiline || memchr::memchr(b'\n', &text[..last]).is_none() {
        let preview = preview::preview(text, record.first_match, cap);
        out.push(shown(record.line_number, true, preview));
        return;
    }
    let submatches: Vec<(usize, usize)> = record
        .first_match
        .iter()
        .chain(&record.more_matches)
        .copied()
        .collect();
    let mut start = 0;
    for (k, piece) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let end = start + piece.len();
        // The first submatch touching this line, within it.
        let first = submatches
            .iter()
            .find(|&&(s, e)| s < end && (e > start || (s == e && s == start)))
            .map(|&(s, e)| (s.max(start) - start, e.min(end) - start));
        let preview = preview::preview(piece, first, cap);
        out.push(shown(record.line_number + k as u64, true, preview));
        start = end;
    }
}

fn shown(number: u64, matched: bool, preview: Preview) -> Line {
    Line {
        number,
        matched,
        preview: preview.text,
        truncated: preview.truncated,
    }
}

/// Up to `len` bytes of the file at `path` from `offset`.
fn read_at(path: &std::path::Path, offset: u64, len: usize) -> Option<Vec<u8>> {
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut region = Vec::with_capacity(len);
    file.take(len as u64).read_to_end(&mut region).ok()?;
    Some(region)
}

impl Sink for MatchSink<'_> {
    fn chunk(&mut self, bytes: &[u8]) {
        self.records(bytes, false);
    }

    fn finish(&mut self) {
        if let Some(reader) = self.giant.take() {
            self.giant_record(reader, false);
        }
        let line = std::mem::take(&mut self.pending);
        self.line(&line);
    }

    fn skim(&mut self, bytes: &[u8]) {
        self.records(bytes, true);
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

    #[cfg(unix)]
    fn record(path: &str, n: u64, text: &str) -> String {
        format!(
            r#"{{"type":"match","data":{{"path":{{"text":"{path}"}},"lines":{{"text":"{text}\n"}},"line_number":{n},"submatches":[{{"start":0,"end":1}}]}}}}"#
        )
    }

    fn sink(w: &Workdir) -> MatchSink<'_> {
        MatchSink::new(w, 100, Want::default(), Some(record_bound(100)))
    }

    // Unix only: Unix absolute paths (paths.rs tests the Windows forms).
    #[cfg(unix)]
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
            let mut sink = sink(&w);
            for chunk in stream.as_bytes().chunks(size) {
                sink.chunk(chunk);
            }
            sink.finish();
            assert_eq!(sink.error(), None);
            let files = sink.into_matched().files;
            let got: Vec<(String, Vec<u64>)> = files
                .iter()
                .map(|f| (f.path.clone(), f.lines.iter().map(|m| m.number).collect()))
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
        let mut sink = sink(&w);
        sink.chunk(b"\n{\"type\":\"begin\"}\n{oops\nmore junk\n");
        sink.finish();
        assert!(
            sink.error()
                .unwrap()
                .starts_with("record 2: not a JSON record")
        );
    }

    #[test]
    fn a_multiline_match_is_each_of_its_lines() {
        let w = Workdir::new(Path::new("/"));
        let want = Want {
            all_submatches: true,
            ..Want::default()
        };
        let mut sink = MatchSink::new(&w, 100, want, None);
        sink.chunk(br#"{"type":"match","data":{"path":{"text":"m"},"lines":{"text":"a1\na2\na3\n"},"line_number":4,"submatches":[{"start":1,"end":7}]}}"#);
        sink.chunk(b"\n");
        sink.chunk(br#"{"type":"match","data":{"path":{"text":"m"},"lines":{"text":"a3\n"},"line_number":6,"submatches":[{"start":0,"end":1}]}}"#);
        sink.finish();
        let files = sink.into_matched().files;
        let lines: Vec<(u64, bool, &str)> = files[0]
            .lines
            .iter()
            .map(|l| (l.number, l.matched, l.preview.as_str()))
            .collect();
        assert_eq!(lines, [(4, true, "a1"), (5, true, "a2"), (6, true, "a3")]);
    }

    #[test]
    fn a_giant_record_is_read_as_it_streams() {
        let dir = tempfile::tempdir().unwrap();
        let line = format!("{}needle{}", "x".repeat(3_000_000), "y".repeat(500));
        std::fs::write(dir.path().join("min.js"), format!("{line}\n")).unwrap();
        let w = Workdir::new(dir.path());
        let json = format!(
            r#"{{"type":"match","data":{{"path":{{"text":"min.js"}},"lines":{{"text":"{line}\n"}},"line_number":1,"absolute_offset":0,"submatches":[{{"match":{{"text":"needle"}},"start":3000000,"end":3000006}}]}}}}"#
        );
        let mut sink = MatchSink::new(&w, 20, Want::default(), Some(record_bound(20)));
        for chunk in json.as_bytes().chunks(65_536) {
            sink.chunk(chunk);
        }
        sink.chunk(b"\n");
        assert!(sink.pending.capacity() < 2 * record_bound(20));
        sink.finish();
        assert_eq!(sink.error(), None);
        let files = sink.into_matched().files;
        assert_eq!(
            files[0].lines[0].preview,
            "…xxxxxxxneedleyyyyyyy (line truncated)"
        );
        // The file changed since: the match alone.
        std::fs::write(dir.path().join("min.js"), "short\n").unwrap();
        let mut sink = MatchSink::new(&w, 20, Want::default(), Some(record_bound(20)));
        sink.chunk(json.as_bytes());
        sink.chunk(b"\n");
        sink.finish();
        assert_eq!(
            sink.into_matched().files[0].lines[0].preview,
            "…needle (line truncated)"
        );
    }
}
