//! Renderers: a [`Response`] as the model-facing text of SPEC §4, as
//! the JSON envelope of SPEC §7 whose `text` field is that same text, or
//! as an MCP tool result holding them. They decide layout only.

pub mod json;
pub mod text;
mod tool_result;

pub use tool_result::ToolResult;

use crate::response::Response;
use crate::settings::Format;

/// What stdout gets for `response` in `format`, final newline included.
pub fn stdout(response: &Response, format: Format) -> String {
    let text = text::response(response);
    match format {
        Format::Text => format!("{text}\n"),
        Format::Json => format!("{}\n", json::to_line(&json::envelope(response, &text))),
    }
}
