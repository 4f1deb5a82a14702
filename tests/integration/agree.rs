//! grep's three output modes agree on every kind of path (SPEC §3a): a
//! `path` that names one file behaves as a directory holding only that
//! file, count's total is content's total, files lists count's files in
//! the same order, and binary files are named apart by content but listed
//! by files and count. A property test over generated trees (text, CRLF,
//! binary, empty, ignored, hidden and linked files), patterns, paths and
//! options, against real rg; pages of each mode (SPEC §3b) put together
//! give the whole result. Then the single-file cases byte for byte.
//!
//! The property runs `PROPTEST_CASES` cases (default [`CASES`]) from a
//! fixed seed (`PROPTEST_RNG_SEED` picks another), so CI sees the same
//! cases every run. A failure names the case, its tree byte for byte, and
//! each command the failing check compared (with its directory), with what
//! it printed.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{Value, json};

use crate::harness::{Ran, TestDir, assert_out, binary, stdout, stdout_json};

/// Cases the property runs unless `PROPTEST_CASES` says otherwise: a few
/// seconds in a debug build.
const CASES: u32 = 48;

/// The RNG seed of the property's cases unless `PROPTEST_RNG_SEED` gives one.
const SEED: u64 = 0x00d5_4a67_7e3e;

/// A cap no generated tree reaches: the whole result on one page.
const UNCAPPED: usize = 1_000_000;

/// The words every line is made of, so the patterns below hit.
const WORDS: &[&str] = &["alpha", "beta", "Gamma", "delta", "foo_bar", "x", "ALPHA"];

/// Patterns of one line: words, regexes, and one that matches nothing.
const PATTERNS: &[&str] = &[
    "alpha",
    "beta",
    "Gamma",
    "delta",
    "foo_bar",
    "alpha beta",
    "al.ha|delta",
    "^beta",
    "beta$",
    r"\bx\b",
    "[Gg]amma",
    "a",
    "nowhere",
];

/// Patterns that can span lines, for multiline searches only.
const SPANNING: &[&str] = &[
    r"alpha\nbeta",
    r"alpha\r?\nbeta",
    "alpha.beta",
    r"(?s)beta.*?delta",
    r"x\n",
];

const INCLUDES: &[&str] = &["*.rs", "*.md", "*.{rs,txt}", "src/**", "*.log"];
const TYPES: &[&str] = &["rust", "md", "txt"];
const EXCLUDES: &[&str] = &["*.md", "**/deep/**", "lib.rs", "*.{txt,log}"];

/// Where a file may be. The first is always there (`link.rs` points at
/// it); then nested ones, a name with a space, hidden ones, and ones
/// `.gitignore` names when there is one.
const SLOTS: &[&str] = &[
    "src/lib.rs",
    "a.rs",
    "notes.md",
    "src/main.rs",
    "src/deep/mod.rs",
    "src/deep/data.txt",
    "docs/guide.md",
    "docs/a b.txt",
    ".hidden.rs",
    "src/.env.md",
    "build/out.rs",
    "src/gen.log",
];

const GITIGNORE: &str = "build/\n*.log\n";

/// A symbolic link to `src/lib.rs`, and one to `src`.
const LINK_FILE: &str = "link.rs";
const LINK_DIR: &str = "linked";

/// A file's bytes.
#[derive(Clone, Debug)]
enum Body {
    Empty,
    /// Lines ending in `\n` or `\r\n`, the last one perhaps with none.
    Text {
        lines: Vec<String>,
        crlf: bool,
        final_newline: bool,
    },
    /// Lines with a NUL at the start of line `nul_at` (modulo one past the
    /// last: before, among or after the matches).
    Binary {
        lines: Vec<String>,
        nul_at: usize,
    },
}

impl Body {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Self::Empty => Vec::new(),
            Self::Text {
                lines,
                crlf,
                final_newline,
            } => {
                let end = if *crlf { "\r\n" } else { "\n" };
                let mut text = lines.join(end);
                if *final_newline && !lines.is_empty() {
                    text.push_str(end);
                }
                text.into_bytes()
            }
            Self::Binary { lines, nul_at } => {
                let mut lines: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
                let at = nul_at % (lines.len() + 1);
                if at == lines.len() {
                    lines.push("\0".to_owned());
                } else {
                    lines[at].insert(0, '\0');
                }
                lines.concat().into_bytes()
            }
        }
    }
}

