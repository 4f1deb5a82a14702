//! The serde model of `rg --json` records, decoded one line at a time.
//!
//! `match` records carry matched lines and `context` records the lines
//! around them; an `end` record with a non-null `binary_offset` says its
//! file was binary (rg `--binary` searches such files and reports where it
//! found the NUL byte), and its `stats.matched_lines` is the file's count
//! of matched lines, read when a count is wanted. Every other record (a
//! plain end, begin, summary, and any type a later rg adds) is checked to
//! be a JSON object with a string `type` and then skipped without building
//! a value.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::value::RawValue;

/// What one record says.
#[derive(Debug, PartialEq, Eq)]
pub enum Record<'a> {
    /// A matched line (or, in a multiline search, several).
    Match(LinesRecord<'a>),
    /// A context line around a match.
    Context(LinesRecord<'a>),
    /// The file at this path was binary (it had matches, or rg would not
    /// print an `end` record for it).
    Binary { path: Cow<'a, [u8]> },
    /// The lines of the file at this path that matched ([`Want::counts`]).
    Count {
        path: Cow<'a, [u8]>,
        matched_lines: u64,
    },
}

/// What a search reads of rg's records besides matched lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Want {
    /// Every submatch of a match record, not only the first (a multiline
    /// match's later lines need theirs).
    pub all_submatches: bool,
    /// Only the per-file counts of the end records; lines are skipped.
    pub counts: bool,
    /// Context records (rg prints them only when context was asked for;
    /// otherwise they are skipped like any record nothing uses).
    pub context: bool,
}

/// One match or context record, borrowed from the record where rg's JSON
/// allows.
#[derive(Debug, PartialEq, Eq)]
pub struct LinesRecord<'a> {
    pub path: Cow<'a, [u8]>,
    /// The line (several in a multiline match) as rg printed it, line
    /// terminators included.
    pub lines: Cow<'a, [u8]>,
    /// The number of the first line.
    pub line_number: u64,
    /// Byte range of the first submatch within `lines`, if rg gave one.
    pub first_match: Option<(usize, usize)>,
    /// The later submatches, when [`Want::all_submatches`].
    pub more_matches: Vec<(usize, usize)>,
}

#[derive(Deserialize)]
struct Tagged<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    data: Option<&'a RawValue>,
}

/// An `end` record: only its path, `binary_offset` and matched lines are
/// read.
#[derive(Deserialize)]
struct EndRecordJson<'a> {
    #[serde(borrow)]
    data: EndData<'a>,
}

#[derive(Deserialize)]
struct EndData<'a> {
    #[serde(borrow, default)]
    path: Option<Data<'a>>,
    #[serde(default)]
    binary_offset: Option<u64>,
    #[serde(default)]
    stats: Option<EndStats>,
}

#[derive(Deserialize)]
struct EndStats {
    #[serde(default)]
    matched_lines: Option<u64>,
}

/// A whole match or context record, for the one-pass fast path.
#[derive(Deserialize)]
#[serde(bound(deserialize = "S: Deserialize<'de> + Default"))]
struct LinesRecordJson<'a, S> {
    #[serde(borrow)]
    data: LinesData<'a, S>,
}

#[derive(Deserialize)]
#[serde(bound(deserialize = "S: Deserialize<'de> + Default"))]
struct LinesData<'a, S> {
    #[serde(borrow, default)]
    path: Option<Data<'a>>,
    #[serde(borrow, default)]
    lines: Option<Data<'a>>,
    #[serde(default)]
    line_number: Option<u64>,
    #[serde(default)]
    submatches: S,
}

/// The first submatch's byte range, and the later ones'.
type Ranges = (Option<(usize, usize)>, Vec<(usize, usize)>);

/// rg's submatches, as much of them as is read.
trait Submatches {
    fn ranges(self) -> Ranges;
}

/// The first of rg's submatches; the rest are skipped without allocating.
#[derive(Default)]
struct FirstSubmatch(Option<Submatch>);

impl Submatches for FirstSubmatch {
    fn ranges(self) -> Ranges {
        (self.0.map(|s| (s.start, s.end)), Vec::new())
    }
}

