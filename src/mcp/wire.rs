//! The JSON-RPC 2.0 layer of the MCP server: bounded lines in, messages
//! out of them, reply lines back. Knows nothing of MCP's methods.
//!
//! Request ids are kept as the client wrote them: a number is echoed as its
//! original text (`1180591620717411303424` stays that, never
//! `1.1805916207174113e+21`), so a reply always names its request exactly.

use std::borrow::Cow;
use std::io::{self, BufRead};

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A line longer than this is skipped and answered with a parse error.
pub const MAX_LINE: usize = 16 * 1024 * 1024;
/// A line whose arrays and objects nest deeper than this is answered with
/// a parse error before anything parses it. `serde_json` reads a `Value`
/// (the params, served later) only this deep anyway; a raw value (a batch
/// item, a field kept raw) it reads at any depth, so without this bound a
/// line of `[` a million deep would be parsed again for every level.
pub const MAX_DEPTH: usize = 127;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP 2026-07-28: the request's protocol version is not served here.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A line, without its `\n` (the last one may have had none).
    Text(Vec<u8>),
    /// A line over [`MAX_LINE`], skipped up to its `\n` or the end of input.
    TooLong,
    Eof,
}

/// Read one line. Memory stays within [`MAX_LINE`] whatever the input:
/// the bytes of an over-long line are dropped as they are read.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Received> {
    let mut line = Vec::new();
    let mut too_long = false;
    // Whether the line ended with its `\n` (not at the end of input).
    let newline = loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break false;
        }
        let (chunk, used, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        if !too_long && line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        input.consume(used);
        if done {
            break true;
        }
    };
    Ok(if too_long {
        Received::TooLong
    } else if line.is_empty() && !newline {
        Received::Eof
    } else {
        Received::Text(line)
    })
}

/// A request id, as the client wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// A JSON number, kept as its text.
    Number(String),
    /// A JSON string, decoded.
    Text(String),
}

impl Id {
    /// The id of a raw JSON value: a string or a number, nothing else.
    pub fn from_raw(raw: &RawValue) -> Option<Self> {
        let text = raw.get().trim();
        match text.as_bytes().first()? {
            b'"' => serde_json::from_str(text).ok().map(Self::Text),
            b'-' | b'0'..=b'9' => Some(Self::Number(text.to_owned())),
            _ => None,
        }
    }

    /// The id as JSON text, byte for byte as it came for a number.
    pub fn to_json(&self) -> Cow<'_, str> {
        match self {
            Self::Number(text) => Cow::Borrowed(text),
            Self::Text(text) => Cow::Owned(Value::String(text.clone()).to_string()),
        }
    }
}

/// A JSON-RPC error: every protocol-level failure has this one shape.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// What a line held, parsed once and owned, so the reader thread can hand
/// it to the serving thread as it is. `params` stay raw JSON text (memory
/// the size of the line) until the request is served.
#[derive(Debug)]
pub enum Incoming {
    /// A request (with an id) or a notification (without).
    Message(Message),
    /// A JSON array: a batch (served only where the revision has them),
    /// each item parsed as a line of its own would be.
    Batch(Vec<Incoming>),
    /// A response to something the client thinks we sent: ignored.
    Response,
    /// Not a valid request; answered with this error (and the id, if one
    /// could be read).
    Invalid(Option<Id>, RpcError),
}

impl Incoming {
    /// Not a valid request, for the reason `why`.
    fn invalid(id: Option<Id>, why: impl Into<String>) -> Self {
        Self::Invalid(id, RpcError::new(INVALID_REQUEST, why))
    }
}

/// A request or a notification.
#[derive(Debug)]
pub struct Message {
    /// `None` for a notification.
    pub id: Option<Id>,
    pub method: String,
    /// The params as the client wrote them.
    pub params: Option<Box<RawValue>>,
}

/// One field of a JSON-RPC message, kept raw.
#[derive(Debug, Default)]
enum Field {
    #[default]
    Absent,
    Null,
    Given(Box<RawValue>),
}

impl Field {
    fn given(&self) -> Option<&RawValue> {
        match self {
            Self::Given(raw) => Some(raw),
            Self::Absent | Self::Null => None,
        }
    }

    fn is_absent(&self) -> bool {
        matches!(self, Self::Absent)
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Option::<Box<RawValue>>::deserialize(d)?.map_or(Self::Null, Self::Given))
    }
}

