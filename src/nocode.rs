//! Deciding whether a Rust source file can carry coverage at all (the "no code" status).
//!
//! A file that no report mentions is unmeasured unless it holds nothing instrumentable. rustc
//! instruments function bodies, closures and `async` blocks (not the initialisers of consts and
//! statics, which are evaluated at compile time, and not `#[automatically_derived]` impls, which
//! the standard derives and serde's write). The rule errs on the side of code: a file is no code
//! only when every item is one of `mod` (without a body, or whose body is no code), `use`,
//! `extern crate`, a type, a trait without default bodies, an `impl` of consts and types, a const
//! or static, an `extern` block of declarations or a `macro_rules!` definition, and nothing anywhere (an initialiser, an `impl` or `trait` body,
//! an array length, an attribute) is or may expand to a body:
//!
//! - a function, method, default trait method, closure or `async` block is code;
//! - every macro call is code (`my_macro!()` in an `impl` or `trait` body, `include!`,
//!   `global_asm!`, `lazy_static!`, a macro in a type or pattern), except, in an expression or a
//!   statement, a standard macro that expands to a literal or a check (`concat!`, `env!`,
//!   `include_str!`, `assert!`, … in [`LITERAL_MACROS`]);
//! - an attribute that may be an attribute macro is code: one outside the built-in and tool
//!   attributes ([`INERT_ATTRIBUTES`]), also one that `#[cfg_attr(…)]` applies, unless the item
//!   also has a `#[derive]` (then it is taken for a derive helper such as `#[serde(…)]`; derives
//!   write `#[automatically_derived]` impls, which rustc does not instrument);
//! - tokens syn keeps verbatim (unstable syntax, an `extern` block item with a body, `macro`
//!   2.0 definitions) are code.
//!
//! The decision is made with `syn`.

pub(crate) mod c;
mod depth;

use syn::visit::Visit;

/// What a Rust source file holds, as far as coverage is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RustSource {
    /// Nothing rustc would instrument.
    NoCode,
    /// At least one function body, closure, macro call or other item that may expand to one.
    HasCode,
    /// The text does not parse as a Rust file; the message says where.
    Unparsable(String),
}

/// Standard macros that, in an expression, expand to a literal, a constant check or a panic:
/// no function body, no closure (`std::`, `core::` and `alloc::` paths to them too).
const LITERAL_MACROS: [&str; 20] = [
    "assert",
    "assert_eq",
    "assert_ne",
    "cfg",
    "column",
    "compile_error",
    "concat",
    "debug_assert",
    "env",
    "file",
    "include_bytes",
    "include_str",
    "line",
    "matches",
    "module_path",
    "option_env",
    "panic",
    "stringify",
    "todo",
    "unreachable",
];

/// Built-in attributes (and the roots of tool attributes, `#[rustfmt::skip]`) that generate no
/// code: any other attribute on an item may be an attribute macro.
const INERT_ATTRIBUTES: [&str; 36] = [
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "clippy",
    "cold",
    "coverage",
    "deny",
    "deprecated",
    "derive",
    "diagnostic",
    "doc",
    "expect",
    "export_name",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "link",
    "link_name",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "no_mangle",
    "non_exhaustive",
    "path",
    "repr",
    "rustfmt",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "unsafe",
    "used",
    "warn",
];

/// The stack the parse runs on: 64 MiB, room for [`depth::MAX_DEPTH`] levels of nesting in a
/// debug build (about 12 KiB a level) several times over. It is reserved, not used, up front.
const PARSE_STACK: usize = 64 << 20;

/// Classifies Rust source text. A source nested deeper than [`depth::MAX_DEPTH`] levels is
/// [`RustSource::Unparsable`] without being parsed; the others are parsed on a thread of their
/// own with a [`PARSE_STACK`] stack, so no nesting `syn` can be given overflows the stack.
pub(crate) fn classify(text: &str) -> RustSource {
    if let Some(line) = depth::too_deep(text) {
        return RustSource::Unparsable(format!(
            "line {line}: nested deeper than {} levels of brackets and operators, which covgate \
             does not parse",
            depth::MAX_DEPTH
        ));
    }
    on_stack(PARSE_STACK, || parse(text)).unwrap_or_else(RustSource::Unparsable)
}

/// Runs `work` on a thread with a `size`-byte stack and returns its result. Errors, as text:
/// the thread cannot be started (no memory for its stack); `work` panicked.
fn on_stack<T: Send>(size: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(size)
            .spawn_scoped(scope, work)
            .map_err(|e| format!("cannot start the parse: {e}"))
            .and_then(|handle| handle.join().map_err(|_| "the parse failed".to_string()))
    })
}

