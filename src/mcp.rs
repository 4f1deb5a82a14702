//! `dsh-search mcp`: the two tools as a Model Context Protocol server on
//! stdio — newline-delimited JSON-RPC 2.0, one request served at a time.
//!
//! A reader thread keeps reading stdin while a search runs, so a
//! `notifications/cancelled` for the request in flight can stop it (the
//! rg process group is killed) and no reply is sent for it, as the
//! protocol asks. stdout carries protocol messages only; diagnostics go to
//! stderr. The server exits 0 at EOF, 6 when signalled.

use std::collections::HashSet;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use serde_json::{Value, json};

use crate::call;
use crate::error::{ArgumentError, ErrorCode};
use crate::request::Tool;
use crate::schema;
use crate::settings::Settings;
use crate::signals;
use crate::stop::{self, Stop};
use crate::tool;

/// Protocol revisions this server speaks, newest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// A line longer than this is answered with a parse error and skipped.
const MAX_LINE: usize = 16 * 1024 * 1024;
/// How often the idle server looks for a pending signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// What the reader thread hands over.
enum Incoming {
    Message(Value),
    /// A line that was not JSON, or too long.
    Unparsable(String),
    Eof,
}

/// Cancellation state shared with the reader thread.
struct InFlight {
    ids: Mutex<Ids>,
    /// Cancelled when the request in flight is; the runner reads it.
    stop: Arc<Stop>,
}

#[derive(Default)]
struct Ids {
    /// The request being served.
    current: Option<Value>,
    /// Requests cancelled before they were served (JSON text of their ids).
    cancelled: HashSet<String>,
}

/// More remembered cancellations than this means ids of requests that never
/// came; the oldest knowledge is dropped rather than grown without bound.
const MAX_CANCELLED: usize = 1024;

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, Ids> {
        self.ids.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The reader saw `notifications/cancelled` for `id`.
    fn cancel(&self, id: &Value) {
        let mut ids = self.ids();
        if ids.current.as_ref() == Some(id) {
            self.stop.cancel();
        } else {
            if ids.cancelled.len() >= MAX_CANCELLED {
                ids.cancelled.clear();
            }
            ids.cancelled.insert(id.to_string());
        }
    }

    /// Mark `id` as the request being served; `false` if it was cancelled
    /// while it waited (it then gets no reply).
    fn start(&self, id: &Value) -> bool {
        let mut ids = self.ids();
        if ids.cancelled.remove(&id.to_string()) {
            return false;
        }
        ids.current = Some(id.clone());
        self.stop.clear_cancel();
        true
    }

    /// The request is done; `true` if it was cancelled while it ran.
    fn finish(&self) -> bool {
        self.ids().current = None;
        self.stop.clear_cancel()
    }
}

/// Serve until stdin ends. Returns the process exit status.
pub fn serve(settings: &Settings, stop: &Arc<Stop>) -> u8 {
    let in_flight = Arc::new(InFlight {
        ids: Mutex::default(),
        stop: Arc::clone(stop),
    });
    let (tx, rx) = mpsc::channel();
    let reader_state = Arc::clone(&in_flight);
    std::thread::spawn(move || read_loop(&tx, &reader_state));
    let mut out = io::stdout().lock();
    let mut session = Session::default();
    loop {
        if let Some(signal) = stop.signal() {
            signals::die_if_fatal(stop);
            crate::diag::note(&format!(
                "dsh-search mcp: stopped by {}",
                stop::signal_name(signal)
            ));
            return ErrorCode::SearchAborted.exit_code();
        }
        let incoming = match rx.recv_timeout(SIGNAL_POLL) {
            Ok(incoming) => incoming,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return 0,
        };
        let reply = match incoming {
            Incoming::Eof => return 0,
            Incoming::Unparsable(detail) => Some(error(&Value::Null, PARSE_ERROR, &detail)),
            Incoming::Message(Value::Array(batch)) if session.batches && !batch.is_empty() => {
                let replies: Vec<Value> = batch
                    .iter()
                    .filter_map(|m| handle(m, settings, &in_flight, &mut session))
                    .collect();
                (!replies.is_empty()).then_some(Value::Array(replies))
            }
            Incoming::Message(message) => handle(&message, settings, &in_flight, &mut session),
        };
        if let Some(reply) = reply {
            let written = writeln!(out, "{reply}").and_then(|()| out.flush());
            if written.is_err() {
                // The client is gone; nobody is left to serve.
                return 0;
            }
        }
    }
}

fn read_loop(tx: &mpsc::Sender<Incoming>, in_flight: &InFlight) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    loop {
        let incoming = match read_line(&mut input) {
            Ok(Some(line)) if line.iter().all(u8::is_ascii_whitespace) => continue,
            Ok(Some(line)) => match serde_json::from_slice::<Value>(&line) {
                Ok(message) => {
                    if let Some(id) = cancelled_id(&message) {
                        in_flight.cancel(id);
                    }
                    Incoming::Message(message)
                }
                Err(e) => Incoming::Unparsable(format!("not JSON: {e}")),
            },
            Err(e) if e.kind() == io::ErrorKind::InvalidData => Incoming::Unparsable(e.to_string()),
            // EOF, or stdin failed: either way nothing more will arrive.
            Ok(None) | Err(_) => Incoming::Eof,
        };
        let eof = matches!(incoming, Incoming::Eof);
        if tx.send(incoming).is_err() || eof {
            return;
        }
    }
}

/// One line without its `\n`, `None` at EOF. Over [`MAX_LINE`] the rest of
/// the line is skipped and `InvalidData` returned.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((!line.is_empty() || too_long).then_some(line));
        }
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            if too_long {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a message longer than {MAX_LINE} bytes was skipped"),
                ));
            }
            return Ok(Some(line));
        }
    }
}

