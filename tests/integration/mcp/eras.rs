//! The two protocol eras on one stdio server: what only one era has, and
//! that nothing locks a connection to the era it started in (clients probe
//! with `server/discover` and fall back to `initialize` on the same
//! process).

use serde_json::json;

use super::{Era, LEGACY, MODERN, Server, error, initialize, result};
use crate::harness::TestDir;

const SUPPORTED: [&str; 5] = [
    MODERN,
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

#[test]
fn an_unsupported_modern_version_gets_32022_with_the_supported_list() {
    let t = TestDir::new();
    let mut s = Server::start(&t, &["mcp"]);
    s.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientCapabilities": {}}}}),
    );
    assert_eq!(
        s.reply(),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "Unsupported protocol version",
            "data": {"supported": SUPPORTED, "requested": "2099-01-01"}}}),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

#[test]
fn a_malformed_modern_meta_is_invalid_params() {
    let t = TestDir::new();
    let mut s = Server::start(&t, &["mcp"]);
    for (id, meta, message) in [
        (
            1,
            json!({"io.modelcontextprotocol/protocolVersion": MODERN}),
            "params._meta is missing the required key io.modelcontextprotocol/clientCapabilities (an object)",
        ),
        (
            2,
            json!({"io.modelcontextprotocol/protocolVersion": 1, "io.modelcontextprotocol/clientCapabilities": {}}),
            "params._meta.io.modelcontextprotocol/protocolVersion must be a string",
        ),
    ] {
        s.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": meta}}),
        );
        assert_eq!(
            s.reply(),
            error(&json!(id), -32602, message),
            "{}",
            s.describe()
        );
    }
    // server/discover is modern only: without the _meta it is malformed.
    s.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover"}));
    assert_eq!(
        s.reply(),
        error(
            &json!(3),
            -32602,
            "server/discover needs params._meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities"
        ),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

#[test]
fn ping_is_legacy_only() {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], Era::Modern);
    let reply = s.call(Era::Modern, &json!(2), "ping", json!({}));
    assert_eq!(
        reply,
        error(&json!(2), -32601, "ping is not part of protocol 2026-07-28"),
        "{}",
        s.describe()
    );
    let reply = s.call(Era::Legacy, &json!(3), "ping", json!({}));
    assert_eq!(reply, result(&json!(3), &json!({})), "{}", s.describe());
    s.finish_clean();
}

#[test]
fn a_probe_then_initialize_on_the_same_process_serves_both() {
    // The Inspector (auto) and the Python SDK (auto) fall back this way;
    // Copilot CLI sends initialize while its probe is still unanswered.
    let t = TestDir::new();
    t.write("a.txt", "needle\n");
    let mut s = Server::open(&t, &["mcp"], Era::Modern);
    initialize(&mut s, "2025-06-18");
    let text = "Found 1 match\n\na.txt\nLine 1: needle";
    for (id, era) in [(3, Era::Legacy), (4, Era::Modern), (5, Era::Legacy)] {
        let reply = s.tool(era, id, "grep", json!({"pattern": "needle"}));
        assert_eq!(
            reply,
            result(&json!(id), &super::tool_result(era, text)),
            "{era:?}"
        );
    }
    s.finish_clean();
}

#[test]
fn legacy_negotiation_picks_the_clients_revision_or_the_newest() {
    let t = TestDir::new();
    for (asked, got) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-06-18", "2025-06-18"),
        ("1999-01-01", LEGACY),
    ] {
        let mut s = Server::start(&t, &["mcp"]);
        let reply = s.call(Era::Legacy, &json!(1), "initialize", json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}));
        assert_eq!(reply["result"]["protocolVersion"], json!(got), "{asked}");
        s.finish_clean();
    }
}

/// Revision 2025-03-26 says implementations "MUST support receiving
/// JSON-RPC batches"; every other revision has none.
#[test]
fn a_batch_is_served_only_under_2025_03_26() {
    let t = TestDir::new();
    let batch = json!([
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"}
    ]);
    let mut s = Server::start(&t, &["mcp"]);
    initialize(&mut s, "2025-03-26");
    s.send(&batch);
    assert_eq!(
        s.reply(),
        json!([result(&json!(2), &json!({})), result(&json!(3), &json!({}))]),
        "{}",
        s.describe()
    );
    s.finish_clean();
    for era in [Era::Legacy, Era::Modern] {
        let mut s = Server::open(&t, &["mcp"], era);
        s.send(&batch);
        assert_eq!(
            s.reply(),
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "a message must be one JSON-RPC object (batches only under protocol 2025-03-26)"}}),
            "{era:?}"
        );
        s.finish_clean();
    }
}

#[test]
fn a_cursor_is_invalid_params() {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], Era::Modern);
    let reply = s.call(
        Era::Modern,
        &json!(2),
        "tools/list",
        json!({"cursor": "page2"}),
    );
    assert_eq!(
        reply,
        error(&json!(2), -32602, "Invalid cursor"),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

#[test]
fn junk_is_answered_and_the_session_goes_on() {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], Era::Legacy);
    for (line, want) in [
        (
            "{oops",
            json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "not JSON: key must be a string at line 1 column 2"}}),
        ),
        (
            "42",
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "a message must be one JSON-RPC object"}}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "a request id must be a string or a number"}}),
        ),
        (
            r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            error(&json!(7), -32600, "a request needs \"jsonrpc\": \"2.0\""),
        ),
        (
            r#"{"jsonrpc":"2.0","id":8}"#,
            error(&json!(8), -32600, "a request needs a method string"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}"#,
            error(&json!(9), -32602, "params must be an object"),
        ),
    ] {
        s.send_line(line);
        assert_eq!(s.reply(), want, "{line}");
    }
    // A response to nothing and an unknown notification: no reply.
    s.send_line(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#);
    s.send_line(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#);
    super::assert_alive(&mut s, Era::Legacy, 10, super::BOUND);
    s.finish_clean();
}
