//! The corpus generator: everything about writing the benchmark's corpus and
//! reading back the marker that describes it.
//!
//! `bench corpus DIR [--scale F]` writes a synthetic repository: at scale 1
//! about 200,000 files and 300 MB (`--scale 0.02`, about 4,000 files, suits
//! CI). The same scale always gives byte-identical files with the same names
//! and modification times: every file's content and mtime come from a
//! fixed-seed splitmix64 generator keyed by the file's path, so the parallel
//! writers cannot change the result. It holds a `.git` dir (so rg applies the
//! `.gitignore`, which ignores the many files under `node_modules/` and
//! `target/`), `.hg/` and `.svn/`, hidden `.cache/` and `.config/`, minified
//! one-line bundles, Latin-1 lines, binaries with NUL bytes, odd file names
//! and on Unix one that is not UTF-8 (`odd/caf\xe9.txt`, the raw byte 0xE9,
//! the only file holding `zqxNotUtf8Name`), a big `logs/huge.log` (50 MB at
//! scale 1, with `ERROR 4xx` lines), a rare identifier `zqxRareIdent42` (10
//! files), a medium one `mediumIdentQ` (about 0.5% of the lines of `.ts`
//! files), `ConfigLoader` on the last line of about 1% of the `.rs` and `.ts`
//! files under `src/` (a `use` or an `import`), and English-and-code text in
//! which `the` matches often enough that `rg --json the` prints far more than
//! the 20 MB raw-output cap. DIR must be empty or a corpus written earlier (it
//! holds the marker file `.dsh-bench-corpus`), which is replaced: its old
//! contents are moved aside and deleted once the new corpus is written. The
//! marker records the scale and the corpus's version ([`VERSION`]), and once
//! the writing has finished, the counts.

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::{BoxError, Result, mib};

// ---------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------

/// The corpus seed; changing it changes every file.
const SEED: u64 = 0x0D5C_5EA2_C4B3_2024;

/// splitmix64: a tiny, well-mixed generator; also the hash finaliser.
struct Rng(u64);

impl Rng {
    /// A generator for one file, keyed by its path (so the order in which
    /// files are written does not matter).
    fn for_path(path: &str, salt: u64) -> Self {
        Self::for_name(path.as_bytes(), salt)
    }

    /// [`Rng::for_path`] for a name given as bytes (not always UTF-8).
    fn for_name(name: &[u8], salt: u64) -> Self {
        Self(fnv1a(name) ^ SEED ^ salt)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough in `0..n` (n > 0; the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `per_10000 / 10000`.
    fn chance(&mut self, per_10000: usize) -> bool {
        self.below(10_000) < per_10000
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }

    fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

// ---------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------

/// English words, `the` repeated so it stays the commonest (as in English).
const ENGLISH_TEXT: &str = "the the the the of and to a in is that for it with as was on be by \
    this are from or at an which not have has but all can will one more when if no into each \
    other than then there their these some only new file value data request response user \
    error result list index buffer token cache config server client path line search match \
    pattern output input stream event state node tree queue thread process memory string \
    number option default update create delete check parse render load save read write open \
    close start stop return should must before after every first last next because while \
    where about over under between we you they so what out up time also way may use how many \
    most such very through";

/// Identifier parts.
const WORDS_TEXT: &str = "get set make build parse load read write open close find match next \
    prev item node tree list map key value count size len buf path file name id user config \
    state event token cache query result error handle request response client server stream \
    line index offset limit cursor filter sort merge split join format render update delete \
    insert check validate encode decode hash sum total retry flush batch chunk scope";

static ENGLISH: LazyLock<Vec<&str>> = LazyLock::new(|| ENGLISH_TEXT.split_whitespace().collect());
static WORDS: LazyLock<Vec<&str>> = LazyLock::new(|| WORDS_TEXT.split_whitespace().collect());

const RS_TYPES: &[&str] = &[
    "String",
    "Vec<u8>",
    "Option<usize>",
    "Result<(), Error>",
    "Config",
    "Request",
    "&Path",
    "&[u8]",
    "u64",
    "bool",
];
const TS_TYPES: &[&str] = &[
    "string",
    "number",
    "boolean",
    "Config",
    "Request",
    "Response",
    "Promise<void>",
    "Record<string, number>",
    "Array<string>",
    "unknown",
];

pub const RARE: &str = "zqxRareIdent42";
pub const MEDIUM: &str = "mediumIdentQ";
/// In about 1% of the `.rs` and `.ts` files under `src/`, on a last line of
/// its own ([`config_line`]).
pub const CONFIG: &str = "ConfigLoader";
/// Only in the file whose name is not UTF-8 ([`NOT_UTF8_NAME`]).
pub const NOT_UTF8: &str = "zqxNotUtf8Name";

/// The salt of the draw that gives a source file the `ConfigLoader` line: a
/// generator of its own, so no other file, and no other draw of the file's
/// own generator, changes.
const CONFIG_SALT: u64 = 0x636F_6E66_6967;

/// `odd/caf\xe9.txt`: 0xE9 is é in Latin-1 and not UTF-8.
#[cfg(unix)]
const NOT_UTF8_NAME: &[u8] = b"odd/caf\xe9.txt";
#[cfg(unix)]
static NOT_UTF8_TEXT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "The name of this file ends in the Latin-1 byte 0xE9, which is not UTF-8.\n\
         Only this file holds the word {NOT_UTF8}.\n"
    )
});

