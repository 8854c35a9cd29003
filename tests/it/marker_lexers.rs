//! Markers that a compiler reads as text, not as a comment, found by a break test (session 13):
//! nested block comments, C line splices, Java Unicode escapes, raw strings and quote runs,
//! `#`-comment literals, JSX text. Each check must fail (exit 1) or refuse (exit 2), never pass.

use crate::common::{Run, Sandbox};

/// A sandbox with `files` (path, text) under a policy measuring `metrics` of `src/**/*`, and
/// the tracefile `t.info`; the check's run, with every file shown.
fn check(metrics: &str, files: &[(&str, &str)], info: &str) -> Run {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "[measure]\ninclude = [\"src/**/*\"]\nmetrics = [{metrics}]\n"
    ));
    for (path, text) in files {
        sb.write(path, text);
    }
    sb.write("t.info", info);
    sb.run(&["check", "t.info", "--show", "all"])
}

/// One uncovered line 1 per file: `SF`/`DA:1,0` records for `paths`.
fn line_one_uncovered(paths: &[&str]) -> String {
    paths
        .iter()
        .map(|p| format!("SF:{p}\nDA:1,0\nend_of_record\n"))
        .collect()
}

fn assert_fails_with_nothing_ignored(run: &Run) {
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("ignored by inline markers: 0 lines, 0 regions, 0 branch sides, 0 functions"),
        "{}",
        run.stdout
    );
}

/// Kotlin, Swift, Scala and Dart block comments nest: the marker is in a string, and each
/// file's uncalled function fails it (all four passed, "4 functions ignored").
#[test]
fn nested_block_comments_leave_a_marker_in_a_string() {
    let line = |decl: &str| format!("/* outer /* inner */ \" */ {decl} \"// LCOV_EXCL_LINE\"\n");
    let files = [
        ("src/A.kt", line("fun untested(): String =")),
        ("src/A.swift", line("func untested() -> String { return")),
        ("src/A.scala", line("def untested(): String =")),
        ("src/a.dart", line("String untested() { return")),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let info: String = files
        .iter()
        .map(|(p, _)| format!("SF:{p}\nFN:1,untested\nFNDA:0,untested\nDA:1,0\nend_of_record\n"))
        .collect();
    let run = check("\"functions\", \"lines\"", &files, &info);
    assert_fails_with_nothing_ignored(&run);
    for (path, _) in &files {
        let row = format!("│ {path:<11} ┆ fail   ┆ 0/1 ✗     ┆ 0/1 ✗ │");
        assert!(run.stdout.contains(&row), "{row}\n{}", run.stdout);
    }
}

/// A C `//` comment that ends in `\` goes on to the next line (a line splice): the `/*` there
/// opens nothing, and the marker is in a string (passed, "1 function ignored"). A `*/` split by
/// a splice ends a comment too.
#[test]
fn a_line_splice_continues_a_c_comment() {
    let b = "// see C:\\temp\\\n/* old note\nconst char *m = \"covgate:ignore-next -- text */\";\n\
             int untested(void) { return 1; }\nint used(void) { return m[0]; }\n";
    let c = "int g(const char *s);\n/* note *\\\n/ int untested(void) { return g(\"*/ // LCOV_EXCL_LINE\"); }\n\
             int g(const char *s) { return s[0]; }\n";
    let info =
        "SF:src/b.c\nFN:4,untested\nFNDA:0,untested\nFN:5,used\nFNDA:1,used\nDA:4,0\nDA:5,1\n\
                end_of_record\nSF:src/c.c\nFN:3,untested\nFNDA:0,untested\nFN:4,g\nFNDA:1,g\n\
                DA:3,0\nDA:4,1\nend_of_record\n";
    let run = check(
        "\"functions\", \"lines\"",
        &[("src/b.c", b), ("src/c.c", c)],
        info,
    );
    assert_fails_with_nothing_ignored(&run);
    for path in ["src/b.c", "src/c.c"] {
        let row = format!("│ {path} ┆ fail   ┆ 1/2 ✗     ┆ 1/2 ✗ │");
        assert!(run.stdout.contains(&row), "{row}\n{}", run.stdout);
    }
}

/// javac reads `\u002a/` as `*/`: the comment ends there, the start marker is in a string, and
/// the end marker has no start (passed, lines 2 to 4 ignored).
#[test]
fn java_unicode_escapes_end_a_comment() {
    let java = "public class A {\n  /* hidden: \\u002a/ static String s = \"// covgate:ignore-start -- x */\";\n\
                \x20 public static int untested() { return 1; }\n  // covgate:ignore-end -- x\n\
                \x20 public static void main(String[] a) { System.out.println(s); }\n}\n";
    let info = "SF:src/A.java\nDA:2,1\nDA:3,0\nDA:5,1\nend_of_record\n";
    let run = check("\"lines\"", &[("src/A.java", java)], info);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/A.java:4: covgate range end without a start"),
        "{}",
        run.stderr
    );
}

