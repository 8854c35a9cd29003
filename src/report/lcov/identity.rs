//! A function's identity across the copies and instantiations llvm-cov writes one record each.
//!
//! llvm-cov groups a file's function records by the position where the function starts (line and
//! column: the instantiations of a template or a generic, the copies built into several
//! binaries) and counts each group as one function. An LCOV `FN` record gives the start line but
//! no column, so the records on one line are told apart by their names with the instantiation
//! taken out ([`function_identity`]): records with one start line and one identity are one
//! function. Taking the instantiation out must neither keep two instantiations apart nor cut a
//! name short (`operator<` and `operator<<` are different functions).

use crate::demangle::demangle_rust;

/// A function's identity across copies and instantiations: a Rust symbol demangled without its
/// hash and without generic arguments (`f::<u8>`, `Vec<u8>`; a qualified path `<S as T>` keeps
/// its brackets); an Itanium C++ symbol (`_Z…`, also after llvm-cov's `file.cpp:` prefix of a
/// static function) demangled to its qualified name without parameters, return type and
/// template arguments (an operator's symbol kept: `S::operator<<`, `S::operator->`); any other
/// name of a function with internal linkage as clang names it (`h.c:pick`, the file that
/// compiled a `static` function before its name: [`clang_local`]) without that prefix; any other
/// name without `::<…>` (or a symbol too long to demangle) otherwise unchanged. llvm-cov writes
/// one `FN` per instantiation and per binary, all of one source function (one group in its
/// counts); names that other writers demangle themselves (gcovr: `void foo<int>(int)`) stay
/// apart, as those writers count them.
pub(super) fn function_identity(name: &str) -> String {
    if let Some(rust) = demangle_rust(name) {
        return without_arguments(&rust, Syntax::Rust);
    }
    if let Some(cpp) = cpp_base_name(name) {
        return cpp;
    }
    match clang_local(name) {
        Some(local) => local.to_string(),
        None => without_arguments(name, Syntax::Other),
    }
}

/// True for a name that only LLVM's coverage writes (or its demanglers): a rustc symbol, a
/// demangled Rust instantiation ([`rust_instance`]), clang's name of a `static` C function
/// ([`clang_local`]). Records so named on one line with one identity are copies or
/// instantiations of one function, whoever rewrote the tracefile; gcov writes none of them.
pub(super) fn llvm_only(name: &str) -> bool {
    demangle_rust(name).is_some() || clang_local(name).is_some() || rust_instance(name)
}

/// The name of a C function with internal linkage as LLVM's coverage names it, its PGO name
/// `<file>:<name>` (`a.c:pick`: a `static inline` function of a header has one such copy per
/// file that includes it): the part after the file, when it is a C identifier and the file
/// part is not empty and does not end in `:` (a C++ `ns::f`). No other writer names a function
/// so (gcov writes `pick`), so two such records on one line are copies of one function.
pub(super) fn clang_local(name: &str) -> Option<&str> {
    let (file, local) = name.rsplit_once(':')?;
    let mut chars = local.chars();
    let first = chars.next()?;
    let identifier = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    (identifier && !file.is_empty() && !file.ends_with(':')).then_some(local)
}

/// True for a demangled Rust instantiation of a generic, as `rustfilt` or `grcov --demangle`
/// write rustc's symbols: its path has generic arguments after `::` (`lg::pick::<u8>`,
/// `<lg::S>::get::<u16>`), which only Rust's turbofish writes (a demangled C++ name writes
/// `pick<int>`, gcovr `int pick<int>(int, int)`).
pub(super) fn rust_instance(name: &str) -> bool {
    name.contains("::<")
}

/// An Itanium C++ symbol, possibly after a `file:` prefix, as its qualified name without
/// parameters, return type and template arguments (`_Z4pickIiiET_S0_T0_` → `pick`).
fn cpp_base_name(name: &str) -> Option<String> {
    let at = name.find("_Z")?;
    let (prefix, mangled) = name.split_at(at);
    if !(prefix.is_empty() || prefix.ends_with(':')) {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(mangled).ok()?;
    let options = cpp_demangle::DemangleOptions::new()
        .no_params()
        .no_return_type();
    symbol
        .demangle_with_options(&options)
        .ok()
        .map(|text| without_arguments(&text, Syntax::Cpp))
}

/// How a name writes its generic or template arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    /// A demangled C++ name: every `<…>` is a template argument list, except the symbol of an
    /// operator (`operator<`, `operator<<=`, `operator->`, `operator<=>`).
    Cpp,
    /// A demangled Rust name: a `<` after a name or after `::` opens generic arguments
    /// (`f::<u8>`, `Vec<u8>`); any other `<` opens a qualified path (`<S as T>::f`), kept.
    Rust,
    /// Any other name: only `::<` opens generic arguments.
    Other,
}

