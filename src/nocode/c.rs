//! Deciding whether a C or C++ source file (`.c`, `.h`, `.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`,
//! `.hxx`, `.inl`) holds any code that clang would instrument (the "no code" status).
//!
//! clang writes a coverage mapping for every function body it compiles (a definition, an inline
//! or `static inline` function, a member function defined in its class, a template, a lambda),
//! and nothing for declarations: prototypes, `extern` declarations, typedefs, struct, union, enum
//! and class definitions without member function bodies, and macro definitions (a macro's code
//! is counted where it expands). A header of declarations is therefore in no report; a file with
//! any function body has code.
//!
//! The question is narrow (is there any function body?), so it is answered in one pass over the
//! bytes (in memory that grows only with the names of the macros the file defines with a `{`),
//! without preprocessing: comments, string and character literals (raw strings too) and
//! preprocessor lines are skipped, and a `{` is a function body when it follows a parameter
//! list `(…)` (with qualifiers such as `const`, `noexcept`, `override`, a trailing return type or
//! a constructor's initialisers in between) or opens a lambda. An operator function's symbol
//! (`operator==`, `operator<<`, `operator()`) is part of its name, not an initialiser's `=` or a
//! template's `<`. A parenthesised group that follows `__attribute__`, `__declspec`, `alignas`
//! or `_Alignas` is not a parameter list, and neither is a group inside an initialiser
//! (`= (T){…}` is a compound literal).
//!
//! The rule errs on the side of code: a statement that begins `NAME(…)` outside a function is a
//! macro call that may define functions (`DEFINE_HANDLER(foo)`, `TEST(a, b)`, with or without
//! `;`), unless it is the start of a declaration with a macro for its type: a name or `*` follows
//! and the statement ends like a declaration, with `;`, `=` or `{` (`API(int) f(void);`,
//! `ElfW(Addr) addr;`; a name on a later line needs a parameter list, so `DEFINE(a)` and then
//! `foo_t x;` is a macro call), not with a `}`, the end of the text or a word that begins
//! another statement (`int`, `struct`, `static`). Keywords with an operand (`static_assert(…)`,
//! `decltype(…)`, `_Pragma(…)`, `asm(…)`), built-in type names and function pointers
//! (`my_t (*fp)(int);`) begin no such statement. In a class, `NAME(…)` followed by `;`, `=`,
//! `:`, `{` or qualifiers is a constructor's declaration; storage classes and qualifiers before
//! `NAME(…)` change nothing (`static DEFINE_OP(add, +)` is a macro call). Macro calls in an
//! `enum` or an initialiser expand to values.
//!
//! No code is said only when every construct at file, namespace and class level is recognised
//! as a declaration; anything else counts as code ([`CSource::Unrecognised`]), since it may be
//! (erring on the side of code, a declarations-only file may be called code, never the reverse):
//!
//! - a construct that does not end like a declaration, with `;` (or a namespace's `}`), at the
//!   end of the text or of its namespace or class (`T DEFINE_OP(mul, *)`, an object-like macro
//!   `F` that expands to a definition, `struct S { F };`);
//! - a parameter list followed by a word that begins a declaration (`T M(x)` then `int y;`; a
//!   K&R definition `int f(a) int a; {`);
//! - a first word that is no keyword, alone before `;` (`DECLARE_STUFF;`) or, at file or
//!   namespace level, followed on a later line by a word that begins a declaration
//!   (`IMPLEMENT_TESTS` then `int x;`);
//! - a `{` that no `struct`, `class`, `union`, `enum`, `namespace` or `extern` declares and
//!   that follows neither a name nor an array's `]` (a brace initialiser, `S s{1};`): after
//!   `;` (a K&R parameter's declaration), `>` (a trailing return type), `]]` (an attribute) it
//!   is a function body;
//! - a preprocessor conditional (`#if`, `#ifdef`, `#else`, `#endif`, …) inside a declaration,
//!   which may hide its end or its body (`int f(int a)` / `#ifdef X` / `;` / `#else` / `{…}`);
//!   in an `enum` or an initialiser's braces it only chooses values;
//! - a use of a macro that the file itself `#define`s with a `{` in its expansion, outside an
//!   initialiser or an `enum` (`#define F int f(void) { … }` then `F int x;`);
//! - a digraph or trigraph (`<%`, `%>`, `<:`, `??<`), and text that ends inside braces or
//!   parentheses.
//!
//! The scan does not preprocess: text inside `#if 0` is read like any other, so it can only make
//! a file count as code, never hide code.

mod lex;
mod scanner;
mod words;

use scanner::{Last, Scanner, Statement, Token};

use lex::{
    is_conditional, is_digraph, is_raw_prefix, is_word_byte, skip_block_comment, skip_directive,
    skip_line, skip_operator_symbol, skip_quoted, skip_raw_string, word_end,
};

/// What a C or C++ source file holds, as far as coverage is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CSource {
    /// No function body: nothing clang would instrument.
    NoCode,
    /// A function body (or a lambda) starts at this 1-based line.
    HasCode(u64),
    /// A macro call that may define functions (`DEFINE_HANDLER(foo)` outside a function) is
    /// seen at this 1-based line.
    MacroCall(u64),
    /// A construct that begins at this 1-based line is not recognised as a declaration (the
    /// text says what it is): it may be code, so it counts as code.
    Unrecognised(u64, &'static str),
    /// The text ends inside a comment or a raw string literal; the message says where it began.
    Unparsable(String),
}

