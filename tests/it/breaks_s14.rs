//! False passes found by a newcomer's break test (session 14): a member crate's policy that
//! judged the workspace root package's `src/lib.rs` (an anchoring tie), and a stale export of
//! an earlier commit whose records of one compiled function passed new, uncovered code.
//! Fixtures: `tests/fixtures/identity/root-package` and `tests/fixtures/merge/stale` (real
//! exports; the first with the `cargo_llvm_cov` key as cargo-llvm-cov writes it).

use crate::common;

use common::{fixture, metric, Sandbox};

const C28: &str = "cases/28-workspace-relative-paths-member-policy/ws";

/// Case 28's workspace with a root package (`lengths`, `src/lib.rs`) beside its `[workspace]`.
fn with_root_package() -> Sandbox {
    let sb = Sandbox::copy_of(C28);
    let manifest = std::fs::read_to_string(sb.path().join("Cargo.toml")).expect("manifest");
    sb.write(
        "Cargo.toml",
        &format!(
            "{manifest}\n[package]\nname = \"lengths\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"
        ),
    );
    let lib = fixture("identity/root-package/src/lib.rs");
    sb.write("src/lib.rs", &std::fs::read_to_string(lib).expect("lib"));
    sb
}

fn root_only(name: &str) -> String {
    fixture(&format!("identity/root-package/{name}"))
        .display()
        .to_string()
}

/// The root package's export, its `manifest_path` replaced by `manifest`, written in `sb`.
fn with_manifest(sb: &Sandbox, manifest: &str) -> String {
    let json = std::fs::read_to_string(root_only("root-only.json")).expect("json");
    let moved = json.replace("/ws/lengths/Cargo.toml", manifest);
    assert_ne!(moved, json);
    sb.write("moved.json", &moved).display().to_string()
}

