//! `--mcp-structured`: each tool declares an `outputSchema`, and every
//! result carries `structuredContent` (the `--format json` envelope) that
//! validates against it; the text content stays the same.

use serde_json::{Value, json};

use super::{Era, Server, both_eras, result};
use crate::harness::{TestDir, stdout_json};

both_eras!(structured_content_validates_against_the_output_schema);

/// A JSON Schema check for the keywords the output schemas use: `type`,
/// `const`, `enum`, `required`, `properties`, `items`, `anyOf`, `minimum`.
/// Any other keyword fails the check, so the schema cannot quietly grow
/// beyond what is tested.
fn validate(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let Value::Object(schema) = schema else {
        return Err(format!("{at}: the schema is not an object"));
    };
    for (keyword, rule) in schema {
        let ok = match keyword.as_str() {
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => return Err(format!("{at}: bad type rule")),
                };
                types.iter().any(|t| match *t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "integer" => value.is_i64() || value.is_u64(),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    _ => false,
                })
            }
            "const" => value == rule,
            "enum" => rule.as_array().is_some_and(|e| e.contains(value)),
            "minimum" => value
                .as_f64()
                .zip(rule.as_f64())
                .is_none_or(|(v, m)| v >= m),
            "required" => rule
                .as_array()
                .unwrap()
                .iter()
                .all(|k| value.get(k.as_str().unwrap()).is_some()),
            "properties" => {
                for (key, sub) in rule.as_object().unwrap() {
                    if let Some(v) = value.get(key) {
                        validate(sub, v, &format!("{at}.{key}"))?;
                    }
                }
                true
            }
            "items" => {
                for (i, v) in value.as_array().into_iter().flatten().enumerate() {
                    validate(rule, v, &format!("{at}[{i}]"))?;
                }
                true
            }
            "anyOf" => rule
                .as_array()
                .unwrap()
                .iter()
                .any(|sub| validate(sub, value, at).is_ok()),
            "description" => true,
            other => return Err(format!("{at}: keyword {other} is not checked here")),
        };
        if !ok {
            return Err(format!("{at}: fails {keyword} {rule}"));
        }
    }
    Ok(())
}

fn structured_content_validates_against_the_output_schema(era: Era) {
    let t = TestDir::new();
    t.write("a.rs", "fn a() {}\nfn b() {}\n");
    t.write("b.rs", "fn c() {}\n");
    let spill = tempfile::tempdir().unwrap();
    let spill_dir = spill.path().to_str().unwrap().to_owned();
    let options = ["--glob-max-results", "1", "--spill-dir", spill_dir.as_str()];
    let mut args: Vec<&str> = options.to_vec();
    args.extend(["--mcp-structured", "mcp"]);
    let mut s = Server::open(&t, &args, era);
    let listed = s.call(era, &json!(2), "tools/list", json!({}));
    let schema_of = |tool: &str| -> Value {
        listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == tool)
            .unwrap()["outputSchema"]
            .clone()
    };
    assert_eq!(schema_of("grep")["type"], "object", "{}", s.describe());
    let calls = [
        ("grep", json!({"pattern": "fn"}), false),
        ("glob", json!({"pattern": "*.rs"}), false),
        (
            "glob",
            json!({"pattern": "*.nothing", "wait_for_previous": false}),
            false,
        ),
        // Empty, with a hint (the case probe finds `fn`).
        ("grep", json!({"pattern": "FN"}), false),
        ("glob", json!({"pattern": "!*.rs"}), true),
        ("grep", json!({"pattern": "a("}), true),
    ];
    for (n, (tool, arguments, failed)) in calls.into_iter().enumerate() {
        let id = json!(10 + n);
        let reply = s.call(
            era,
            &id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        );
        let got = &reply["result"];
        // The envelope is what `call` prints with --format json.
        let cli = t
            .cmd()
            .args(options)
            .args(["--format", "json", "call", tool, &arguments.to_string()])
            .output()
            .unwrap();
        let envelope = stdout_json(&cli);
        let text = envelope["text"].as_str().unwrap();
        let mut want = json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": envelope,
            "isError": failed,
        });
        if failed {
            want["_meta"] = json!({"dsh-search/error": {
                "name": envelope["error"]["name"], "code": envelope["error"]["code"]}});
        }
        assert_eq!(
            reply,
            result(&id, &era.result(want)),
            "{}\n=== the CLI\n{cli:?}",
            s.describe()
        );
        validate(
            &schema_of(tool),
            &got["structuredContent"],
            "structuredContent",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", s.describe()));
    }
    // The check is not vacuous: a broken envelope fails it.
    let broken =
        json!({"version": 1, "tool": "grep", "ok": true, "status": "results", "text": "x"});
    assert!(
        validate(&schema_of("grep"), &broken, "broken").is_err(),
        "{broken} validates against the grep outputSchema listed by {}",
        s.what
    );
    s.finish_clean();
}

/// `DSH_SEARCH_MCP_STRUCTURED` turns it on for any value but the falsey ones.
#[test]
fn the_environment_variable_turns_it_on() {
    let t = TestDir::new();
    for (value, on) in [
        ("1", true),
        ("yes", true),
        ("true", true),
        ("0", false),
        ("false", false),
        ("", false),
    ] {
        let mut cmd = t.cmd_std();
        cmd.env("DSH_SEARCH_MCP_STRUCTURED", value).arg("mcp");
        let mut s = Server::spawn(cmd);
        let reply = s.call(Era::Legacy, &json!(1), "tools/list", json!({}));
        assert_eq!(
            reply["result"]["tools"][0].get("outputSchema").is_some(),
            on,
            "{}",
            s.describe()
        );
        s.finish_clean();
    }
}
