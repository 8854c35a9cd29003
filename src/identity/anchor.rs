//! Where a report's relative paths are anchored when its files exist both below the root and
//! below the cargo workspace root above it (a tie of [`Identity::resolver`](super::Identity)'s
//! count): the report's recorded manifest decides; when it cannot, covgate does not guess
//! (either choice can judge a file with another package's coverage) and says how to tell.

use std::path::Path;

use crate::identity::canonical::real;
use crate::paths;

/// Which anchor a tie goes to, or the error to give when nothing decides it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Tie {
    /// The root: the recorded manifest is the root's own.
    Root,
    /// The workspace root: the recorded manifest is the workspace's.
    Workspace,
    /// Undecided: the recorded manifest is neither's. The error message says how to tell.
    Unsure(String),
}

/// The folders a tie is decided between, and the report's recorded manifest folder.
pub(super) struct Folders<'a> {
    /// The root (absolute, normalised).
    pub(super) root: &'a str,
    /// The cargo workspace root above it.
    pub(super) workspace: &'a str,
    /// The folder of the report's `manifest_path`, normalised; `None` when it records none
    /// (a tracefile).
    pub(super) manifest: Option<&'a str>,
}

impl Folders<'_> {
    /// Which folder the recorded manifest names: the same folder on this machine (by canonical
    /// path), else by its spelling on the machine that made the report: a folder that ends in
    /// the root's path below the workspace (`/ci/ws/crates/units` for `crates/units`) is the
    /// root's, one named as the workspace folder is (`/ci/ws` for a local `…/ws`) the
    /// workspace's. Anything else decides nothing: the message names `origin`, `sample` (one
    /// of its report paths that moves) and how to tell which. No manifest decides nothing.
    pub(super) fn decide(&self, origin: &str, sample: &str) -> Tie {
        let Some(manifest) = self.manifest else {
            return Tie::Unsure(self.undecided(origin, sample, "it records no manifest"));
        };
        let local = real(manifest);
        if local.is_some() && local == real(self.workspace) {
            return Tie::Workspace;
        }
        if local.is_some() && local == real(self.root) {
            return Tie::Root;
        }
        let member = paths::strip_base(self.root, self.workspace).unwrap_or_default();
        if manifest.ends_with(&format!("/{member}")) {
            return Tie::Root;
        }
        if last(manifest) == last(self.workspace) {
            return Tie::Workspace;
        }
        let why = format!("the folder of its recorded manifest, `{manifest}`, is neither's");
        Tie::Unsure(self.undecided(origin, sample, &why))
    }

    /// The message for a tie `why` leaves undecided.
    fn undecided(&self, origin: &str, sample: &str, why: &str) -> String {
        let sample = paths::normalize(sample);
        let fix = if paths::is_absolute(&sample) {
            // A tie moves relative paths only: an absolute sample has a manifest.
            format!("{}={}", self.manifest.unwrap_or_default(), self.root)
        } else {
            let head = sample.split('/').next().unwrap_or_default();
            format!("{head}={}", paths::join(self.root, head))
        };
        format!(
            "{origin}: its file paths (e.g. `{sample}`) name files both below the root ({}) and \
             below the cargo workspace root ({}), and {why}: covgate cannot tell whose files \
             they are. If they are the root's, say so with `--remap-path-prefix {fix}`; if they \
             are the workspace's (another package, e.g. the workspace's root package), check \
             them with that package's policy or `--root {}`",
            self.root, self.workspace, self.workspace
        )
    }
}

impl Folders<'_> {
    /// The message for a report made on another machine whose recorded manifest folder is
    /// not the root's ([`Folders::decide`] says other than [`Tie::Root`]) while its files below
    /// that folder would be moved onto the root: `sample` is one of them.
    pub(super) fn stray(&self, origin: &str, sample: &str) -> String {
        let manifest = self.manifest.unwrap_or_default();
        let member = paths::strip_base(self.root, self.workspace).unwrap_or_default();
        format!(
            "{origin}: it was made on another machine in the package folder `{manifest}` (its \
             recorded manifest), whose files (e.g. `{}`) would be moved onto the root ({}); but \
             that folder's path does not end in the root's path below the cargo workspace root \
             (`{member}`), and no package folder here does, so they may be another package's \
             files. If they are the root's, say so with `--remap-path-prefix {manifest}={}`; if \
             they are another package's, check them with that package's policy or `--root`",
            paths::normalize(sample),
            self.root,
            self.root,
        )
    }
}

