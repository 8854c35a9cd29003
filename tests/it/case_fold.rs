//! Case-insensitive matching folds names as Windows does (breaker s16 #4): NTFS compares names
//! through its upcase table, Unicode's simple upper-case mapping, and does not normalise them.
//! So `D:\a\proj\src\key.c` and the same path spelled with the KELVIN SIGN (U+212A, whose lower
//! case is `k` and whose NFC form is `K`) are two files there, and must not merge into one row.

use crate::common::{metric, status, Sandbox};

const POLICY: &str =
    "[measure]\ninclude = [\"src/**/*.c\"]\nmetrics = [\"functions\", \"lines\"]\n";

/// An LCOV section (CRLF, as a Windows tracefile) for `path`: function `f` at line 1, lines 1–2,
/// all run `hits` times.
fn section(path: &str, hits: u32) -> String {
    format!(
        "SF:{path}\r\nFN:1,f\r\nFNDA:{hits},f\r\nDA:1,{hits}\r\nDA:2,{hits}\r\nend_of_record\r\n"
    )
}

/// `src/key.c` never run, and `src/\u{212A}ey.c` (the KELVIN SIGN) run: two Windows files.
fn tracefile() -> String {
    section(r"D:\a\proj\src\key.c", 0) + &section("D:\\a\\proj\\src\\\u{212A}ey.c", 1)
}

#[test]
fn a_windows_name_with_the_kelvin_sign_is_not_the_file_spelled_with_k() {
    let sb = Sandbox::new();
    sb.policy(POLICY);
    sb.write("src/key.c", "int f(void) {\n  return 0;\n}\n");
    sb.write("cov.info", &tracefile());
    for case in ["auto", "insensitive"] {
        let run = sb.run(&[
            "check",
            "cov.info",
            "--remap-path-prefix",
            r"D:\a\proj=.",
            "--path-case",
            case,
            "--format",
            "json",
            "--show",
            "all",
        ]);
        assert_eq!(run.code, 1, "{case}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(status(&doc, "src/key.c"), "fail", "{case}");
        assert_eq!(metric(&doc, "src/key.c", "functions"), "0/1 fail", "{case}");
        assert_eq!(metric(&doc, "src/key.c", "lines"), "0/2 fail", "{case}");
        // The Kelvin-sign file is a name of its own, not on disk here.
        assert_eq!(
            metric(&doc, "src/\u{212A}ey.c", "functions"),
            "1/1 pass",
            "{case}"
        );
        assert_eq!(doc["summary"]["measured"], 2, "{case}");
    }
    // A plain change of case is still the same file on Windows.
    sb.write(
        "cov.info",
        &(section(r"D:\a\proj\src\key.c", 0) + &section(r"D:\a\proj\SRC\KEY.C", 1)),
    );
    let run = sb.run(&[
        "check",
        "cov.info",
        "--remap-path-prefix",
        r"D:\a\proj=.",
        "--format",
        "json",
        "--show",
        "all",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/key.c", "functions"), "1/1 pass");
    assert_eq!(doc["summary"]["measured"], 1);
}

#[test]
fn names_not_on_disk_merge_by_simple_upper_case_only() {
    // Neither file is on disk: names that differ only by case are one file, under the
    // spelling that sorts last; the Kelvin sign, the OHM SIGN and ẞ keep their files apart.
    let sb = Sandbox::new();
    sb.policy(POLICY);
    let mut report = String::new();
    for (name, hits) in [
        ("key.c", 0),
        ("\u{212A}ey.c", 1),
        ("\u{3A9}.c", 0),
        ("\u{2126}.c", 1),
        ("\u{DF}.c", 0),
        ("\u{1E9E}.c", 1),
        ("Ab.c", 0),
        ("aB.c", 1),
    ] {
        report += &section(&format!("D:\\a\\proj\\src\\{name}"), hits);
    }
    sb.write("cov.info", &report);
    let run = sb.run(&[
        "check",
        "cov.info",
        "--remap-path-prefix",
        r"D:\a\proj=.",
        "--no-walk",
        "--format",
        "json",
        "--show",
        "all",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["summary"]["measured"], 7, "{doc:#}");
    for name in ["key.c", "\u{3A9}.c", "\u{DF}.c"] {
        assert_eq!(
            metric(&doc, &format!("src/{name}"), "functions"),
            "0/1 fail"
        );
    }
    for name in ["\u{212A}ey.c", "\u{2126}.c", "\u{1E9E}.c"] {
        assert_eq!(
            metric(&doc, &format!("src/{name}"), "functions"),
            "1/1 pass"
        );
    }
    // `Ab.c` and `aB.c` are one file (its best record), named `aB.c`.
    assert_eq!(metric(&doc, "src/aB.c", "functions"), "1/1 pass");
}
