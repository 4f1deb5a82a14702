//! The serde model of `rg --json` records, decoded one line at a time.
//!
//! `match` records carry the matches; an `end` record with a non-null
//! `binary_offset` says its file was binary (rg `--binary` searches such
//! files and reports where it found the NUL byte). Every other record (a
//! plain end, begin, context, summary, and any type a later rg adds) is
//! checked to be a JSON object with a string `type` and then skipped
//! without building a value.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::value::RawValue;

/// What one record says.
#[derive(Debug, PartialEq, Eq)]
pub enum Record<'a> {
    Match(MatchRecord<'a>),
    /// The file at this path was binary (it had matches, or rg would not
    /// print an `end` record for it).
    Binary {
        path: Cow<'a, [u8]>,
    },
}

/// One matched line, borrowed from the record where rg's JSON allows.
#[derive(Debug, PartialEq, Eq)]
pub struct MatchRecord<'a> {
    pub path: Cow<'a, [u8]>,
    /// The line as rg printed it, line terminator included.
    pub line: Cow<'a, [u8]>,
    pub line_number: u64,
    /// Byte range of the first submatch within `line`, if rg gave one.
    pub first_match: Option<(usize, usize)>,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    data: Option<&'a RawValue>,
}

/// An `end` record: only its path and `binary_offset` are read.
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
}

/// A whole match record, for the one-pass fast path.
#[derive(Deserialize)]
struct MatchRecordJson<'a> {
    #[serde(borrow)]
    data: MatchData<'a>,
}

#[derive(Deserialize)]
struct MatchData<'a> {
    #[serde(borrow, default)]
    path: Option<Data<'a>>,
    #[serde(borrow, default)]
    lines: Option<Data<'a>>,
    #[serde(default)]
    line_number: Option<u64>,
    #[serde(default)]
    submatches: FirstSubmatch,
}

/// The first of rg's submatches; the rest are skipped without allocating.
#[derive(Default)]
struct FirstSubmatch(Option<Submatch>);

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

/// Decode one non-blank line of `rg --json` output. `Ok(None)` for records
/// that say nothing dsh-search uses. The error says what was wrong, for the
/// `SEARCH_FAILED` message.
pub fn decode(line: &[u8]) -> Result<Option<Record<'_>>, String> {
    // Fast paths for the layout rg prints (`type` first): a match record is
    // decoded in one pass, the records that carry no match are not decoded.
    if line.starts_with(MATCH_PREFIX) {
        let record: MatchRecordJson<'_> = serde_json::from_slice(line).map_err(|e| {
            if e.is_data() {
                format!("a match record is not of rg's form: {e}")
            } else {
                format!("not a JSON record: {e}")
            }
        })?;
        return match_record(record.data).map(|m| Some(Record::Match(m)));
    }
    if line.starts_with(END_PREFIX) {
        // Most files are text: their end record is skipped undecoded.
        if memchr::memmem::find(line, br#""binary_offset":null"#).is_some() {
            return Ok(None);
        }
        let record: EndRecordJson<'_> = serde_json::from_slice(line)
            .map_err(|e| format!("an end record is not of rg's form: {e}"))?;
        return end_record(record.data);
    }
    if NO_MATCH_PREFIXES.iter().any(|p| line.starts_with(p)) {
        return Ok(None);
    }
    // serde's derived structs also accept a JSON array of the fields in
    // order; rg only ever prints objects.
    if !is_object(line) {
        return Err("not a JSON record: expected a JSON object".to_owned());
    }
    let envelope: Envelope<'_> =
        serde_json::from_slice(line).map_err(|e| format!("not a JSON record: {e}"))?;
    let kind = envelope.kind;
    if kind != "match" && kind != "end" {
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
        return end_record(data);
    }
    let data: MatchData<'_> = serde_json::from_str(data.get())
        .map_err(|e| format!("a match record is not of rg's form: {e}"))?;
    match_record(data).map(|m| Some(Record::Match(m)))
}

const MATCH_PREFIX: &[u8] = br#"{"type":"match","data":{"#;
const END_PREFIX: &[u8] = br#"{"type":"end","data":{"#;
const NO_MATCH_PREFIXES: [&[u8]; 3] = [
    br#"{"type":"begin","data":{"#,
    br#"{"type":"context","data":{"#,
    br#"{"type":"summary","data":{"#,
];

