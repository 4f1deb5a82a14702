//! Unit tests of `src/index/tree.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

/// Bytes that look random (xorshift), NUL-free when `text`.
fn noise(len: usize, mut seed: u64, text: bool) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let b = (seed >> 24) as u8;
            if text { b | 1 } else { b }
        })
        .collect()
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

#[test]
fn dense_files_are_searched_not_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let text: Vec<u8> = (0..20_000)
        .flat_map(|i| format!("fn item_{i}() {{ return {i}; }}\n").into_bytes())
        .collect();
    let files: [(&str, Vec<u8>, bool); 7] = [
        // Text, big or small: indexed.
        ("text.rs", text, false),
        ("small.rs", b"fn main() {}\n".to_vec(), false),
        // A megabyte of noise, with NUL bytes or without.
        ("blob.bin", noise(1 << 20, 1, false), true),
        ("noise.txt", noise(1 << 20, 2, true), true),
        // A small image: under the floor, but it holds a NUL.
        ("icon.png", noise(3000, 3, false), true),
        // A program: far under the ratio, but past the floor, with
        // NUL bytes (48 kinds of byte, 0 among them).
        (
            "a.out",
            noise(1 << 21, 4, false).iter().map(|b| b % 48).collect(),
            true,
        ),
        // Base64: its 64 kinds of byte are 38 once folded, so under
        // the floor whatever its length: indexed.
        (
            "data.b64",
            noise(1 << 21, 5, false)
                .iter()
                .map(|b| BASE64[usize::from(b & 63)])
                .collect(),
            false,
        ),
    ];
    let mut names = Vec::new();
    for (name, content, _) in &files {
        std::fs::write(dir.path().join(name), content).unwrap();
        names.push(name.as_bytes().to_vec());
    }
    let built = build(dir.path(), &names, 2);
    for (id, (name, _, dense)) in files.iter().enumerate() {
        assert_eq!(built.always.contains(id as u32), *dense, "{name}");
    }
    // The dense files cost the index nothing: it holds what the text
    // alone makes, and is under half the bytes it covers.
    let texts: Vec<Name> = files
        .iter()
        .filter(|(_, _, dense)| !dense)
        .map(|(name, _, _)| name.as_bytes().to_vec())
        .collect();
    let alone = build(dir.path(), &texts, 2).postings.size();
    let size = built.postings.size();
    assert!(size < alone + alone / 100, "{size}, the text alone {alone}");
    assert!(
        (size as u64) < built.covered / 2,
        "{size} of {}",
        built.covered
    );
    // A dense file is not read past the chunk that shows it so.
    let text = files[0].1.len() + files[6].1.len();
    assert!(built.covered < (text + 3 * CHUNK + 3100) as u64);
}
