//! `covgate init [REPORT...]`: writes a starting `coverage-policy.toml` for the crate or
//! workspace in the current folder, so that a codebase below 100% can adopt the gate today.
//!
//! * `include`: the folder of every library's and binary's root file of every workspace member
//!   in the folder (`cargo metadata`, so `[lib] path` and `[[bin]] path` count): `src/**/*.rs`
//!   for the default layout.
//! * `metrics`: those the reports carry (branches only when they hold branch data).
//! * Suggested exclusions, commented out: each binary's entry point and each file that no report
//!   measures; but a build script that `include` selects and no report measures is excluded
//!   outright ([`BUILD_SCRIPT`]).
//! * One `[[debt]]` entry per file below 100% in the reports (see [`crate::debt`]), allowing
//!   exactly what it misses today, with the reason "existing debt at adoption, DATE".
//!
//! It refuses to overwrite a policy unless forced.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use cargo_metadata::TargetKind;

use crate::commands::check::{self, CheckOptions};
use crate::debt;
use crate::error::{Error, Result};
use crate::judge::{FileStatus, Verdict};
use crate::model::Metric;
use crate::paths;
use crate::policy::POLICY_FILE_NAME;

/// What `covgate init` is given.
#[derive(Debug, Clone, Default)]
pub struct InitOptions {
    /// Coverage reports of today's tests (may be empty: then no debt is recorded).
    pub reports: Vec<String>,
    /// `--force`: overwrite an existing policy.
    pub force: bool,
    /// The folder of the crate or workspace; the policy is written there.
    pub cwd: PathBuf,
    /// The date written in each debt's reason (`YYYY-MM-DD`).
    pub date: String,
    /// `--remap-path-prefix FROM=TO`, as for `covgate check`: reports made elsewhere (a CI
    /// container, another OS) are read with their paths mapped.
    pub remaps: Vec<String>,
    /// `--path-case`, as for `covgate check`.
    pub path_case: crate::paths::PathCase,
}

/// One workspace member's part of the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Members {
    /// `include` globs, folder-relative, sorted, none inside another ([`include`]).
    pub include: Vec<String>,
    /// Each binary target's root file inside the folder (`src/main.rs`, …), sorted.
    pub binaries: Vec<String>,
    /// Each build script inside the folder (`build.rs`, cargo's `custom-build` target), sorted.
    pub build_scripts: Vec<String>,
}

/// Why a build script is excluded: the one exclusion `covgate init` writes active, since no
/// test runs a build script and `cargo llvm-cov` reports none.
pub const BUILD_SCRIPT: &str = "a build script: no test runs it, and cargo llvm-cov reports none";

/// Writes the policy; returns what to print: what was written and the next command.
///
/// Errors (exit 2): a policy exists (without `force`); `cargo metadata` fails; no member's
/// library or binary lies in the folder; a report cannot be read; the policy cannot be written.
pub fn run(opts: &InitOptions) -> Result<String> {
    let target = opts.cwd.join(POLICY_FILE_NAME);
    if target.exists() && !opts.force {
        return Err(Error::new(format!(
            "{}: a policy exists already; edit it, or give --force to replace it",
            target.display()
        )));
    }
    let members = members(&opts.cwd)?;
    let verdict = measure(opts, &members.include)?;
    let chosen = verdict
        .as_ref()
        .map_or_else(|| Metric::DEFAULT.to_vec(), metrics);
    let suggested = suggestions(&members, verdict.as_ref());
    // A file with a suggested exclusion gets no entry: uncommenting the exclusion would make
    // the entry stale.
    let debts: Vec<Debt> = verdict
        .as_ref()
        .map_or_else(Vec::new, |v| debts(v, &chosen))
        .into_iter()
        .filter(|(path, _)| !suggested.iter().any(|(s, _)| s == path))
        .collect();
    let text = policy_text(&members.include, &chosen, &suggested, &debts, &opts.date);
    crate::output::write_atomically(&target, &mut |out| out.write_all(text.as_bytes())).map(|()| {
        let commented = suggested.iter().filter(|(_, why)| *why != BUILD_SCRIPT);
        let mut reports = opts.reports.clone();
        let quoted = |r: &String| shell_word(r);
        reports.extend(
            opts.remaps
                .iter()
                .map(|r| format!("--remap-path-prefix {}", quoted(r))),
        );
        message(&debts, commented.count(), &reports)
    })
}

