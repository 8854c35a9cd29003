//! The vocabulary of the C and C++ no-code scan ([`super::classify`]): keywords, built-in type
//! names, attribute and qualifier words, and what each list means to the scanner.

/// Words before a parenthesised group that is not a parameter list (attributes, and a
/// `requires` clause's condition or parameters).
pub(super) const ATTRIBUTE_WORDS: [&[u8]; 6] = [
    b"__attribute__",
    b"__attribute",
    b"__declspec",
    b"alignas",
    b"_Alignas",
    b"requires",
];

/// Words before a parenthesised group that is a whole statement without `;` (`_Pragma("once")`).
pub(super) const PRAGMA_WORDS: [&[u8]; 2] = [b"_Pragma", b"__pragma"];

/// Storage classes and qualifiers: first in a statement, the word after them is still the one
/// that may name a macro (`static DEFINE_OP(add, +)` is a macro call, as `DEFINE_OP(add, +)`).
pub(super) const SPECIFIER_WORDS: [&[u8]; 14] = [
    b"static",
    b"extern",
    b"inline",
    b"__inline",
    b"__inline__",
    b"const",
    b"volatile",
    b"constexpr",
    b"consteval",
    b"constinit",
    b"thread_local",
    b"_Thread_local",
    b"register",
    b"__extension__",
];

/// Words that begin a declaration: after them, a `{` opens no function body until another
/// parameter list closes (`FOO(x)` without `;`, then `struct S {`).
pub(super) const DECLARATION_WORDS: [&[u8]; 11] = [
    b"struct",
    b"class",
    b"union",
    b"enum",
    b"namespace",
    b"typedef",
    b"extern",
    b"static",
    b"inline",
    b"template",
    b"using",
];

/// The built-in type names of C and C++: a statement that begins with one is a declaration,
/// and after `NAME(…)` one shows that the macro call stood alone.
pub(super) const TYPE_WORDS: [&[u8]; 17] = [
    b"void",
    b"char",
    b"short",
    b"int",
    b"long",
    b"float",
    b"double",
    b"signed",
    b"unsigned",
    b"bool",
    b"_Bool",
    b"auto",
    b"wchar_t",
    b"char8_t",
    b"char16_t",
    b"char32_t",
    b"__int128",
];

/// True when `word` begins a declaration: one of [`DECLARATION_WORDS`], [`STATEMENT_WORDS`]
/// or [`TYPE_WORDS`].
pub(super) fn begins_statement(word: &[u8]) -> bool {
    in_any(&[&DECLARATION_WORDS, &STATEMENT_WORDS, &TYPE_WORDS], word)
}

/// True for the conventional macros that open and close a header's C linkage block
/// (`__BEGIN_DECLS`, `G_BEGIN_DECLS`, `BEGIN_C_DECLS`, and their `END` forms: glibc, GLib,
/// gnulib), which expand to `extern "C" {` / `}` in C++ and to nothing in C.
pub(super) fn is_decls_bracket(word: &[u8]) -> bool {
    let word = word.strip_prefix(b"__").unwrap_or(word);
    let word = word.strip_prefix(b"G_").unwrap_or(word);
    matches!(
        word,
        b"BEGIN_DECLS" | b"END_DECLS" | b"BEGIN_C_DECLS" | b"END_C_DECLS"
    )
}

/// True when `word` is a keyword (or a built-in type name, an attribute word) of any list here.
pub(super) fn is_keyword(word: &[u8]) -> bool {
    begins_statement(word)
        || in_any(
            &[
                &NOT_CALL_WORDS,
                &QUALIFIER_WORDS,
                &SPECIFIER_WORDS,
                &ATTRIBUTE_WORDS,
                &PRAGMA_WORDS,
            ],
            word,
        )
}

/// True when `word` is in one of `lists`.
pub(super) fn in_any(lists: &[&[&[u8]]], word: &[u8]) -> bool {
    lists.iter().any(|list| list.contains(&word))
}

/// Words that, first in a statement, are followed by a group that is no macro's arguments:
/// keywords taking a parenthesised operand (and the [`TYPE_WORDS`]: `int (*fp)(int);`).
pub(super) const NOT_CALL_WORDS: [&[u8]; 18] = [
    b"static_assert",
    b"_Static_assert",
    b"decltype",
    b"typeof",
    b"typeof_unqual",
    b"__typeof__",
    b"__typeof",
    b"_Atomic",
    b"_Pragma",
    b"__pragma",
    b"asm",
    b"__asm__",
    b"__asm",
    b"operator",
    b"explicit",
    b"sizeof",
    b"alignof",
    b"_Alignof",
];

/// Words that begin a statement (besides [`DECLARATION_WORDS`] and [`TYPE_WORDS`]): after
/// `NAME(…)`, they show that the macro call stood alone.
const STATEMENT_WORDS: [&[u8]; 10] = [
    b"public",
    b"private",
    b"protected",
    b"friend",
    b"virtual",
    b"explicit",
    b"constexpr",
    b"consteval",
    b"constinit",
    b"typename",
];

/// Words that may follow a member's parameter list in a declaration (`S() const noexcept;`).
pub(super) const QUALIFIER_WORDS: [&[u8]; 6] = [
    b"const",
    b"volatile",
    b"noexcept",
    b"override",
    b"final",
    b"throw",
];