/// Dart raw strings have no escapes, C# raw strings end at as many quotes as opened them, and
/// Kotlin and Scala raw strings end at the last three quotes of a run: each marker is in a
/// string (all passed, or lost a line).
#[test]
fn raw_strings_and_quote_runs_hold_markers_as_text() {
    let files = [
        ("src/a.dart", "var p = r'C:\\' + '// LCOV_EXCL_LINE';\n"),
        ("src/b.dart", "var p = r\"C:\\\" + \"// LCOV_EXCL_LINE\";\n"),
        (
            "src/a.cs",
            "var doc = \"\"\"\"\n    Write \"\"\" // LCOV_EXCL_LINE \"\"\" to skip a line.\n    \"\"\"\";\n",
        ),
        ("src/b.kt", "val doc = \"\"\"a\"\"\"\"; val t = \"// LCOV_EXCL_LINE\"\n"),
        (
            "src/b.scala",
            "object D { val doc = \"\"\"a\"\"\"\"; val t = \"// LCOV_EXCL_LINE\" }\n",
        ),
    ];
    let mut info = line_one_uncovered(&["src/a.dart", "src/b.dart", "src/b.kt", "src/b.scala"]);
    info.push_str("SF:src/a.cs\nDA:1,0\nDA:2,0\nDA:3,0\nend_of_record\n");
    let run = check("\"lines\"", &files, &info);
    assert_fails_with_nothing_ignored(&run);
    assert!(
        run.stdout.contains("│ src/a.cs    ┆ fail   ┆ 0/3 ✗ │"),
        "{}",
        run.stdout
    );
    for path in ["src/a.dart", "src/b.dart", "src/b.kt", "src/b.scala"] {
        let row = format!("│ {path:<11} ┆ fail   ┆ 0/1 ✗ │");
        assert!(run.stdout.contains(&row), "{row}\n{}", run.stdout);
    }
}

/// A `#` inside a literal of a `#`-comment language opens no comment: shell's `\#` and `'C:\'`,
/// Ruby's regular expressions and `%r{}`, Perl's `qw#…#`, `s#…##` and `$#a`, CMake's bracket
/// arguments and comments, R's backquoted names, Elixir's sigils (all eleven passed).
#[test]
fn hash_comment_literals_hold_markers_as_text() {
    let files = [
        ("src/esc.sh", "echo \\# LCOV_EXCL_LINE\n"),
        (
            "src/single-quote.sh",
            "dir='C:\\'; hint='# LCOV_EXCL_LINE'\necho \"$dir $hint\"\n",
        ),
        ("src/re.rb", "puts \"stripped\" if line =~ /# LCOV_EXCL_LINE/\n"),
        ("src/re2.rb", "puts \"stripped\" if line =~ %r{# LCOV_EXCL_LINE}\n"),
        (
            "src/qw.pl",
            "my @words = qw# LCOV_EXCL_LINE #; print \"@words\\n\";\n",
        ),
        ("src/subst.pl", "$line =~ s#//\\s*LCOV_EXCL_LINE##; print $line;\n"),
        (
            "src/last-index.pl",
            "my @a = (1, 2);\nmy $msg = $#a > 0 ? \"lines with # LCOV_EXCL_LINE are skipped\" : \"\";\nprint $msg;\n",
        ),
        ("src/br.cmake", "message([=[ # LCOV_EXCL_LINE ]=])\n"),
        (
            "src/bracket-comment.cmake",
            "#[[ note:\n\" ]]\nmessage(\"# LCOV_EXCL_LINE\")\n",
        ),
        ("src/bt.r", "`# LCOV_EXCL_LINE` <- function() 1\n"),
        (
            "src/sig.ex",
            "defmodule A do def f, do: ~S(# LCOV_EXCL_LINE) end\n",
        ),
    ];
    let info: String = files
        .iter()
        .map(|(path, _)| match *path {
            "src/single-quote.sh" => format!("SF:{path}\nDA:1,0\nDA:2,0\nend_of_record\n"),
            "src/last-index.pl" => format!("SF:{path}\nDA:1,1\nDA:2,0\nDA:3,1\nend_of_record\n"),
            "src/bracket-comment.cmake" => format!("SF:{path}\nDA:3,0\nend_of_record\n"),
            _ => format!("SF:{path}\nDA:1,0\nend_of_record\n"),
        })
        .collect();
    let run = check("\"lines\"", &files, &info);
    assert_fails_with_nothing_ignored(&run);
    assert!(
        run.stdout.contains("11 measured: 0 passed, 11 failed"),
        "{}",
        run.stdout
    );
}