/// The path of a match record, read from its opening bytes alone, as rg
/// writes them (`{"type":"match","data":{"path":{"text":"…"` or
/// `…{"bytes":"…"`): for a record that is cut off, or one not worth
/// decoding whole. `None` for anything else.
pub fn match_path(line: &[u8]) -> Option<Vec<u8>> {
    let rest = line
        .strip_prefix(MATCH_PREFIX)?
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

fn end_record(data: EndData<'_>) -> Result<Option<Record<'_>>, String> {
    if data.binary_offset.is_none() {
        return Ok(None);
    }
    let path = data
        .path
        .ok_or_else(|| "an end record has no path".to_owned())
        .and_then(|d| bytes_of(d, "path"))?;
    Ok(Some(Record::Binary { path }))
}

fn match_record(data: MatchData<'_>) -> Result<MatchRecord<'_>, String> {
    let path = data
        .path
        .ok_or_else(|| "a match record has no path".to_owned())
        .and_then(|d| bytes_of(d, "path"))?;
    let line = data
        .lines
        .ok_or_else(|| "a match record has no lines".to_owned())
        .and_then(|d| bytes_of(d, "lines"))?;
    let line_number = data
        .line_number
        .ok_or_else(|| "a match record has no line_number".to_owned())?;
    let first_match = data
        .submatches
        .0
        .map(|s| (s.start, s.end))
        .filter(|&(start, end)| start <= end && end <= line.len());
    Ok(MatchRecord {
        path,
        line,
        line_number,
        first_match,
    })
}

fn is_object(json: &[u8]) -> bool {
    json.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

fn bytes_of<'a>(data: Data<'a>, field: &str) -> Result<Cow<'a, [u8]>, String> {
    match (data.text, data.bytes) {
        (Some(Cow::Borrowed(text)), _) => Ok(Cow::Borrowed(text.as_bytes())),
        (Some(Cow::Owned(text)), _) => Ok(Cow::Owned(text.into_bytes())),
        (None, Some(encoded)) => BASE64
            .decode(encoded.as_bytes())
            .map(Cow::Owned)
            .map_err(|e| format!("a match record's {field}.bytes is not base64: {e}")),
        (None, None) => Err(format!(
            "a match record's {field} has neither text nor bytes"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matched(line: &[u8]) -> MatchRecord<'_> {
        match decode(line) {
            Ok(Some(Record::Match(m))) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_match_path_is_read_from_the_opening_bytes() {
        let cut =
            br#"{"type":"match","data":{"path":{"text":"dist/a \"b\".js"},"lines":{"text":"xxxx"#;
        assert_eq!(match_path(cut), Some(b"dist/a \"b\".js".to_vec()));
        let bytes = br#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lin"#;
        assert_eq!(match_path(bytes), Some(b"a/\xff.txt".to_vec()));
        let backslash = br#"{"type":"match","data":{"path":{"text":"a\\"},"#;
        assert_eq!(match_path(backslash), Some(b"a\\".to_vec()));
        assert_eq!(
            match_path(br#"{"type":"match","data":{"path":{"text":"unterminated"#),
            None
        );
        assert_eq!(match_path(br#"{"type":"end","data":{}}"#), None);
    }

    #[test]
    fn binary_files_are_named_by_their_end_record() {
        let binary = br#"{"type":"end","data":{"path":{"text":"app.log"},"binary_offset":13,"stats":{"matches":1}}}"#;
        assert_eq!(
            decode(binary),
            Ok(Some(Record::Binary {
                path: Cow::Borrowed(&b"app.log"[..])
            }))
        );
        let text =
            br#"{"type":"end","data":{"path":{"text":"a.txt"},"binary_offset":null,"stats":{}}}"#;
        assert_eq!(decode(text), Ok(None));
        // Fields in another order take the general path.
        let reordered = br#"{"data":{"binary_offset":0,"path":{"bytes":"/w=="}},"type":"end"}"#;
        assert_eq!(
            decode(reordered),
            Ok(Some(Record::Binary {
                path: Cow::Owned(vec![0xff])
            }))
        );
    }

    #[test]
    fn text_match() {
        let line = br#"{"type":"match","data":{"path":{"text":"src/a.rs"},"lines":{"text":"fn main() {}\n"},"line_number":3,"absolute_offset":0,"submatches":[{"match":{"text":"main"},"start":3,"end":7}]}}"#;
        let m = matched(line);
        assert_eq!(&*m.path, b"src/a.rs");
        assert_eq!(&*m.line, b"fn main() {}\n");
        assert_eq!(m.line_number, 3);
        assert_eq!(m.first_match, Some((3, 7)));
    }

    #[test]
    fn bytes_forms_and_escapes() {
        // "caf\xe9 x\n" and a path holding \xff.
        let line = br#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lines":{"bytes":"Y2Fm6SB4Cg=="},"line_number":1,"submatches":[]}}"#;
        let m = matched(line);
        assert_eq!(&*m.path, b"a/\xff.txt");
        assert_eq!(&*m.line, b"caf\xe9 x\n");
        assert_eq!(m.first_match, None);
        let escaped = br#"{"type":"match","data":{"path":{"text":"a\"b"},"lines":{"text":"\u00e9\t\n"},"line_number":2,"submatches":[{"start":0,"end":2}]}}"#;
        let m = matched(escaped);
        assert_eq!(&*m.path, b"a\"b");
        assert_eq!(&*m.line, "é\t\n".as_bytes());
    }

    #[test]
    fn other_records_are_skipped() {
        for line in [
            &br#"{"type":"begin","data":{"path":{"text":"a"}}}"#[..],
            br#"{"type":"summary","data":{"elapsed_total":{}}}"#,
            br#"{"type":"future_kind","data":[1,2,3]}"#,
            br#"{"type":"context"}"#,
        ] {
            assert_eq!(decode(line), Ok(None));
        }
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let cases: [(&[u8], &str); 9] = [
            (b"not json", "not a JSON record"),
            (br#"["match",{"path":{"text":"a"},"lines":{"text":"x"},"line_number":1}]"#, "expected a JSON object"),
            (br#"{"type":"match","data":["a"]}"#, "data is not an object"),
            (br#"{"data":{}}"#, "not a JSON record"),
            (br#"{"type":"match"}"#, "has no data"),
            (br#"{"type":"match","data":{"lines":{"text":"x"},"line_number":1}}"#, "has no path"),
            (br#"{"type":"match","data":{"path":{"text":"a"},"line_number":1}}"#, "has no lines"),
            (br#"{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x"}}}"#, "no line_number"),
            (br#"{"type":"match","data":{"path":{"text":"a"},"lines":{"bytes":"!!"},"line_number":1}}"#, "not base64"),
        ];
        for (line, want) in cases {
            let err = decode(line).unwrap_err();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
