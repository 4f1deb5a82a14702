//! The fuzz targets' way in (the `fuzz/` crate of the repository, run with
//! `cargo fuzz`, and the corpus test that replays its seeds on stable).
//! One function per target: each takes the bytes libFuzzer made, runs them
//! through the code that reads that kind of untrusted input, and checks
//! what comes out. A broken rule panics, which libFuzzer reports as a
//! crash, with the input that did it.
//!
//! - [`mcp_line`]: lines of an MCP session; every reply is one line of
//!   JSON-RPC 2.0.
//! - [`tool_arguments`]: a tool's arguments as JSON text; a request or an
//!   argument error, and the error's text and JSON; a request's command
//!   lines carry its values word for word.
//! - [`rg_output`]: rg's stdout (`--json` records, NUL-separated paths,
//!   `--count` lines) through the sinks to the rendered page; previews stay
//!   within the cap, paths in the text hold no raw control character.
//! - [`outline`]: a file's bytes as function context parses them (one
//!   byte picks the language); each line's definition holds the line.
//!
//! Nothing here runs a search: the settings name an rg that is not there,
//! so a tool call fails before anything starts and no probe runs.

use std::num::{NonZeroU64, NonZeroUsize};
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::arguments;
use crate::call;
use crate::locate::{Rg, RgMissing, RgSource};
use crate::mcp;
use crate::outline::Language;
use crate::render;
use crate::request::{Context, GlobRequest, GrepRequest, Output, Page, Request};
use crate::response::{Body, Response};
use crate::rg::command::{self, CommandLine, Probe};
use crate::search::replay::{self, Replay, TRUNCATED_MARK, WINDOW_MARK};
use crate::search::report::{Items, Report};
use crate::search::{self, Ending, RgExit};
use crate::settings::{DEFAULT_LIMITS, DEFAULT_TIMEOUT_MS, Format, GlobSort, Limits, Settings};
use crate::stop::{Halt, Stop};
use crate::tool::Tool;

/// The workdir of the fuzzed calls: nothing is there.
const WORKDIR: &str = "/nonexistent/dsh-search-fuzz";

/// Settings whose rg cannot be found (so nothing can start), in a workdir
/// that does not exist.
fn settings(limits: Limits, glob_sort: GlobSort) -> Settings {
    Settings {
        workdir: PathBuf::from(WORKDIR),
        rg: Rg {
            given: "rg".to_owned(),
            resolved: Err(RgMissing::NotOnPath),
            source: RgSource::Path,
        },
        limits,
        timeout_ms: DEFAULT_TIMEOUT_MS,
        glob_sort,
        format: Format::Text,
        spill_dir: None,
        spill_hint: String::new(),
        explain: false,
        mcp_structured: true,
        index: crate::settings::IndexMode::Off,
        serve_after: None,
    }
}

/// Target `mcp_line`: `data` as the lines an MCP client sent (usually one)
/// to one server. Every reply must be one line of JSON: a JSON-RPC 2.0
/// response object, or a non-empty batch of them.
///
/// # Panics
///
/// When a reply breaks that rule.
pub fn mcp_line(data: &[u8]) {
    let settings = settings(DEFAULT_LIMITS, GlobSort::default());
    for reply in mcp::replies(data, &settings) {
        check_reply(&reply);
    }
}

/// A JSON-RPC 2.0 response as the client reads it; the id and the result
/// are kept raw (an id is echoed as written, digits beyond any float
/// included).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RpcResponse {
    jsonrpc: String,
    #[serde(default)]
    id: Option<Box<RawValue>>,
    #[serde(default)]
    result: Option<Box<RawValue>>,
    #[serde(default)]
    error: Option<ErrorObject>,
}

/// An error object's two required members (`data` may follow).
#[derive(Deserialize)]
struct ErrorObject {
    code: i64,
    message: String,
}

