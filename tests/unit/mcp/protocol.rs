//! Unit tests of `src/mcp/protocol.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn meta(version: &Value, capabilities: Option<Value>) -> Map<String, Value> {
    let mut meta = json!({ META_VERSION: version });
    if let Some(c) = capabilities {
        meta[META_CAPABILITIES] = c;
    }
    let Value::Object(params) = json!({ "_meta": meta }) else {
        unreachable!()
    };
    params
}

#[test]
fn the_era_is_read_from_each_request() {
    assert_eq!(modern_meta(&Map::new()), Ok(false));
    assert_eq!(
        modern_meta(&meta(&json!(MODERN), Some(json!({})))),
        Ok(true)
    );
    let old = modern_meta(&meta(&json!("1999-01-01"), Some(json!({})))).unwrap_err();
    assert_eq!(old.code, UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(old.data.unwrap()["requested"], "1999-01-01");
    for bad in [meta(&json!(1), Some(json!({}))), meta(&json!(MODERN), None)] {
        assert_eq!(modern_meta(&bad).unwrap_err().code, INVALID_PARAMS);
    }
}

#[test]
fn legacy_negotiation() {
    let settings = crate::cli::test_settings();
    let mut server = Session::new(&settings);
    for (asked, got, batches) in [
        ("2025-06-18", "2025-06-18", false),
        ("2024-11-05", "2024-11-05", false),
        ("1999-01-01", LEGACY[0], false),
        (BATCH_REVISION, BATCH_REVISION, true),
    ] {
        let Value::Object(params) = json!({"protocolVersion": asked}) else {
            unreachable!()
        };
        assert_eq!(server.initialize(&params)["protocolVersion"], got);
        assert_eq!(server.batches(), batches, "{asked}");
    }
}
