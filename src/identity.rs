//! File identity: one name for one real file, whatever spelling a report or the walk used.
//!
//! [`crate::paths`] turns a report path into an absolute local path by spelling alone. This
//! module then looks at the file system, in this order:
//!
//! 1. A report recorded on a case-insensitive system (see [`PathCase`]) takes the on-disk
//!    spelling: each component is looked up case-insensitively in its folder. Two entries of one
//!    folder that differ only by case are an error naming both. Any other report's path that is
//!    not on disk as spelled, and is not ASCII, is looked up the same way but with case: names
//!    compare in Unicode normalisation form C (a macOS report's NFD name is the NFC file). A
//!    report recorded on Windows compares names as NTFS does, without normalisation: the
//!    KELVIN SIGN is not `K` there.
//! 2. A path that exists is replaced by its canonical path (symbolic links resolved), as the root
//!    and every walked file are. Two spellings of one real file are therefore one file. (The
//!    `canonical` submodule answers as `canonicalize` does, from one listing per folder.) A path
//!    that climbs out of a folder it names (`build/../src/x.c`) is the file the kernel opens
//!    when that differs from its lexical spelling (`build` a link elsewhere): it is then named
//!    by its canonical path, as the compiler's `open` found it.
//! 3. The file is named by the walk's root-relative spelling when the walk found it, else by its
//!    canonical path relative to the canonical root, else (not on disk, or a link below the root
//!    to something outside it) by its lexical spelling.
//!
//! Each report is resolved with its own hints ([`Identity::resolver`]): whether it folds case,
//! and where its relative paths are anchored.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::identity::canonical::{real, Canonical};
use crate::paths::{self, Location, PathCase, Remap, Resolver};
use crate::report::Report;
use crate::source;
use rayon::prelude::*;
use unicode_normalization::UnicodeNormalization;

mod anchor;
mod canonical;

/// What is known of the root and the files on disk, for naming report files.
#[derive(Debug)]
pub(crate) struct Identity {
    known: Known,
    /// What the file system answered, for the lookups made on this thread.
    caches: Caches,
    /// What the file system answered to the lookups of earlier reports' files, one cache per
    /// task that made them ([`Identity::locate_files`]): the next report's tasks take them up,
    /// so that reports of files in one folder list it once between them, not once each (5,000
    /// tracefiles of one file each in a folder of 5,000 files took 30 s).
    pool: Mutex<Vec<Caches>>,
}

/// The root and the walk's files: what every thread naming files shares.
#[derive(Debug)]
struct Known {
    root: String,
    real_root: String,
    workspace: Option<String>,
    /// Walked files by canonical path: their root-relative walk spelling.
    walked: BTreeMap<String, String>,
    /// The walk's files, one spelling per real file; `None` when the root was not walked.
    files: Option<BTreeSet<String>>,
    /// The links to folders outside the root that the walk did not follow: each target's
    /// canonical path and the link's root-relative spelling ([`Identity::through_links`]).
    linked: Vec<(String, String)>,
}

/// What the file system answered: one per thread.
#[derive(Debug, Default)]
struct Caches {
    /// Folder listings, for spelling paths as on disk.
    listings: RefCell<HashMap<String, Vec<String>>>,
    /// Canonical paths of walked and report files, a listing per folder.
    canonical: Canonical,
}

impl Identity {
    /// The identity of files under `root` (absolute, normalised), with the files the walk found
    /// (root-relative), if the root was walked. Walked files that are one real file (a link and
    /// its target) are kept once, under the target's own spelling when the walk found it.
    pub(crate) fn new(root: &str, walked: Option<&BTreeSet<String>>) -> Identity {
        let root = paths::normalize(root);
        let real_root = real(&root).unwrap_or_else(|| root.clone());
        let caches = Caches::default();
        let mut by_real = BTreeMap::new();
        for rel in walked.into_iter().flatten() {
            let lexical = paths::join(&root, rel);
            let real = caches.canonical.real(&lexical).unwrap_or(lexical);
            let own = paths::strip_base(&real, &real_root) == Some(rel.as_str());
            let kept = by_real.entry(real).or_insert_with(|| rel.clone());
            if own {
                kept.clone_from(rel);
            }
        }
        Identity {
            known: Known {
                files: walked.map(|_| by_real.values().cloned().collect()),
                workspace: workspace_root(&root),
                walked: by_real,
                real_root,
                root,
                linked: Vec::new(),
            },
            caches,
            pool: Mutex::default(),
        }
    }

