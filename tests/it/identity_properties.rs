//! The order of reports never changes the output: generated sets of 2 to 4 LCOV shards, naming
//! the same files under different spellings (real path, a path through a symbolic link to the
//! root, `.` and repeated separators, a relative path, a detour through `x/..`, a Windows-style
//! spelling in another case), give byte-identical JSON output in every order.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use covgate::commands::check::{self, CheckOptions};
use proptest::prelude::*;

/// The files of the project, root-relative.
const FILES: [&str; 3] = ["src/a.rs", "src/sub/b.rs", "src/c.rs"];

/// A project under `real/` with a link `link` to it, made once per test process.
struct Project {
    _dir: tempfile::TempDir,
    base: PathBuf,
    real: String,
    link: String,
}

fn project() -> &'static Project {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    PROJECT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = dir.path().canonicalize().expect("canonical");
        let real = base.join("real");
        for file in FILES {
            let path = real.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "pub fn f() {\n    g();\n}\n").expect("source");
        }
        std::fs::write(
            real.join("coverage-policy.toml"),
            "[measure]\nmetrics = [\"lines\"]\n",
        )
        .expect("policy");
        let link = base.join("link");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        Project {
            real: real.display().to_string(),
            link: link.display().to_string(),
            base,
            _dir: dir,
        }
    })
}

/// Spelling number `how` of the root-relative `file`.
fn spell(project: &Project, file: &str, how: usize) -> String {
    let (dir, name) = file.rsplit_once('/').expect("a folder");
    match how % 7 {
        0 => format!("{}/{file}", project.real),
        1 => format!("{}/{file}", project.link),
        2 => format!("{}/./{dir}//{name}", project.real),
        3 => file.to_string(),
        4 => format!("{dir}/x/../{name}"),
        5 => format!("{}/{}", project.real, file.to_uppercase()).replace('/', "\\"),
        _ => format!("{}\\{}", project.link, file.replace('/', "\\")),
    }
}

/// One shard: for each file it names, a spelling and the hit counts of lines 1 to 3.
type Shard = Vec<(usize, usize, [u8; 3])>;

fn shard() -> impl Strategy<Value = Shard> {
    prop::collection::vec((0..FILES.len(), 0..7usize, [0..3u8, 0..3u8, 0..3u8]), 1..4)
}

fn lcov(project: &Project, shard: &Shard) -> String {
    let mut out = String::new();
    for (file, how, hits) in shard {
        out.push_str(&format!("SF:{}\n", spell(project, FILES[*file], *how)));
        for (line, hit) in hits.iter().enumerate() {
            out.push_str(&format!("DA:{},{hit}\n", line + 1));
        }
        out.push_str("end_of_record\n");
    }
    out
}

/// The JSON output of `covgate check` on `reports` (in that order), or the error.
fn json_output(base: &Path, reports: &[String]) -> String {
    let opts = CheckOptions {
        reports: reports.to_vec(),
        policy: Some(base.join("real/coverage-policy.toml")),
        walk: true,
        cwd: base.to_path_buf(),
        ..CheckOptions::default()
    };
    match check::run(&opts) {
        Ok(outcome) => {
            let mut out = Vec::new();
            covgate::render::json::write(&outcome.facts, &outcome.verdict, &mut out)
                .expect("write");
            String::from_utf8(out).expect("UTF-8")
        }
        Err(e) => format!("error: {e}"),
    }
}

/// Every order of `items`.
fn permutations(items: &[String]) -> Vec<Vec<String>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for at in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(at);
        for mut tail in permutations(&rest) {
            tail.insert(0, first.clone());
            all.push(tail);
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[cfg(unix)]
    #[test]
    fn the_order_of_shards_changes_nothing(
        shards in prop::collection::vec(shard(), 2..5),
        set in 0..1_000_000u32,
    ) {
        let project = project();
        let names: Vec<String> = shards
            .iter()
            .enumerate()
            .map(|(at, shard)| {
                let name = format!("set{set}-shard{at}.info");
                std::fs::write(project.base.join(&name), lcov(project, shard)).expect("shard");
                name
            })
            .collect();
        let orders = permutations(&names);
        let first = json_output(&project.base, &orders[0]);
        prop_assert!(first.starts_with('{'), "{}", first);
        for order in &orders[1..] {
            prop_assert_eq!(&json_output(&project.base, order), &first, "{:?}", order);
        }
        // Every spelling names one of the three files: nothing is left outside.
        let doc: serde_json::Value = serde_json::from_str(&first).expect("JSON");
        prop_assert_eq!(&doc["summary"]["outside_include"], 0, "{}", first);
        prop_assert_eq!(doc["files"].as_array().map(Vec::len), Some(FILES.len()));
    }
}
