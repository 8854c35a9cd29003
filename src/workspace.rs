//! The cargo workspace as the roster sees it: its members, their targets and each target's
//! files.
//!
//! Targets come from `cargo metadata --no-deps --offline` (the `cargo_metadata` crate): no
//! build, no network. A target's file set is its root file plus the `.rs` files under its
//! folder:
//!
//! - a root file named `main.rs`, `lib.rs` or `mod.rs` owns its own folder:
//!   `tests/foo/main.rs` owns `tests/foo/**/*.rs`;
//! - any other root file owns the folder of its stem: `tests/foo.rs` also owns
//!   `tests/foo/**/*.rs`.
//!
//! This is a layout convention, not rustc's module resolution. Its limits: a file that a target
//! reaches outside its folder (a shared `tests/common/mod.rs` declared with `mod common;`, a
//! `#[path]` module, an `include!`) belongs to no target; a `.rs` file in a target's folder
//! belongs to it even when no `mod` declares it; and a `main.rs` root directly in `tests/`
//! (`[[test]] path = "tests/main.rs"`) owns all of `tests/`. Files are found by the walk of the
//! root that `covgate check` uses ([`crate::walk`]).

use std::collections::BTreeSet;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cargo_metadata::{Metadata, MetadataCommand, TargetKind};

use crate::error::{Error, Result};
use crate::paths::{self, Resolver};
use crate::source::{self, Refused};

/// What a target is, as cargo classifies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A library (`lib`, `rlib`, `dylib`, `cdylib`, `staticlib`, `proc-macro`).
    Lib,
    /// A binary.
    Bin,
    /// An integration test (`tests/`, `[[test]]`).
    Test,
    /// A benchmark (`benches/`, `[[bench]]`).
    Bench,
    /// An example (`examples/`, `[[example]]`).
    Example,
    /// Anything else (a build script).
    Other,
}

impl Kind {
    /// cargo's flag that selects a target of this kind by name (`--test`, `--bench`,
    /// `--example`, `--bin`, `--lib`; `""` for a build script).
    pub fn flag(self) -> &'static str {
        match self {
            Kind::Lib => "--lib",
            Kind::Bin => "--bin",
            Kind::Test => "--test",
            Kind::Bench => "--bench",
            Kind::Example => "--example",
            Kind::Other => "",
        }
    }

    /// How messages name a target of this kind: `test target`, `bench target`, ….
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Test => "test target",
            Kind::Bench => "bench target",
            Kind::Example => "example target",
            Kind::Lib => "library target",
            Kind::Bin => "binary target",
            Kind::Other => "target",
        }
    }

    fn of(kinds: &[TargetKind]) -> Kind {
        let first = kinds.first().cloned();
        match first {
            Some(TargetKind::Test) => Kind::Test,
            Some(TargetKind::Bench) => Kind::Bench,
            Some(TargetKind::Example) => Kind::Example,
            Some(TargetKind::Bin) => Kind::Bin,
            Some(
                TargetKind::Lib
                | TargetKind::RLib
                | TargetKind::DyLib
                | TargetKind::CDyLib
                | TargetKind::StaticLib
                | TargetKind::ProcMacro,
            ) => Kind::Lib,
            _ => Kind::Other,
        }
    }
}

/// One target of a workspace member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// The package's name.
    pub package: String,
    /// The target's name.
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// Its root file: root-relative, or absolute when outside the root (`/`-separated).
    pub src: String,
    /// `cargo test` runs it when no target is named (the manifest's `test` flag, `"test"` in
    /// `cargo metadata`: true by default for libraries, binaries and tests, false for benches
    /// and examples unless `test = true`).
    pub tested: bool,
}

impl Target {
    /// The target as nextest names its test binary (its binary ID): `pkg::name` for a test,
    /// `pkg::bench/name` and `pkg::example/name` for the others, `pkg::kind/name` in general.
    pub(crate) fn label(&self) -> String {
        match self.kind {
            Kind::Test => format!("{}::{}", self.package, self.name),
            Kind::Bench => format!("{}::bench/{}", self.package, self.name),
            Kind::Example => format!("{}::example/{}", self.package, self.name),
            Kind::Lib => self.package.clone(),
            Kind::Bin => format!("{}::bin/{}", self.package, self.name),
            Kind::Other => format!("{}::{}", self.package, self.name),
        }
    }

