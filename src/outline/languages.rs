//! The languages function context parses, and what a definition is in
//! each: the node kinds that define something with a name, the word
//! shown for each (`function`, `class`, …), and where the name is.

use tree_sitter::Node;

use super::text;

/// A language with a parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
}

/// Each language and the rg type that picks it, in the order tried.
pub const LANGUAGES: [(Language, &str); 8] = [
    (Language::Rust, "rust"),
    (Language::Python, "py"),
    (Language::TypeScript, "ts"),
    (Language::JavaScript, "js"),
    (Language::Go, "go"),
    (Language::Java, "java"),
    (Language::Cpp, "cpp"),
    (Language::C, "c"),
];

impl Language {
    /// TypeScript's JSX files have a grammar of their own.
    pub fn refine(self, path: &str) -> Self {
        let tsx = std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("tsx"));
        if self == Language::TypeScript && tsx {
            Language::Tsx
        } else {
            self
        }
    }

    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }

    /// The node kinds of this language that define something named by
    /// their `name` field, and the word for each.
    fn named_kinds(self) -> &'static [(&'static str, &'static str)] {
        const JS: &[(&str, &str)] = &[
            ("function_declaration", "function"),
            ("generator_function_declaration", "function"),
            ("method_definition", "method"),
            ("class_declaration", "class"),
            ("class", "class"),
        ];
        const TS: &[(&str, &str)] = &[
            ("function_declaration", "function"),
            ("generator_function_declaration", "function"),
            ("function_signature", "function"),
            ("method_definition", "method"),
            ("method_signature", "method"),
            ("abstract_method_signature", "method"),
            ("class_declaration", "class"),
            ("abstract_class_declaration", "class"),
            ("class", "class"),
            ("interface_declaration", "interface"),
            ("type_alias_declaration", "type"),
            ("enum_declaration", "enum"),
            ("internal_module", "namespace"),
            ("module", "namespace"),
        ];
        match self {
            Language::Rust => &[
                ("function_item", "function"),
                ("function_signature_item", "function"),
                ("struct_item", "struct"),
                ("enum_item", "enum"),
                ("union_item", "union"),
                ("trait_item", "trait"),
                ("mod_item", "module"),
                ("macro_definition", "macro"),
            ],
            Language::Python => &[
                ("function_definition", "function"),
                ("class_definition", "class"),
            ],
            Language::JavaScript => JS,
            Language::TypeScript | Language::Tsx => TS,
            Language::Go => &[
                ("function_declaration", "function"),
                ("method_declaration", "method"),
            ],
            Language::Java => &[
                ("method_declaration", "method"),
                ("constructor_declaration", "constructor"),
                ("class_declaration", "class"),
                ("interface_declaration", "interface"),
                ("enum_declaration", "enum"),
                ("record_declaration", "record"),
                ("annotation_type_declaration", "annotation"),
            ],
            Language::C => &[],
            Language::Cpp => &[("namespace_definition", "namespace")],
        }
    }

    /// The name and kind of the definition `node` is, if it is one with a
    /// name.
    pub fn definition(self, node: Node<'_>, source: &[u8]) -> Option<(String, &'static str)> {
        let kind = node.kind();
        if let Some(&(_, word)) = self.named_kinds().iter().find(|(k, _)| *k == kind) {
            let name = node.child_by_field_name("name")?;
            return Some((text(name, source), word));
        }
        let js = matches!(
            self,
            Language::JavaScript | Language::TypeScript | Language::Tsx
        );
        match kind {
            "impl_item" if self == Language::Rust => {
                let ty = text(node.child_by_field_name("type")?, source);
                let name = match node.child_by_field_name("trait") {
                    Some(t) => format!("{} for {ty}", text(t, source)),
                    None => ty,
                };
                Some((name, "impl"))
            }
            // `const f = () => …`: a function with the variable's name;
            // `obj.run = (…) => …`: a function with the target's name.
            "variable_declarator" | "assignment_expression" if js => {
                let (name, value) = match kind {
                    "variable_declarator" => ("name", "value"),
                    _ => ("left", "right"),
                };
                let value = node.child_by_field_name(value)?.kind();
                let function = matches!(
                    value,
                    "arrow_function" | "function_expression" | "function" | "generator_function"
                );
                function
                    .then(|| node.child_by_field_name(name))?
                    .map(|n| (text(n, source), "function"))
            }
            "type_declaration" if self == Language::Go => {
                let mut cursor = node.walk();
                let spec = node
                    .named_children(&mut cursor)
                    .find(|c| matches!(c.kind(), "type_spec" | "type_alias"))?;
                Some((text(spec.child_by_field_name("name")?, source), "type"))
            }
            "function_definition" if matches!(self, Language::C | Language::Cpp) => {
                Some((declared_name(node, source)?, "function"))
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier"
                if matches!(self, Language::C | Language::Cpp) =>
            {
                // A declaration names a type without a body: not a definition.
                node.child_by_field_name("body")?;
                let word = match kind {
                    "struct_specifier" => "struct",
                    "union_specifier" => "union",
                    "enum_specifier" => "enum",
                    _ => "class",
                };
                Some((text(node.child_by_field_name("name")?, source), word))
            }
            _ => None,
        }
    }

    /// Whether `node` is a macro's body the grammar reads as tokens, where
    /// a definition may lie unseen (Rust's `cfg_if! { … }` at item level).
    pub fn token_trees(self, node: Node<'_>) -> bool {
        self == Language::Rust && node.kind() == "macro_invocation"
    }

    /// Whether `node` wraps a definition whose lines start with it: a
    /// Python decorated definition, a C++ `template <…>`, a JavaScript
    /// `export`, declaration or statement around a function.
    pub fn wraps(self, node: Node<'_>) -> bool {
        matches!(
            (self, node.kind()),
            (Language::Python, "decorated_definition")
                | (Language::Cpp, "template_declaration")
                | (
                    Language::JavaScript | Language::TypeScript | Language::Tsx,
                    "export_statement"
                        | "lexical_declaration"
                        | "variable_declaration"
                        | "expression_statement"
                )
        )
    }
}

