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
