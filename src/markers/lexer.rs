//! The comment lexers behind [`super::scan`]: where comments are in a source file, per
//! language ([`Lang`]). Everything that is not a comment is code or a literal, and a marker in a
//! literal is text: so each language's string syntaxes are known, down to the ones that span
//! lines (template literals, raw strings, text blocks, triple-quoted strings, heredocs).

/// How comments and string literals are written in a source file, chosen by its extension
/// ([`Lang::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Rust: `//`, nested `/* */` (`///`, `//!`, `/** */`, `/*! */` are documentation), strings,
    /// raw strings `r#"…"#`, chars, lifetimes.
    Rust,
    /// C, C++, Objective-C, CUDA: `//`, `/* */`, strings and chars that end with their line, C++
    /// raw strings `R"d(…)d"`, digit separators `1'000`; line splices (a `\` that ends a line
    /// joins it to the next) are removed first, as the C preprocessor does.
    CLike,
    /// JavaScript and TypeScript: as C, plus template literals `` `…` `` that span lines, with
    /// code (comments, strings, nested templates) inside `${…}`.
    JavaScript,
    /// JSX and TSX (`.jsx`, `.tsx`): as JavaScript, plus elements, whose text is neither code
    /// nor a comment.
    Jsx,
    /// Go: as C, plus raw strings `` `…` `` that span lines (no escapes).
    Go,
    /// Java: as C, plus text blocks `"""…"""`; Unicode escapes (`\u002a`) are translated first,
    /// as javac does.
    Java,
    /// Kotlin: as C, plus nested `/* */`, raw strings `"""…"""` (no escapes; a run of more than
    /// three quotes ends at its last three), and code inside `${…}` in strings.
    Kotlin,
    /// Scala: as Kotlin, but only an interpolated string (`s"…"`, `f"…"`, `raw"…"`: a name
    /// before the quote) has code inside `${…}`.
    Scala,
    /// Swift: as C, plus nested `/* */`, multi-line strings `"""…"""`, raw strings `#"…"#`,
    /// and code inside `\(…)` in strings.
    Swift,
    /// C#: as C, plus verbatim strings `@"…"` (`""` is a quote), raw strings `"""…"""` (as
    /// many quotes close as opened), and code inside `{…}` in interpolated strings `$"…"`.
    CSharp,
    /// Dart: as C, plus nested `/* */`, `'''…'''`, `"""…"""` and raw strings `r'…'`, `r"…"`,
    /// `r'''…'''` (no escapes), and code inside `${…}` in the others.
    Dart,
    /// Groovy: as C, plus `"""…"""`, `'''…'''` and dollar-slashy `$/…/$` strings that span lines,
    /// and code inside `${…}` in `"…"` and `"""…"""`.
    TextBlocks,
    /// Python: `#` comments, strings that end with their line, triple-quoted strings `'''…'''`
    /// and `"""…"""` that span lines (any prefix: `r`, `b`, `f`, `u`, `rb`, …), and code inside
    /// `{…}` in f-strings.
    Python,
    /// Shell (`sh`, `bash`, `zsh`, `ksh`): `#` comments (not inside a word: `a#b`, `$#`,
    /// `${#x}`, `\#`), strings that span lines (no escapes in `'…'`), heredocs `<<EOF`,
    /// `<< 'EOF'`, `<<-EOF`.
    Shell,
    /// Ruby: `#` comments, strings that span lines (code inside `#{…}` in `"…"`), heredocs `<<EOF`, `<<~EOF`, `<<-EOF`,
    /// `<<"EOF"`; its regular expressions and `%` literals are not lexed, so a marker after one
    /// is unsure (an error).
    Ruby,
    /// Perl: as Ruby, plus `$#`; its regular expressions and quote-like operators (`qw#…#`,
    /// `s{…}{…}`) are not lexed, so a marker after one is unsure (an error).
    Perl,
    /// R: `#` comments, strings that may span lines, backquoted names, raw strings `r"(…)"`.
    R,
    /// Elixir: `#` comments, strings that may span lines (code inside `#{…}`), heredocs
    /// `"""…"""`, sigils `~S(…)`,
    /// char literals `?#`.
    Elixir,
    /// CMake: `#` comments, bracket comments `#[[…]]`, strings, bracket arguments `[=[…]=]`.
    CMake,
    /// Any other extension: lexed as C, but its string syntaxes are unknown (Lua's `[[…]]`,
    /// PHP's heredocs, Zig's `\\` lines), so a marker cannot be told from text in a literal;
    /// [`super::scan`] reports a marker in such a file instead of honouring it.
    Unknown,
}

