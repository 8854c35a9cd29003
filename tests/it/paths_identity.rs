//! One file, one name (`identity.rs`, `paths.rs`): the real-world cases 07 (a report recorded on
//! Windows, with paths that differ by case) and 28 (workspace-relative paths checked with a
//! member crate's policy), symbolic links on either side, per-report hints whatever the order of
//! the reports, normalised policy globs, and the report files that are not judged.

use crate::common;

use std::path::Path;

use common::{fixture, metric, status, Sandbox};

const C07: &str = "cases/07-windows-paths-and-case";
const C28: &str = "cases/28-workspace-relative-paths-member-policy";
const FUNCTIONS_LINES: &str =
    "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n";

fn input(case: &str, name: &str) -> String {
    fixture(&format!("{case}/{name}")).display().to_string()
}

/// Case 07's crate in a sandbox, with `policy`.
fn wpaths(policy: &str) -> Sandbox {
    let sb = Sandbox::copy_of(&format!("{C07}/crate"));
    sb.policy(policy);
    sb
}

/// `check REPORTS --format json --show all` with the Windows root mapped onto the sandbox.
fn check_windows(sb: &Sandbox, reports: &[&str], extra: &[&str]) -> common::Run {
    let remap = format!(r"D:\a\wpaths\wpaths={}", sb.path().display());
    let mut args = vec!["check"];
    args.extend_from_slice(reports);
    args.extend([
        "--remap-path-prefix",
        &remap,
        "--format",
        "json",
        "--show",
        "all",
    ]);
    args.extend_from_slice(extra);
    sb.run(&args)
}

