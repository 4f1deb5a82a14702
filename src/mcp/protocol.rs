//! MCP's methods, in both protocol eras, on one stdio connection (SPEC §9).
//!
//! Each request is classified on its own, as the 2026-07-28 revision asks
//! of a dual-era server (`basic/versioning`): one whose `params._meta`
//! carries `io.modelcontextprotocol/protocolVersion` is served statelessly
//! by that revision; anything else by the legacy revision `initialize`
//! negotiated (2025-11-25 before any `initialize`). Nothing locks the era:
//! clients probe with `server/discover` and fall back to `initialize` on
//! the same process.
//!
//! What the model sees is the text dsh-search prints: a result's `content`
//! is one text item. `structuredContent` (the JSON envelope, declared by an
//! `outputSchema`) only with `--mcp-structured`, because Claude Code and
//! Codex show the model that instead of the text.
//!
//! A tool call runs under the watchdog (`watchdog.rs`): the search, the
//! spill and the rendering of the result on a worker thread, while the
//! serving thread waits. A call that overruns its deadline (or a signal)
//! by the watchdog's grace is answered as an ordinary timeout (or
//! interrupt) is, and the server goes on: the call's rg groups are killed,
//! and its worker is told to stop (its cancellation, which the loops of the
//! call's own work look at). A worker that still does not end is left
//! behind, never waited for: the next call runs on a worker of its own.
//! The server keeps the workers it left behind only to say on stderr how
//! many still run; a thread cannot be killed, so one stuck in a loop that
//! does not look holds a core until the server exits.

use std::sync::Arc;
use std::thread::JoinHandle;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use super::wire::{
    INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::arguments;
use crate::call;
use crate::diag;
use crate::render::ToolResult;
use crate::response::Response;
use crate::schema;
use crate::serve::{self, wire::Front};
use crate::settings::Settings;
use crate::stop::{Halt, Stop};
use crate::tool::Tool;
use crate::watchdog;

/// The stateless revision this server speaks.
pub const MODERN: &str = "2026-07-28";
/// The `initialize` revisions, newest first.
pub const LEGACY: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The one legacy revision with JSON-RPC batches (added there, removed in
/// 2025-06-18).
pub const BATCH_REVISION: &str = "2025-03-26";

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// How long a client may keep `tools/list` and `server/discover`: the tool
/// list is fixed for the life of the server process.
const TTL_MS: u64 = 3_600_000;

/// Which era serves a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Era {
    Legacy,
    Modern,
}

/// The server's state: what `initialize` negotiated, for legacy requests
/// (modern requests carry everything they need), and the workers of calls
/// the watchdog gave up on that may still run.
pub struct Session {
    /// Shared with each call's worker.
    settings: Arc<Settings>,
    legacy: Option<&'static str>,
    abandoned: Vec<JoinHandle<()>>,
}

impl Session {
    /// A server whose greps ask the tree's index server (SPEC §11).
    pub fn new(settings: &Settings) -> Self {
        Self {
            settings: Arc::new(settings.clone()),
            legacy: None,
            abandoned: Vec::new(),
        }
    }

    /// Whether a JSON array is a batch to serve (legacy 2025-03-26 only).
    pub fn batches(&self) -> bool {
        self.legacy == Some(BATCH_REVISION)
    }

    /// Serve one request; `stop` is its own stop channel.
    pub fn request(
        &mut self,
        method: &str,
        params: Option<&RawValue>,
        stop: &Arc<Stop>,
    ) -> Result<Value, RpcError> {
        let params = match params {
            None => Map::new(),
            Some(raw) => match serde_json::from_str::<Value>(raw.get()) {
                Ok(Value::Object(map)) => map,
                Ok(Value::Null) => Map::new(),
                _ => return Err(RpcError::new(INVALID_PARAMS, "params must be an object")),
            },
        };
        if method == "initialize" {
            return Ok(self.initialize(&params));
        }
        let era = if modern_meta(&params)? {
            Era::Modern
        } else {
            Era::Legacy
        };
        let result = match (era, method) {
            (Era::Modern, "server/discover") => Ok(discover()),
            (Era::Legacy, "server/discover") => Err(RpcError::new(
                INVALID_PARAMS,
                format!(
                    "server/discover needs params._meta with {META_VERSION} and {META_CAPABILITIES}"
                ),
            )),
            (Era::Legacy, "ping") => Ok(json!({})),
            (_, "tools/list") => self.tools_list(era, &params),
            (_, "tools/call") => self.tools_call(&params, stop),
            (Era::Modern, "ping") => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("ping is not part of protocol {MODERN}"),
            )),
            _ => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("method `{method}` is not supported"),
            )),
        }?;
        Ok(match era {
            Era::Modern => modern(result),
            Era::Legacy => result,
        })
    }

    fn initialize(&mut self, params: &Map<String, Value>) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let version = LEGACY
            .into_iter()
            .find(|v| Some(*v) == asked)
            .unwrap_or(LEGACY[0]);
        self.legacy = Some(version);
        json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": server_info(),
            "instructions": schema::instructions(),
        })
    }

    fn tools_list(&self, era: Era, params: &Map<String, Value>) -> Result<Value, RpcError> {
        if params.get("cursor").is_some_and(|c| !c.is_null()) {
            // Both tools fit on one page: no cursor was ever handed out.
            return Err(RpcError::new(INVALID_PARAMS, "Invalid cursor"));
        }
        let modern = era == Era::Modern;
        to_json(&ToolsList {
            tools: Tool::ALL.map(|tool| ToolEntry {
                name: tool.as_str(),
                title: schema::title(tool),
                description: schema::description(tool, &self.settings),
                input_schema: schema::input_schema(tool),
                annotations: schema::annotations(),
                output_schema: self
                    .settings
                    .mcp_structured
                    .then(|| schema::output_schema(tool)),
            }),
            ttl_ms: modern.then_some(TTL_MS),
            cache_scope: modern.then_some("public"),
        })
    }

    fn tools_call(
        &mut self,
        params: &Map<String, Value>,
        stop: &Arc<Stop>,
    ) -> Result<Value, RpcError> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                "tools/call needs a `name` string",
            ));
        };
        // Every revision makes an unknown tool a protocol error.
        let Some(tool) = Tool::named(name) else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("Unknown tool: {name}; this server offers glob and grep"),
            ));
        };
        let none = json!({});
        let arguments = params.get("arguments").filter(|a| !a.is_null());
        let args = arguments::arguments(tool, arguments.unwrap_or(&none));
        let ignored = args.ignored.clone();
        let settings = Arc::clone(&self.settings);
        let worker_stop = Arc::clone(stop);
        let answered = watchdog::run(stop, settings.timeout(), move || {
            let budget = crate::stop::Budget {
                deadline: std::time::Instant::now() + settings.timeout(),
                stop: &worker_stop,
            };
            // The tree's index server answers, if it can (SPEC §11).
            let index = match serve::ask_server(tool, &args, &settings, Front::Mcp, budget) {
                serve::Served::Answered(answer) => {
                    if let Some(explain) = &answer.explain {
                        diag::write(explain);
                    }
                    if let Some(result) = answer.result {
                        return result;
                    }
                    None
                }
                serve::Served::Here { index, .. } => index,
            };
            let response = call::respond(tool, args, &settings, &worker_stop, index.as_ref());
            if let Some(explain) = &response.explain {
                diag::write(explain);
            }
            ToolResult::of(&response, settings.mcp_structured)
        });
        let result = answered.unwrap_or_else(|gave_up| {
            // Those of earlier calls that ended are forgotten.
            self.abandoned.retain(|worker| !worker.is_finished());
            let earlier = self.abandoned.len();
            self.abandoned.extend(gave_up.worker);
            diag::note(&format!(
                "dsh-search mcp: a {tool} call did not end within {}ms of {}; answered without it, its worker told to stop (workers of earlier calls given up on and still running: {earlier})",
                watchdog::GRACE.as_millis(),
                match gave_up.halt {
                    Halt::TimedOut => "its deadline",
                    Halt::Signal(_) => "a signal",
                    Halt::Cancelled => "its cancellation",
                },
            ));
            let response = Response::halted(
                tool,
                gave_up.halt,
                self.settings.timeout_ms,
                ignored,
            );
            ToolResult::of(&response, self.settings.mcp_structured)
        });
        to_json(&result)
    }
}

