//! The literals of the `#`-comment languages beyond strings and heredocs: shell's `\` and `'…'`,
//! CMake's bracket arguments and comments, R's backquotes and raw strings, Elixir's sigils and
//! char literals, Ruby's `=begin` and `%` literals, Perl's POD and quote-like operators, and the
//! regular expressions of both. Where only a parser could tell a literal from an operator (Ruby's
//! `x /y/`, Perl's `s = …`), the lexer notes that it cannot be sure from that line on
//! ([`Lexer::doubt`]).

use super::{Lang, Lexer};

/// Ruby and Perl words after which an expression starts, so a `/` opens a regular expression.
const EXPRESSION_WORDS: [&str; 20] = [
    "if", "elsif", "unless", "while", "until", "when", "and", "or", "not", "return", "then", "do",
    "case", "in", "split", "grep", "map", "join", "push", "unshift",
];

/// Perl's quote-like operators, which take a delimiter of the writer's choice.
const PERL_QUOTES: [&str; 8] = ["q", "qq", "qw", "qr", "m", "s", "tr", "y"];

/// What the code before a token is, for telling `/`, `%` and `?` apart (Ruby, Perl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Before {
    /// An operand (a name, a number, a closing bracket or quote), right before the token: an
    /// operator follows.
    Operand,
    /// A name, then white space: a call's argument or an operator, which only a parser tells.
    Name,
    /// An operator, an opening bracket, a keyword or the line's start: an expression follows.
    Expression,
}

impl<'a> Lexer<'a> {
    /// Notes that the lexer cannot be sure of what follows, from the current line on: a marker
    /// there is not honoured ([`super::lex`]).
    pub(super) fn doubt(&mut self) {
        self.doubt_from(self.line);
    }

    /// Notes that the lexer cannot be sure of what follows `line` (where the literal it could
    /// not follow began).
    pub(super) fn doubt_from(&mut self, line: u32) {
        self.unsure.get_or_insert(line);
    }

    /// Lexes the literal that `c` opens at the lexer's position in a `#`-comment language;
    /// false when it opens none there (the common rules go on). `word` is true when `c`
    /// continues a word.
    pub(super) fn hash_literal(&mut self, c: char, word: bool) -> bool {
        let rest = self.rest();
        let at_line_start = self.pos == 0 || self.text.as_bytes().get(self.pos - 1) == Some(&b'\n');
        match (self.lang, c) {
            (Lang::Shell | Lang::CMake, '\\') => {
                let at = self.pos;
                self.bump();
                self.bump();
                self.word_start = Some(at);
            }
            // bash's ANSI-C quoting `$'…'` takes escapes (`$'don\'t'`); `\$'` opens none.
            (Lang::Shell, '\'') if self.ansi_c_quote() => self.quoted('\''),
            (Lang::Shell, '\'') => self.skip_raw(1, "'"),
            (Lang::CMake, '\'') => self.pos += 1,
            (Lang::CMake, '#') if bracket(rest.get(1..).unwrap_or_default()).is_some() => {
                let (open, close) = bracket(rest.get(1..).unwrap_or_default()).unwrap_or_default();
                self.comment_until(open + 1, &close);
            }
            (Lang::CMake, '[') if bracket(rest).is_some() => {
                let (open, close) = bracket(rest).unwrap_or_default();
                self.skip_raw(open, &close);
            }
            (Lang::R, '`') => self.quoted('`'),
            (Lang::R, 'r' | 'R') if !word && r_raw(rest).is_some() => {
                let (open, close) = r_raw(rest).unwrap_or_default();
                self.skip_raw(open, &close);
            }
            (Lang::Elixir, '~') if sigil(rest) > 0 => self.sigil(sigil(rest)),
            (Lang::Elixir, '?') if !word => {
                self.bump();
                if self.bump() == Some('\\') {
                    self.bump();
                }
            }
            (Lang::Ruby, '=') if at_line_start && rest.starts_with("=begin") => {
                self.comment_until("=begin".len(), "\n=end");
            }
            (Lang::Perl, '=') if at_line_start && rest[1..].starts_with(char::is_alphabetic) => {
                self.skip_raw(1, "\n=cut");
            }
            (Lang::Ruby | Lang::Perl, '_') if at_line_start && data_section(rest) => {
                self.pos = self.text.len();
            }
            (Lang::Ruby | Lang::Perl, '\'' | '"' | '#') if self.text[..self.pos].ends_with('$') => {
                self.pos += 1;
            }
            (Lang::Ruby | Lang::Perl, '/') => self.slash(),
            (Lang::Ruby, '%') => self.percent(rest),
            (Lang::Ruby, '?') => self.question(rest),
            (Lang::Perl, _) if !word && !self.after_sigil() && perl_quote(rest).is_some() => {
                self.perl_quote(rest);
            }
            _ => return false,
        }
        true
    }

