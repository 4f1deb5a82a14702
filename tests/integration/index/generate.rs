//! The differential test's generator: a tree under `repo/` (the servers'
//! workdir) inside a git repository (the test directory), calls cut from
//! its text, and changes of every kind a user can make between two calls.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::harness::TestDir;

/// A small, seeded generator: the same seed, the same calls.
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "alpha",
    "Beta",
    "gamma_delta",
    "needle",
    "Needle",
    "NEEDLE",
    "fn",
    "handler",
    "parse_handler",
    "error",
    "Error",
    "warn",
    "struct",
    "impl",
    "value",
    "zeta9",
    "κόσμε",
    "naïve",
    "tab\there",
    "x",
    "yy",
    "q(1)",
    "a.b",
    "[z]",
    "end$",
    "^start",
    "hello world",
    "foo_bar_baz",
];

/// The directories files go in, relative to the workdir (`repo/`).
const DIRS: &[&str] = &[
    "",
    "src",
    "src/deep",
    "docs",
    "ignored",
    ".hidden",
    "vendor",
    "dir with space",
    "gen",
    "gen/sub",
];
/// The directories the changes move, swap, replace and link.
const MOVABLE: &[&str] = &[
    "src/deep",
    "docs",
    "gen",
    "gen/sub",
    "vendor",
    "dir with space",
];
const EXTS: &[&str] = &["rs", "txt", "md", "py", "log"];

