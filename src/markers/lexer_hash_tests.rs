//! The `#`-comment languages' literals and JSX elements: a marker in one is text; where the
//! lexer cannot follow, it is unsure from that line on.

use super::*;

/// The lines of the comments that hold `MARK`, and the line from which the lexer is unsure.
fn lexed(text: &str, lang: Lang) -> (Vec<u32>, Option<u32>) {
    let lexed = lex(text, lang);
    let lines = lexed
        .comments
        .into_iter()
        .filter(|(_, comment)| comment.contains("MARK"))
        .map(|(line, _)| line)
        .collect();
    (lines, lexed.unsure)
}

#[test]
fn shell_escapes_and_single_quotes() {
    let text = "echo \\# MARK 1\ndir='C:\\'; hint='# MARK 2'\necho a\\\\#b # MARK 3\n";
    assert_eq!(lexed(text, Lang::Shell), (vec![3], None));
}

#[test]
fn cmake_brackets_escapes_and_apostrophes() {
    let text = "message([=[ # MARK 1 ]=])\n#[[ note:\n\" ]]\nmessage(\"# MARK 4\")\n\
                #[==[ MARK 5\nMARK 6 ]==] x # MARK 6\nmessage(don't) # MARK 7\n\
                set(x a\\#b) # MARK 8\nx[1] # MARK 9\n#[[ open\n# MARK 11\n";
    assert_eq!(lexed(text, Lang::CMake), (vec![5, 6, 6, 7, 8, 9, 11], None));
}

#[test]
fn r_backquotes_and_raw_strings() {
    let text = "`# MARK 1` <- function() 1\nx <- r\"(a \" # MARK 2 )\" # MARK 2\n\
                y <- R'---[ ]' # ]---' # MARK 3\nr <- 1 # MARK 4\nz <- r\"x\" # MARK 5\n\
                w <- ar\"(\" # MARK 6\n";
    assert_eq!(lexed(text, Lang::R), (vec![2, 3, 4, 5, 6], None));
}

#[test]
fn elixir_sigils_and_char_literals() {
    let text = "def f, do: ~S(# MARK 1) end\nx = ?# # MARK 2\ny = ~r/a\\/# MARK 3/ # MARK 3\n\
                s = ~s\"\"\"\n# MARK 5\n\"\"\" # MARK 6\nq = ?\\\\ # MARK 7\n\
                t = ~S(a(b) # MARK 8) # MARK 8\nz = ~ # MARK 9\nv = ~x # MARK 10\n\
                a = valid?(\"#\") # MARK 11\nb = ~R2D2[x] # MARK 12\n";
    assert_eq!(
        lexed(text, Lang::Elixir),
        (vec![2, 3, 6, 7, 8, 9, 10, 11, 12], Some(8))
    );
}

#[test]
fn ruby_regular_expressions_percent_literals_and_chars() {
    let text = "puts \"s\" if line =~ /# MARK 1/\nputs \"s\" if line =~ %r{# {MARK} 2}\n\
                x = a / b # MARK 3\ny = a/2 # MARK 4\nz = ?# # MARK 5\nw = c ? 1 : 2 # MARK 6\n\
                v = 10 % 3 # MARK 7\nu = %w[a b] # MARK 8\n=begin\nMARK 10\n=end\n\
                puts $' # MARK 12\nif /x/ then end # MARK 13\nq = x %= 2 # MARK 14\n\
                p = % 2 # MARK 15\nn = (a) / 2 # MARK 16\no = x ? y : z # MARK 17\n\
                __END__\n# MARK 19\n";
    assert_eq!(
        lexed(text, Lang::Ruby),
        (vec![3, 4, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17], None)
    );
    // Only a parser tells a call's argument from an operator after a name and a space.
    for (text, line) in [
        ("x = 1\ny = foo /a# MARK 2/\n", 2),
        ("puts %w[a] # MARK 1\n", 1),
        ("x = y ?# MARK 1\n", 1),
    ] {
        assert_eq!(lexed(text, Lang::Ruby).1, Some(line), "{text}");
    }
    // A `__END__` that is not alone on its line is code.
    assert_eq!(lexed("__END__ = 1 # MARK 1\n", Lang::Ruby), (vec![1], None));
}