fn push_sentence(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = rng.range(5, 17);
    for i in 0..n {
        let word = rng.pick(&ENGLISH);
        if i == 0 {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase() as u8);
                out.extend_from_slice(chars.as_str().as_bytes());
            }
        } else {
            out.push(b' ');
            out.extend_from_slice(word.as_bytes());
        }
    }
    out.push(b'.');
}

fn push_snake(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend_from_slice(rng.pick(&WORDS).as_bytes());
    out.push(b'_');
    out.extend_from_slice(rng.pick(&WORDS).as_bytes());
}

fn push_camel(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend_from_slice(rng.pick(&WORDS).as_bytes());
    push_pascal_word(rng, out);
}

fn push_pascal_word(rng: &mut Rng, out: &mut Vec<u8>) {
    let word = rng.pick(&WORDS).as_bytes();
    out.push(word[0].to_ascii_uppercase());
    out.extend_from_slice(&word[1..]);
}

fn push_all(out: &mut Vec<u8>, parts: &[&str]) {
    for part in parts {
        out.extend_from_slice(part.as_bytes());
    }
}

// ---------------------------------------------------------------------------
// File contents
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ext {
    Rs,
    Ts,
    Js,
    Py,
    Md,
    Txt,
    Json,
    Toml,
}

impl Ext {
    fn as_str(self) -> &'static str {
        match self {
            Ext::Rs => "rs",
            Ext::Ts => "ts",
            Ext::Js => "js",
            Ext::Py => "py",
            Ext::Md => "md",
            Ext::Txt => "txt",
            Ext::Json => "json",
            Ext::Toml => "toml",
        }
    }
}

