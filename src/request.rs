//! Validated tool requests and the argument rules of SPEC §3.
//!
//! Every front-end (argv, `call`, MCP) hands its typed arguments to
//! [`GlobRequest::new`] or [`GrepRequest::new`], so a model mistake is
//! caught the same way however the call arrived. Nothing in this file
//! knows about clap, rg or processes.

use crate::error::ArgumentError;
use crate::tool::{
    AFTER, ArgKind, Argument, BEFORE, CONTEXT, FUNCTION_CONTEXT, GlobArgs, GrepArgs, LIMIT, OFFSET,
    OUTPUT_MODES,
};

/// One validated tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Glob(GlobRequest),
    Grep(GrepRequest),
}

/// An argument that was given and is not used, named in the answer (SPEC §8).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Ignored {
    /// A field the tool has no argument for (agent clients add their own).
    Unknown(String),
    /// One of the tool's arguments that the call's other arguments make
    /// moot, and why (context with `output` files or count).
    Moot { name: String, why: String },
}

/// `glob PATTERN [PATH]`: files whose paths match a glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobRequest {
    pub pattern: String,
    pub path: Option<String>,
    /// `--iglob`: match paths regardless of case.
    pub ignore_case: bool,
    /// One glob of paths left out (`--glob=!<exclude>`, after the others).
    pub exclude: Option<String>,
    /// Follow symbolic links (`--follow`).
    pub follow: bool,
    pub page: Page,
}

/// `grep PATTERN [PATH] [--include GLOB] …`: lines matching a regex.
// Each switch is one independent rg flag of the argument table (SPEC §3a).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GrepRequest {
    pub pattern: String,
    pub path: Option<String>,
    pub include: Option<String>,
    pub output: Output,
    /// Context lines around each match (content only).
    pub context: Context,
    pub ignore_case: bool,
    /// Search for the pattern as written (`--fixed-strings`).
    pub literal: bool,
    /// Matches may span lines (`--multiline --multiline-dotall`).
    pub multiline: bool,
    /// One ripgrep file type (`--type`).
    pub file_type: Option<String>,
    /// One glob of files left out (`--glob=!<exclude>`, after the others).
    pub exclude: Option<String>,
    /// Follow symbolic links (`--follow`).
    pub follow: bool,
    pub page: Page,
}

/// What grep prints (SPEC §3a `output`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Output {
    /// The matched lines, grouped by file (SPEC §4).
    #[default]
    Content,
    /// The files that match.
    Files,
    /// Matched lines per file.
    Count,
}

/// Lines of context on each side of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Context {
    pub before: usize,
    pub after: usize,
    /// Each match inside its enclosing definition (`function_context`):
    /// `before` and `after` are then for the matches outside any.
    pub function: bool,
}

impl Context {
    pub fn any(self) -> bool {
        self.before > 0 || self.after > 0 || self.function
    }
}

/// Which entries of the ordered result the page shows (SPEC §3b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Page {
    /// Entries skipped before the page.
    pub offset: usize,
    /// Entries on the page, when the caller chose (at most the cap).
    pub limit: Option<usize>,
}

impl Page {
    fn new(offset: Option<u64>, limit: Option<u64>) -> Result<Self, ArgumentError> {
        Ok(Self {
            offset: count(number(&OFFSET, offset)?.unwrap_or(0)),
            limit: number(&LIMIT, limit)?.map(count),
        })
    }

    /// Whether the caller asked for a page (then the answer says where it
    /// starts and where the next one does).
    pub fn asked(self) -> bool {
        self.offset > 0 || self.limit.is_some()
    }
}

// Each request checks its rules in the order written, the same for every
// front-end: the first rule broken is the one reported.

impl GlobRequest {
    /// glob's request (SPEC §3's rules applied).
    pub fn new(args: GlobArgs) -> Result<Self, ArgumentError> {
        let exclude = check_glob_filter("exclude", args.exclude)?;
        let page = Page::new(args.offset, args.limit)?;
        let pattern = glob_separators(args.pattern);
        not_blank(
            "pattern",
            &pattern,
            "glob pattern must not be blank; pass a glob such as **/*.rs",
        )?;
        // SPEC §3: rg reads a leading `!` as "everything except".
        if pattern.starts_with('!') {
            return Err(ArgumentError::new(
                "pattern",
                "glob pattern must not start with '!': negated globs are not supported; pass the files you want, such as **/*.rs",
            ));
        }
        check_path(args.path.as_deref())?;
        Ok(Self {
            pattern,
            path: args.path,
            ignore_case: args.ignore_case,
            exclude,
            follow: args.follow,
            page,
        })
    }
}