#[test]
fn case07_windows_paths_give_the_expected_verdicts() {
    let sb = wpaths("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n");
    let run = check_windows(&sb, &[&input(C07, "input.json")], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "10/15 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
    assert_eq!(metric(&doc, "src/util/text.rs", "regions"), "12/13 fail");
    assert_eq!(metric(&doc, "src/util/text.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "5/6 fail");
    assert_eq!(doc["summary"]["measured"], 2);

    let sb = wpaths(FUNCTIONS_LINES);
    let run = check_windows(&sb, &[&input(C07, "input.info")], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "5/6 fail");
    assert_eq!(doc["summary"]["measured"], 2);
}

#[test]
fn case07_two_case_spellings_of_one_file_are_merged_under_the_disk_spelling() {
    let sb = wpaths(FUNCTIONS_LINES);
    let run = check_windows(&sb, &[&input(C07, "input-mixed-case.info")], &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "3/3 pass");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "9/9 pass");
    assert_eq!(metric(&doc, "src/util/text.rs", "functions"), "1/1 pass");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "6/6 pass");
    assert_eq!(doc["summary"]["measured"], 2);
    assert_eq!(doc["files"].as_array().map(Vec::len), Some(3), "{doc:#}");

    // Without the sources (the root is the Windows folder itself), the spellings still fold
    // into one file, named by the spelling that sorts last.
    let run = sb.run(&[
        "check",
        &input(C07, "input-mixed-case.info"),
        "--root",
        r"D:\a\wpaths\wpaths",
        "--no-walk",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["facts"]["root"], "D:/a/wpaths/wpaths");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "6/6 pass");
    assert_eq!(doc["summary"]["measured"], 2);

    // Compared case-sensitively, `src/Util/Text.rs` is a file of its own, on no disk.
    let run = check_windows(
        &sb,
        &[&input(C07, "input-mixed-case.info")],
        &["--path-case", "sensitive"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/Util/Text.rs", "lines"), "5/6 fail");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "5/6 fail");
}

/// A report recorded on Windows whose every path is spelled in another case, as JSON and as
/// LCOV, gives the verdict of the report as spelled on disk.
#[test]
fn case_varied_windows_reports_take_the_disk_spelling() {
    let sb = wpaths(FUNCTIONS_LINES);
    let json = std::fs::read_to_string(input(C07, "input.json")).expect("json");
    let varied = json
        .replace(
            r"D:\\a\\wpaths\\wpaths\\src\\lib.rs",
            r"d:\\A\\WPaths\\wpaths\\SRC\\Lib.RS",
        )
        .replace(r"\\src\\util\\text.rs", r"\\Src\\UTIL\\text.RS");
    assert_ne!(varied, json);
    let path = sb.write("varied.json", &varied);
    let run = check_windows(&sb, &[&path.display().to_string()], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "5/6 fail");
    assert_eq!(doc["summary"]["outside_include"], 0);

    let lcov = std::fs::read_to_string(input(C07, "input.info")).expect("lcov");
    let varied = lcov.replace(r"wpaths\src\util\text.rs", r"WPATHS\SRC\Util\Text.rs")
        + "SF:C:\\Users\\ci\\.cargo\\registry\\x.rs\r\nDA:1,1\r\nend_of_record\r\n";
    assert_ne!(varied, lcov);
    let path = sb.write("varied.info", &varied);
    let run = check_windows(&sb, &[&path.display().to_string()], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/util/text.rs", "lines"), "5/6 fail");
    assert_eq!(
        doc["dropped"][0]["name"],
        "C:/Users/ci/.cargo/registry/x.rs"
    );

    // `--path-case insensitive` folds a report with `/` paths too.
    let run = sb.run(&[
        "check",
        "-",
        "--path-case",
        "insensitive",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let stdin = format!(
        "SF:{}/SRC/LIB.rs\nDA:3,1\nend_of_record\n",
        sb.path().display()
    );
    let run = common::covgate_with_stdin(
        sb.path(),
        &[
            "check",
            "-",
            "--path-case",
            "insensitive",
            "--format",
            "json",
        ],
        Some(stdin.as_bytes()),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "1/1 pass");
}

#[test]
fn two_files_on_disk_that_differ_only_by_case_are_an_error_naming_both() {
    let sb = wpaths(FUNCTIONS_LINES);
    sb.write("src/util/Text.rs", "pub fn t() {}\n");
    let run = check_windows(&sb, &[&input(C07, "input.info")], &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let root = sb.path().display();
    assert_eq!(
        run.stderr,
        format!(
            "covgate: error: {}: `D:\\a\\wpaths\\wpaths\\src\\util\\text.rs`: the path is recorded \
             on a case-insensitive system, and two files on disk differ from it only by case \
             (or Unicode normalisation): {root}/src/util/Text.rs and {root}/src/util/text.rs; rename one, or pass \
             --path-case sensitive\n",
            input(C07, "input.info")
        )
    );
}

/// Case 28's workspace in a sandbox; covgate runs in `dir` (relative to the workspace).
fn lengths() -> Sandbox {
    Sandbox::copy_of(&format!("{C28}/ws"))
}

fn run_in(sb: &Sandbox, dir: &str, args: &[&str]) -> common::Run {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "--show", "all"]);
    common::covgate(&sb.path().join(dir), &all)
}

fn assert_units_fail(doc: &serde_json::Value, path: &str) {
    assert_eq!(metric(doc, path, "regions"), "7/10 fail");
    assert_eq!(metric(doc, path, "functions"), "2/3 fail");
    assert_eq!(metric(doc, path, "lines"), "6/9 fail");
}

#[test]
fn case28_a_member_policy_reads_workspace_relative_paths() {
    let sb = lengths();
    let remap_json = input(C28, "input-remap.json");
    let run = run_in(&sb, "crates/units", &["check", &remap_json]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_units_fail(&doc, "src/lib.rs");
    assert_eq!(doc["summary"]["measured"], 1);
    // The other member's file is named, with why it is not judged.
    assert_eq!(doc["summary"]["outside_include"], 1);
    assert_eq!(doc["dropped"][0]["path"], "crates/app/src/lib.rs");
    assert_eq!(doc["dropped"][0]["report"], remap_json.as_str());
    assert_eq!(doc["dropped"][0]["why"], "outside the root");

    let run = run_in(
        &sb,
        "crates/units",
        &[
            "check",
            &remap_json,
            "--remap-path-prefix",
            "crates/units=.",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_units_fail(&run.json(), "src/lib.rs");

    let abs = input(C28, "input-abs.json");
    let run = run_in(
        &sb,
        "crates/units",
        &[
            "check",
            &abs,
            "--remap-path-prefix",
            "/ws/lengths/crates/units=.",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_units_fail(&run.json(), "src/lib.rs");
    // Mapped onto the local workspace, every path exists from the root as from the workspace.
    let local = format!("/ws/lengths={}", sb.path().display());
    let run = run_in(
        &sb,
        "crates/units",
        &["check", &abs, "--remap-path-prefix", &local],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_units_fail(&run.json(), "src/lib.rs");
    // Without a mapping, the manifest folder (/ws/lengths) stands for the local workspace.
    let run = run_in(&sb, "crates/units", &["check", &abs]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_units_fail(&run.json(), "src/lib.rs");

    let run = run_in(&sb, ".", &["check", &remap_json]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_units_fail(&doc, "crates/units/src/lib.rs");
    assert_eq!(
        metric(&doc, "crates/app/src/lib.rs", "regions"),
        "11/11 pass"
    );
    assert_eq!(
        metric(&doc, "crates/app/src/lib.rs", "functions"),
        "2/2 pass"
    );
    assert_eq!(metric(&doc, "crates/app/src/lib.rs", "lines"), "9/9 pass");
}

/// The same export as recorded on Windows (`\\` separators, another case): the member policy
/// reads it as it reads the original.
#[test]
fn case28_a_windows_recorded_workspace_export_from_a_member_policy() {
    let sb = lengths();
    let json = std::fs::read_to_string(input(C28, "input-remap.json")).expect("json");
    let windows = json
        .replace(
            "\"crates/units/src/lib.rs\"",
            r#""crates\\Units\\SRC\\lib.rs""#,
        )
        .replace("\"crates/app/src/lib.rs\"", r#""Crates\\app\\src\\Lib.rs""#);
    assert_ne!(windows, json);
    let path = sb.write("windows.json", &windows).display().to_string();
    let run = run_in(&sb, "crates/units", &["check", &path]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_units_fail(&doc, "src/lib.rs");
    assert_eq!(doc["dropped"][0]["path"], r"Crates\app\src\Lib.rs");
    assert_eq!(doc["dropped"][0]["why"], "outside the root");
}

#[test]
fn case28_lcov_relative_paths_are_anchored_at_the_workspace_as_json_ones() {
    let sb = lengths();
    // More of its files exist at the workspace root: anchored there (as an export is).
    let run = run_in(
        &sb,
        "crates/units",
        &["check", &input(C28, "input-remap.info")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
    let member = sb.path().join("crates/units");
    // A remapping gives the same verdict.
    let remap = format!("crates/units={}", member.display());
    let run = run_in(
        &sb,
        "crates/units",
        &[
            "check",
            &input(C28, "input-remap.info"),
            "--remap-path-prefix",
            &remap,
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "functions"), "2/3 fail");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "6/9 fail");
}

/// Two shards with different hints (one workspace-relative, one absolute from another
/// machine): each is read with its own, and the output is the same in either order.
#[test]
fn each_report_uses_its_own_hints_whatever_the_order() {
    let sb = lengths();
    let (rel, abs) = (input(C28, "input-remap.json"), input(C28, "input-abs.json"));
    let one = run_in(&sb, "crates/units", &["check", &rel, &abs]);
    let other = run_in(&sb, "crates/units", &["check", &abs, &rel]);
    assert_eq!(one.code, 1, "{}{}", one.stdout, one.stderr);
    assert_eq!(one.stdout, other.stdout);
    assert_eq!(one.stderr, other.stderr);
    let doc = one.json();
    assert_units_fail(&doc, "src/lib.rs");
    assert_eq!(doc["dropped"].as_array().map(Vec::len), Some(2));
    assert_eq!(doc["dropped"][0]["report"], abs.as_str());
    assert_eq!(doc["dropped"][1]["report"], rel.as_str());
}

/// A shard whose paths lead nowhere is warned of, and its files are named in the table.
#[test]
fn a_shard_with_no_file_in_scope_is_warned_of_and_its_files_are_named() {
    let sb = Sandbox::new();
    sb.policy("[measure]\nmetrics = [\"lines\"]\n");
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("good.info", "SF:src/lib.rs\nDA:1,1\nend_of_record\n");
    let mut lost = String::new();
    for name in ["a", "b", "c", "d"] {
        lost.push_str(&format!(
            "SF:/ci/build/src/{name}.rs\nDA:1,1\nend_of_record\n"
        ));
    }
    sb.write("lost.info", &lost);
    sb.write("notes/x.rs", "pub fn x() {}\n");
    sb.write("other.info", "SF:notes/x.rs\nDA:1,1\nend_of_record\n");
    let run = sb.run(&["check", "lost.info", "good.info", "other.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(
            "1 measured: 1 passed, 0 failed; 0 unmeasured, 0 excluded, 0 no code, 5 outside include\n\
             outside include: notes/x.rs (not selected by include), /ci/build/src/a.rs (outside the root), \
             /ci/build/src/b.rs (outside the root) … and 2 more\n"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stderr,
        "covgate: warning: lost.info: none of its 4 file(s) is in scope (e.g. `/ci/build/src/a.rs`); \
         did you forget `--remap-path-prefix FROM=TO` or `--root`?\n\
         covgate: warning: other.info: none of its 1 file(s) is in scope (e.g. `notes/x.rs`); \
         did you forget `--remap-path-prefix FROM=TO` or `--root`?\n"
    );
    let run = sb.run(&["check", "other.info", "good.info"]);
    assert!(
        run.stdout
            .contains("\noutside include: notes/x.rs (not selected by include)\nignored by"),
        "{}",
        run.stdout
    );
    let run = sb.run(&["check", "other.info", "good.info", "--format", "json"]);
    let doc = run.json();
    assert_eq!(doc["dropped"][0]["name"], "notes/x.rs");
    assert_eq!(doc["dropped"][0]["why"], "not selected by include");
    assert_eq!(doc["facts"]["warnings"].as_array().map(Vec::len), Some(1));
}

#[test]
fn policy_globs_are_normalised_like_report_paths() {
    let sb = Sandbox::new();
    sb.policy(
        "[measure]\ninclude = [\"./src//*.rs\", \"src\\\\error.rs\"]\nmetrics = [\"lines\"]\n\
         [[exclude]]\npath = \"./src/error.rs\"\nreason = \"generated\"\n",
    );
    sb.write("src/lib.rs", "pub fn f() {}\n");
    sb.write("src/error.rs", "pub fn e() {}\n");
    sb.write("r.info", "SF:src/lib.rs\nDA:1,1\nend_of_record\n");
    let run = sb.run(&["check", "r.info", "--format", "json", "--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(status(&doc, "src/error.rs"), "excluded");
    assert_eq!(metric(&doc, "src/lib.rs", "lines"), "1/1 pass");
}

// ---- symbolic links ----------------------------------------------------------------------

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// `real/` holds the project (policy, `src/lib.rs`, `src/b.rs`); `link` points at it.
#[cfg(unix)]
fn linked_project() -> (Sandbox, std::path::PathBuf, std::path::PathBuf) {
    let sb = Sandbox::new();
    sb.write(
        "real/coverage-policy.toml",
        "[measure]\nmetrics = [\"lines\"]\n",
    );
    sb.write("real/src/lib.rs", "pub fn f() {}\n");
    sb.write("real/src/b.rs", "pub fn g() {}\n");
    let real = sb.path().join("real");
    let link = sb.path().join("link");
    symlink(&real, &link);
    (sb, real, link)
}

/// Two shards, one per file, each spelling its file under `base`.
#[cfg(unix)]
fn shards(sb: &Sandbox, base: &Path) -> (String, String) {
    let a = sb.write(
        "a.info",
        &format!("SF:{}/src/lib.rs\nDA:1,1\nend_of_record\n", base.display()),
    );
    let b = sb.write(
        "b.info",
        &format!("SF:{}/src/./b.rs\nDA:1,0\nend_of_record\n", base.display()),
    );
    (a.display().to_string(), b.display().to_string())
}

#[cfg(unix)]
#[test]
fn a_root_reached_through_a_link_matches_reports_with_either_spelling() {
    let (sb, real, link) = linked_project();
    // Root through the link, reports with the real paths; then the reverse.
    for (root, base) in [(&link, &real), (&real, &link), (&link, &link)] {
        let (a, b) = shards(&sb, base);
        let (root_arg, policy) = (
            root.display().to_string(),
            real.join("coverage-policy.toml"),
        );
        let run = sb.run(&[
            "check",
            &a,
            &b,
            "--root",
            &root_arg,
            "--policy",
            &policy.display().to_string(),
            "--format",
            "json",
            "--show",
            "all",
        ]);
        assert_eq!(
            run.code, 1,
            "{root:?} {base:?}: {}{}",
            run.stdout, run.stderr
        );
        let doc = run.json();
        assert_eq!(metric(&doc, "src/lib.rs", "lines"), "1/1 pass");
        assert_eq!(metric(&doc, "src/b.rs", "lines"), "0/1 fail");
        assert_eq!(doc["summary"]["outside_include"], 0, "{doc:#}");
        assert_eq!(doc["facts"]["root"], root_arg);
    }
    // The same file under both spellings, in one run: one file, its records merged.
    let (a, _) = shards(&sb, &real);
    let c = sb.write(
        "c.info",
        &format!("SF:{}/src/b.rs\nDA:1,3\nend_of_record\n", link.display()),
    );
    let (_, b) = shards(&sb, &real);
    let run = common::covgate(
        &link,
        &[
            "check",
            &a,
            &b,
            &c.display().to_string(),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/b.rs", "lines"), "1/1 pass");
    // Without the walk too.
    let run = common::covgate(
        &link,
        &[
            "check",
            &a,
            &b,
            &c.display().to_string(),
            "--no-walk",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.json()["summary"]["measured"], 2);
}

#[cfg(unix)]
#[test]
fn a_path_climbing_out_of_a_linked_folder_names_the_file_the_kernel_opens() {
    // `proj/build` links to `out/build`, so `proj/build/../src/lib.rs` is `out/src/lib.rs`
    // (the file the compiler opened), not `proj/src/lib.rs` as its spelling reads.
    let sb = Sandbox::new();
    sb.write(
        "proj/coverage-policy.toml",
        "[measure]\nmetrics = [\"lines\"]\n",
    );
    sb.write("proj/src/lib.rs", "pub fn f() {}\n");
    sb.write("out/src/lib.rs", "pub fn other() {}\n");
    std::fs::create_dir_all(sb.path().join("out/build")).expect("mkdir");
    let proj = sb.path().join("proj");
    symlink(&sb.path().join("out/build"), &proj.join("build"));
    let climbing = |dir: &str| {
        sb.write(
            "climb.info",
            &format!(
                "SF:{}/{dir}/../src/lib.rs\nDA:1,1\nend_of_record\n",
                proj.display()
            ),
        )
        .display()
        .to_string()
    };
    let run = common::covgate(
        &proj,
        &[
            "check",
            &climbing("build"),
            "--format",
            "json",
            "--show",
            "all",
        ],
    );
    // The report covers a file outside the project, and nothing of it: an error naming the
    // file the kernel opens, never a pass of the project's own lib.rs.
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let real_out = std::fs::canonicalize(sb.path().join("out/src/lib.rs")).expect("real");
    assert!(
        run.stderr.contains(&format!("e.g. {}", real_out.display())),
        "{}",
        run.stderr
    );
    // Through a plain folder the climb is what the spelling says: the file is measured.
    std::fs::create_dir_all(proj.join("plain")).expect("mkdir");
    let run = common::covgate(&proj, &["check", &climbing("plain"), "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "lines"), "1/1 pass");
}

#[cfg(unix)]
#[test]
fn a_folder_reached_through_a_link_is_one_folder_under_the_walk_spelling() {
    // `src/gen` links to a folder outside the root. The walk does not follow it (a warning
    // names it), but a report's file below its target is named through the link, as the walk
    // would have named it.
    let sb = Sandbox::new();
    sb.write(
        "proj/coverage-policy.toml",
        "[measure]\nmetrics = [\"lines\"]\n",
    );
    sb.write("proj/src/lib.rs", "pub fn f() {}\n");
    sb.write("gen/out.rs", "pub fn g() {}\n");
    let proj = sb.path().join("proj");
    symlink(&sb.path().join("gen"), &proj.join("src/gen"));
    let real = sb.write(
        "real.info",
        &format!(
            "SF:{}/src/lib.rs\nDA:1,1\nend_of_record\nSF:{}/gen/out.rs\nDA:1,0\nend_of_record\n",
            proj.display(),
            sb.path().display()
        ),
    );
    let linked = sb.write(
        "linked.info",
        &format!(
            "SF:{}/src/gen/out.rs\nDA:1,2\nend_of_record\n",
            proj.display()
        ),
    );
    let (real, linked) = (real.display().to_string(), linked.display().to_string());
    let run = common::covgate(
        &proj,
        &["check", &real, "--format", "json", "--show", "all"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("src/gen: a symbolic link to a folder outside the root"),
        "{}",
        run.stderr
    );
    let doc = run.json();
    assert_eq!(metric(&doc, "src/gen/out.rs", "lines"), "0/1 fail");
    assert_eq!(doc["summary"]["outside_include"], 0);
    let run = common::covgate(&proj, &["check", &linked, &real, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/gen/out.rs", "lines"), "1/1 pass");
    assert_eq!(doc["summary"]["measured"], 2);

    // A second link to one source file names it once, under the file's own spelling.
    symlink(&proj.join("src/lib.rs"), &proj.join("src/alias.rs"));
    let run = common::covgate(
        &proj,
        &["check", &linked, &real, "--format", "json", "--show", "all"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(doc["files"].as_array().map(Vec::len), Some(2), "{doc:#}");
    // A dangling link holds no source.
    symlink(&sb.path().join("nothing.rs"), &proj.join("src/dangling.rs"));
    let run = common::covgate(&proj, &["check", &linked, &real, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