fn check_reply(reply: &str) {
    assert!(
        !reply.contains(['\n', '\r']),
        "a reply of more than one line: {reply:?}"
    );
    let batch = reply.trim_start().starts_with('[');
    let objects: Vec<Box<RawValue>> = if batch {
        match serde_json::from_str::<Vec<Box<RawValue>>>(reply) {
            Ok(items) if !items.is_empty() => items,
            Ok(_) => panic!("an empty batch reply: {reply:?}"),
            Err(e) => panic!("a batch reply that is not JSON ({e}): {reply:?}"),
        }
    } else {
        match serde_json::from_str::<Box<RawValue>>(reply) {
            Ok(object) => vec![object],
            Err(e) => panic!("a reply that is not JSON ({e}): {reply:?}"),
        }
    };
    for object in objects {
        let response: RpcResponse = serde_json::from_str(object.get())
            .unwrap_or_else(|e| panic!("not a JSON-RPC response ({e}): {reply:?}"));
        assert_eq!(response.jsonrpc, "2.0", "{reply:?}");
        if let Some(id) = &response.id {
            assert!(
                id.get()
                    .starts_with(['"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']),
                "an id that is neither a string nor a number: {reply:?}"
            );
        }
        match (&response.result, &response.error) {
            (Some(_), None) => {}
            (None, Some(e)) => assert!(
                e.code < 0 && !e.message.is_empty(),
                "an error without a negative code and a message: {reply:?}"
            ),
            _ => panic!("not one result or one error: {reply:?}"),
        }
    }
}

/// Target `tool_arguments`: `data` (lossily decoded) as the arguments of
/// each tool. Each call is a request or an argument error; the error's
/// text is `Error: …` and its JSON one line with that text; a request's
/// command lines, as `sh -c` and as Windows reads them, give rg exactly
/// its words.
///
/// # Panics
///
/// When one of those rules is broken.
pub fn tool_arguments(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for tool in Tool::ALL {
        let args = arguments::parse(tool, &text);
        let error = match args.request {
            Ok(request) => {
                check_command_lines(&request);
                continue;
            }
            Err(e) => e,
        };
        let response = Response::of_error(Some(tool), error.into(), args.ignored);
        let text = check_rendered(&response);
        assert!(text.starts_with("Error: "), "{text:?}");
    }
}

/// Every command line `request` can run: each must say what its words are.
fn check_command_lines(request: &Request) {
    let rg = "/opt/rg it's/rg";
    let lines = match request {
        Request::Glob(r) => vec![
            command::glob_line(rg, r, r.path.as_deref()),
            command::glob_case_line(rg, r, r.path.as_deref()),
        ],
        Request::Grep(r) => vec![
            command::grep_line(rg, r),
            command::grep_probe_line(rg, Probe::Ignored, r),
            command::grep_probe_line(rg, Probe::Case, r),
        ],
    };
    for line in &lines {
        let mut words = vec![line.program().to_owned()];
        words.extend(line.args().map(std::borrow::Cow::into_owned));
        let script = line.script();
        let mut run = vec!["exec".to_owned()];
        run.extend(words.iter().cloned());
        assert_eq!(sh_words(&script), run, "sh -c {script:?}");
        let windows = line.windows_command_line();
        assert_eq!(windows_words(line, &windows), words, "{windows:?}");
    }
}

/// The words `sh` makes of `script`, for the forms `CommandLine::script` writes:
/// single-quoted runs, `\'`, and plain characters that nothing in sh
/// treats specially. Anything else outside quotes fails: it would be sh's
/// to interpret.
fn sh_words(script: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = script.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => panic!("an unterminated quote: {script:?}"),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => panic!("a trailing backslash: {script:?}"),
            },
            c if c.is_ascii_alphanumeric() || "-_=.,:/+@%".contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            c => panic!("{c:?} outside quotes, for sh to interpret: {script:?}"),
        }
    }
    words.extend(word);
    words
}