#[test]
fn a_tie_the_recorded_manifest_does_not_decide_is_an_error_that_says_how_to_tell() {
    let sb = with_root_package();
    let units = sb.path().join("crates/units");
    let run = common::covgate(&units, &["check", &root_only("root-only.json")]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let expected = format!(
        "covgate: error: {}: its file paths (e.g. `src/lib.rs`) name files both below the root \
         ({}) and below the cargo workspace root ({}), and the folder of its recorded manifest, \
         `/ws/lengths`, is neither's: covgate cannot tell whose files they are. If they are the \
         root's, say so with `--remap-path-prefix src={}/src`; if they are the workspace's \
         (another package, e.g. the workspace's root package), check them with that package's \
         policy or `--root {}`\n",
        root_only("root-only.json"),
        units.display(),
        sb.path().display(),
        units.display(),
        sb.path().display()
    );
    assert_eq!(run.stderr, expected);
    // The absolute variant (made on another machine, no --remap-path-prefix).
    let run = common::covgate(&units, &["check", &root_only("root-only-abs.json")]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "(e.g. `/ws/lengths/src/lib.rs`) name files both below the root ({})",
            units.display()
        )) && run.stderr.contains(&format!(
            "`--remap-path-prefix /ws/lengths={}`",
            units.display()
        )),
        "{}",
        run.stderr
    );
    // Given as the message says, the report is the member's: judged with its numbers.
    let remap = format!("src={}/src", units.display());
    let args = [
        "check",
        &root_only("root-only.json"),
        "--remap-path-prefix",
        &remap,
    ];
    let run = common::covgate(&units, &[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "regions"), "7/7 pass");
    // From the workspace root nothing is anchored: the root package's file, and the member's
    // file in no report, unmeasured.
    sb.policy(
        "[measure]\ninclude = [\"src/**/*.rs\", \"crates/*/src/**/*.rs\"]\n\
         metrics = [\"regions\", \"functions\", \"lines\"]\n",
    );
    let run = common::covgate(
        sb.path(),
        &[
            "check",
            &root_only("root-only.json"),
            "--format",
            "json",
            "--show",
            "all",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let doc = run.json();
    assert_eq!(metric(&doc, "src/lib.rs", "regions"), "7/7 pass");
    assert_eq!(
        common::status(&doc, "crates/units/src/lib.rs"),
        "unmeasured"
    );
}

#[test]
fn a_tie_goes_to_the_folder_of_the_recorded_manifest() {
    let sb = with_root_package();
    let units = sb.path().join("crates/units");
    // The workspace's own manifest, here: its `src/lib.rs` is the root package's, outside the
    // member's root.
    let here = with_manifest(&sb, &format!("{}/Cargo.toml", sb.path().display()));
    let run = common::covgate(&units, &["check", &here]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "no file in the report(s) is selected by `include` (src/**/*.rs) under the root {}; \
             the report names 1 file(s), e.g. {}/src/lib.rs.",
            units.display(),
            sb.path().display()
        )),
        "{}",
        run.stderr
    );
    // The workspace on another machine, named as the local workspace folder: the same.
    let name = sb
        .path()
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let there = with_manifest(&sb, &format!("/ci/{name}/Cargo.toml"));
    let run = common::covgate(&units, &["check", &there]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("no file in the report(s) is selected"),
        "{}",
        run.stderr
    );
    // The member's own manifest (here or elsewhere): its `src/lib.rs` is the member's.
    for manifest in [
        format!("{}/Cargo.toml", units.display()),
        "/ci/ws/crates/units/Cargo.toml".to_string(),
    ] {
        let member = with_manifest(&sb, &manifest);
        let run = common::covgate(&units, &["check", &member, "--format", "json"]);
        assert_eq!(run.code, 0, "{manifest}: {}{}", run.stdout, run.stderr);
        assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "2/2 pass");
    }
    // No tie: more of its files exist below the root (a member file only it has), whatever
    // the manifest says.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&here).expect("json")).expect("doc");
    let mut only = doc["data"][0]["files"][0].clone();
    only["filename"] = "src/only.rs".into();
    doc["data"][0]["files"]
        .as_array_mut()
        .expect("files")
        .push(only);
    // With its own records (a file without any, in an export with records, counts nothing).
    let records = doc["data"][0]["functions"]
        .as_array_mut()
        .expect("functions");
    let mut copies = records.clone();
    for record in &mut copies {
        record["filenames"] = serde_json::json!(["src/only.rs"]);
    }
    records.extend(copies);
    let both = sb
        .write("both.json", &doc.to_string())
        .display()
        .to_string();
    sb.write("crates/units/src/only.rs", "pub fn only() {}\n");
    let run = common::covgate(&units, &["check", &both, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(metric(&run.json(), "src/lib.rs", "functions"), "2/2 pass");
    assert_eq!(metric(&run.json(), "src/only.rs", "functions"), "2/2 pass");
}

fn stale(reports: &[&str]) -> common::Run {
    let sb = Sandbox::copy_of("merge/stale");
    let mut args = vec!["check".to_string()];
    args.extend(
        reports
            .iter()
            .map(|r| fixture(&format!("merge/stale/{r}")).display().to_string()),
    );
    args.extend([
        "--remap-path-prefix".into(),
        "/work/breaker14/t/st=.".into(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    sb.run(&args)
}

#[test]
fn a_stale_export_of_one_compiled_rust_function_is_refused() {
    let run = stale(&["new.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("src/lib.rs ┆ fail   ┆ 13/14 ✗ ┆ 2/2       ┆ 6/7 ✗"),
        "{}",
        run.stdout
    );
    // Both orders: the reports are sorted, so the message is the same.
    let one = stale(&["old.json", "new.json"]);
    let other = stale(&["new.json", "old.json"]);
    assert_eq!(one.code, 2, "{}{}", one.stdout, one.stderr);
    assert_eq!(one.stderr, other.stderr);
    let (new, old) = (
        fixture("merge/stale/new.json").display().to_string(),
        fixture("merge/stale/old.json").display().to_string(),
    );
    assert_eq!(
        one.stderr,
        format!(
            "covgate: error: src/lib.rs: the reports hold two builds of different source: \
             `st::f` (symbol `_RNvCsb2XTOLoCcT5_2st1f`) is one compiled function, but {new} maps \
             6 code regions and 6 lines from src/lib.rs:1, and {old} maps 15 code regions and 6 \
             lines from src/lib.rs:1. One of them is stale (an export or tracefile of an \
             earlier commit: a cached target/, an old shard artifact, a leftover report matched \
             by a glob). Give the reports of one build only (remove the stale report, or clear \
             the cached target/ and run the tests again)\n"
        )
    );
    // One build given twice (shards of one run) is summed as before.
    let run = stale(&["new.json", "new.json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}
