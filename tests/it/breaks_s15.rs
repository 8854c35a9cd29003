//! False passes (and one slow path) found by a newcomer's break test (session 15): a
//! `when-missing` program name no PATH lookup can find (#5), a member's policy judging the
//! workspace root package's file from an LCOV tracefile (#4), and `[[exclude]]` matching (#8).

use crate::common;

use common::Sandbox;

/// A project with a measured, failing `src/shell.rs` exempted by `when-missing = [NAME]`.
fn shell_project(name: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(&format!(
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n\n\
         [[exclude]]\npath = \"src/shell.rs\"\nreason = \"its tests run bash\"\n\
         when-missing = [{}]\n",
        serde_json::to_string(name).expect("toml string")
    ));
    sb.write("src/lib.rs", "pub fn ok() {\n    let _ = 1;\n}\n");
    sb.write(
        "src/shell.rs",
        "pub fn run_shell() {\n    let _ = 1;\n}\n\npub fn untested() {\n    let _ = 2;\n}\n",
    );
    sb.write(
        "cov.info",
        "TN:\nSF:src/lib.rs\nFN:1,ok\nFNDA:1,ok\nDA:1,1\nDA:2,1\nDA:3,1\nend_of_record\n\
         TN:\nSF:src/shell.rs\nFN:1,run_shell\nFN:5,untested\nFNDA:1,run_shell\nFNDA:0,untested\n\
         DA:1,1\nDA:2,1\nDA:3,1\nDA:5,0\nDA:6,0\nDA:7,0\nend_of_record\n",
    );
    sb
}

#[test]
fn a_when_missing_name_no_path_lookup_can_find_is_refused() {
    for (name, col, what) in [
        ("bash ", 17, "holds white space"),
        (" bash", 17, "holds white space"),
        ("bash\n", 17, "holds white space"),
        ("ba sh", 17, "holds white space"),
        ("bin/bash", 17, "holds a path separator"),
        ("/bin/bash", 17, "holds a path separator"),
        ("bash\u{7}", 17, "holds a control or invisible character"),
        ("", 17, "is empty"),
    ] {
        let sb = shell_project(name);
        let run = sb.run(&["check", "cov.info"]);
        assert_eq!(run.code, 2, "{name:?}: {}{}", run.stdout, run.stderr);
        let expected = format!(
            "covgate: error: {}:8:{col}: `when-missing` names `{}`, which \
             {what}: no PATH lookup can find it, so the entry would exempt its files on every \
             leg; write a bare program name as PATH holds it, without spaces or folders (e.g. \
             \"bash\", \"pwsh\")\n",
            sb.path().join("coverage-policy.toml").display(),
            name.replace('\n', "\\u{a}").replace('\u{7}', "\\u{7}")
        );
        assert_eq!(run.stderr, expected, "{name:?}");
        assert_eq!(run.stdout, "");
    }
}

#[test]
fn a_findable_when_missing_name_measures_the_file_where_the_program_is() {
    // `sh` is on every PATH the tests run with: the entry is inactive, the file measured.
    let run = shell_project("sh").run(&["check", "cov.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(common::status(&doc, "src/shell.rs"), "fail");
    assert_eq!(
        common::metric(&doc, "src/shell.rs", "functions"),
        "1/2 fail"
    );
    assert_eq!(common::metric(&doc, "src/shell.rs", "lines"), "3/6 fail");
}

/// A workspace with a root package (`lengths`, `src/lib.rs`, tested) and a member
/// `crates/units` with its own policy, whose `src/lib.rs` no test calls; the tracefiles
/// `cargo llvm-cov --remap-path-prefix --lcov` writes at the workspace root (paths relative to
/// it): `root.info` (the root package only) and `ws.info` (`--workspace`).
fn workspace_with_root_package() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "Cargo.toml",
        "[package]\nname = \"lengths\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\
         [workspace]\nmembers = [\"crates/units\"]\n",
    );
    sb.write(
        "src/lib.rs",
        "pub fn twice(x: u32) -> u32 {\n    x * 2\n}\n",
    );
    sb.write(
        "crates/units/Cargo.toml",
        "[package]\nname = \"units\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    sb.write(
        "crates/units/coverage-policy.toml",
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n",
    );
    sb.write(
        "crates/units/src/lib.rs",
        "pub fn mm_to_cm(x: u32) -> u32 {\n    x / 10\n}\n\n\
         pub fn mm_to_inches(x: u32) -> u32 {\n    x * 10 / 254\n}\n",
    );
    let root = "SF:src/lib.rs\nFN:1,_RNvCs3NygK3ZConf_7lengths5twice\n\
                FNDA:1,_RNvCs3NygK3ZConf_7lengths5twice\nFNF:1\nFNH:1\n\
                DA:1,1\nDA:2,1\nDA:3,1\nLF:3\nLH:3\nend_of_record\n";
    sb.write("root.info", root);
    sb.write(
        "ws.info",
        &format!(
            "SF:crates/units/src/lib.rs\nFN:5,_RNvCs1NV5so0w61I_5units12mm_to_inches\n\
             FN:1,_RNvCs1NV5so0w61I_5units8mm_to_cm\n\
             FNDA:0,_RNvCs1NV5so0w61I_5units12mm_to_inches\n\
             FNDA:0,_RNvCs1NV5so0w61I_5units8mm_to_cm\nFNF:2\nFNH:0\n\
             DA:1,0\nDA:2,0\nDA:3,0\nDA:5,0\nDA:6,0\nDA:7,0\nLF:6\nLH:0\nend_of_record\n{root}"
        ),
    );
    sb
}