    /// True when the `'` at the lexer's position opens a shell ANSI-C string: a `$` that no
    /// `\` escapes comes right before it.
    fn ansi_c_quote(&self) -> bool {
        let head = &self.text[..self.pos];
        head.ends_with('$') && !head.ends_with("\\$")
    }

    /// True after a Perl sigil or `->` (`$s`, `@y`, `$x->s`): a name there is no operator.
    fn after_sigil(&self) -> bool {
        let head = &self.text[..self.pos];
        head.ends_with(['$', '@', '%', '&']) || head.ends_with("->")
    }

    /// What the code right before the lexer's position is (on its line).
    fn before(&self) -> Before {
        let head = &self.text[..self.pos];
        let code = head.trim_end_matches([' ', '\t']);
        let spaced = code.len() < head.len();
        let Some(last) = code.chars().next_back() else {
            return Before::Expression;
        };
        if last.is_alphanumeric() || last == '_' {
            let name = code.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_');
            let name = &code[name.len()..];
            return match (EXPRESSION_WORDS.contains(&name), spaced) {
                (true, _) => Before::Expression,
                (false, false) => Before::Operand,
                (false, true) if name.starts_with(|c: char| c.is_ascii_digit()) => Before::Operand,
                (false, true) => Before::Name,
            };
        }
        if matches!(last, ')' | ']' | '}' | '"' | '\'' | '`') {
            Before::Operand
        } else {
            Before::Expression
        }
    }

    /// A `/` in Ruby or Perl: a division after an operand, a regular expression after an
    /// operator (`=~ /#…/`); after a name and a space (`x /y/`), doubt.
    fn slash(&mut self) {
        let next = self.rest()[1..].chars().next();
        match self.before() {
            Before::Operand => self.pos += 1,
            Before::Name if next.is_none_or(|c| c == ' ' || c == '=') => self.pos += 1,
            Before::Name => {
                self.doubt();
                self.pos += 1;
            }
            Before::Expression => {
                self.pos += 1;
                self.delimited('/');
            }
        }
    }

    /// A `%` in Ruby: modulo after an operand, a `%` literal (`%r{…}`, `%w[…]`, `%(…)`) after an
    /// operator; after a name and a space, doubt.
    fn percent(&mut self, rest: &str) {
        let kind = rest[1..].strip_prefix(['q', 'Q', 'w', 'W', 'i', 'I', 'r', 's', 'x']);
        let body = kind.unwrap_or(&rest[1..]);
        let delimiter = body
            .chars()
            .next()
            .filter(|c| !c.is_alphanumeric() && !c.is_whitespace());
        match (self.before(), delimiter) {
            (Before::Operand, _) | (_, None) | (Before::Name, Some('=')) => self.pos += 1,
            (Before::Name, Some(_)) => {
                self.doubt();
                self.pos += 1;
            }
            (Before::Expression, Some(open)) => {
                self.pos += rest.len() - body.len() + open.len_utf8();
                self.delimited(open);
            }
        }
    }

    /// A `?` in Ruby: a char literal (`?#`, `?\n`) where an expression starts, else the
    /// conditional operator; after a name and a space, doubt when a quote or `#` follows.
    fn question(&mut self, rest: &str) {
        let next = rest[1..].chars().next().unwrap_or(' ');
        match self.before() {
            Before::Expression if !next.is_whitespace() => {
                self.pos += 1;
                if self.bump() == Some('\\') {
                    self.bump();
                }
            }
            Before::Name if matches!(next, '#' | '"' | '\'' | '`' | '\\') => {
                self.doubt();
                self.pos += 1;
            }
            _ => self.pos += 1,
        }
    }

    /// A Perl quote-like operator (`qw#…#`, `s{…}{…}`, `tr/a/b/`) at the start of `rest`.
    fn perl_quote(&mut self, rest: &str) {
        let line = self.line;
        let (name, open) = perl_quote(rest).unwrap_or_default();
        self.pos += name.len();
        self.skip_space();
        self.bump();
        self.delimited(open);
        if !matches!(name, "s" | "tr" | "y") {
            return;
        }
        if closer(open) == open {
            return self.delimited(open);
        }
        self.skip_space();
        let second = self.rest().chars().next().unwrap_or(' ');
        if closer(second) == second {
            return self.doubt_from(line);
        }
        self.bump();
        self.delimited(second);
    }

    /// Skips white space, line ends included.
    fn skip_space(&mut self) {
        while self.rest().starts_with(char::is_whitespace) {
            self.bump();
        }
    }