/// The words a Windows program whose command line is `text` reads: the
/// program, in quotes, then the arguments split as Rust's standard library
/// (and `CommandLineToArgvW`) split them.
fn windows_words(line: &CommandLine, text: &str) -> Vec<String> {
    let program = format!("\"{}\"", line.program());
    let Some(rest) = text.strip_prefix(&program) else {
        panic!("the command line does not start with the program: {text:?}");
    };
    let mut words = vec![line.program().to_owned()];
    let mut word = String::new();
    let mut started = false;
    let mut in_quotes = false;
    let mut backslashes = 0;
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                backslashes += 1;
                started = true;
            }
            '"' => {
                word.extend(std::iter::repeat_n('\\', backslashes / 2));
                if backslashes % 2 == 1 {
                    word.push('"');
                } else if in_quotes && chars.peek() == Some(&'"') {
                    word.push('"');
                    chars.next();
                } else {
                    in_quotes = !in_quotes;
                }
                backslashes = 0;
                started = true;
            }
            ' ' | '\t' if !in_quotes => {
                word.extend(std::iter::repeat_n('\\', backslashes));
                backslashes = 0;
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.extend(std::iter::repeat_n('\\', backslashes));
                backslashes = 0;
                word.push(c);
                started = true;
            }
        }
    }
    word.extend(std::iter::repeat_n('\\', backslashes));
    if started {
        words.push(word);
    }
    words
}

/// Bytes of [`rg_output`]'s input before rg's stdout.
pub const RG_OUTPUT_HEADER: usize = 4;

/// The record bound header bit 5 chooses: longer than rg's `begin`, `end`
/// and `summary` records (as the real bound of 1 MiB or more is), shorter
/// than the matched lines of a small input.
pub const SMALL_RECORD_BOUND: usize = 1024;

/// Target `rg_output`: the first [`RG_OUTPUT_HEADER`] bytes choose the
/// search and its caps, the rest is what rg printed on stdout. It goes
/// through the tool's sink, the judgement of how rg ended, ordering and
/// paging, and is rendered as text and JSON (and as the spill file's
/// content).
///
/// The header, bit by bit:
/// - byte 0: the preview cap, `grep_max_line_bytes`, 1 to 256;
/// - byte 1: bits 0-2 the search (grep content, multiline content, count,
///   multiline count, files; glob by path, newest, oldest), bits 3-4 how
///   rg ended (exited twice, timed out, over the byte cap at half its
///   output), bit 5 a record bound of [`SMALL_RECORD_BOUND`] (records
///   longer are read as they stream), bits 6-7 the size of the pieces the sink is handed (1,
///   7, 64 bytes, all at once);
/// - byte 2: bits 0-2 the page's offset, bits 3-5 its limit (0: none),
///   bit 6 one line of context before, bit 7 two after (grep content);
/// - byte 3: bits 0-3 the page cap less one, bits 4-5 rg's exit status
///   (0, 1, 2, 137).
///
/// # Panics
///
/// When a preview is longer than the cap (marks aside), the text holds a
/// raw control character outside a preview, or the JSON is not one line
/// carrying the same text.
pub fn rg_output(data: &[u8]) {
    let Some((header, stdout)) = data.split_first_chunk::<RG_OUTPUT_HEADER>() else {
        return;
    };
    let [cap, mode, page, caps] = *header;
    let line_cap = NonZeroUsize::MIN.saturating_add(usize::from(cap));
    let page_cap = NonZeroUsize::MIN.saturating_add(usize::from(caps & 15));
    let context = Context {
        before: usize::from(page >> 6 & 1),
        after: usize::from(page >> 7) * 2,
        // The fuzzed workdir holds no file: every file is one without a
        // parser, which is function context's fallback.
        function: caps >> 4 & 1 == 1,
    };
    let page = Page {
        offset: usize::from(page & 7),
        limit: match page >> 3 & 7 {
            0 => None,
            limit => Some(usize::from(limit)),
        },
    };
    let (request, glob_sort) = request(mode, page, context);
    let status = [0, 1, 2, 137][usize::from(caps >> 4 & 3)];
    let half = stdout.len() / 2;
    let (ending, at) = match mode >> 3 & 3 {
        0 | 1 => (Ending::Exited(RgExit::Status(status)), stdout.len()),
        2 => (Ending::Halted(Halt::TimedOut), stdout.len()),
        _ => (Ending::Overflow, half),
    };
    let (stdout, skimmed) = stdout.split_at(at);
    let limits = Limits {
        glob_max_results: page_cap,
        grep_max_matches: page_cap,
        grep_max_line_bytes: line_cap,
        raw_output_max_bytes: NonZeroU64::new(half as u64).unwrap_or(NonZeroU64::MIN),
    };
    let replay = Replay {
        stdout,
        skimmed,
        chunk: [1, 7, 64, usize::MAX][usize::from(mode >> 6)],
        ending,
        record_bound: if mode & 0x20 == 0 {
            replay::record_bound(line_cap.get())
        } else {
            SMALL_RECORD_BOUND
        },
    };
    let settings = settings(limits, glob_sort);
    let tool = match request {
        Request::Glob(_) => Tool::Glob,
        Request::Grep(_) => Tool::Grep,
    };
    let stop = Stop::new();
    let result = replay::run(&request, &settings, &stop, replay);
    let response = Response {
        tool: Some(tool),
        body: call::body(tool, result, &settings),
        ignored: Vec::new(),
        explain: None,
    };
    let text = check_rendered(&response);
    let report = match &response.body {
        Body::Results(report) => Some(report),
        Body::Failed { partial, .. } => partial.as_deref(),
    };
    let Some(report) = report else {
        check_no_control(&text, &[]);
        return;
    };
    check_previews(report, line_cap.get());
    check_no_control(&text, &page_lines(&report.line_page()));
    let complete = render::text::complete(report, None);
    check_no_control(&complete, &page_lines(&report.all_lines()));
}