/// A tree to search: files in some of the [`SLOTS`], and the extras.
#[derive(Clone, Debug)]
struct Tree {
    files: Vec<(&'static str, Body)>,
    gitignore: bool,
    links: Links,
    empty_dir: bool,
}

/// Which of the symbolic links the tree has.
#[derive(Clone, Copy, Debug)]
struct Links {
    /// [`LINK_FILE`], to `src/lib.rs`.
    file: bool,
    /// [`LINK_DIR`], to `src`.
    dir: bool,
}

impl Tree {
    fn make(&self) -> TestDir {
        let t = TestDir::new();
        for (path, body) in &self.files {
            t.write(path, body.bytes());
        }
        if self.gitignore {
            t.write(".gitignore", GITIGNORE);
        }
        if self.empty_dir {
            t.mkdir("empty");
        }
        if self.links.file {
            symlink("src/lib.rs", t.path().join(LINK_FILE)).unwrap();
        }
        if self.links.dir {
            symlink("src", t.path().join(LINK_DIR)).unwrap();
        }
        t
    }

    /// Every directory that holds a file, parents first.
    fn dirs(&self) -> Vec<String> {
        let mut dirs = BTreeSet::new();
        for (path, _) in &self.files {
            let mut dir = *path;
            while let Some((parent, _)) = dir.rsplit_once('/') {
                dirs.insert(parent.to_owned());
                dir = parent;
            }
        }
        dirs.into_iter().collect()
    }

    /// Whether a walk of the file's directory reaches it: not hidden, not
    /// ignored.
    fn walked(&self, file: &str) -> bool {
        let hidden = file.split('/').any(|part| part.starts_with('.'));
        let log = Path::new(file).extension() == Some(OsStr::new("log"));
        let ignored = self.gitignore && (file.starts_with("build/") || log);
        !hidden && !ignored
    }

    /// The tree as a listing, for a failure message.
    fn listing(&self, root: &str) -> String {
        let mut out = format!("tree in {root} (with an empty .git/):\n");
        for (path, body) in &self.files {
            let bytes = body.bytes();
            let _ = writeln!(out, "  {path}: {:?}", String::from_utf8_lossy(&bytes));
        }
        if self.gitignore {
            let _ = writeln!(out, "  .gitignore: {GITIGNORE:?}");
        }
        if self.links.file {
            let _ = writeln!(out, "  {LINK_FILE} -> src/lib.rs");
        }
        if self.links.dir {
            let _ = writeln!(out, "  {LINK_DIR} -> src");
        }
        if self.empty_dir {
            let _ = writeln!(out, "  empty/");
        }
        out
    }
}

/// How a path is written.
#[derive(Clone, Copy, Debug)]
enum Spelling {
    Plain,
    /// A trailing `/` (directories only).
    Slash,
    /// `./` before it.
    DotSlash,
    /// Absolute, inside the workdir.
    Absolute,
}

/// The `path` argument.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// None: the workdir.
    Workdir,
    Dot,
    /// The nth directory that holds a file.
    Dir(usize, Spelling),
    /// The nth file.
    File(usize, Spelling),
    /// The nth file under `src`, reached through the linked directory.
    ThroughLink(usize),
    /// The link to a file itself.
    LinkFile,
    /// The link to a directory itself, perhaps with a trailing `/`.
    LinkDir(bool),
    EmptyDir,
}

/// A path resolved against a tree.
struct Resolved {
    /// The `path` argument, if any.
    arg: Option<String>,
    /// When it names one file: that file as every mode must show it, its
    /// directory as a path (None: the workdir), and whether a walk of
    /// that directory reaches it (so a search of the directory is an
    /// oracle for the file's count).
    file: Option<(String, Option<String>, bool)>,
}

impl Place {
    fn resolve(self, tree: &Tree, t: &TestDir) -> Resolved {
        let spell = |path: &str, spelling: Spelling| match spelling {
            Spelling::Plain => path.to_owned(),
            Spelling::Slash => format!("{path}/"),
            Spelling::DotSlash => format!("./{path}"),
            Spelling::Absolute => t.absolute(path),
        };
        let dir_only = |arg: String| Resolved {
            arg: Some(arg),
            file: None,
        };
        // A file and the directory a search of it is compared with.
        let one_file = |arg: String, shown: String, walked: bool| {
            let parent = match arg.rsplit_once('/') {
                Some(("", _)) => Some("/".to_owned()),
                Some((parent, _)) => Some(parent.to_owned()),
                None => None,
            };
            Resolved {
                arg: Some(arg),
                file: Some((shown, parent, walked)),
            }
        };
        match self {
            Self::Workdir => Resolved {
                arg: None,
                file: None,
            },
            Self::Dot => dir_only(".".to_owned()),
            Self::Dir(n, spelling) => {
                let dirs = tree.dirs();
                dir_only(spell(&dirs[n % dirs.len()], spelling))
            }
            Self::File(n, spelling) => {
                let file = tree.files[n % tree.files.len()].0;
                let spelling = match spelling {
                    Spelling::Slash => Spelling::Plain,
                    other => other,
                };
                let shown = match spelling {
                    Spelling::DotSlash => format!("./{file}"),
                    _ => file.to_owned(),
                };
                one_file(spell(file, spelling), shown, tree.walked(file))
            }
            Self::ThroughLink(n) => {
                let under: Vec<&str> = tree
                    .files
                    .iter()
                    .filter_map(|(path, _)| path.strip_prefix("src/"))
                    .collect();
                let file = format!("{LINK_DIR}/{}", under[n % under.len()]);
                let walked = tree.walked(&file);
                one_file(file.clone(), file, walked)
            }
            // A walk reaches the link only with follow: no oracle for it.
            Self::LinkFile => one_file(LINK_FILE.to_owned(), LINK_FILE.to_owned(), false),
            Self::LinkDir(slash) => dir_only(spell(
                LINK_DIR,
                if slash {
                    Spelling::Slash
                } else {
                    Spelling::Plain
                },
            )),
            Self::EmptyDir => dir_only("empty".to_owned()),
        }
    }
}