impl Lang {
    /// The language of a path, by extension ([`Lang::Unknown`] when the extension is none of
    /// those below).
    pub fn of(path: &str) -> Lang {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "rs" => Lang::Rust,
            "c" | "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "inl"
            | "ipp" | "tpp" | "m" | "mm" | "cu" | "cuh" | "C" | "H" => Lang::CLike,
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Lang::JavaScript,
            "jsx" | "tsx" => Lang::Jsx,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "kt" | "kts" => Lang::Kotlin,
            "scala" | "sc" => Lang::Scala,
            "swift" => Lang::Swift,
            "cs" => Lang::CSharp,
            "dart" => Lang::Dart,
            "groovy" => Lang::TextBlocks,
            "r" | "R" => Lang::R,
            "ex" | "exs" => Lang::Elixir,
            "cmake" => Lang::CMake,
            "py" | "pyi" | "pyw" => Lang::Python,
            "sh" | "bash" | "zsh" | "ksh" => Lang::Shell,
            "rb" => Lang::Ruby,
            "pl" | "pm" => Lang::Perl,
            _ => Lang::Unknown,
        }
    }

    /// True for the languages whose comments start with `#` (the others write `//`, `/* */`).
    fn hash_comments(self) -> bool {
        matches!(
            self,
            Lang::Python
                | Lang::Shell
                | Lang::Ruby
                | Lang::Perl
                | Lang::R
                | Lang::Elixir
                | Lang::CMake
        )
    }

    /// True where block comments nest, as in rustc: Rust, Kotlin, Scala, Swift and Dart (each
    /// grammar's delimited comment holds nested ones).
    fn nested_comments(self) -> bool {
        matches!(
            self,
            Lang::Rust | Lang::Kotlin | Lang::Scala | Lang::Swift | Lang::Dart
        )
    }

    /// True for C and C++ (and the unknown, lexed as C): raw strings `R"d(…)d"`, digit
    /// separators.
    fn cpp(self) -> bool {
        matches!(self, Lang::CLike | Lang::Unknown)
    }

    /// True for JavaScript and TypeScript, with or without JSX: template literals.
    fn templates(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::Jsx)
    }

    /// True when a carriage return that no line feed follows ends a line, as it does for the
    /// compilers and coverage tools of these languages: clang's and GCC's lexers (C, C++,
    /// Objective-C), the Java, Kotlin, Swift, C# and Dart specifications, ECMAScript (a line
    /// terminator is CR, LF or CR LF) and Python's universal newlines. rustc, Go, the shells,
    /// Ruby and Perl end lines at LF only, so there a lone CR is white space on its line.
    fn lone_cr_ends_line(self) -> bool {
        matches!(
            self,
            Lang::CLike
                | Lang::JavaScript
                | Lang::Jsx
                | Lang::Java
                | Lang::Kotlin
                | Lang::Scala
                | Lang::Swift
                | Lang::CSharp
                | Lang::Dart
                | Lang::TextBlocks
                | Lang::Python
        )
    }

    /// True when an open `"…"` or `'…'` ends with its line (the compiler rejects it there), so
    /// that a stray quote cannot hide the markers of the lines after it.
    fn strings_end_with_line(self) -> bool {
        self == Lang::Python || !(self == Lang::Rust || self.hash_comments())
    }
}

/// `text` with its lines numbered as `lang`'s compiler numbers them: where a lone carriage
/// return ends a line ([`Lang::lone_cr_ends_line`]), each CR that no LF follows becomes an LF
/// (one byte for one, so offsets stay), and the line numbers of [`comments`] are the ones the
/// coverage report uses. A file that holds no lone CR is returned as it is.
pub fn as_compiled(text: &str, lang: Lang) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if !lang.lone_cr_ends_line() {
        return Cow::Borrowed(text);
    }
    match crate::text::lone_cr_as_lf(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Only CR bytes became LF bytes: still UTF-8.
        Cow::Owned(lines) => Cow::Owned(String::from_utf8(lines).unwrap_or_default()),
    }
}

