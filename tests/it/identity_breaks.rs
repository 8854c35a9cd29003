//! False passes in file identity found by a newcomer's break test (session 11): Windows verbatim
//! prefixes, skipped folders that hide in-scope files, glob case for reports recorded on a
//! case-insensitive system, file names that are not UTF-8, and Unicode normalisation.

use crate::common;

use common::{metric, status, Sandbox};

const FUNCTIONS_LINES: &str =
    "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n";

/// An LCOV section for `path`: one function `name` at line 1 and lines 1–3, all run `hits` times.
fn section(path: &str, name: &str, hits: u32) -> String {
    format!(
        "SF:{path}\nFN:1,{name}\nFNDA:{hits},{name}\nDA:1,{hits}\nDA:2,{hits}\nDA:3,{hits}\nend_of_record\n"
    )
}

#[test]
fn a_verbatim_windows_path_names_the_file_its_plain_form_names() {
    let sb = Sandbox::new();
    sb.policy(FUNCTIONS_LINES);
    sb.write("src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.write("src/b.rs", "pub fn b(x: u32) -> u32 {\n    x\n}\n");
    let report =
        section(r"D:\a\proj\src\lib.rs", "a", 1) + &section(r"\\?\D:\a\proj\src\b.rs", "b", 0);
    sb.write("cov.info", &report);
    // Without the walk: b.rs is below the root, measured at 0%.
    let run = sb.run(&[
        "check",
        "cov.info",
        "--root",
        r"D:\a\proj",
        "--no-walk",
        "--format",
        "json",
        "--show",
        "all",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/b.rs", "lines"), "0/3 fail");
    assert_eq!(doc["summary"]["measured"], 2);
    assert_eq!(doc["dropped"].as_array().map(Vec::len), Some(0), "{doc:#}");
    // With the walk and a remap: the same file, measured (not "in no report").
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
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/b.rs"), "fail");
    assert_eq!(metric(&doc, "src/b.rs", "functions"), "0/1 fail");
    assert_eq!(doc["dropped"].as_array().map(Vec::len), Some(0), "{doc:#}");
}

/// The cachedir-tag-hides case: `src/lib.rs` covered, `src/extra/untested.rs` in no report.
fn cache_case(tag: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(FUNCTIONS_LINES);
    sb.write("src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.write(
        "src/extra/untested.rs",
        "pub fn never(x: u32) -> u32 {\n    x * 2\n}\n",
    );
    sb.write("src/extra/CACHEDIR.TAG", tag);
    sb.write(
        "cov.info",
        &format!("TN:\n{}", section("src/lib.rs", "a", 1)),
    );
    sb
}

#[test]
fn an_unsigned_cachedir_tag_hides_nothing() {
    let sb = cache_case("");
    let run = sb.run(&["check", "cov.info", "--format", "json", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/extra/untested.rs"), "unmeasured");
    assert_eq!(doc["summary"]["unmeasured"], 1);
}

/// A signed CACHEDIR.TAG or a dot-folder below `src/`, which the default include names: the
/// folder is the project's, whatever a change puts in it, so the walk goes through it and its
/// code is unmeasured (it was skipped, with a warning, and the check passed).
#[test]
fn a_skipped_folder_below_a_folder_the_include_names_is_walked() {
    let sb = cache_case("Signature: 8a477f597d28d172789f06886806bc55\n");
    sb.write("src/.gen/hidden.rs", "pub fn h() -> u32 {\n    2\n}\n");
    sb.write("src/.gen/notes.txt", "not selected\n");
    let run = sb.run(&["check", "cov.info", "--format", "json", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/extra/untested.rs"), "unmeasured");
    assert_eq!(status(&doc, "src/.gen/hidden.rs"), "unmeasured");
    assert!(
        !run.stderr.contains("skipped by the walk"),
        "{}",
        run.stderr
    );
}

#[test]
fn files_the_include_selects_in_skipped_folders_are_named_in_a_warning() {
    // `**/*.rs` names no folder: hidden and cache folders (a `.cargo/registry` inside the
    // checkout, a build folder) are skipped, and the files they hold that the include selects
    // are named in a warning.
    let sb = cache_case("");
    sb.policy(&FUNCTIONS_LINES.replace("src/**/*.rs", "**/*.rs"));
    sb.write("extra/untested.rs", "pub fn never() -> u32 {\n    2\n}\n");
    sb.write(
        "extra/CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    sb.write(".gen/hidden.rs", "pub fn h() -> u32 {\n    2\n}\n");
    sb.write(".gen/notes.txt", "not selected\n");
    std::fs::remove_file(sb.path().join("src/extra/untested.rs")).unwrap();
    let run = sb.run(&["check", "cov.info", "--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains(
            ".gen: a hidden folder, skipped by the walk, holds 1 file(s) that `include` \
             selects (.gen/hidden.rs): they are not measured unless a report names them"
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "extra: a cache folder (CACHEDIR.TAG), skipped by the walk, holds 1 file(s) that \
             `include` selects (extra/untested.rs)"
        ),
        "{all}"
    );
    let doc = sb.run(&["check", "cov.info", "--format", "json"]).json();
    assert_eq!(doc["summary"]["measured"], 1);
    let warnings = doc.to_string();
    assert_eq!(
        warnings.matches("skipped by the walk, holds").count(),
        2,
        "{doc:#}"
    );
}

#[test]
fn globs_match_without_case_the_paths_of_a_report_recorded_on_windows() {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "{FUNCTIONS_LINES}[[exclude]]\npath = \"src/gen.rs\"\nreason = \"generated\"\n"
    ));
    let report = section(r"D:\a\proj\src\lib.rs", "a", 1)
        + &section(r"D:\a\proj\Src\Util.rs", "b", 0)
        + &section(r"D:\a\proj\src\Gen.rs", "c", 0);
    sb.write("cov.info", &report);
    let args = [
        "check",
        "cov.info",
        "--root",
        r"D:\a\proj",
        "--no-walk",
        "--format",
        "json",
        "--show",
        "all",
    ];
    let run = sb.run(&args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    // `Src\Util.rs` is the file `src/**/*.rs` selects on Windows: measured, at 0%.
    assert_eq!(metric(&doc, "Src/Util.rs", "functions"), "0/1 fail");
    assert_eq!(status(&doc, "src/Gen.rs"), "excluded");
    assert_eq!(doc["summary"]["measured"], 2);
    assert_eq!(doc["summary"]["outside_include"], 0);
    // A report recorded on a case-sensitive system keeps case-sensitive globs.
    let run = sb.run(&[
        "check",
        "cov.info",
        "--root",
        r"D:\a\proj",
        "--no-walk",
        "--path-case",
        "sensitive",
        "--format",
        "json",
        "--show",
        "all",
    ]);
    let doc = run.json();
    assert_eq!(doc["summary"]["outside_include"], 1, "{doc:#}");
    assert_eq!(status(&doc, "src/Gen.rs"), "fail");
}

/// Writes `src/<name>` (raw bytes) in `sb`.
#[cfg(unix)]
fn write_raw(sb: &Sandbox, name: &[u8], text: &str) {
    use std::os::unix::ffi::OsStrExt;
    let path = sb
        .path()
        .join("src")
        .join(std::ffi::OsStr::from_bytes(name));
    std::fs::create_dir_all(path.parent().expect("src")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[cfg(unix)]
#[test]
fn two_file_names_that_are_one_name_once_read_as_utf8_are_an_error() {
    for (first, second) in [
        (&b"a\xff.rs"[..], &b"a\xfe.rs"[..]),
        (b"a\xef\xbf\xbd.rs", b"a\xff.rs"),
    ] {
        let sb = Sandbox::new();
        sb.policy(FUNCTIONS_LINES);
        write_raw(&sb, first, "pub fn a() -> u32 {\n    1\n}\n");
        write_raw(&sb, second, "pub fn b(x: u32) -> u32 {\n    x + 1\n}\n");
        // The report names the first file (a lossy name, or the valid U+FFFD one).
        sb.write(
            "cov.info",
            &format!("TN:\n{}", section("src/a\u{FFFD}.rs", "a", 1)),
        );
        let run = sb.run(&["check", "cov.info", "--show", "all"]);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        let quoted = |name: &[u8]| {
            format!(
                "{:?}",
                Path::new("src").join(std::ffi::OsStr::from_bytes(name))
            )
        };
        use std::os::unix::ffi::OsStrExt;
        use std::path::Path;
        assert!(
            run.stderr
                .contains("two files get one name, `src/a\u{FFFD}.rs`"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(&quoted(first)), "{}", run.stderr);
        assert!(run.stderr.contains(&quoted(second)), "{}", run.stderr);
        assert!(run.stderr.contains("rename one of them"), "{}", run.stderr);
    }
}

#[test]
fn a_report_name_in_nfd_is_the_nfc_file_on_disk() {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "{FUNCTIONS_LINES}[[exclude]]\npath = \"src/caf\u{e9}.rs\"\nreason = \"generated\"\n"
    ));
    sb.write("src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.write("src/caf\u{e9}.rs", "pub fn c() -> u32 {\n    3\n}\n");
    let report = section("/Users/me/proj/src/lib.rs", "a", 1)
        + &section("/Users/me/proj/src/cafe\u{301}.rs", "c", 0);
    sb.write("cov.info", &report);
    for walk in [&[][..], &["--no-walk"]] {
        let mut args = vec![
            "check",
            "cov.info",
            "--remap-path-prefix",
            "/Users/me/proj=.",
            "--format",
            "json",
            "--show",
            "all",
        ];
        args.extend_from_slice(walk);
        let run = sb.run(&args);
        assert_eq!(run.code, 0, "{walk:?}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(doc["files"].as_array().map(Vec::len), Some(2), "{doc:#}");
        assert_eq!(status(&doc, "src/caf\u{e9}.rs"), "excluded");
        assert_eq!(doc["summary"]["measured"], 1);
    }
}

#[test]
fn a_folder_with_two_normalisations_of_a_name_keeps_the_reports_spelling() {
    // ẹ́ three ways: NFC, NFD, and with its marks in another order (neither form).
    let (nfc, nfd, other) = ("\u{1eb9}\u{301}", "e\u{323}\u{301}", "e\u{301}\u{323}");
    let sb = Sandbox::new();
    sb.policy(FUNCTIONS_LINES);
    sb.write(&format!("src/{nfc}.rs"), "pub fn a() -> u32 {\n    1\n}\n");
    sb.write(&format!("src/{nfd}.rs"), "pub fn b() -> u32 {\n    2\n}\n");
    sb.write("cov.info", &section(&format!("src/{other}.rs"), "a", 1));
    let run = sb.run(&[
        "check",
        "cov.info",
        "--no-walk",
        "--format",
        "json",
        "--show",
        "all",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, &format!("src/{other}.rs")), "pass");
    assert_eq!(doc["summary"]["measured"], 1);
}

#[cfg(unix)]
#[test]
fn a_root_that_climbs_out_of_a_link_is_the_folder_the_kernel_opens() {
    let sb = Sandbox::new();
    sb.write("elsewhere/sub/.keep", "");
    sb.write("elsewhere/src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.write("proj/src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
    sb.write(
        "proj/src/untested.rs",
        "pub fn u(x: u32) -> u32 {\n    x * 2\n}\n",
    );
    std::os::unix::fs::symlink("../elsewhere/sub", sb.path().join("proj/link")).expect("link");
    sb.write("proj/coverage-policy.toml", FUNCTIONS_LINES);
    sb.write(
        "proj/cov.info",
        &format!("TN:\n{}", section("src/lib.rs", "a", 1)),
    );
    let proj = sb.path().join("proj");
    for root in ["link/..", "link/../src/.."] {
        let run = common::covgate(
            &proj,
            &["check", "cov.info", "--root", root, "--format", "json"],
        );
        assert_eq!(run.code, 0, "{root}: {}{}", run.stdout, run.stderr);
        let doc = run.json();
        assert_eq!(doc["summary"]["measured"], 1);
        assert_eq!(doc["summary"]["unmeasured"], 0, "{doc:#}");
    }
}

#[test]
fn a_policy_path_that_climbs_out_of_a_folder_it_names_is_an_error() {
    for entry in [
        "[[exclude]]\npath = \"src/shared/../helper.rs\"\nreason = \"r\"\n",
        "[[debt]]\npath = \"src/shared/../helper.rs\"\nreason = \"r\"\nlines = 1\n",
    ] {
        let sb = Sandbox::new();
        sb.policy(&format!("{FUNCTIONS_LINES}{entry}"));
        sb.write("src/lib.rs", "pub fn a() -> u32 {\n    1\n}\n");
        sb.write(
            "cov.info",
            &format!("TN:\n{}", section("src/lib.rs", "a", 1)),
        );
        let run = sb.run(&["check", "cov.info"]);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("`src/shared/../helper.rs`: a `..` after a folder name is ambiguous")
                && run.stderr.contains("e.g. `src/helper.rs`"),
            "{}",
            run.stderr
        );
    }
}