/// [`classify`] of a source that is not too deep.
fn parse(text: &str) -> RustSource {
    match syn::parse_file(text) {
        Ok(file) => {
            let mut finder = CodeFinder { found: false };
            finder.visit_file(&file);
            if finder.found {
                RustSource::HasCode
            } else {
                RustSource::NoCode
            }
        }
        Err(e) => {
            let start = e.span().start();
            RustSource::Unparsable(format!("line {}:{}: {e}", start.line, start.column + 1))
        }
    }
}

/// True for an item of an extern block that syn keeps as tokens but that is a declaration: it
/// ends with `;` and holds no `{ … }`, as Rust 2024's `safe fn f();`, `unsafe fn g();` and
/// `safe static X: u8;` in an `unsafe extern "C"` block (the Reference, "External blocks").
/// Anything else syn keeps verbatim there (a function with a body) may be code.
fn is_foreign_declaration(tokens: &proc_macro2::TokenStream) -> bool {
    let text = tokens.to_string();
    text.trim_end().ends_with(';') && !text.contains('{')
}

/// True when `path` names one of [`LITERAL_MACROS`] (bare, or under `std`, `core`, `alloc`).
fn is_literal_macro(path: &syn::Path) -> bool {
    let mut names = path.segments.iter().map(|s| s.ident.to_string());
    let literal = |name: &str| LITERAL_MACROS.contains(&name);
    match (names.next(), names.next(), names.next()) {
        (Some(name), None, None) => literal(&name),
        (Some(root), Some(name), None) => {
            ["std", "core", "alloc"].contains(&root.as_str()) && literal(&name)
        }
        _ => false,
    }
}

/// True when some attribute of an item may be an attribute macro (see [`INERT_ATTRIBUTES`]),
/// also inside `#[cfg_attr(predicate, attributes…)]`; with a `#[derive]` among them, other
/// attributes are taken for the derive's helpers. A `cfg_attr` that does not parse counts as one.
fn has_attribute_macro(attrs: &[syn::Attribute]) -> bool {
    let mut roots = Vec::new();
    let parsed = attrs
        .iter()
        .try_for_each(|attr| attribute_roots(&attr.meta, &mut roots));
    let derives = roots.iter().any(|root| root == "derive");
    parsed.is_none()
        || !derives
            && roots
                .iter()
                .any(|root| !INERT_ATTRIBUTES.contains(&root.as_str()))
}

/// Adds to `roots` the first segment of the attribute `meta`'s path, or of each attribute a
/// `cfg_attr` applies (nested ones too); `None` when a `cfg_attr` does not parse.
fn attribute_roots(meta: &syn::Meta, roots: &mut Vec<String>) -> Option<()> {
    let path = meta.path();
    if !path.is_ident("cfg_attr") {
        roots.extend(path.segments.first().map(|s| s.ident.to_string()));
        return Some(());
    }
    let parser = syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated;
    let applied = meta.require_list().ok()?.parse_args_with(parser).ok()?;
    applied
        .iter()
        .skip(1)
        .try_for_each(|inner| attribute_roots(inner, roots))
}

struct CodeFinder {
    found: bool,
}

impl<'ast> Visit<'ast> for CodeFinder {
    fn visit_item_fn(&mut self, _: &'ast syn::ItemFn) {
        self.found = true;
    }

    fn visit_impl_item_fn(&mut self, _: &'ast syn::ImplItemFn) {
        self.found = true;
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        self.found |= item.default.is_some();
        syn::visit::visit_trait_item_fn(self, item);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
        self.found = true;
    }

    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {
        self.found = true;
    }

    fn visit_macro(&mut self, _: &'ast syn::Macro) {
        // A macro call anywhere but in an expression (an item, an `impl` or `trait` body, an
        // `extern` block, a statement, a type, a pattern) may expand to functions.
        self.found = true;
    }

    fn visit_expr_macro(&mut self, expr: &'ast syn::ExprMacro) {
        self.found |= !is_literal_macro(&expr.mac.path);
    }

