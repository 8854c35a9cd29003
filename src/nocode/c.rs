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

use std::collections::HashSet;

mod lex;

use lex::{
    blanks, directive, is_conditional, is_digraph, is_raw_prefix, is_word_byte, skip_block_comment,
    skip_directive, skip_line, skip_operator_symbol, skip_quoted, skip_raw_string, word_end,
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

/// Words before a parenthesised group that is not a parameter list (attributes, and a
/// `requires` clause's condition or parameters).
const ATTRIBUTE_WORDS: [&[u8]; 6] = [
    b"__attribute__",
    b"__attribute",
    b"__declspec",
    b"alignas",
    b"_Alignas",
    b"requires",
];

/// Words before a parenthesised group that is a whole statement without `;` (`_Pragma("once")`).
const PRAGMA_WORDS: [&[u8]; 2] = [b"_Pragma", b"__pragma"];

/// Storage classes and qualifiers: first in a statement, the word after them is still the one
/// that may name a macro (`static DEFINE_OP(add, +)` is a macro call, as `DEFINE_OP(add, +)`).
const SPECIFIER_WORDS: [&[u8]; 14] = [
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
const DECLARATION_WORDS: [&[u8]; 11] = [
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
const TYPE_WORDS: [&[u8]; 17] = [
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
fn begins_statement(word: &[u8]) -> bool {
    in_any(&[&DECLARATION_WORDS, &STATEMENT_WORDS, &TYPE_WORDS], word)
}

/// True when `word` is a keyword (or a built-in type name, an attribute word) of any list here.
/// True for the conventional macros that open and close a header's C linkage block
/// (`__BEGIN_DECLS`, `G_BEGIN_DECLS`, `BEGIN_C_DECLS`, and their `END` forms: glibc, GLib,
/// gnulib), which expand to `extern "C" {` / `}` in C++ and to nothing in C.
fn is_decls_bracket(word: &[u8]) -> bool {
    let word = word.strip_prefix(b"__").unwrap_or(word);
    let word = word.strip_prefix(b"G_").unwrap_or(word);
    matches!(
        word,
        b"BEGIN_DECLS" | b"END_DECLS" | b"BEGIN_C_DECLS" | b"END_C_DECLS"
    )
}

fn is_keyword(word: &[u8]) -> bool {
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
fn in_any(lists: &[&[&[u8]]], word: &[u8]) -> bool {
    lists.iter().any(|list| list.contains(&word))
}

/// Words that, first in a statement, are followed by a group that is no macro's arguments:
/// keywords taking a parenthesised operand (and the [`TYPE_WORDS`]: `int (*fp)(int);`).
const NOT_CALL_WORDS: [&[u8]; 18] = [
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
const QUALIFIER_WORDS: [&[u8]; 6] = [
    b"const",
    b"volatile",
    b"noexcept",
    b"override",
    b"final",
    b"throw",
];

/// How deep parenthesised groups and braces are remembered; deeper groups count as plain ones,
/// deeper braces as [`Scope::Other`].
const MAX_GROUPS: usize = 256;

/// The last significant token, as far as the decision needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    Other,
    /// An identifier, keyword or number.
    Word {
        /// One of [`ATTRIBUTE_WORDS`].
        attribute: bool,
        /// One of [`PRAGMA_WORDS`].
        pragma: bool,
        /// Starts with a digit (then `'` is a digit separator, as in `1'000`).
        number: bool,
    },
    /// A `]`; `double`: right after another `]` (the end of an attribute `[[…]]`).
    CloseBracket {
        double: bool,
    },
    /// The `)` of a parameter list, outside any parentheses.
    CloseParams,
}

/// What a parenthesised group was opened after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    /// After `__attribute__` and the like, or inside such a group.
    Attribute,
    /// After `_Pragma`: the statement ends with its `)`.
    Pragma,
    /// After `]`: a lambda's parameters.
    Lambda,
    /// Inside an initialiser: a call or a compound literal's type.
    Initializer,
    /// After the first word of a statement in a namespace or a class: a function-like macro's
    /// arguments (`DEFINE_HANDLER(foo)`), or in a class a constructor's parameters.
    Call,
    /// Anything else: at parenthesis depth 0, a parameter list.
    Plain,
}

/// What a pair of braces holds, as far as macro calls are concerned (ordered: of several
/// declaration words in one statement, the greatest decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Scope {
    /// The file, a `namespace` or an `extern "C"` block: a statement that begins `NAME(…)` is a
    /// macro call (declarations begin with a type).
    Namespace,
    /// A `class`, `struct` or `union`: `NAME(…)` is a macro call or a constructor's declaration.
    Class,
    /// An `enum` or an initialiser: macro calls there expand to values.
    Other,
}

/// Where the current statement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Statement {
    /// Before its first token.
    Start,
    /// After storage classes and qualifiers only ([`SPECIFIER_WORDS`]).
    Specifiers,
    /// After its first token, a word that may name a macro.
    FirstWord,
    /// Further on.
    Later,
}

/// Where a statement that began `NAME(…)` (a [`Group::Call`]) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// No such statement is open.
    None,
    /// `NAME(…)` just closed (`class`: in a class, where it may be a constructor).
    AfterCall { class: bool },
    /// A name or `*` followed: a declaration whose type is a macro (`API(int) f(void);`,
    /// `ElfW(Addr) addr;`), unless it does not end like one. `params`: a parameter list closed
    /// since; `same_line`: the name began on the line of the call.
    Declared { params: bool, same_line: bool },
}

/// A token, as [`Scanner::follow_call`] sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a [u8]),
    Punct(u8),
    /// A string or character literal.
    Literal,
    /// The end of the text.
    End,
}

