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
//! bytes, in memory independent of the file's size, without preprocessing: comments, string and
//! character literals (raw strings too) and preprocessor lines are skipped, and a `{` is a
//! function body when it follows a parameter list `(…)` (with qualifiers such as `const`,
//! `noexcept`, `override`, a trailing return type or a constructor's initialisers in between) or
//! opens a lambda. A parenthesised group that follows `__attribute__`, `__declspec`, `alignas`
//! or `_Alignas` is not a parameter list, and neither is a group inside an initialiser (`= (T){…}`
//! is a compound literal). Text inside `#if 0` is read like any other, so it can only make a file
//! count as code, never hide code. Not recognised: K&R-style definitions (`int f(a) int a; {`),
//! removed from the language in C23.

/// What a C or C++ source file holds, as far as coverage is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CSource {
    /// No function body: nothing clang would instrument.
    NoCode,
    /// A function body (or a lambda) starts at this 1-based line.
    HasCode(u64),
    /// The text ends inside a comment or a raw string literal; the message says where it began.
    Unparsable(String),
}

/// The file name extensions read as C or C++ (compared without regard to case).
pub(crate) const EXTENSIONS: [&str; 9] = ["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "inl"];

/// Whether `extension` (without the dot) names a C or C++ source.
pub(crate) fn is_c_family(extension: &str) -> bool {
    EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(extension))
}

/// Words before a parenthesised group that is not a parameter list.
const ATTRIBUTE_WORDS: [&[u8]; 5] = [
    b"__attribute__",
    b"__attribute",
    b"__declspec",
    b"alignas",
    b"_Alignas",
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

/// How deep parenthesised groups are remembered; deeper groups count as plain ones.
const MAX_GROUPS: usize = 256;

/// The last significant token, as far as the decision needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    Other,
    /// An identifier, keyword or number.
    Word {
        /// One of [`ATTRIBUTE_WORDS`].
        attribute: bool,
        /// Starts with a digit (then `'` is a digit separator, as in `1'000`).
        number: bool,
    },
    CloseBracket,
}

/// What a parenthesised group was opened after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    /// After `__attribute__` and the like, or inside such a group.
    Attribute,
    /// After `]`: a lambda's parameters.
    Lambda,
    /// Inside an initialiser: a call or a compound literal's type.
    Initializer,
    /// Anything else: at parenthesis depth 0, a parameter list.
    Plain,
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
}