    /// The files this target owns among `files` (root-relative): its root file, and every file
    /// under its folder (see the module docs for the rule).
    pub(crate) fn files(&self, files: &BTreeSet<String>) -> BTreeSet<String> {
        let (dir, file) = self.src.rsplit_once('/').unwrap_or(("", &self.src));
        let folder = match file {
            "main.rs" | "lib.rs" | "mod.rs" => dir,
            _ => self.src.strip_suffix(".rs").unwrap_or(&self.src),
        };
        let mut owned: BTreeSet<String> = files
            .iter()
            .filter(|f| paths::strip_base(f, folder).is_some_and(|rest| !rest.is_empty()))
            .cloned()
            .collect();
        owned.insert(self.src.clone());
        owned
    }
}

/// The members of a cargo workspace and their targets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Workspace {
    /// Every member's package name, in cargo's order.
    pub members: Vec<String>,
    /// The default members (what cargo selects without `-p`): cargo's `workspace_default_members`,
    /// or every member when cargo is older than 1.71 and does not say.
    pub defaults: Vec<String>,
    /// Every target of every member, in cargo's order.
    pub targets: Vec<Target>,
    /// Every feature some member declares (an optional dependency's implicit feature too).
    pub features: BTreeSet<String>,
}

/// Refuses a `Cargo.toml` at or above `root` that cargo would hang on or read without end
/// before cargo is run: one that is not a regular file (a FIFO, a link to `/dev/zero`) or is
/// larger than [`source::MAX_MANIFEST`]. A missing one is cargo's to report.
///
/// Errors (exit 2): the manifest, named, and what it is.
fn check_manifests(root: &str, who: &str) -> Result<()> {
    for dir in std::path::Path::new(root).ancestors() {
        let manifest = dir.join("Cargo.toml");
        match source::read(&manifest, source::MAX_MANIFEST) {
            Ok(_) | Err(Refused::Io(_)) => {}
            Err(why) => {
                return Err(Error::new(format!(
                    "{}: {who} runs cargo, which reads this manifest, but {why}",
                    manifest.display()
                )))
            }
        }
    }
    Ok(())
}

/// `cargo metadata --no-deps --offline` run in `root` for `who` (`the [[suite]] roster`,
/// `covgate init`), guarded: the manifests at and above `root` are checked first
/// ([`check_manifests`]) and cargo is stopped after `limit`. Errors (exit 2): a refused
/// manifest, named; else `needs`, then why cargo failed.
pub(crate) fn cargo_metadata(
    root: &str,
    who: &str,
    needs: &str,
    limit: Duration,
) -> Result<Metadata> {
    check_manifests(root, who)?;
    let mut command = MetadataCommand::new()
        .current_dir(root)
        .no_deps()
        .other_options(vec!["--offline".to_string()])
        .cargo_command();
    run_metadata(&mut command, limit)
        .and_then(|stdout| metadata_json(&stdout))
        .map_err(|why| Error::new(format!("{needs}: {}", why.trim_end())))
}

/// How long `cargo metadata --no-deps --offline` may run: 120 s. It reads manifests only and
/// takes well under a second on a workspace of hundreds of members; one that has not finished
/// is blocked, as on a member's `Cargo.toml` that is a FIFO (members below the root are found
/// by cargo, from the root manifest's globs, so [`check_manifests`] cannot see them first).
pub(crate) const METADATA_TIME: Duration = Duration::from_secs(120);

/// Runs `command` (stdin closed, stdout and stderr captured) and returns its stdout when it
/// succeeds within `limit`. Errors, as text: it cannot start; it ran past `limit` (then it is
/// killed); it failed (its stderr).
fn run_metadata(command: &mut Command, limit: Duration) -> std::result::Result<Vec<u8>, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                // Killing a child that has just exited fails harmlessly; it is reaped below.
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "cargo metadata did not finish within {} s (is a member's Cargo.toml a FIFO \
                     or a device?)",
                    limit.as_secs_f64()
                ));
            }
        }
    };
    let (stdout, stderr) = (joined(stdout), joined(stderr));
    if status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "`cargo metadata` exited with an error: {}",
            String::from_utf8_lossy(&stderr)
        ))
    }
}

/// Reads all of `pipe` on a thread of its own (so that a child writing more than a pipe holds
/// does not block while its status is polled).
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// What a [`drain`] thread read (nothing for a pipe that was not there).
fn joined(handle: Option<std::thread::JoinHandle<Vec<u8>>>) -> Vec<u8> {
    handle
        .and_then(|handle| handle.join().ok())
        .unwrap_or_default()
}

