//! The lexers' string syntaxes: a marker in a literal is text, one in a comment counts.

use super::*;

/// The lines of the comments that hold `MARK`.
pub(super) fn marked(text: &str, lang: Lang) -> Vec<u32> {
    comments(text, lang)
        .into_iter()
        .filter(|(_, comment)| comment.contains("MARK"))
        .map(|(line, _)| line)
        .collect()
}

#[test]
fn languages_by_extension() {
    let cases = [
        ("a.rs", Lang::Rust),
        ("a.c", Lang::CLike),
        ("a.hpp", Lang::CLike),
        ("a.js", Lang::JavaScript),
        ("a.tsx", Lang::Jsx),
        ("a.go", Lang::Go),
        ("A.java", Lang::Java),
        ("a.kt", Lang::Kotlin),
        ("a.sc", Lang::Scala),
        ("a.swift", Lang::Swift),
        ("a.cs", Lang::CSharp),
        ("a.dart", Lang::Dart),
        ("a.groovy", Lang::TextBlocks),
        ("a.jsx", Lang::Jsx),
        ("a.ex", Lang::Elixir),
        ("a.cmake", Lang::CMake),
        ("a.py", Lang::Python),
        ("a.sh", Lang::Shell),
        ("a.rb", Lang::Ruby),
        ("a.pl", Lang::Perl),
        ("a.R", Lang::R),
        ("a.lua", Lang::Unknown),
        ("a.php", Lang::Unknown),
        ("Makefile", Lang::Unknown),
    ];
    for (path, lang) in cases {
        assert_eq!(Lang::of(path), lang, "{path}");
    }
}

#[test]
fn javascript_template_literals_span_lines_and_nest() {
    let text = "const banner = `\n  // MARK 2\n`;\nrun(); // MARK 4\n\
                const f = `a ${ x /* MARK 5 */ + `in ${ {a: 1}.a } // MARK 5` } // MARK 5\n\
                ${ '}' } still text // MARK 6\n` // MARK 7\n\
                const e = `\\` // MARK 8\n` + '`' // MARK 9\n";
    assert_eq!(marked(text, Lang::JavaScript), [4, 5, 7, 9]);
    // Code resumes after the template: the `//` of a URL in it is text.
    let text = "const u = `http://x/${id} costs $5 // {`; // MARK 1\nconst v = `a` + `//b`;\n";
    assert_eq!(marked(text, Lang::JavaScript), [1]);
    // In C, a backtick is no string.
    assert_eq!(marked("x = `a; // MARK 1\n", Lang::CLike), [1]);
}

#[test]
fn go_raw_strings_span_lines_without_escapes() {
    let text = "q := `SELECT 1 -- // MARK 1\n-- // MARK 2\n\\` // MARK 3\nreturn 1 // MARK 4\n";
    assert_eq!(marked(text, Lang::Go), [3, 4]);
}

#[test]
fn text_blocks_and_verbatim_strings() {
    let java = "String s = \"\"\"\n  // MARK 2\n  \\\"\"\" // MARK 3\n  \"\"\"; // MARK 4\n\
                @Override void f() { g($x); } // MARK 5\n";
    assert_eq!(marked(java, Lang::Java), [4, 5]);
    let cs = "var v = @\"a \"\" // MARK 1\n// MARK 2\"; // MARK 2\n\
              var w = $@\"x\n// MARK 4\"; var z = @$\"y // MARK 4\"; // MARK 4\n";
    assert_eq!(marked(cs, Lang::CSharp), [2, 4]);
    let groovy = "var d = '''\n// MARK 2\n'''; // MARK 3\n";
    assert_eq!(marked(groovy, Lang::TextBlocks), [3]);
    // An open verbatim string runs to the end.
    assert!(marked("var v = @\"open\n// MARK 2\n", Lang::CSharp).is_empty());
    // `@` and `$` open nothing elsewhere.
    assert_eq!(marked("echo $HOME @x # MARK 1\n", Lang::Shell), [1]);
}