/// Every submatch.
#[derive(Default, Deserialize)]
struct AllSubmatches(Vec<Submatch>);

impl Submatches for AllSubmatches {
    fn ranges(self) -> Ranges {
        let mut all = self.0.into_iter().map(|s| (s.start, s.end));
        let first = all.next();
        (first, all.collect())
    }
}

impl<'de> Deserialize<'de> for FirstSubmatch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = FirstSubmatch;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of submatches")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let first = seq.next_element::<Submatch>()?;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(FirstSubmatch(first))
            }
        }
        d.deserialize_seq(Visitor)
    }
}

/// rg's arbitrary-data form: `{"text": "..."}` for UTF-8, `{"bytes": "<base64>"}` otherwise.
#[derive(Deserialize)]
struct Data<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    bytes: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Submatch {
    start: usize,
    end: usize,
}

/// Decode one non-blank line of `rg --json` output, reading what `want`
/// asks. `Ok(None)` for records that say nothing dsh-search uses. The
/// error says what was wrong, for the `SEARCH_FAILED` message.
pub fn decode(line: &[u8], want: Want) -> Result<Option<Record<'_>>, String> {
    // Fast paths for the layout rg prints (`type` first): a match or
    // context record is decoded in one pass, the others are not decoded.
    if line.starts_with(MATCH_PREFIX) || line.starts_with(CONTEXT_PREFIX) {
        if want.counts || (!want.context && line.starts_with(CONTEXT_PREFIX)) {
            return Ok(None);
        }
        let matched = line.starts_with(MATCH_PREFIX);
        let what = if matched { "match" } else { "context" };
        let shape = |e: serde_json::Error| {
            if e.is_data() {
                format!("a {what} record is not of rg's form: {e}")
            } else {
                format!("not a JSON record: {e}")
            }
        };
        if want.all_submatches {
            let r: LinesRecordJson<'_, AllSubmatches> =
                serde_json::from_slice(line).map_err(shape)?;
            return lines_record(r.data, what);
        }
        let r: LinesRecordJson<'_, FirstSubmatch> = serde_json::from_slice(line).map_err(shape)?;
        return lines_record(r.data, what);
    }
    if line.starts_with(END_PREFIX) {
        // Most files are text: their end record is skipped undecoded.
        if !want.counts && memchr::memmem::find(line, br#""binary_offset":null"#).is_some() {
            return Ok(None);
        }
        let record: EndRecordJson<'_> = serde_json::from_slice(line)
            .map_err(|e| format!("an end record is not of rg's form: {e}"))?;
        return end_record(record.data, want);
    }
    if NO_MATCH_PREFIXES.iter().any(|p| line.starts_with(p)) {
        return Ok(None);
    }
    // serde's derived structs also accept a JSON array of the fields in
    // order; rg only ever prints objects.
    if !is_object(line) {
        return Err("not a JSON record: expected a JSON object".to_owned());
    }
    let envelope: Tagged<'_> =
        serde_json::from_slice(line).map_err(|e| format!("not a JSON record: {e}"))?;
    let kind = envelope.kind;
    if !matches!(kind.as_ref(), "match" | "context" | "end") {
        return Ok(None);
    }
    let data = envelope
        .data
        .ok_or_else(|| format!("a {kind} record has no data"))?;
    if !is_object(data.get().as_bytes()) {
        return Err(format!("a {kind} record's data is not an object"));
    }
    if kind == "end" {
        let data: EndData<'_> = serde_json::from_str(data.get())
            .map_err(|e| format!("an end record is not of rg's form: {e}"))?;
        return end_record(data, want);
    }
    if want.counts || (!want.context && kind == "context") {
        return Ok(None);
    }
    let shape = |e: serde_json::Error| format!("a {kind} record is not of rg's form: {e}");
    if want.all_submatches {
        let data: LinesData<'_, AllSubmatches> = serde_json::from_str(data.get()).map_err(shape)?;
        return lines_record(data, &kind);
    }
    let data: LinesData<'_, FirstSubmatch> = serde_json::from_str(data.get()).map_err(shape)?;
    lines_record(data, &kind)
}