/// How big a text file gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Size {
    /// Source files: 100 B to 2 KB, one in a hundred 10 KB to 40 KB.
    Source,
    /// Dependency and cache files: 50 B to 1.5 KB.
    Small,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text {
        ext: Ext,
        size: Size,
        rare: bool,
        /// Ends with [`config_line`].
        config: bool,
    },
    /// Plain text with some Latin-1 (not UTF-8) lines.
    Latin1,
    /// A minified bundle: a few lines of 3 KB to 40 KB each.
    Minified,
    /// Bytes with many NULs after a format header.
    Binary(&'static [u8]),
    /// Lowercase hex digits, as in git refs and cargo fingerprints.
    Hex,
    /// `logs/huge.log`: `bytes` bytes of request log.
    Log {
        bytes: u64,
    },
    Fixed(&'static str),
}

struct Entry {
    path: PathBuf,
    kind: Kind,
}

/// One line of `ext` source, with its newline (JSON items are written by
/// [`text_file`]).
fn push_code_line(ext: Ext, rng: &mut Rng, out: &mut Vec<u8>) {
    let roll = rng.below(100);
    match ext {
        Ext::Rs => rs_line(roll, rng, out),
        Ext::Ts => ts_line(roll, rng, out),
        Ext::Js => js_line(roll, rng, out),
        Ext::Py => py_line(roll, rng, out),
        Ext::Md => md_line(roll, rng, out),
        Ext::Txt | Ext::Json => push_sentence(rng, out),
        Ext::Toml if roll < 15 => push_all(out, &["[", rng.pick(&WORDS), "]"]),
        Ext::Toml => {
            push_snake(rng, out);
            out.extend_from_slice(b" = \"");
            push_sentence(rng, out);
            out.push(b'"');
        }
    }
    out.push(b'\n');
}

fn rs_line(roll: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    match roll {
        0..15 => {
            out.extend_from_slice(if roll < 5 { b"/// " } else { b"// " });
            push_sentence(rng, out);
        }
        15..25 => {
            out.extend_from_slice(b"pub fn ");
            if rng.chance(500) {
                // What `fn\s+\w+_handler\(` finds: 5% of the functions.
                push_all(out, &[rng.pick(&WORDS), "_handler"]);
            } else {
                push_snake(rng, out);
            }
            push_all(out, &["(", rng.pick(&WORDS), ": ", rng.pick(RS_TYPES)]);
            push_all(out, &[") -> ", rng.pick(RS_TYPES), " {"]);
        }
        25..65 => {
            out.extend_from_slice(b"    let ");
            push_snake(rng, out);
            push_all(out, &[" = ", rng.pick(&WORDS), "."]);
            push_snake(rng, out);
            push_all(out, &["(", rng.pick(&WORDS), ");"]);
        }
        65..75 => push_all(
            out,
            &[
                "    if ",
                rng.pick(&WORDS),
                ".is_empty() { return Err(Error::Empty); }",
            ],
        ),
        75..85 => out.push(b'}'),
        85..90 => {
            out.extend_from_slice(b"pub struct ");
            push_pascal_word(rng, out);
            push_pascal_word(rng, out);
            push_all(
                out,
                &[" { ", rng.pick(&WORDS), ": ", rng.pick(RS_TYPES), " }"],
            );
        }
        _ => {
            push_all(out, &["    ", rng.pick(&WORDS), ".push_str(\""]);
            push_sentence(rng, out);
            out.extend_from_slice(b"\");");
        }
    }
}

fn ts_line(roll: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    match roll {
        0..15 => {
            out.extend_from_slice(b"// ");
            push_sentence(rng, out);
        }
        15..25 => {
            out.extend_from_slice(b"export function ");
            push_camel(rng, out);
            push_all(
                out,
                &["(", rng.pick(&WORDS), ": ", rng.pick(TS_TYPES), "): "],
            );
            push_all(out, &[rng.pick(TS_TYPES), " {"]);
        }
        25..60 => {
            out.extend_from_slice(b"  const ");
            push_camel(rng, out);
            push_all(out, &[" = await ", rng.pick(&WORDS), "."]);
            push_camel(rng, out);
            push_all(out, &["(", rng.pick(&WORDS), ");"]);
        }
        60..70 => push_all(out, &["  return ", rng.pick(&WORDS), ";"]),
        70..80 => out.push(b'}'),
        80..85 => {
            out.extend_from_slice(b"import { ");
            push_pascal_word(rng, out);
            push_all(out, &[" } from './", rng.pick(&WORDS), "';"]);
        }
        _ => {
            out.extend_from_slice(b"  log(\"");
            push_sentence(rng, out);
            out.extend_from_slice(b"\");");
        }
    }
}

fn js_line(roll: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    match roll {
        0..20 => {
            out.extend_from_slice(b"// ");
            push_sentence(rng, out);
        }
        20..40 => {
            out.extend_from_slice(b"function ");
            push_camel(rng, out);
            push_all(out, &["(", rng.pick(&WORDS), ") { return "]);
            push_all(out, &[rng.pick(&WORDS), ".", rng.pick(&WORDS), "(); }"]);
        }
        40..70 => {
            let (name, module) = (rng.pick(&WORDS), rng.pick(&WORDS));
            push_all(out, &["var ", name, " = require('./", module, "');"]);
        }
        _ => {
            let (name, value) = (rng.pick(&WORDS), rng.pick(&WORDS));
            push_all(out, &["module.exports.", name, " = ", value, ";"]);
        }
    }
}

fn py_line(roll: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    match roll {
        0..20 => {
            out.extend_from_slice(b"    # ");
            push_sentence(rng, out);
        }
        20..30 => {
            out.extend_from_slice(b"def ");
            push_snake(rng, out);
            push_all(out, &["(", rng.pick(&WORDS), ", ", rng.pick(&WORDS), "):"]);
        }
        30..65 => {
            push_all(
                out,
                &["    ", rng.pick(&WORDS), " = ", rng.pick(&WORDS), "."],
            );
            push_snake(rng, out);
            push_all(out, &["(", rng.pick(&WORDS), ")"]);
        }
        65..75 => push_all(out, &["    return ", rng.pick(&WORDS)]),
        75..80 => {
            out.extend_from_slice(b"class ");
            push_pascal_word(rng, out);
            push_pascal_word(rng, out);
            out.push(b':');
        }
        _ => {
            out.extend_from_slice(b"    \"\"\"");
            push_sentence(rng, out);
            out.extend_from_slice(b"\"\"\"");
        }
    }
}

fn md_line(roll: usize, rng: &mut Rng, out: &mut Vec<u8>) {
    match roll {
        0..5 => {
            out.extend_from_slice(b"## ");
            push_pascal_word(rng, out);
            push_all(out, &[" ", rng.pick(&WORDS)]);
        }
        5..10 => {}
        10..25 => {
            out.extend_from_slice(b"- ");
            push_sentence(rng, out);
        }
        _ => {
            push_sentence(rng, out);
            out.push(b' ');
            push_sentence(rng, out);
        }
    }
}

/// The line that carries the rare identifier, in `ext`'s own syntax.
fn rare_line(ext: Ext) -> String {
    match ext {
        Ext::Rs | Ext::Ts | Ext::Js => format!("// see {RARE} before changing this\n"),
        Ext::Py | Ext::Toml => format!("# see {RARE} before changing this\n"),
        Ext::Md | Ext::Txt => format!("See {RARE} before changing this.\n"),
        Ext::Json => format!("    {{\"id\": 0, \"key\": \"rare\", \"text\": \"{RARE}\"}},\n"),
    }
}

/// The line that carries `ConfigLoader`, in `ext`'s own syntax; only `.rs` and
/// `.ts` files have one.
fn config_line(ext: Ext) -> Option<&'static str> {
    match ext {
        Ext::Rs => Some("use crate::config::ConfigLoader;\n"),
        Ext::Ts => Some("import { ConfigLoader } from \"./config\";\n"),
        _ => None,
    }
}

