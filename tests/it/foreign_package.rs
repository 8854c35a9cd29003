//! An export made on another machine records its package's `manifest_path`; covgate moves its
//! files there onto the matching folder here (docs/check.md, Paths step 3). Breaker session
//! 16, finding 7: a sibling workspace member's export (`/ci/mono/crates/b/Cargo.toml`) was
//! moved onto the root `crates/a` and passed with b's numbers. Now the recorded folder goes to
//! the package folder here that its path's tail names (`crates/b`), outside the root; when none
//! does and it is not the root's, covgate stops and says how to tell.

use crate::common::{self, fixture, metric, status, Sandbox};

/// A workspace (the sandbox) with members `crates/a` and `crates/b` holding the same
/// `src/lib.rs`, and a policy in `crates/a`.
fn mono() -> Sandbox {
    let sb = Sandbox::new();
    sb.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/a\", \"crates/b\"]\nresolver = \"2\"\n",
    );
    let lib = std::fs::read_to_string(fixture("identity/root-package/src/lib.rs")).expect("lib");
    for name in ["a", "b"] {
        sb.write(
            &format!("crates/{name}/Cargo.toml"),
            &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        );
        sb.write(&format!("crates/{name}/src/lib.rs"), &lib);
    }
    sb.write(
        "crates/a/coverage-policy.toml",
        "[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"regions\", \"functions\", \"lines\"]\n",
    );
    sb
}

/// A real export of the fixture package (`src/lib.rs`, 7 of 7 regions), made on another
/// machine in `folder` (its manifest and file paths), written as `name` in the sandbox.
fn export_from(sb: &Sandbox, name: &str, folder: &str) -> String {
    let abs = fixture("identity/root-package/root-only-abs.json");
    let json = std::fs::read_to_string(abs).expect("export");
    let moved = json.replace("/ws/lengths", folder);
    assert_ne!(moved, json);
    sb.write(name, &moved).display().to_string()
}