    /// The same identity, naming a file below the target of a link to a folder outside the
    /// root (which the walk does not follow, [`crate::walk::Walked::outside`]) as the walk would
    /// have: through the link (`src/gen/out.rs` for `gen/out.rs` when `src/gen` -> `gen`).
    pub(crate) fn through_links(mut self, links: &[(String, std::path::PathBuf)]) -> Identity {
        self.known.linked = links
            .iter()
            .map(|(rel, target)| (paths::normalize(&target.to_string_lossy()), rel.clone()))
            .collect();
        self
    }

    /// The walk's files, one spelling per real file; `None` when the root was not walked.
    pub(crate) fn walked(&self) -> Option<&BTreeSet<String>> {
        self.known.files.as_ref()
    }

    /// The resolver for one report: `remaps`, folding case as `case` says for its paths, its
    /// manifest folder as a hint, and its relative paths anchored at the root or, for an
    /// export or a tracefile alike, at the cargo workspace root above the root when more of
    /// its files exist there (`cargo llvm-cov --remap-path-prefix` writes paths relative to the
    /// workspace root); on a tie, as the recorded manifest says ([`Self::tie`]; a tracefile
    /// records none, so a tie is an error). The
    /// manifest folder is a hint when `hints` is set (no `--root`, no policy `root`) and it is
    /// not a local folder (the report was made elsewhere): its files move to the package
    /// folder here that the longest tail of its path names ([`anchor::home`]: a sibling
    /// member's files land in the sibling, outside the root), else to the anchor.
    ///
    /// Errors: a tie that the recorded manifest does not decide ([`anchor::Folders::decide`]);
    /// a hint that names no package folder here and is not the root's while its files would
    /// be moved onto the root ([`Self::stray`]).
    pub(crate) fn resolver(
        &self,
        report: &Report,
        remaps: &[Remap],
        case: PathCase,
        hints: bool,
    ) -> Result<Resolver> {
        let fold = case.folds(report.files.iter().map(|f| f.path.as_str()));
        let windows = report
            .files
            .iter()
            .any(|f| paths::recorded_on_windows(&f.path));
        let hint = report
            .manifest_path
            .as_deref()
            .filter(|_| hints)
            .map(manifest_folder)
            .filter(|folder| !Path::new(folder).is_dir());
        let root = self.known.root.as_str();
        let base = self.known.workspace.as_deref().unwrap_or(root);
        let home = hint.as_deref().and_then(|hint| anchor::home(base, hint));
        let bare = Resolver::new(root, remaps.to_vec(), None)
            .folding(fold)
            .normalising(!windows);
        let mut plain = Resolver::new(root, remaps.to_vec(), hint.clone())
            .folding(fold)
            .normalising(!windows);
        if let Some(home) = &home {
            plain = plain.homed(home);
        }
        match self.known.workspace.as_deref() {
            Some(ws) if ws != root => {
                let anchored = plain.clone().anchored(ws);
                let (at_ws, at_root) = (self.found(report, &anchored), self.found(report, &plain));
                let manifest = report.manifest_path.as_deref();
                let to_ws = at_ws > at_root
                    || (at_ws == at_root && self.tie(report, manifest, ws, &plain)?);
                if !to_ws && home.is_none() {
                    self.stray(report, hint.as_deref(), ws, (&plain, &bare))?;
                }
                Ok(if to_ws { anchored } else { plain })
            }
            _ => Ok(plain),
        }
    }

    /// Checks that the recorded manifest folder `hint` of a report made on another machine,
    /// which names no package folder here, is the root's ([`anchor::Folders::decide`]) when
    /// `plain` (`bare` without the hint) would move its files onto the root: a sibling
    /// member's export (`/ci/mono/crates/b`) must not be judged as the root's files.
    ///
    /// Errors: some file would be moved and the folder is not the root's; the message says
    /// how to tell.
    fn stray(
        &self,
        report: &Report,
        hint: Option<&str>,
        ws: &str,
        (plain, bare): (&Resolver, &Resolver),
    ) -> Result<()> {
        let moved = report
            .files
            .iter()
            .find(|f| plain.absolute(&f.path) != bare.absolute(&f.path));
        let (Some(sample), Some(hint)) = (moved, hint) else {
            return Ok(());
        };
        let folders = anchor::Folders {
            root: &self.known.root,
            workspace: ws,
            manifest: Some(hint),
        };
        match folders.decide(&report.origin, &sample.path) {
            anchor::Tie::Root => Ok(()),
            _ => Err(Error::new(folders.stray(&report.origin, &sample.path))),
        }
    }