    fn visit_stmt_macro(&mut self, stmt: &'ast syn::StmtMacro) {
        // A statement in a const's block (`const _: () = { assert!(…); };`).
        self.found |= !is_literal_macro(&stmt.mac.path);
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        // `macro_rules! name { … }` defines a macro (its uses are counted where they expand);
        // any other item-level macro call may expand to functions.
        let definition = item.ident.is_some() && item.mac.path.is_ident("macro_rules");
        self.found |= !definition || has_attribute_macro(&item.attrs);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        // Tokens syn keeps verbatim (unstable syntax) may hold anything: count them as code.
        self.found |=
            matches!(item, syn::Item::Verbatim(_)) || has_attribute_macro(item_attrs(item));
        syn::visit::visit_item(self, item);
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Const(c) => &c.attrs[..],
            syn::ImplItem::Type(t) => &t.attrs,
            _ => &[],
        };
        self.found |= matches!(item, syn::ImplItem::Verbatim(_)) || has_attribute_macro(attrs);
        syn::visit::visit_impl_item(self, item);
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let attrs = match item {
            syn::TraitItem::Const(c) => &c.attrs[..],
            syn::TraitItem::Type(t) => &t.attrs,
            _ => &[],
        };
        self.found |= matches!(item, syn::TraitItem::Verbatim(_)) || has_attribute_macro(attrs);
        syn::visit::visit_trait_item(self, item);
    }

    fn visit_foreign_item(&mut self, item: &'ast syn::ForeignItem) {
        let attrs = match item {
            syn::ForeignItem::Fn(f) => &f.attrs[..],
            syn::ForeignItem::Static(s) => &s.attrs,
            syn::ForeignItem::Type(t) => &t.attrs,
            _ => &[],
        };
        let verbatim = match item {
            syn::ForeignItem::Verbatim(tokens) => !is_foreign_declaration(tokens),
            _ => false,
        };
        self.found |= verbatim || has_attribute_macro(attrs);
        syn::visit::visit_foreign_item(self, item);
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        self.found |= matches!(expr, syn::Expr::Verbatim(_));
        syn::visit::visit_expr(self, expr);
    }

    fn visit_type(&mut self, ty: &'ast syn::Type) {
        self.found |= matches!(ty, syn::Type::Verbatim(_));
        syn::visit::visit_type(self, ty);
    }
}

