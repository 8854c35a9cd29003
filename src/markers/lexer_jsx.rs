//! JSX elements in `.jsx` and `.tsx` files: an element's text (`<p>// not a comment</p>`) and
//! its attribute strings are neither code nor comments, while a comment inside `{…}` is one.
//! What the lexer does not follow exactly (a template literal inside `{…}`, an element nested
//! too deep, a file that ends inside an element) makes it unsure from that line on.

use super::Lexer;

/// How deep elements inside `{…}` inside elements are followed before the lexer gives up.
const MAX_NESTING: usize = 32;

/// Words after which an expression starts, so a `<` opens an element.
const EXPRESSION_WORDS: [&str; 6] = ["return", "yield", "default", "case", "else", "await"];

impl<'a> Lexer<'a> {
    /// True when the `<` at the lexer's position opens a JSX element or fragment: a name or `>`
    /// follows, and an expression starts before it (an operator, an opening bracket, `=>`,
    /// `return`, the start of the file), not an operand (`a <b`), and it is no TypeScript type
    /// parameter list (`<T,>`, `<T extends U>`).
    pub(super) fn jsx_opens(&self) -> bool {
        let rest = self.rest();
        let after = &rest[1..];
        let name = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
            .count();
        let next = &after[name..];
        let starts = after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '>');
        let generic = next.starts_with(',') || next.starts_with(" extends ");
        starts && !generic && self.expression_before()
    }

    /// True when the code before the lexer's position (white space and line ends skipped) ends
    /// in an operator, an opening bracket, one of [`EXPRESSION_WORDS`], or nothing.
    fn expression_before(&self) -> bool {
        let code = self.text[..self.pos].trim_end();
        let word = code.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '$');
        let last = code.chars().next_back();
        match last {
            None => true,
            Some(c) if c.is_alphanumeric() || c == '_' || c == '$' => {
                EXPRESSION_WORDS.contains(&&code[word.len()..])
            }
            Some(c) => !matches!(c, ')' | ']' | '}' | '"' | '\'' | '`'),
        }
    }

    /// A JSX element (or fragment) from its `<` to the end of its closing tag, with the
    /// elements, text and `{…}` inside.
    pub(super) fn jsx_element(&mut self) {
        let line = self.line;
        self.nesting += 1;
        let deep = self.nesting > MAX_NESTING;
        if deep {
            // Past the `<`, so that the lexer moves on.
            self.bump();
        }
        if deep || !self.jsx_tree() {
            self.doubt_from(line);
        }
        self.nesting -= 1;
    }

    /// [`Self::jsx_element`]'s walk: false where it stops unsure.
    fn jsx_tree(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            self.bump();
            let closing = self.rest().starts_with('/');
            if closing {
                self.bump();
            }
            let Some(self_closing) = self.jsx_tag() else {
                return false;
            };
            if closing {
                depth = depth.saturating_sub(1);
            } else if !self_closing {
                depth += 1;
            }
            if depth == 0 {
                return true;
            }
            if !self.jsx_children() {
                return false;
            }
        }
    }

    /// A tag's name and attributes, after its `<` (and `/`), to its `>` or `/>`: whether it
    /// closes itself, or `None` where the lexer stops unsure.
    fn jsx_tag(&mut self) -> Option<bool> {
        loop {
            let rest = self.rest();
            match rest.chars().next()? {
                '/' if rest.starts_with("/>") => {
                    self.pos += 2;
                    return Some(true);
                }
                '>' => {
                    self.pos += 1;
                    return Some(false);
                }
                // Attribute strings have no escapes and may span lines.
                q @ ('"' | '\'') => self.skip_raw(1, if q == '"' { "\"" } else { "'" }),
                '{' => {
                    if !self.jsx_braces() {
                        return None;
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// An element's children after its opening tag, up to the `<` of the next tag: text,
    /// and code in `{…}`. False where the lexer stops unsure.
    fn jsx_children(&mut self) -> bool {
        loop {
            match self.rest().chars().next() {
                None => return false,
                Some('<') => return true,
                Some('{') => {
                    if !self.jsx_braces() {
                        return false;
                    }
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
    }

    /// A `{…}` in an element: code, with its comments, strings and elements. False where the
    /// lexer stops unsure (a template literal, a regular expression it cannot tell, the end).
    fn jsx_braces(&mut self) -> bool {
        self.bump();
        let mut depth = 1usize;
        loop {
            let rest = self.rest();
            let Some(c) = rest.chars().next() else {
                return false;
            };
            match c {
                '{' => {
                    depth += 1;
                    self.bump();
                }
                '}' => {
                    depth -= 1;
                    self.bump();
                    if depth == 0 {
                        return true;
                    }
                }
                '"' | '\'' => self.quoted(c),
                '/' if rest.starts_with("//") => self.line_comment(2),
                '/' if rest.starts_with("/*") => self.block_comment(),
                '<' if self.jsx_opens() => self.jsx_element(),
                '`' | '/' => return false,
                _ => {
                    self.bump();
                }
            }
        }
    }
}