fn text_target(size: Size, rng: &mut Rng) -> usize {
    match size {
        Size::Source if rng.chance(100) => rng.range(10_000, 40_000),
        Size::Source => rng.range(100, 2_000),
        Size::Small => rng.range(50, 1_500),
    }
}

fn text_file(ext: Ext, size: Size, rare: bool, rng: &mut Rng) -> Vec<u8> {
    let target = text_target(size, rng);
    let mut out = Vec::with_capacity(target + 200);
    if ext == Ext::Json {
        out.extend_from_slice(b"{\n  \"name\": \"");
        out.extend_from_slice(rng.pick(&WORDS).as_bytes());
        out.extend_from_slice(b"\",\n  \"description\": \"");
        push_sentence(rng, &mut out);
        out.extend_from_slice(b"\",\n  \"items\": [\n");
        if rare {
            out.extend_from_slice(rare_line(ext).as_bytes());
        }
        let mut id = 1;
        while out.len() < target {
            let _ = write!(out, "    {{\"id\": {id}, \"key\": \"");
            push_snake(rng, &mut out);
            out.extend_from_slice(b"\", \"text\": \"");
            push_sentence(rng, &mut out);
            out.extend_from_slice(b"\"},\n");
            id += 1;
        }
        out.extend_from_slice(b"    {\"id\": 0, \"key\": \"end\", \"text\": \"\"}\n  ]\n}\n");
        return out;
    }
    if ext == Ext::Md {
        out.extend_from_slice(b"# ");
        push_pascal_word(rng, &mut out);
        out.extend_from_slice(b" notes\n");
    } else {
        push_code_line(ext, rng, &mut out);
    }
    if rare {
        out.extend_from_slice(rare_line(ext).as_bytes());
    }
    while out.len() < target {
        if ext == Ext::Ts && rng.chance(50) {
            // About 0.5% of .ts lines, and no other file type, hold it.
            out.extend_from_slice(b"  const ");
            push_camel(rng, &mut out);
            push_all(&mut out, &[" = ", MEDIUM, ".", rng.pick(&WORDS), "();\n"]);
        } else {
            push_code_line(ext, rng, &mut out);
        }
    }
    out
}

fn latin1_file(rng: &mut Rng) -> Vec<u8> {
    let target = rng.range(200, 3_000);
    let mut out = Vec::with_capacity(target + 200);
    while out.len() < target {
        push_sentence(rng, &mut out);
        if rng.chance(2_000) {
            // 0xE9 é, 0xEF ï, 0xE0 à, 0xFC ü in Latin-1: not valid UTF-8.
            out.extend_from_slice(b" Caf\xe9 na\xefve r\xe9sum\xe9, \xe0 la the m\xfcsli");
        }
        out.push(b'\n');
    }
    out
}

fn minified_file(rng: &mut Rng) -> Vec<u8> {
    let lines = rng.range(1, 4);
    let mut out = Vec::new();
    for _ in 0..lines {
        let end = out.len() + rng.range(3_000, 40_000);
        out.extend_from_slice(b"!function(e){");
        while out.len() < end {
            let a = char::from(b'a' + rng.below(26) as u8);
            let b = char::from(b'a' + rng.below(26) as u8);
            let _ = match rng.below(4) {
                0 => write!(
                    out,
                    "function {a}({b}){{return {b}.{}({a})}}",
                    rng.pick(&WORDS)
                ),
                1 => {
                    let _ = write!(out, "var {a}{b}=\"");
                    push_sentence(rng, &mut out);
                    write!(out, "\";")
                }
                2 => write!(
                    out,
                    "{a}.{}={b}&&{b}.{};",
                    rng.pick(&WORDS),
                    rng.pick(&WORDS)
                ),
                _ => write!(out, "if({a}){{{b}+={}}}", rng.below(1000)),
            };
        }
        out.extend_from_slice(b"}(window);\n");
    }
    out
}