/// Where only a parser could tell a literal from an operator (Ruby's `foo /a#…/`), a marker
/// after it is refused (exit 2), not honoured.
#[test]
fn a_marker_the_lexer_cannot_be_sure_of_is_refused() {
    let rb = "x = 1\ny = foo /a# LCOV_EXCL_LINE/\n";
    let info = "SF:src/a.rb\nDA:1,1\nDA:2,0\nend_of_record\n";
    let run = check("\"lines\"", &[("src/a.rb", rb)], info);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "src/a.rb:2: a marker after a literal that covgate cannot lex for sure (on line 2"
        ),
        "{}",
        run.stderr
    );
}

/// JSX element text is text: `//` there opens no comment, and a lone backtick opens no
/// template literal (both passed; b.tsx lost its uncovered line 3).
#[test]
fn jsx_element_text_holds_no_comment() {
    let files = [
        (
            "src/a.jsx",
            "export const Help = () => <p>Lines ending in // LCOV_EXCL_LINE are skipped</p>;\n",
        ),
        (
            "src/b.tsx",
            "export const Key = () => <p>Press ` to open the console</p>;\n\
             export const tip = `// covgate:ignore-next -- shown in the UI`;\n\
             export function untested() { return 1; }\n",
        ),
    ];
    let info = "SF:src/a.jsx\nDA:1,0\nend_of_record\nSF:src/b.tsx\nDA:1,1\nDA:2,1\nDA:3,0\nend_of_record\n";
    let run = check("\"lines\"", &files, info);
    assert_fails_with_nothing_ignored(&run);
    assert!(
        run.stdout.contains("│ src/a.jsx ┆ fail   ┆ 0/1 ✗ │"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("│ src/b.tsx ┆ fail   ┆ 2/3 ✗ │"),
        "{}",
        run.stdout
    );
}

/// A marker in a bash ANSI-C string (`$'don\'t …'`, where `\'` is a quote) or in a Groovy
/// dollar-slashy string (`$/…/$`, where `//` is text) is text: both files fail with every line
/// (both had their line ignored, session 14's break test).
#[test]
fn markers_in_ansi_c_and_dollar_slashy_strings_are_text() {
    let sh = "#!/bin/sh\nmsg=$'don\\'t add # LCOV_EXCL_LINE to generated files'\nprintf '%s\\n' \"$msg\"\n";
    let groovy =
        "def url = $/https://example.com/x // LCOV_EXCL_LINE is text here/$\nprintln(url)\n";
    let info = "SF:src/gen.sh\nDA:2,0\nDA:3,0\nend_of_record\nSF:src/Url.groovy\nDA:1,0\nDA:2,0\nend_of_record\n";
    let run = check(
        "\"lines\"",
        &[("src/gen.sh", sh), ("src/Url.groovy", groovy)],
        info,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("ignored by inline markers: 0 lines"),
        "{}",
        run.stdout
    );
    for path in ["src/gen.sh", "src/Url.groovy"] {
        let row = format!("│ {path:<14} ┆ fail   ┆ 0/2 ✗ │");
        assert!(run.stdout.contains(&row), "{row}\n{}", run.stdout);
    }
}

/// Every unit-test input of the lexers (`src/markers/lexer_tests.rs`, `lexer_hash_tests.rs`),
/// with its `MARK` placeholder as a real marker, checked through the binary against a
/// tracefile that misses every line: each check ends as the markers say (the lines they ignore
/// counted, or exit 2 for a marker the lexer cannot be sure of), and the binary's lexers run
/// the same inputs as the unit tests (whose copy of the lexers the self-coverage may not pick).
const LEXED: &[(&str, &str)] = &[
    (
        "sh",
        "echo \\# MARK 1\ndir='C:\\'; hint='# MARK 2'\necho a\\\\#b # MARK 3\n",
    ),
    (
        "cmake",
        "message([=[ # MARK 1 ]=])\n#[[ note:\n\" ]]\nmessage(\"# MARK 4\")\n\
                #[==[ MARK 5\nMARK 6 ]==] x # MARK 6\nmessage(don't) # MARK 7\n\
                set(x a\\#b) # MARK 8\nx[1] # MARK 9\n#[[ open\n# MARK 11\n",
    ),
    (
        "R",
        "`# MARK 1` <- function() 1\nx <- r\"(a \" # MARK 2 )\" # MARK 2\n\
                y <- R'---[ ]' # ]---' # MARK 3\nr <- 1 # MARK 4\nz <- r\"x\" # MARK 5\n\
                w <- ar\"(\" # MARK 6\n",
    ),
    (
        "ex",
        "def f, do: ~S(# MARK 1) end\nx = ?# # MARK 2\ny = ~r/a\\/# MARK 3/ # MARK 3\n\
                s = ~s\"\"\"\n# MARK 5\n\"\"\" # MARK 6\nq = ?\\\\ # MARK 7\n\
                t = ~S(a(b) # MARK 8) # MARK 8\nz = ~ # MARK 9\nv = ~x # MARK 10\n\
                a = valid?(\"#\") # MARK 11\nb = ~R2D2[x] # MARK 12\n",
    ),
    (
        "rb",
        "puts \"s\" if line =~ /# MARK 1/\nputs \"s\" if line =~ %r{# {MARK} 2}\n\
                x = a / b # MARK 3\ny = a/2 # MARK 4\nz = ?# # MARK 5\nw = c ? 1 : 2 # MARK 6\n\
                v = 10 % 3 # MARK 7\nu = %w[a b] # MARK 8\n=begin\nMARK 10\n=end\n\
                puts $' # MARK 12\nif /x/ then end # MARK 13\nq = x %= 2 # MARK 14\n\
                p = % 2 # MARK 15\nn = (a) / 2 # MARK 16\no = x ? y : z # MARK 17\n\
                __END__\n# MARK 19\n",
    ),
    (
        "pl",
        "my @w = qw# MARK 1 #; print \"@w\\n\";\n$line =~ s#//\\s*MARK 2##; print $line;\n\
                my $n = $#a > 0 ? \"# MARK 3\" : \"\";\nmy %h = (s => 1, y => 2); # MARK 4\n\
                $x = $s # MARK 5\n$r =~ s{a}\n  {b # MARK 7}g; # MARK 7\n\
                $t =~ tr/a-z/# MARK 8/; # MARK 8\nprint q (x # MARK 9); # MARK 9\n\
                my $d = 10 / 2; # MARK 10\nmy $e = $h->{s}; # MARK 11\n=pod\n# MARK 13\n=cut\n\
                my @s = split /#/, $l; # MARK 16\nmy $q = q # MARK 17\n(x); # MARK 18\n\
                __DATA__\n# MARK 20\n",
    ),
    (
        "tsx",
        "export const Help = () => <p>Lines ending in // MARK 1 are skipped</p>;\n",
    ),
    (
        "tsx",
        "export const Key = () => <p>Press ` to open</p>;\n\
             export const tip = `// MARK 2`;\nexport function f() { return 1; } // MARK 3\n",
    ),
    (
        "tsx",
        "const a = b <c; // MARK 1\n\
                const e = <div className=\"x // y\" title='z' onClick={() => f('}')} {...p}>\n\
                \x20 {/* MARK 3 */}\n  {items.map(i => <li key={i}>{i} // text</li>)}\n\
                \x20 <br/> <></> {a < b}\n</div>; // MARK 6\n\
                const g = <T,>(x: T) => x; // MARK 7\n\
                function h() { return <a>{// MARK 8\n}</a>; }\n\
                const k = f(<a/>, <a {...{x: 1}}/>); // MARK 10\n",
    ),
    ("rb", "=foo # MARK 1\n_x = 1 # MARK 2\n/a#b/ # MARK 3\n"),
    (
        "pl",
        "= 1 # MARK 1\nx = 'a' # MARK 2\nprint q xax; # MARK 3\nmy $v = qw _x_; # MARK 4\n",
    ),
    (
        "ex",
        "x = ~s'''\n# MARK 2\n''' # MARK 3\ny = ~w<a> # MARK 4\n",
    ),
    (
        "tsx",
        "<a>// x</a>\n// MARK 2\nconst l = <a href=x/y>t</a>; // MARK 3\nx = a_ <b; // MARK 4\n",
    ),
    (
        "js",
        "const banner = `\n  // MARK 2\n`;\nrun(); // MARK 4\n\
                const f = `a ${ x /* MARK 5 */ + `in ${ {a: 1}.a } // MARK 5` } // MARK 5\n\
                ${ '}' } still text // MARK 6\n` // MARK 7\n\
                const e = `\\` // MARK 8\n` + '`' // MARK 9\n",
    ),
    (
        "js",
        "const u = `http://x/${id} costs $5 // {`; // MARK 1\nconst v = `a` + `//b`;\n",
    ),
    (
        "go",
        "q := `SELECT 1 -- // MARK 1\n-- // MARK 2\n\\` // MARK 3\nreturn 1 // MARK 4\n",
    ),
    (
        "java",
        "String s = \"\"\"\n  // MARK 2\n  \\\"\"\" // MARK 3\n  \"\"\"; // MARK 4\n\
                @Override void f() { g($x); } // MARK 5\n",
    ),
    (
        "cs",
        "var v = @\"a \"\" // MARK 1\n// MARK 2\"; // MARK 2\n\
              var w = $@\"x\n// MARK 4\"; var z = @$\"y // MARK 4\"; // MARK 4\n",
    ),
    ("groovy", "var d = '''\n// MARK 2\n'''; // MARK 3\n"),
    (
        "py",
        "'''Don't\n# MARK 2\n'''\nx = 1 # MARK 4\n\
                s = rb\"\"\"\\\"\"\" # MARK 5\n\"\"\" # MARK 6\n\
                t = f'it''s' # MARK 7\n\
                u = 'open # MARK 8\nv = 2 # MARK 9\n\
                w = \"\"\"a\"\"\" \"\" # MARK 10\n",
    ),
    (
        "sh",
        "cat <<EOF # MARK 1\n# MARK 2\nEOF\n\
                cat <<- 'END' >x; cat << \"TWO\" # MARK 4\n\t# MARK 5\n\tEND\n# MARK 7\nTWO\n\
                echo a#b ${#x} $# # MARK 9\n\
                x=$((1 << 2)) # MARK 10\ncat <<<word # MARK 11\n\
                cat <<\\RAW\n# MARK 13\nRAW\n# MARK 15\n",
    ),
    (
        "rb",
        "s = <<~EOS # MARK 1\n  # MARK 2\n  EOS\n\
                list << item # MARK 4\nclass << self # MARK 5\nend\n\
                print <<\"EOF\";\n# MARK 8\nEOF\n# MARK 10\n\
                t = <<EOS\n  EOS\n# MARK 13\nEOS\n# MARK 15\n",
    ),
    (
        "rs",
        "//// MARK 1\n/// MARK 2\n//! MARK 3\n/*** MARK 4 */\n/** MARK 5 */\n\
                /**/ // MARK 6\n/*! MARK 7 */\n/* MARK 8 */\n",
    ),
    (
        "dart",
        "/* outer /* inner */ \" */ fun f() = \"// MARK 1\"\nf() /* a */ // MARK 2\n",
    ),
    (
        "dart",
        "var p = r'C:\\' + '// MARK 1';\nvar q = r\"C:\\\" + \"// MARK 2\"; // MARK 2\n\
                var t = r'''\n// MARK 4 \\'''; // MARK 4\nvar u = r'open // MARK 5\n\
                x(); // MARK 6\nvar r = 1; // MARK 7\n",
    ),
    (
        "cs",
        "var doc = \"\"\"\"\n  Write \"\"\" // MARK 2 \"\"\" to skip.\n  \"\"\"\"; // MARK 3\n\
              var e = \"\"; // MARK 4\n",
    ),
    (
        "kt",
        "val doc = \"\"\"a\"\"\"\"; val t = \"// MARK 1\"\nval s = \"\"\"C:\\\"\"\"; // MARK 2\n\
              val u = \"\"\"\n// MARK 4\n\"\"\" // MARK 5\n",
    ),
    (
        "java",
        "String d = \"\"\"\na\\\"\"\" // MARK 2\n\"\"\"; // MARK 3\n",
    ),
    (
        "R",
        "R <- 2 # MARK 1\nx <- aR\"(\" # MARK 2\ny <- br\"(\" # MARK 3\n",
    ),
    (
        "rb",
        "_f(1) # MARK 1\nputs $\" # MARK 2\nputs $' # MARK 3\nx = $# # MARK 4\n\
                y = a_ / b # MARK 5\nz = a %d # MARK 6\n",
    ),
    (
        "pl",
        "_f(1); # MARK 1\nprint $\"; # MARK 2\nprint $'; # MARK 3\nmy $n = $#a; # MARK 4\n",
    ),
    ("rb", "/a#b/ # MARK 1\n"),
    ("rb", "x = /open # MARK 1\n# MARK 2\n"),
    ("ex", "x = ~r/open # MARK 1\n"),
    ("jsx", "x = a$ <b; // MARK 1\n"),
    (
        "cs",
        "var @class = 1; // MARK 1\nvar s = $\"{a} // x\"; // MARK 2\n",
    ),
    (
        "sh",
        "msg=$'don\\'t # MARK 1'\necho ok # MARK 2\nx=\\$'a # MARK 3' # MARK 3\n",
    ),
    (
        "groovy",
        "def u = $/https://x.org/a // MARK 1/$ // MARK 1\n\
                def v = $/a $/ $$ \\ // MARK 2\n// MARK 3\n/$ // MARK 4\n",
    ),
];

#[test]
fn every_lexer_input_runs_through_the_check() {
    let mut refused = 0;
    for (ext, text) in LEXED {
        let text = text.replace("MARK", "LCOV_EXCL_LINE");
        let path = format!("src/f.{ext}");
        let lines = text.lines().count().max(1);
        let da: String = (1..=lines).map(|i| format!("DA:{i},0\n")).collect();
        let run = check(
            "\"lines\"",
            &[(&path, &text)],
            &format!("SF:{path}\n{da}end_of_record\n"),
        );
        match run.code {
            // Exit 0 where the markers take out every missed line (0 of 0).
            0 | 1 => assert!(
                run.stdout.contains("ignored by inline markers: "),
                "{path}: {}",
                run.stdout
            ),
            2 => {
                refused += 1;
                assert!(run.stderr.contains("marker"), "{path}: {}", run.stderr);
            }
            code => panic!("{path}: exit {code}: {}{}", run.stdout, run.stderr),
        }
    }
    assert!(refused > 0 && refused < LEXED.len(), "{refused} refused");
}

/// A quote inside a string's hole (`"${"\""}"`, `"\("\"")"`, `f"{"\""}"`, …) neither ends the
/// string nor opens one: the marker after it is string text, and each file's uncovered line 1
/// fails it (session 15: each passed before, "1 line ignored", the lexer ending the string at
/// the hole's first quote).
#[test]
fn markers_after_a_quote_in_a_string_hole_are_text() {
    let files = [
        ("src/A.kt", "val a = \"${\"\\\"\"} // LCOV_EXCL_LINE\"\n"),
        (
            "src/A.scala",
            "val a = s\"${\"\\\"\"} // LCOV_EXCL_LINE\"\n",
        ),
        ("src/a.dart", "var a = '${'\\''} // LCOV_EXCL_LINE';\n"),
        (
            "src/a.groovy",
            "def a = \"${\"\\\"\"} // LCOV_EXCL_LINE\"\n",
        ),
        (
            "src/A.swift",
            "let a = \"\\(\"\\\"\") // LCOV_EXCL_LINE\"\n",
        ),
        ("src/A.cs", "var a = $\"{\"\\\"\"} // LCOV_EXCL_LINE\";\n"),
        ("src/a.py", "a = f\"{\"\\\"\"} # LCOV_EXCL_LINE\"\n"),
        ("src/a.rb", "a = \"#{\"\\\"\"} # LCOV_EXCL_LINE\"\n"),
        ("src/a.ex", "a = \"#{\"\\\"\"} # LCOV_EXCL_LINE\"\n"),
    ];
    let paths: Vec<&str> = files.iter().map(|(p, _)| *p).collect();
    let run = check("\"lines\"", &files, &line_one_uncovered(&paths));
    assert_fails_with_nothing_ignored(&run);
    for path in paths {
        let row = format!("│ {path:<12} ┆ fail   ┆ 0/1 ✗ │");
        assert!(run.stdout.contains(&row), "{row}\n{}", run.stdout);
    }
}

/// A Swift raw string `#"C:\"#` ends at `"#`: a `\` in it escapes nothing, and the marker after
/// it is a comment (it was read as string text, the marker not honoured: a line ignored now).
#[test]
fn a_swift_raw_string_ends_at_its_hashes() {
    let files = [("src/A.swift", "let a = #\"C:\\\"#; f() // LCOV_EXCL_LINE\n")];
    let run = check("\"lines\"", &files, &line_one_uncovered(&["src/A.swift"]));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("ignored by inline markers: 1 line"),
        "{}",
        run.stdout
    );
}