/// The search options, the same in every mode.
#[derive(Clone, Debug)]
struct Opts {
    pattern: &'static str,
    ignore_case: bool,
    multiline: bool,
    include: Option<&'static str>,
    file_type: Option<&'static str>,
    exclude: Option<&'static str>,
    follow: bool,
}

/// How a case is looked at besides the three whole results.
#[derive(Clone, Copy, Debug)]
enum Via {
    Argv,
    Call,
    /// Both, and they must print the same bytes.
    Both,
}

#[derive(Clone, Debug)]
struct Looks {
    /// Page through each mode, at least this many entries a page.
    pages: Option<usize>,
    /// Pages by the cap (`--grep-max-matches`) instead of `limit`.
    by_cap: bool,
    /// Also run each mode in text and read it.
    text: bool,
    via: Via,
    /// Which entry of a directory's count is searched as a file.
    pick: usize,
}

#[derive(Clone, Debug)]
struct Case {
    tree: Tree,
    place: Place,
    opts: Opts,
    looks: Looks,
}

/// Which of the arguments being added the binary has: checked once, in
/// its `grep --help`.
fn supports() -> (bool, bool) {
    static SUPPORTS: OnceLock<(bool, bool)> = OnceLock::new();
    *SUPPORTS.get_or_init(|| {
        let out = std::process::Command::new(binary())
            .args(["grep", "--help"])
            .output()
            .unwrap();
        let help = stdout(&out);
        let got = (help.contains("--exclude"), help.contains("--follow"));
        eprintln!("grep --help: exclude {}, follow {}", got.0, got.1);
        got
    })
}

fn line() -> impl Strategy<Value = String> {
    proptest::collection::vec(select(WORDS), 0..=3).prop_map(|words| words.join(" "))
}

fn body() -> impl Strategy<Value = Body> {
    let lines = || proptest::collection::vec(line(), 0..8);
    prop_oneof![
        1 => Just(Body::Empty),
        6 => (lines(), proptest::bool::weighted(0.25), proptest::bool::weighted(0.8)).prop_map(
            |(lines, crlf, final_newline)| Body::Text { lines, crlf, final_newline }
        ),
        2 => (lines(), any::<usize>()).prop_map(|(lines, nul_at)| Body::Binary { lines, nul_at }),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    (
        body(),
        proptest::collection::vec(proptest::option::weighted(0.7, body()), SLOTS.len() - 1),
        any::<bool>(),
        proptest::bool::weighted(0.4),
        proptest::bool::weighted(0.4),
        proptest::bool::weighted(0.2),
    )
        .prop_map(|(first, rest, gitignore, link_file, link_dir, empty_dir)| {
            let mut files = vec![(SLOTS[0], first)];
            files.extend(
                SLOTS[1..]
                    .iter()
                    .zip(rest)
                    .filter_map(|(slot, body)| Some((*slot, body?))),
            );
            Tree {
                files,
                gitignore,
                links: Links {
                    file: link_file,
                    dir: link_dir,
                },
                empty_dir,
            }
        })
}

fn spelling() -> impl Strategy<Value = Spelling> {
    prop_oneof![
        2 => Just(Spelling::Plain),
        1 => Just(Spelling::Slash),
        1 => Just(Spelling::DotSlash),
        1 => Just(Spelling::Absolute),
    ]
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        2 => Just(Place::Workdir),
        2 => Just(Place::Dot),
        3 => (any::<usize>(), spelling()).prop_map(|(n, s)| Place::Dir(n, s)),
        5 => (any::<usize>(), spelling()).prop_map(|(n, s)| Place::File(n, s)),
        1 => any::<usize>().prop_map(Place::ThroughLink),
        1 => Just(Place::LinkFile),
        1 => any::<bool>().prop_map(Place::LinkDir),
        1 => Just(Place::EmptyDir),
    ]
}

