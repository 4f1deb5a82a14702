//! The serde model of `rg --json` records, decoded one line at a time.
//!
//! Only `match` records matter to dsh-search; every other type (begin, end,
//! context, summary, and any type a later rg adds) is checked to be a JSON
//! object with a string `type` and then skipped without building a value.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::value::RawValue;

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
/// that carry no match. The error says what was wrong, for the
/// `SEARCH_FAILED` message.
pub fn decode(line: &[u8]) -> Result<Option<MatchRecord<'_>>, String> {
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
        return match_record(record.data).map(Some);
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
    if envelope.kind != "match" {
        return Ok(None);
    }
    let data = envelope
        .data
        .ok_or_else(|| "a match record has no data".to_owned())?;
    if !is_object(data.get().as_bytes()) {
        return Err("a match record's data is not an object".to_owned());
    }
    let data: MatchData<'_> = serde_json::from_str(data.get())
        .map_err(|e| format!("a match record is not of rg's form: {e}"))?;
    match_record(data).map(Some)
}

const MATCH_PREFIX: &[u8] = br#"{"type":"match","data":{"#;
const NO_MATCH_PREFIXES: [&[u8]; 4] = [
    br#"{"type":"begin","data":{"#,
    br#"{"type":"end","data":{"#,
    br#"{"type":"context","data":{"#,
    br#"{"type":"summary","data":{"#,
];

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

    #[test]
    fn text_match() {
        let line = br#"{"type":"match","data":{"path":{"text":"src/a.rs"},"lines":{"text":"fn main() {}\n"},"line_number":3,"absolute_offset":0,"submatches":[{"match":{"text":"main"},"start":3,"end":7}]}}"#;
        let m = decode(line).unwrap().unwrap();
        assert_eq!(&*m.path, b"src/a.rs");
        assert_eq!(&*m.line, b"fn main() {}\n");
        assert_eq!(m.line_number, 3);
        assert_eq!(m.first_match, Some((3, 7)));
    }

    #[test]
    fn bytes_forms_and_escapes() {
        // "caf\xe9 x\n" and a path holding \xff.
        let line = br#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lines":{"bytes":"Y2Fm6SB4Cg=="},"line_number":1,"submatches":[]}}"#;
        let m = decode(line).unwrap().unwrap();
        assert_eq!(&*m.path, b"a/\xff.txt");
        assert_eq!(&*m.line, b"caf\xe9 x\n");
        assert_eq!(m.first_match, None);
        let escaped = br#"{"type":"match","data":{"path":{"text":"a\"b"},"lines":{"text":"\u00e9\t\n"},"line_number":2,"submatches":[{"start":0,"end":2}]}}"#;
        let m = decode(escaped).unwrap().unwrap();
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