/// A file's allowances: its path and, for each metric that misses items, how many.
pub type Debt = (String, Vec<(Metric, u64)>);

/// The product targets (libraries and binaries: not tests, benches, examples or build scripts)
/// of the workspace members whose root files lie in `cwd`, from `cargo metadata --no-deps
/// --offline`: the folders of their root files, as cargo resolves them (`[lib] path`,
/// `[[bin]] path`, or the default `src/lib.rs`, `src/main.rs`, `src/bin/*`), as include globs.
///
/// Errors (exit 2): cargo fails (no `Cargo.toml` here or above, a bad manifest); no member's
/// library or binary lies in `cwd`.
pub fn members(cwd: &Path) -> Result<Members> {
    // Guarded as the roster's run is: a manifest that is a FIFO or a device is refused, and
    // cargo is stopped when it blocks on one below.
    let needs = format!(
        "covgate init needs the cargo package or workspace in {}",
        cwd.display()
    );
    let metadata = crate::workspace::cargo_metadata(
        &cwd.to_string_lossy(),
        "covgate init",
        &needs,
        crate::workspace::METADATA_TIME,
    )?;
    // `cwd` is the current folder as the system gives it (symbolic links resolved), as cargo
    // sees it too.
    let base = paths::normalize(&cwd.to_string_lossy());
    let inside = |path: &str| paths::strip_base(&paths::normalize(path), &base).map(str::to_string);
    let mut found = Members::default();
    let mut globs = BTreeSet::new();
    // Members that cargo finds through a `members` glob (`crates/*`) are included through it
    // too (`crates/*/src/**/*.rs`), so a member added later is in scope from the start.
    let at_root = paths::normalize(metadata.workspace_root.as_str()) == base;
    let patterns = if at_root {
        member_patterns(
            &metadata
                .workspace_root
                .join("Cargo.toml")
                .into_std_path_buf(),
        )
    } else {
        Vec::new()
    };
    for package in metadata.workspace_packages() {
        let manifest_folder = package.manifest_path.parent();
        let member = manifest_folder.and_then(|folder| inside(folder.as_str()));
        let pattern = member
            .as_deref()
            .and_then(|m| patterns.iter().find(|(_, matcher)| matcher.is_match(m)));
        for target in &package.targets {
            let folder = target.src_path.parent().filter(|_| is_product(target));
            if let Some(rel) = folder.and_then(|folder| inside(folder.as_str())) {
                let src = member.as_deref().map(|m| format!("{m}/src"));
                let in_src =
                    src.is_some_and(|src| rel == src || rel.starts_with(&format!("{src}/")));
                match pattern {
                    Some((glob_text, _)) if in_src => {
                        globs.insert(format!("{glob_text}/src/**/*.rs"))
                    }
                    _ => globs.insert(glob(&rel, folder == manifest_folder)),
                };
            }
        }
        let of_kind = |kind: TargetKind| {
            package
                .targets
                .iter()
                .filter(move |t| t.kind.contains(&kind))
                .filter_map(|t| inside(t.src_path.as_str()))
        };
        found.binaries.extend(of_kind(TargetKind::Bin));
        found.build_scripts.extend(of_kind(TargetKind::CustomBuild));
    }
    found.include = include(&globs);
    if found.include.is_empty() {
        return Err(Error::new(format!(
            "no workspace member's library or binary lies in {}; run covgate init in the crate's or the workspace's folder",
            cwd.display()
        )));
    }
    found.binaries.sort();
    found.build_scripts.sort();
    Ok(found)
}

