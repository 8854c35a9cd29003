//! Hostile or unusual input found by a break test: special files where covgate looks for a
//! `Cargo.toml`, markers inside string literals, and names that would display as other names.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::bad_inputs::run_killed_after;
use crate::common::{Run, Sandbox};

/// Runs covgate in `dir`, killed (exit -9) after 20 s: a hang fails the test instead of the
/// suite.
fn run_bounded(dir: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_covgate"));
    command.args(args).current_dir(dir).env("COLUMNS", "1000");
    run_killed_after(&mut command, Duration::from_secs(20))
}

/// A sandbox with a covered `src/lib.rs`, a policy of functions and lines, and `t.info`.
fn covered_lib() -> Sandbox {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write("src/lib.rs", "pub fn a() -> u32 { 1 }\n");
    sb.write(
        "t.info",
        "TN:\nSF:src/lib.rs\nFN:1,a\nFNDA:1,a\nDA:1,1\nend_of_record\n",
    );
    sb
}

/// A `Cargo.toml` at the root that is a FIFO (opened, it blocks for ever) or a link to
/// `/dev/zero` (read whole, it never ends) is never opened: the check runs and passes.
#[cfg(unix)]
#[test]
fn a_cargo_toml_that_is_a_fifo_or_a_device_is_never_opened() {
    let sb = covered_lib();
    let manifest = sb.path().join("Cargo.toml");
    crate::bad_inputs::mkfifo(&manifest);
    let run = run_bounded(sb.path(), &["check", "t.info"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("covgate: PASS"), "{}", run.stdout);
    std::fs::remove_file(&manifest).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", &manifest).expect("symlink");
    let run = run_bounded(sb.path(), &["check", "t.info"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("covgate: PASS"), "{}", run.stdout);
}

/// A sandbox with `files` (path, text), a lines-only policy including `include`, and `t.info`.
fn lines_sandbox(include: &str, files: &[(&str, &str)], info: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "[measure]\ninclude = [\"{include}\"]\nmetrics = [\"lines\"]\n"
    ));
    for (path, text) in files {
        sb.write(path, text);
    }
    sb.write("t.info", info);
    sb
}