/// The comment text of a source file, as (1-based line, text of the comment on that line)
/// pieces; a block comment spanning lines gives one piece per line. Rust doc comments (`///`,
/// `//!`, `/** */`, `/*! */`, but not `////`, `/***` or `/**/`, which rustc reads as plain
/// comments) are documentation, not comments: a marker written there (to document it) does
/// nothing.
pub fn comments(text: &str, lang: Lang) -> Vec<(u32, &str)> {
    lex(text, lang).comments
}

/// What the lexer found in a source file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Lexed<'a> {
    /// The comment text, as (1-based line, text on that line) pieces ([`comments`]).
    pub comments: Vec<(u32, &'a str)>,
    /// The first line from which the lexer cannot be sure where comments are (a Ruby `x /y/`,
    /// JSX text it cannot follow, …): a marker there or after must not be honoured.
    pub unsure: Option<u32>,
}

/// The comments of a source file ([`comments`]), and the line from which they are unsure.
pub fn lex(text: &str, lang: Lang) -> Lexed<'_> {
    let mut lexer = Lexer::new(text, lang, None);
    lexer.run();
    Lexed {
        comments: lexer.out,
        unsure: lexer.unsure,
    }
}

/// `text` with only its code left: each byte of a comment (doc comments included) or a literal
/// becomes a space, line feeds stay, so offsets and line numbers are the source's. For finding
/// attributes (`coverage(off)`, [`super::coverage_off`]) that a comment or a string only
/// mentions.
pub fn code(text: &str, lang: Lang) -> String {
    let blank = text
        .bytes()
        .map(|b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    let mut lexer = Lexer::new(text, lang, Some(blank));
    lexer.run();
    String::from_utf8(lexer.code.unwrap_or_default()).unwrap_or_default()
}

/// A heredoc whose body starts on the next line: its terminator, and whether the terminator
/// line may be indented (`<<-`, `<<~`).
type Heredoc<'a> = (&'a str, bool);

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    lang: Lang,
    /// True inside a Rust doc block comment (`/** */`, `/*! */`), whose text is not scanned.
    doc: bool,
    /// Where the word (name or number) the last character continued began: in C and C++, a `'`
    /// in a number is a digit separator (`1'000`), and a raw string's prefix (`R"`) begins a word.
    word_start: Option<usize>,
    /// Per interpolated string whose hole (`${…}`, `\(…)`, …) the lexer is in, innermost last: the
    /// string, and the brackets of the hole's kind opened in the hole and not yet closed.
    holes: Vec<(interp::Interpolated, usize)>,
    /// Shell, Ruby, Perl: the heredocs opened on the current line, in order.
    heredocs: Vec<Heredoc<'a>>,
    out: Vec<(u32, &'a str)>,
    /// The line from which the lexer is not sure of what it read ([`Lexed::unsure`]).
    unsure: Option<u32>,
    /// JSX: how many elements inside `{…}` inside elements the lexer is in.
    nesting: usize,
    /// The text with its code copied in as the lexer passes it, the rest blank ([`code`]);
    /// `None` when only comments are wanted.
    code: Option<Vec<u8>>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, lang: Lang, code: Option<Vec<u8>>) -> Lexer<'a> {
        Lexer {
            text,
            pos: shebang(text, lang),
            line: 1,
            lang,
            doc: false,
            word_start: None,
            holes: Vec::new(),
            heredocs: Vec::new(),
            out: Vec::new(),
            unsure: None,
            nesting: 0,
            code,
        }
    }

    /// Copies the code from `at` to the lexer's position into [`Lexer::code`], when kept.
    fn keep_code(&mut self, at: usize) {
        if let Some(code) = &mut self.code {
            let piece = self.text.as_bytes().get(at..self.pos).unwrap_or_default();
            for (slot, byte) in code.iter_mut().skip(at).zip(piece) {
                *slot = *byte;
            }
        }
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.rest().chars().next()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
        }
        Some(c)
    }

    fn run(&mut self) {
        while let Some(c) = self.rest().chars().next() {
            let rest = self.rest();
            let word_start = self.word_start.take();
            let in_number = word_start
                .and_then(|start| self.text.get(start..))
                .is_some_and(|word| word.starts_with(|d: char| d.is_ascii_digit()));
            let prefix = word_start
                .and_then(|start| self.text.get(start..self.pos))
                .unwrap_or_default();
            let lang = self.lang;
            let slash = !lang.hash_comments();
            match c {
                '\'' if lang.cpp() && in_number => {
                    self.bump();
                    self.word_start = word_start;
                }
                _ if lang.cpp() && word_start.is_none() && cpp_raw_delimiter(rest).is_some() => {
                    self.cpp_raw_string();
                }
                '`' if lang.templates() => {
                    self.bump();
                    self.string_text(interp::TEMPLATE);
                }
                _ if self.in_hole_bracket(c) => self.hole_bracket(c),
                ':' | '!' if self.format_spec_starts(c) => self.format_spec(),
                '`' if lang == Lang::Go => self.skip_raw(1, "`"),
                '"' | '\'' if triple_quoted(lang, rest) => self.triple_quoted(c, prefix),
                'r' if lang == Lang::Dart && word_start.is_none() && dart_raw(rest) > 0 => {
                    self.dart_raw_string(dart_raw(rest));
                }
                '@' | '$' if lang == Lang::CSharp && verbatim_opener(rest) > 0 => {
                    self.verbatim(verbatim_opener(rest));
                }
                '$' if lang == Lang::CSharp
                    && rest.starts_with("$\"")
                    && !triple_quoted(lang, &rest[1..]) =>
                {
                    self.bump();
                    self.interpolated_string('"', "$");
                }
                '#' if lang == Lang::Swift => self.swift_hashes(rest),
                '$' if lang == Lang::TextBlocks && rest.starts_with("$/") => self.dollar_slashy(),
                '<' if lang == Lang::Jsx && self.jsx_opens() => self.jsx_element(),
                // A here-string, or C++'s `<<<`: no heredoc starts at its second `<`.
                '<' if rest.starts_with("<<<") => self.pos += 3,
                '<' if heredoc_opener(lang, rest).is_some() => self.heredoc(rest),
                '\n' if !self.heredocs.is_empty() => self.heredoc_bodies(),
                _ if !slash
                    && lang != Lang::Python
                    && self.hash_literal(c, word_start.is_some()) => {}
                '#' if lang == Lang::Shell && (word_start.is_some() || self.after_dollar()) => {
                    self.bump();
                }
                '#' if !slash => self.line_comment(1),
                '/' if slash && rest.starts_with("//") => self.line_comment(2),
                '/' if slash && rest.starts_with("/*") => self.block_comment(),
                'r' | 'b' if lang == Lang::Rust && raw_string_hashes(rest).is_some() => {
                    self.raw_string();
                }
                '"' | '\'' if interp::interpolated(lang, c, prefix, false).is_some() => {
                    self.interpolated_string(c, prefix);
                }
                '"' => self.quoted('"'),
                '\'' if lang == Lang::Rust => self.rust_quote(),
                '\'' => self.quoted('\''),
                _ => {
                    let at = self.pos;
                    self.bump();
                    self.keep_code(at);
                    if c.is_alphanumeric() || c == '_' {
                        self.word_start = Some(word_start.unwrap_or(at));
                    }
                }
            }
        }
    }

    /// True when the character before the lexer is `$` or `{` (shell: `$#`, `${#x}`).
    fn after_dollar(&self) -> bool {
        self.text
            .get(..self.pos)
            .is_some_and(|before| before.ends_with(['$', '{']))
    }

    fn line_comment(&mut self, opener: usize) {
        self.pos += opener;
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        // rustc: `///` (but not `////`) and `//!` open doc comments.
        let doc = self.lang == Lang::Rust
            && (rest.starts_with('!') || (rest.starts_with('/') && !rest.starts_with("//")));
        if !doc {
            self.out.push((self.line, rest.get(..end).unwrap_or("")));
        }
        self.pos += end;
    }

    fn block_comment(&mut self) {
        self.pos += 2;
        let rest = self.rest();
        // rustc: `/*!` and `/**` (but not `/***` or the empty `/**/`) open doc comments.
        self.doc = self.lang == Lang::Rust
            && (rest.starts_with('!')
                || (rest.starts_with('*') && !rest.starts_with("*/") && !rest.starts_with("**")));
        let mut depth = 1usize;
        let mut piece_start = self.pos;
        while depth > 0 {
            let rest = self.rest();
            if rest.is_empty() {
                break;
            }
            if rest.starts_with("*/") {
                depth -= 1;
                if depth == 0 {
                    self.push_piece(piece_start);
                }
                self.pos += 2;
            } else if self.lang.nested_comments() && rest.starts_with("/*") {
                depth += 1;
                self.pos += 2;
            } else if rest.starts_with('\n') {
                self.push_piece(piece_start);
                self.bump();
                piece_start = self.pos;
            } else {
                self.bump();
            }
        }
        if depth > 0 {
            self.push_piece(piece_start);
        }
    }

    fn push_piece(&mut self, start: usize) {
        if !self.doc {
            let piece = self.text.get(start..self.pos).unwrap_or("");
            self.out.push((self.line, piece));
        }
    }

    /// A string or char literal with backslash escapes, ending at `quote`; in C-like languages
    /// also at the end of its line (where the compiler rejects an open literal), so that a
    /// stray quote cannot hide the markers of the lines after it.
    /// Groovy's dollar-slashy string `$/…/$`, which may span lines: its only escapes are `$$`
    /// and `$/`, so a `\` or `//` inside is text. An open one runs to the end of the file.
    fn dollar_slashy(&mut self) {
        self.pos += 2;
        loop {
            let rest = self.rest();
            if rest.starts_with("$$") || rest.starts_with("$/") {
                self.pos += 2;
            } else if rest.starts_with("/$") {
                self.pos += 2;
                return;
            } else if self.bump().is_none() {
                return;
            }
        }
    }

    /// A string literal with holes ([`interp::interpolated`]) after its prefix, at its quote.
    fn interpolated_string(&mut self, quote: char, prefix: &str) {
        self.bump();
        let string = interp::interpolated(self.lang, quote, prefix, false).unwrap_or_default();
        self.string_text(string);
    }

    fn quoted(&mut self, quote: char) {
        self.bump();
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == quote || (c == '\n' && self.lang.strings_end_with_line()) {
                break;
            }
        }
    }

    /// A triple-quoted string (`'''…'''` or `"""…"""`, with backslash escapes), which may span
    /// lines; in C# a raw string (as many quotes close it as opened it, no escapes), in Kotlin
    /// and Scala a raw string that a run of three or more quotes ends at its last three.
    fn triple_quoted(&mut self, quote: char, prefix: &str) {
        let rest = self.rest();
        let run = rest.len() - rest.trim_start_matches(quote).len();
        if let Some(string) = interp::interpolated(self.lang, quote, prefix, true) {
            self.pos += 3;
            return self.string_text(string);
        }
        match self.lang {
            Lang::CSharp => return self.skip_raw(run, &"\"".repeat(run)),
            Lang::Scala => return self.kotlin_raw_string(),
            _ => {}
        }
        self.pos += 3;
        let closer = if quote == '"' { "\"\"" } else { "''" };
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == quote && self.rest().starts_with(closer) {
                self.pos += 2;
                return;
            }
        }
    }

    /// A plain Scala raw string `"""…"""` (no holes): no escapes, and the quotes of a run of more than
    /// three before its last three are text (`"""a""""` holds `a"`).
    fn kotlin_raw_string(&mut self) {
        self.skip_raw(3, "\"\"\"");
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches('"').len();
    }

    /// A Dart raw string after its opener of `opener` bytes (`r'`, `r"`, `r'''`, `r"""`): no
    /// escapes; a single-quoted one ends with its line.
    fn dart_raw_string(&mut self, opener: usize) {
        let rest = self.rest();
        let quotes = rest.get(1..opener).unwrap_or_default();
        if quotes.len() == 3 {
            return self.skip_raw(opener, quotes);
        }
        let body = rest.get(opener..).unwrap_or_default();
        let line = body.split('\n').next().unwrap_or_default();
        self.pos += opener + line.find(quotes).map_or(line.len(), |i| i + 1);
    }

    /// A C# verbatim string after its opener of `opener` bytes (`@"`, `@$"`, `$@"`): no escapes,
    /// `""` is a quote, lines may break inside.
    fn verbatim(&mut self, opener: usize) {
        self.pos += opener;
        while let Some(c) = self.bump() {
            match c {
                '"' if self.rest().starts_with('"') => {
                    self.bump();
                }
                '"' => return,
                _ => {}
            }
        }
    }

    /// A heredoc opener (`<<EOF`, `<<-'EOF'`, `<<~EOF`) at the start of `rest`: its terminator
    /// waits for the end of the line, after which its body starts.
    fn heredoc(&mut self, rest: &'a str) {
        let (terminator, indented, length) = heredoc_opener(self.lang, rest).unwrap_or_default();
        self.heredocs.push((terminator, indented));
        self.pos += length;
    }

    /// At the line break that ends a line with heredoc openers: skips each heredoc's body, up to
    /// and including its terminator line (to the end of the file when there is none).
    fn heredoc_bodies(&mut self) {
        self.bump();
        for (terminator, indented) in std::mem::take(&mut self.heredocs) {
            while !self.rest().is_empty() {
                let rest = self.rest();
                let end = rest.find('\n').unwrap_or(rest.len());
                let line = rest.get(..end).unwrap_or_default().trim_end_matches('\r');
                let line = if indented { line.trim_start() } else { line };
                self.pos += end;
                self.bump();
                if line == terminator {
                    break;
                }
            }
        }
    }

    /// A C++ raw string literal, `R"delim( … )delim"` (a prefix `u8`, `u`, `U`, `L` before `R`).
    fn cpp_raw_string(&mut self) {
        let rest = self.rest();
        let delimiter = cpp_raw_delimiter(rest).unwrap_or("");
        let opener = rest.find('(').map_or(rest.len(), |i| i + 1);
        self.skip_raw(opener, &format!("){delimiter}\""));
    }

    /// `'x'`, `'\n'` (char literals) or `'a` (a lifetime or label).
    fn rust_quote(&mut self) {
        let rest = self.rest();
        let mut chars = rest.chars().skip(1);
        let is_char = matches!(
            (chars.next(), chars.next()),
            (Some('\\'), _) | (Some(_), Some('\''))
        );
        if is_char {
            self.quoted('\'');
        } else {
            self.bump();
        }
    }

    fn raw_string(&mut self) {
        let rest = self.rest();
        let hashes = raw_string_hashes(rest).unwrap_or(0);
        let opener = rest.find('"').map_or(rest.len(), |i| i + 1);
        self.skip_raw(opener, &format!("\"{}", "#".repeat(hashes)));
    }

    /// Skips `opener` bytes, then up to and including `closer` (or to the end), counting lines.
    fn skip_raw(&mut self, opener: usize, closer: &str) {
        self.pos += opener;
        let body = self.rest();
        let end = body.find(closer).map_or(body.len(), |i| i + closer.len());
        for _ in body.get(..end).unwrap_or("").matches('\n') {
            self.line = self.line.saturating_add(1);
        }
        self.pos += end;
    }
}