#[test]
fn python_triple_quoted_strings_with_any_prefix() {
    let text = "'''Don't\n# MARK 2\n'''\nx = 1 # MARK 4\n\
                s = rb\"\"\"\\\"\"\" # MARK 5\n\"\"\" # MARK 6\n\
                t = f'it''s' # MARK 7\n\
                u = 'open # MARK 8\nv = 2 # MARK 9\n\
                w = \"\"\"a\"\"\" \"\" # MARK 10\n";
    assert_eq!(marked(text, Lang::Python), [4, 6, 7, 9, 10]);
}

#[test]
fn shell_heredocs_and_words_with_hashes() {
    let text = "cat <<EOF # MARK 1\n# MARK 2\nEOF\n\
                cat <<- 'END' >x; cat << \"TWO\" # MARK 4\n\t# MARK 5\n\tEND\n# MARK 7\nTWO\n\
                echo a#b ${#x} $# # MARK 9\n\
                x=$((1 << 2)) # MARK 10\ncat <<<word # MARK 11\n\
                cat <<\\RAW\n# MARK 13\nRAW\n# MARK 15\n";
    assert_eq!(marked(text, Lang::Shell), [1, 4, 9, 10, 11, 15]);
    // A `#` inside a word is no comment.
    let words = comments("echo a#MARK b\n", Lang::Shell);
    assert!(words.is_empty(), "{words:?}");
}

#[test]
fn ruby_and_perl_heredocs() {
    let text = "s = <<~EOS # MARK 1\n  # MARK 2\n  EOS\n\
                list << item # MARK 4\nclass << self # MARK 5\nend\n\
                print <<\"EOF\";\n# MARK 8\nEOF\n# MARK 10\n\
                t = <<EOS\n  EOS\n# MARK 13\nEOS\n# MARK 15\n";
    assert_eq!(marked(text, Lang::Ruby), [1, 4, 5, 10, 15]);
    // An open heredoc runs to the end; a word too long for a terminator opens none.
    assert!(marked("x = <<EOF\n# MARK 2\n", Lang::Ruby).is_empty());
    let long = format!("x = <<{} # MARK 1\n# MARK 2\n", "A".repeat(65));
    assert_eq!(marked(&long, Lang::Ruby), [1, 2]);
    // A quote that is never closed opens none.
    assert_eq!(
        marked("x = <<'EOF # MARK 1\n", Lang::Ruby),
        Vec::<u32>::new()
    );
    assert_eq!(
        marked("x = <<\"EOF\n# MARK 2\n", Lang::Shell),
        Vec::<u32>::new()
    );
}

#[test]
fn rust_doc_comments_follow_rustc() {
    let text = "//// MARK 1\n/// MARK 2\n//! MARK 3\n/*** MARK 4 */\n/** MARK 5 */\n\
                /**/ // MARK 6\n/*! MARK 7 */\n/* MARK 8 */\n";
    assert_eq!(marked(text, Lang::Rust), [1, 4, 6, 8]);
}

#[test]
fn cpp_raw_delimiters_are_looked_for_in_16_characters_only() {
    assert_eq!(
        cpp_raw_delimiter("R\"0123456789abcdef(x)"),
        Some("0123456789abcdef")
    );
    assert_eq!(cpp_raw_delimiter("R\"0123456789abcdefg(x)"), None);
    assert_eq!(cpp_raw_delimiter("R\"a b(x)"), None);
    assert_eq!(cpp_raw_delimiter("R\"ab"), None);
}

/// Every lookahead is bounded or consumes what it looks at: 4 MiB of each pathological
/// pattern is lexed in linear work. (`R"R"` took 14.5 s per MiB in a debug build, each `R"`
/// looking for a `(` to the end of the file.)
#[test]
fn pathological_inputs_cost_linear_time() {
    // 256 KiB: linear work is a few million steps (well under a second each, even in a debug
    // build on a machine loaded ten times over); quadratic work is tens of billions (minutes).
    let size = 256 << 10;
    let patterns: [(&str, Lang); 12] = [
        ("R\"R\"", Lang::CLike),
        ("u8R\"", Lang::CLike),
        ("1'", Lang::CLike),
        ("r#", Lang::Rust),
        ("br##", Lang::Rust),
        ("`${", Lang::JavaScript),
        ("${`", Lang::JavaScript),
        ("\"\"\"'", Lang::Python),
        ("<<-", Lang::Shell),
        ("<<A\n", Lang::Ruby),
        ("@\"\"", Lang::CSharp),
        ("/*", Lang::Rust),
    ];
    let started = std::time::Instant::now();
    for (pattern, lang) in patterns {
        let mut text = pattern.repeat(size / pattern.len());
        text.push_str("\n// MARK\n# MARK\n");
        let _ = comments(&text, lang);
    }
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    let text = format!("{}\n// MARK\n", "R\"R\"".repeat(size / 4));
    assert_eq!(marked(&text, Lang::CLike), [2]);
}