/// The `members` globs of the workspace manifest at `manifest` (`crates/*`; plain paths are
/// left out: their members are included one by one), each with its matcher (`*` does not
/// cross `/`, as in cargo). None when the manifest cannot be read, or when an `exclude` entry
/// lies inside one of them (its folder would then be included though cargo builds none of it).
fn member_patterns(manifest: &Path) -> Vec<(String, globset::GlobMatcher)> {
    let text = crate::source::read(manifest, crate::source::MAX_MANIFEST)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_default();
    let value: toml::Table = toml::from_str(&text).unwrap_or_default();
    let workspace = value.get("workspace");
    let strings = |key: &str| -> Vec<String> {
        let list = workspace
            .and_then(|w| w.get(key))
            .and_then(|v| v.as_array());
        let list = list.map(Vec::as_slice).unwrap_or_default();
        list.iter()
            .filter_map(|v| v.as_str())
            .map(|s| paths::normalize(s).trim_end_matches('/').to_string())
            .collect()
    };
    let matcher = |pattern: &str| {
        globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .ok()
            .map(|glob| glob.compile_matcher())
    };
    let patterns: Vec<(String, globset::GlobMatcher)> = strings("members")
        .into_iter()
        .filter(|m| m.contains(['*', '?', '[']))
        .filter_map(|m| matcher(&m).map(|matcher| (m, matcher)))
        .collect();
    let excluded = strings("exclude");
    if excluded
        .iter()
        .any(|e| patterns.iter().any(|(_, m)| m.is_match(e)))
    {
        return Vec::new();
    }
    patterns
}

/// Target kinds that are not the product: their files are not gated.
const NOT_PRODUCT: [TargetKind; 4] = [
    TargetKind::Test,
    TargetKind::Bench,
    TargetKind::Example,
    TargetKind::CustomBuild,
];

/// True for a library (of any crate type) or a binary.
fn is_product(target: &cargo_metadata::Target) -> bool {
    target.kind.iter().any(|kind| !NOT_PRODUCT.contains(kind))
}

/// The include glob for `folder` (folder-relative; `""` the folder itself), the folder of a
/// target's root file: the folder and everything below it (`src/**/*.rs`), or, when it is the
/// package's own folder (`[lib] path = "lib.rs"`), only the `.rs` files in it (`*.rs`,
/// `crates/x/*.rs`), since below a package's folder lie its tests, benches and examples.
fn glob(folder: &str, package_folder: bool) -> String {
    let prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    if package_folder {
        format!("{prefix}*.rs")
    } else {
        format!("{prefix}**/*.rs")
    }
}

/// The globs (sorted) without those that another covers: `src/bin/**/*.rs` inside
/// `src/**/*.rs`.
fn include(globs: &BTreeSet<String>) -> Vec<String> {
    const DEEP: &str = "**/*.rs";
    let deep: Vec<&str> = globs.iter().filter_map(|g| g.strip_suffix(DEEP)).collect();
    let inside = |g: &str, d: &str| g.len() > d.len() + DEEP.len() && g.starts_with(d);
    globs
        .iter()
        .filter(|g| !deep.iter().any(|d| inside(g, d)))
        .cloned()
        .collect()
}

/// The check of the reports under a policy holding only `include` (written to a temporary
/// file in the folder, removed afterwards); `None` without reports.
fn measure(opts: &InitOptions, include: &[String]) -> Result<Option<Verdict>> {
    if opts.reports.is_empty() {
        return Ok(None);
    }
    // Combinators, not `?`: the probe's write error (a folder that cannot be written) is
    // tested apart from the check.
    tempfile::Builder::new()
        .prefix(".covgate-init-")
        .suffix(".toml")
        .tempfile_in(&opts.cwd)
        .and_then(|mut file| {
            let text = format!("[measure]\ninclude = {}\n", list(include));
            file.write_all(text.as_bytes()).map(|()| file)
        })
        .map_err(|e| {
            Error::new(format!(
                "{}: cannot write a temporary policy: {e}",
                opts.cwd.display()
            ))
        })
        .and_then(|probe| {
            check::run(&CheckOptions {
                reports: opts.reports.clone(),
                policy: Some(probe.path().to_path_buf()),
                root: Some(opts.cwd.clone()),
                walk: true,
                cwd: opts.cwd.clone(),
                remaps: opts.remaps.clone(),
                path_case: opts.path_case,
                ..CheckOptions::default()
            })
        })
        .map(|outcome| Some(outcome.verdict))
}

