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
use super::report::{FileCount, FileLines, ShownLine};
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
    /// record is held whole (the raw-output cap bounds it, as it bounds
    /// every byte rg prints).
    record_bound: Option<usize>,
    /// Bytes of a record not yet ended by `\n`.
    pending: Vec<u8>,
    /// The record being read as it streams, when it is too long to hold.
    giant: Option<giant::GiantReader>,
    /// Records seen (non-blank lines), for error messages.
    records: u64,
    /// Displayed path → index in `files`.
    index: HashMap<Vec<u8>, usize>,
    files: Vec<(Vec<u8>, Vec<ShownLine>)>,
    /// Matched lines per displayed path ([`Want::counts`]), and their sum.
    counts: Vec<(Vec<u8>, u64)>,
    counted: u64,
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
            counted: 0,
            binary: BTreeSet::new(),
            error: None,
            sizes: Vec::new(),
            current: (Vec::new(), 0),
        }
    }

    /// Whether it keeps per-file counts (a multiline count), not lines.
    pub fn counting(&self) -> bool {
        self.want.counts
    }

    /// Count `bytes` of raw output against `path`.
    fn tally(&mut self, path: &[u8], bytes: u64) {
        if self.current.0 != path {
            let done = std::mem::replace(&mut self.current, (path.to_vec(), 0));
            if done.1 > 0 {
                self.sizes.push(done);
            }
        }
        self.current.1 = self.current.1.saturating_add(bytes);
    }

    /// The files that produced most of an overflowing output: each with its
    /// share in percent, largest first (SPEC §6: say which file to leave out).
    pub fn heavy(&mut self) -> Vec<(String, u8)> {
        let last = std::mem::take(&mut self.current);
        let mut summed: HashMap<&[u8], u64> = HashMap::new();
        for (path, n) in self.sizes.iter().chain(std::iter::once(&last)) {
            let sum = summed.entry(path.as_slice()).or_default();
            *sum = sum.saturating_add(*n);
        }
        let total = summed.values().fold(0u64, |t, &n| t.saturating_add(n));
        let mut sizes: Vec<(&[u8], u64)> = summed.into_iter().filter(|&(_, n)| n > 0).collect();
        sizes.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        // In percent, without overflow whatever the sizes.
        let share = |n: u64| u128::from(n) * 100 / u128::from(total.max(1));
        sizes
            .into_iter()
            .take(HEAVY_FILES)
            .filter(|&(_, n)| total > 0 && share(n) >= u128::from(HEAVY_SHARE))
            .map(|(path, n)| {
                let shown = self.workdir.display(path);
                let share = u8::try_from(share(n)).unwrap_or(100);
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
                        let mut reader = giant::GiantReader::new(self.line_cap);
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
        let size = (line.len() as u64).saturating_add(1);
        let read = match json::decode(line, self.want) {
            Ok(None) => Ok(()),
            Ok(Some(Record::Binary { path })) => {
                self.binary.insert(self.workdir.display(&path).into_owned());
                Ok(())
            }
            Ok(Some(Record::Count {
                path,
                matched_lines,
            })) => match self.counted.checked_add(matched_lines) {
                Some(counted) => {
                    self.counted = counted;
                    let path = self.workdir.display(&path).into_owned();
                    self.counts.push((path, matched_lines));
                    Ok(())
                }
                None => Err(too_many_counted()),
            },
            Ok(Some(Record::Match(record))) => {
                self.tally(&record.path, size);
                let (cap, multiline) = (self.line_cap, self.want.all_submatches);
                matched_lines(&record, cap, multiline, self.lines_of(&record.path))
            }
            Ok(Some(Record::Context(record))) => {
                self.tally(&record.path, size);
                let preview = preview::preview(&record.lines, None, self.line_cap);
                let line = ShownLine::new(record.line_number, false, preview);
                self.lines_of(&record.path).push(line);
                Ok(())
            }
            Err(e) => Err(e),
        };
        if let Err(e) = read {
            let read = crate::rg::read_excerpt(line);
            self.error = Some(format!("record {}: {e}, {read}", self.records));
        }
    }

    /// A record that was read as it streamed.
    fn giant_record(&mut self, reader: giant::GiantReader, skim: bool) {
        if self.error.is_some() {
            return;
        }
        // Its bytes and its newline, as the runner counted them.
        let size = reader.bytes().saturating_add(1);
        if skim {
            // After an overflow only sizes are wanted; what was kept of
            // the path says whose record it was.
            if let Ok(g) = reader.finish() {
                self.tally(&g.path, size);
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
                "record {record}: a {} record that is too large to hold has no line_number, {}",
                g.kind,
                crate::rg::read_excerpt(&g.opening)
            ));
            return;
        };
        self.tally(&g.path, size);
        let line = match g.kind.as_str() {
            "match" => ShownLine::new(number, true, self.giant_preview(&g)),
            "context" => {
                ShownLine::new(number, false, preview::head_preview(&g.head, self.line_cap))
            }
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
        // rg's offsets, checked (a record too large to hold is not checked
        // by serde): a match that ends before it starts is no match, and
        // nothing below can overflow, whatever the numbers.
        let Some((start, end)) = g.first_match.filter(|&(s, e)| s <= e && e > cap) else {
            return preview::head_preview(&g.head, cap);
        };
        let from = start.saturating_sub(cap);
        let to = if end - start >= cap {
            start.saturating_add(cap)
        } else {
            end.saturating_add(cap)
        };
        let region = g.absolute_offset.and_then(|offset| {
            let offset = offset.checked_add(from as u64)?;
            read_at(&self.workdir.resolve(&g.path), offset, to - from)
        });
        if let Some(mut region) = region {
            // The line may end before the region does.
            let end_here = end - from;
            if let Some(nl) = memchr::memchr(b'\n', &region[end_here.min(region.len())..]) {
                region.truncate(end_here.saturating_add(nl));
            }
            let at = start - from;
            let known = g.match_head.len().min(end - start);
            if region.get(at..at.saturating_add(known)) == Some(&g.match_head[..known]) {
                return preview::window_preview(&region, at, end_here, cap);
            }
        }
        let shown_match = &g.match_head[..g.match_head.len().min(cap)];
        preview::window_preview(shown_match, 0, shown_match.len(), cap)
    }

    /// The lines kept of the file rg printed as `path`.
    fn lines_of(&mut self, path: &[u8]) -> &mut Vec<ShownLine> {
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
        let lossy = |path: Vec<u8>| String::from_utf8_lossy(&path).into_owned();
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
                    path: lossy(path),
                    lines,
                    windows: Vec::new(),
                }
            })
            .collect();
        let mut counts = self.counts;
        counts.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Matched {
            files,
            binary_files: binary.into_iter().map(lossy).collect(),
            counts: counts
                .into_iter()
                .map(|(path, count)| FileCount {
                    path: lossy(path),
                    count,
                })
                .collect(),
        }
    }
}