/// A line of the tree: mostly identifiers from a vocabulary of a few
/// hundred (so that a pattern cut from one file is rare in the others, as
/// in real code), some of the words above.
fn line(rng: &mut Rng) -> String {
    let n = 1 + rng.below(8);
    (0..n)
        .map(|_| {
            if rng.chance(30) {
                rng.pick(WORDS).to_owned()
            } else {
                format!(
                    "{}_{}",
                    rng.pick(&["get", "set", "Item", "run"]),
                    rng.below(300)
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn content(rng: &mut Rng) -> String {
    let n = rng.below(12);
    (0..n).map(|_| line(rng) + "\n").collect()
}

/// `len` bytes of noise, NUL bytes among them, with a line of words
/// every 500 bytes or so.
fn noise(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(len + 100);
    while bytes.len() < len {
        if rng.chance(1) {
            bytes.extend_from_slice(format!("\n{}\n", line(rng)).as_bytes());
        }
        bytes.extend(rng.next().to_le_bytes());
    }
    bytes
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The tree the servers search: `t/repo`, in the repository `t` (the
/// harness's `.git`), with `t/outside` to move things out to.
pub struct Tree<'a> {
    t: &'a TestDir,
    repo: PathBuf,
    outside: PathBuf,
    made: usize,
}

impl<'a> Tree<'a> {
    pub fn new(t: &'a TestDir) -> Self {
        let repo = t.mkdir("repo");
        let outside = t.mkdir("outside");
        Self {
            t,
            repo,
            outside,
            made: 0,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.repo.join(rel)
    }

    fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            let _ = fs::create_dir_all(parent);
        }
        let _ = fs::write(path, bytes);
    }

    fn file_name(rng: &mut Rng) -> String {
        let dir = rng.pick(DIRS);
        let name = format!("f{}.{}", rng.below(40), rng.pick(EXTS));
        if dir.is_empty() {
            name
        } else {
            format!("{dir}/{name}")
        }
    }

    /// Every regular file under `dir` (links not followed).
    fn files_under(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() && entry.file_name() != ".git" {
                    stack.push(entry.path());
                } else if kind.is_file() {
                    out.push(entry.path());
                }
            }
        }
        out.sort();
        out
    }

    /// An existing file of the tree, if any.
    fn some_file(&self, rng: &mut Rng) -> Option<PathBuf> {
        let files = Self::files_under(&self.repo);
        (!files.is_empty()).then(|| files[rng.below(files.len())].clone())
    }

    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(self.t.path())
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }

    pub fn populate(&mut self, rng: &mut Rng) {
        self.write(".gitignore", "ignored/\n*.tmp\n");
        self.write(".ignore", "vendor/\n");
        for _ in 0..60 {
            let name = Self::file_name(rng);
            let text = content(rng);
            self.write(&name, text);
        }
        self.write("src/wide.txt", format!("{} needle\n", "w".repeat(5000)));
        self.write("bin.dat", b"head needle\x00\x01\x02 tail needle\n");
        self.write("utf16.txt", b"\xFF\xFEn\x00e\x00e\x00d\x00l\x00e\x00\n\x00");
        // Dense data, which the index leaves to rg: noise with the tree's
        // words in it, big (an archive) and small (an icon).
        self.write("assets/data.bin", noise(rng, 300_000));
        self.write("assets/icon.png", noise(rng, 2_000));
        let _ = std::os::unix::fs::symlink("src", self.path("src-link"));
        let _ = std::os::unix::fs::symlink("bin.dat", self.path("bin-link"));
        let _ = fs::write(
            self.repo.join(OsStr::from_bytes(b"latin\xe9-name.txt")),
            "needle in a name that is not UTF-8\n",
        );
        // Hard links from the start: two names in the tree, and one
        // with its other name outside.
        let _ = fs::write(self.path("src/linked.txt"), "linked_one needle\n");
        let _ = fs::hard_link(self.path("src/linked.txt"), self.path("docs/linked2.txt"));
        let _ = fs::write(self.path("gen/out-linked.txt"), "out_linked needle\n");
        let _ = fs::hard_link(
            self.path("gen/out-linked.txt"),
            self.outside.join("x-link.txt"),
        );
    }

    /// The tree's text, line by line, for patterns.
    fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for path in Self::files_under(&self.repo) {
            if let Ok(text) = fs::read_to_string(&path) {
                out.extend(text.lines().map(str::to_owned).filter(|l| !l.is_empty()));
            }
        }
        out
    }

    /// One generated grep call's arguments.
    pub fn call(&self, rng: &mut Rng) -> Value {
        let lines = self.lines();
        let source = if lines.is_empty() {
            "needle".to_owned()
        } else {
            lines[rng.below(lines.len())].clone()
        };
        let chars: Vec<char> = source.chars().collect();
        let start = rng.below(chars.len().max(1));
        let len = 3 + rng.below(10);
        let cut: String = chars.iter().skip(start).take(len).collect();
        let cut = if cut.chars().count() < 3 { source } else { cut };
        let mut args = serde_json::Map::new();
        let pattern = match rng.below(11) {
            0 => {
                args.insert("literal".into(), json!(true));
                cut
            }
            1 => format!("{}\\s+\\w+", escape(rng.pick(WORDS))),
            2 => format!("{}|{}", escape(rng.pick(WORDS)), escape(rng.pick(WORDS))),
            3 => {
                args.insert("ignore_case".into(), json!(true));
                escape(&cut.to_uppercase())
            }
            4 => format!("\\w+{}", escape(&cut)),
            5 => "absent_word_nowhere".to_owned(),
            6 => {
                args.insert("multiline".into(), json!(true));
                format!("{}\\n", escape(rng.pick(WORDS)))
            }
            7 => "[a-z]+_".to_owned(),
            8 => rng
                .pick(&["needle", "linked_one", "out_linked", "moved_", "W"])
                .to_owned(),
            _ => escape(&cut),
        };
        args.insert("pattern".into(), json!(pattern));
        if rng.chance(30) {
            args.insert(
                "output".into(),
                json!(rng.pick(&["files", "count", "content"])),
            );
        }
        if rng.chance(15) {
            args.insert("context".into(), json!(rng.below(3)));
        }
        if rng.chance(12) {
            args.insert(
                "include".into(),
                json!(rng.pick(&["*.rs", "*.{txt,md}", "src/**", "gen/**"])),
            );
        }
        if rng.chance(8) {
            args.insert("exclude".into(), json!(rng.pick(&["*.md", "**/deep/**"])));
        }
        if rng.chance(8) {
            args.insert("type".into(), json!(rng.pick(&["rust", "py", "markdown"])));
        }
        if rng.chance(30) {
            let path = match rng.below(10) {
                0 => "src".to_owned(),
                1 => "./src".to_owned(),
                2 => ".".to_owned(),
                3 => format!("{}/src", self.repo.display()),
                4 => ".hidden".to_owned(),
                5 => "ignored".to_owned(),
                6 => "gen".to_owned(),
                7 => "src-link".to_owned(),
                8 => rng.pick(MOVABLE).to_owned(),
                _ => Self::file_name(rng),
            };
            args.insert("path".into(), json!(path));
        }
        if rng.chance(8) {
            args.insert("offset".into(), json!(rng.below(4)));
            args.insert("limit".into(), json!(1 + rng.below(3)));
        }
        if rng.chance(5) {
            args.insert("ignore_case".into(), json!(true));
        }
        Value::Object(args)
    }

    /// Change the tree as a user, an agent or an editor would; say what
    /// was done.
    #[allow(clippy::too_many_lines)]
    pub fn change(&mut self, rng: &mut Rng) -> String {
        self.made += 1;
        let nth = self.made;
        let name = Self::file_name(rng);
        let path = self.path(&name);
        let dir = rng.pick(MOVABLE);
        let other = rng.pick(MOVABLE);
        match rng.below(30) {
            0 | 1 => {
                self.write(&name, content(rng));
                format!("wrote {name}")
            }
            2 => {
                let mut text = fs::read_to_string(&path).unwrap_or_default();
                text.push_str(&line(rng));
                text.push('\n');
                self.write(&name, text);
                format!("appended to {name}")
            }
            3 => {
                let to = Self::file_name(rng);
                if let Some(parent) = self.path(&to).parent() {
                    let _ = fs::create_dir_all(parent);
                }
                let _ = fs::rename(&path, self.path(&to));
                format!("renamed {name} to {to}")
            }
            4 => {
                let _ = fs::remove_file(&path);
                format!("removed {name}")
            }
            5 => {
                let rule = rng.pick(&["*.log", "docs/", "f1*", "!vendor/", "", "gen/", "!gen/"]);
                self.write(".ignore", format!("vendor/\n{rule}\n"));
                format!("repo/.ignore: vendor/ and {rule}")
            }
            6 => {
                let mut bytes = fs::read(&path).unwrap_or_default();
                bytes.splice(0..0, b"bin\x00ary needle\n".iter().copied());
                self.write(&name, bytes);
                format!("made {name} binary")
            }
            7 => {
                let new = format!("new{}/sub/n.rs", rng.below(5));
                self.write(&new, content(rng));
                format!("created {new}")
            }
            8 => {
                let mode = if rng.chance(50) { 0o000 } else { 0o644 };
                let _ = fs::set_permissions(&path, fs::Permissions::from_mode(mode));
                format!("chmod {mode:o} {name}")
            }
            9 => match self.some_file(rng) {
                Some(from) => {
                    let to = Self::file_name(rng);
                    if let Some(parent) = self.path(&to).parent() {
                        let _ = fs::create_dir_all(parent);
                    }
                    let _ = fs::hard_link(&from, self.path(&to));
                    format!("ln {} {to}", self.shown(&from))
                }
                None => String::new(),
            },
            10 => {
                // A write through one name of a file with several.
                let linked: Vec<PathBuf> = Self::files_under(&self.repo)
                    .into_iter()
                    .chain(Self::files_under(&self.outside))
                    .filter(|p| {
                        use std::os::unix::fs::MetadataExt;
                        fs::metadata(p).is_ok_and(|m| m.nlink() > 1)
                    })
                    .collect();
                if linked.is_empty() {
                    return String::new();
                }
                let target = &linked[rng.below(linked.len())];
                let mut text = fs::read(target).unwrap_or_default();
                text.extend_from_slice(format!("linked_write_{nth} needle\n").as_bytes());
                // In place: a write, not a new file under the name.
                let _ = fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(target)
                    .and_then(|mut f| std::io::Write::write_all(&mut f, &text));
                format!("wrote through the link {}", self.shown(target))
            }
            11 => {
                let tmp = self.path(&format!("swap{nth}"));
                let _ = fs::rename(self.path(dir), &tmp);
                let _ = fs::rename(self.path(other), self.path(dir));
                let _ = fs::rename(&tmp, self.path(other));
                format!("swapped {dir} and {other}")
            }
            12 => {
                let _ = fs::rename(self.path(dir), self.path(&format!("{dir}.old{nth}")));
                self.write(
                    &format!("{dir}/x{nth}.txt"),
                    format!("W replaced_{nth} needle\n"),
                );
                format!("moved {dir} aside and made it anew")
            }
            13 => {
                let out = self.outside.join(dir.replace('/', "_"));
                if out.exists() {
                    return String::new();
                }
                let _ = fs::rename(self.path(dir), &out);
                format!("moved {dir} out of the tree")
            }
            14 | 15 => {
                let out = self.outside.join(dir.replace('/', "_"));
                for file in Self::files_under(&out).into_iter().take(2) {
                    let mut text = fs::read(&file).unwrap_or_default();
                    text.extend_from_slice(format!("moved_{nth} needle\n").as_bytes());
                    let _ = fs::write(&file, text);
                }
                if rng.chance(50) || self.path(dir).exists() {
                    return format!("changed files of outside/{dir} (left there)");
                }
                if let Some(parent) = self.path(dir).parent() {
                    let _ = fs::create_dir_all(parent);
                }
                let _ = fs::rename(&out, self.path(dir));
                format!("changed outside/{dir} and moved it back")
            }
            16 => {
                let _ = fs::remove_dir_all(self.path(dir));
                let _ = std::os::unix::fs::symlink("src", self.path(dir));
                format!("{dir} is now a link to src")
            }
            17 => {
                if !fs::symlink_metadata(self.path(dir)).is_ok_and(|m| m.is_symlink()) {
                    return String::new();
                }
                let _ = fs::remove_file(self.path(dir));
                self.write(&format!("{dir}/y{nth}.rs"), format!("W relinked_{nth}\n"));
                format!("{dir} is a directory again")
            }
            18 => {
                let inside = rng.pick(&["ignored", "vendor", "gen", "docs"]);
                self.write(
                    &format!("{inside}/hid{nth}.txt"),
                    format!("hidden_{nth} needle\n"),
                );
                if let Some(file) = Self::files_under(&self.path(inside)).first() {
                    let mut text = fs::read(file).unwrap_or_default();
                    text.extend_from_slice(b"while ignored needle\n");
                    let _ = fs::write(file, text);
                }
                format!("wrote in {inside}")
            }
            19 => {
                let rule = rng.pick(&["repo/docs/", "*.md", "", "repo/gen/sub/", "!repo/vendor/"]);
                let _ = fs::create_dir_all(self.t.path().join(".git/info"));
                let _ = fs::write(self.t.path().join(".git/info/exclude"), format!("{rule}\n"));
                format!(".git/info/exclude: {rule}")
            }
            20 => {
                let (git, off) = (self.t.path().join(".git"), self.t.path().join(".git.off"));
                if git.exists() {
                    let _ = fs::rename(&git, &off);
                    "the repository above is gone".to_owned()
                } else {
                    let _ = fs::rename(&off, &git);
                    let _ = fs::create_dir_all(&git);
                    "git init above the workdir".to_owned()
                }
            }
            21 => {
                let rule = rng.pick(&["repo/src/deep/", "*.py", "", "repo/dir with space/"]);
                let _ = fs::write(self.t.path().join(".gitignore"), format!("{rule}\n"));
                format!("../.gitignore: {rule}")
            }
            22 => {
                let rule = rng.pick(&["*.txt", "", "gen/"]);
                let _ = fs::write(self.t.path().join(".ignore"), format!("{rule}\n"));
                format!("../.ignore: {rule}")
            }
            23 => {
                let rule = rng.pick(&["*.log", "", "docs/", "f2*"]);
                let _ = fs::create_dir_all(self.t.home().join("git"));
                let _ = fs::write(self.t.home().join("git/ignore"), format!("{rule}\n"));
                format!("the global excludes: {rule}")
            }
            24 => {
                let at = self.path(rng.pick(DIRS));
                let _ = fs::create_dir_all(&at);
                let mut file = b"odd\xff".to_vec();
                file.extend_from_slice(format!("{}.txt", rng.below(4)).as_bytes());
                let _ = fs::write(
                    at.join(OsStr::from_bytes(&file)),
                    format!("not_utf8_name_{nth} needle\n"),
                );
                format!(
                    "wrote a file whose name is not UTF-8 in {}",
                    self.shown(&at)
                )
            }
            25 => {
                let git = self.path("src/.git");
                if git.exists() {
                    let _ = fs::remove_dir_all(&git);
                    "src is no longer a repository".to_owned()
                } else {
                    let _ = fs::create_dir_all(git.join("info"));
                    let _ = fs::write(git.join("info/exclude"), "*.txt\n");
                    self.write("src/.gitignore", "deep/\n");
                    "git init in src".to_owned()
                }
            }
            26 => {
                let tmp = self.path(&format!("{name}.swp{nth}"));
                let _ = fs::write(&tmp, format!("atomic_{nth} needle\n{}", content(rng)));
                let _ = fs::rename(&tmp, &path);
                format!("saved {name} atomically")
            }
            27 => {
                let _ = filetime::set_file_mtime(&path, filetime::FileTime::from_unix_time(1, 0));
                format!("touched {name}")
            }
            28 => {
                let _ = fs::remove_dir_all(self.path(dir));
                format!("removed {dir} whole")
            }
            _ => {
                let rule = rng.pick(&["ignored/\n*.tmp", "ignored/\n*.rs", "", "docs/"]);
                self.write(".gitignore", format!("{rule}\n"));
                format!("repo/.gitignore: {rule:?}")
            }
        }
    }
}
