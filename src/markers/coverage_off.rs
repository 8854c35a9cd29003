//! Rust's `coverage(off)` attribute in a source file: each item it takes out of the coverage
//! report, found in the file's code only ([`super::lexer::code`]: a `coverage(off)` in a comment
//! or a string is text), and whether that item is test code.
//!
//! Counted: `#[coverage(off)]`, `#![coverage(off)]`, and `coverage(off)` among the attributes of
//! a `cfg_attr(PREDICATE, …)`, whatever the predicate (nested `cfg_attr`s too); white space
//! inside the attribute does not matter. Test code is an item or module under `#[cfg(test)]`
//! (or `#[cfg(all(test, …))]`), a module or file whose inner attributes hold `#![cfg(test)]`,
//! and a file of a `tests`, `benches` or `examples` folder outside any `src` folder (cargo's
//! integration tests, benchmarks and examples). A module file declared `#[cfg(test)] mod x;`
//! elsewhere is not known to be test code from its own text.

use super::lexer::{self, Lang};

/// One `coverage(off)` attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OffItem {
    /// The line its attribute starts on (its `#`).
    pub line: u32,
    /// True when the item it is on is test code (see the module docs).
    pub in_tests: bool,
}

/// The `coverage(off)` attributes in the Rust source `text` of the root-relative `path`, in
/// file order.
pub fn find(path: &str, text: &str) -> Vec<OffItem> {
    let code = lexer::code(text, Lang::Rust);
    let mut walk = Walk {
        code: code.as_bytes(),
        pos: 0,
        line: 1,
        counted: 0,
        file: Scope {
            test: test_path(path),
            depth: 0,
        },
        blocks: Vec::new(),
        pending: Vec::new(),
        pending_test: false,
        item_test: false,
        found: Vec::new(),
    };
    walk.run();
    walk.found
}

/// True for a file of a `tests`, `benches` or `examples` folder that no `src` folder holds.
fn test_path(path: &str) -> bool {
    let folders: Vec<&str> = path.split('/').collect();
    let folders = folders.split_last().map_or(&[][..], |(_, folders)| folders);
    let before_src = folders.split(|f| *f == "src").next().unwrap_or_default();
    before_src
        .iter()
        .any(|f| matches!(*f, "tests" | "benches" | "examples"))
}

/// A block (`{…}`) the walk is in: whether it is test code, and the brackets open in it.
#[derive(Debug, Clone, Copy)]
struct Scope {
    test: bool,
    depth: usize,
}

/// The walk over a file's code, attribute by attribute.
#[derive(Debug)]
struct Walk<'a> {
    code: &'a [u8],
    pos: usize,
    /// The line at `counted`, and the offset up to which line feeds are counted.
    line: u32,
    counted: usize,
    /// The file's own scope, and the blocks the walk is in, innermost last.
    file: Scope,
    blocks: Vec<Scope>,
    /// The `coverage(off)` attributes read since the last item began (line, inner), waiting for
    /// the item's other attributes (a `cfg(test)` may follow them).
    pending: Vec<(u32, bool)>,
    /// True when an outer attribute read since the last item began is `cfg(test)`.
    pending_test: bool,
    /// True from the start of a `cfg(test)` item to its block (or its `;`).
    item_test: bool,
    found: Vec<OffItem>,
}