#[test]
fn a_marker_in_a_language_of_unknown_strings_is_an_error_not_honoured() {
    use crate::markers::scan;
    use crate::policy::Family;
    let text = "local s = [[\n-- // LCOV_EXCL_LINE\n]]\nreturn 1\n";
    let e = scan("a.lua", text, Lang::Unknown, &Family::ALL, true).unwrap_err();
    let e = e.to_string();
    assert!(
        e.starts_with(
            "a.lua:2: a marker in a file of a language whose string literals covgate \
                       does not know"
        ),
        "{e}"
    );
    // Without a marker, nothing to report.
    let plain = scan(
        "a.lua",
        "return 1 // fine\n",
        Lang::Unknown,
        &Family::ALL,
        true,
    )
    .unwrap();
    assert!(plain.is_empty());
}

#[test]
fn a_reason_that_shows_nothing_is_no_reason() {
    use crate::markers::scan;
    use crate::policy::Family;
    for reason in ["", " ", "\u{200b}", "\u{feff} \u{2060}", "\u{3164}"] {
        let text = format!("fn f() {{}} // covgate:ignore -- {reason}\n");
        let e = scan("a.rs", &text, Lang::Rust, &Family::ALL, true).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("a.rs:1: covgate marker without a reason"),
            "{reason:?}: {e}"
        );
    }
    let text = "fn f() {} // covgate:ignore -- \u{200b}why\n";
    let ignores = scan("a.rs", text, Lang::Rust, &Family::ALL, true).unwrap();
    assert_eq!(ignores.lines.iter().copied().collect::<Vec<_>>(), [1]);
}

#[test]
fn a_lone_cr_ends_a_line_where_the_compiler_says_so() {
    use std::borrow::Cow;
    // CR LF stays one line end; a text without a lone CR is not copied.
    assert!(matches!(
        as_compiled("a\r\nb\n", Lang::CLike),
        Cow::Borrowed(_)
    ));
    assert_eq!(as_compiled("a\rb\r\nc\r", Lang::CLike), "a\nb\r\nc\n");
    assert_eq!(as_compiled("é\r€", Lang::JavaScript), "é\n€");
    assert_eq!(as_compiled("a\rb", Lang::TextBlocks), "a\nb");
    assert_eq!(as_compiled("a\rb", Lang::Python), "a\nb");
    for lang in [Lang::Rust, Lang::Go, Lang::Shell, Lang::Ruby, Lang::R] {
        assert_eq!(as_compiled("a\rb", lang), "a\rb", "{lang:?}");
    }
    assert_eq!(
        marked(&as_compiled("x\r// MARK", Lang::CLike), Lang::CLike),
        [2]
    );
}

#[test]
fn block_comments_nest_in_kotlin_scala_swift_and_dart_only() {
    // A nested comment ends at its second `*/`: the quote after the first is comment text, and
    // the string after the comment holds the marker.
    let text = "/* outer /* inner */ \" */ fun f() = \"// MARK 1\"\nf() /* a */ // MARK 2\n";
    for lang in [
        Lang::Kotlin,
        Lang::Scala,
        Lang::Swift,
        Lang::Dart,
        Lang::Rust,
    ] {
        assert_eq!(marked(text, lang), [2], "{lang:?}");
    }
    // Java, C#, Groovy, Go, JavaScript and C end a comment at its first `*/`.
    for lang in [
        Lang::Java,
        Lang::CSharp,
        Lang::TextBlocks,
        Lang::Go,
        Lang::JavaScript,
        Lang::CLike,
    ] {
        assert_eq!(marked(text, lang), [1, 2], "{lang:?}");
    }
}