/// The outer attributes of an item that is not a function or a macro call (those count as
/// code, or are handled by [`CodeFinder::visit_item_macro`]).
fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn declarations_only_is_no_code() {
        let text = "//! doc\nmod a;\npub use a::*;\npub struct S { x: u8 }\npub enum E { A }\n\
                    pub trait T { fn f(&self); }\npub const C: u8 = 1;\npub static X: u8 = 2;\n\
                    macro_rules! m { () => { fn g() {} } }\nextern \"C\" { fn ext(); }\n\
                    type Alias = u8;\n#[derive(Debug)] struct D;\n";
        assert_eq!(classify(text), RustSource::NoCode);
    }

    /// Sources that hold nothing rustc instruments, each with what it shows.
    const NO_CODE: &[&str] = &[
        // Standard macros that expand to literals, in initialisers, array lengths, attributes.
        "pub const V: &str = env!(\"CARGO_PKG_VERSION\");\nconst N: &str = concat!(\"a\", 1);\n\
         static B: &[u8] = include_bytes!(\"x.bin\");\nconst L: u32 = core::line!();\n\
         const _: () = assert!(1 < 2);\nconst A: [u8; std::column!() as usize] = [0; 1];\n\
         const _: () = { assert!(1 < 2); core::debug_assert!(true); };\n\
         #[doc = include_str!(\"README.md\")] pub struct Doc;\n",
        // Associated consts and types in impls and traits, extern blocks of declarations.
        "struct S; impl S { const C: u8 = 1; type X = u8; }\n\
         trait T { const C: fn() -> u8; type Y; const D: u8 = 2; }\n\
         extern \"C\" { static E: u8; type Opaque; fn f(x: u8); }\n",
        // Rust 2024: `unsafe extern` with `safe` and `unsafe` item qualifiers.
        "unsafe extern \"C\" { pub safe fn f(); pub unsafe fn g(x: u8) -> u8; safe static S: u8; }\n",
        // Nested modules of declarations, a `#[path]` module (its own file), tool attributes.
        "#[path = \"other.rs\"] mod other;\nmod inner { pub struct S; #[rustfmt::skip] pub type T = u8; }\n",
        // Derive helpers on a derived item; a `macro_rules!` with a doc comment.
        "#[derive(Serialize)]\n#[serde(rename_all = \"camelCase\")]\npub struct S { #[serde(default)] a: u8 }\n\
         /// doc\n#[macro_export]\nmacro_rules! m { () => {} }\n",
        // Attributes that `cfg_attr` applies: a derive with its helpers, documentation.
        "#[cfg_attr(feature = \"serde\", derive(Serialize), serde(rename_all = \"camelCase\"))]\n\
         pub struct S;\n#[cfg_attr(docsrs, doc(cfg(feature = \"x\")))]\npub struct T;\n\
         #[cfg_attr(a, cfg_attr(b, allow(dead_code)))]\npub struct U;\n",
    ];

    /// Sources with code (or that may expand to code), each with what it shows.
    const HAS_CODE: &[&str] = &[
        "fn f() {}",
        "struct S; impl S { fn f(&self) {} }",
        "trait T { fn f(&self) {} }",
        "mod inner { pub fn f() {} }",
        "mod a { mod b { const F: fn() = || {}; } }",
        // Closures and async blocks in initialisers.
        "static F: fn() = || {};",
        "static X: Lazy<u8> = Lazy::new(|| 1);",
        "static X: Lazy<u8> = Lazy::new(init);\nconst Y: u8 = { fn helper() -> u8 { 1 } helper() };",
        "static FUT: Mutex<Option<Pin<Box<dyn Future<Output = ()>>>>> = wrap(async {});",
        "struct S; impl S { const F: fn() = || {}; }",
        "trait T { const F: fn() = || {}; }",
        // Macro calls: at item level, in impl and trait bodies, extern blocks, initialisers,
        // types, patterns and attributes.
        "thread_local! { static X: u8 = 1; }",
        "lazy_static! { static ref X: u8 = 1; }",
        "include!(\"generated.rs\");",
        "core::arch::global_asm!(\"nop\");",
        "struct S; impl S { my_macro!(); }",
        "trait T { my_macro!(); }",
        "extern \"C\" { my_macro!(); }",
        "const C: u8 = some_macro!(1);",
        "const C: u8 = { my_items!(); 1 };",
        "const C: u8 = my::concat!(1);",
        "const C: u8 = a::b::concat!(1);",
        "static V: Vec<u8> = vec![];",
        "type T = my_type!();",
        "const C: u8 = match 1 { my_pat!() => 1, _ => 2 };",
        "#[doc = my_docs!()] struct S;",
        // Attribute macros, on items, impl, trait and extern items.
        "#[my_attr] struct S;",
        "#[pyclass] pub struct S { x: u8 }",
        "#[wasm_bindgen] extern \"C\" { fn alert(s: &str); }",
        "struct S; impl S { #[generate] const C: u8 = 1; }",
        "struct S; impl S { #[generate] type X = u8; }",
        "trait T { #[generate] const C: u8; }",
        "trait T { #[generate] type X; }",
        "extern \"C\" { #[generate] fn f(); }",
        "extern \"C\" { #[generate] static S: u8; }",
        "extern \"C\" { #[generate] type T; }",
        "#[my_attr] macro_rules! m { () => {} }",
        "#[my_attr] extern crate x;",
        "#[my_attr] trait A = B;",
        "#[my_attr] union U { a: u8 }",
        "#[my_attr] enum E { A }",
        "#[my_attr] trait T {}",
        "#[cfg_attr(feature = \"py\", pyclass)] pub struct S;",
        "#[cfg_attr(a, cfg_attr(b, my_attr))] struct S;",
        "#[cfg_attr] struct S;",
        "#[cfg_attr(a b)] struct S;",
        // Verbatim tokens: a `macro` 2.0 definition, an extern item with a body, unstable
        // syntax in impls, traits, expressions and types.
        "pub macro m() {}",
        "extern \"C\" { fn f() {} }",
        "unsafe extern \"C\" { safe fn f() {} }",
        "unsafe extern \"C\" { safe static S: [u8; { 1 }]; }",
        "struct S; impl S { type X; }",
        "trait T { pub type X; }",
        "const C: u8 = builtin # offset_of(S, x);",
        "type T = dyn* Send;",
    ];

    #[test]
    fn sources_without_code_are_no_code() {
        for text in NO_CODE {
            assert_eq!(classify(text), RustSource::NoCode, "{text}");
        }
    }

    #[test]
    fn anything_that_may_expand_to_a_body_is_code() {
        for text in HAS_CODE {
            assert_eq!(classify(text), RustSource::HasCode, "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_not_parsed() {
        // syn would overflow the stack on this (finding #14 of session 14).
        let deep = format!(
            "pub const X: u8 = {}1{};\n",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        assert_eq!(
            classify(&deep),
            RustSource::Unparsable(
                "line 1: nested deeper than 1000 levels of brackets and operators, which covgate \
                 does not parse"
                    .to_string()
            )
        );
        // Just under the limit, the parse runs on its own stack (this test's thread would not
        // hold it in a debug build).
        let fine = format!(
            "pub const X: u8 = {}1{};\n",
            "(".repeat(990),
            ")".repeat(990)
        );
        assert_eq!(classify(&fine), RustSource::NoCode);
        let chain = format!("pub const X: u8 = 1{};\n", " + 1".repeat(490));
        assert_eq!(classify(&chain), RustSource::NoCode);
    }

    #[test]
    fn a_parse_that_cannot_start_or_fails_is_an_error() {
        let e = on_stack(1 << 60, || ()).expect_err("no such stack");
        assert!(e.starts_with("cannot start the parse: "), "{e}");
        let e = on_stack(PARSE_STACK, || -> () { panic!("syn") }).expect_err("panicked");
        assert_eq!(e, "the parse failed");
    }

    #[test]
    fn parse_errors_name_the_position() {
        match classify("fn f( {") {
            RustSource::Unparsable(msg) => assert!(msg.starts_with("line 1:"), "{msg}"),
            other => panic!("expected Unparsable, got {other:?}"),
        }
    }
}