/// The symbols of C++ operators that hold `<` or `>`, longest first.
const ANGLE_OPERATORS: [&str; 11] = [
    "<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "<", ">",
];

/// `text` without its generic or template argument lists (nested ones included; a `::` before
/// one goes with it). Inside an argument list, `<` and `>` count only outside parentheses,
/// brackets and braces (`f<((1)>(2))>`), the `>` of `->` does not count (`fn() -> u8`), nor
/// does a Rust character (`f::<'>'>`).
fn without_arguments(text: &str, syntax: Syntax) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut nested = 0usize;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let taken = if depth > 0 {
            skip_in_arguments(rest, &mut depth, &mut nested)
        } else if let Some(symbol) = operator_symbol(rest, &out, syntax) {
            out.push_str(symbol);
            symbol.len()
        } else if c == '<' && opens_arguments(&out, syntax) {
            if out.ends_with("::") {
                out.truncate(out.len() - 2);
            }
            depth = 1;
            1
        } else {
            out.push(c);
            c.len_utf8()
        };
        rest = rest.get(taken..).unwrap_or_default();
    }
    out.truncate(out.trim_end().len());
    out
}

/// The operator symbol at the start of `rest` when `out` ends with the word `operator` (C++).
fn operator_symbol<'a>(rest: &'a str, out: &str, syntax: Syntax) -> Option<&'a str> {
    let before = out.strip_suffix("operator")?;
    let word = before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
    if syntax != Syntax::Cpp || word {
        return None;
    }
    let length = ANGLE_OPERATORS
        .iter()
        .find(|symbol| rest.starts_with(**symbol))?
        .len();
    rest.get(..length)
}

/// Whether a `<` after `out` opens an argument list.
fn opens_arguments(out: &str, syntax: Syntax) -> bool {
    let after_name = out.ends_with(|c: char| c.is_alphanumeric() || c == '_');
    match syntax {
        Syntax::Cpp => true,
        Syntax::Rust => after_name || out.ends_with("::"),
        Syntax::Other => out.ends_with("::"),
    }
}

/// How many bytes of `rest`, inside an argument list, make one step: `->`, a Rust character,
/// or one character (which may open or close a list or a nested group).
fn skip_in_arguments(rest: &str, depth: &mut usize, nested: &mut usize) -> usize {
    if rest.starts_with("->") {
        return 2;
    }
    if let Some(length) = char_literal(rest) {
        return length;
    }
    let c = rest.chars().next().unwrap_or_default();
    match c {
        '(' | '[' | '{' => *nested += 1,
        ')' | ']' | '}' => *nested = nested.saturating_sub(1),
        '<' if *nested == 0 => *depth += 1,
        '>' if *nested == 0 => *depth -= 1,
        _ => {}
    }
    c.len_utf8()
}