const MATCH_PREFIX: &[u8] = br#"{"type":"match","data":{"#;
const CONTEXT_PREFIX: &[u8] = br#"{"type":"context","data":{"#;
const END_PREFIX: &[u8] = br#"{"type":"end","data":{"#;
const NO_MATCH_PREFIXES: [&[u8]; 2] = [
    br#"{"type":"begin","data":{"#,
    br#"{"type":"summary","data":{"#,
];

/// The path of a match or context record, read from its opening bytes
/// alone, as rg writes them (`{"type":"match","data":{"path":{"text":"…"`
/// or `…{"bytes":"…"`): for a record that is cut off, or one not worth
/// decoding whole. `None` for anything else.
pub fn match_path(line: &[u8]) -> Option<Vec<u8>> {
    let rest = line
        .strip_prefix(MATCH_PREFIX)
        .or_else(|| line.strip_prefix(CONTEXT_PREFIX))?
        .strip_prefix(br#""path":{"#)?;
    let (rest, base64) = if let Some(r) = rest.strip_prefix(br#""text":"#) {
        (r, false)
    } else {
        (rest.strip_prefix(br#""bytes":"#)?, true)
    };
    // The JSON string alone: it ends at its own closing quote, whatever
    // follows (or does not, in a record that was cut off).
    let text: String = serde_json::Deserializer::from_slice(rest)
        .into_iter::<String>()
        .next()?
        .ok()?;
    if base64 {
        BASE64.decode(text.as_bytes()).ok()
    } else {
        Some(text.into_bytes())
    }
}

fn end_record(data: EndData<'_>, want: Want) -> Result<Option<Record<'_>>, String> {
    let path = || {
        let path = data.path.ok_or("an end record has no path")?;
        bytes_of(path, "end", "path")
    };
    if want.counts {
        let matched_lines = data
            .stats
            .and_then(|s| s.matched_lines)
            .ok_or_else(|| "an end record has no stats.matched_lines".to_owned())?;
        if matched_lines == 0 {
            return Ok(None);
        }
        return Ok(Some(Record::Count {
            path: path()?,
            matched_lines,
        }));
    }
    if data.binary_offset.is_none() {
        return Ok(None);
    }
    Ok(Some(Record::Binary { path: path()? }))
}

/// A record of the type `what` (`match` or `context`), from its data.
fn lines_record<'a, S: Submatches>(
    data: LinesData<'a, S>,
    what: &str,
) -> Result<Option<Record<'a>>, String> {
    let path = data
        .path
        .ok_or_else(|| format!("a {what} record has no path"))
        .and_then(|d| bytes_of(d, what, "path"))?;
    let lines = data
        .lines
        .ok_or_else(|| format!("a {what} record has no lines"))
        .and_then(|d| bytes_of(d, what, "lines"))?;
    let line_number = data
        .line_number
        .ok_or_else(|| format!("a {what} record has no line_number"))?;
    let within = |&(start, end): &(usize, usize)| start <= end && end <= lines.len();
    let (first, more) = data.submatches.ranges();
    let record = LinesRecord {
        first_match: first.filter(within),
        more_matches: more.into_iter().filter(within).collect(),
        path,
        lines,
        line_number,
    };
    Ok(Some(if what == "match" {
        Record::Match(record)
    } else {
        Record::Context(record)
    }))
}

fn is_object(json: &[u8]) -> bool {
    json.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

fn bytes_of<'a>(data: Data<'a>, what: &str, field: &str) -> Result<Cow<'a, [u8]>, String> {
    match (data.text, data.bytes) {
        (Some(Cow::Borrowed(text)), _) => Ok(Cow::Borrowed(text.as_bytes())),
        (Some(Cow::Owned(text)), _) => Ok(Cow::Owned(text.into_bytes())),
        (None, Some(encoded)) => BASE64
            .decode(encoded.as_bytes())
            .map(Cow::Owned)
            .map_err(|e| format!("a {what} record's {field}.bytes is not base64: {e}")),
        (None, None) => Err(format!(
            "a {what} record's {field} has neither text nor bytes"
        )),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/rg/json.rs"]
mod tests;