/// Why counts that add up past `u64::MAX` are refused: rg's numbers are
/// shown as they are, never wrapped or capped, and no search finds that
/// many lines, so the output is not rg's.
pub fn too_many_counted() -> String {
    format!(
        "the counts add up past {} matched lines, more than any search finds",
        u64::MAX
    )
}

/// The lines of a match record, previewed at `cap` bytes, into `out`: one,
/// or each line of a `multiline` match, with its own first submatch. `Err`
/// when its lines would be numbered past `u64::MAX` (no file has them).
fn matched_lines(
    record: &LinesRecord<'_>,
    cap: usize,
    multiline: bool,
    out: &mut Vec<ShownLine>,
) -> Result<(), String> {
    let text: &[u8] = &record.lines;
    let last = text.len().saturating_sub(1);
    if !multiline || memchr::memchr(b'\n', &text[..last]).is_none() {
        let preview = preview::preview(text, record.first_match, cap);
        out.push(ShownLine::new(record.line_number, true, preview));
        return Ok(());
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
        let number = record
            .line_number
            .checked_add(k as u64)
            .ok_or_else(|| format!("a match record's lines run past line {}", u64::MAX))?;
        let preview = preview::preview(piece, first, cap);
        out.push(ShownLine::new(number, true, preview));
        start = end;
    }
    Ok(())
}

/// Up to `len` bytes of the file at `path` from `offset`.
fn read_at(path: &std::path::Path, offset: u64, len: usize) -> Option<Vec<u8>> {
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(offset)).ok()?;
    // The file decides how much there is: a few bytes reserved, not `len`.
    let mut region = Vec::with_capacity(len.min(1 << 16));
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
        // still names its file in its first bytes, whether it was held or
        // read as it streamed.
        if let Some(reader) = self.giant.take() {
            if let Some(path) = reader.path() {
                self.tally(path, reader.bytes());
            }
        }
        let line = std::mem::take(&mut self.pending);
        self.skim_line(&line);
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/matches.rs"]
mod tests;