/// The file name extensions read as C or C++ (compared without regard to case).
pub(crate) const EXTENSIONS: [&str; 9] = ["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "inl"];

/// Whether `extension` (without the dot) names a C or C++ source.
pub(crate) fn is_c_family(extension: &str) -> bool {
    EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(extension))
}

/// What kind of file a text comes from: the rule for a name after a parameter list depends on
/// it (attribute macros such as `NORETURN` or `__THROW` belong in headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// A header (`.h`, `.hpp`, `.hh`, `.hxx`, `.inl`): `int f(void) NAME;` is a declaration
    /// with an attribute macro, except for a qualified name outside a class or a `static`
    /// function.
    Header,
    /// A file compiled on its own (`.c`, `.cc`, `.cpp`, `.cxx`): `int f(void) NAME;` may be a
    /// definition whose body is the macro `NAME` (a stray `;` after a body is valid).
    Source,
}

/// The header extensions among [`EXTENSIONS`].
const HEADER_EXTENSIONS: [&str; 5] = ["h", "hpp", "hh", "hxx", "inl"];

/// The kind of file that `extension` (without the dot, any case) names: a header for the
/// [`HEADER_EXTENSIONS`], a source for anything else.
pub(crate) fn unit_of(extension: &str) -> Unit {
    if HEADER_EXTENSIONS
        .iter()
        .any(|e| e.eq_ignore_ascii_case(extension))
    {
        Unit::Header
    } else {
        Unit::Source
    }
}

/// Classifies C or C++ source text (bytes; any encoding that keeps ASCII as ASCII) from a file
/// of the kind `unit`.
pub(crate) fn classify(text: &[u8], unit: Unit) -> CSource {
    // A lone CR ends a line for clang and GCC: a directive or `//` comment ends there.
    let lines = crate::text::lone_cr_as_lf(text);
    let text: &[u8] = &lines;
    let mut s = Scanner::new(unit);
    let mut i = 0;
    let mut line_start = true;
    while let Some(&b) = text.get(i) {
        let next = text.get(i + 1).copied();
        let start_line = s.line;
        let literal = match s.last {
            Last::Word { number, .. } => b == b'"' || (b == b'\'' && !number),
            _ => b == b'"' || b == b'\'',
        };
        if b == b'#' && line_start {
            if s.in_declaration() && is_conditional(text, i + 1) {
                return CSource::Unrecognised(
                    s.line,
                    "a preprocessor conditional inside a declaration",
                );
            }
            s.note_define(text, i + 1);
        }
        let skipped = match (b, next) {
            (b'/', Some(b'/')) => Some((skip_line(text, i, &mut s.line), true)),
            (b'/', Some(b'*')) => Some((skip_block_comment(text, i, &mut s.line), line_start)),
            (b'#', _) if line_start => Some((skip_directive(text, i, &mut s.line), true)),
            _ if literal => Some((skip_quoted(text, i, b, &mut s.line), false)),
            _ => None,
        };
        if let Some((end, at_line_start)) = skipped {
            if end == usize::MAX {
                return CSource::Unparsable(format!(
                    "a comment that begins on line {start_line} never ends"
                ));
            }
            if literal {
                s.begin(start_line);
                s.token(Last::Other);
                s.statement = Statement::Later;
                if s.follow_call(Token::Literal) {
                    return CSource::MacroCall(s.call_line);
                }
            }
            line_start = at_line_start;
            i = end;
            continue;
        }
        line_start = line_start && b.is_ascii_whitespace() || b == b'\n';
        s.line += u64::from(b == b'\n');
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        s.begin(s.line);
        if is_word_byte(b) {
            let end = word_end(text, i);
            let word = text.get(i..end).unwrap_or_default();
            if text.get(end) == Some(&b'"') && is_raw_prefix(word) {
                let Some(after) = skip_raw_string(text, end, &mut s.line) else {
                    return CSource::Unparsable(format!(
                        "a raw string literal that begins on line {start_line} never ends, or its \
                         delimiter is not one (at most 16 characters, no space, `)`, `\\` or `\"`)"
                    ));
                };
                s.token(Last::Other);
                s.statement = Statement::Later;
                if s.follow_call(Token::Literal) {
                    return CSource::MacroCall(s.call_line);
                }
                i = after;
                continue;
            }
            s.qualified_word = text.get(i.wrapping_sub(2)..i) == Some(b"::".as_slice());
            if s.word(word) {
                return CSource::MacroCall(s.call_line);
            }
            if let Some((line, what)) = s.unrecognised {
                return CSource::Unrecognised(line, what);
            }
            i = if word == b"operator" {
                skip_operator_symbol(text, end, &mut s.line)
            } else {
                end
            };
            continue;
        }
        if is_digraph(text, i) {
            return CSource::Unrecognised(s.line, "a digraph or trigraph");
        }
        if s.punct(b, next) {
            return if b == b'{' {
                CSource::HasCode(s.line)
            } else {
                CSource::MacroCall(s.call_line)
            };
        }
        if let Some((line, what)) = s.unrecognised {
            return CSource::Unrecognised(line, what);
        }
        i += if b == b'-' && next == Some(b'>') {
            2
        } else {
            1
        };
    }
    if s.follow_call(Token::End) {
        return CSource::MacroCall(s.call_line);
    }
    if s.statement != Statement::Start {
        return CSource::Unrecognised(s.begun, "a construct that does not end like a declaration");
    }
    // (Groups and braces beyond those remembered come after full stacks.)
    if !s.groups.is_empty() || !s.scopes.is_empty() {
        return CSource::Unrecognised(s.line, "the text ends inside braces or parentheses");
    }
    CSource::NoCode
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "c_tests.rs"]
mod tests;
