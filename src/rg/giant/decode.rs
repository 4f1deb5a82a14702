//! The kept prefix of a giant record's string, decoded once at the end:
//! JSON's escapes (a prefix cut where no escape is split) and rg's base64
//! `bytes` (whole groups only).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

/// Decode the escaped bytes of a JSON string; of a prefix of one when
/// `cut`, first dropping an escape the cut may have split (`\u00` of
/// `\u00e9`, or the first half of a surrogate pair).
pub(super) fn decode_text(raw: &[u8], cut: bool) -> Vec<u8> {
    let mut end = raw.len();
    if cut {
        let mut i = 0;
        while i < raw.len() {
            if raw[i] != b'\\' {
                i += 1;
                continue;
            }
            let unicode = raw.get(i + 1) == Some(&b'u');
            let high = unicode
                && raw.get(i + 2..i + 4).is_some_and(|h| {
                    matches!(h, [b'd' | b'D', b'8' | b'9' | b'a' | b'b' | b'A' | b'B'])
                });
            let len = match (unicode, high) {
                (true, true) => 12,
                (true, false) => 6,
                (false, _) => 2,
            };
            if i + len > raw.len() {
                end = i;
                break;
            }
            i += len;
        }
    }
    let quoted = [b"\"".as_slice(), &raw[..end], b"\""].concat();
    serde_json::from_slice::<String>(&quoted).map_or_else(
        |_| {
            String::from_utf8_lossy(&raw[..end])
                .into_owned()
                .into_bytes()
        },
        String::into_bytes,
    )
}

/// Decode a prefix of rg's base64 `bytes`: whole groups of four only.
pub(super) fn decode_base64(raw: &[u8]) -> Vec<u8> {
    let whole = raw.len() / 4 * 4;
    BASE64.decode(&raw[..whole]).unwrap_or_default()
}

#[cfg(test)]
#[path = "../../../tests/unit/rg/giant/decode.rs"]
mod tests;
