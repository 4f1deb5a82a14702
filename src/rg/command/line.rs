//! One rg command line as a value ([`CommandLine`]): the rg to run and its
//! words, and the forms each OS needs of it, shown and run: the `sh -c`
//! string (Unix), the arguments and the command line that carries them
//! (Windows, SPEC §10). Which words a search's line holds is the parent
//! module's to say; how they are written is this one's.

use std::borrow::Cow;
use std::ffi::OsString;
use std::path::Path;

#[cfg(any(unix, test, feature = "fuzzing"))]
use crate::rg::quote::quote;
#[cfg(unix)]
use crate::rg::quote::quote_bytes;

/// One rg command: the rg to run and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    program: String,
    words: Vec<Word>,
}

/// One argument, kept in its parts so the `sh -c` form quotes exactly the
/// model's value (`--glob='*.rs'`) and the direct form passes it whole
/// (`--glob=*.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Word {
    /// A flag of our own, never quoted: `--files`, `--context=2`.
    Flag(Cow<'static, str>),
    /// A flag and a value: `--glob=` and the value, which is quoted.
    Valued(&'static str, String),
    /// A value on its own (the path after `--`), quoted.
    Value(String),
    /// A file's path as the file system holds it (the index's candidates,
    /// doc/SPEC.md §11): any bytes on Unix, quoted.
    Path(OsString),
}

impl Word {
    fn flag(flag: &'static str) -> Self {
        Self::Flag(Cow::Borrowed(flag))
    }

    /// The argument as rg receives it.
    #[cfg(any(windows, test, feature = "fuzzing"))]
    fn arg(&self) -> Cow<'_, str> {
        match self {
            Self::Flag(flag) => Cow::Borrowed(flag),
            Self::Valued(flag, value) => Cow::Owned(format!("{flag}{value}")),
            Self::Value(value) => Cow::Borrowed(value),
            Self::Path(path) => path.to_string_lossy(),
        }
    }

    /// The word in a POSIX shell script, as shown (a path that is not
    /// UTF-8 lossily).
    #[cfg(any(unix, test, feature = "fuzzing"))]
    fn shell(&self) -> Cow<'_, str> {
        match self {
            Self::Flag(flag) => Cow::Borrowed(flag),
            Self::Valued(flag, value) => Cow::Owned(format!("{flag}{}", quote(value))),
            Self::Value(value) => Cow::Owned(quote(value)),
            Self::Path(path) => Cow::Owned(quote(&path.to_string_lossy())),
        }
    }

    /// The word in a POSIX shell script, byte for byte.
    #[cfg(unix)]
    fn shell_bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Self::Path(path) => {
                use std::os::unix::ffi::OsStrExt;
                Cow::Owned(quote_bytes(path.as_bytes()))
            }
            other => match other.shell() {
                Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
                Cow::Owned(s) => Cow::Owned(s.into_bytes()),
            },
        }
    }
}

impl CommandLine {
    pub(super) fn new(rg: &str) -> Self {
        Self {
            program: rg.to_owned(),
            words: Vec::new(),
        }
    }

    /// Any program with plain arguments, for the runner's own tests (Unix).
    #[cfg(all(test, unix))]
    pub fn of(program: &str, args: &[&str]) -> Self {
        Self {
            program: program.to_owned(),
            words: args.iter().map(|a| Word::Value((*a).to_owned())).collect(),
        }
    }