/// The length of a Rust file's shebang line (`#!/usr/bin/env …`, up to its line feed), which
/// rustc skips; 0 when there is none: `#![…]` (after white space) is an inner attribute.
fn shebang(text: &str, lang: Lang) -> usize {
    let after = text.strip_prefix("#!").filter(|_| lang == Lang::Rust);
    let is_shebang = after.is_some_and(|after| !after.trim_start().starts_with('['));
    let line = text.find('\n').unwrap_or(text.len());
    if is_shebang {
        line
    } else {
        0
    }
}

/// True when `rest` opens a triple-quoted string in `lang`: `"""` in Python, Elixir and the
/// text-block languages, `'''` in those but Java, Kotlin, Scala, Swift and C#.
fn triple_quoted(lang: Lang, rest: &str) -> bool {
    let doubles = matches!(
        lang,
        Lang::Python
            | Lang::Elixir
            | Lang::Java
            | Lang::Kotlin
            | Lang::Scala
            | Lang::Swift
            | Lang::CSharp
            | Lang::Dart
            | Lang::TextBlocks
    );
    let singles = matches!(
        lang,
        Lang::Python | Lang::Elixir | Lang::Dart | Lang::TextBlocks
    );
    (doubles && rest.starts_with("\"\"\"")) || (singles && rest.starts_with("'''"))
}