fn binary_file(header: &[u8], rng: &mut Rng) -> Vec<u8> {
    let len = rng.range(512, 8_192);
    let mut out = header.to_vec();
    while out.len() < len {
        let word = rng.next().to_le_bytes();
        // Plenty of NULs, so rg sees a binary file.
        out.extend_from_slice(if rng.chance(3_000) { &[0; 8] } else { &word });
    }
    out
}

fn hex_file(rng: &mut Rng) -> Vec<u8> {
    let mut out = format!("{:016x}{:016x}", rng.next(), rng.next()).into_bytes();
    out.truncate(40);
    out.push(b'\n');
    out
}

/// Civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
#[expect(
    clippy::cast_sign_loss,
    reason = "day and month are positive by construction"
)]
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `secs` since the epoch as `YYYY-MM-DDTHH:MM:SS` (UTC), for the log lines
/// and the table's machine line.
pub fn timestamp(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX);
    let (year, month, day) = civil(days);
    let rem = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3_600,
        rem / 60 % 60,
        rem % 60
    )
}

/// 2024-01-01T00:00:00Z: log timestamps start here, mtimes spread over 2024.
const BASE_TIME: u64 = 1_704_067_200;

/// Request-log lines into `file`, about `bytes` bytes in all.
fn write_log(file: &mut File, bytes: u64, rng: &mut Rng) -> io::Result<u64> {
    let mut written = 0;
    let mut secs = BASE_TIME;
    let mut buf = Vec::with_capacity(1 << 20);
    while written + (buf.len() as u64) < bytes {
        secs += rng.below(3) as u64;
        let stamp = timestamp(secs);
        let request = rng.below(100_000);
        let took = rng.range(1, 2_000);
        match rng.below(200) {
            0 | 1 => {
                let status = [400, 401, 403, 404, 409, 422, 429][rng.below(7)];
                writeln!(
                    buf,
                    "{stamp} ERROR {status} request {request} took {took}ms"
                )?;
            }
            2 | 3 => {
                let status = [500, 502, 503][rng.below(3)];
                writeln!(
                    buf,
                    "{stamp} ERROR {status} request {request} took {took}ms"
                )?;
            }
            4..10 => writeln!(buf, "{stamp} WARN request {request} took {took}ms")?,
            10..16 => writeln!(buf, "{stamp} DEBUG request {request} took {took}ms")?,
            _ => writeln!(buf, "{stamp} INFO request {request} took {took}ms")?,
        }
        if buf.len() >= 1 << 20 {
            file.write_all(&buf)?;
            written += buf.len() as u64;
            buf.clear();
        }
    }
    file.write_all(&buf)?;
    Ok(written + buf.len() as u64)
}

fn content(kind: Kind, rng: &mut Rng) -> Vec<u8> {
    match kind {
        Kind::Text {
            ext,
            size,
            rare,
            config,
        } => {
            let mut out = text_file(ext, size, rare, rng);
            // After everything the file's generator drew.
            if config {
                out.extend_from_slice(config_line(ext).unwrap_or_default().as_bytes());
            }
            out
        }
        Kind::Latin1 => latin1_file(rng),
        Kind::Minified => minified_file(rng),
        Kind::Binary(header) => binary_file(header, rng),
        Kind::Hex => hex_file(rng),
        Kind::Fixed(text) => text.as_bytes().to_vec(),
        Kind::Log { .. } => Vec::new(),
    }
}

/// A fixed mtime for the file named `name`: 2024 plus a hash-derived offset.
fn mtime(name: &[u8]) -> SystemTime {
    let h = Rng::for_name(name, 0x006D_7469_6D65).next();
    let secs = BASE_TIME + h % (365 * 86_400);
    let nanos = ((h >> 32) % 1_000_000_000) as u32;
    UNIX_EPOCH + Duration::new(secs, nanos)
}

/// Write one entry; returns its size in bytes.
fn write_entry(root: &Path, entry: &Entry) -> io::Result<u64> {
    // The name's bytes: a UTF-8 name's are its text's, as they always were.
    let name = entry.path.as_os_str().as_encoded_bytes();
    let mut rng = Rng::for_name(name, 0);
    let mut file = File::create(root.join(&entry.path))?;
    let len = if let Kind::Log { bytes } = entry.kind {
        write_log(&mut file, bytes, &mut rng)?
    } else {
        let data = content(entry.kind, &mut rng);
        file.write_all(&data)?;
        data.len() as u64
    };
    file.set_modified(mtime(name))?;
    Ok(len)
}

// ---------------------------------------------------------------------------
// Corpus layout
// ---------------------------------------------------------------------------