    /// True when a tie (as many of `report`'s files exist below the root as below the
    /// workspace root `ws`, some of them at another place) goes to the workspace root, as the
    /// folder of the recorded `manifest` says: see [`anchor::Folders::decide`] (`plain` anchors
    /// at the root).
    ///
    /// Errors: the recorded manifest is neither's, or there is none (a tracefile); the message
    /// says how to tell which.
    fn tie(
        &self,
        report: &Report,
        manifest: Option<&str>,
        ws: &str,
        plain: &Resolver,
    ) -> Result<bool> {
        let anchored = plain.clone().anchored(ws);
        let sample = report.files.iter().find(|f| {
            let there = anchored.absolute(&f.path);
            there != plain.absolute(&f.path) && Path::new(&there).exists()
        });
        let Some(sample) = sample else {
            return Ok(false);
        };
        let folder = manifest.map(manifest_folder);
        let folders = anchor::Folders {
            root: &self.known.root,
            workspace: ws,
            manifest: folder.as_deref(),
        };
        Ok(match folders.decide(&report.origin, &sample.path) {
            anchor::Tie::Root => false,
            anchor::Tie::Workspace => true,
            anchor::Tie::Unsure(message) => return Err(Error::new(message)),
        })
    }

    /// Names each file of `report` (its path resolved by `resolver`), in order: on every core,
    /// each core naming a run of neighbouring files (which share their folders' listings).
    ///
    /// Errors (for a file): when the resolver folds case, a folder holds two entries that
    /// differ only by case and the path could be either.
    pub(crate) fn locate_files(
        &self,
        resolver: &Resolver,
        report: &Report,
    ) -> Vec<Result<Location>> {
        let (known, pool) = (&self.known, &self.pool);
        let run = report
            .files
            .len()
            .div_ceil(4 * rayon::current_num_threads())
            .max(1);
        let runs: Vec<Vec<Result<Location>>> = report
            .files
            .par_chunks(run)
            .map(|files| {
                let caches = pool.lock().ok().and_then(|mut p| p.pop());
                let caches = caches.unwrap_or_default();
                let located = (files.iter())
                    .map(|file| known.locate(&caches, resolver, &file.path))
                    .collect();
                let _ = pool.lock().map(|mut p| p.push(caches));
                located
            })
            .collect();
        runs.into_iter().flatten().collect()
    }

    /// Forgets what the file system answered to [`Identity::locate_files`], once every report
    /// is named (the caches hold folder listings).
    pub(crate) fn forget_lookups(&self) {
        let _ = self.pool.lock().map(|mut p| p.clear());
    }

    /// How many of a report's files `resolver` places on an existing file.
    fn found(&self, report: &Report, resolver: &Resolver) -> usize {
        report
            .files
            .iter()
            .filter(|f| {
                self.known
                    .spelled(&self.caches, resolver, &f.path)
                    .is_ok_and(|path| Path::new(&path).exists())
            })
            .count()
    }
}

impl Known {
    /// Names one report path (`raw`, resolved by `resolver`), with the file system's answers
    /// kept in `caches`.
    fn locate(&self, caches: &Caches, resolver: &Resolver, raw: &str) -> Result<Location> {
        let lexical = self.spelled(caches, resolver, raw)?;
        // A path that climbs out of a folder through a link names what the kernel opens, not
        // what the lexical spelling names; it is then spelled by its canonical path.
        let known = caches.canonical.real(&lexical);
        let (real, spelled) = match resolver.physical(raw).and_then(|p| real(&p)) {
            Some(real) if known.as_ref() != Some(&real) => (real.clone(), real),
            _ => match known {
                Some(real) => (real, lexical),
                None => return Ok(resolver.locate(&lexical)),
            },
        };
        if let Some(walked) = self.walked.get(&real) {
            return Ok(Location::Inside(walked.clone()));
        }
        let linked = self.linked.iter().find_map(|(target, link)| {
            paths::strip_base(&real, target).map(|rest| paths::join(link, rest))
        });
        if let Some(rel) = linked {
            return Ok(Location::Inside(rel));
        }
        // A link below the root to something outside it (`src/lib.rs` -> `/dev/zero`) keeps
        // its own spelling: the file is where the report and the policy see it.
        Ok(match paths::strip_base(&real, &self.real_root) {
            Some(rel) => Location::Inside(rel.to_string()),
            None => resolver.locate(&spelled),
        })
    }

