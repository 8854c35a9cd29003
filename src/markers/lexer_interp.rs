//! String literals with interpolations: code (with its own strings and comments) inside a hole
//! of a string's text, as JavaScript's template literals `` `a ${b}` ``, Kotlin's, Dart's and
//! Groovy's `"a ${b}"`, Scala's `s"a ${b}"`, Swift's `"a \(b)"`, Ruby's and Elixir's
//! `"a #{b}"`, C#'s `$"a {b}"` and Python's f-strings `f"a {b}"` have them. The text resumes at
//! the bracket that closes the hole, so a quote inside a hole (`"${m["k"]}"`) neither ends the
//! string nor starts one, and a marker after the string is where the compiler sees it.

use super::{Lang, Lexer};

/// What opens a hole in a string's text, and the brackets that nest inside it. (`$$` is a
/// dollar of the text in Scala, `\$` in the others.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Opener {
    /// `${…}` (JavaScript, Kotlin, Scala, Dart, Groovy).
    #[default]
    Dollar,
    /// `#{…}` (Ruby, Elixir).
    Hash,
    /// `\(…)` (Swift).
    Paren,
    /// `{…}`, where `{{` is a brace of the text (C#, Python); a `:` (and in Python a `!r`,
    /// `!s`, `!a`) at the hole's own level starts its format specification, which is text.
    Brace,
}

impl Opener {
    /// The bracket that opens a nested pair inside the hole, and the one that closes it.
    fn brackets(self) -> (char, char) {
        match self {
            Opener::Paren => ('(', ')'),
            _ => ('{', '}'),
        }
    }
}

/// A string literal whose text may hold holes: how its text is read, and read again after a
/// hole closes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Interpolated {
    /// The quote that ends it (three of them when `triple`).
    pub(super) quote: char,
    /// A `"""…"""` (or `'''…'''`) literal, which spans lines.
    pub(super) triple: bool,
    /// Kotlin's and Scala's raw `"""…"""`: `\` is text, and a run of more than three quotes ends
    /// at its last three.
    pub(super) raw: bool,
    pub(super) opener: Opener,
}

/// JavaScript's template literal `` `…${…}…` ``.
pub(super) const TEMPLATE: Interpolated = Interpolated {
    quote: '`',
    triple: false,
    raw: false,
    opener: Opener::Dollar,
};

/// The interpolated string that `quote` (the first of three when `triple`) opens after
/// `prefix` (the word right before it, empty when none) in `lang`; `None` when that string has
/// no holes (Java, C, Rust, a plain Scala string, a Python string that is no f-string, …).
pub(super) fn interpolated(
    lang: Lang,
    quote: char,
    prefix: &str,
    triple: bool,
) -> Option<Interpolated> {
    let double = quote == '"';
    let opener = match lang {
        Lang::Kotlin | Lang::TextBlocks => double.then_some(Opener::Dollar),
        Lang::Scala => (double && !prefix.is_empty()).then_some(Opener::Dollar),
        Lang::Dart => Some(Opener::Dollar),
        Lang::Swift => double.then_some(Opener::Paren),
        Lang::Ruby => double.then_some(Opener::Hash),
        // A sigil's name before its quotes: an upper-case sigil (`~S"""…"""`) has no holes.
        Lang::Elixir => (double && !prefix.starts_with(char::is_uppercase)).then_some(Opener::Hash),
        Lang::CSharp => (prefix == "$").then_some(Opener::Brace),
        Lang::Python => f_string_prefix(prefix).then_some(Opener::Brace),
        _ => None,
    }?;
    let raw = triple && matches!(lang, Lang::Kotlin | Lang::Scala);
    Some(Interpolated {
        quote,
        triple,
        raw,
        opener,
    })
}

/// True for the prefixes of a Python f-string: `f` or `F`, alone or with `r` or `R`.
fn f_string_prefix(prefix: &str) -> bool {
    prefix.len() <= 2 && prefix.contains(['f', 'F']) && prefix.chars().all(|c| "fFrR".contains(c))
}

