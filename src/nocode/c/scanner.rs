//! The state of the C and C++ no-code scan ([`super::classify`]) between tokens, and how each
//! word, punctuation byte and token after a macro call moves it.

use std::collections::HashSet;

use super::lex::{blanks, directive, skip_line, word_end};
use super::words::{
    begins_statement, in_any, is_decls_bracket, is_keyword, ATTRIBUTE_WORDS, DECLARATION_WORDS,
    NOT_CALL_WORDS, PRAGMA_WORDS, QUALIFIER_WORDS, SPECIFIER_WORDS, TYPE_WORDS,
};
use super::Unit;

/// How deep parenthesised groups and braces are remembered; deeper groups count as plain ones,
/// deeper braces as [`Scope::Other`].
const MAX_GROUPS: usize = 256;

/// The last significant token, as far as the decision needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Last {
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
pub(super) enum Group {
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
pub(super) enum Scope {
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
pub(super) enum Statement {
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
pub(super) enum Token<'a> {
    Word(&'a [u8]),
    Punct(u8),
    /// A string or character literal.
    Literal,
    /// The end of the text.
    End,
}

/// The scanner's state between tokens.
pub(super) struct Scanner {
    pub(super) line: u64,
    pub(super) last: Last,
    /// The open parenthesised groups, innermost last (at most [`MAX_GROUPS`]).
    pub(super) groups: Vec<Group>,
    /// Open groups beyond [`MAX_GROUPS`].
    overflow: u64,
    /// A parameter list has closed, and only qualifiers, attributes, a trailing return type or
    /// constructor initialisers followed: a `{` now opens a function body.
    after_params: bool,
    /// Inside an initialiser (`= …` outside parentheses, until `;` or a `>` that closes a
    /// template parameter list).
    in_initializer: bool,
    /// The open braces that are no function body, innermost last (at most [`MAX_GROUPS`]).
    pub(super) scopes: Vec<Scope>,
    /// Open braces beyond [`MAX_GROUPS`].
    scope_overflow: u64,
    /// Where the current statement is.
    pub(super) statement: Statement,
    /// What a `{` of the current statement would open, by its declaration words.
    declares: Option<Scope>,
    /// Where a statement that began `NAME(…)` is.
    tail: Tail,
    /// The line where the last `NAME(…)` that began a statement closed.
    pub(super) call_line: u64,
    /// The line where the current statement began.
    pub(super) begun: u64,
    /// The line of the current statement's first word that may name a macro.
    first_line: u64,
    /// That word is no keyword (an identifier, perhaps an object-like macro).
    first_unknown: bool,
    /// A construct found not to be a declaration: its line and what it is.
    pub(super) unrecognised: Option<(u64, &'static str)>,
    /// The macros this file `#define`s with a `{` in their expansion (a function body, perhaps).
    bodied: HashSet<Vec<u8>>,
    /// The kind of file the text comes from.
    unit: Unit,
    /// The word just read was preceded by `::` (`S::f`).
    pub(super) qualified_word: bool,
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

impl Scanner {
    /// A scanner at the start of a text from a file of the kind `unit`.
    pub(super) fn new(unit: Unit) -> Self {
        Scanner {
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
        }
    }

    /// Notes that a token at `line` is read: the line where a statement begins.
    pub(super) fn begin(&mut self, line: u64) {
        if self.statement == Statement::Start {
            self.begun = line;
        }
    }

    /// Notes the macro that the preprocessor line whose `#` is just before `i` defines, when it
    /// is a `#define` with a `{` in its expansion: a use of it outside an initialiser or an
    /// `enum` may define a function (`#define F int f(void) { … }` then `F int x;`).
    pub(super) fn note_define(&mut self, text: &[u8], i: usize) {
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
    pub(super) fn in_declaration(&self) -> bool {
        self.scope() != Scope::Other
            && (self.statement != Statement::Start || !self.groups.is_empty())
    }

    /// True outside parentheses and initialisers, at file, namespace or class level.
    fn at_level(&self) -> bool {
        self.groups.is_empty() && !self.in_initializer && self.scope() != Scope::Other
    }

    /// Records a token that ends a parameter list's tail.
    pub(super) fn token(&mut self, last: Last) {
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
    pub(super) fn follow_call(&mut self, token: Token) -> bool {
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
    pub(super) fn word(&mut self, word: &[u8]) -> bool {
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
    pub(super) fn punct(&mut self, b: u8, next: Option<u8>) -> bool {
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