    /// An Elixir sigil (`~S(…)`, `~r/…/`, `~s"""…"""`) whose letters take `letters` bytes after
    /// its `~`.
    fn sigil(&mut self, letters: usize) {
        let line = self.line;
        let name = self.text.get(self.pos + 1..self.pos + 1 + letters);
        self.pos += 1 + letters;
        let rest = self.rest();
        let open = rest.chars().next().unwrap_or('"');
        if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            return self.triple_quoted(open, name.unwrap_or_default());
        }
        self.bump();
        let start = self.pos;
        self.delimited_flat(open);
        // Whether a bracket nests in a sigil is not checked here: doubt when one is inside.
        let body = self.text.get(start..self.pos).unwrap_or_default();
        if closer(open) != open && body.contains(open) {
            self.doubt_from(line);
        }
    }

    /// Skips a literal's text after its opening `open`, up to its closing delimiter (brackets
    /// nest), with `\` escapes; lines may break inside.
    fn delimited(&mut self, open: char) {
        let close = closer(open);
        let mut depth = 1usize;
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            } else if c == open {
                depth += 1;
            }
        }
    }

    /// As [`Self::delimited`], without nesting.
    fn delimited_flat(&mut self, open: char) {
        let close = closer(open);
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == close {
                return;
            }
        }
    }

    /// A comment from an opener of `opener` bytes to `closer` (or the end of the file), as one
    /// piece per line: CMake's `#[[…]]`, Ruby's `=begin`…`=end`.
    fn comment_until(&mut self, opener: usize, closer: &str) {
        self.pos += opener;
        let body = self.rest();
        let end = body.find(closer).unwrap_or(body.len());
        for (i, piece) in body[..end].split('\n').enumerate() {
            if i > 0 {
                self.bump();
            }
            self.out.push((self.line, piece));
            self.pos += piece.len();
        }
        self.skip_raw(0, closer);
    }
}

/// The closing delimiter of a literal opened by `open`: the matching bracket, or itself.
fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        _ => open,
    }
}

/// For a CMake bracket opener at the start of `rest` (`[[`, `[=[`, `[==[`): its length and its
/// closer (`]]`, `]=]`, …).
fn bracket(rest: &str) -> Option<(usize, String)> {
    let after = rest.strip_prefix('[')?;
    let equals = after.len() - after.trim_start_matches('=').len();
    after[equals..]
        .starts_with('[')
        .then(|| (equals + 2, format!("]{}]", "=".repeat(equals))))
}

/// For an R raw string opener at the start of `rest` (`r"(`, `R'[`, `r"--{`): its length and
/// its closer (`)"`, `]'`, `}--"`).
fn r_raw(rest: &str) -> Option<(usize, String)> {
    let quote = rest[1..]
        .chars()
        .next()
        .filter(|q| *q == '"' || *q == '\'')?;
    let after = &rest[2..];
    let dashes = after.len() - after.trim_start_matches('-').len();
    let open = after[dashes..]
        .chars()
        .next()
        .filter(|c| "([{".contains(*c))?;
    Some((
        2 + dashes + 1,
        format!("{}{}{quote}", closer(open), "-".repeat(dashes)),
    ))
}

/// The length of an Elixir sigil's letters after the `~` at the start of `rest` (a lower-case
/// letter, or upper-case letters and digits), when a delimiter follows; 0 when none opens.
fn sigil(rest: &str) -> usize {
    let after = &rest[1..];
    let letters = match after.chars().next() {
        Some(c) if c.is_ascii_lowercase() => 1,
        Some(c) if c.is_ascii_uppercase() => after
            .bytes()
            .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            .count(),
        _ => 0,
    };
    let delimiter = after[letters..].chars().next().unwrap_or(' ');
    if letters > 0 && "/|\"'([{<".contains(delimiter) {
        letters
    } else {
        0
    }
}

/// True when `rest` is a line `__END__` (Ruby, Perl) or `__DATA__` (Perl), after which the
/// file is data.
fn data_section(rest: &str) -> bool {
    let line = rest.split('\n').next().unwrap_or_default().trim_end();
    line == "__END__" || line == "__DATA__"
}

/// For a Perl quote-like operator at the start of `rest` (`qw#`, `s {`, `m!`): its name and
/// opening delimiter. `None` for a name that is no such operator, one followed by `=>` or `,`
/// (a hash key, a list item), or one whose delimiter after white space is `#` (a comment).
fn perl_quote(rest: &str) -> Option<(&str, char)> {
    let length = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let name = &rest[..length];
    if !PERL_QUOTES.contains(&name) {
        return None;
    }
    let after = &rest[length..];
    let body = after.trim_start();
    let open = body.chars().next()?;
    let spaced = body.len() < after.len();
    let refused = body.starts_with("=>")
        || matches!(open, ',' | ';' | ')' | '}' | '=')
        || open.is_alphanumeric()
        || open == '_'
        || (spaced && open == '#');
    (!refused).then_some((name, open))
}