#[test]
fn dart_raw_strings_have_no_escapes() {
    let text = "var p = r'C:\\' + '// MARK 1';\nvar q = r\"C:\\\" + \"// MARK 2\"; // MARK 2\n\
                var t = r'''\n// MARK 4 \\'''; // MARK 4\nvar u = r'open // MARK 5\n\
                x(); // MARK 6\nvar r = 1; // MARK 7\n";
    assert_eq!(marked(text, Lang::Dart), [2, 4, 6, 7]);
    // Without the `r`, or in another language, `\'` is an escaped quote (and the comment
    // starts in what Dart reads as the second string).
    assert_eq!(marked("var r = 'C:\\' + '// MARK 1';\n", Lang::Dart), [1]);
    assert_eq!(marked("var p = r'C:\\' + '// MARK 1';\n", Lang::Java), [1]);
    assert_eq!(marked("var p = ar'C:\\' + '// MARK 1';\n", Lang::Dart), [1]);
}

#[test]
fn quote_runs_close_raw_strings_as_each_language_says() {
    // C#: a raw string opened by four quotes ends only at four.
    let cs =
        "var doc = \"\"\"\"\n  Write \"\"\" // MARK 2 \"\"\" to skip.\n  \"\"\"\"; // MARK 3\n\
              var e = \"\"; // MARK 4\n";
    assert_eq!(marked(cs, Lang::CSharp), [3, 4]);
    // Kotlin and Scala: a run of quotes ends at its last three; `\` is no escape.
    let kt =
        "val doc = \"\"\"a\"\"\"\"; val t = \"// MARK 1\"\nval s = \"\"\"C:\\\"\"\"; // MARK 2\n\
              val u = \"\"\"\n// MARK 4\n\"\"\" // MARK 5\n";
    assert_eq!(marked(kt, Lang::Kotlin), [2, 5]);
    assert_eq!(marked(kt, Lang::Scala), [2, 5]);
    // Java's text blocks end at the first three, and `\"` is an escape there.
    let java = "String d = \"\"\"\na\\\"\"\" // MARK 2\n\"\"\"; // MARK 3\n";
    assert_eq!(marked(java, Lang::Java), [3]);
}

/// C#: `@` and `$` open a verbatim string only before a quote (`@"`, `$@"`, `@$"`): a verbatim
/// name (`@class`) and an interpolated string (`$"…"`) are no verbatim strings.
#[test]
fn csharp_at_and_dollar_that_open_no_verbatim_string() {
    let cs = "var @class = 1; // MARK 1\nvar s = $\"{a} // x\"; // MARK 2\n";
    assert_eq!(marked(cs, Lang::CSharp), [1, 2]);
}

/// Groovy's dollar-slashy strings span lines, and only `$$` and `$/` escape in them: a `//`
/// inside is text; one left open hides the rest of the file.
#[test]
fn groovy_dollar_slashy_strings() {
    let groovy = "def u = $/https://x.org/a // MARK 1/$ // MARK 1\n\
                  def v = $/a $/ $$ \\ // MARK 2\n// MARK 3\n/$ // MARK 4\nx = a$b // MARK 5\n";
    assert_eq!(marked(groovy, Lang::TextBlocks), [1, 4, 5]);
    assert!(marked("def w = $/open // MARK 1\n", Lang::TextBlocks).is_empty());
}

/// rustc skips a first line that starts with `#!` but opens no inner attribute (`#![…]`): a
/// quote there opens no string.
#[test]
fn rust_shebang_lines_are_skipped() {
    let text =
        "#!/usr/bin/env run-cargo-script \"\nfn f() {} // MARK 2\nlet t = \"x // MARK 3\";\n";
    assert_eq!(marked(text, Lang::Rust), [2]);
    let attr = "#! [allow(x)] // MARK 1\nlet t = \"x // MARK 2\";\n";
    assert_eq!(marked(attr, Lang::Rust), [1]);
    // A shebang without a line feed is the whole file; in C, `#!` is code.
    assert_eq!(marked("#!/bin/x // MARK 1", Lang::Rust), Vec::<u32>::new());
    assert_eq!(marked("#! \"\n// MARK 2\n", Lang::CLike), [2]);
}