fn opts() -> impl Strategy<Value = Opts> {
    let (exclude, follow) = supports();
    let exclude = if exclude {
        proptest::option::weighted(0.2, select(EXCLUDES)).boxed()
    } else {
        Just(None).boxed()
    };
    let follow = if follow {
        proptest::bool::weighted(0.3).boxed()
    } else {
        Just(false).boxed()
    };
    (
        any::<usize>(),
        proptest::bool::weighted(0.3),
        proptest::bool::weighted(0.3),
        proptest::option::weighted(0.2, select(INCLUDES)),
        proptest::option::weighted(0.15, select(TYPES)),
        exclude,
        follow,
    )
        .prop_map(
            |(n, ignore_case, multiline, include, file_type, exclude, follow)| {
                let pattern = if multiline && n % 3 == 0 {
                    SPANNING[n / 3 % SPANNING.len()]
                } else {
                    PATTERNS[n % PATTERNS.len()]
                };
                Opts {
                    pattern,
                    ignore_case,
                    multiline,
                    include,
                    file_type,
                    exclude,
                    follow,
                }
            },
        )
}

fn looks() -> impl Strategy<Value = Looks> {
    (
        proptest::option::weighted(0.4, 1..=4_usize),
        any::<bool>(),
        proptest::bool::weighted(0.3),
        prop_oneof![2 => Just(Via::Argv), 1 => Just(Via::Call), 1 => Just(Via::Both)],
        any::<usize>(),
    )
        .prop_map(|(pages, by_cap, text, via, pick)| Looks {
            pages,
            by_cap,
            text,
            via,
            pick,
        })
}

fn case() -> impl Strategy<Value = Case> {
    (tree(), place(), opts(), looks()).prop_map(|(mut tree, place, opts, looks)| {
        // The place a path names is there.
        match place {
            Place::ThroughLink(_) | Place::LinkDir(_) => tree.links.dir = true,
            Place::LinkFile => tree.links.file = true,
            Place::EmptyDir => tree.empty_dir = true,
            _ => {}
        }
        Case {
            tree,
            place,
            opts,
            looks,
        }
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Content,
    Files,
    Count,
}

impl Mode {
    const ALL: [Self; 3] = [Self::Content, Self::Files, Self::Count];

    fn name(self) -> &'static str {
        match self {
            Self::Content => "content",
            Self::Files => "files",
            Self::Count => "count",
        }
    }
}

/// One call of grep.
#[derive(Clone)]
struct Ask<'a> {
    mode: Mode,
    path: Option<&'a str>,
    /// include, type and exclude (a search of one file is compared with
    /// its directory searched without them: a path given is searched
    /// whatever they say).
    filters: bool,
    cap: usize,
    offset: Option<usize>,
    limit: Option<usize>,
    json: bool,
    call: bool,
}

/// A case being checked: its tree on disk, and what it ran.
struct Cx<'a> {
    case: &'a Case,
    t: TestDir,
}

/// What one call printed: the run and its JSON envelope (Null when it
/// printed text or no JSON).
struct Got {
    ran: Ran,
    v: Value,
}

impl Got {
    fn code(&self) -> Option<i32> {
        self.ran.status.code()
    }

    fn files(&self) -> &[Value] {
        self.v["files"].as_array().map_or(&[], Vec::as_slice)
    }

    fn paths(&self) -> Vec<String> {
        self.files()
            .iter()
            .map(|f| f["path"].as_str().unwrap_or("<no path>").to_owned())
            .collect()
    }

    fn counts(&self) -> Vec<(String, u64)> {
        self.files()
            .iter()
            .map(|f| {
                let path = f["path"].as_str().unwrap_or("<no path>").to_owned();
                (path, f["count"].as_u64().unwrap_or(u64::MAX))
            })
            .collect()
    }

    /// Content's matched lines, as `path:line`.
    fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for file in self.files() {
            let path = file["path"].as_str().unwrap_or("<no path>");
            for m in file["matches"].as_array().map_or(&[][..], Vec::as_slice) {
                out.push(format!("{path}:{}", m["line_number"]));
            }
        }
        out
    }

    fn binary(&self) -> Vec<String> {
        self.v["binary_files"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|p| p.as_str().unwrap_or("<no path>").to_owned())
            .collect()
    }

    /// The entries of a mode's page, as its pages are compared.
    fn entries(&self, mode: Mode) -> Vec<String> {
        match mode {
            Mode::Content => self.lines(),
            Mode::Files => self.paths(),
            Mode::Count => self
                .counts()
                .into_iter()
                .map(|(path, n)| format!("{path}: {n}"))
                .collect(),
        }
    }
}