/// The length of a Dart raw string's opener at the start of `rest` (`r'''`, `r"""`, `r'`, `r"`),
/// or 0 when there is none.
fn dart_raw(rest: &str) -> usize {
    ["r'''", "r\"\"\"", "r'", "r\""]
        .iter()
        .find(|opener| rest.starts_with(**opener))
        .map_or(0, |opener| opener.len())
}

/// The length of a C# verbatim string's opener at the start of `rest` (`@"`, `@$"`, `$@"`), or
/// 0 when there is none.
fn verbatim_opener(rest: &str) -> usize {
    ["@\"", "@$\"", "$@\""]
        .iter()
        .find(|opener| rest.starts_with(**opener))
        .map_or(0, |opener| opener.len())
}

/// The longest heredoc terminator read: a longer word after `<<` is not taken for one.
const MAX_TERMINATOR: usize = 64;

/// For a heredoc opener at the start of `rest` in a shell, Ruby or Perl file: `<<`, then `-` or
/// `~` (the terminator line may be indented), then (shell only: after spaces) a word, bare or
/// in quotes (`'EOF'`, `"EOF"`, `` `EOF` ``, shell's `\EOF`). Returns the terminator, whether it
/// may be indented, and the opener's length; `None` for a shift (`1 << 2`, `x << y`) or
/// anything else.
fn heredoc_opener(lang: Lang, rest: &str) -> Option<(&str, bool, usize)> {
    if !matches!(lang, Lang::Shell | Lang::Ruby | Lang::Perl) {
        return None;
    }
    let after = rest.strip_prefix("<<")?;
    let word = after.strip_prefix(['-', '~']).unwrap_or(after);
    let indented = word.len() < after.len();
    let word = if lang == Lang::Shell {
        word.trim_start_matches([' ', '\t'])
    } else {
        word
    };
    let quote = word.chars().next().filter(|q| "'\"`\\".contains(*q));
    let name = word.get(usize::from(quote.is_some())..).unwrap_or_default();
    let length = name
        .bytes()
        .take(MAX_TERMINATOR + 1)
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let terminator = name.get(..length).unwrap_or_default();
    let closed = match quote {
        Some(q) if q != '\\' => name.get(length..).is_some_and(|r| r.starts_with(q)),
        _ => true,
    };
    let valid = closed
        && (1..=MAX_TERMINATOR).contains(&length)
        && !terminator.starts_with(|c: char| c.is_ascii_digit());
    let close = usize::from(quote.is_some_and(|q| q != '\\'));
    valid.then(|| {
        let used = rest.len() - name.len() + length + close;
        (terminator, indented, used)
    })
}