/// The metadata in `cargo metadata`'s stdout: its line that starts with `{`, as
/// `cargo_metadata`'s own `exec` reads it. Errors, as text: no such line, or not metadata.
fn metadata_json(stdout: &[u8]) -> std::result::Result<Metadata, String> {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .find(|line| line.starts_with('{'))
        .ok_or("cargo metadata printed no JSON")?;
    MetadataCommand::parse(line).map_err(|e| e.to_string())
}

impl Workspace {
    /// Runs `cargo metadata --no-deps --offline` in `root` (cargo is `$CARGO`, else `cargo`
    /// on PATH) and reads the workspace that holds it.
    ///
    /// Errors (exit 2): a `Cargo.toml` at or above `root` that cargo would block on or read
    /// without end ([`check_manifests`]); cargo cannot be started, fails (no `Cargo.toml` in
    /// `root` or above, a bad manifest), or prints what `cargo_metadata` cannot read.
    pub(crate) fn load(root: &str) -> Result<Workspace> {
        Workspace::load_within(root, METADATA_TIME)
    }

    /// [`Workspace::load`], with `cargo metadata` stopped (killed) after `limit`.
    fn load_within(root: &str, limit: Duration) -> Result<Workspace> {
        let needs = format!("the [[suite]] roster needs the cargo workspace at the root {root}");
        let metadata = cargo_metadata(root, "the [[suite]] roster", &needs, limit)?;
        Ok(Workspace::from_metadata(&metadata, root))
    }

    /// The workspace described by `metadata`, with target root files made relative to `root`
    /// (a normalised absolute folder).
    pub(crate) fn from_metadata(metadata: &Metadata, root: &str) -> Workspace {
        let resolver = Resolver::new(root, Vec::new(), None);
        let members = metadata.workspace_packages();
        let defaults = if metadata.workspace_default_members.is_available() {
            metadata.workspace_default_packages()
        } else {
            members.clone()
        };
        Workspace {
            members: members.iter().map(|p| p.name.to_string()).collect(),
            defaults: defaults.iter().map(|p| p.name.to_string()).collect(),
            targets: members
                .iter()
                .flat_map(|p| {
                    p.targets.iter().map(|t| Target {
                        package: p.name.to_string(),
                        name: t.name.clone(),
                        kind: Kind::of(&t.kind),
                        src: resolver.resolve(t.src_path.as_str()).as_str().to_string(),
                        tested: t.test,
                    })
                })
                .collect(),
            features: members
                .iter()
                .flat_map(|p| p.features.keys().cloned())
                .collect(),
        }
    }

    /// Refuses a `--features` name that no member declares (a misspelt feature would make a
    /// `when = "cfg(feature = …)"` quietly false). `default` is always accepted, and a
    /// dependency's feature (`dep/feature`) is not checked: `--no-deps` metadata does not list
    /// dependencies' features.
    pub(crate) fn check_features(&self, names: &[&str], root: &str) -> Result<()> {
        let unknown = names.iter().find(|name| {
            *name != &"default" && !name.contains('/') && !self.features.contains(**name)
        });
        match unknown {
            Some(name) => Err(Error::new(format!(
                "--features {name}: no package of the cargo workspace at {root} declares the \
                 feature `{name}` (declared: {}); fix the name",
                self.declared()
            ))),
            None => Ok(()),
        }
    }

    /// The declared features, comma-separated (`none` when there are none).
    fn declared(&self) -> String {
        if self.features.is_empty() {
            return "none".to_string();
        }
        let names: Vec<&str> = self.features.iter().map(String::as_str).collect();
        names.join(", ")
    }