impl Cx<'_> {
    fn path(&self) -> Resolved {
        self.case.place.resolve(&self.case.tree, &self.t)
    }

    /// A failure: what went wrong, the case, its tree, and each run named.
    fn fail(&self, what: &str, runs: &[&Got]) -> TestCaseError {
        let mut msg = format!(
            "{what}\n\ncase: {:?} {:?} {:?}\npath: {:?}\n{}",
            self.case.place,
            self.case.opts,
            self.case.looks,
            self.path().arg,
            self.case.tree.listing(&self.t.root())
        );
        for got in runs {
            let _ = write!(msg, "\n=== {}\n", got.ran.transcript());
        }
        TestCaseError::fail(msg)
    }

    fn ensure(
        &self,
        ok: bool,
        what: impl FnOnce() -> String,
        runs: &[&Got],
    ) -> Result<(), TestCaseError> {
        if ok {
            Ok(())
        } else {
            Err(self.fail(&what(), runs))
        }
    }

    fn argv(&self, ask: &Ask<'_>) -> Vec<String> {
        let o = &self.case.opts;
        let mut words = vec!["grep".to_owned(), "--output".into(), ask.mode.name().into()];
        let mut flag = |on: bool, word: &str| {
            if on {
                words.push(word.to_owned());
            }
        };
        flag(o.ignore_case, "--ignore-case");
        flag(o.multiline, "--multiline");
        flag(o.follow, "--follow");
        let mut valued = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                words.extend([name.to_owned(), value]);
            }
        };
        let filter = |v: Option<&str>| v.filter(|_| ask.filters).map(str::to_owned);
        valued("--include", filter(o.include));
        valued("--type", filter(o.file_type));
        valued("--exclude", filter(o.exclude));
        valued("--offset", ask.offset.map(|n| n.to_string()));
        valued("--limit", ask.limit.map(|n| n.to_string()));
        words.extend(["--".to_owned(), o.pattern.to_owned()]);
        words.extend(ask.path.map(str::to_owned));
        words
    }

    fn call_json(&self, ask: &Ask<'_>) -> Value {
        let o = &self.case.opts;
        let mut v = json!({"pattern": o.pattern, "output": ask.mode.name()});
        let mut set = |key: &str, value: Value| {
            v[key] = value;
        };
        if o.ignore_case {
            set("ignore_case", json!(true));
        }
        if o.multiline {
            set("multiline", json!(true));
        }
        if o.follow {
            set("follow", json!(true));
        }
        if ask.filters {
            for (key, value) in [
                ("include", o.include),
                ("type", o.file_type),
                ("exclude", o.exclude),
            ] {
                if let Some(value) = value {
                    set(key, json!(value));
                }
            }
        }
        if let Some(path) = ask.path {
            set("path", json!(path));
        }
        if let Some(offset) = ask.offset {
            set("offset", json!(offset));
        }
        if let Some(limit) = ask.limit {
            set("limit", json!(limit));
        }
        v
    }

    fn run(&mut self, ask: &Ask<'_>) -> Got {
        let mut cmd = self.t.cmd();
        let cap = ask.cap.to_string();
        cmd.args(["--format", if ask.json { "json" } else { "text" }]);
        cmd.args(["--grep-max-matches", &cap]);
        if ask.call {
            cmd.args(["call", "grep"])
                .arg(self.call_json(ask).to_string());
        } else {
            cmd.args(self.argv(ask));
        }
        let ran = cmd.output().unwrap();
        let v = if ask.json {
            serde_json::from_slice(&ran.stdout).unwrap_or(Value::Null)
        } else {
            Value::Null
        };
        Got { ran, v }
    }

    /// Run `ask` as the case says (argv, `call`, or both, which must agree).
    fn ask(&mut self, ask: &Ask<'_>) -> Result<Got, TestCaseError> {
        let via = self.case.looks.via;
        let first = self.run(&Ask {
            call: matches!(via, Via::Call),
            ..ask.clone()
        });
        if ask.json && first.v.is_null() {
            return Err(self.fail("it printed no JSON", &[&first]));
        }
        if matches!(via, Via::Both) {
            let called = self.run(&Ask {
                call: true,
                ..ask.clone()
            });
            self.ensure(
                (called.code(), &called.ran.stdout) == (first.code(), &first.ran.stdout),
                || {
                    "`call grep` printed other bytes than the same arguments on the command line"
                        .into()
                },
                &[&first, &called],
            )?;
        }
        Ok(first)
    }

    fn whole(
        &mut self,
        mode: Mode,
        path: Option<&str>,
        filters: bool,
    ) -> Result<Got, TestCaseError> {
        self.ask(&Ask {
            mode,
            path,
            filters,
            cap: UNCAPPED,
            offset: None,
            limit: None,
            json: true,
            call: false,
        })
    }
}