impl Lexer<'_> {
    /// The text of an interpolated string, from after its opening quote (or the bracket that
    /// closes one of its holes) to its closing quote, or to a hole's opener, where code resumes
    /// until the hole's closing bracket ([`Self::hole_bracket`]).
    pub(super) fn string_text(&mut self, string: Interpolated) {
        let ends_with_line =
            !string.triple && string.quote != '`' && self.lang.strings_end_with_line();
        while let Some(c) = self.bump() {
            let rest = self.rest();
            match c {
                '\\' if string.opener == Opener::Paren && rest.starts_with('(') => {
                    return self.open_hole(string);
                }
                '\\' if !string.raw => {
                    self.bump();
                }
                _ if c == string.quote && self.closes(string) => return,
                '\n' if ends_with_line => return,
                '$' if self.lang == Lang::Scala && rest.starts_with('$') => {
                    self.bump();
                }
                '$' if string.opener == Opener::Dollar && rest.starts_with('{') => {
                    return self.open_hole(string);
                }
                '#' if string.opener == Opener::Hash && rest.starts_with('{') => {
                    return self.open_hole(string);
                }
                '{' if string.opener == Opener::Brace && rest.starts_with('{') => {
                    self.bump();
                }
                '{' if string.opener == Opener::Brace => {
                    self.holes.push((string, 0));
                    return;
                }
                _ => {}
            }
        }
    }

    /// At a quote of `string` (already read): true when it ends the string, with the rest of a
    /// closing `"""` (and, in a raw string, the run of quotes before its last three) read.
    fn closes(&mut self, string: Interpolated) -> bool {
        let quote = string.quote;
        if !string.triple {
            return true;
        }
        let rest = self.rest();
        let after = rest.trim_start_matches(quote);
        let run = (rest.len() - after.len()) / quote.len_utf8();
        let closes = run >= 2;
        let taken = match (closes, string.raw) {
            (false, _) => 0,
            (true, true) => run,
            (true, false) => 2,
        };
        self.pos += taken * quote.len_utf8();
        closes
    }

    /// Reads the hole opener's second character (`{` of `${`, `#{`, `(` of `\(`).
    fn open_hole(&mut self, string: Interpolated) {
        self.bump();
        self.holes.push((string, 0));
    }

    /// True when `c` is a bracket that nests in, or closes, the innermost hole the lexer is in.
    pub(super) fn in_hole_bracket(&self, c: char) -> bool {
        self.holes.last().is_some_and(|(string, _)| {
            let (open, close) = string.opener.brackets();
            c == open || c == close
        })
    }

    /// A bracket of the innermost hole's kind, in its code: the one that closes the hole
    /// resumes the string's text.
    pub(super) fn hole_bracket(&mut self, c: char) {
        self.bump();
        let (string, depth) = self.holes.pop().unwrap_or_default();
        let (open, _) = string.opener.brackets();
        match (c == open, depth) {
            (true, _) => self.holes.push((string, depth + 1)),
            (false, 0) => self.string_text(string),
            (false, _) => self.holes.push((string, depth - 1)),
        }
    }

    /// True at the `:` (or Python's `!r`, `!s`, `!a`) that starts the format specification of a
    /// C# or Python hole, at the hole's own level.
    pub(super) fn format_spec_starts(&self, c: char) -> bool {
        let top = self
            .holes
            .last()
            .is_some_and(|(string, depth)| string.opener == Opener::Brace && *depth == 0);
        let conversion = c == '!'
            && self.lang == Lang::Python
            && self
                .rest()
                .get(1..)
                .is_some_and(|r| r.starts_with(['r', 's', 'a']));
        top && (c == ':' || conversion)
    }

    /// A format specification (`{x:>10}`, `{d:yyyy'-'MM}`): text, quotes included, up to the
    /// `}` that closes the hole; `{…}` inside are nested fields.
    pub(super) fn format_spec(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.bump() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    let (string, _) = self.holes.pop().unwrap_or_default();
                    return self.string_text(string);
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
    }
}

impl Lexer<'_> {
    /// At a run of `#` in Swift: a raw string, or the whole run (`#if`, `#selector`), taken at
    /// once so that a long run costs its length, not its length squared.
    pub(super) fn swift_hashes(&mut self, rest: &str) {
        match swift_raw(rest) {
            Some((opener, closer)) => self.skip_raw(opener, &closer),
            None => self.pos += rest.len() - rest.trim_start_matches('#').len(),
        }
    }
}

/// For a Swift raw string at the start of `rest` (`#"…"#`, `##"…"##`, `#"""…"""#`): the
/// opener's length and the closer; `None` when `rest` opens none (`#if`, `#selector`).
fn swift_raw(rest: &str) -> Option<(usize, String)> {
    let after = rest.trim_start_matches('#');
    let hashes = rest.len() - after.len();
    let quotes = if after.starts_with("\"\"\"") {
        3
    } else {
        usize::from(after.starts_with('"'))
    };
    (quotes > 0).then(|| {
        let closer = format!("{}{}", "\"".repeat(quotes), "#".repeat(hashes));
        (hashes + quotes, closer)
    })
}