const MARKER: &str = ".dsh-bench-corpus";
const MARKER_MAGIC: &str = "dsh-search bench corpus";
/// What the corpus holds, recorded in its marker (`version=`): one more
/// whenever a scale's files change, so that `bench all` writes again a
/// corpus an older bench wrote. 1 (a marker without the line): before the
/// file whose name is not UTF-8 and `ConfigLoader`.
pub const VERSION: u32 = 2;
/// Where a previous corpus waits for deletion while the new one is written.
const TRASH: &str = ".dsh-bench-previous";
/// Plan entries one writer claims at a time: neighbours share a directory,
/// and writers in different directories do not contend for its lock.
const CLAIM: usize = 64;

/// What the marker of a complete corpus records.
pub struct Recorded {
    pub version: u32,
    pub scale: String,
    pub files: String,
    pub bytes: u64,
}

/// The marker of the corpus in `dir`, if it is one whose writing finished
/// (the marker gets its counts only at the end).
pub fn recorded(dir: &Path) -> Option<Recorded> {
    let marker = fs::read_to_string(dir.join(MARKER)).ok()?;
    if !marker.starts_with(MARKER_MAGIC) {
        return None;
    }
    let field = |key: &str| {
        marker
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::to_owned)
    };
    let version = match field("version=") {
        Some(version) => version.parse().ok()?,
        None => 1,
    };
    Some(Recorded {
        version,
        scale: field("scale=")?,
        files: field("files=")?,
        bytes: field("bytes=")?.parse().ok()?,
    })
}

const GITIGNORE: &str = "# dependencies and build output\nnode_modules/\ntarget/\n";
const GIT_CONFIG: &str =
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const ELF: &[u8] = b"\x7fELF\x02\x01\x01\0";
const ARCHIVE: &[u8] = b"!<arch>\n";
const ZLIB: &[u8] = b"x\x01";

/// `base * scale`, at least `min`.
#[expect(
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "scale is validated finite and positive; counts are far below 2^52"
)]
fn scaled(base: usize, scale: f64, min: usize) -> usize {
    ((base as f64 * scale).round() as usize).max(min)
}

/// Every file of the corpus at `scale`, the big log first (it takes longest).
fn plan(scale: f64) -> Vec<Entry> {
    let mut plan = Plan(Vec::new());
    plan.logs(scale);
    plan.sources(scale);
    plan.ignored(scale);
    plan.hidden(scale);
    plan.vcs(scale);
    plan.odd();
    plan.0
}

fn text(ext: Ext, size: Size) -> Kind {
    Kind::Text {
        ext,
        size,
        rare: false,
        config: false,
    }
}

struct Plan(Vec<Entry>);

impl Plan {
    fn add(&mut self, path: impl Into<PathBuf>, kind: Kind) {
        self.0.push(Entry {
            path: path.into(),
            kind,
        });
    }

    #[expect(clippy::cast_sign_loss, reason = "scale is validated positive")]
    fn logs(&mut self, scale: f64) {
        let bytes = (50.0 * 1024.0 * 1024.0 * scale) as u64;
        self.add("logs/huge.log".to_owned(), Kind::Log { bytes });
        for i in 0..scaled(20, scale, 2) {
            let bytes = 2_000 + 1_000 * i as u64;
            self.add(format!("logs/app_{i:02}.log"), Kind::Log { bytes });
        }
    }

    /// `src/`: 700 files per module, 70 per sub-directory; the rare
    /// identifier in 10 of them, `ConfigLoader` in about 1% of the `.rs` and
    /// `.ts` ones.
    fn sources(&mut self, scale: f64) {
        let sources = scaled(140_000, scale, 100);
        let rare: BTreeSet<usize> = (0..10)
            .map(|k| ((2 * k + 1) * sources / 20 + 7 * k) % sources)
            .collect();
        for i in 0..sources {
            let mut rng = Rng::for_path("src", i as u64);
            let ext = match rng.below(100) {
                0..25 => Ext::Rs,
                25..50 => Ext::Ts,
                50..65 => Ext::Py,
                65..75 => Ext::Md,
                75..90 => Ext::Txt,
                _ => Ext::Json,
            };
            let (module, sub, file) = (i / 700, i % 700 / 70, i % 70);
            let path = format!(
                "src/mod_{module:03}/sub_{sub:02}/file_{file:03}.{}",
                ext.as_str()
            );
            let rare = rare.contains(&i);
            let config =
                config_line(ext).is_some() && Rng::for_path(&path, CONFIG_SALT).chance(100);
            let kind = if ext == Ext::Txt && !rare && rng.chance(1_500) {
                Kind::Latin1
            } else {
                Kind::Text {
                    ext,
                    size: Size::Source,
                    rare,
                    config,
                }
            };
            self.add(path, kind);
            if i % 700 == 0 {
                let hidden = format!("src/mod_{module:03}/.eslintrc.json");
                self.add(hidden, Kind::Fixed("{ \"extends\": \"recommended\" }\n"));
            }
        }
        for i in 0..scaled(200, scale, 4) {
            self.add(format!("dist/bundle_{i:03}.min.js"), Kind::Minified);
        }
        for i in 0..scaled(1_000, scale, 10) {
            if i % 2 == 0 {
                self.add(format!("assets/img_{i:04}.png"), Kind::Binary(PNG));
            } else {
                self.add(format!("assets/tool_{i:04}.bin"), Kind::Binary(ELF));
            }
        }
    }