/// The three modes' whole results agree with each other.
fn agree(cx: &Cx<'_>, content: &Got, files: &Got, count: &Got) -> Result<(), TestCaseError> {
    let all = [content, files, count];
    let codes = all.map(Got::code);
    cx.ensure(
        codes.iter().all(|c| *c == codes[0]) && matches!(codes[0], Some(0 | 1)),
        || format!("the modes exit {codes:?} (content, files, count): each must exit 0 (results) or 1 (empty), all the same"),
        &all,
    )?;
    for (got, mode) in all.iter().zip(Mode::ALL) {
        let status = if codes[0] == Some(0) {
            "results"
        } else {
            "empty"
        };
        cx.ensure(
            got.v["ok"] == json!(true)
                && got.v["status"] == json!(status)
                && got.v["truncated"] == json!(false)
                && got.v["shown"] == got.v["total"],
            || {
                format!(
                    "{}: want ok, status {status}, the whole result shown",
                    mode.name()
                )
            },
            &[got],
        )?;
    }
    let (paths, counts) = (files.paths(), count.counts());
    let counted: Vec<String> = counts.iter().map(|(p, _)| p.clone()).collect();
    cx.ensure(
        paths == counted,
        || format!("files lists {paths:?}, count lists {counted:?}"),
        &[files, count],
    )?;
    cx.ensure(
        counted
            .windows(2)
            .all(|w| w[0].as_bytes() < w[1].as_bytes()),
        || format!("count's files are not each once in path order: {counted:?}"),
        &[count],
    )?;
    cx.ensure(
        files.v["total"] == json!(paths.len()) && count.v["total"] == json!(counted.len()),
        || "files' and count's totals are their numbers of files".into(),
        &[files, count],
    )?;
    let sum: u64 = counts.iter().map(|(_, n)| n).sum();
    cx.ensure(
        count.v["total_matches"] == json!(sum) && counts.iter().all(|(_, n)| *n >= 1),
        || format!("count's total_matches is the sum of its counts ({sum}), each at least 1"),
        &[count],
    )?;
    let binary = content.binary();
    let text: Vec<String> = content.paths();
    let mut named: Vec<String> = text.iter().chain(&binary).cloned().collect();
    named.sort_unstable();
    named.dedup();
    cx.ensure(
        named.len() == text.len() + binary.len() && named == counted,
        || format!("content's files {text:?} and binary files {binary:?} are not count's files {counted:?}, each once"),
        &[content, count],
    )?;
    for file in content.files() {
        let path = file["path"].as_str().unwrap_or_default();
        let lines: Vec<u64> = file["matches"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|m| m["line_number"].as_u64().unwrap_or(0))
            .collect();
        let n = counts.iter().find(|(p, _)| p == path).map(|(_, n)| *n);
        cx.ensure(
            n == Some(lines.len() as u64) && lines.windows(2).all(|w| w[0] < w[1]),
            || format!("content shows lines {lines:?} of {path}, count says {n:?}"),
            &[content, count],
        )?;
    }
    let text_sum: u64 = counts
        .iter()
        .filter(|(p, _)| !binary.contains(p))
        .map(|(_, n)| n)
        .sum();
    let lines = content.lines().len();
    cx.ensure(
        content.v["total"] == json!(lines) && json!(text_sum) == json!(lines),
        || {
            format!(
                "content's total {} and its {lines} lines are not count's {text_sum} in text files",
                content.v["total"]
            )
        },
        &[content, count],
    )
}

/// A search of one file is its directory's search, cut to that file: the
/// same count under the same name, or nothing in both.
fn one_file(cx: &mut Cx<'_>, count: &Got) -> Result<(), TestCaseError> {
    let Some((shown, parent, walked)) = cx.path().file else {
        return Ok(());
    };
    let counts = count.counts();
    cx.ensure(
        counts.len() <= 1 && counts.iter().all(|(p, _)| *p == shown),
        || format!("a search of one file lists {counts:?}; want at most {shown:?}"),
        &[count],
    )?;
    // rg searches a path it is given whatever include, type and exclude
    // say, and a walk of the directory would not: no oracle then.
    let o = &cx.case.opts;
    if !walked || o.include.is_some() || o.file_type.is_some() || o.exclude.is_some() {
        return Ok(());
    }
    dir_has(cx, parent.as_deref(), &shown, count)
}

/// The count of `dir` (None: the workdir), without filters, has for
/// `shown` what `single` has.
fn dir_has(
    cx: &mut Cx<'_>,
    dir: Option<&str>,
    shown: &str,
    single: &Got,
) -> Result<(), TestCaseError> {
    let whole = cx.whole(Mode::Count, dir, false)?;
    let want: Vec<(String, u64)> = whole
        .counts()
        .into_iter()
        .filter(|(p, _)| p == shown)
        .collect();
    cx.ensure(
        matches!(single.code(), Some(0 | 1)) && single.counts() == want,
        || {
            format!(
                "the directory's count has {want:?} for {shown}; searched alone it exits {:?} with {:?}",
                single.code(),
                single.counts()
            )
        },
        &[single, &whole],
    )
}

