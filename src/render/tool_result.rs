//! The result of an MCP `tools/call` (SPEC §9): a [`Response`] as the
//! model reads it through a client, the text of SPEC §4 with, on request,
//! the JSON envelope of SPEC §7 beside it. Owned and serializable, so that
//! a tree's index server can send it whole (`serve::wire::Answer`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::response::Response;

/// A `tools/call` result: the text the model reads, the JSON envelope as
/// `structuredContent` (with `--mcp-structured`), and for a failure
/// `isError` and `{name, code}` in `_meta`. Owned, so that a tree's index
/// server can send it (`serve::wire::Answer`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ToolResult {
    content: [TextContent; 1],
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    structured: Option<Value>,
    #[serde(rename = "isError")]
    is_error: bool,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<FailedMeta>,
}

/// One item of a result's `content`: text, the only kind sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct TextContent {
    r#type: ContentType,
    text: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
enum ContentType {
    #[serde(rename = "text")]
    Text,
}

/// A failed call's `_meta`: where its `{name, code}` travel, for callers.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct FailedMeta {
    #[serde(rename = "dsh-search/error")]
    error: FailedCode,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FailedCode {
    name: String,
    code: String,
}

impl ToolResult {
    /// The result for `response`; its envelope as `structuredContent` when
    /// `structured`.
    pub fn of(response: &Response, structured: bool) -> Self {
        let text = super::text::response(response);
        let failed = response.failed();
        let structured =
            structured.then(|| super::json::to_value(&super::json::envelope(response, &text)));
        Self {
            content: [TextContent {
                r#type: ContentType::Text,
                text,
            }],
            structured,
            is_error: failed.is_some(),
            meta: failed.map(|code| FailedMeta {
                error: FailedCode {
                    name: code.name().to_owned(),
                    code: code.as_str().to_owned(),
                },
            }),
        }
    }
}
