//! The GitHub Action (`action.yml`, `action/*.sh`) run on this machine: its check and comment
//! steps with a fake `gh` on `PATH` that keeps the pull request's comments in a folder and
//! records every API call. Also `covgate comment`, `covgate completions` and `covgate man`.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{covgate, fixture, Sandbox};

const TOKEN: &str = "ghs_fake_token_never_printed";

/// A fake `gh api` that serves and edits `comments.json` in its folder and logs each call.
/// The listing is printed two comments per page, as `gh api --paginate` prints pages.
const FAKE_GH: &str = r#"#!/usr/bin/env python3
import json, os, sys
state = os.environ["FAKE_GH_STATE"]
path = os.path.join(state, "comments.json")
comments = json.load(open(path)) if os.path.exists(path) else []
args = sys.argv[1:]
method = "GET"
if "--method" in args:
    method = args[args.index("--method") + 1]
endpoint = [a for a in args if a.startswith("repos/")][0]
with open(os.path.join(state, "calls.log"), "a") as log:
    log.write(method + " " + endpoint + "\n")
if method == "GET":
    if os.environ.get("FAKE_GH_FAIL_READ"):
        sys.stderr.write("HTTP 403: Resource not accessible by integration\n")
        sys.exit(1)
    pages = [comments[i:i + 2] for i in range(0, len(comments), 2)] or [[]]
    sys.stdout.write("".join(json.dumps(p) for p in pages))
    sys.exit(0)
if os.environ.get("FAKE_GH_FAIL_WRITE"):
    sys.stderr.write("HTTP 403: Resource not accessible by integration\n")
    sys.exit(1)
field = args[args.index("-F") + 1]
body = open(field[len("body=@"):]).read()
if method == "PATCH":
    cid = int(endpoint.rsplit("/", 1)[1])
    for c in comments:
        if c["id"] == cid:
            c["body"] = body
else:
    comments.append({"id": 100 + len(comments), "body": body, "user": {"login": "github-actions[bot]"}})
json.dump(comments, open(path, "w"))
"#;

/// One pull request's fake API: a folder with `gh` and its state.
struct Api {
    dir: tempfile::TempDir,
}

impl Api {
    fn new() -> Api {
        let api = Api {
            dir: tempfile::tempdir().unwrap(),
        };
        let gh = api.bin().join("gh");
        std::fs::create_dir_all(api.bin()).unwrap();
        std::fs::write(&gh, FAKE_GH).unwrap();
        make_executable(&gh);
        api
    }

    fn bin(&self) -> PathBuf {
        self.dir.path().join("bin")
    }

    fn state(&self) -> &Path {
        self.dir.path()
    }