/// Classifies C or C++ source text (bytes; any encoding that keeps ASCII as ASCII).
pub(crate) fn classify(text: &[u8]) -> CSource {
    let mut s = Scanner {
        line: 1,
        last: Last::Other,
        groups: Vec::new(),
        overflow: 0,
        after_params: false,
        in_initializer: false,
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
        let skipped = match (b, next) {
            (b'/', Some(b'/')) => Some((skip_line(text, i, &mut s.line), true)),
            (b'/', Some(b'*')) => Some((skip_block_comment(text, i, &mut s.line), line_start)),
            (b'#', _) if line_start => Some((skip_line(text, i, &mut s.line), true)),
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
                s.token(Last::Other);
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
        if is_word_byte(b) {
            let end = word_end(text, i);
            let word = text.get(i..end).unwrap_or_default();
            if text.get(end) == Some(&b'"') && is_raw_prefix(word) {
                let Some(after) = skip_raw_string(text, end, &mut s.line) else {
                    return CSource::Unparsable(format!(
                        "a raw string literal that begins on line {start_line} never ends"
                    ));
                };
                s.token(Last::Other);
                i = after;
                continue;
            }
            s.word(word);
            i = end;
            continue;
        }
        if s.punct(b, next) {
            return CSource::HasCode(s.line);
        }
        i += if b == b'-' && next == Some(b'>') {
            2
        } else {
            1
        };
    }
    CSource::NoCode
}

impl Scanner {
    /// Records a token that ends a parameter list's tail.
    fn token(&mut self, last: Last) {
        self.after_params = false;
        self.last = last;
    }

    fn word(&mut self, word: &[u8]) {
        let last = Last::Word {
            attribute: ATTRIBUTE_WORDS.contains(&word),
            number: word.first().is_some_and(u8::is_ascii_digit),
        };
        if DECLARATION_WORDS.contains(&word) {
            self.token(last);
        }
        // Other words (qualifiers, attributes, the names of a trailing return type, constructor
        // initialisers or a macro) leave a parameter list's tail open.
        self.last = last;
    }

    fn open(&mut self) {
        let inner = match (self.groups.last(), self.last) {
            (Some(Group::Attribute), _)
            | (
                _,
                Last::Word {
                    attribute: true, ..
                },
            ) => Group::Attribute,
            (_, Last::CloseBracket) => Group::Lambda,
            _ if self.in_initializer => Group::Initializer,
            _ => Group::Plain,
        };
        if self.groups.len() < MAX_GROUPS {
            self.groups.push(inner);
        } else {
            self.overflow += 1;
        }
        self.last = Last::Other;
    }

    fn close(&mut self) {
        let closed = if self.overflow > 0 {
            self.overflow -= 1;
            Some(Group::Plain)
        } else {
            self.groups.pop()
        };
        let params = match closed {
            Some(Group::Lambda) => true,
            Some(Group::Plain) => self.groups.is_empty(),
            _ => false,
        };
        self.after_params |= params;
        self.last = Last::Other;
    }

    /// Handles one punctuation byte; true when it opens a function body.
    fn punct(&mut self, b: u8, next: Option<u8>) -> bool {
        match b {
            b'(' => {
                let keep = self.after_params;
                self.open();
                // `noexcept(…)`, `throw(…)` and initialisers `a(1)` keep the tail open.
                self.after_params = keep;
            }
            b')' => self.close(),
            b'{' => return self.brace(),
            b']' => self.last = Last::CloseBracket,
            _ => self.other(b, next),
        }
        false
    }

    /// A `{`: true when it opens a function body or a lambda's.
    fn brace(&mut self) -> bool {
        let lambda =
            self.last == Last::CloseBracket && (self.in_initializer || !self.groups.is_empty());
        if self.after_params || lambda {
            return true;
        }
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
            self.last = Last::Other;
            return;
        }
        if self.groups.is_empty() && b"=;>".contains(&b) {
            self.in_initializer = b == b'=';
        }
        self.token(Last::Other);
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn word_end(text: &[u8], start: usize) -> usize {
    let mut end = start;
    while text.get(end).is_some_and(|&b| is_word_byte(b)) {
        end += 1;
    }
    end
}

/// `R`, `u8R`, `uR`, `UR`, `LR`: the prefixes of a C++ raw string literal.
fn is_raw_prefix(word: &[u8]) -> bool {
    [&b"R"[..], b"u8R", b"uR", b"UR", b"LR"].contains(&word)
}

/// The index just past the end of the line that starts at or before `i` (a `\` before the line
/// break continues it, as in preprocessor lines and `//` comments); counts the breaks passed.
fn skip_line(text: &[u8], mut i: usize, line: &mut u64) -> usize {
    let mut escaped = false;
    while let Some(&b) = text.get(i) {
        if b == b'\n' {
            *line += 1;
            if !escaped {
                return i + 1;
            }
        }
        escaped = b == b'\\' || (escaped && b == b'\r');
        i += 1;
    }
    i
}

/// The index just past the `*/` that ends the comment starting at `i`, or `usize::MAX` when the
/// text ends first.
fn skip_block_comment(text: &[u8], i: usize, line: &mut u64) -> usize {
    let mut j = i + 2;
    while let Some(&b) = text.get(j) {
        if b == b'*' && text.get(j + 1) == Some(&b'/') {
            return j + 2;
        }
        *line += u64::from(b == b'\n');
        j += 1;
    }
    usize::MAX
}

/// The index just past a string or character literal that starts at `i` with `quote`. A literal
/// left open at the end of its line ends there (the compiler would reject it; the scan goes on).
fn skip_quoted(text: &[u8], i: usize, quote: u8, line: &mut u64) -> usize {
    let mut j = i + 1;
    while let Some(&b) = text.get(j) {
        match b {
            b'\\' => j += 2,
            b'\n' => {
                *line += 1;
                return j + 1;
            }
            _ if b == quote => return j + 1,
            _ => j += 1,
        }
    }
    j
}

/// The index just past a raw string literal whose `"` is at `quote` (`R"delim( … )delim"`), or
/// `None` when the text ends first.
fn skip_raw_string(text: &[u8], quote: usize, line: &mut u64) -> Option<usize> {
    let rest = text.get(quote + 1..).unwrap_or_default();
    let length = rest.iter().position(|&b| b == b'(')?;
    let delimiter = rest.get(..length).unwrap_or_default();
    let open = quote + 1 + length;
    let mut j = open + 1;
    while let Some(&b) = text.get(j) {
        if b == b')'
            && text.get(j + 1..j + 1 + delimiter.len()) == Some(delimiter)
            && text.get(j + 1 + delimiter.len()) == Some(&b'"')
        {
            return Some(j + 2 + delimiter.len());
        }
        *line += u64::from(b == b'\n');
        j += 1;
    }
    None
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "c_tests.rs"]
mod tests;