/// The request id a `notifications/cancelled` names.
fn cancelled_id(message: &Value) -> Option<&Value> {
    if message.get("method").and_then(Value::as_str) != Some("notifications/cancelled") {
        return None;
    }
    message.pointer("/params/requestId")
}

/// What the session has negotiated.
#[derive(Default)]
struct Session {
    /// JSON-RPC batches are part of revision 2025-03-26 only (added there,
    /// removed in 2025-06-18).
    batches: bool,
}

/// The reply to one message, `None` for notifications, responses and
/// cancelled requests.
fn handle(
    message: &Value,
    settings: &Settings,
    in_flight: &InFlight,
    session: &mut Session,
) -> Option<Value> {
    let Value::Object(map) = message else {
        return Some(error(
            &Value::Null,
            INVALID_REQUEST,
            "a message must be one JSON-RPC object (batches only under protocol 2025-03-26)",
        ));
    };
    let id = map.get("id").cloned();
    let method = map.get("method").and_then(Value::as_str);
    let Some(method) = method else {
        // A response (to nothing we sent) or junk: answer only a request.
        return match (&id, map.get("result").or_else(|| map.get("error"))) {
            (_, Some(_)) | (None, None) => None,
            (Some(id), None) => Some(error(
                id,
                INVALID_REQUEST,
                "a request needs a method string",
            )),
        };
    };
    let Some(id) = id else {
        // Notifications (initialized, cancelled, anything else) get no reply.
        return None;
    };
    if !matches!(id, Value::String(_) | Value::Number(_))
        || map.get("jsonrpc") != Some(&json!("2.0"))
    {
        return Some(error(
            &id,
            INVALID_REQUEST,
            "a request needs \"jsonrpc\": \"2.0\" and a string or number id",
        ));
    }
    let params = map.get("params").cloned().unwrap_or_else(|| json!({}));
    if !in_flight.start(&id) {
        // Cancelled while it waited: a cancelled request gets no response.
        return None;
    }
    let result = match method {
        "initialize" => {
            let result = initialize(&params);
            session.batches = result["protocolVersion"] == "2025-03-26";
            Ok(result)
        }
        "ping" => Ok(json!({})),
        "tools/list" => Ok(tools_list(settings)),
        "tools/call" => tools_call(&params, settings, &in_flight.stop),
        _ => Err((
            METHOD_NOT_FOUND,
            format!("method `{method}` is not supported"),
        )),
    };
    if in_flight.finish() {
        // Cancelled while it ran (its rg group is dead): no response.
        return None;
    }
    Some(match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err((code, message)) => error(&id, code, &message),
    })
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn initialize(params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked
        .filter(|v| PROTOCOL_VERSIONS.contains(v))
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": {"name": "dsh-search", "version": env!("CARGO_PKG_VERSION")},
        "instructions": schema::instructions(),
    })
}

fn tools_list(settings: &Settings) -> Value {
    let tools: Vec<Value> = Tool::ALL
        .iter()
        .map(|&tool| {
            json!({
                "name": tool.as_str(),
                "description": schema::description(tool, settings),
                "inputSchema": schema::input_schema(tool),
            })
        })
        .collect();
    json!({ "tools": tools })
}

fn tools_call(params: &Value, settings: &Settings, stop: &Stop) -> Result<Value, (i64, String)> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err((
            INVALID_PARAMS,
            "tools/call needs a `name` string".to_owned(),
        ));
    };
    let Some(tool) = Tool::named(name) else {
        let e = ArgumentError::new(
            "name",
            format!("unknown tool `{name}`; this server offers glob and grep"),
        );
        let code = ErrorCode::InvalidArgument;
        return Ok(json!({
            "content": [{"type": "text", "text": format!("Error: {e}")}],
            "structuredContent": {"name": code.name(), "code": code.as_str(), "message": e.message},
            "isError": true,
        }));
    };
    let arguments = params
        .get("arguments")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let response = tool::call(tool, call::request(tool, &arguments), settings, stop);
    if let Some(explain) = &response.explain {
        crate::diag::write(explain);
    }
    let mut structured = response.envelope;
    if response.is_error {
        // `{name, code}` at the top, as agent frameworks read tool errors.
        if let (Some(name), Some(code)) = (
            structured.pointer("/error/name").cloned(),
            structured.pointer("/error/code").cloned(),
        ) {
            structured["name"] = name;
            structured["code"] = code;
        }
    }
    Ok(json!({
        "content": [{"type": "text", "text": response.text}],
        "structuredContent": structured,
        "isError": response.is_error,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_split() {
        let mut input = io::Cursor::new(b"a\nbc\n\nlast".to_vec());
        assert_eq!(read_line(&mut input).unwrap(), Some(b"a".to_vec()));
        assert_eq!(read_line(&mut input).unwrap(), Some(b"bc".to_vec()));
        assert_eq!(read_line(&mut input).unwrap(), Some(Vec::new()));
        assert_eq!(read_line(&mut input).unwrap(), Some(b"last".to_vec()));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn version_negotiation() {
        assert_eq!(
            initialize(&json!({"protocolVersion": "2025-06-18"}))["protocolVersion"],
            "2025-06-18"
        );
        assert_eq!(
            initialize(&json!({"protocolVersion": "2024-11-05"}))["protocolVersion"],
            "2024-11-05"
        );
        assert_eq!(
            initialize(&json!({"protocolVersion": "1999-01-01"}))["protocolVersion"],
            PROTOCOL_VERSIONS[0]
        );
    }
}