#[test]
fn a_sibling_members_export_is_not_judged_as_the_roots_files() {
    let sb = mono();
    let a = sb.path().join("crates/a");
    let a_json = export_from(&sb, "a.json", "/ci/mono/crates/a");
    let b_json = export_from(&sb, "b.json", "/ci/mono/crates/b");
    // The root's own export, made elsewhere: moved onto the root.
    let run = common::covgate(&a, &["check", &a_json, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "regions"), "7/7 pass");
    // The sibling's: its file lands in `crates/b`, outside the root, so the check has nothing
    // of the root's (it passed with b's numbers before), and suggests no remapping onto it.
    let run = common::covgate(&a, &["check", &b_json]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let b_lib = format!("{}/crates/b/src/lib.rs", sb.path().display());
    assert_eq!(
        run.stderr,
        format!(
            "covgate: error: no file in the report(s) is selected by `include` (src/**/*.rs) \
             under the root {}; the report names 1 file(s), e.g. {b_lib}. If the report was made \
             elsewhere, pass --root or --remap-path-prefix FROM=TO\n",
            a.display()
        )
    );
    // Both: the root's file is judged by its own export only; the sibling's is dropped.
    let args = [
        "check", &a_json, &b_json, "--format", "json", "--show", "all",
    ];
    let run = common::covgate(&a, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "7/7 pass");
    assert_eq!(doc["summary"]["outside_include"], 1, "{doc:#}");
    let dropped = doc["dropped"].to_string();
    assert!(dropped.contains(&b_lib), "{dropped}");
    // Only b's numbers differ: a's export uncovered, b's covered, a fails.
    let zeroed = std::fs::read_to_string(&a_json).expect("a").replace(
        r#""count": 1, "filenames": ["/ci/mono/crates/a/src/lib.rs"], "mcdc_records": [], "name": "_RNvCs8lJue4Foy7d_7lengths5twice""#,
        r#""count": 0, "filenames": ["/ci/mono/crates/a/src/lib.rs"], "mcdc_records": [], "name": "_RNvCs8lJue4Foy7d_7lengths5twice""#,
    );
    assert!(zeroed.contains(r#""count": 0, "filenames""#));
    let zeroed = zeroed
        .replace(
            r#""functions": {"count": 2, "covered": 2, "percent": 100}"#,
            r#""functions": {"count": 2, "covered": 1, "percent": 50}"#,
        )
        .replace(
            r#""instantiations": {"count": 2, "covered": 2, "percent": 100}"#,
            r#""instantiations": {"count": 2, "covered": 1, "percent": 50}"#,
        );
    sb.write("a.json", &zeroed);
    let args = ["check", &a_json, &b_json, "--format", "json"];
    let run = common::covgate(&a, &args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "1/2 fail");
}

#[test]
fn a_recorded_folder_named_nowhere_here_and_not_the_roots_stops_the_check() {
    let sb = mono();
    let a = sb.path().join("crates/a");
    // A package this checkout does not hold: covgate cannot tell whose files they are.
    let other = export_from(&sb, "other.json", "/ci/mono/crates/gone");
    let run = common::covgate(&a, &["check", &other]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "covgate: error: {other}: it was made on another machine in the package folder \
             `/ci/mono/crates/gone` (its recorded manifest), whose files (e.g. \
             `/ci/mono/crates/gone/src/lib.rs`) would be moved onto the root ({root}); but that \
             folder's path does not end in the root's path below the cargo workspace root \
             (`crates/a`), and no package folder here does, so they may be another package's \
             files. If they are the root's, say so with `--remap-path-prefix \
             /ci/mono/crates/gone={root}`; if they are another package's, check them with that \
             package's policy or `--root`\n",
            root = a.display()
        )
    );
    // As the message says: remapped, the files are the root's.
    let remap = format!("/ci/mono/crates/gone={}", a.display());
    let args = [
        "check",
        &other,
        "--remap-path-prefix",
        &remap,
        "--format",
        "json",
    ];
    let run = common::covgate(&a, &args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "regions"), "7/7 pass");
    // A root without a manifest of its own (no package folder to find) still takes an export
    // whose recorded folder ends in its path below the workspace.
    std::fs::remove_file(a.join("Cargo.toml")).expect("rm");
    let a_json = export_from(&sb, "a.json", "/ci/mono/crates/a");
    let run = common::covgate(&a, &["check", &a_json, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "regions"), "7/7 pass");
}

#[test]
fn from_the_workspace_root_a_members_export_lands_in_that_member() {
    let sb = mono();
    sb.policy(
        "[measure]\ninclude = [\"crates/*/src/**/*.rs\"]\n\
         metrics = [\"regions\", \"functions\", \"lines\"]\n",
    );
    let b_json = export_from(&sb, "b.json", "/ci/mono/crates/b");
    let run = common::covgate(
        sb.path(),
        &["check", &b_json, "--format", "json", "--show", "all"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "crates/b/src/lib.rs", "regions"), "7/7 pass");
    assert_eq!(status(&doc, "crates/a/src/lib.rs"), "unmeasured");
    // The workspace's own export (made with `--workspace`) still lands at the root.
    let ws_json = export_from(&sb, "ws.json", "/ci/mono");
    let ws = std::fs::read_to_string(&ws_json).expect("ws");
    let ws = ws.replace("/ci/mono/src/lib.rs", "/ci/mono/crates/a/src/lib.rs");
    sb.write("ws.json", &ws);
    let run = common::covgate(
        sb.path(),
        &["check", &ws_json, "--format", "json", "--show", "all"],
    );
    let doc = run.json();
    assert_eq!(metric(&doc, "crates/a/src/lib.rs", "regions"), "7/7 pass");
    assert_eq!(status(&doc, "crates/b/src/lib.rs"), "unmeasured");
}