/// A function defined inside a class-like definition is a method.
pub fn method_if_in_type(kind: &'static str, outer: Option<Node<'_>>) -> &'static str {
    let in_type = outer.is_some_and(|o| {
        matches!(
            o.kind(),
            "impl_item"
                | "trait_item"
                | "class_definition"
                | "class_declaration"
                | "abstract_class_declaration"
                | "class"
                | "class_specifier"
                | "struct_specifier"
        )
    });
    if kind == "function" && in_type {
        "method"
    } else {
        kind
    }
}

/// Whether `prev`, the sibling right before a node whose lines start on
/// `row`, is a comment or attribute attached to it (a doc comment,
/// `#[cfg(…)]`): on lines of its own (`before` being the sibling before
/// it), with no blank line between. A comment after code on its line
/// (`impl X { // note`) belongs to that line, not to what follows. What
/// is attached to `prev` is then attached too.
pub fn attaches(prev: Node<'_>, before: Option<Node<'_>>, row: usize) -> bool {
    let attached = prev.kind().contains("comment") || prev.kind() == "attribute_item";
    let start = prev.start_position().row;
    let own_line = before.is_none_or(|b| super::last_row(b) < start);
    attached && own_line && super::last_row(prev) + 1 >= row
}

/// The name a C or C++ function definition declares: the identifier at
/// the end of its chain of declarators (`int *f(void)`, `A::f() const`).
fn declared_name(node: Node<'_>, source: &[u8]) -> Option<String> {
    let mut declarator = node.child_by_field_name("declarator")?;
    loop {
        match declarator.kind() {
            "identifier"
            | "field_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name" => return Some(text(declarator, source)),
            _ => declarator = declarator.child_by_field_name("declarator")?,
        }
    }
}
