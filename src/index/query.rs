//! What a pattern requires of a file: the trigram query of a grep pattern
//! (doc/SPEC.md §11), Russ Cox's codesearch plan over the parse that
//! `regex-syntax` gives (the parser rg's own regex engine uses, set up as
//! rg sets it up).
//!
//! Each node of the pattern gets an [`Info`]: either the exact, small set
//! of strings it can match, or a [`Query`] every file holding a match
//! satisfies. Literals and small classes are exact; a concatenation
//! multiplies exact sets while they stay small; an alternation unites
//! them; anything else (a big class, a repetition that may match nothing)
//! keeps only what its parts require. A string of 3 bytes or more requires
//! each of its trigrams, so an exact set requires "one of its strings",
//! an OR of ANDs.
//!
//! Strings are folded as the index folds the files it reads ([`fold`]):
//! ASCII letters to lower case, so one index answers case-sensitive and
//! case-insensitive searches alike, and NUL to a line feed, as rg's
//! `--binary` reads a binary file. Folding loses precision, never a match.

use std::collections::BTreeSet;

use regex_syntax::hir::{Class, Hir, HirKind};

/// A file's trigram, three folded bytes in one number.
pub type Gram = u32;

/// What a file must hold to be a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// Nothing: every file is a candidate.
    All,
    Gram(Gram),
    And(Vec<Query>),
    Or(Vec<Query>),
}

/// The pattern as a grep call gives it, with the flags that change what it
/// matches.
#[derive(Debug, Clone, Copy)]
pub struct Pattern<'a> {
    pub text: &'a str,
    pub ignore_case: bool,
    pub literal: bool,
    pub multiline: bool,
}

#[cfg(test)]
impl<'a> Pattern<'a> {
    /// `text` as a regex, no flag set.
    pub fn regex(text: &'a str) -> Self {
        Self {
            text,
            ignore_case: false,
            literal: false,
            multiline: false,
        }
    }
}

/// The query of the regex `text` with no flag, `All` if it does not parse
/// (the tests' shorthand).
#[cfg(test)]
pub fn plain(text: &str) -> Query {
    plan(Pattern::regex(text)).unwrap_or(Query::All)
}

/// The most strings an exact set holds before it is turned into a query.
const MAX_EXACT: usize = 64;
/// The most trigrams one string of an exact set requires.
const MAX_GRAMS: usize = 256;
/// The most characters (or bytes) of a class read as an exact set.
const MAX_CLASS: usize = 16;

/// The query `pattern` requires, or `None` when the pattern does not parse
/// here (the scan then judges it, with rg's own error).
pub fn plan(pattern: Pattern<'_>) -> Option<Query> {
    let escaped;
    let text = if pattern.literal {
        escaped = regex_syntax::escape(pattern.text);
        &escaped
    } else {
        pattern.text
    };
    // As rg builds its matcher: byte classes allowed (`(?-u:\xFF)`),
    // `^`/`$` at line ends, `.` over line ends with `--multiline-dotall`.
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(false)
        .unicode(true)
        .octal(false)
        .multi_line(true)
        .case_insensitive(pattern.ignore_case)
        .dot_matches_new_line(pattern.multiline)
        .build()
        .parse(text)
        .ok()?;
    Some(info(&hir).into_query())
}

/// ASCII letters to lower case, NUL to a line feed: the bytes the index
/// keeps and the strings a query asks for.
pub fn fold(b: u8) -> u8 {
    match b {
        0 => b'\n',
        _ => b.to_ascii_lowercase(),
    }
}

/// The trigram of three folded bytes.
pub fn gram(a: u8, b: u8, c: u8) -> Gram {
    (Gram::from(a) << 16) | (Gram::from(b) << 8) | Gram::from(c)
}

/// What one node of the pattern tells.
struct Info {
    /// Every match is one of these (folded) strings.
    exact: Option<BTreeSet<Vec<u8>>>,
    /// What a file holding a match holds, besides `exact`.
    query: Query,
}

impl Info {
    fn exact(strings: BTreeSet<Vec<u8>>) -> Self {
        Self {
            exact: Some(strings),
            query: Query::All,
        }
    }

    fn empty() -> Self {
        Self::exact(BTreeSet::from([Vec::new()]))
    }

    fn anything() -> Self {
        Self {
            exact: None,
            query: Query::All,
        }
    }

    /// All that is known, as a query.
    fn into_query(self) -> Query {
        let exact = self.exact.map_or(Query::All, |set| {
            Query::or(set.iter().map(|s| strings_query(s)).collect())
        });
        Query::and(vec![self.query, exact])
    }

    /// This node's knowledge with the exact set given up.
    fn inexact(self) -> Self {
        Self {
            exact: None,
            query: self.into_query(),
        }
    }
}