    /// True when some member has a target of this kind.
    pub(crate) fn has(&self, kind: Kind) -> bool {
        self.targets.iter().any(|t| t.kind == kind)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn target(src: &str) -> Target {
        Target {
            package: "p".to_string(),
            name: "t".to_string(),
            kind: Kind::Test,
            src: src.to_string(),
            tested: true,
        }
    }

    #[test]
    fn a_target_owns_its_root_file_and_its_folder() {
        let files: BTreeSet<String> = [
            "tests/foo.rs",
            "tests/foo/helper.rs",
            "tests/foo/deep/more.rs",
            "tests/foobar.rs",
            "tests/bar/main.rs",
            "tests/bar/util.rs",
            "tests/common/mod.rs",
        ]
        .map(String::from)
        .into();
        let owned = |src: &str| -> Vec<String> { target(src).files(&files).into_iter().collect() };
        assert_eq!(
            owned("tests/foo.rs"),
            [
                "tests/foo.rs",
                "tests/foo/deep/more.rs",
                "tests/foo/helper.rs"
            ]
        );
        assert_eq!(
            owned("tests/bar/main.rs"),
            ["tests/bar/main.rs", "tests/bar/util.rs"]
        );
        assert_eq!(owned("tests/common/mod.rs"), ["tests/common/mod.rs"]);
        // The root file is owned even when the walk did not find it (outside the root).
        assert_eq!(owned("/elsewhere/x.rs"), ["/elsewhere/x.rs"]);
        // A main.rs at the root owns everything; a root file without `.rs` owns its folder.
        assert_eq!(owned("main.rs").len(), 8);
        assert_eq!(
            owned("tests/bar"),
            ["tests/bar", "tests/bar/main.rs", "tests/bar/util.rs"]
        );
        assert_eq!(owned("lib.rs").len(), 8);
    }

    #[test]
    fn kinds_flags_and_labels() {
        let all = [
            (Kind::Lib, "--lib", "library target", "p"),
            (Kind::Bin, "--bin", "binary target", "p::bin/t"),
            (Kind::Test, "--test", "test target", "p::t"),
            (Kind::Bench, "--bench", "bench target", "p::bench/t"),
            (Kind::Example, "--example", "example target", "p::example/t"),
            (Kind::Other, "", "target", "p::t"),
        ];
        for (kind, flag, noun, label) in all {
            assert_eq!(kind.flag(), flag);
            assert_eq!(kind.noun(), noun);
            let t = Target {
                kind,
                ..target("x.rs")
            };
            assert_eq!(t.label(), label);
        }
        for (kinds, kind) in [
            (vec![TargetKind::Test], Kind::Test),
            (vec![TargetKind::Bench], Kind::Bench),
            (vec![TargetKind::Example], Kind::Example),
            (vec![TargetKind::Bin], Kind::Bin),
            (vec![TargetKind::Lib], Kind::Lib),
            (vec![TargetKind::RLib, TargetKind::CDyLib], Kind::Lib),
            (vec![TargetKind::DyLib], Kind::Lib),
            (vec![TargetKind::StaticLib], Kind::Lib),
            (vec![TargetKind::ProcMacro], Kind::Lib),
            (vec![TargetKind::CustomBuild], Kind::Other),
            (vec![], Kind::Other),
        ] {
            assert_eq!(Kind::of(&kinds), kind, "{kinds:?}");
        }
    }

    /// `cargo metadata` output, trimmed to what the roster reads.
    fn metadata(defaults: bool) -> Metadata {
        let package = |name: &str, targets: &str| {
            format!(
                r#"{{"name":"{name}","version":"0.1.0","id":"path+file:///ws/{name}#0.1.0","source":null,
                "dependencies":[],"targets":[{targets}],"features":{{}},"manifest_path":"/ws/{name}/Cargo.toml"}}"#
            )
        };
        let target = |kind: &str, name: &str, src: &str| {
            format!(
                r#"{{"kind":["{kind}"],"crate_types":["bin"],"name":"{name}","src_path":"{src}","edition":"2021","doctest":false,"test":true}}"#
            )
        };
        let a = package(
            "alpha",
            &[
                target("lib", "alpha", "/ws/alpha/src/lib.rs"),
                target("test", "heavy", "/ws/alpha/tests/heavy.rs"),
                target("custom-build", "build-script-build", "/ws/alpha/build.rs"),
            ]
            .join(","),
        );
        let b = package("beta", &target("test", "out", "/outside/tests/out.rs"));
        let default_members = if defaults {
            r#","workspace_default_members":["path+file:///ws/alpha#0.1.0"]"#
        } else {
            ""
        };
        let text = format!(
            r#"{{"packages":[{a},{b}],"workspace_members":["path+file:///ws/alpha#0.1.0","path+file:///ws/beta#0.1.0"]{default_members},
            "resolve":null,"target_directory":"/ws/target","version":1,"workspace_root":"/ws","metadata":null}}"#
        );
        MetadataCommand::parse(text).expect("metadata")
    }

    #[test]
    fn features_must_be_declared() {
        let ws = Workspace {
            features: ["serde".to_string(), "targets".to_string()].into(),
            ..Workspace::default()
        };
        assert_eq!(
            ws.check_features(&["targets", "default", "dep/x"], "/ws"),
            Ok(())
        );
        let err = ws.check_features(&["serde", "tagets"], "/ws").unwrap_err();
        assert_eq!(
            err.message(),
            "--features tagets: no package of the cargo workspace at /ws declares the feature \
             `tagets` (declared: serde, targets); fix the name"
        );
        let err = Workspace::default()
            .check_features(&["x"], "/ws")
            .unwrap_err();
        assert!(err.message().contains("(declared: none)"), "{err}");
    }

    #[test]
    fn workspace_from_metadata() {
        let ws = Workspace::from_metadata(&metadata(true), "/ws");
        assert_eq!(ws.members, ["alpha", "beta"]);
        assert_eq!(ws.defaults, ["alpha"]);
        let targets: Vec<(String, Kind, String)> = ws
            .targets
            .iter()
            .map(|t| (t.label(), t.kind, t.src.clone()))
            .collect();
        assert_eq!(
            targets,
            [
                (
                    "alpha".to_string(),
                    Kind::Lib,
                    "alpha/src/lib.rs".to_string()
                ),
                (
                    "alpha::heavy".to_string(),
                    Kind::Test,
                    "alpha/tests/heavy.rs".to_string()
                ),
                (
                    "alpha::build-script-build".to_string(),
                    Kind::Other,
                    "alpha/build.rs".to_string()
                ),
                (
                    "beta::out".to_string(),
                    Kind::Test,
                    "/outside/tests/out.rs".to_string()
                ),
            ]
        );
        assert!(ws.has(Kind::Lib));
        assert!(!ws.has(Kind::Bin));
        // A cargo older than 1.71 does not list default members: every member is one.
        let old = Workspace::from_metadata(&metadata(false), "/ws");
        assert_eq!(old.defaults, ["alpha", "beta"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_manifest_cargo_would_hang_on_is_refused_before_cargo_runs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("crate");
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("Cargo.toml")).unwrap();
        let err = Workspace::load(&root.display().to_string()).unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "{}/Cargo.toml: the [[suite]] roster runs cargo, which reads this manifest, but \
                 it is a device, not a regular file",
                dir.path().display()
            )
        );
    }

    #[test]
    fn a_workspace_with_regular_manifests_loads() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"solo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
        let ws = Workspace::load(&dir.path().display().to_string()).unwrap();
        assert_eq!(ws.members, ["solo"]);
    }

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[cfg(unix)]
    #[test]
    fn cargo_metadata_is_stopped_when_it_does_not_finish() {
        let err = run_metadata(&mut shell("sleep 30"), Duration::from_millis(200)).unwrap_err();
        assert_eq!(
            err,
            "cargo metadata did not finish within 0.2 s (is a member's Cargo.toml a FIFO or a \
             device?)"
        );
        let err =
            run_metadata(&mut shell("echo bad manifest >&2; exit 101"), METADATA_TIME).unwrap_err();
        assert_eq!(err, "`cargo metadata` exited with an error: bad manifest\n");
        let out = run_metadata(&mut shell("echo '{}'"), METADATA_TIME).unwrap();
        assert_eq!(out, b"{}\n");
        let err = run_metadata(
            &mut Command::new("/nonexistent/cargo"),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(err.starts_with("cannot run cargo metadata: "), "{err}");
    }

    #[test]
    fn metadata_is_the_json_line_of_stdout() {
        assert_eq!(
            metadata_json(b"warning: x\n").unwrap_err(),
            "cargo metadata printed no JSON"
        );
        assert!(metadata_json(b"{\"packages\": 1}\n").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_member_manifest_that_blocks_cargo_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[workspace]\nmembers = [\"m\"]\n",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("m")).unwrap();
        let made = Command::new("mkfifo")
            .arg(dir.path().join("m/Cargo.toml"))
            .status()
            .unwrap();
        assert!(made.success());
        let root = dir.path().display().to_string();
        let err = Workspace::load_within(&root, Duration::from_secs(3)).unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "the [[suite]] roster needs the cargo workspace at the root {root}: cargo \
                 metadata did not finish within 3 s (is a member's Cargo.toml a FIFO or a device?)"
            )
        );
    }

    #[test]
    fn loading_needs_a_cargo_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().display().to_string();
        let err = Workspace::load(&root).unwrap_err();
        assert!(
            err.message().starts_with(&format!(
                "the [[suite]] roster needs the cargo workspace at the root {root}: "
            )),
            "{err}"
        );
        assert!(err.message().contains("Cargo.toml"), "{err}");
    }
}
