//! A function's identity across the copies and instantiations llvm-cov writes one record each.

use crate::demangle::demangle_rust;

/// A function's identity across copies and instantiations: a Rust symbol demangled without its
/// hash and without generic arguments (`::<…>`); an Itanium C++ symbol (`_Z…`, also after
/// llvm-cov's `file.cpp:` prefix of a static function) demangled to its qualified name without
/// parameters, return type and template arguments; any other name (or a symbol too long to
/// demangle) unchanged. llvm-cov writes one `FN` per instantiation and per binary, all of one
/// source function (one group in its counts); names that other writers demangle themselves
/// (gcovr: `void foo<int>(int)`) stay apart, as those writers count them.
pub(super) fn function_identity(name: &str) -> String {
    let demangled = demangle_rust(name)
        .or_else(|| cpp_base_name(name))
        .unwrap_or_else(|| name.to_string());
    let mut out = String::with_capacity(demangled.len());
    let mut depth = 0usize;
    let mut rest = demangled.as_str();
    while let Some(c) = rest.chars().next() {
        if depth == 0 && rest.starts_with("::<") {
            depth = 1;
            rest = &rest[3..];
            continue;
        }
        match (depth, c) {
            (0, _) => out.push(c),
            (_, '<') => depth += 1,
            (_, '>') => depth -= 1,
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    out
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
        .map(|text| without_templates(&text))
}

/// `text` without its template arguments (every `<…>`, nested ones included).
fn without_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