    /// The absolute local path of `raw`, spelled as on disk when the resolver folds case, or
    /// when it is not on disk as spelled and holds a character that is not ASCII (a name
    /// spelled in another Unicode normalisation form: macOS records NFD, git checks out NFC).
    fn spelled(&self, caches: &Caches, resolver: &Resolver, raw: &str) -> Result<String> {
        let absolute = resolver.absolute(raw);
        let names = Names {
            fold: resolver.folds(),
            nfc: resolver.normalises(),
        };
        if names.fold || !(absolute.is_ascii() || Path::new(&absolute).exists()) {
            self.on_disk(caches, &absolute, names)
        } else {
            Ok(absolute)
        }
    }

    /// `absolute` with each component spelled as on disk, found by [`same_name`] (without
    /// case when `fold` is set); from the first component not on disk on, the spelling is kept.
    /// Below the root only the part after the root is looked up (the root is spelled by the
    /// user, not by the report).
    ///
    /// Errors: with `fold`, two entries of a folder match a component. (Without `fold`, such
    /// a component, an NFC and an NFD name side by side, keeps its spelling.)
    fn on_disk(&self, caches: &Caches, absolute: &str, names: Names) -> Result<String> {
        let (prefix, rest) = match paths::strip_base(absolute, &self.root) {
            Some(rel) => (self.root.clone(), rel),
            None => paths::split_prefix(absolute),
        };
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
        let mut path = prefix;
        for (at, part) in parts.iter().enumerate() {
            match caches.matching(&path, part, names).as_slice() {
                [only] => path = paths::join(&path, only),
                [first, second, ..] if names.fold => {
                    return Err(Error::new(format!(
                        "the path is recorded on a case-insensitive system, and two files on disk \
                         differ from it only by case (or Unicode normalisation): {} and {}; \
                         rename one, or pass --path-case sensitive",
                        paths::join(&path, first),
                        paths::join(&path, second)
                    )))
                }
                _ => {
                    let tail = parts.get(at..).unwrap_or_default().join("/");
                    return Ok(paths::join(&path, &tail));
                }
            }
        }
        Ok(path)
    }
}

impl Caches {
    /// The entries of the folder `dir` that are `name` by [`same_name`], sorted.
    fn matching(&self, dir: &str, name: &str, names: Names) -> Vec<String> {
        let mut listings = self.listings.borrow_mut();
        let entries = listings
            .entry(dir.to_string())
            .or_insert_with(|| listing(dir));
        entries
            .iter()
            .filter(|n| same_name(n, name, names))
            .cloned()
            .collect()
    }
}

/// How a report's names compare with the names in a folder on disk.
#[derive(Debug, Clone, Copy)]
struct Names {
    /// Without case ([`paths::eq_folded`]): a report recorded on a case-insensitive system.
    fold: bool,
    /// In Unicode normalisation form C: a report not recorded on Windows (APFS and HFS+
    /// compare canonically equivalent names as one, NTFS compares UTF-16 units).
    nfc: bool,
}

/// True when two file names are one name as `names` says: under Unicode normalisation (NFC)
/// when it is set, and but for case when `fold` is set; as APFS and NTFS compare names.
fn same_name(a: &str, b: &str, names: Names) -> bool {
    let (a, b) = match names.nfc {
        true => (nfc(a), nfc(b)),
        false => (Cow::Borrowed(a), Cow::Borrowed(b)),
    };
    a == b || (names.fold && paths::eq_folded(&a, &b))
}

/// `name` in Unicode normalisation form C (composed: `e` + U+0301 becomes `é`).
fn nfc(name: &str) -> Cow<'_, str> {
    if name.is_ascii() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(name.nfc().collect())
    }
}