/// Markers inside a JavaScript template literal that spans lines are text: line 6, never run,
/// stays uncovered (covgate passed it, the range "ignoring" lines 3 to 10).
#[test]
fn markers_in_a_template_literal_are_text() {
    let app = "function render(user) {\n  const banner = `\n    // LCOV_EXCL_START\n  `;\n\
               \x20 if (user.admin) {\n    deleteEverything();\n  }\n  const footer = `\n\
               \x20   // LCOV_EXCL_STOP\n  `;\n  return banner + footer;\n}\n";
    let info = "TN:\nSF:src/app.js\nDA:1,1\nDA:2,1\nDA:5,1\nDA:6,0\nDA:8,1\nDA:11,1\nDA:13,1\n\
                LF:7\nLH:6\nend_of_record\n";
    let sb = lines_sandbox("src/**/*.js", &[("src/app.js", app)], info);
    let run = sb.run(&["check", "t.info", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("│ src/app.js ┆ fail   ┆ 6/7 ✗ │"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("ignored by inline markers: 0 lines"),
        "{}",
        run.stdout
    );
}

/// Go raw strings and Python triple-quoted strings (one holding an apostrophe) hold text, not
/// markers: `src/q.go` was 0 of 0 (vacuous), `src/tool.py` lost its line 3.
#[test]
fn markers_in_go_raw_strings_and_python_triple_quotes_are_text() {
    let go = "package q\n\nconst sql = `\nSELECT 1 -- // LCOV_EXCL_START\n`\n\n\
              func Q(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n\n\
              const sql2 = `\n-- // LCOV_EXCL_STOP\n`\n";
    let py = "def run(x):\n    usage = '''Don't call this with x < 0.\n    \
              Example: run(3)  # LCOV_EXCL_LINE\n    '''\n    if x < 0:\n        \
              raise ValueError(usage)  # uncovered\n    return x\n";
    let info = "TN:\nSF:src/tool.py\nDA:1,1\nDA:2,1\nDA:3,0\nDA:5,1\nDA:6,0\nDA:7,1\n\
                end_of_record\nTN:\nSF:src/q.go\nDA:7,1\nDA:8,1\nDA:9,0\nDA:11,1\nend_of_record\n";
    let sb = lines_sandbox("src/**", &[("src/q.go", go), ("src/tool.py", py)], info);
    let run = sb.run(&["check", "t.info", "--show", "all"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("│ src/q.go    ┆ fail   ┆ 3/4 ✗ │"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("│ src/tool.py ┆ fail   ┆ 4/6 ✗ │"),
        "{}",
        run.stdout
    );
}

/// A marker in a file whose string syntax covgate does not know is an error (exit 2), not
/// honoured: in Lua, `[[…]]` is a string.
#[test]
fn a_marker_in_a_language_covgate_cannot_lex_is_an_error() {
    let lua = "local s = [[\n// LCOV_EXCL_LINE\n]]\nreturn 1\n";
    let info = "TN:\nSF:src/a.lua\nDA:1,1\nDA:2,0\nDA:4,1\nend_of_record\n";
    let sb = lines_sandbox("src/**", &[("src/a.lua", lua)], info);
    let run = sb.run(&["check", "t.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/a.lua:2: a marker in a file of a language whose string literals"),
        "{}",
        run.stderr
    );
}

/// `////` is a plain comment in Rust (rustc's rule), so its marker counts: line 9 is ignored
/// and the file passes (the marker was dropped as documentation, and line 9 failed it).
#[test]
fn a_marker_after_four_slashes_in_rust_counts() {
    let lib = "pub fn used() -> u32 {\n    1\n}\n\npub fn uncalled(x: u32) -> u32 {\n    \
               let y = x * 3;\n    let z = y + 4;\n    let w = z - 1;\n    \
               w * 2 //// covgate:ignore -- four slashes is a plain comment in Rust\n}\n";
    let info = "TN:\nSF:src/lib.rs\nDA:1,1\nDA:2,1\nDA:5,1\nDA:6,1\nDA:7,1\nDA:8,1\nDA:9,0\n\
                end_of_record\n";
    let sb = lines_sandbox("src/**/*.rs", &[("src/lib.rs", lib)], info);
    let run = sb.run(&["check", "t.info", "--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("│ src/lib.rs ┆ pass   ┆ 6/6   │"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("ignored by inline markers: 1 line,"),
        "{}",
        run.stdout
    );
}

/// A file or function name with bidi and zero-width characters is escaped in the table, the
/// Markdown and the GitHub annotations: `src/f\u{202e}gnp.rs` would display as `src/fsr.png`.
#[test]
fn bidi_and_format_characters_in_names_are_escaped_everywhere() {
    let name = "src/f\u{202e}gnp.rs";
    let info = format!(
        "SF:{name}\nFN:1,g\u{2067}x\u{200b}\nFNDA:0,g\u{2067}x\u{200b}\nDA:1,0\nend_of_record\n"
    );
    let sb = lines_sandbox("src/**", &[(name, "fn f() {}\n")], &info);
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    for format in ["table", "markdown", "github"] {
        let run = sb.run(&["check", "t.info", "--format", format]);
        assert_eq!(run.code, 1, "{format}: {}", run.stderr);
        let hidden = ['\u{202e}', '\u{2067}', '\u{200b}'];
        assert!(!run.stdout.contains(hidden), "{format}: {}", run.stdout);
        assert!(
            run.stdout.contains("src/f\\u{202e}gnp.rs"),
            "{format}: {}",
            run.stdout
        );
    }
    let run = sb.run(&["check", "t.info", "--format", "github"]);
    assert!(
        run.stdout
            .contains("function never run::g\\u{2067}x\\u{200b} never ran"),
        "{}",
        run.stdout
    );
}

/// A reason that shows nothing (a zero-width space, a byte-order mark and spaces) is the same
/// error as an empty one.
#[test]
fn an_invisible_reason_is_no_reason() {
    let sb = covered_lib();
    for reason in ["\u{200b}", " \u{feff} ", ""] {
        sb.policy(&format!(
            "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/x.rs\"\nreason = \"{reason}\"\n"
        ));
        let run = sb.run(&["check", "t.info"]);
        assert_eq!(run.code, 2, "{reason:?}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(":5:10: an [[exclude]] needs a non-empty `reason`"),
            "{reason:?}: {}",
            run.stderr
        );
    }
}

/// 20,000 functions, each an uncovered region on a line with a marker: every marker is held
/// against the uncovered items by binary search. Holding each marker against every item took
/// 8.5 s here (debug build); it now takes well under a second.
#[test]
fn twenty_thousand_markers_on_twenty_thousand_regions_are_quick() {
    const N: usize = 20_000;
    let sb = Sandbox::new();
    sb.policy("[measure]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n");
    let source: String = (0..N)
        .map(|i| format!("fn f{i}() {{}} // LCOV_EXCL_LINE\n\n"))
        .collect();
    sb.write("src/lib.rs", &source);
    let records: Vec<String> = (0..N)
        .map(|i| {
            let line = 2 * i + 1;
            format!(
                r#"{{"name":"f{i}","count":0,"regions":[[{line},1,{line},10,0,0,0,0]],"filenames":["src/lib.rs"]}}"#
            )
        })
        .collect();
    let counts = format!(r#"{{"count":{N},"covered":0,"percent":0}}"#);
    sb.write(
        "t.json",
        &format!(
            r#"{{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{{"files":[{{"filename":"src/lib.rs","summary":{{"lines":{counts},"functions":{counts},"instantiations":{counts},"regions":{counts}}}}}],"functions":[{}],"totals":{{}}}}]}}"#,
            records.join(",")
        ),
    );
    let started = std::time::Instant::now();
    let run = run_bounded(sb.path(), &["check", "t.json"]);
    let elapsed = started.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "ignored by inline markers: 20000 lines, 20000 regions, 0 branch sides, 20000 \
             functions in 1 file"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("stale"), "{}", run.stderr);
    assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
}

/// A link to a folder outside the root (`src/sys` -> `/usr`) made the walk walk that tree: it
/// is not followed, and a warning names it. Its files are then neither measured nor
/// unmeasured (the check passes on `src/lib.rs`).
#[cfg(unix)]
#[test]
fn a_link_to_a_folder_outside_the_root_is_not_walked() {
    let sb = covered_lib();
    let away = tempfile::tempdir().expect("tempdir");
    std::fs::write(away.path().join("x.rs"), "pub fn x() {}\n").expect("x.rs");
    std::os::unix::fs::symlink(away.path(), sb.path().join("src/sys")).expect("symlink");
    let run = run_bounded(sb.path(), &["check", "t.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let target = std::fs::canonicalize(away.path()).expect("canonical");
    assert!(
        run.stderr.contains(&format!(
            "covgate: warning: src/sys: a symbolic link to a folder outside the root ({}): not \
             walked",
            target.display()
        )),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("x.rs"), "{}", run.stdout);
}