#[test]
fn perl_quote_like_operators_pod_and_last_indexes() {
    let text = "my @w = qw# MARK 1 #; print \"@w\\n\";\n$line =~ s#//\\s*MARK 2##; print $line;\n\
                my $n = $#a > 0 ? \"# MARK 3\" : \"\";\nmy %h = (s => 1, y => 2); # MARK 4\n\
                $x = $s # MARK 5\n$r =~ s{a}\n  {b # MARK 7}g; # MARK 7\n\
                $t =~ tr/a-z/# MARK 8/; # MARK 8\nprint q (x # MARK 9); # MARK 9\n\
                my $d = 10 / 2; # MARK 10\nmy $e = $h->{s}; # MARK 11\n=pod\n# MARK 13\n=cut\n\
                my @s = split /#/, $l; # MARK 16\nmy $q = q # MARK 17\n(x); # MARK 18\n\
                __DATA__\n# MARK 20\n";
    assert_eq!(
        lexed(text, Lang::Perl),
        (vec![4, 5, 7, 8, 9, 10, 11, 15, 16, 17], None)
    );
    assert_eq!(
        lexed("$r =~ s{a}/b/; # MARK 1\n", Lang::Perl),
        (vec![1], Some(1))
    );
    assert_eq!(lexed("print $x /2; # MARK 1\n", Lang::Perl).1, Some(1));
    assert_eq!(lexed("my $q = 1 + q", Lang::Perl), (vec![], None));
}

#[test]
fn jsx_text_is_neither_code_nor_comment() {
    let a = "export const Help = () => <p>Lines ending in // MARK 1 are skipped</p>;\n";
    assert_eq!(lexed(a, Lang::Jsx), (vec![], None));
    let b = "export const Key = () => <p>Press ` to open</p>;\n\
             export const tip = `// MARK 2`;\nexport function f() { return 1; } // MARK 3\n";
    assert_eq!(lexed(b, Lang::Jsx), (vec![3], None));
    // In plain JavaScript, `<p>` is no element.
    assert_eq!(lexed(a, Lang::JavaScript), (vec![1], None));
    let text = "const a = b <c; // MARK 1\n\
                const e = <div className=\"x // y\" title='z' onClick={() => f('}')} {...p}>\n\
                \x20 {/* MARK 3 */}\n  {items.map(i => <li key={i}>{i} // text</li>)}\n\
                \x20 <br/> <></> {a < b}\n</div>; // MARK 6\n\
                const g = <T,>(x: T) => x; // MARK 7\n\
                function h() { return <a>{// MARK 8\n}</a>; }\n\
                const k = f(<a/>, <a {...{x: 1}}/>); // MARK 10\n";
    assert_eq!(lexed(text, Lang::Jsx), (vec![1, 3, 6, 7, 8, 10], None));
}

#[test]
fn jsx_the_lexer_cannot_follow_makes_it_unsure() {
    for (text, line) in [
        ("const a = <p>{`x`}</p>;\n// MARK 2\n", 1),
        ("const a = <p>{x / 2}</p>;\n", 1),
        ("const a = 1;\nconst b = <p>open\n", 2),
        ("const a = <p title={x\n", 1),
        ("const a = <p title=\"x\n", 1),
        ("const a = <p>{\n", 1),
    ] {
        assert_eq!(lex(text, Lang::Jsx).unsure, Some(line), "{text}");
    }
    let deep = format!("x = {}", "<a>{".repeat(40));
    assert_eq!(lex(&deep, Lang::Jsx).unsure, Some(1));
}

#[test]
fn rarer_forms_of_the_hash_literals() {
    // Ruby: `=` and `_` at a line's start that open nothing; a regular expression first.
    let text = "=foo # MARK 1\n_x = 1 # MARK 2\n/a#b/ # MARK 3\n";
    assert_eq!(lexed(text, Lang::Ruby), (vec![1, 2, 3], None));
    assert_eq!(lexed("a = ?\\n # MARK 1\nb = (?", Lang::Ruby).0, [1]);
    // Perl: `=` then no letter; a quote after no `$`; names that are no operator.
    let text = "= 1 # MARK 1\nx = 'a' # MARK 2\nprint q xax; # MARK 3\nmy $v = qw _x_; # MARK 4\n";
    assert_eq!(lexed(text, Lang::Perl), (vec![1, 2, 3, 4], None));
    // Elixir: a `'''` sigil heredoc and `<…>`.
    let text = "x = ~s'''\n# MARK 2\n''' # MARK 3\ny = ~w<a> # MARK 4\n";
    assert_eq!(lexed(text, Lang::Elixir), (vec![3, 4], None));
    // JSX: an element at the file's start; a `/` in a tag that closes nothing.
    let text =
        "<a>// x</a>\n// MARK 2\nconst l = <a href=x/y>t</a>; // MARK 3\nx = a_ <b; // MARK 4\n";
    assert_eq!(lexed(text, Lang::Jsx), (vec![2, 3, 4], None));
}

