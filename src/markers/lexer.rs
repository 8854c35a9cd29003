//! The comment lexers behind [`super::scan`]: where comments are in a source file, per
//! language ([`Lang`]): Rust (`//`, nested `/* */`, strings, raw strings, chars and lifetimes),
//! C-like languages (`//`, `/* */`, strings and chars, which end with their line, C++ raw strings
//! `R"d(…)d"`, digit separators `1'000`) and `#`-comment languages.

/// How comments are written in a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Rust: `//`, nested `/* */`, raw strings, lifetimes.
    Rust,
    /// C, C++, Java, JavaScript, Go, …: `//` and `/* */`.
    CLike,
    /// Python, shell, Ruby, …: `#`.
    Hash,
}

impl Lang {
    /// The language of a path, by extension (C-like when unknown).
    pub fn of(path: &str) -> Lang {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "rs" => Lang::Rust,
            "py" | "sh" | "bash" | "rb" | "pl" | "pm" | "r" | "R" | "ex" | "exs" | "cmake" => {
                Lang::Hash
            }
            _ => Lang::CLike,
        }
    }
}

/// The comment text of a source file, as (1-based line, text of the comment on that line)
/// pieces; a block comment spanning lines gives one piece per line. Rust doc comments (`///`,
/// `//!`, `/** */`, `/*! */`) are documentation, not comments: a marker written there (to
/// document it) does nothing.
pub fn comments(text: &str, lang: Lang) -> Vec<(u32, &str)> {
    let mut lexer = Lexer {
        text,
        pos: 0,
        line: 1,
        lang,
        doc: false,
        word_start: None,
        out: Vec::new(),
    };
    lexer.run();
    lexer.out
}

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
    out: Vec<(u32, &'a str)>,
}

impl<'a> Lexer<'a> {
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
            match (self.lang, c) {
                (Lang::CLike, '\'') if in_number => {
                    self.bump();
                    self.word_start = word_start;
                }
                (Lang::CLike, _) if word_start.is_none() && cpp_raw_delimiter(rest).is_some() => {
                    self.cpp_raw_string();
                }
                (Lang::Hash, '#') => self.line_comment(1),
                (Lang::Rust | Lang::CLike, '/') if rest.starts_with("//") => self.line_comment(2),
                (Lang::Rust | Lang::CLike, '/') if rest.starts_with("/*") => self.block_comment(),
                (Lang::Rust, 'r' | 'b') if raw_string_hashes(rest).is_some() => self.raw_string(),
                (_, '"') => self.quoted('"'),
                (Lang::Rust, '\'') => self.rust_quote(),
                (Lang::CLike | Lang::Hash, '\'') => self.quoted('\''),
                _ => {
                    let at = self.pos;
                    self.bump();
                    if c.is_alphanumeric() || c == '_' {
                        self.word_start = Some(word_start.unwrap_or(at));
                    }
                }
            }
        }
    }

    fn line_comment(&mut self, opener: usize) {
        self.pos += opener;
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        let doc = self.lang == Lang::Rust && rest.starts_with(['/', '!']);
        if !doc {
            self.out.push((self.line, rest.get(..end).unwrap_or("")));
        }
        self.pos += end;
    }

    fn block_comment(&mut self) {
        self.pos += 2;
        let rest = self.rest();
        self.doc = self.lang == Lang::Rust
            && (rest.starts_with('!') || (rest.starts_with('*') && !rest.starts_with("*/")));
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
            } else if self.lang == Lang::Rust && rest.starts_with("/*") {
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
    fn quoted(&mut self, quote: char) {
        self.bump();
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == quote || (c == '\n' && self.lang == Lang::CLike) {
                break;
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

/// For a C++ raw string literal `R"delim(`, `u8R"delim(`, `uR"`, `UR"`, `LR"`: the delimiter
/// (at most 16 characters, none of them a space, a parenthesis, a backslash or a quote); `None`
/// when `text` does not open one.
pub(super) fn cpp_raw_delimiter(text: &str) -> Option<&str> {
    let after_prefix = ["R\"", "u8R\"", "uR\"", "UR\"", "LR\""]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))?;
    let (delimiter, _) = after_prefix.split_once('(')?;
    let valid = delimiter.len() <= 16 && !delimiter.contains([' ', ')', '\\', '"', '\n', '\t']);
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