/// Each file a directory's count lists, searched alone, has the same count
/// under the same name.
fn each_file(cx: &mut Cx<'_>, count: &Got) -> Result<(), TestCaseError> {
    if cx.path().file.is_some() {
        return Ok(());
    }
    let counts = count.counts();
    if counts.is_empty() {
        return Ok(());
    }
    let entry = counts[cx.case.looks.pick % counts.len()].clone();
    let alone = cx.whole(Mode::Count, Some(&entry.0), true)?;
    cx.ensure(
        alone.code() == Some(0) && alone.counts() == vec![entry.clone()],
        || {
            format!(
                "{entry:?} of the directory's count, searched alone, exits {:?} with {:?}",
                alone.code(),
                alone.counts()
            )
        },
        &[count, &alone],
    )
}

/// Pages of each mode, put together, are its whole result; past the end
/// is an empty page that says what the search found.
fn pages(cx: &mut Cx<'_>, whole: &[(Mode, &Got)]) -> Result<(), TestCaseError> {
    let Some(least) = cx.case.looks.pages else {
        return Ok(());
    };
    let path = cx.path().arg;
    for (mode, full) in whole {
        let (mode, entries) = (*mode, full.entries(*mode));
        let n = entries.len();
        // At most 3 pages and the one past the end.
        let k = least.max(n.div_ceil(3)).max(1);
        // Every page, then the one past the end (the only one when the
        // search found nothing).
        let mut offsets: Vec<usize> = (0..n).step_by(k).collect();
        offsets.push(n);
        for offset in offsets {
            let by_cap = cx.case.looks.by_cap;
            let page = cx.ask(&Ask {
                mode,
                path: path.as_deref(),
                filters: true,
                cap: if by_cap { k } else { UNCAPPED },
                offset: Some(offset),
                limit: (!by_cap).then_some(k),
                json: true,
                call: false,
            })?;
            let end = n.min(offset + k);
            let want = &entries[offset..end];
            let next = (end < n).then_some(end);
            // An empty mode's one page is its whole result (content's exit 0
            // when only binary files matched).
            let code = if n == 0 { full.code() } else { Some(0) };
            // The first page of a cap, no limit asked, is the plain capped
            // result: no page fields, as without offset.
            let (want_offset, want_next) = if by_cap && offset == 0 {
                (Value::Null, Value::Null)
            } else {
                (json!(offset), json!(next))
            };
            cx.ensure(
                page.code() == code
                    && page.entries(mode) == want
                    && page.v["total"] == json!(n)
                    && page.v["shown"] == json!(want.len())
                    && page.v["truncated"] == json!(want.len() < n)
                    && page.v["offset"] == want_offset
                    && page.v["next_offset"] == want_next,
                || {
                    format!(
                        "{} page at offset {offset}, {k} a page: want entries {want:?}, total {n}, \
                         shown {}, offset {want_offset}, next offset {want_next}; got entries {:?}",
                        mode.name(),
                        want.len(),
                        page.entries(mode)
                    )
                },
                &[&page, full],
            )?;
        }
    }
    Ok(())
}

/// The text of each mode is its JSON's text; count's lines are
/// `<path>: <count>`, files' lines the paths.
fn text(cx: &mut Cx<'_>, whole: &[(Mode, &Got)]) -> Result<(), TestCaseError> {
    if !cx.case.looks.text {
        return Ok(());
    }
    let path = cx.path().arg;
    for (mode, full) in whole {
        let got = cx.ask(&Ask {
            mode: *mode,
            path: path.as_deref(),
            filters: true,
            cap: UNCAPPED,
            offset: None,
            limit: None,
            json: false,
            call: false,
        })?;
        let want = format!("{}\n", full.v["text"].as_str().unwrap_or_default());
        cx.ensure(
            got.code() == full.code() && stdout(&got.ran) == want,
            || format!("{} in text is not its JSON's text", mode.name()),
            &[&got, full],
        )?;
        if full.code() != Some(0) || *mode == Mode::Content {
            continue;
        }
        let text = stdout(&got.ran);
        let body: Vec<&str> = text
            .split("\n\n")
            .nth(1)
            .unwrap_or_default()
            .lines()
            .collect();
        let want = full.entries(*mode);
        cx.ensure(
            body == want,
            || format!("{}'s lines are not {want:?}", mode.name()),
            &[&got],
        )?;
    }
    Ok(())
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let mut cx = Cx {
        case,
        t: case.tree.make(),
    };
    let path = cx.path().arg;
    let content = cx.whole(Mode::Content, path.as_deref(), true)?;
    let files = cx.whole(Mode::Files, path.as_deref(), true)?;
    let count = cx.whole(Mode::Count, path.as_deref(), true)?;
    agree(&cx, &content, &files, &count)?;
    one_file(&mut cx, &count)?;
    each_file(&mut cx, &count)?;
    let whole = [
        (Mode::Content, &content),
        (Mode::Files, &files),
        (Mode::Count, &count),
    ];
    pages(&mut cx, &whole)?;
    text(&mut cx, &whole)
}

