//! A check's settings: the policy found and read, the platform built and every condition
//! decided, the root and the `--remap-path-prefix` values.

use std::path::{Path, PathBuf};

use super::CheckOptions;
use crate::error::Result;
use crate::paths::{self, Remap};
use crate::platform::{self, Platform};
use crate::policy::Policy;
use crate::roster::{self, Roster};
use crate::walk::Walked;

/// What every command reads before it looks at a report: the policy, the platform of this leg
/// and which conditional entries apply on it, and the root.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    /// The policy.
    pub policy: Policy,
    /// The platform (target, cfg values, programs on PATH).
    pub platform: Platform,
    /// The root: normalised and absolute.
    pub root: String,
    /// `--remap-path-prefix` values, parsed (a relative `TO` anchored at the current folder).
    pub remaps: Vec<Remap>,
}

impl Setup {
    /// Finds and reads the policy, builds the platform and decides every condition.
    ///
    /// Errors (exit 2): no policy, a bad policy, a bad `--target` or `--cfg`, a bad
    /// `--remap-path-prefix`.
    pub(crate) fn load(opts: &CheckOptions) -> Result<Setup> {
        let policy_path = match &opts.policy {
            Some(p) => opts.cwd.join(p),
            None => Policy::find(&opts.cwd)?,
        };
        let mut policy = Policy::load(&policy_path)?;
        let path_var = std::env::var_os("PATH");
        let platform = Platform::new(
            &opts.platform,
            platform::HOST_TARGET,
            &policy.programs(),
            policy.has_when(),
            path_var.as_deref(),
            &opts.cwd,
        )?;
        policy.decide(&platform);
        let root = root_folder(opts, &policy);
        let cwd = paths::normalize(&opts.cwd.to_string_lossy());
        let remaps = opts
            .remaps
            .iter()
            .map(|r| Remap::parse(r).map(|remap| anchor(remap, &cwd)))
            .collect::<Result<Vec<_>>>()?;
        Ok(Setup {
            policy,
            platform,
            root,
            remaps,
        })
    }

    /// Verifies the `[[suite]]` roster in the cargo workspace at the root (see
    /// [`roster::verify`]).
    pub(crate) fn roster(&self) -> Result<Roster> {
        Ok(self.roster_walking(&|_| false)?.0)
    }

    /// [`Setup::roster`], with the walk of the root for its `.rs` files and the paths that
    /// satisfy `also`.
    pub(super) fn roster_walking(&self, also: &dyn Fn(&str) -> bool) -> Result<(Roster, Walked)> {
        roster::verify(
            &self.policy.suites,
            &self.root,
            &self.platform.features(),
            also,
        )
    }
}

fn root_folder(opts: &CheckOptions, policy: &Policy) -> String {
    let folder = match (&opts.root, &policy.root) {
        (Some(root), _) => within(&opts.cwd, root),
        (None, Some(root)) => within(&opts.cwd.join(policy.folder()), Path::new(root)),
        (None, None) => opts.cwd.join(policy.folder()),
    };
    let spelled = folder.to_string_lossy();
    physical_root(&spelled).unwrap_or_else(|| paths::normalize(&spelled))
}

/// The root the kernel opens when `spelled` climbs out of a folder it names (`link/..` is the
/// folder above the link's target, not the folder that holds the link), as for report paths:
/// the part up to the last `..`, canonical, and the rest as spelled. `None` when it does not
/// climb, or that part does not exist.
fn physical_root(spelled: &str) -> Option<String> {
    let unified = spelled.replace('\\', "/");
    let parts: Vec<&str> = unified.split('/').collect();
    let cut = parts
        .iter()
        .rposition(|p| *p == "..")
        .map_or(0, |at| at + 1);
    let (head, tail) = parts.split_at(cut);
    paths::climbs_out(spelled)
        .then(|| std::fs::canonicalize(head.join("/")).ok())
        .flatten()
        .map(|real| paths::join(&paths::normalize(&real.to_string_lossy()), &tail.join("/")))
}

/// `path` taken relative to `base` unless it is absolute, on this system or as a Windows path
/// (`D:\\a\\p`, a root matching reports recorded on Windows, with `--no-walk`).
pub(super) fn within(base: &Path, path: &Path) -> PathBuf {
    let spelled = paths::normalize(&path.to_string_lossy());
    if paths::is_absolute(&spelled) {
        PathBuf::from(spelled)
    } else {
        base.join(path)
    }
}

/// A relative `TO` is relative to the current folder, as a user typing the flag expects.
fn anchor(remap: Remap, cwd: &str) -> Remap {
    if paths::is_absolute(&remap.to) {
        remap
    } else {
        Remap {
            to: paths::join(cwd, &remap.to),
            from: remap.from,
        }
    }
}