    /// Ignored by `.gitignore`: packages of ten files, crates of five.
    fn ignored(&mut self, scale: f64) {
        for p in 0..scaled(3_500, scale, 10) {
            let dir = format!("node_modules/pkg_{p:04}");
            self.add(format!("{dir}/package.json"), text(Ext::Json, Size::Small));
            self.add(format!("{dir}/README.md"), text(Ext::Md, Size::Small));
            self.add(format!("{dir}/index.js"), text(Ext::Js, Size::Small));
            self.add(
                format!("{dir}/types/index.d.ts"),
                text(Ext::Ts, Size::Small),
            );
            for f in 0..6 {
                self.add(format!("{dir}/lib/part_{f}.js"), text(Ext::Js, Size::Small));
            }
        }
        for c in 0..scaled(3_000, scale, 10) {
            let hash = Rng::for_path("crate", c as u64).next();
            let name = format!("crate_{c:04}-{hash:016x}");
            self.add(format!("target/debug/deps/{name}.d"), Kind::Hex);
            self.add(
                format!("target/debug/deps/lib{name}.rlib"),
                Kind::Binary(ARCHIVE),
            );
            for g in 0..2 {
                let path = format!("target/debug/build/{name}/out/gen_{g}.rs");
                self.add(path, text(Ext::Rs, Size::Small));
            }
            self.add(format!("target/debug/.fingerprint/{name}/lib"), Kind::Hex);
        }
    }

    /// Hidden, not ignored: glob lists them (`--hidden`), grep skips them.
    fn hidden(&mut self, scale: f64) {
        for i in 0..scaled(4_000, scale, 40) {
            let path = format!(".cache/tool_{:02}/entry_{i:05}.json", i % 40);
            self.add(path, text(Ext::Json, Size::Small));
        }
        for i in 0..scaled(2_000, scale, 20) {
            let path = format!(".config/app_{:02}/settings_{i:04}.toml", i % 20);
            self.add(path, text(Ext::Toml, Size::Small));
        }
    }

    /// VCS metadata, which glob never lists (SPEC §2).
    fn vcs(&mut self, scale: f64) {
        self.add(
            ".git/HEAD".to_owned(),
            Kind::Fixed("ref: refs/heads/main\n"),
        );
        self.add(".git/config".to_owned(), Kind::Fixed(GIT_CONFIG));
        self.add(".git/refs/heads/main".to_owned(), Kind::Hex);
        self.add(".git/index".to_owned(), Kind::Binary(b"DIRC\0\0\0\x02"));
        for i in 0..scaled(400, scale, 8) {
            let h = Rng::for_path(".git", i as u64).next();
            let path = format!(".git/objects/{:02x}/{h:016x}{i:06}", h >> 56);
            self.add(path, Kind::Binary(ZLIB));
        }
        self.add(".hg/requires".to_owned(), Kind::Fixed("revlogv1\nstore\n"));
        for i in 0..scaled(150, scale, 3) {
            let path = format!(".hg/store/data/file_{i:04}.i");
            self.add(path, Kind::Binary(b"\0\x01"));
        }
        self.add(".svn/entries".to_owned(), Kind::Fixed("12\n"));
        for i in 0..scaled(150, scale, 3) {
            let h = Rng::for_path(".svn", i as u64).next();
            let path = format!(".svn/pristine/{:02x}/{h:016x}.svn-base", h >> 56);
            self.add(path, text(Ext::Txt, Size::Small));
        }
    }

