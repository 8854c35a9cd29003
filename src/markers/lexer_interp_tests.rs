//! Strings with holes: a quote inside a hole neither ends its string nor starts one, so the
//! comments after the string are where the compiler sees them.

use super::tests::marked;
use super::*;

#[test]
fn dollar_holes_in_kotlin_dart_and_groovy() {
    let text = "val a = \"${m[\"k\"]} // x\" // MARK 1\n\
                val b = \"${ if (c) \"}\" else { \"{\" } } // x\" // MARK 2\n\
                val c = \"${ x /* MARK 3 */ } // x\"\n\
                val d = \"$${x} // x\" // MARK 4\n";
    for lang in [Lang::Kotlin, Lang::TextBlocks, Lang::Dart] {
        assert_eq!(marked(text, lang), [1, 2, 3, 4], "{lang:?}");
    }
    // A hole in a raw string; a string left open ends with its line.
    let kt = "val r = \"\"\"${m[\"\"\"k\"\"\"]} // x\"\"\"\" // MARK 1\n\
              val o = \"${x} // x\nf() // MARK 3\n";
    assert_eq!(marked(kt, Lang::Kotlin), [1, 3]);
    // Dart's single-quoted strings have holes too; Groovy's and Kotlin's `'` is no such string.
    let dart = "var a = '${m['k']} // x'; // MARK 1\nvar t = '''${m['''k''']} // x'''; // MARK 2\n";
    assert_eq!(marked(dart, Lang::Dart), [1, 2]);
    let groovy = "def a = '${' // MARK 1\ndef b = \"\"\"${m[\"k\"]}\n// x\"\"\" // MARK 3\n";
    assert_eq!(marked(groovy, Lang::TextBlocks), [1, 3]);
}

#[test]
fn scala_holes_only_in_interpolated_strings() {
    let text = "val a = \"${\"; // MARK 1\nval b = s\"${m(\"k\")} // x\"; // MARK 2\n\
                val c = s\"$${ // x\"; // MARK 3\nval d = s\"\"\"${ \"a\" } // x\"\"\" // MARK 4\n\
                val e = \"\"\"${\"\"\" // MARK 5\nval q = '\"'; // MARK 6\n";
    assert_eq!(marked(text, Lang::Scala), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn swift_holes_and_raw_strings() {
    let text = "let a = \"\\(d[\"k\"]!) // x\" // MARK 1\nlet b = \"\\\\(\" // MARK 2\n\
                let c = \"\\((1 + (2)) * 3) // x\" // MARK 3\n\
                let r = #\"C:\\\"# // MARK 4\nlet s = ##\"a\"# // x\"## // MARK 5\n\
                let m = #\"\"\"\n// MARK 7\n\"\"\"# // MARK 8\n#if os(Linux) // MARK 9\n\
                let t = \"\"\"\n\\(f(\"\"\"\n// x\n\"\"\")) // x\n\"\"\" // MARK 14\n";
    assert_eq!(marked(text, Lang::Swift), [1, 2, 3, 4, 5, 8, 9, 14]);
}

#[test]
fn hash_holes_in_ruby_and_elixir() {
    let text = "a = \"#{h[\"k\"]} # x\" # MARK 1\nb = '#{' # MARK 2\nc = \"a#b\" # MARK 3\n\
                d = \"a$b\" # MARK 4\n";
    assert_eq!(marked(text, Lang::Ruby), [1, 2, 3, 4]);
    let ex = "a = \"#{m[\"k\"]} # x\" # MARK 1\nb = ~s\"\"\"\n#{ \"x\" }\n# x\n\"\"\" # MARK 5\n\
              c = ~S\"\"\"\n#{\n\"\"\" # MARK 8\n";
    assert_eq!(marked(ex, Lang::Elixir), [1, 5, 8]);
}

#[test]
fn brace_holes_in_csharp() {
    let cs = "var a = $\"{d[\"k\"]} // x\"; // MARK 1\nvar b = $\"{{ // x\"; // MARK 2\n\
              var c = $\"{t:HH':'mm} // x\"; // MARK 3\nvar d = $\"{!b} {{x}} // x\"; // MARK 4\n\
              var e = $\"{n,5:N{2}} // x\"; // MARK 5\nvar f = $\"\"\"{\"a\"}\"\"\"; // MARK 6\n\
              int $x = 1; // MARK 7\n";
    assert_eq!(marked(cs, Lang::CSharp), [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn brace_holes_in_python_f_strings() {
    let py = "a = f\"{d['k']} # x\"  # MARK 1\nb = f\"{d[\"k\"]} # x\"  # MARK 2\n\
              c = f\"{{ # x\"  # MARK 3\nd = f\"{x!r:>{w}} # x\"  # MARK 4\n\
              e = f\"{x:'>10} # x\"  # MARK 5\ng = f\"{a!=b} # x\"  # MARK 6\n\
              h = rf\"{x}\\\" # x\"  # MARK 7\ni = f\"\"\"\n{x[\"k\"]}\n# x\n\"\"\"  # MARK 10\n\
              j = b\"{\" # MARK 12\nk = fb\"{\" # MARK 13\nl = frb\"{\" # MARK 14\n\
              m = f\"{ {'a': 1}['a'] } # x\"  # MARK 15\nn = f'{x!\n";
    assert_eq!(
        marked(py, Lang::Python),
        [1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15]
    );
}

#[test]
fn holes_left_open_do_not_panic() {
    for (text, lang) in [
        ("\"${", Lang::Kotlin),
        ("\"\\(", Lang::Swift),
        ("f\"{x:", Lang::Python),
        ("$\"{", Lang::CSharp),
        ("\"\"\"a\"", Lang::Kotlin),
        ("#\"", Lang::Swift),
    ] {
        assert!(marked(text, lang).is_empty(), "{text}");
    }
}

/// A run of a million `#` in Swift (no raw string) is read once, not once per `#`.
#[test]
fn long_hash_runs_in_swift_are_read_once() {
    let text = format!("{}\nf() // MARK 2\n", "#".repeat(1_000_000));
    assert_eq!(marked(&text, Lang::Swift), [2]);
}