/// The length of a character literal at the start of `text` (`'>'`, `'\''`, `'\u{3e}'`), as
/// Rust writes a `char` constant argument; `None` for anything else (a lifetime `'_`).
fn char_literal(text: &str) -> Option<usize> {
    let body = text.strip_prefix('\'')?;
    let mut chars = body.char_indices();
    let (_, first) = chars.next()?;
    let end = if first == '\\' {
        body.get(2..)?.find('\'')? + 2
    } else {
        let (at, quote) = chars.next()?;
        (quote == '\'').then_some(at)?
    };
    Some(end + 2)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn cpp_operators_keep_their_symbols() {
        for (mangled, identity) in [
            ("_ZlsRSoRK1S", "operator<<"),
            ("_ZN1SltERKS_", "S::operator<"),
            ("_ZN1SgtEi", "S::operator>"),
            ("_ZN1SleERKS_", "S::operator<="),
            ("_ZN1SrsEi", "S::operator>>"),
            ("_ZN1SssERKS_", "S::operator<=>"),
            ("_ZN1SptEv", "S::operator->"),
            ("_ZN1SpmEi", "S::operator->*"),
            ("_ZN1SclEi", "S::operator()"),
            ("_ZN1SixEi", "S::operator[]"),
            ("_ZN1SIiEcvbEv", "S::operator bool"),
            // Instantiations of template operators and of operators of class templates.
            ("_ZN1SlsIiEERS_T_", "S::operator<<"),
            ("_ZN1SltIiEEbRKS_", "S::operator<"),
            ("_ZN1SIiEclEv", "S::operator()"),
            ("_ZN1SIiEptEv", "S::operator->"),
            // Template arguments that are expressions or name an operator.
            ("_Z1fIXgtLi1ELi2EEEvv", "f"),
            ("_ZN1SIXgtLi1ELi2EEE1fEv", "S::f"),
            ("_Z1fIXadL_ZN1SltERKS_EEEvv", "f"),
            ("t.cpp:_ZL6unusedi", "unused"),
        ] {
            assert_eq!(function_identity(mangled), identity, "{mangled}");
        }
        // Words that end in `operator` are names, not operators.
        assert_eq!(
            without_arguments("my_operator<int>", Syntax::Cpp),
            "my_operator"
        );
    }

    #[test]
    fn static_c_functions_lose_their_file() {
        for (name, identity) in [
            ("a.c:pick", "pick"),
            ("src/x/b.c:_pick2", "_pick2"),
            ("C:\\w\\a.c:pick", "pick"),
        ] {
            assert_eq!(clang_local(name), Some(identity), "{name}");
            assert_eq!(function_identity(name), identity, "{name}");
        }
        // Not clang's name of a static function: a C++ scope, no file, no identifier.
        for name in ["ns::f", ":f", "a.c:", "a.c:2f", "a.c:f()", "pick"] {
            assert_eq!(clang_local(name), None, "{name}");
        }
        assert_eq!(function_identity("ns::f"), "ns::f");
    }

    #[test]
    fn rust_generic_arguments_go_whole() {
        for (mangled, identity) in [
            ("_RINvC1a1fhE", "a::f"),
            // `a::f::<fn() -> u8>`: the `>` of `->` closes nothing.
            ("_RINvC1a1fFEhE", "a::f"),
            // `a::f::<'>'>` and `a::f::<'\''>`: characters as const arguments.
            ("_RINvC1a1fKc3e_E", "a::f"),
            ("_RINvC1a1fKc27_E", "a::f"),
            // `<a::S<u8> as a::T>::f`: the type's arguments go, the qualified path stays.
            ("_RNvYINtC1a1ShENtC1a1T1f", "<a::S as a::T>::f"),
            ("_RNvYINtC1a1StENtC1a1T1f", "<a::S as a::T>::f"),
        ] {
            assert_eq!(function_identity(mangled), identity, "{mangled}");
        }
        // Names written demangled: `::<…>` goes, with `->`, nesting and brackets in it.
        assert_eq!(function_identity("a::<fn() -> u8>::b"), "a::b");
        assert_eq!(function_identity("a::<[u8; 2], (u8, u8)>::b"), "a::b");
        assert_eq!(function_identity("a::<Vec<u8>>::b::<u8>"), "a::b");
        assert_eq!(function_identity("a<b>"), "a<b>");
        assert_eq!(function_identity("a::operator::<u8>"), "a::operator");
        assert_eq!(
            function_identity("void foo<int>(int)"),
            "void foo<int>(int)"
        );
        // A lifetime is no character.
        assert_eq!(
            without_arguments("a::<&'_ u8, '>'>::b", Syntax::Rust),
            "a::b"
        );
        assert_eq!(char_literal("'_ u8"), None);
        assert_eq!(char_literal("'"), None);
        assert_eq!(char_literal("'a"), None);
        assert_eq!(char_literal("'\\"), None);
        assert_eq!(char_literal("'\\nx"), None);
        assert_eq!(
            without_arguments("xoperator<int>", Syntax::Cpp),
            "xoperator"
        );
        assert_eq!(without_arguments("f<(1<2)>::g", Syntax::Cpp), "f::g");
        assert_eq!(char_literal("'\\u{3e}'"), Some(8));
    }
}