/// The search `rg_output`'s header chooses (bits 0-2 of its byte 1),
/// with the page and context it gives, and glob's order.
fn request(mode: u8, page: Page, context: Context) -> (Request, GlobSort) {
    let grep = |output, multiline| {
        Request::Grep(GrepRequest {
            pattern: "x".to_owned(),
            path: None,
            include: None,
            output,
            context: if output == Output::Content {
                context
            } else {
                Context::default()
            },
            ignore_case: false,
            literal: false,
            multiline,
            file_type: None,
            exclude: None,
            follow: false,
            page,
        })
    };
    let glob = Request::Glob(GlobRequest {
        pattern: "**".to_owned(),
        path: None,
        ignore_case: false,
        exclude: None,
        follow: false,
        page,
    });
    match mode & 7 {
        0 => (grep(Output::Content, false), GlobSort::Path),
        1 => (grep(Output::Content, true), GlobSort::Path),
        2 => (grep(Output::Count, false), GlobSort::Path),
        3 => (grep(Output::Count, true), GlobSort::Path),
        4 => (grep(Output::Files, false), GlobSort::Path),
        5 => (glob, GlobSort::Path),
        6 => (glob, GlobSort::Newest),
        _ => (glob, GlobSort::Oldest),
    }
}

/// Render `response` as text and as JSON: the JSON must be one line, an
/// object whose `text` is the text. The text, for more checks.
fn check_rendered(response: &Response) -> String {
    let text = render::text::response(response);
    let line = render::stdout(response, Format::Json);
    let Some(json) = line.strip_suffix('\n') else {
        panic!("JSON output without its newline: {line:?}");
    };
    assert!(!json.contains('\n'), "JSON output of two lines: {line:?}");
    let value: Value = serde_json::from_str(json)
        .unwrap_or_else(|e| panic!("JSON output that is not JSON ({e}): {line:?}"));
    assert_eq!(
        value.get("text").and_then(Value::as_str),
        Some(text.as_str()),
        "the JSON's text is not the text: {line:?}"
    );
    assert_eq!(render::stdout(response, Format::Text), format!("{text}\n"));
    text
}

/// Every line grep kept: its preview holds at most `cap` characters of
/// the line (each from at least one of its bytes), and one that does not
/// show the whole line ends with the mark.
fn check_previews(report: &Report, cap: usize) {
    let Items::Lines(files) = &report.items else {
        return;
    };
    for line in files.iter().flat_map(|f| &f.lines) {
        let shown = if line.truncated {
            let Some(shown) = line.preview.strip_suffix(TRUNCATED_MARK) else {
                panic!("a truncated preview without the mark: {line:?}");
            };
            shown.strip_prefix(WINDOW_MARK).unwrap_or(shown)
        } else {
            &line.preview
        };
        assert!(
            shown.chars().count() <= cap,
            "a preview over the cap of {cap} bytes: {line:?}"
        );
    }
}

