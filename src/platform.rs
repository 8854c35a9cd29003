//! The platform one check runs for (one CI leg): the target and its cfg values, the custom cfgs
//! and features given on the command line, and which programs are on PATH. It decides whether
//! each conditional `[[exclude]]` applies on this leg.
//!
//! - `when = "cfg(...)"` uses Rust's cfg syntax and semantics (the Reference, "Conditional
//!   compilation"), parsed and evaluated with the `cfg-expr` crate. Target predicates (`unix`,
//!   `windows`, `target_os`, `target_family`, `target_arch`, `target_pointer_width`,
//!   `target_env`, `target_vendor`, `target_endian`, `target_abi`, `target_has_atomic`,
//!   `panic`) come from cfg-expr's database of rustc's built-in targets
//!   ([`cfg_expr::targets::ALL_BUILTINS`]). Every other predicate (`feature = "x"`, `test`, a
//!   custom `foo` or `foo = "bar"`, `target_feature`) holds exactly when `--features` or
//!   `--cfg` sets it.
//! - `when-missing = ["pwsh", ...]` holds while at least one named program is not found on
//!   PATH, looked up as a shell would with the `which` crate (PATHEXT on Windows).
//! - The target is the one covgate was built for ([`HOST_TARGET`]), or `--target TRIPLE`.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use cfg_expr::targets::{get_builtin_target_by_triple, rustc_version, TargetInfo};

use crate::error::{Error, Result};

mod cfg_values;
mod condition;

use cfg_values::{cfg_text, parse_cfg, target_cfgs};
pub use condition::Cfg;
use condition::{holds, Free};

/// The target triple covgate was built for (recorded by `build.rs`): the default target of a
/// check.
pub(crate) const HOST_TARGET: &str = env!("COVGATE_HOST_TARGET");

/// The command-line options that choose the platform (`--target`, `--cfg`, `--features`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlatformOptions {
    /// `--target TRIPLE`: evaluate conditions for this target instead of [`HOST_TARGET`].
    pub target: Option<String>,
    /// `--cfg KEY[=VALUE]` values, as given (the value may be in double quotes).
    pub cfgs: Vec<String>,
    /// `--features` values, each a comma- or space-separated list of feature names.
    pub features: Vec<String>,
}

/// A program named by a `when-missing`, and where PATH has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The name as written in the policy.
    pub name: String,
    /// Its full path, or `None` when it is not found.
    pub path: Option<PathBuf>,
}

/// Whether one `[[exclude]]` entry applies on this platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activation {
    /// True when the entry has a `when` or a `when-missing`.
    pub conditional: bool,
    /// True when the entry excludes files here (always, for an unconditional entry).
    pub active: bool,
    /// Why, e.g. ``"`cfg(windows)` does not hold on x86_64-unknown-linux-gnu"``; empty for an
    /// unconditional entry.
    pub why: String,
}

impl Activation {
    /// The activation of an entry without conditions: active, with no why.
    pub fn always() -> Activation {
        Activation {
            conditional: false,
            active: true,
            why: String::new(),
        }
    }
}

/// The platform of one check: target, cfg values, features and programs.
#[derive(Debug, Clone)]
pub struct Platform {
    /// The target triple conditions are evaluated for.
    pub triple: String,
    /// True when the triple comes from `--target`, false for the host.
    pub from_flag: bool,
    info: Option<&'static TargetInfo>,
    free: BTreeSet<Free>,
    /// Every program named by a `when-missing`, in name order, with where it was found.
    pub programs: Vec<Program>,
}