    fn comments(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.state().join("comments.json"))
            .map(|t| serde_json::from_str(&t).unwrap())
            .unwrap_or_default()
    }

    fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(self.state().join("calls.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// One CI leg: what its check step is given.
#[derive(Clone)]
struct Leg {
    name: &'static str,
    reports: String,
    policy: String,
    args: String,
}

/// What one leg's steps printed and left.
struct Ran {
    outputs: BTreeMap<String, String>,
    log: String,
    summary: String,
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("action")
        .join(name)
}

fn path_with(api: &Api) -> String {
    let covgate_dir = Path::new(env!("CARGO_BIN_EXE_covgate")).parent().unwrap();
    format!(
        "{}:{}:{}",
        api.bin().display(),
        covgate_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs the leg's check step, then its comment step, as the composite action does; `extra_env`
/// goes to the comment step.
fn run_leg(api: &Api, leg: &Leg, extra_env: &[(&str, &str)]) -> Ran {
    run_steps(api, leg, &[], extra_env)
}

/// [`run_leg`] with `check_env` given to the check step.
fn run_leg_with(api: &Api, leg: &Leg, check_env: &[(&str, &str)]) -> Ran {
    run_steps(api, leg, check_env, &[])
}

fn run_steps(api: &Api, leg: &Leg, check_env: &[(&str, &str)], extra_env: &[(&str, &str)]) -> Ran {
    let work = tempfile::tempdir().unwrap();
    let output = work.path().join("github_output");
    let summary = work.path().join("step_summary");
    std::fs::write(&output, "").unwrap();
    std::fs::write(&summary, "").unwrap();
    let base = |script_name: &str| {
        let mut cmd = Command::new("bash");
        cmd.arg(script(script_name))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", path_with(api))
            .env("NO_COLOR", "1")
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("RUNNER_TEMP", work.path())
            .env("RUNNER_OS", "Linux")
            .env("GITHUB_JOB", "coverage")
            .env_remove("GITHUB_WORKSPACE")
            .env_remove("GITHUB_RUN_ID")
            .env_remove("GITHUB_RUN_ATTEMPT")
            .env_remove("RUNNER_NAME")
            .env("FAKE_GH_STATE", api.state())
            .env_remove("GITHUB_SERVER_URL")
            .env_remove("GITHUB_REPOSITORY")
            .env_remove("COVGATE_LINK_BASE");
        cmd
    };
    let mut check = base("check.sh");
    for (k, v) in check_env {
        check.env(k, v);
    }
    let check = check
        .env("COVGATE_REPORTS", &leg.reports)
        .env("COVGATE_POLICY", &leg.policy)
        .env("COVGATE_ARGS", &leg.args)
        .env("COVGATE_LEG", leg.name)
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    let outputs: BTreeMap<String, String> = std::fs::read_to_string(&output)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut comment = base("comment.sh");
    comment
        .env("GH_TOKEN", TOKEN)
        .env("COVGATE_REPO", "owner/repo")
        .env("COVGATE_PR", "5")
        .env("COVGATE_HEAD_REPO", "owner/repo")
        .env("COVGATE_CODE", &outputs["code"])
        .env("COVGATE_LEG", &outputs["leg"])
        .env("COVGATE_OUT", &outputs["dir"]);
    for (k, v) in extra_env {
        comment.env(k, v);
    }
    let commented = comment.output().unwrap();
    assert!(commented.status.success(), "{commented:?}");
    let log = [
        &check.stdout,
        &check.stderr,
        &commented.stdout,
        &commented.stderr,
    ]
    .iter()
    .map(|b| String::from_utf8_lossy(b).into_owned())
    .collect::<String>();
    assert!(!log.contains(TOKEN), "the token was printed:\n{log}");
    Ran {
        outputs,
        log,
        summary: std::fs::read_to_string(&summary).unwrap(),
    }
}

/// The three legs: the demo (fails), case 01's crate (passes), a missing report (exit 2).
fn legs(passing: &Sandbox) -> Vec<Leg> {
    let crate_dir = passing.path().display().to_string();
    vec![
        Leg {
            name: "linux",
            reports: "demo/coverage.json".into(),
            policy: "demo/coverage-policy.toml".into(),
            args: String::new(),
        },
        Leg {
            name: "macos",
            reports: fixture("cases/01-no-branches-percent-zero/input.json")
                .display()
                .to_string(),
            policy: passing
                .path()
                .join("coverage-policy.toml")
                .display()
                .to_string(),
            args: format!("--remap-path-prefix /ws/nobranch={crate_dir}"),
        },
        Leg {
            name: "windows",
            reports: "target/no-such-report.json".into(),
            policy: "demo/coverage-policy.toml".into(),
            args: String::new(),
        },
    ]
}

fn passing_crate() -> Sandbox {
    let sandbox = Sandbox::copy_of("cases/01-no-branches-percent-zero/crate");
    sandbox.policy("[measure]\ninclude = [\"src/**/*.rs\"]\n");
    sandbox
}

#[cfg(unix)]
#[test]
fn legs_in_any_order_converge_on_one_comment() {
    let passing = passing_crate();
    let legs = legs(&passing);
    let mut finals = Vec::new();
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
        let api = Api::new();
        let mut codes = Vec::new();
        for i in order {
            let ran = run_leg(&api, &legs[i], &[]);
            codes.push((legs[i].name, ran.outputs["code"].clone()));
            assert!(ran.summary.contains("covgate") || ran.outputs["code"] == "2");
        }
        codes.sort();
        assert_eq!(
            codes,
            [
                ("linux", "1".into()),
                ("macos", "0".into()),
                ("windows", "2".into())
            ]
        );
        let comments = api.comments();
        assert_eq!(comments.len(), 1, "{comments:?}");
        assert!(!comments[0]["body"].as_str().unwrap().contains("](https://"));
        let calls = api.calls();
        let writes: Vec<&str> = calls
            .iter()
            .filter(|c| !c.starts_with("GET"))
            .map(|c| c.split(' ').next().unwrap())
            .collect();
        assert_eq!(writes, ["POST", "PATCH", "PATCH"], "{calls:?}");
        finals.push(comments[0]["body"].as_str().unwrap().to_string());
    }
    assert_eq!(finals[0], finals[1]);
    assert_eq!(finals[1], finals[2]);
    let body = &finals[0];
    assert!(body.starts_with("<!-- covgate:comment -->\n"), "{body}");
    let linux = body.find("leg=linux").unwrap();
    let macos = body.find("leg=macos").unwrap();
    let windows = body.find("leg=windows").unwrap();
    assert!(linux < macos && macos < windows, "{body}");
    assert!(body.contains("tiny::perimeter"), "{body}");
    assert!(
        body.contains("✅ **macos**: covgate passed — 2 measured: 2 passed"),
        "{body}"
    );
    assert!(
        body.contains("⚠️ **windows**: covgate could not judge this leg (exit code 2)"),
        "{body}"
    );
}

#[cfg(unix)]
#[test]
fn a_second_run_edits_the_comment() {
    let passing = passing_crate();
    let legs = legs(&passing);
    let api = Api::new();
    run_leg(&api, &legs[0], &[]);
    let first = api.comments();
    let ran = run_leg(&api, &legs[0], &[]);
    assert!(
        ran.log.contains("pull-request comment updated"),
        "{}",
        ran.log
    );
    assert_eq!(api.comments(), first);
    assert_eq!(
        api.calls(),
        [
            "GET repos/owner/repo/issues/5/comments",
            "POST repos/owner/repo/issues/5/comments",
            "GET repos/owner/repo/issues/5/comments",
            "PATCH repos/owner/repo/issues/comments/100",
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_fork_or_a_refusing_api_writes_the_step_summary_only() {
    let passing = passing_crate();
    let legs = legs(&passing);
    let api = Api::new();
    let ran = run_leg(&api, &legs[0], &[("COVGATE_HEAD_REPO", "someone/fork")]);
    assert!(api.calls().is_empty(), "{:?}", api.calls());
    assert!(ran.summary.contains("comes from a fork"), "{}", ran.summary);
    assert!(ran.summary.contains("tiny::perimeter"), "{}", ran.summary);

    let ran = run_leg(&api, &legs[0], &[("FAKE_GH_FAIL_READ", "1")]);
    assert!(
        ran.summary.contains("could not be listed"),
        "{}",
        ran.summary
    );
    let ran = run_leg(&api, &legs[0], &[("FAKE_GH_FAIL_WRITE", "1")]);
    assert!(ran.summary.contains("refused to write"), "{}", ran.summary);
    assert!(api.comments().is_empty());
    let ran = run_leg(&api, &legs[0], &[("COVGATE_PR", "")]);
    assert!(ran.log.contains("not a pull request"), "{}", ran.log);
}

#[cfg(unix)]
#[test]
fn a_hostile_file_name_stays_inside_its_section() {
    let hostile = Sandbox::new();
    hostile.policy("[measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"lines\"]\n");
    let name = "src/a<!-- covgate:end -->|</details>\\n<!-- covgate:leg=x -->.rs";
    let report = hostile.write(
        "coverage.info",
        &format!("SF:{name}\nDA:1,0\nend_of_record\n"),
    );
    let passing = passing_crate();
    let mut legs = legs(&passing);
    legs.push(Leg {
        name: "evil",
        reports: report.display().to_string(),
        policy: hostile
            .path()
            .join("coverage-policy.toml")
            .display()
            .to_string(),
        args: format!("--no-walk --root {}", hostile.path().display()),
    });
    let api = Api::new();
    for leg in [&legs[3], &legs[0]] {
        run_leg(&api, leg, &[]);
    }
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    let ends = body
        .lines()
        .filter(|l| *l == "<!-- covgate:end -->")
        .count();
    let opens = body
        .lines()
        .filter(|l| l.starts_with("<!-- covgate:leg="))
        .count();
    assert_eq!((opens, ends), (2, 2), "{body}");
    assert!(body.contains("leg=evil"), "{body}");
    assert!(!body.contains("|</details>"), "{body}");
    assert!(body.contains("**evil**\n\n### covgate: ❌ fail"), "{body}");
}

#[test]
fn comment_refuses_a_listing_that_is_not_the_apis() {
    let sandbox = Sandbox::new();
    let listing = sandbox.write("comments.json", "{\"message\": \"Bad credentials\"}");
    let run = sandbox.run(&[
        "comment",
        "--leg",
        "linux",
        "--code",
        "0",
        "--comments",
        &listing.display().to_string(),
        "--body-out",
        "body.md",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("not the GitHub API's list"),
        "{}",
        run.stderr
    );
}

#[test]
fn completions_and_man_page_come_from_the_argument_definitions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bash = covgate(dir, &["completions", "bash"]);
    assert_eq!(bash.code, 0, "{}", bash.stderr);
    assert!(
        bash.stdout.contains("--remap-path-prefix"),
        "{}",
        bash.stdout
    );
    assert!(
        bash.stdout.contains("complete -F _covgate"),
        "{}",
        bash.stdout
    );
    let zsh = covgate(dir, &["completions", "zsh"]);
    assert!(zsh.stdout.starts_with("#compdef covgate"), "{}", zsh.stdout);
    let man = covgate(dir, &["man"]);
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(man.stdout.contains(".TH covgate 1"), "{}", man.stdout);
    assert!(man.stdout.contains("check"), "{}", man.stdout);
}

#[test]
fn cargo_covgate_is_covgate_as_a_cargo_subcommand() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let direct = common::covgate(
        dir,
        &[
            "check",
            "demo/coverage.json",
            "--policy",
            "demo/coverage-policy.toml",
        ],
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_cargo-covgate"));
    let out = Command::new(bin)
        .args([
            "covgate",
            "check",
            "demo/coverage.json",
            "--policy",
            "demo/coverage-policy.toml",
        ])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "1000")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), direct.stdout);
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let via_cargo = Command::new(env!("CARGO"))
        .args(["covgate", "--version"])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&via_cargo.stdout),
        format!("covgate {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[cfg(unix)]
#[test]
fn the_action_links_to_the_commit_under_test() {
    let api = Api::new();
    let passing = passing_crate();
    let leg = &legs(&passing)[0];
    let vars = [
        ("GITHUB_SERVER_URL", "https://github.com"),
        ("GITHUB_REPOSITORY", "o/r"),
        ("COVGATE_SHA", "abc123"),
    ];
    let ran = run_leg_with(&api, leg, &vars);
    let base = "https://github.com/o/r/blob/abc123/src/lib.rs";
    assert!(
        ran.summary
            .contains(&format!("| [src/lib.rs]({base}) | fail |")),
        "{}",
        ran.summary
    );
    assert!(
        ran.summary.contains(&format!("[15-18]({base}#L15-L18)")),
        "{}",
        ran.summary
    );
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    assert!(
        body.contains(&format!("[tiny::perimeter (line 15)]({base}#L15)")),
        "{body}"
    );
    let off = run_leg_with(
        &api,
        leg,
        &[vars[0], vars[1], vars[2], ("COVGATE_LINK_BASE", "none")],
    );
    assert!(!off.summary.contains("](https://"), "{}", off.summary);
}

#[test]
fn link_base_must_be_a_url_that_cannot_end_a_link() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "check",
        "demo/coverage.json",
        "--policy",
        "demo/coverage-policy.toml",
        "--format",
        "markdown",
    ];
    let linked = covgate(
        dir,
        &[&args[..], &["--link-base", "https://h/o/r/blob/s"]].concat(),
    );
    assert_eq!(linked.code, 1, "{}", linked.stderr);
    assert!(
        linked
            .stdout
            .contains("| [src/lib.rs](https://h/o/r/blob/s/src/lib.rs) | fail |"),
        "{}",
        linked.stdout
    );
    assert!(
        linked
            .stdout
            .contains("- regions: [15 (cols 1-39)](https://h/o/r/blob/s/src/lib.rs#L15)"),
        "{}",
        linked.stdout
    );
    let bad = covgate(
        dir,
        &[&args[..], &["--link-base", "https://h/x)[y"]].concat(),
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("would end a Markdown link"),
        "{}",
        bad.stderr
    );
}

/// Case 19's crate: its two shards pass only together (shard 1 alone fails, exit 1).
fn sharded_crate() -> Sandbox {
    let sandbox = Sandbox::copy_of("cases/19-json-shards-same-function/crate");
    sandbox.policy("[measure]\ninclude = [\"src/**/*.rs\"]\n");
    sandbox
}

fn shard(name: &str) -> String {
    fixture(&format!("cases/19-json-shards-same-function/{name}"))
        .display()
        .to_string()
}

fn sharded_leg(sandbox: &Sandbox, name: &'static str, reports: String, args: String) -> Leg {
    Leg {
        name,
        reports,
        policy: sandbox
            .path()
            .join("coverage-policy.toml")
            .display()
            .to_string(),
        args,
    }
}

fn remap(sandbox: &Sandbox) -> String {
    format!(
        "--remap-path-prefix /ws/shardy={}",
        sandbox.path().display()
    )
}

#[cfg(unix)]
#[test]
fn every_line_of_reports_is_checked_and_globs_expand() {
    let sandbox = sharded_crate();
    let cases = [
        // One per line, with blank lines and surrounding spaces.
        format!(
            "\n  {}  \n\n\t{}\n",
            shard("input-shard1.json"),
            shard("input-shard2.json")
        ),
        // A glob that matches both shards (and not reference-full-run.json).
        shard("input-shard*.json"),
        // The old form: several on one line.
        format!(
            "{} {}",
            shard("input-shard2.json"),
            shard("input-shard1.json")
        ),
    ];
    for reports in cases {
        let api = Api::new();
        let leg = sharded_leg(&sandbox, "linux", reports.clone(), remap(&sandbox));
        let ran = run_leg(&api, &leg, &[]);
        assert_eq!(ran.outputs["code"], "0", "{reports:?}\n{}", ran.log);
        assert!(
            ran.log.contains("input-shard1.json (llvm-cov JSON"),
            "{}",
            ran.log
        );
        assert!(
            ran.log.contains("input-shard2.json (llvm-cov JSON"),
            "{}",
            ran.log
        );
        assert!(
            ran.log.contains("1 measured: 1 passed, 0 failed"),
            "{}",
            ran.log
        );
    }
    // `**` matches any number of folders (none included): both shards, at two depths.
    let deep = sandbox.path().join("cov");
    for (from, to) in [("input-shard1.json", "a"), ("input-shard2.json", "b/c")] {
        std::fs::create_dir_all(deep.join(to)).unwrap();
        std::fs::copy(shard(from), deep.join(to).join(from)).unwrap();
    }
    let api = Api::new();
    let glob = format!("{}/**/input-shard*.json", deep.display());
    let leg = sharded_leg(&sandbox, "linux", glob, remap(&sandbox));
    let ran = run_leg(&api, &leg, &[]);
    assert_eq!(ran.outputs["code"], "0", "{}", ran.log);
    assert!(
        ran.log.contains("input-shard2.json (llvm-cov JSON"),
        "{}",
        ran.log
    );
    // Shard 1 alone fails: the lists above really gave both.
    let api = Api::new();
    let one = sharded_leg(
        &sandbox,
        "linux",
        shard("input-shard1.json"),
        remap(&sandbox),
    );
    assert_eq!(run_leg(&api, &one, &[]).outputs["code"], "1");
}

#[cfg(unix)]
#[test]
fn a_glob_that_matches_nothing_is_an_error_naming_it() {
    let sandbox = sharded_crate();
    let api = Api::new();
    let glob = shard("no-such-shard*.json");
    let reports = format!("{}\n{glob}\n", shard("input-shard1.json"));
    let leg = sharded_leg(&sandbox, "linux", reports, remap(&sandbox));
    let ran = run_leg(&api, &leg, &[]);
    assert_eq!(ran.outputs["code"], "2", "{}", ran.log);
    assert_eq!(ran.outputs["leg"], "linux");
    assert!(
        ran.log.contains(&format!(
            "::error title=covgate::reports: no file matches the glob '{glob}'"
        )),
        "{}",
        ran.log
    );
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    assert!(
        body.contains("⚠️ **linux**: covgate could not judge this leg (exit code 2)"),
        "{body}"
    );
}

#[cfg(unix)]
#[test]
fn args_on_several_lines_are_separate_arguments_never_globs() {
    let sandbox = sharded_crate();
    let api = Api::new();
    let reports = format!(
        "{}\n{}",
        shard("input-shard1.json"),
        shard("input-shard2.json")
    );
    let args = format!(
        "\n  --remap-path-prefix\n\t/ws/shardy={}  \n\n--show all\r\n--target x86_64-pc-windows-msvc\n",
        sandbox.path().display()
    );
    let ran = run_leg(&api, &sharded_leg(&sandbox, "", reports.clone(), args), &[]);
    assert_eq!(ran.outputs["code"], "0", "{}", ran.log);
    // The default leg name: the OS, the target, and a hash of the job and the args (which hold
    // the sandbox's path here, so only its shape is known).
    let leg = ran.outputs["leg"].clone();
    let hash = leg.strip_prefix("Linux x86_64-pc-windows-msvc ").unwrap();
    assert!(
        hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{leg}"
    );
    assert!(
        ran.log.contains("target x86_64-pc-windows-msvc (--target)"),
        "{}",
        ran.log
    );
    // A word with `*` in args is passed as it is, not expanded against the working folder.
    let globbed = format!("{}\n--features *", remap(&sandbox));
    let ran = run_leg(&api, &sharded_leg(&sandbox, "linux", reports, globbed), &[]);
    assert!(ran.log.contains("+ feature=\"*\""), "{}", ran.log);
}

/// Two legs of one OS and target that differ by their args, with the default leg name: each
/// keeps a section of its own (they once shared `Linux-<target>`, and the passing leg's ✅
/// replaced the failing leg's result); running a leg again edits its own section.
#[cfg(unix)]
#[test]
fn default_leg_names_tell_legs_with_other_args_apart() {
    let passing = passing_crate();
    let api = Api::new();
    let mut legs = legs(&passing);
    legs.truncate(2);
    for leg in &mut legs {
        leg.name = "";
    }
    let host = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap_or_else(|| "unknown target".to_string());
    let top = [("GITHUB_WORKSPACE", env!("CARGO_MANIFEST_DIR"))];
    let failing = run_leg_with(&api, &legs[0], &top);
    assert_eq!(failing.outputs["code"], "1");
    // cksum of "coverage\nreports=demo/coverage.json\npolicy=demo/coverage-policy.toml\n" (the
    // job's id, no args, the reports and the policy; the working folder is the workspace's top).
    assert_eq!(failing.outputs["leg"], format!("Linux {host} 3007a678"));
    let passed = run_leg(&api, &legs[1], &[]);
    assert_eq!(passed.outputs["code"], "0");
    assert_ne!(passed.outputs["leg"], failing.outputs["leg"]);
    run_leg_with(&api, &legs[0], &top);
    let comments = api.comments();
    assert_eq!(comments.len(), 1, "{comments:?}");
    let body = comments[0]["body"].as_str().unwrap();
    let sections: Vec<&str> = body
        .lines()
        .filter(|l| l.starts_with("<!-- covgate:leg="))
        .collect();
    assert_eq!(sections.len(), 2, "{body}");
    assert!(body.contains("tiny::perimeter"), "{body}");
    assert!(
        body.contains(&format!("✅ **{}**: covgate passed", passed.outputs["leg"])),
        "{body}"
    );
}

/// Two steps of one job (same args) that check two policies, or one policy from two working
/// folders, get default leg names of their own: the passing step's ✅ once replaced the failing
/// step's section quietly (finding #8 of session 14).
#[cfg(unix)]
#[test]
fn default_leg_names_tell_policies_and_folders_apart() {
    let passing = passing_crate();
    let api = Api::new();
    let mut legs = legs(&passing);
    legs.truncate(1);
    legs[0].name = "";
    let mut other = legs[0].clone();
    other.policy = "demo/../demo/coverage-policy.toml".into();
    let first = run_leg(&api, &legs[0], &[]).outputs["leg"].clone();
    let second = run_leg(&api, &other, &[]).outputs["leg"].clone();
    let elsewhere = run_leg_with(&api, &legs[0], &[("GITHUB_WORKSPACE", "/elsewhere")]);
    assert_ne!(first, second);
    assert_ne!(first, elsewhere.outputs["leg"]);
    assert_ne!(second, elsewhere.outputs["leg"]);
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    let sections = body
        .lines()
        .filter(|l| l.starts_with("<!-- covgate:leg="))
        .count();
    assert_eq!(sections, 3, "{body}");
}

/// Two legs of one run given the same `leg` name: the second's section says that it replaced
/// another leg's (the runner's name tells the jobs apart), rather than hiding the failure.
#[cfg(unix)]
#[test]
fn two_legs_of_one_run_with_one_name_are_told() {
    let passing = passing_crate();
    let api = Api::new();
    let mut legs = legs(&passing);
    legs.truncate(2);
    for leg in &mut legs {
        leg.name = "same";
    }
    let runner = |name: &'static str| [("GITHUB_RUN_ID", "77"), ("RUNNER_NAME", name)];
    assert_eq!(run_leg(&api, &legs[0], &runner("one")).outputs["code"], "1");
    assert_eq!(run_leg(&api, &legs[1], &runner("two")).outputs["code"], "0");
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    assert!(
        body.contains(
            "<!-- covgate:leg=same by=77.1/coverage two -->\n⚠️ **same**: another leg of this \
             run (77.1/coverage one) wrote a section of this name, and this leg replaced it"
        ),
        "{body}"
    );
    // The same leg again (same job and runner): a plain update, without the warning.
    run_leg(&api, &legs[1], &runner("two"));
    let body = api.comments()[0]["body"].as_str().unwrap().to_string();
    assert!(!body.contains("another leg of this run"), "{body}");
}