impl Walk<'_> {
    fn run(&mut self) {
        while let Some(&byte) = self.code.get(self.pos) {
            if byte == b'#' {
                if let Some(end) = self.attribute() {
                    self.pos = end;
                    continue;
                }
            }
            self.pos += 1;
            if !byte.is_ascii_whitespace() {
                self.item_starts();
                self.token(byte);
            }
        }
        self.item_starts();
    }

    /// The walk's current block.
    fn scope(&mut self) -> &mut Scope {
        self.blocks.last_mut().unwrap_or(&mut self.file)
    }

    fn token(&mut self, byte: u8) {
        match byte {
            b'{' => {
                let test = self.scope().test || std::mem::take(&mut self.item_test);
                self.blocks.push(Scope { test, depth: 0 });
            }
            b'}' => {
                self.blocks.pop();
            }
            b'(' | b'[' => self.scope().depth += 1,
            b')' | b']' => {
                let scope = self.scope();
                scope.depth = scope.depth.saturating_sub(1);
            }
            b';' if self.scope().depth == 0 => self.item_test = false,
            _ => {}
        }
    }

    /// At the first token of an item (or expression) after its attributes: each pending
    /// `coverage(off)` is found, in test code when its block is, or (an outer one) when the
    /// item is `cfg(test)`.
    fn item_starts(&mut self) {
        let pending_test = std::mem::take(&mut self.pending_test);
        let scope_test = self.scope().test;
        for (line, inner) in std::mem::take(&mut self.pending) {
            let in_tests = scope_test || (!inner && pending_test);
            self.found.push(OffItem { line, in_tests });
        }
        self.item_test |= pending_test;
    }

    /// The attribute at `pos` (a `#`): read, and the offset after its `]`; `None` when no
    /// attribute starts there.
    fn attribute(&mut self) -> Option<usize> {
        let after_hash = self.code.get(self.pos + 1..).unwrap_or_default();
        let (inner, rest) = match skip_space(after_hash) {
            [b'!', rest @ ..] => (true, skip_space(rest)),
            rest => (false, rest),
        };
        let body = rest.strip_prefix(b"[")?;
        let length = closing(body)?;
        let text: String = body
            .get(..length)
            .unwrap_or_default()
            .iter()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| char::from(*b))
            .collect();
        let line = self.line_at(self.pos);
        for _ in 0..offs(&text) {
            self.pending.push((line, inner));
        }
        if cfg_test(&text) {
            if inner {
                self.scope().test = true;
            } else {
                self.pending_test = true;
            }
        }
        Some(self.code.len() - body.len() + length + 1)
    }

    /// The 1-based line of `offset` (not before the last one asked for).
    fn line_at(&mut self, offset: usize) -> u32 {
        let feeds = self.code.get(self.counted..offset).unwrap_or_default();
        let more = feeds.iter().filter(|b| **b == b'\n').count();
        self.line = (self.line).saturating_add(u32::try_from(more).unwrap_or(u32::MAX));
        self.counted = offset;
        self.line
    }
}

/// `bytes` without the white space it starts with.
fn skip_space(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes.get(start..).unwrap_or_default()
}