/// The longest delimiter of a C++ raw string literal, in characters (bytes: they are ASCII).
const MAX_DELIMITER: usize = 16;

/// For a C++ raw string literal `R"delim(`, `u8R"delim(`, `uR"`, `UR"`, `LR"`: the delimiter
/// (at most 16 characters, none of them a space, a parenthesis, a backslash or a quote); `None`
/// when `text` does not open one.
pub(super) fn cpp_raw_delimiter(text: &str) -> Option<&str> {
    let after_prefix = ["R\"", "u8R\"", "uR\"", "UR\"", "LR\""]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))?;
    // Only the 17 bytes a delimiter and its `(` can fill are looked at: a scan to the next `(`
    // would cross the whole file at each of a million `R"`s.
    let window = after_prefix
        .as_bytes()
        .get(..=MAX_DELIMITER)
        .unwrap_or(after_prefix.as_bytes());
    let length = window.iter().position(|&b| b == b'(')?;
    let delimiter = after_prefix.get(..length).unwrap_or_default();
    let valid = !delimiter.contains([' ', ')', '\\', '"', '\n', '\t']);
    valid.then_some(delimiter)
}

/// For `r"…"`, `r#"…"#`, `br"…"`: the number of `#`s; `None` when `text` does not open a raw
/// string.
pub(super) fn raw_string_hashes(text: &str) -> Option<usize> {
    let after_b = text.strip_prefix('b').unwrap_or(text);
    let after_r = after_b.strip_prefix('r')?;
    let after_hashes = after_r.trim_start_matches('#');
    let hashes = after_r.len() - after_hashes.len();
    after_hashes.starts_with('"').then_some(hashes)
}

#[path = "lexer_hash.rs"]
mod hash;
#[path = "lexer_interp.rs"]
mod interp;
#[path = "lexer_jsx.rs"]
mod jsx;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lexer_tests.rs"]
mod tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lexer_hash_tests.rs"]
mod hash_tests;

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
#[path = "lexer_interp_tests.rs"]
mod interp_tests;