/// `CASES` cases from `SEED`, unless the environment says otherwise; no
/// regression files written into the source tree.
fn config() -> Config {
    let env = Config::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        env.cases
    } else {
        CASES
    };
    let rng_seed = match env.rng_seed {
        RngSeed::Random => RngSeed::Fixed(SEED),
        fixed @ RngSeed::Fixed(_) => fixed,
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        // Each step of shrinking runs a dozen searches.
        max_shrink_iters: env.max_shrink_iters.min(200),
        ..env
    }
}

#[test]
fn the_three_modes_agree_on_every_kind_of_path() {
    let config = config();
    eprintln!("{} cases, seed {:?}", config.cases, config.rng_seed);
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&case(), |case| check(&case)) {
        panic!("{e}");
    }
}

/// A file with two matched lines of three, and a binary file with one
/// (the NUL is searched past, as a walk would).
fn small() -> TestDir {
    let t = TestDir::new();
    t.write("src/lib.rs", "fn alpha() {}\n// alpha again\nbeta\n");
    t.write("data.bin", b"alpha\0\nbeta\n");
    t
}

#[test]
fn a_count_of_one_file_names_it() {
    let t = small();
    assert_out(
        &t.run(&["grep", "alpha", "src/lib.rs", "--output", "count"]),
        0,
        "Found 2 matches in 1 file\n\nsrc/lib.rs: 2\n",
    );
    let called = t
        .cmd()
        .args([
            "call",
            "grep",
            r#"{"pattern": "alpha", "path": "src/lib.rs", "output": "count"}"#,
        ])
        .output()
        .unwrap();
    assert_out(&called, 0, "Found 2 matches in 1 file\n\nsrc/lib.rs: 2\n");
}

#[test]
fn a_count_of_one_absolute_file_shows_it_relative_to_the_workdir() {
    let t = small();
    let file = t.absolute("src/lib.rs");
    assert_out(
        &t.run(&["grep", "alpha", &file, "--output", "count"]),
        0,
        "Found 2 matches in 1 file\n\nsrc/lib.rs: 2\n",
    );
}

#[test]
fn a_count_of_one_file_keeps_its_dot_slash() {
    let t = small();
    assert_out(
        &t.run(&["grep", "alpha", "./src/lib.rs", "--output", "count"]),
        0,
        "Found 2 matches in 1 file\n\n./src/lib.rs: 2\n",
    );
}

#[test]
fn a_count_of_one_binary_file_names_it_as_a_walk_does() {
    let t = small();
    assert_out(
        &t.run(&["grep", "alpha", "--output", "count"]),
        0,
        "Found 3 matches in 2 files\n\ndata.bin: 1\nsrc/lib.rs: 2\n",
    );
    assert_out(
        &t.run(&["grep", "alpha", "data.bin", "--output", "count"]),
        0,
        "Found 1 match in 1 file\n\ndata.bin: 1\n",
    );
    assert_out(
        &t.run(&["grep", "alpha", "data.bin", "--output", "files"]),
        0,
        "Found 1 file\n\ndata.bin\n",
    );
    assert_out(
        &t.run(&["grep", "alpha", "data.bin"]),
        0,
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: data.bin)\n",
    );
}

#[test]
fn a_multiline_count_of_one_file_names_it() {
    let t = small();
    assert_out(
        &t.run(&[
            "grep",
            "-U",
            r"alpha\(\) \{\}\n//",
            "src/lib.rs",
            "--output",
            "count",
        ]),
        0,
        "Found 2 matches in 1 file\n\nsrc/lib.rs: 2\n",
    );
}

#[test]
fn an_empty_count_is_a_count_multiline_or_not() {
    let t = small();
    let plain = t.run(&["--format", "json", "grep", "nowhere", "--output", "count"]);
    let multiline = t.run(&[
        "--format", "json", "grep", "-U", "nowhere", "--output", "count",
    ]);
    let (plain_v, multiline_v) = (stdout_json(&plain), stdout_json(&multiline));
    assert_eq!(plain_v["output"], json!("count"), "{plain:?}");
    assert_eq!(
        (multiline.status.code(), multiline_v),
        (plain.status.code(), plain_v),
        "the same without -U differs:\n{multiline:?}\n=== without -U\n{plain:?}"
    );
}

#[test]
fn a_binary_file_alone_matches_as_in_its_directory() {
    // After the NUL, `beta` starts a line for rg reading the file; a
    // memory map of it (rg's way with a few files named as paths) would
    // keep one line, `\0beta`, where `^beta` finds nothing.
    let t = TestDir::new();
    t.write("docs/f.txt", b"\0beta\n");
    for path in ["docs", "docs/f.txt"] {
        assert_out(
            &t.run(&["grep", "^beta", path, "--output", "count"]),
            0,
            "Found 1 match in 1 file\n\ndocs/f.txt: 1\n",
        );
        assert_out(
            &t.run(&["grep", "^beta", path]),
            0,
            "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: docs/f.txt)\n",
        );
    }
}
