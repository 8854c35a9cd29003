//! Deciding whether a Rust source file can carry coverage at all (the "no code" status).
//!
//! A file that no report mentions is unmeasured unless it holds nothing instrumentable: only
//! `mod`, `use`, type, trait (without default bodies), const, static, `extern` block and
//! `macro_rules!` items. Anything with a body that rustc instruments — a function, a method, a
//! trait method with a default body, a closure in an initialiser — or an item-level macro call
//! (which may expand to functions) counts as code. The decision is made with `syn`.

pub(crate) mod c;

use syn::visit::Visit;

/// What a Rust source file holds, as far as coverage is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RustSource {
    /// Nothing rustc would instrument.
    NoCode,
    /// At least one function body, closure or item-level macro call.
    HasCode,
    /// The text does not parse as a Rust file; the message says where.
    Unparsable(String),
}

/// Classifies Rust source text.
pub(crate) fn classify(text: &str) -> RustSource {
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
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
        self.found = true;
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        // `macro_rules! name { … }` defines a macro (its uses are counted where they expand);
        // any other item-level macro call may expand to functions.
        self.found |= item.ident.is_none();
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        // Tokens syn keeps verbatim (unstable syntax) may hold anything: count them as code.
        self.found |= matches!(item, syn::Item::Verbatim(_));
        syn::visit::visit_item(self, item);
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

    #[test]
    fn bodies_closures_and_macro_calls_are_code() {
        assert_eq!(classify("fn f() {}"), RustSource::HasCode);
        assert_eq!(
            classify("struct S; impl S { fn f(&self) {} }"),
            RustSource::HasCode
        );
        assert_eq!(classify("trait T { fn f(&self) {} }"), RustSource::HasCode);
        assert_eq!(classify("static F: fn() = || {};"), RustSource::HasCode);
        assert_eq!(
            classify("thread_local! { static X: u8 = 1; }"),
            RustSource::HasCode
        );
        assert_eq!(classify("mod inner { pub fn f() {} }"), RustSource::HasCode);
    }

    #[test]
    fn parse_errors_name_the_position() {
        match classify("fn f( {") {
            RustSource::Unparsable(msg) => assert!(msg.starts_with("line 1:"), "{msg}"),
            other => panic!("expected Unparsable, got {other:?}"),
        }
    }
}