    /// The program to run (the resolved rg).
    #[cfg(any(windows, test, feature = "fuzzing"))]
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments, each exactly as rg receives it.
    #[cfg(any(windows, test, feature = "fuzzing"))]
    pub fn args(&self) -> impl Iterator<Item = Cow<'_, str>> {
        self.words.iter().map(Word::arg)
    }

    /// The `sh -c` string that runs this line (Unix): `exec`, then every
    /// word, each model value quoted.
    #[cfg(any(unix, test, feature = "fuzzing"))]
    pub fn script(&self) -> String {
        let mut script = format!("exec {}", quote(&self.program));
        for word in &self.words {
            script.push(' ');
            script.push_str(&word.shell());
        }
        script
    }

    /// [`CommandLine::script`] as run: byte for byte, for a path that is
    /// not UTF-8 (Unix).
    #[cfg(unix)]
    pub fn script_os(&self) -> OsString {
        use std::os::unix::ffi::OsStringExt;
        let mut script = format!("exec {}", quote(&self.program)).into_bytes();
        for word in &self.words {
            script.push(b' ');
            script.extend_from_slice(&word.shell_bytes());
        }
        OsString::from_vec(script)
    }

    /// The Windows command line that carries this line (SPEC §10), built as
    /// Rust's `std::process::Command` builds it and as rg (a Rust program,
    /// like any program that splits its command line the way
    /// `CommandLineToArgvW` does) reads it back: the program in quotes; each
    /// argument in quotes when it holds a space or a tab or is empty; a `"`
    /// inside as `\"`, with the backslashes before it (and before a closing
    /// quote) doubled.
    #[cfg(any(windows, test, feature = "fuzzing"))]
    pub fn windows_command_line(&self) -> String {
        let mut line = format!("\"{}\"", self.program);
        for arg in self.args() {
            line.push(' ');
            push_windows_arg(&mut line, &arg);
        }
        line
    }

    /// The form `--explain` shows: the string run on this OS.
    pub fn as_run(&self) -> String {
        #[cfg(unix)]
        return self.script();
        #[cfg(windows)]
        return self.windows_command_line();
    }

    pub(super) fn flag(&mut self, flag: &'static str) {
        self.words.push(Word::flag(flag));
    }

    pub(super) fn flags(&mut self, flags: &[&'static str]) {
        self.words
            .extend(flags.iter().map(|&flag| Word::flag(flag)));
    }

    pub(super) fn valued(&mut self, flag: &'static str, value: &str) {
        self.words.push(Word::Valued(flag, value.to_owned()));
    }

    /// `--flag=n`, a number of our own: never quoted.
    pub(super) fn counted(&mut self, flag: &str, n: usize) {
        self.words
            .push(Word::Flag(Cow::Owned(format!("{flag}={n}"))));
    }

    /// A value on its own (the path after `--`), quoted.
    pub(super) fn value(&mut self, value: &str) {
        self.words.push(Word::Value(value.to_owned()));
    }
}

/// How `--explain` labels [`CommandLine::as_run`].
#[cfg(unix)]
pub const SHOWN_AS: &str = "sh -c:";
#[cfg(windows)]
pub const SHOWN_AS: &str = "command:";

/// One argument of a Windows command line (see [`CommandLine::windows_command_line`]).
#[cfg(any(windows, test, feature = "fuzzing"))]
fn push_windows_arg(line: &mut String, arg: &str) {
    let quoted = arg.is_empty() || arg.contains([' ', '\t']);
    if quoted {
        line.push('"');
    }
    let mut backslashes = 0;
    for c in arg.chars() {
        if c == '\\' {
            backslashes += 1;
        } else {
            if c == '"' {
                // n backslashes before a quote become 2n + 1.
                line.extend(std::iter::repeat_n('\\', backslashes + 1));
            }
            backslashes = 0;
        }
        line.push(c);
    }
    if quoted {
        // ... and 2n before the closing quote.
        line.extend(std::iter::repeat_n('\\', backslashes));
        line.push('"');
    }
}

/// The most bytes of one command line over explicit paths
/// (`grep_over_lines`): on Unix the `sh -c` string is one argument, and
/// Linux takes at most 128 KiB in one (`MAX_ARG_STRLEN`); on Windows a
/// command line holds at most 32,767 UTF-16 units. Both with room to spare.
#[cfg(unix)]
const LINE_MAX: usize = 120 * 1024;
#[cfg(windows)]
const LINE_MAX: usize = 32_000;

/// [`CommandLine`]s of `head` (which ends in `--`), then as many of
/// `paths` as fit in [`LINE_MAX`] each, in as many lines as that takes (at
/// least one, with `empty` as its only path when `paths` is empty).
pub(super) fn over_paths(
    mut head: CommandLine,
    paths: &[OsString],
    empty: &Path,
) -> Vec<CommandLine> {
    if paths.is_empty() {
        head.words.push(Word::Path(empty.as_os_str().to_owned()));
        return vec![head];
    }
    let base = head.as_run().len();
    let mut lines = Vec::new();
    let mut line = head.clone();
    let mut len = base;
    for path in paths {
        let word = Word::Path(path.clone());
        let width = 1 + word_width(&word);
        if len + width > LINE_MAX && len > base {
            lines.push(std::mem::replace(&mut line, head.clone()));
            len = base;
        }
        line.words.push(word);
        len += width;
    }
    lines.push(line);
    lines
}

/// The bytes (Unix) or UTF-16 units (Windows) `word` takes in the line as run.
fn word_width(word: &Word) -> usize {
    #[cfg(unix)]
    return word.shell_bytes().len();
    #[cfg(windows)]
    {
        let mut one = String::new();
        push_windows_arg(&mut one, &word.arg());
        one.encode_utf16().count()
    }
}

#[cfg(test)]
#[path = "../../../tests/unit/rg/command/line.rs"]
mod tests;