/// A `tools/list` result: both tools; in the 2026-07-28 era, how long
/// and by whom the list may be kept.
#[derive(Serialize)]
struct ToolsList {
    tools: [ToolEntry; 2],
    #[serde(rename = "ttlMs", skip_serializing_if = "Option::is_none")]
    ttl_ms: Option<u64>,
    #[serde(rename = "cacheScope", skip_serializing_if = "Option::is_none")]
    cache_scope: Option<&'static str>,
}

/// One tool of `tools/list`; its `outputSchema` with `--mcp-structured`.
#[derive(Serialize)]
struct ToolEntry {
    name: &'static str,
    title: &'static str,
    description: String,
    #[serde(rename = "inputSchema")]
    input_schema: Value,
    annotations: Value,
    #[serde(rename = "outputSchema", skip_serializing_if = "Option::is_none")]
    output_schema: Option<Value>,
}

/// A result as JSON, for the era to wrap. Every field of a result is a
/// string, a number, a bool, a list or a map with string keys, so
/// `serde_json` cannot fail; were it to, the request fails saying so.
fn to_json(result: &impl Serialize) -> Result<Value, RpcError> {
    serde_json::to_value(result).map_err(|e| {
        RpcError::new(
            INTERNAL_ERROR,
            format!("the result could not be written: {e}"),
        )
    })
}

/// Whether `params` carry the 2026-07-28 per-request `_meta`, and if so
/// whether it is well formed and names the revision served here.
fn modern_meta(params: &Map<String, Value>) -> Result<bool, RpcError> {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
        return Ok(false);
    };
    let Some(version) = meta.get(META_VERSION) else {
        return Ok(false);
    };
    let Some(version) = version.as_str() else {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("params._meta.{META_VERSION} must be a string"),
        ));
    };
    if version != MODERN {
        let supported: Vec<&str> = std::iter::once(MODERN).chain(LEGACY).collect();
        return Err(
            RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                .with_data(json!({"supported": supported, "requested": version})),
        );
    }
    if !meta.get(META_CAPABILITIES).is_some_and(Value::is_object) {
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("params._meta is missing the required key {META_CAPABILITIES} (an object)"),
        ));
    }
    Ok(true)
}

fn discover() -> Value {
    json!({
        "supportedVersions": [MODERN],
        "capabilities": {"tools": {}},
        "instructions": schema::instructions(),
        "ttlMs": TTL_MS,
        "cacheScope": "public",
    })
}

/// A 2026-07-28 result: `resultType`, and the server's identity in `_meta`.
fn modern(mut result: Value) -> Value {
    if let Value::Object(map) = &mut result {
        map.insert("resultType".to_owned(), json!("complete"));
        let meta = map.entry("_meta").or_insert_with(|| json!({}));
        meta[META_SERVER_INFO] = server_info();
    }
    result
}

fn server_info() -> Value {
    json!({"name": "dsh-search", "version": env!("CARGO_PKG_VERSION")})
}

#[cfg(test)]
#[path = "../../tests/unit/mcp/protocol.rs"]
mod tests;