#[test]
fn a_marker_on_or_after_an_unsure_line_is_an_error() {
    use crate::markers::scan;
    use crate::policy::Family;
    let text = "x = 1 # LCOV_EXCL_LINE\ny = foo /a/\nz # LCOV_EXCL_LINE\n";
    let e = scan("a.rb", text, Lang::Ruby, &Family::ALL, true).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "a.rb:3: a marker after a literal that covgate cannot lex for sure (on line 2"
        ),
        "{e}"
    );
    // A marker before the unsure line counts.
    let text = "x = 1 # LCOV_EXCL_LINE\ny = foo /a/\nz\n";
    let ignores = scan("a.rb", text, Lang::Ruby, &Family::ALL, true).unwrap();
    assert_eq!(ignores.lines.iter().copied().collect::<Vec<_>>(), [1]);
}

/// Each alternative of an arm's pattern (`'r' | 'R'`, `Ruby | Perl`) takes its guard apart
/// (rustc lowers the guard once per alternative, and branch coverage counts each): both sides
/// of each, with a literal where the rules above have it and none where they do not.
#[test]
fn guards_hold_and_fail_for_every_alternative() {
    // R: `R` raw strings after a word and `R` as a name; `r` likewise.
    let text = "R <- 2 # MARK 1\nx <- aR\"(\" # MARK 2\ny <- br\"(\" # MARK 3\n";
    assert_eq!(lexed(text, Lang::R), (vec![1, 2, 3], None));
    // Ruby and Perl: `_` at a line's start that opens no data section; `$'`, `$"`, `$#`.
    let text = "_f(1) # MARK 1\nputs $\" # MARK 2\nputs $' # MARK 3\nx = $# # MARK 4\n";
    assert_eq!(lexed(text, Lang::Ruby), (vec![1, 2, 3, 4], None));
    let text = "_f(1); # MARK 1\nprint $\"; # MARK 2\nprint $'; # MARK 3\nmy $n = $#a; # MARK 4\n";
    assert_eq!(lexed(text, Lang::Perl), (vec![1, 2, 3, 4], None));
}

/// What comes before a Ruby `/`, `%` or `?`: nothing (the file's start), a name ending in `_`,
/// a `%` followed by a letter that names no literal; and literals that run to the end of the
/// file (a regular expression, an Elixir sigil), which hide every marker after them.
#[test]
fn slashes_percents_and_open_literals_at_the_edges() {
    assert_eq!(lexed("/a#b/ # MARK 1\n", Lang::Ruby), (vec![1], None));
    assert_eq!(lexed("%w[# x] # MARK 1\n", Lang::Ruby), (vec![1], None));
    assert_eq!(lexed("?# # MARK 1\n", Lang::Ruby), (vec![1], None));
    assert_eq!(lexed("y = a_ / b # MARK 1\n", Lang::Ruby), (vec![1], None));
    assert_eq!(lexed("z = a %d # MARK 1\n", Lang::Ruby), (vec![1], None));
    assert_eq!(lexed("w = (%\n) # MARK 2\n", Lang::Ruby), (vec![2], None));
    assert_eq!(
        lexed("x = /open # MARK 1\n# MARK 2\n", Lang::Ruby),
        (vec![], None)
    );
    assert_eq!(
        lexed("x = ~r/open # MARK 1\n", Lang::Elixir),
        (vec![], None)
    );
    // JSX: a name ending in `$` before `<` is an operand (`a$ < b`), not an element.
    assert_eq!(lexed("x = a$ <b; // MARK 1\n", Lang::Jsx), (vec![1], None));
}

/// bash's ANSI-C strings take `\'` as a quote (`$'don\'t'`); a `'` after an escaped `$` opens
/// a plain `'…'` (no escapes).
#[test]
fn shell_ansi_c_strings_take_escapes() {
    let text = "msg=$'don\\'t # MARK 1'\necho ok # MARK 2\nx=\\$'a # MARK 3' # MARK 3\n\
                y=$'two\nlines # MARK 5' # MARK 5\n";
    assert_eq!(lexed(text, Lang::Shell), (vec![2, 3, 5], None));
}