/// The scanner's state between tokens.
struct Scanner {
    line: u64,
    last: Last,
    /// The open parenthesised groups, innermost last (at most [`MAX_GROUPS`]).
    groups: Vec<Group>,
    /// Open groups beyond [`MAX_GROUPS`].
    overflow: u64,
    /// A parameter list has closed, and only qualifiers, attributes, a trailing return type or
    /// constructor initialisers followed: a `{` now opens a function body.
    after_params: bool,
    /// Inside an initialiser (`= …` outside parentheses, until `;` or a `>` that closes a
    /// template parameter list).
    in_initializer: bool,
    /// The open braces that are no function body, innermost last (at most [`MAX_GROUPS`]).
    scopes: Vec<Scope>,
    /// Open braces beyond [`MAX_GROUPS`].
    scope_overflow: u64,
    /// Where the current statement is.
    statement: Statement,
    /// What a `{` of the current statement would open, by its declaration words.
    declares: Option<Scope>,
    /// Where a statement that began `NAME(…)` is.
    tail: Tail,
    /// The line where the last `NAME(…)` that began a statement closed.
    call_line: u64,
    /// The line where the current statement began.
    begun: u64,
    /// The line of the current statement's first word that may name a macro.
    first_line: u64,
    /// That word is no keyword (an identifier, perhaps an object-like macro).
    first_unknown: bool,
    /// A construct found not to be a declaration: its line and what it is.
    unrecognised: Option<(u64, &'static str)>,
    /// The macros this file `#define`s with a `{` in their expansion (a function body, perhaps).
    bodied: HashSet<Vec<u8>>,
    /// The kind of file the text comes from.
    unit: Unit,
    /// The word just read was preceded by `::` (`S::f`).
    qualified_word: bool,
    /// The current statement's parameter list belongs to a qualified name (`int S::f()`).
    qualified: bool,
    /// The current statement holds `static` (outside parentheses).
    is_static: bool,
    /// A trailing return type (`->`) or a `requires` clause began after the parameter list:
    /// names there are types, not attribute macros.
    trailing_type: bool,
    /// The line of a name that is no keyword right after the statement's parameter list and its
    /// qualifiers (`int f(void) NAME`): an attribute macro, or a macro that expands to a body.
    trailing_name: Option<u64>,
}

/// Classifies C or C++ source text (bytes; any encoding that keeps ASCII as ASCII) from a file
/// of the kind `unit`.
pub(crate) fn classify(text: &[u8], unit: Unit) -> CSource {
    // A lone CR ends a line for clang and GCC: a directive or `//` comment ends there.
    let lines = crate::text::lone_cr_as_lf(text);
    let text: &[u8] = &lines;
    let mut s = Scanner {
        line: 1,
        last: Last::Other,
        groups: Vec::new(),
        overflow: 0,
        after_params: false,
        in_initializer: false,
        scopes: Vec::new(),
        scope_overflow: 0,
        statement: Statement::Start,
        declares: None,
        tail: Tail::None,
        call_line: 0,
        begun: 1,
        first_line: 1,
        first_unknown: false,
        unrecognised: None,
        bodied: HashSet::new(),
        unit,
        qualified_word: false,
        qualified: false,
        is_static: false,
        trailing_type: false,
        trailing_name: None,
    };
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

impl Scanner {
    /// Notes that a token at `line` is read: the line where a statement begins.
    fn begin(&mut self, line: u64) {
        if self.statement == Statement::Start {
            self.begun = line;
        }
    }

    /// Notes the macro that the preprocessor line whose `#` is just before `i` defines, when it
    /// is a `#define` with a `{` in its expansion: a use of it outside an initialiser or an
    /// `enum` may define a function (`#define F int f(void) { … }` then `F int x;`).
    fn note_define(&mut self, text: &[u8], i: usize) {
        let (directive, after) = directive(text, i);
        if directive != b"define" {
            return;
        }
        let start = after + blanks(text, after);
        let end = word_end(text, start);
        let line_end = skip_line(text, end, &mut 0);
        let expansion = text.get(end..line_end).unwrap_or_default();
        if expansion.contains(&b'{') {
            let name = text.get(start..end).unwrap_or_default();
            self.bodied.insert(name.to_vec());
        }
    }

    /// Records the first construct found not to be a declaration.
    fn unrecognise(&mut self, line: u64, what: &'static str) {
        self.unrecognised = self.unrecognised.or(Some((line, what)));
    }

    /// True when a declaration (at file, namespace or class level) is under way.
    fn in_declaration(&self) -> bool {
        self.scope() != Scope::Other
            && (self.statement != Statement::Start || !self.groups.is_empty())
    }

    /// True outside parentheses and initialisers, at file, namespace or class level.
    fn at_level(&self) -> bool {
        self.groups.is_empty() && !self.in_initializer && self.scope() != Scope::Other
    }

    /// Records a token that ends a parameter list's tail.
    fn token(&mut self, last: Last) {
        self.after_params = false;
        self.last = last;
    }

    /// Follows a statement that began `NAME(…)` by its next `token`: true when the token shows
    /// that the macro call stood alone (and may define functions). In a namespace, anything but
    /// a name or `*`/`&` (the start of a declaration with a macro for its type) or `{` (a body)
    /// shows it; in a class, `;`, `=`, `:`, `{` or qualifiers show a constructor's declaration.
    /// A declaration with a macro for its type ends with `;`, `=` or `{` (with a parameter list
    /// when its name is on a later line); a word that begins a statement after its parameter
    /// list, a `}` or the end of the text show a macro call.
    fn follow_call(&mut self, token: Token) -> bool {
        let begins = begins_statement;
        let outside = self.groups.is_empty();
        let ends = outside && matches!(token, Token::Punct(b';' | b'='));
        match (self.tail, token) {
            (Tail::None, _) => false,
            (Tail::AfterCall { class: true }, Token::Word(w)) if QUALIFIER_WORDS.contains(&w) => {
                false
            }
            (Tail::AfterCall { .. }, Token::Word(w)) if begins(w) => true,
            (Tail::AfterCall { .. }, Token::Word(_) | Token::Punct(b'*' | b'&')) => {
                self.tail = Tail::Declared {
                    params: false,
                    same_line: self.line == self.call_line,
                };
                false
            }
            // `DEFINE(a)` then, on a line of its own, `foo_t x;`: no declarator of the macro's
            // type (that would have a parameter list or begin on the macro's line).
            (
                Tail::Declared {
                    params: false,
                    same_line: false,
                },
                _,
            ) if ends => true,
            (Tail::AfterCall { .. }, Token::Punct(b'{'))
            | (Tail::AfterCall { class: true }, Token::Punct(b';' | b'=' | b':' | b',' | b'('))
            | (Tail::Declared { .. }, Token::Punct(b';' | b'=' | b'{')) => {
                self.tail = if outside { Tail::None } else { self.tail };
                false
            }
            (Tail::AfterCall { .. }, _) | (Tail::Declared { .. }, Token::End) => true,
            (Tail::Declared { .. }, Token::Word(w)) => outside && self.after_params && begins(w),
            (Tail::Declared { .. }, Token::Punct(b'}')) => outside,
            (Tail::Declared { .. }, _) => false,
        }
    }

    /// Handles a word; true when it shows that a `NAME(…)` before it was a macro call.
    fn word(&mut self, word: &[u8]) -> bool {
        let tail = self.tail;
        if self.follow_call(Token::Word(word)) {
            return true;
        }
        if self.statement == Statement::Start && is_decls_bracket(word) {
            // `__BEGIN_DECLS`: `extern "C" {` in C++, nothing in C; it begins no statement.
            return false;
        }
        if begins_statement(word) && self.at_level() {
            self.check_begins();
        }
        if self.scope() != Scope::Other && !self.in_initializer && self.bodied.contains(word) {
            self.unrecognise(self.line, "a macro that this file defines with a `{`");
        }
        self.statement = match self.statement {
            Statement::Start | Statement::Specifiers if SPECIFIER_WORDS.contains(&word) => {
                Statement::Specifiers
            }
            Statement::Start | Statement::Specifiers
                if !in_any(&[&NOT_CALL_WORDS, &TYPE_WORDS], word) =>
            {
                self.first_line = self.line;
                self.first_unknown = !is_keyword(word);
                Statement::FirstWord
            }
            _ => Statement::Later,
        };
        let declares = match word {
            b"namespace" | b"extern" => Some(Scope::Namespace),
            b"class" | b"struct" | b"union" => Some(Scope::Class),
            b"enum" => Some(Scope::Other),
            _ => None,
        };
        self.declares = self.declares.max(declares);
        self.note_trailing(word, tail);
        let last = Last::Word {
            attribute: ATTRIBUTE_WORDS.contains(&word),
            pragma: PRAGMA_WORDS.contains(&word),
            number: word.first().is_some_and(u8::is_ascii_digit),
        };
        if DECLARATION_WORDS.contains(&word) {
            self.token(last);
        }
        // Other words (qualifiers, attributes, the names of a trailing return type, constructor
        // initialisers or a macro) leave a parameter list's tail open.
        self.last = last;
        false
    }

    /// Notes what a word at file, namespace or class level tells about the statement's
    /// declarator: `static`, the start of a trailing return type or a `requires` clause, or a
    /// name that is no keyword right after the parameter list (`int f(void) NAME`). `tail`: where
    /// a statement that began `NAME(…)` was before the word; the names of a declaration with a
    /// macro for its type (`API(int) f`, `ElfW(Addr) a, b`) are declarators, not such names,
    /// until its own parameter list closes.
    fn note_trailing(&mut self, word: &[u8], tail: Tail) {
        let macro_type = matches!(
            tail,
            Tail::AfterCall { class: false } | Tail::Declared { params: false, .. }
        );
        if !self.groups.is_empty() || self.in_initializer || macro_type {
            return;
        }
        self.is_static |= word == b"static";
        self.trailing_type |= word == b"requires";
        let name = !is_keyword(word) && !word.first().is_some_and(u8::is_ascii_digit);
        if name && self.after_params && !self.trailing_type {
            self.trailing_name = self.trailing_name.or(Some(self.line));
        }
    }

    /// At a statement's `;`: a name after its parameter list (`int f(void) NAME;`) may be a
    /// macro that expands to the function's body (`{ … };` is a definition and a stray `;`).
    /// It is taken for an attribute macro (`NORETURN`, `__THROW`) only in a header, outside a
    /// class, for a function that is neither `static` (declared and never defined in the
    /// file: a definition, or an error) nor named with a qualified name (`int S::f()` outside
    /// its class can only be a definition); in a class every such member is a declaration.
    fn check_trailing(&mut self) {
        let Some(line) = self.trailing_name else {
            return;
        };
        let outside_class = self.scope() == Scope::Namespace;
        if self.unit == Unit::Source {
            self.unrecognise(
                line,
                "a name after a parameter list in a source file, which may be a macro that \
                 expands to the function's body",
            );
        } else if outside_class && self.qualified {
            self.unrecognise(
                line,
                "a name after the parameter list of a qualified name outside its class, which \
                 can only be a definition whose body is that macro",
            );
        } else if outside_class && self.is_static {
            self.unrecognise(
                line,
                "a name after the parameter list of a `static` function, which may be a macro \
                 that expands to its body",
            );
        }
    }

    /// Forgets what the statement that just ended told about its declarator.
    fn end_declarator(&mut self) {
        self.qualified = false;
        self.is_static = false;
        self.trailing_type = false;
        self.trailing_name = None;
    }

    /// Checks a word that begins a declaration (`int`, `static`, `struct`, …), at file,
    /// namespace or class level, against what came before it in the statement: right after a
    /// parameter list (`T DEFINE_OP(mul, *)` without `;`, a K&R definition `int f(a) int a;`),
    /// or on a later line than a first word that is no keyword (an object-like macro on a line
    /// of its own, `IMPLEMENT_TESTS`), it shows that the statement is no declaration.
    fn check_begins(&mut self) {
        if self.last == Last::CloseParams {
            self.unrecognise(
                self.begun,
                "a parameter list followed by another declaration's first word",
            );
        }
        let alone = self.statement == Statement::FirstWord
            && self.first_unknown
            && self.line > self.first_line
            && self.scope() == Scope::Namespace;
        if alone {
            self.unrecognise(
                self.first_line,
                "a name alone on its line, which may be a macro that expands to functions",
            );
        }
    }

    /// The braces the scan is in.
    fn scope(&self) -> Scope {
        match self.scopes.last() {
            _ if self.scope_overflow > 0 => Scope::Other,
            Some(&scope) => scope,
            None => Scope::Namespace,
        }
    }

    /// A `(`, followed by `next`.
    fn open(&mut self, next: Option<u8>) {
        let call = self.statement == Statement::FirstWord
            && self.scope() != Scope::Other
            && !matches!(next, Some(b'*' | b'&' | b'^'));
        let declarator = self.groups.is_empty() && !self.in_initializer;
        self.qualified |=
            declarator && matches!(self.last, Last::Word { .. }) && self.qualified_word;
        let inner = match (self.groups.last(), self.last) {
            (Some(Group::Attribute), _)
            | (
                _,
                Last::Word {
                    attribute: true, ..
                },
            ) => Group::Attribute,
            (_, Last::Word { pragma: true, .. }) => Group::Pragma,
            (_, Last::CloseBracket { .. }) => Group::Lambda,
            _ if self.in_initializer => Group::Initializer,
            _ if call => Group::Call,
            _ => Group::Plain,
        };
        self.statement = Statement::Later;
        if self.groups.len() < MAX_GROUPS {
            self.groups.push(inner);
        } else {
            self.overflow += 1;
        }
        self.last = Last::Other;
    }

    /// A `)`; true when it ends a statement (`_Pragma("once")`).
    fn close(&mut self) -> bool {
        let closed = if self.overflow > 0 {
            self.overflow -= 1;
            Some(Group::Plain)
        } else {
            self.groups.pop()
        };
        let params = match closed {
            Some(Group::Lambda | Group::Call) => true,
            Some(Group::Plain) => self.groups.is_empty(),
            _ => false,
        };
        self.after_params |= params;
        self.last = if params && self.groups.is_empty() {
            Last::CloseParams
        } else {
            Last::Other
        };
        if let (Tail::Declared { same_line, .. }, true) = (self.tail, params) {
            self.tail = Tail::Declared {
                params: true,
                same_line,
            };
        }
        if closed == Some(Group::Call) {
            self.tail = Tail::AfterCall {
                class: self.scope() == Scope::Class,
            };
            self.call_line = self.line;
        }
        closed == Some(Group::Pragma) && self.groups.is_empty()
    }

    /// Handles one punctuation byte; true when it opens a function body or shows a macro
    /// call (which may define functions).
    fn punct(&mut self, b: u8, next: Option<u8>) -> bool {
        if self.follow_call(Token::Punct(b)) {
            return true;
        }
        let mut ends = b == b';';
        match b {
            b'(' => {
                let keep = self.after_params;
                self.open(next);
                // `noexcept(…)`, `throw(…)` and initialisers `a(1)` keep the tail open.
                self.after_params = keep;
            }
            b')' => ends = self.close(),
            b'{' => return self.brace(),
            b'}' => ends = self.close_brace(),
            b']' => {
                let double = matches!(self.last, Last::CloseBracket { .. });
                self.last = Last::CloseBracket { double };
            }
            _ => self.other(b, next),
        }
        if b == b';' && self.statement == Statement::FirstWord && self.first_unknown {
            // `DECLARE_STUFF;`: a name alone declares nothing.
            self.unrecognise(
                self.first_line,
                "a name alone before `;`, which may be a macro that expands to functions",
            );
        }
        self.statement = match (self.statement, b, next) {
            _ if ends => Statement::Start,
            // `public:`, `private:`, `protected:` begin a statement; `::` does not.
            (Statement::FirstWord, b':', Some(after)) if after != b':' => Statement::Start,
            _ => Statement::Later,
        };
        if b == b';' && self.groups.is_empty() {
            self.check_trailing();
        }
        if b == b';' || b == b'}' {
            self.declares = None;
            self.end_declarator();
        }
        false
    }

    /// A `}`: leaves the innermost braces; true when it ends a statement (a namespace's or an
    /// `extern "C"` block's, not a struct's or an initialiser's). A member or declaration
    /// left open before a namespace's or a class's `}` is no declaration (`struct S { F };`).
    fn close_brace(&mut self) -> bool {
        let closed = if self.scope_overflow > 0 {
            self.scope_overflow -= 1;
            None
        } else {
            Some(self.scopes.pop().unwrap_or(Scope::Namespace))
        };
        let member_open = self.statement != Statement::Start || !self.groups.is_empty();
        if member_open && closed.is_some_and(|scope| scope != Scope::Other) {
            self.unrecognise(
                self.begun,
                "a construct that does not end like a declaration",
            );
        }
        self.token(Last::Other);
        !matches!(closed, Some(Scope::Class | Scope::Other))
    }

    /// A `{`: true when it opens a function body or a lambda's, or is not recognised as a
    /// declaration's: at file, namespace or class level, a `{` that no `struct`, `class`,
    /// `union`, `enum`, `namespace` or `extern` declares is a brace initialiser only after a
    /// name or an array's `]` (`S s{1};`, `int a[2]{1, 2};`); after anything else (`;` as in
    /// a K&R definition, `>` of a trailing return type, `]]` of an attribute) it is a body.
    fn brace(&mut self) -> bool {
        let lambda = matches!(self.last, Last::CloseBracket { .. })
            && (self.in_initializer || !self.groups.is_empty() || self.scope() == Scope::Other);
        let initialiser = matches!(
            self.last,
            Last::Word { .. } | Last::CloseBracket { double: false }
        );
        let bare = self.declares.is_none() && self.at_level() && !initialiser;
        if self.after_params || lambda || bare {
            return true;
        }
        let scope = match self.declares {
            _ if self.in_initializer => Scope::Other,
            Some(scope) => scope,
            None => Scope::Other,
        };
        if self.scopes.len() < MAX_GROUPS {
            self.scopes.push(scope);
        } else {
            self.scope_overflow += 1;
        }
        self.statement = Statement::Start;
        self.declares = None;
        self.end_declarator();
        self.token(Last::Other);
        false
    }

    /// Any other punctuation. `->`, and `::`, `*`, `&`, `<`, `>`, `,` after a parameter list
    /// (a trailing return type, a qualified name, reference qualifiers, constructor
    /// initialisers) keep the list's tail open; `=` outside parentheses starts an initialiser,
    /// `;` and `>` end it.
    fn other(&mut self, b: u8, next: Option<u8>) {
        let arrow = b == b'-' && next == Some(b'>');
        let tail = self.after_params && b":*&<>,".contains(&b);
        if arrow || tail {
            self.trailing_type |= arrow;
            self.last = Last::Other;
            return;
        }
        if self.groups.is_empty() && b"=;>".contains(&b) {
            self.in_initializer = b == b'=';
        }
        self.token(Last::Other);
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "c_tests.rs"]
mod tests;