/// The sorted entry names of a folder (none when it cannot be read).
fn listing(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The folder of a manifest path, normalised (`/ws/p/Cargo.toml` → `/ws/p`).
fn manifest_folder(manifest: &str) -> String {
    let normalized = paths::normalize(manifest);
    normalized
        .rsplit_once('/')
        .map_or(String::new(), |(dir, _)| dir.to_string())
}

/// The nearest folder at or above `root` whose `Cargo.toml` declares a `[workspace]`. A
/// `Cargo.toml` that is not a regular file (a FIFO, a link to a device: never opened), is larger
/// than [`source::MAX_MANIFEST`], cannot be read or is not TOML declares nothing: the search goes
/// on above it.
pub(crate) fn workspace_root(root: &str) -> Option<String> {
    Path::new(root)
        .ancestors()
        .find(|dir| declares_workspace(&dir.join("Cargo.toml")))
        .map(|dir| paths::normalize(&dir.to_string_lossy()))
}

fn declares_workspace(manifest: &Path) -> bool {
    source::read(manifest, source::MAX_MANIFEST)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|table| table.contains_key("workspace"))
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn workspace_of(root: &Path) -> Option<String> {
        workspace_root(&root.to_string_lossy())
    }

    #[cfg(unix)]
    #[test]
    fn a_cargo_toml_that_is_a_fifo_or_a_device_declares_nothing_and_is_never_opened() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = dir.path().join("ws");
        let root = ws.join("crate");
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::write(
            ws.join("Cargo.toml"),
            "[workspace]\nmembers = [\"crate\"]\n",
        )
        .expect("ws");
        let manifest = root.join("Cargo.toml");
        // Opening the FIFO would block for ever; it is skipped from its type.
        let made = std::process::Command::new("mkfifo")
            .arg(&manifest)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let found = workspace_of(&root).expect("the workspace above");
        assert_eq!(found, paths::normalize(&ws.to_string_lossy()));
        std::fs::remove_file(&manifest).expect("rm");
        // Read whole, /dev/zero would grow until memory ran out.
        std::os::unix::fs::symlink("/dev/zero", &manifest).expect("symlink");
        assert_eq!(workspace_of(&root), Some(found.clone()));
        std::fs::remove_file(&manifest).expect("rm");
        std::fs::write(&manifest, "[workspace]\n").expect("own");
        assert_eq!(
            workspace_of(&root),
            Some(paths::normalize(&root.to_string_lossy()))
        );
    }

    /// A report of LCOV files with no record, at `paths`.
    fn report_of(origin: &str, paths: &[String]) -> Report {
        let file = |path: &String| crate::report::FileData {
            path: path.clone(),
            coverage: crate::report::FileCoverage::Lcov(Box::default()),
        };
        Report {
            origin: origin.to_string(),
            kind: crate::report::ReportKind::Lcov,
            manifest_path: None,
            has_branch_data: false,
            has_mcdc_data: false,
            has_function_data: true,
            has_line_data: true,
            files: paths.iter().map(file).collect(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn reports_of_files_in_one_folder_list_it_once_between_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let names: Vec<String> = (0..40).map(|i| format!("src/f{i}.rs")).collect();
        for name in &names {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        let root = paths::normalize(&dir.path().to_string_lossy());
        let identity = Identity::new(&root, None);
        let resolver = Resolver::new(&root, Vec::new(), None);
        // One report a file, then one report of them all (named on every core).
        for (i, name) in names.iter().enumerate() {
            let report = report_of(&format!("{i}.lcov"), std::slice::from_ref(name));
            let located = identity.locate_files(&resolver, &report);
            let located: Vec<Location> = located.into_iter().map(|l| l.expect("named")).collect();
            assert_eq!(located, [Location::Inside(name.clone())]);
        }
        let all = identity.locate_files(&resolver, &report_of("all.lcov", &names));
        let all: Vec<Location> = all.into_iter().map(|l| l.expect("named")).collect();
        let inside: Vec<Location> = names.iter().cloned().map(Location::Inside).collect();
        assert_eq!(all, inside);
        // Each folder below `/` down to `src` is listed once per cache, and a cache is made
        // only when every other is in use: not once per report (41 reports).
        let folders = root.matches('/').count() + 1;
        let pool = identity.pool.lock().expect("pool");
        let listed: usize = pool.iter().map(|c| c.canonical.listings()).sum();
        assert!(!pool.is_empty() && pool.len() <= rayon::current_num_threads().max(2) * 4);
        assert!(listed <= pool.len() * folders, "{listed} listings");
        assert!(listed >= folders, "{listed} listings");
        drop(pool);
        identity.forget_lookups();
        assert!(identity.pool.lock().expect("pool").is_empty());
    }

    #[test]
    fn a_cargo_toml_over_the_limit_or_not_utf8_declares_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("big");
        std::fs::create_dir_all(&root).expect("mkdir");
        let mut text = "[workspace]\n".to_string();
        text.push_str(&"#\n".repeat(source::MAX_MANIFEST as usize / 2));
        std::fs::write(root.join("Cargo.toml"), &text).expect("big");
        let own = Some(paths::normalize(&root.to_string_lossy()));
        assert_ne!(workspace_of(&root), own);
        std::fs::write(root.join("Cargo.toml"), b"[workspace]\n# \xff\n").expect("latin1");
        assert_ne!(workspace_of(&root), own);
        std::fs::write(root.join("Cargo.toml"), b"[workspace]\n").expect("plain");
        assert_eq!(workspace_of(&root), own);
    }
}