/// The fields of a JSON-RPC message.
#[derive(Deserialize)]
struct RpcFields {
    #[serde(default)]
    jsonrpc: Field,
    #[serde(default)]
    id: Field,
    #[serde(default)]
    method: Field,
    #[serde(default)]
    params: Field,
    #[serde(default)]
    result: Field,
    #[serde(default)]
    error: Field,
}

/// Parse one line. `Err` is a parse error (the line is not JSON, or
/// nests deeper than [`MAX_DEPTH`]).
pub fn parse(line: &[u8]) -> Result<Incoming, RpcError> {
    if nests_deeper_than(line, MAX_DEPTH) {
        return Err(RpcError::new(
            PARSE_ERROR,
            format!(
                "a message nested deeper than {MAX_DEPTH} levels of arrays and objects was skipped"
            ),
        ));
    }
    let not_json = |e: serde_json::Error| RpcError::new(PARSE_ERROR, format!("not JSON: {e}"));
    match first_byte(line) {
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_slice(line).map_err(not_json)?;
            Ok(Incoming::Batch(items.into_iter().map(batch_item).collect()))
        }
        Some(b'{') => match serde_json::from_slice::<RpcFields>(line) {
            Ok(envelope) => Ok(message(envelope)),
            Err(e) if e.is_data() => Ok(Incoming::invalid(
                None,
                format!("not a JSON-RPC message: {e}"),
            )),
            Err(e) => Err(not_json(e)),
        },
        _ => {
            serde_json::from_slice::<serde::de::IgnoredAny>(line).map_err(not_json)?;
            Ok(Incoming::invalid(
                None,
                "a message must be one JSON-RPC object",
            ))
        }
    }
}

/// The first byte of `line` that is not whitespace.
fn first_byte(line: &[u8]) -> Option<&u8> {
    line.iter().find(|b| !b.is_ascii_whitespace())
}

/// Whether the arrays and objects of `line` nest deeper than `most`: one
/// pass, no allocation, whatever the line holds (brackets inside strings
/// do not count; a line that is not JSON is the parser's to judge).
fn nests_deeper_than(line: &[u8], most: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in line {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > most {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// One item of a batch (already known to be JSON): a message, or why not.
/// A batch inside a batch is refused as it is, never parsed: parsing it
/// would take it apart item by item again, once a level.
fn batch_item(item: &RawValue) -> Incoming {
    let text = item.get().as_bytes();
    if first_byte(text) == Some(&b'[') {
        return Incoming::invalid(None, "a batch cannot hold a batch");
    }
    parse(text).unwrap_or_else(|e| Incoming::Invalid(None, e))
}

fn message(e: RpcFields) -> Incoming {
    let id = match &e.id {
        Field::Absent => None,
        field => match field.given().and_then(Id::from_raw) {
            Some(id) => Some(id),
            None => return Incoming::invalid(None, "a request id must be a string or a number"),
        },
    };
    let method = match &e.method {
        Field::Absent if !e.result.is_absent() || !e.error.is_absent() => {
            return Incoming::Response;
        }
        Field::Absent => return Incoming::invalid(id, "a request needs a method string"),
        field => match field
            .given()
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
        {
            Some(method) => method,
            None => return Incoming::invalid(id, "method must be a string"),
        },
    };
    if e.jsonrpc.given().map(RawValue::get) != Some("\"2.0\"") {
        return Incoming::invalid(id, "a request needs \"jsonrpc\": \"2.0\"");
    }
    Incoming::Message(Message {
        id,
        method,
        params: match e.params {
            Field::Given(raw) => Some(raw),
            Field::Absent | Field::Null => None,
        },
    })
}

/// The reply line for a successful request (no `\n`).
pub fn result_line(id: &Id, result: &Value) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
        id.to_json()
    )
}

/// The reply line for a failed request. An id that could not be read is
/// left out, as MCP's schema has it (a null id is not a request id).
pub fn error_line(id: Option<&Id>, e: &RpcError) -> String {
    let mut error = serde_json::json!({"code": e.code, "message": e.message});
    if let Some(data) = &e.data {
        error["data"] = data.clone();
    }
    match id {
        Some(id) => format!(
            r#"{{"jsonrpc":"2.0","id":{},"error":{error}}}"#,
            id.to_json()
        ),
        None => format!(r#"{{"jsonrpc":"2.0","error":{error}}}"#),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/wire.rs"]
mod tests;