#[test]
fn a_tracefile_whose_paths_exist_more_at_the_workspace_root_is_anchored_there() {
    let sb = workspace_with_root_package();
    let units = sb.path().join("crates/units");
    let run = common::covgate(&units, &["check", "../../ws.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(common::status(&doc, "src/lib.rs"), "fail");
    assert_eq!(common::metric(&doc, "src/lib.rs", "functions"), "0/2 fail");
    assert_eq!(common::metric(&doc, "src/lib.rs", "lines"), "0/6 fail");
}

#[test]
fn a_tracefile_tie_between_root_and_workspace_is_an_error_that_says_how_to_tell() {
    let sb = workspace_with_root_package();
    let units = sb.path().join("crates/units");
    let run = common::covgate(&units, &["check", "../../root.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let expected = format!(
        "covgate: error: ../../root.info: its file paths (e.g. `src/lib.rs`) name files both \
         below the root ({}) and below the cargo workspace root ({}), and it records no \
         manifest: covgate cannot tell whose files they are. If they are the root's, say so \
         with `--remap-path-prefix src={}/src`; if they are the workspace's (another package, \
         e.g. the workspace's root package), check them with that package's policy or \
         `--root {}`\n",
        units.display(),
        sb.path().display(),
        units.display(),
        sb.path().display()
    );
    assert_eq!(run.stderr, expected);
    // The remap the message names says they are the member's: covgate takes the word.
    let remap = format!("src={}/src", units.display());
    let run = common::covgate(
        &units,
        &["check", "../../root.info", "--remap-path-prefix", &remap],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // From the workspace root, with the root package's policy, no tie: it passes.
    sb.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\n");
    let run = sb.run(&["check", "root.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// Many `[[exclude]]` entries (#8, not yet made faster): the first matching entry excludes a file
/// with its reason, a later one matching the same file is not stale, an entry matching no file
/// is.
#[test]
fn many_exclusions_keep_the_first_reason_and_the_stale_check() {
    let sb = Sandbox::new();
    let mut policy =
        String::from("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"lines\"]\n");
    let mut info = String::new();
    for i in 0..300 {
        sb.write(&format!("src/f{i}.rs"), "pub fn f() {}\n");
        info.push_str(&format!("SF:src/f{i}.rs\nDA:1,1\nend_of_record\n"));
        if i % 2 == 1 {
            policy.push_str(&format!(
                "[[exclude]]\npath = \"src/**/f{i}.rs\"\nreason = \"r{i}\"\n"
            ));
        }
    }
    policy.push_str("[[exclude]]\npath = \"src/f1.rs\"\nreason = \"second\"\n");
    sb.policy(&policy);
    sb.write("cov.info", &info);
    let run = sb.run(&["check", "cov.info", "--format", "json", "--show", "all"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(common::status(&doc, "src/f1.rs"), "excluded");
    assert_eq!(common::file(&doc, "src/f1.rs")["reason"], "r1");
    assert_eq!(common::status(&doc, "src/f299.rs"), "excluded");
    assert_eq!(common::status(&doc, "src/f298.rs"), "pass");
    policy.push_str("[[exclude]]\npath = \"src/gone.rs\"\nreason = \"old\"\n");
    sb.policy(&policy);
    let run = sb.run(&["check", "cov.info"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "stale [[exclude]] entries match no in-scope file; remove them or fix their globs:\n  \
             "
        ) && run.stderr.contains(": `src/gone.rs` (old)"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("src/f1.rs` (second)"),
        "{}",
        run.stderr
    );
}