/// The local folder of `hint`, the recorded manifest folder of a report made on another
/// machine: the folder below `base` (the cargo workspace root, or the root when there is none)
/// named by the longest tail of `hint`'s path that names a package folder there (one holding a
/// `Cargo.toml`): `/ci/mono/crates/b` is `crates/b` of the workspace here. `None` when no tail
/// does.
pub(super) fn home(base: &str, hint: &str) -> Option<String> {
    let hint = paths::normalize(hint);
    let parts: Vec<&str> = hint
        .split('/')
        .filter(|part| !part.is_empty() && !part.contains(':'))
        .collect();
    (0..parts.len())
        .filter_map(|from| parts.get(from..))
        .map(|tail| paths::join(base, &tail.join("/")))
        .find(|folder| Path::new(folder).join("Cargo.toml").is_file())
}

/// The last component of a normalised folder.
fn last(folder: &str) -> &str {
    folder.rsplit('/').next().unwrap_or_default()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn folders<'a>(root: &'a str, workspace: &'a str, manifest: &'a str) -> Folders<'a> {
        Folders {
            root,
            workspace,
            manifest: Some(manifest),
        }
    }

    #[test]
    fn no_manifest_decides_nothing() {
        let root = "/nowhere-here/ws/crates/units";
        let ws = "/nowhere-here/ws";
        let none = Folders {
            root,
            workspace: ws,
            manifest: None,
        };
        let Tie::Unsure(message) = none.decide("r.info", "src/lib.rs") else {
            panic!("decided");
        };
        assert_eq!(
            message,
            "r.info: its file paths (e.g. `src/lib.rs`) name files both below the root \
             (/nowhere-here/ws/crates/units) and below the cargo workspace root \
             (/nowhere-here/ws), and it records no manifest: covgate cannot tell whose files \
             they are. If they are the root's, say so with `--remap-path-prefix \
             src=/nowhere-here/ws/crates/units/src`; if they are the workspace's (another \
             package, e.g. the workspace's root package), check them with that package's \
             policy or `--root /nowhere-here/ws`"
        );
    }

    #[test]
    fn a_manifest_spelled_elsewhere_decides_by_its_tail() {
        let root = "/nowhere-here/ws/crates/units";
        let ws = "/nowhere-here/ws";
        let member = folders(root, ws, "/ci/ws/crates/units");
        assert_eq!(member.decide("r.json", "src/lib.rs"), Tie::Root);
        let workspace = folders(root, ws, "/ci/ws");
        assert_eq!(workspace.decide("r.json", "src/lib.rs"), Tie::Workspace);
    }

    #[test]
    fn a_manifest_of_neither_decides_nothing_and_names_a_remap_that_does() {
        let root = "/nowhere-here/ws/crates/units";
        let ws = "/nowhere-here/ws";
        let other = folders(root, ws, "/ci/lengths");
        let Tie::Unsure(relative) = other.decide("r.json", "src/lib.rs") else {
            panic!("decided");
        };
        assert!(relative.starts_with("r.json: its file paths (e.g. `src/lib.rs`)"));
        assert!(relative.contains("recorded manifest, `/ci/lengths`, is neither's"));
        assert!(relative.ends_with("or `--root /nowhere-here/ws`"));
        assert!(relative.contains("--remap-path-prefix src=/nowhere-here/ws/crates/units/src`"));
        let Tie::Unsure(absolute) = other.decide("r.json", "/ci/lengths/src/lib.rs") else {
            panic!("decided");
        };
        assert!(absolute.contains("--remap-path-prefix /ci/lengths=/nowhere-here/ws/crates/units`"));
    }

    #[test]
    fn a_local_manifest_decides_by_its_canonical_folder() {
        let dir = tempfile::tempdir().unwrap();
        let ws = paths::normalize(&dir.path().to_string_lossy());
        let root = paths::join(&ws, "units");
        std::fs::create_dir(&root).unwrap();
        let at_ws = folders(&root, &ws, &ws);
        assert_eq!(at_ws.decide("r.json", "src/lib.rs"), Tie::Workspace);
        let at_root = folders(&root, &ws, &root);
        assert_eq!(at_root.decide("r.json", "src/lib.rs"), Tie::Root);
        let other = paths::join(&ws, "other");
        std::fs::create_dir(&other).unwrap();
        let elsewhere = folders(&root, &ws, &other);
        assert!(matches!(
            elsewhere.decide("r", "src/lib.rs"),
            Tie::Unsure(_)
        ));
    }
}