/// The `Line N: preview` lines of a page, as the text shows them.
fn page_lines(page: &[search::report::PageFile<'_>]) -> Vec<String> {
    page.iter()
        .flat_map(|(_, lines)| lines)
        .map(|(_, line)| {
            let mark = if line.matched { ':' } else { '-' };
            format!("\nLine {}{mark} {}", line.number, line.preview)
        })
        .collect()
}

/// `text` with the preview lines `previews` taken out, in order (a
/// preview shows a line of a file as it is), must hold no control
/// character but the newlines between its lines: every path in it is
/// escaped.
fn check_no_control(text: &str, previews: &[String]) {
    let mut rest = text;
    let mut outside = String::with_capacity(text.len());
    for preview in previews {
        let Some(at) = rest.find(preview.as_str()) else {
            panic!("the preview line {preview:?} is not in the text: {text:?}");
        };
        outside.push_str(&rest[..at]);
        rest = &rest[at + preview.len()..];
    }
    outside.push_str(rest);
    if let Some(c) = outside.chars().find(|&c| c.is_control() && c != '\n') {
        panic!("a raw control character {c:?} outside the previews: {text:?}");
    }
}

/// The languages [`outline`]'s first byte picks from, by its value modulo
/// their number.
const LANGUAGES: [Language; 9] = [
    Language::Rust,
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Java,
    Language::C,
    Language::Cpp,
];

/// An input of [`outline`] for the file `name` holding `source`: the
/// byte that picks the language function context gives `name`, then
/// `source`. `None` when no parser reads such a file. How the fuzz seeds
/// are made from the test fixtures.
#[must_use]
pub fn outline_seed(name: &str, source: &[u8]) -> Option<Vec<u8>> {
    let language = crate::outline::language_of(name)?;
    let pick = LANGUAGES.iter().position(|&l| l == language)?;
    let mut seed = vec![u8::try_from(pick).ok()?];
    seed.extend_from_slice(source);
    Some(seed)
}

/// Target `outline`: the first byte picks a language (of `LANGUAGES`),
/// the rest is a file as function context parses it (SPEC §4), asked for
/// what holds every third line and the line past the end, in order and
/// then backwards. The parse ends (by the deadline at the latest); a
/// definition found holds its line and its signature line, and has a kind;
/// the order the lines are asked in changes no answer.
pub fn outline(data: &[u8]) {
    use crate::outline::Holder;
    let Some((&pick, source)) = data.split_first() else {
        return;
    };
    let language = LANGUAGES[usize::from(pick) % LANGUAGES.len()];
    let last = memchr::memchr_iter(b'\n', source).count() as u64 + 2;
    let lines: Vec<u64> = (1..=last).step_by(3).chain([last]).collect();
    let stop = crate::stop::Stop::new();
    let budget = crate::stop::Budget {
        deadline: std::time::Instant::now() + std::time::Duration::from_secs(5),
        stop: &stop,
    };
    let Ok(found) = crate::outline::definitions(source, language, &lines, budget) else {
        return;
    };
    assert_eq!(found.len(), lines.len());
    for (line, holder) in lines.iter().zip(&found) {
        if let Holder::Definition(d) = holder {
            assert!(
                d.start_line <= *line && *line <= d.end_line,
                "line {line} outside its definition {d:?}"
            );
            assert!(
                d.start_line <= d.signature_line && d.signature_line <= d.end_line,
                "the signature line outside its definition {d:?}"
            );
            assert!(!d.kind.is_empty(), "{d:?}");
        }
    }
    let backwards: Vec<u64> = lines.iter().rev().copied().collect();
    if let Ok(mut again) = crate::outline::definitions(source, language, &backwards, budget) {
        again.reverse();
        assert_eq!(again, found, "the lines asked backwards");
    }
}