impl GrepRequest {
    /// grep's request (SPEC §3's rules applied), and the arguments its
    /// output mode makes moot.
    pub fn new(args: GrepArgs) -> Result<(Self, Vec<Ignored>), ArgumentError> {
        let exclude = check_glob_filter("exclude", args.exclude)?;
        let page = Page::new(args.offset, args.limit)?;
        no_nul("pattern", &args.pattern)?;
        if args.pattern.is_empty() {
            return Err(ArgumentError::new(
                "pattern",
                "grep pattern must not be empty; pass a ripgrep regex such as fn main",
            ));
        }
        check_path(args.path.as_deref())?;
        let include = check_glob_filter("include", args.include)?;
        let output = output_mode(args.output.as_deref())?;
        let both = number(&CONTEXT, args.context)?;
        let before = number(&BEFORE, args.before)?;
        let after = number(&AFTER, args.after)?;
        let mut moot = Vec::new();
        let context = if output == Output::Content {
            Context {
                before: count(before.or(both).unwrap_or(0)),
                after: count(after.or(both).unwrap_or(0)),
                function: args.function_context,
            }
        } else {
            let why = match output {
                Output::Files => "output \"files\" shows no lines",
                _ => "output \"count\" shows no lines",
            };
            let function = args.function_context.then_some(1);
            for (row, given) in [
                (CONTEXT, both),
                (BEFORE, before),
                (AFTER, after),
                (FUNCTION_CONTEXT, function),
            ] {
                if given.is_some() {
                    moot.push(Ignored::Moot {
                        name: row.name.to_owned(),
                        why: why.to_owned(),
                    });
                }
            }
            Context::default()
        };
        let request = Self {
            pattern: args.pattern,
            path: args.path,
            include,
            output,
            context,
            ignore_case: args.ignore_case,
            literal: args.literal,
            multiline: args.multiline,
            file_type: file_type(args.r#type)?,
            exclude,
            follow: args.follow,
            page,
        };
        Ok((request, moot))
    }
}

/// A glob as rg on this OS reads it. Windows (SPEC §10: a glob given with
/// either separator works): rg's globs there have no escape character and
/// match paths written with `/`, so a `\` could only ever be a separator,
/// and is written as one. Elsewhere `\` escapes the next character, and
/// the glob stays as given.
fn glob_separators(glob: String) -> String {
    if cfg!(windows) && glob.contains('\\') {
        glob.replace('\\', "/")
    } else {
        glob
    }
}

/// A count as a `usize` (saturating where a `usize` is narrower).
fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `given`, if a number, within the range its row of the table gives
/// (SPEC §3a).
fn number(row: &Argument, given: Option<u64>) -> Result<Option<u64>, ArgumentError> {
    let (Some(n), ArgKind::Number { min, max, .. }) = (given, row.kind) else {
        return Ok(given);
    };
    let name = row.name;
    match max {
        Some(max) if n < min || n > max => Err(ArgumentError::new(
            name,
            format!("{name} must be a whole number from {min} to {max}, not {n}"),
        )),
        None if n < min => Err(ArgumentError::new(
            name,
            format!("{name} must be at least {min}; omit it for a whole page"),
        )),
        _ => Ok(Some(n)),
    }
}

fn output_mode(given: Option<&str>) -> Result<Output, ArgumentError> {
    match given {
        None | Some("content") => Ok(Output::Content),
        Some("files") => Ok(Output::Files),
        Some("count") => Ok(Output::Count),
        Some(other) => Err(ArgumentError::new(
            "output",
            format!(
                "output must be one of {}, not {other:?}",
                OUTPUT_MODES.join(", ")
            ),
        )),
    }
}

fn file_type(given: Option<String>) -> Result<Option<String>, ArgumentError> {
    if let Some(name) = &given {
        let blank =
            "type must not be blank; omit it, or pass one ripgrep file type such as rust or py";
        not_blank("type", name, blank)?;
    }
    Ok(given)
}

fn no_nul(field: &'static str, value: &str) -> Result<(), ArgumentError> {
    if value.contains('\0') {
        return Err(ArgumentError::new(
            field,
            format!("{field} must not contain a NUL byte"),
        ));
    }
    Ok(())
}

/// A text argument's value: no NUL byte, and not blank (`blank` says what
/// to pass instead).
fn not_blank(field: &'static str, value: &str, blank: &'static str) -> Result<(), ArgumentError> {
    no_nul(field, value)?;
    if value.trim().is_empty() {
        return Err(ArgumentError::new(field, blank));
    }
    Ok(())
}

fn check_path(path: Option<&str>) -> Result<(), ArgumentError> {
    let Some(path) = path else { return Ok(()) };
    not_blank(
        "path",
        path,
        "path must not be blank; omit it to search the workdir",
    )
}

/// `include` or `exclude` (SPEC §3, §3a): ONE glob, as rg on this OS
/// reads it, not blank, not negated, no list.
fn check_glob_filter(
    field: &'static str,
    glob: Option<String>,
) -> Result<Option<String>, ArgumentError> {
    let Some(glob) = glob else { return Ok(None) };
    let glob = glob_separators(glob);
    let (blank, negated) = match field {
        "include" => (
            "include must not be blank; omit it to search every file, or pass one glob such as *.rs",
            "include must be one positive glob and must not start with '!'; to leave files out, pass exclude",
        ),
        _ => (
            "exclude must not be blank; omit it, or pass one glob of files to leave out such as **/tests/**",
            "exclude must be one glob without '!': it already names what to leave out, such as **/tests/**",
        ),
    };
    not_blank(field, &glob, blank)?;
    if glob.starts_with('!') {
        return Err(ArgumentError::new(field, negated));
    }
    if has_top_level_comma(&glob) {
        return Err(ArgumentError::new(
            field,
            format!(
                "{field} must be ONE glob, not a comma-separated list; use brace alternation such as *.{{ts,tsx}}"
            ),
        ));
    }
    Ok(Some(glob))
}

/// True when `glob` has a `,` outside every `{…}` group. Backslash escapes
/// the next character, as in ripgrep's globs; an unbalanced `}` is ignored.
pub(crate) fn has_top_level_comma(glob: &str) -> bool {
    let mut depth = 0usize;
    let mut chars = glob.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
#[path = "../tests/unit/request.rs"]
mod tests;