impl Platform {
    /// Builds the platform from the options; `host` is the target when `--target` is absent
    /// (the caller passes [`HOST_TARGET`]). Each of `programs` is looked up in `path` (a PATH
    /// value; `None` finds nothing), relative entries from `cwd`. `needs_cfg` says that the
    /// policy has a `when` to evaluate.
    ///
    /// Errors: a `--target` that is not a built-in target of cfg-expr's list, or a host that is
    /// not in it while `needs_cfg` is set; a `--cfg` that is not `KEY` or `KEY=VALUE` with an
    /// identifier key, or that names a cfg the target or `--features` sets.
    pub fn new(
        opts: &PlatformOptions,
        host: &str,
        programs: &[String],
        needs_cfg: bool,
        path: Option<&OsStr>,
        cwd: &Path,
    ) -> Result<Platform> {
        let (triple, from_flag) = match &opts.target {
            Some(target) => (target.as_str(), true),
            None => (host, false),
        };
        let info = get_builtin_target_by_triple(triple);
        if info.is_none() && (from_flag || needs_cfg) {
            let what = if from_flag {
                format!("--target {triple}")
            } else {
                format!("the policy has `when` conditions, but the host target {triple}")
            };
            return Err(Error::new(format!(
                "{what}: not a built-in target of rustc {} (cfg-expr's list); \
                 give a triple from `rustc --print target-list` with --target, e.g. x86_64-pc-windows-msvc",
                rustc_version()
            )));
        }
        let mut free = opts
            .cfgs
            .iter()
            .map(|flag| parse_cfg(flag))
            .collect::<Result<BTreeSet<Free>>>()?;
        free.extend(
            opts.features
                .iter()
                .flat_map(|list| list.split([',', ' ']))
                .filter(|name| !name.is_empty())
                .map(|name| ("feature".to_string(), Some(name.to_string()))),
        );
        let programs = programs
            .iter()
            .map(|name| Program {
                name: name.clone(),
                path: which::which_in(name, path, cwd).ok(),
            })
            .collect();
        Ok(Platform {
            triple: triple.to_string(),
            from_flag,
            info,
            free,
            programs,
        })
    }

    /// The feature names given with `--features`, sorted.
    pub fn features(&self) -> Vec<&str> {
        self.free
            .iter()
            .filter(|(key, _)| key == "feature")
            .filter_map(|(_, value)| value.as_deref())
            .collect()
    }

    /// True when the triple is in cfg-expr's list, so its cfg values are known.
    pub fn known(&self) -> bool {
        self.info.is_some()
    }

    /// The cfg values conditions are evaluated against, as `rustc --print cfg` writes them
    /// (`target_os="linux"`, `unix`, `feature="extra"`), sorted: the target's (empty when it is
    /// not [known](Platform::known)), then every `--cfg` and feature. `target_feature` and
    /// `debug_assertions` are not among the target's: set them with `--cfg` if a condition
    /// needs them.
    pub fn cfg_values(&self) -> Vec<String> {
        let mut values = self.info.map(target_cfgs).unwrap_or_default();
        values.extend(self.free.iter().map(|(key, value)| cfg_text(key, value)));
        values.sort();
        values.dedup();
        values
    }

    /// Whether an `[[exclude]]` with these conditions applies here: its `when` holds (if any)
    /// and at least one `when-missing` program is not found (if any). A `when` never holds on
    /// a target that is not [known](Platform::known) ([`Platform::new`] refuses such a target
    /// when the policy has a `when`).
    pub fn activation(&self, when: Option<&Cfg>, when_missing: &[String]) -> Activation {
        let mut active = true;
        let mut why = Vec::new();
        if let Some(cfg) = when {
            let holds = self
                .info
                .is_some_and(|target| holds(&cfg.expr, target, &self.free));
            active &= holds;
            let verb = match (self.info, holds) {
                (None, _) => "cannot be evaluated (unknown target)",
                (_, true) => "holds",
                (_, false) => "does not hold",
            };
            why.push(format!("`{}` {verb} on {}", cfg.text, self.triple));
        }
        if !when_missing.is_empty() {
            let missing: Vec<&str> = when_missing
                .iter()
                .filter(|name| self.path_of(name).is_none())
                .map(String::as_str)
                .collect();
            if missing.is_empty() {
                active = false;
                why.push(format!("found on PATH: {}", when_missing.join(", ")));
            } else {
                why.push(format!("not found on PATH: {}", missing.join(", ")));
            }
        }
        Activation {
            conditional: !why.is_empty(),
            active,
            why: why.join("; "),
        }
    }