    /// Root files and names that need quoting, and on Unix one that is not
    /// UTF-8 (other systems cannot name it).
    fn odd(&mut self) {
        self.add(".gitignore".to_owned(), Kind::Fixed(GITIGNORE));
        self.add("README.md".to_owned(), text(Ext::Md, Size::Source));
        for (name, ext) in [
            ("odd/with space.txt", Ext::Txt),
            ("odd/données_ü.txt", Ext::Txt),
            ("odd/-flag.txt", Ext::Txt),
            ("odd/it's.md", Ext::Md),
            ("odd/dir with space/inner.rs", Ext::Rs),
            ("odd/日本語.md", Ext::Md),
            ("odd/UPPER.RS", Ext::Rs),
            ("-dash-dir/notes.txt", Ext::Txt),
        ] {
            self.add(name.to_owned(), text(ext, Size::Small));
        }
        self.add("odd/empty.txt".to_owned(), Kind::Fixed(""));
        #[cfg(unix)]
        {
            use std::ffi::OsStr;
            use std::os::unix::ffi::OsStrExt;
            self.add(
                OsStr::from_bytes(NOT_UTF8_NAME),
                Kind::Fixed(NOT_UTF8_TEXT.as_str()),
            );
        }
    }
}

/// Make `dir` an empty directory we may fill: create it, accept it empty, or,
/// when it holds our marker, move its contents into a trash directory inside
/// it and return that (deleted once the new corpus is written). Anything else
/// is refused.
///
/// Deleting first and creating right after is slow on ext4: inode allocation
/// then skips over (and reads) every recently deleted inode, which made a
/// scale-1 rebuild take about 55 s instead of a few seconds.
fn prepare(dir: &Path) -> Result<Option<PathBuf>> {
    if !dir.exists() {
        fs::create_dir_all(dir)?;
        return Ok(None);
    }
    if !dir.is_dir() {
        return Err(format!("{} exists and is not a directory", dir.display()).into());
    }
    if fs::read_dir(dir)?.next().is_none() {
        return Ok(None);
    }
    let ours = fs::read_to_string(dir.join(MARKER)).is_ok_and(|m| m.starts_with(MARKER_MAGIC));
    if !ours {
        return Err(format!(
            "{} is not empty and holds no {MARKER} marker; refusing to write into it",
            dir.display()
        )
        .into());
    }
    let trash = dir.join(TRASH);
    if trash.exists() {
        // Left by an interrupted run.
        fs::remove_dir_all(&trash)?;
    }
    fs::create_dir(&trash)?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name() != TRASH {
            fs::rename(entry.path(), trash.join(entry.file_name()))?;
        }
    }
    Ok(Some(trash))
}

/// `bench corpus`: write the corpus of `scale` into `dir` (see the module docs).
pub fn write(dir: &Path, scale: f64) -> Result<()> {
    if !scale.is_finite() || scale <= 0.0 || scale > 100.0 {
        return Err(format!("--scale must be above 0 and at most 100, got {scale}").into());
    }
    let started = Instant::now();
    let trash = prepare(dir)?;
    let marker = |summary: &str| {
        format!(
            "{MARKER_MAGIC}, written by `cargo run --example bench -- corpus`; \
             `bench corpus` may delete this directory.\nversion={VERSION}\nscale={scale}\n{summary}"
        )
    };
    fs::write(dir.join(MARKER), marker(""))?;

    let entries = plan(scale);
    let dirs: BTreeSet<&Path> = entries
        .iter()
        .filter_map(|e| Path::new(&e.path).parent())
        .collect();
    for d in dirs {
        fs::create_dir_all(dir.join(d))?;
    }

    let next = AtomicUsize::new(0);
    let workers = thread::available_parallelism().map_or(2, |n| (2 * n.get()).min(8));
    let bytes = thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> io::Result<u64> {
                    let mut total = 0;
                    loop {
                        let first = next.fetch_add(CLAIM, Ordering::Relaxed);
                        let Some(claimed) = entries.get(first..entries.len().min(first + CLAIM))
                        else {
                            return Ok(total);
                        };
                        for entry in claimed {
                            total += write_entry(dir, entry).map_err(|e| {
                                io::Error::new(e.kind(), format!("{}: {e}", entry.path.display()))
                            })?;
                        }
                    }
                })
            })
            .collect();
        let mut total = 0;
        for handle in handles {
            total += handle
                .join()
                .map_err(|_| "a corpus writer thread panicked")??;
        }
        Ok::<u64, BoxError>(total)
    })?;

    let written = started.elapsed();
    if let Some(trash) = trash {
        fs::remove_dir_all(trash)?;
    }
    let summary = format!("files={}\nbytes={bytes}\n", entries.len());
    let marker_path = dir.join(MARKER);
    fs::write(&marker_path, marker(&summary))?;
    File::options()
        .write(true)
        .open(&marker_path)?
        .set_modified(mtime(MARKER.as_bytes()))?;
    println!(
        "corpus: {} files, {bytes} bytes ({:.1} MiB) in {} (scale {scale}; the marker \
         {MARKER} not counted); written in {:.1} s, {:.1} s in all",
        entries.len(),
        mib(bytes),
        dir.display(),
        written.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