/// `word` as a POSIX shell reads it back: as written when it holds only letters, digits and
/// `/._=:,+@-`, else in single quotes (`'C:\ws=.'`).
fn shell_word(word: &str) -> String {
    let plain = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._=:,+@-".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A TOML array of strings on one line.
fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| quote(i)).collect();
    format!("[{}]", quoted.join(", "))
}

/// A TOML basic string.
fn quote(text: &str) -> String {
    toml_edit::Value::from(text).to_string()
}

/// The metrics the reports carry: every default one (MC/DC is opt-in) that no measured file
/// has unavailable.
fn metrics(verdict: &Verdict) -> Vec<Metric> {
    Metric::DEFAULT
        .into_iter()
        .filter(|m| !verdict.unavailable.contains(m))
        .collect()
}

/// The `[[debt]]` allowances of each file below 100% in `verdict`, for each of `metrics` that
/// misses any (a file failing only on a metric left out of `metrics` gets none).
pub fn debts(verdict: &Verdict, metrics: &[Metric]) -> Vec<Debt> {
    verdict
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Fail)
        .map(|f| {
            let allowed = f
                .metrics
                .iter()
                .filter(|m| metrics.contains(&m.metric))
                .filter_map(|m| m.counts.map(|c| (m.metric, debt::missed(c))))
                .filter(|&(_, n)| n > 0)
                .collect();
            (f.path.clone(), allowed)
        })
        .filter(|(_, allowed): &Debt| !allowed.is_empty())
        .collect()
}