/// The length of an attribute's body up to its closing `]` (brackets of every kind nested);
/// `None` when it never closes.
fn closing(body: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in body.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b']' if depth == 0 => return Some(at),
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// How many `coverage(off)` an attribute (its text between the brackets, without white space)
/// applies: itself, or those among a `cfg_attr`'s attributes.
fn offs(attr: &str) -> usize {
    if attr == "coverage(off)" {
        return 1;
    }
    call_args(attr, "cfg_attr")
        .map_or_else(Vec::new, |args| args.into_iter().skip(1).collect())
        .into_iter()
        .map(offs)
        .sum()
}

/// True for `cfg(test)`, or a `cfg(all(…))` that requires `test`.
fn cfg_test(attr: &str) -> bool {
    call_args(attr, "cfg")
        .is_some_and(|args| matches!(args.as_slice(), [one] if requires_test(one)))
}

/// True for the predicate `test`, or an `all(…)` of which one is.
fn requires_test(predicate: &str) -> bool {
    predicate == "test"
        || call_args(predicate, "all").is_some_and(|args| args.iter().any(|a| requires_test(a)))
}

/// The arguments of `name(…)` (split at the commas outside brackets), when `text` is that call.
fn call_args<'t>(text: &'t str, name: &str) -> Option<Vec<&'t str>> {
    let inside = text
        .strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')?;
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in inside.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(inside.get(start..at).unwrap_or_default());
                start = at + 1;
            }
            _ => {}
        }
    }
    args.push(inside.get(start..).unwrap_or_default());
    Some(args)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    /// (line, in_tests) of each attribute found in `text` of `src/lib.rs`.
    fn found(text: &str) -> Vec<(u32, bool)> {
        found_in("src/lib.rs", text)
    }

    fn found_in(path: &str, text: &str) -> Vec<(u32, bool)> {
        find(path, text)
            .into_iter()
            .map(|o| (o.line, o.in_tests))
            .collect()
    }

    #[test]
    fn attribute_forms_are_counted() {
        let text = "#[coverage(off)]\nfn a() {}\n\
                    #[cfg_attr(coverage_nightly, coverage(off))]\nfn b() {}\n\
                    #[cfg_attr(any(unix, windows), inline, coverage ( off ))]\nfn c() {}\n\
                    #[cfg_attr(\n    feature = \"x\",\n    coverage(off),\n)]\nfn d() {}\n\
                    #[ cfg_attr(a, cfg_attr(b, coverage(off))) ]\nimpl S {}\n\
                    fn e() { let f = #[coverage(off)] || 1; }\n\
                    # [coverage(off)] mod m {}\n";
        assert_eq!(
            found(text),
            [
                (1, false),
                (3, false),
                (5, false),
                (7, false),
                (12, false),
                (14, false),
                (15, false)
            ]
        );
    }

    #[test]
    fn other_attributes_are_not() {
        let text = "#[coverage(on)]\nfn a() {}\n#[cfg_attr(coverage(off))]\n\
                    #[cfg(coverage(off))]\n#[inline] #[doc = \"#[coverage(off)]\"]\n\
                    fn b() -> u8 { let x = [1u8; 2]; x[0] }\n#[cfg_attr(x, coverage_off)]\n\
                    #[cfg_attribute(x, coverage(off))]\n#[tool([1, 2])]\n#[cfg_attr(x, coverage(off)) = 1]\n\
                    let r#coverage = 1; #coverage(off) #[open\n";
        assert_eq!(found(text), []);
    }

    #[test]
    fn comments_and_strings_only_mention_it() {
        let text = "// #[coverage(off)]\n/* #[coverage(off)] */\n/// #[coverage(off)]\n\
                    const S: &str = \"#[coverage(off)]\";\nconst R: &str = r#\"\n#[coverage(off)]\"#;\n\
                    #[coverage(/* on? */ off)]\nfn real() {}\n";
        assert_eq!(found(text), [(7, false)]);
    }

    #[test]
    fn inner_attributes_on_a_file_or_module() {
        assert_eq!(found("#![coverage(off)]\nfn a() {}\n"), [(1, false)]);
        let text = "//! docs\n#![cfg_attr(coverage_nightly, coverage(off))]\n#![cfg(test)]\n\
                    fn t() {}\n";
        assert_eq!(found(text), [(2, true)]);
        let text = "mod m {\n    #![coverage(off)]\n}\nmod t {\n    #![cfg(all(test, unix))]\n\
                    #![coverage(off)]\n    #[coverage(off)] fn t() {}\n}\n#[coverage(off)] fn u() {}\n";
        assert_eq!(found(text), [(2, false), (6, true), (7, true), (9, false)]);
    }

    #[test]
    fn test_modules_and_items_are_test_code() {
        let text = "#[cfg(test)]\n#[cfg_attr(coverage_nightly, coverage(off))]\nmod tests {\n\
                    #[coverage(off)]\n    fn helper(x: [u8; 2]) {}\n}\n\
                    #[cfg_attr(coverage_nightly, coverage(off))]\n#[cfg(test)]\nfn after(a: [u8; 1]) {\n\
                    let c = #[coverage(off)] || 1;\n}\n#[cfg(test)]\nuse x;\n\
                    #[coverage(off)]\nfn product() {}\n";
        assert_eq!(
            found(text),
            [(2, true), (4, true), (7, true), (10, true), (14, false)]
        );
        // Only `test` itself, or `all` requiring it, is test code.
        let text = "#[cfg(any(test, unix))]\n#[coverage(off)]\nfn a() {}\n\
                    #[cfg_attr(test, coverage(off))]\nfn b() {}\n#[cfg(not(test))]\n#[coverage(off)]\n\
                    fn c() {}\n#[cfg(test, unix)]\n#[coverage(off)]\nfn d() {}\n";
        assert_eq!(
            found(text),
            [(2, false), (4, false), (7, false), (10, false)]
        );
        // A stray `}` does not leave the file's scope.
        assert_eq!(found("}\n}\n#[coverage(off)] fn a() {}"), [(3, false)]);
    }

    #[test]
    fn files_of_tests_benches_and_examples_are_test_code() {
        let text = "#[coverage(off)]\nfn helper() {}\n";
        for (path, in_tests) in [
            ("tests/it/main.rs", true),
            ("crates/a/benches/b.rs", true),
            ("examples/demo.rs", true),
            ("src/tests/x.rs", false),
            ("crates/a/src/examples/x.rs", false),
            ("tests.rs", false),
        ] {
            assert_eq!(found_in(path, text), [(1, in_tests)], "{path}");
        }
    }
}