    fn path_of(&self, name: &str) -> Option<&PathBuf> {
        self.programs
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.path.as_ref())
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::cfg_values::is_identifier;
    use super::condition::{leaves, MAX_FREE};
    use super::*;

    fn options(target: &str, cfgs: &[&str], features: &[&str]) -> PlatformOptions {
        PlatformOptions {
            target: Some(target.to_string()),
            cfgs: cfgs.iter().map(|s| s.to_string()).collect(),
            features: features.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn platform(target: &str, cfgs: &[&str], features: &[&str]) -> Platform {
        Platform::new(
            &options(target, cfgs, features),
            HOST_TARGET,
            &[],
            true,
            None,
            Path::new("."),
        )
        .expect("a platform")
    }

    /// Whether `when` holds on `target` with these `--cfg`s and features.
    fn on(target: &str, when: &str, cfgs: &[&str], features: &[&str]) -> bool {
        let cfg = Cfg::parse(when).expect("a condition");
        let activation = platform(target, cfgs, features).activation(Some(&cfg), &[]);
        assert!(activation.conditional);
        activation.active
    }

    const LINUX: &str = "x86_64-unknown-linux-gnu";
    const WINDOWS: &str = "x86_64-pc-windows-msvc";
    const MAC: &str = "aarch64-apple-darwin";

    #[test]
    fn each_condition_form() {
        let yes = |target, when| on(target, when, &[], &[]);
        assert!(yes(WINDOWS, "cfg(windows)"));
        assert!(!yes(LINUX, "cfg(windows)"));
        assert!(yes(LINUX, "unix"));
        assert!(yes(MAC, "cfg(unix)"));
        assert!(!yes(WINDOWS, "cfg(unix)"));
        assert!(yes(MAC, "cfg(target_os = \"macos\")"));
        assert!(!yes(LINUX, "cfg(target_os = \"macos\")"));
        assert!(yes(LINUX, "cfg(target_family = \"unix\")"));
        assert!(yes(
            "wasm32-unknown-unknown",
            "cfg(target_family = \"wasm\")"
        ));
        assert!(!yes("wasm32-unknown-unknown", "cfg(any(unix, windows))"));
        assert!(yes(MAC, "cfg(target_arch = \"aarch64\")"));
        assert!(!yes(LINUX, "cfg(target_arch = \"aarch64\")"));
        assert!(yes(LINUX, "cfg(target_pointer_width = \"64\")"));
        assert!(yes(
            "i686-pc-windows-msvc",
            "cfg(target_pointer_width = \"32\")"
        ));
        assert!(yes(WINDOWS, "cfg(target_env = \"msvc\")"));
        assert!(yes(LINUX, "cfg(target_env = \"gnu\")"));
        assert!(yes(MAC, "cfg(target_env = \"\")"));
        assert!(yes(WINDOWS, "cfg(target_vendor = \"pc\")"));
        assert!(yes(LINUX, "cfg(target_endian = \"little\")"));
        assert!(yes(LINUX, "cfg(all(unix, target_arch = \"x86_64\"))"));
        assert!(!yes(LINUX, "cfg(all(unix, target_arch = \"aarch64\"))"));
        assert!(yes(LINUX, "cfg(any(windows, target_os = \"linux\"))"));
        assert!(!yes(LINUX, "cfg(any(windows, target_os = \"macos\"))"));
        assert!(yes(LINUX, "cfg(not(windows))"));
        assert!(!yes(WINDOWS, "cfg(not(windows))"));
        assert!(yes(LINUX, "cfg(all())"));
    }

    #[test]
    fn the_features_given() {
        let platform = platform(
            "x86_64-unknown-linux-gnu",
            &["foo", "k=\"v\""],
            &["b,a", "c"],
        );
        assert_eq!(platform.features(), ["a", "b", "c"]);
    }

    #[test]
    fn features_and_custom_cfgs_hold_only_when_given() {
        assert!(!on(LINUX, "cfg(feature = \"extra\")", &[], &[]));
        assert!(on(LINUX, "cfg(feature = \"extra\")", &[], &["extra"]));
        assert!(on(LINUX, "cfg(feature = \"b\")", &[], &["a,b c"]));
        assert!(on(LINUX, "cfg(not(feature = \"extra\"))", &[], &["other"]));
        assert!(!on(
            LINUX,
            "cfg(not(feature = \"extra\"))",
            &[],
            &["", "extra"]
        ));
        for (when, cfg) in [
            ("cfg(test)", "test"),
            ("cfg(debug_assertions)", "debug_assertions"),
            ("cfg(proc_macro)", "proc_macro"),
            ("cfg(target_feature = \"sse2\")", "target_feature=\"sse2\""),
            ("cfg(ci)", "ci"),
            ("cfg(tier = \"nightly\")", "tier=nightly"),
            ("cfg(tier = \"nightly\")", " tier = \"nightly\" "),
        ] {
            assert!(!on(LINUX, when, &[], &[]), "{when}");
            assert!(on(LINUX, when, &[cfg], &[]), "{when} with --cfg {cfg}");
        }
        assert!(!on(LINUX, "cfg(tier = \"nightly\")", &["tier=beta"], &[]));
        assert!(!on(LINUX, "cfg(tier = \"nightly\")", &["tier"], &[]));
    }

    #[test]
    fn bad_and_impossible_conditions() {
        let err = Cfg::parse("cfg(all(windows, unix)").unwrap_err();
        assert!(
            err.starts_with("bad condition `cfg(all(windows, unix)`: "),
            "{err}"
        );
        let err = Cfg::parse("").unwrap_err();
        assert!(err.contains("empty expression"), "{err}");
        for impossible in [
            "cfg(all(windows, unix))",
            "cfg(target_os = \"macoss\")",
            "cfg(all(target_os = \"macos\", target_env = \"msvc\"))",
            "cfg(all(feature = \"x\", not(feature = \"x\")))",
            "cfg(all(windows, not(windows)))",
            "cfg(any())",
        ] {
            let err = Cfg::parse(impossible).unwrap_err();
            assert!(
                err.starts_with(&format!(
                    "the condition `{impossible}` can hold on no known target ("
                )),
                "{err}"
            );
        }
        for possible in [
            "cfg(all(windows, feature = \"x\", not(feature = \"y\")))",
            "cfg(all(unix, not(target_os = \"linux\")))",
            "cfg(any(windows, not(windows)))",
        ] {
            assert_eq!(Cfg::parse(possible).expect(possible).text, possible);
        }
        // A misspelt value inside not(), any() or all() is refused as a bare one is.
        for (text, leaf) in [
            ("cfg(not(target_os = \"windos\"))", "target_os = \"windos\""),
            (
                "cfg(any(unix, target_arch = \"x86-64\"))",
                "target_arch = \"x86-64\"",
            ),
            (
                "all(feature = \"a(b,c)\", not(target_env = \"gnux\"))",
                "target_env = \"gnux\"",
            ),
        ] {
            let err = Cfg::parse(text).unwrap_err();
            assert!(
                err.starts_with(&format!(
                    "`{leaf}` in the condition `{text}` holds on no known target ("
                )),
                "{err}"
            );
        }
        // Conditions are equal when written alike.
        assert_eq!(Cfg::parse("unix"), Cfg::parse("unix"));
        assert_ne!(Cfg::parse("unix"), Cfg::parse("cfg(unix)"));
        // A custom name a few edits from a well-known one is a misspelling: `not(widows)` would
        // hold on every leg, the Windows one included.
        for (text, key, near) in [
            ("cfg(not(widows))", "widows", "windows"),
            ("cfg(not(windwos))", "windwos", "windows"),
            ("cfg(not(unx))", "unx", "unix"),
            ("cfg(not(targetos = \"windows\"))", "targetos", "target_os"),
            ("cfg(any(unix, Windows))", "Windows", "windows"),
            ("cfg(not(tests))", "tests", "test"),
        ] {
            assert_eq!(
                Cfg::parse(text).unwrap_err(),
                format!(
                    "`{key}` in the condition `{text}` is not a cfg name rustc knows; did you \
                     mean `{near}`? (a custom cfg holds only on a leg that sets it with --cfg, \
                     so a misspelt name makes `not({key})` hold everywhere); fix it, or rename \
                     the custom cfg"
                )
            );
        }
        // Well-known names that are not target predicates, and custom names far from them.
        for text in [
            "cfg(not(miri))",
            "cfg(doc)",
            "cfg(not(tokio_unstable))",
            "cfg(loom)",
            "cfg(docsrs)",
            "cfg(ci)",
        ] {
            assert!(Cfg::parse(text).is_ok(), "{text}");
        }
        assert_eq!(
            leaves("cfg(all(unix, feature = \"a(b,c)\", not(windows)))"),
            ["unix", "feature = \"a(b,c)\"", "windows"]
        );
        assert_eq!(leaves("unix"), ["unix"]);
        // Too many free cfgs to try every combination: assumed to be able to hold.
        let many: Vec<String> = (0..=MAX_FREE)
            .map(|i| format!("feature = \"f{i}\""))
            .collect();
        let text = format!("cfg(all(windows, unix, {}))", many.join(", "));
        assert!(Cfg::parse(&text).is_ok());
    }

    #[test]
    fn targets_and_cfg_flags() {
        let err = Platform::new(
            &options("x86_64-unknown-nowhere", &[], &[]),
            HOST_TARGET,
            &[],
            true,
            None,
            Path::new("."),
        )
        .unwrap_err();
        assert!(
            err.message()
                .starts_with("--target x86_64-unknown-nowhere: not a built-in target of rustc "),
            "{err}"
        );
        for (flag, why) in [
            ("", "expected KEY or KEY=VALUE"),
            ("1x", "expected KEY or KEY=VALUE"),
            ("a-b", "expected KEY or KEY=VALUE"),
            ("=x", "expected KEY or KEY=VALUE"),
            ("k=\"a\"b\"", "may not contain"),
            ("k=a\\b", "may not contain"),
            ("unix", "`unix` is set by the target"),
            ("target_os=linux", "`target_os` is set by the target"),
            ("feature=x", "features are given with --features"),
            ("target_pointer_width=x", "invalid integer"),
        ] {
            let err = Platform::new(
                &options(LINUX, &[flag], &[]),
                HOST_TARGET,
                &[],
                false,
                None,
                Path::new("."),
            )
            .unwrap_err();
            assert!(
                err.message().starts_with(&format!("--cfg {flag}: ")),
                "{err}"
            );
            assert!(err.message().contains(why), "{flag}: {err}");
        }
        assert!(is_identifier("_a1"));
        assert!(!is_identifier("a.b"));
    }

    #[test]
    fn host_target() {
        let host = Platform::new(
            &PlatformOptions::default(),
            LINUX,
            &[],
            true,
            None,
            Path::new("."),
        )
        .unwrap();
        assert_eq!(host.triple, LINUX);
        assert!(!host.from_flag);
        assert!(host.known());
        assert!(!HOST_TARGET.is_empty());
        let flagged = platform(WINDOWS, &[], &[]);
        assert!(flagged.from_flag);
        // A host missing from the list: an error when the policy has a `when`; otherwise no
        // target cfg values, and a `when` never holds.
        let unknown = |needs_cfg: bool| {
            Platform::new(
                &PlatformOptions {
                    features: vec!["x".to_string()],
                    ..PlatformOptions::default()
                },
                "riscv64-unknown-nowhere",
                &[],
                needs_cfg,
                None,
                Path::new("."),
            )
        };
        let err = unknown(true).unwrap_err();
        assert!(
            err.message().starts_with(
                "the policy has `when` conditions, but the host target riscv64-unknown-nowhere: not a built-in target of rustc "
            ),
            "{err}"
        );
        let unknown = unknown(false).unwrap();
        assert!(!unknown.known());
        assert_eq!(unknown.cfg_values(), vec!["feature=\"x\"".to_string()]);
        let cfg = Cfg::parse("cfg(unix)").unwrap();
        let never = unknown.activation(Some(&cfg), &[]);
        assert_eq!(
            never.why,
            "`cfg(unix)` cannot be evaluated (unknown target) on riscv64-unknown-nowhere"
        );
        assert!(!never.active);
        let unconditional = unknown.activation(None, &[]);
        assert_eq!(
            unconditional,
            Activation {
                conditional: false,
                active: true,
                why: String::new()
            }
        );
    }

    #[test]
    fn cfg_values_are_rustcs() {
        let linux = platform(LINUX, &["ci", "tier=\"beta\""], &["extra"]).cfg_values();
        assert_eq!(
            linux,
            [
                "ci",
                "feature=\"extra\"",
                "panic=\"unwind\"",
                "target_abi=\"\"",
                "target_arch=\"x86_64\"",
                "target_endian=\"little\"",
                "target_env=\"gnu\"",
                "target_family=\"unix\"",
                "target_has_atomic=\"16\"",
                "target_has_atomic=\"32\"",
                "target_has_atomic=\"64\"",
                "target_has_atomic=\"8\"",
                "target_has_atomic=\"ptr\"",
                "target_os=\"linux\"",
                "target_pointer_width=\"64\"",
                "target_vendor=\"unknown\"",
                "tier=\"beta\"",
                "unix",
            ]
        );
        let windows = platform(WINDOWS, &[], &[]).cfg_values();
        assert!(windows.contains(&"windows".to_string()));
        assert!(windows.contains(&"target_env=\"msvc\"".to_string()));
        let mac = platform(MAC, &[], &[]).cfg_values();
        assert!(mac.contains(&"target_env=\"\"".to_string()));
        assert!(mac.contains(&"target_os=\"macos\"".to_string()));
        let bare = platform("thumbv7em-none-eabihf", &[], &[]).cfg_values();
        assert!(bare.contains(&"target_os=\"none\"".to_string()));
        assert!(bare.contains(&"target_abi=\"eabihf\"".to_string()));
        assert!(!bare.iter().any(|c| c.starts_with("target_family")));
        let wasm = platform("wasm32-unknown-unknown", &[], &[]).cfg_values();
        assert!(wasm.contains(&"target_family=\"wasm\"".to_string()));
        assert!(!wasm.contains(&"unix".to_string()));
    }

    #[test]
    fn when_missing_looks_programs_up_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir
            .path()
            .join(if cfg!(windows) { "tool.exe" } else { "tool" });
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let names = vec!["no-such-tool-x".to_string(), "tool".to_string()];
        let path = dir.path().as_os_str();
        let p = Platform::new(
            &options(LINUX, &[], &[]),
            HOST_TARGET,
            &names,
            true,
            Some(path),
            dir.path(),
        )
        .unwrap();
        assert_eq!(p.programs[0].path, None);
        assert_eq!(p.programs[1].path.as_deref(), Some(tool.as_path()));
        let found = p.activation(None, &["tool".to_string()]);
        assert_eq!(
            found,
            Activation {
                conditional: true,
                active: false,
                why: "found on PATH: tool".to_string()
            }
        );
        let missing = p.activation(None, &names);
        assert_eq!(missing.why, "not found on PATH: no-such-tool-x");
        assert!(missing.active);
        // Both conditions: `when` must hold too.
        let unix = Cfg::parse("cfg(unix)").unwrap();
        let both = p.activation(Some(&unix), &names);
        assert_eq!(
            both.why,
            format!("`cfg(unix)` holds on {LINUX}; not found on PATH: no-such-tool-x")
        );
        assert!(both.active);
        let windows = Cfg::parse("cfg(windows)").unwrap();
        assert!(!p.activation(Some(&windows), &names).active);
        // No PATH at all: nothing is found.
        let none = Platform::new(
            &options(LINUX, &[], &[]),
            HOST_TARGET,
            &names,
            false,
            None,
            dir.path(),
        )
        .unwrap();
        assert!(none.programs.iter().all(|p| p.path.is_none()));
    }
}