/// The trigrams of the folded string `s`, all required: the first
/// [`MAX_GRAMS`] distinct ones (requiring fewer is sound, and a long
/// literal is selective long before its last trigram).
fn strings_query(s: &[u8]) -> Query {
    let mut grams = BTreeSet::new();
    for w in s.windows(3) {
        if grams.len() == MAX_GRAMS {
            break;
        }
        grams.insert(gram(w[0], w[1], w[2]));
    }
    Query::and(grams.into_iter().map(Query::Gram).collect())
}

fn info(hir: &Hir) -> Info {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Info::empty(),
        HirKind::Literal(lit) => {
            Info::exact(BTreeSet::from([lit.0.iter().map(|&b| fold(b)).collect()]))
        }
        HirKind::Class(class) => class_strings(class).map_or_else(Info::anything, Info::exact),
        HirKind::Capture(capture) => info(&capture.sub),
        HirKind::Repetition(rep) => {
            let sub = info(&rep.sub);
            match (rep.min, rep.max) {
                (1, Some(1)) => sub,
                (0, _) => Info::anything(),
                _ => sub.inexact(),
            }
        }
        HirKind::Concat(parts) => parts
            .iter()
            .fold(Info::empty(), |acc, part| concat(acc, info(part))),
        HirKind::Alternation(arms) => {
            let arms: Vec<Info> = arms.iter().map(info).collect();
            let mut union = BTreeSet::new();
            let all_exact = arms.iter().all(|arm| {
                arm.exact.as_ref().is_some_and(|set| {
                    union.extend(set.iter().cloned());
                    union.len() <= MAX_EXACT
                })
            });
            if all_exact {
                Info::exact(union)
            } else {
                Info {
                    exact: None,
                    query: Query::or(arms.into_iter().map(Info::into_query).collect()),
                }
            }
        }
    }
}

/// `left` followed by `right`: the exact sets multiplied while the product
/// stays small, else what each requires.
fn concat(left: Info, right: Info) -> Info {
    if let (Some(l), Some(r)) = (&left.exact, &right.exact) {
        if l.len().saturating_mul(r.len()) <= MAX_EXACT {
            let product = l
                .iter()
                .flat_map(|a| r.iter().map(move |b| [a.as_slice(), b.as_slice()].concat()))
                .collect();
            return Info {
                exact: Some(product),
                query: Query::and(vec![left.query, right.query]),
            };
        }
    }
    Info {
        exact: None,
        query: Query::and(vec![left.into_query(), right.into_query()]),
    }
}

/// The strings a small class matches (each character's UTF-8 encoding),
/// folded; `None` for a big one.
fn class_strings(class: &Class) -> Option<BTreeSet<Vec<u8>>> {
    let mut set = BTreeSet::new();
    match class {
        Class::Unicode(class) => {
            for range in class.ranges() {
                let width = u32::from(range.end()) - u32::from(range.start()) + 1;
                if set.len() + width as usize > MAX_CLASS {
                    return None;
                }
                for c in range.start()..=range.end() {
                    let mut buf = [0; 4];
                    set.insert(c.encode_utf8(&mut buf).bytes().map(fold).collect());
                }
            }
        }
        Class::Bytes(class) => {
            for range in class.ranges() {
                let width = usize::from(range.end() - range.start()) + 1;
                if set.len() + width > MAX_CLASS {
                    return None;
                }
                for b in range.start()..=range.end() {
                    set.insert(vec![fold(b)]);
                }
            }
        }
    }
    Some(set)
}

impl Query {
    /// Every one of `parts`, flattened; `All` when none constrains.
    fn and(parts: Vec<Query>) -> Query {
        let mut flat = Vec::new();
        for part in parts {
            match part {
                Query::All => {}
                Query::And(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        flat.sort_by_key(Query::order);
        flat.dedup();
        match flat.len() {
            0 => Query::All,
            1 => flat.pop().unwrap_or(Query::All),
            _ => Query::And(flat),
        }
    }

    /// Any one of `parts`; `All` when one of them is.
    fn or(parts: Vec<Query>) -> Query {
        let mut flat = Vec::new();
        for part in parts {
            match part {
                Query::All => return Query::All,
                Query::Or(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        flat.dedup();
        match flat.len() {
            0 => Query::All,
            1 => flat.pop().unwrap_or(Query::All),
            _ => Query::Or(flat),
        }
    }

    /// Trigrams first, in order, so that equal ANDs compare equal.
    fn order(&self) -> (u8, Gram) {
        match self {
            Query::Gram(g) => (0, *g),
            _ => (1, 0),
        }
    }

    /// Whether a file holding exactly the trigrams `has` answers yes.
    #[cfg(test)]
    pub fn accepts(&self, has: &dyn Fn(Gram) -> bool) -> bool {
        match self {
            Query::All => true,
            Query::Gram(g) => has(*g),
            Query::And(parts) => parts.iter().all(|p| p.accepts(has)),
            Query::Or(parts) => parts.iter().any(|p| p.accepts(has)),
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/index/query.rs"]
mod tests;