/// The exclusions to suggest: each binary's entry point, and each file no report measures
/// (in `verdict`), with why ([`BUILD_SCRIPT`] for a build script); sorted by path, one per
/// path.
pub fn suggestions(members: &Members, verdict: Option<&Verdict>) -> Vec<(String, &'static str)> {
    let unmeasured = verdict.into_iter().flat_map(|v| {
        v.files
            .iter()
            .filter(|f| f.status == FileStatus::Unmeasured)
            .map(|f| {
                let why = if members.build_scripts.contains(&f.path) {
                    BUILD_SCRIPT
                } else {
                    "in no report: no test runs it"
                };
                (f.path.clone(), why)
            })
    });
    let mut suggested: Vec<(String, &'static str)> = members
        .binaries
        .iter()
        .map(|b| (b.clone(), "a binary's entry point"))
        .chain(unmeasured)
        .collect();
    suggested.sort();
    suggested.dedup_by(|a, b| a.0 == b.0);
    suggested
}

/// The policy's text (see the module docs).
pub fn policy_text(
    include: &[String],
    metrics: &[Metric],
    suggested: &[(String, &str)],
    debts: &[Debt],
    date: &str,
) -> String {
    let names: Vec<String> = metrics.iter().map(|m| m.name().to_string()).collect();
    let mut out = format!(
        "# covgate policy, written by `covgate init` on {date}.\n\
         # Every file under `include` must reach 100% on every metric, unless a [[debt]] entry\n\
         # below allows it to miss a recorded number of items. See covgate's docs/adopting.md.\n\n\
         [measure]\ninclude = {}\nmetrics = {}\nthreshold = 100\n",
        list(include),
        list(&names)
    );
    // A build script the include selects is excluded outright (the reports never measure it).
    let (scripts, suggested): (Vec<_>, Vec<_>) =
        suggested.iter().partition(|(_, why)| *why == BUILD_SCRIPT);
    for (path, why) in scripts {
        out.push_str(&format!(
            "\n[[exclude]]\npath = {}\nreason = \"{why}\"\n",
            quote(path)
        ));
    }
    if !suggested.is_empty() {
        out.push_str(
            "\n# Suggested exclusions: uncomment one only for a file the tests cannot run, and say why.\n",
        );
    }
    for (path, why) in suggested {
        out.push_str(&format!(
            "# [[exclude]]\n# path = {}\n# reason = \"{why}\"\n",
            quote(path)
        ));
    }
    if !debts.is_empty() {
        out.push_str(
            "\n# Debt at adoption: each file below 100% may miss at most this many items per metric.\n\
             # `covgate check --tighten` lowers the counts as tests are added; raising one is a hand edit.\n",
        );
    }
    for (path, allowed) in debts {
        out.push_str(&format!("[[debt]]\npath = {}\n", quote(path)));
        for (metric, n) in allowed {
            out.push_str(&format!("{metric} = {n}\n"));
        }
        out.push_str(&format!(
            "reason = \"existing debt at adoption, {date}\"\n\n"
        ));
    }
    out
}

/// What `covgate init` prints: what it wrote, then the next command.
fn message(debts: &[Debt], suggested: usize, reports: &[String]) -> String {
    let allowed: u64 = debts
        .iter()
        .flat_map(|(_, a)| a.iter().map(|&(_, n)| n))
        .fold(0, u64::saturating_add);
    let entries = debts.len();
    let next = if reports.is_empty() {
        "next: produce a report (e.g. `cargo llvm-cov --json --output-path cov.json`), then \
         `covgate init --force cov.json` to record today's debt"
            .to_string()
    } else {
        format!("next: covgate check {}", reports.join(" "))
    };
    format!(
        "wrote {POLICY_FILE_NAME}: {entries} [[debt]] {} ({allowed} missed {} allowed), \
         {suggested} suggested {} (commented out)\n{next}\n",
        plural(entries as u64, "entry", "entries"),
        plural(allowed, "item", "items"),
        plural(suggested as u64, "exclusion", "exclusions"),
    )
}

/// `one` for 1, `many` otherwise.
fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Today's date (`YYYY-MM-DD`, UTC), or the date of `SOURCE_DATE_EPOCH` when it is set to a
/// number of seconds (reproducible output).
pub fn today() -> String {
    let fixed = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date(fixed.unwrap_or(now))
}

/// The UTC date (`YYYY-MM-DD`) of a Unix time in seconds (Howard Hinnant's `civil_from_days`).
pub fn date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_795_996_800), "2026-11-30");
        assert_eq!(date(1_796_083_199), "2026-11-30");
        assert_eq!(date(1_704_067_200), "2024-01-01");
    }

    #[test]
    fn a_folder_that_cannot_hold_the_probe_is_an_error() {
        let opts = InitOptions {
            reports: vec!["cov.info".to_string()],
            cwd: PathBuf::from("/nonexistent/crate"),
            ..InitOptions::default()
        };
        let e = measure(&opts, &["src/**/*.rs".to_string()]).unwrap_err();
        assert!(
            e.message()
                .starts_with("/nonexistent/crate: cannot write a temporary policy: "),
            "{e}"
        );
    }

    #[test]
    fn strings_are_quoted_for_toml() {
        assert_eq!(quote("src/a.rs"), "\"src/a.rs\"");
        assert_eq!(quote("a\"b"), "'a\"b'");
        assert_eq!(list(&["a".into(), "b".into()]), "[\"a\", \"b\"]");
        assert_eq!(glob("crates/x/src", false), "crates/x/src/**/*.rs");
        assert_eq!(glob("crates/x", true), "crates/x/*.rs");
        assert_eq!(glob("", true), "*.rs");
        assert_eq!(glob("lib", false), "lib/**/*.rs");
    }

    #[test]
    fn a_glob_inside_another_is_left_out() {
        let globs: BTreeSet<String> = [
            "src/**/*.rs",
            "src/bin/**/*.rs",
            "src2/**/*.rs",
            "*.rs",
            "tools/*.rs",
            "tools/x/**/*.rs",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            include(&globs),
            [
                "*.rs",
                "src/**/*.rs",
                "src2/**/*.rs",
                "tools/*.rs",
                "tools/x/**/*.rs"
            ]
        );
    }

    #[test]
    fn shell_words_are_quoted_when_they_must_be() {
        assert_eq!(shell_word("/ci/ws=."), "/ci/ws=.");
        assert_eq!(shell_word("C:\\ws=."), "'C:\\ws=.'");
        assert_eq!(shell_word("a b'c"), "'a b'\\''c'");
    }
}
