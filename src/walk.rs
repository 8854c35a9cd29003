//! The one walk of the root: which files exist under it. `covgate check` walks for the files an
//! `include` glob selects (to find files no report names, and to scan sources for markers); the
//! roster walks for the `.rs` files of the workspace's targets. A check with `[[suite]]` entries
//! walks once for both ([`Walked::select`]).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf, MAIN_SEPARATOR};

use walkdir::{DirEntry, WalkDir};

use crate::error::{Error, Result};
use crate::paths;
use crate::source;

/// What a walk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Walked {
    /// The selected source files: regular files, or symbolic links to regular files.
    pub files: BTreeSet<String>,
    /// Each selected path that is a FIFO, a device or a socket (or a link to one), with what it
    /// is (`a FIFO`, …), in walk order: such a path is skipped, never opened (a FIFO would block
    /// the read, a device such as `/dev/zero` never end). A report that names one makes the
    /// check an error.
    pub special: Vec<(String, &'static str)>,
    /// Each selected path that is a symbolic link the walk cannot follow (a loop, a link to
    /// nothing), with why, in walk order: such a path holds no source and is skipped.
    pub links: Vec<(String, String)>,
    /// Each folder the walk skips (hidden, or tagged as a cache) that holds selected files, in
    /// walk order: such files are not walked, and each folder gets a note.
    pub skipped: Vec<Skipped>,
    /// Each symbolic link to a folder outside the root (`src/sys` -> `/usr`), root-relative,
    /// with its target, in walk order: the walk does not follow it (it would walk a tree that
    /// is not the project's, as large as `/usr`), and each gets a note. A link to a file
    /// outside the root is followed: it is one file, named where the link is.
    pub outside: Vec<(String, PathBuf)>,
}

/// A folder the walk skips that holds files the walk's selection takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The folder, root-relative.
    pub folder: String,
    /// Why it is skipped: `a hidden folder`, `a cache folder (CACHEDIR.TAG)`.
    pub why: &'static str,
    /// The selected files in it, root-relative, in walk order.
    pub files: Vec<String>,
}

/// How many of a skipped folder's files its note names.
const NAMED: usize = 3;

/// The signature a `CACHEDIR.TAG` begins with (<https://bford.info/cachedir/>).
const SIGNATURE: &[u8; 43] = b"Signature: 8a477f597d28d172789f06886806bc55";

impl Walked {
    /// A note for each path in [`Walked::special`], then for each in [`Walked::links`], then
    /// for each folder in [`Walked::skipped`], each in walk order.
    pub(crate) fn notes(&self) -> Vec<String> {
        let special = self.special.iter().map(|(rel, kind)| {
            format!("{rel}: {kind}, not a regular file: skipped by the walk (not read)")
        });
        let links = self
            .links
            .iter()
            .map(|(rel, why)| format!("{rel}: {why}: skipped by the walk"));
        let skipped = self.skipped.iter().map(|s| {
            let named: Vec<&str> = s.files.iter().take(NAMED).map(String::as_str).collect();
            let more = if s.files.len() > NAMED { ", …" } else { "" };
            format!(
                "{}: {}, skipped by the walk, holds {} file(s) that `include` selects ({}{more}): \
                 they are not measured unless a report names them; move them out of the folder, \
                 or narrow `include` or `[[exclude]]` them",
                s.folder,
                s.why,
                s.files.len(),
                named.join(", ")
            )
        });
        let outside = self.outside.iter().map(|(rel, target)| {
            format!(
                "{rel}: a symbolic link to a folder outside the root ({}): not walked, so the \
                 files below it are not measured unless a report names them; move the root \
                 above its target, or replace the link with the folder",
                target.display()
            )
        });
        special.chain(links).chain(skipped).chain(outside).collect()
    }

    /// Takes the files of each skipped folder that satisfies `walk_through` into
    /// [`Walked::files`], as if the walk had not skipped it (and drops its note): a hidden or
    /// cache folder below a folder the policy names literally is walked like any other.
    pub(crate) fn admit(&mut self, walk_through: &dyn Fn(&str) -> bool) {
        let (through, skipped): (Vec<Skipped>, Vec<Skipped>) = std::mem::take(&mut self.skipped)
            .into_iter()
            .partition(|s| walk_through(&s.folder));
        self.skipped = skipped;
        self.files.extend(through.into_iter().flat_map(|s| s.files));
    }

    /// What a walk for the paths that satisfy `keep` alone would have found.
    pub(crate) fn select(&self, keep: &dyn Fn(&str) -> bool) -> Walked {
        Walked {
            files: self.files.iter().filter(|f| keep(f)).cloned().collect(),
            special: self
                .special
                .iter()
                .filter(|(rel, _)| keep(rel))
                .cloned()
                .collect(),
            links: self
                .links
                .iter()
                .filter(|(rel, _)| keep(rel))
                .cloned()
                .collect(),
            skipped: self
                .skipped
                .iter()
                .map(|s| Skipped {
                    files: s.files.iter().filter(|f| keep(f)).cloned().collect(),
                    ..s.clone()
                })
                .filter(|s| !s.files.is_empty())
                .collect(),
            outside: self.outside.clone(),
        }
    }
}

/// Checks that `root` is a folder before it is walked.
///
/// Errors: it is not (`the root ROOT is not a folder; …`).
pub(crate) fn folder(root: &Path) -> Result<()> {
    if root.is_dir() {
        return Ok(());
    }
    Err(Error::new(format!(
        "the root {} is not a folder; fix `root` in the policy or --root",
        root.display()
    )))
}

/// The files under `root` whose root-relative, `/`-separated path satisfies `included`.
/// `target/` at the root is skipped unseen; hidden folders and any folder holding a
/// `CACHEDIR.TAG` that begins with the cache signature (cargo's build folders) are skipped too,
/// but looked through for files `included` selects, which are listed in [`Walked::skipped`]
/// (nothing else inside them counts: their errors and links are not reported); symbolic links are followed (a link counts as what it points to),
/// except a link to a folder outside the root, which is not walked ([`Walked::outside`]: it
/// would walk a tree that is not the project's), and a link that cannot be followed: into a loop (a link to itself, a chain of links back
/// to one, a link to a folder that holds it) or to nothing (a missing target, a path through a
/// file); such a link holds no source, and one that `included` selects gets a note
/// ([`Walked::links`]). The caller has checked that `root` is a folder (see [`folder`]).
///
/// Errors: an entry that cannot be read while walking (`walking ROOT: …`): a folder that cannot
/// be listed, or a link whose target cannot be examined (permission denied): what is behind
/// either is unknown, so the walk does not guess that it holds no source.
pub(crate) fn walk(root: &Path, included: &dyn Fn(&str) -> bool) -> Result<Walked> {
    let mut found = Walked::default();
    let real_root = std::fs::canonicalize(root).unwrap_or_default();
    // Links to folders outside the root, met and not followed.
    let outside: RefCell<Vec<(PathBuf, PathBuf)>> = RefCell::default();
    let walker = WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .filter_entry(|e| !root_target(e) && !leaves_root(e, &real_root, &outside));
    // The skipped folder the walk is in, if any.
    let mut within: Option<PathBuf> = None;
    // The files whose name is not their path as written (not UTF-8, a `\\` on POSIX), by name.
    let mut renamed: HashMap<String, PathBuf> = HashMap::new();
    for entry in walker {
        let path = entry.as_ref().map_or_else(|e| e.path(), |e| Some(e.path()));
        if within
            .as_ref()
            .is_some_and(|dir| path.is_some_and(|p| p.starts_with(dir)))
        {
            note_skipped(&mut found, root, entry.ok(), included);
            continue;
        }
        within = None;
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let Some((path, why)) = broken_link(&e) else {
                    return Err(Error::new(format!("walking {}: {e}", root.display())));
                };
                let rel = relative(root, path);
                if included(&rel) {
                    found.links.push((rel, why));
                }
                continue;
            }
        };
        if let Some(why) = skip(&entry) {
            within = Some(entry.path().to_path_buf());
            found.skipped.push(Skipped {
                folder: relative(root, entry.path()),
                why,
                files: Vec::new(),
            });
            continue;
        }
        let Some(kind) = source_kind(&entry) else {
            continue;
        };
        let rel = relative(root, entry.path());
        match kind {
            _ if !included(&rel) => {}
            Ok(()) => {
                let spelled = entry.path().strip_prefix(root).unwrap_or(entry.path());
                if found.files.contains(&rel) {
                    let first = renamed.get(&rel).map_or(Path::new(&rel), PathBuf::as_path);
                    return Err(one_name(root, &rel, first, spelled));
                }
                let plain = spelled.to_str().map(|s| s.replace(MAIN_SEPARATOR, "/"));
                if plain.as_ref() != Some(&rel) {
                    renamed.insert(rel.clone(), spelled.to_path_buf());
                }
                found.files.insert(rel);
            }
            Err(kind) => found.special.push((rel, kind)),
        }
    }
    // A hidden link, or a link inside a skipped folder, is not reported, as a hidden folder or
    // anything else inside one is not.
    let skipped: Vec<PathBuf> = found.skipped.iter().map(|s| root.join(&s.folder)).collect();
    let hidden = |link: &Path| {
        let name = link.file_name().unwrap_or_default().to_string_lossy();
        name.starts_with('.') || skipped.iter().any(|folder| link.starts_with(folder))
    };
    found.outside = outside
        .into_inner()
        .into_iter()
        .filter(|(link, _)| !hidden(link))
        .map(|(link, target)| (relative(root, &link), target))
        .collect();
    found.skipped.retain(|s| !s.files.is_empty());
    Ok(found)
}

/// True when `entry` is a symbolic link to a folder outside `real_root` (the canonical root),
/// which the walk does not follow: the link and its target are added to `outside`.
fn leaves_root(
    entry: &DirEntry,
    real_root: &Path,
    outside: &RefCell<Vec<(PathBuf, PathBuf)>>,
) -> bool {
    if !(entry.path_is_symlink() && entry.file_type().is_dir()) {
        return false;
    }
    // The link was just followed to a folder, so its target resolves.
    let target = std::fs::canonicalize(entry.path()).unwrap_or_default();
    let leaves = !target.starts_with(real_root);
    if leaves {
        outside
            .borrow_mut()
            .push((entry.path().to_path_buf(), target));
    }
    leaves
}

/// The error for two files the walk gives one name `name`: `first` and `second`, root-relative
/// as on disk.
fn one_name(root: &Path, name: &str, first: &Path, second: &Path) -> Error {
    Error::new(format!(
        "walking {}: two files get one name, `{name}` (covgate names files in UTF-8 with `/` \
         separators: bytes that are not UTF-8 become U+FFFD, a `\\` a separator): {:?} and \
         {:?}; rename one of them, so that both are measured",
        root.display(),
        first,
        second
    ))
}

/// Notes `entry`, met inside the last skipped folder, when it is a file `included` selects.
fn note_skipped(
    found: &mut Walked,
    root: &Path,
    entry: Option<DirEntry>,
    included: &dyn Fn(&str) -> bool,
) {
    let Some(entry) = entry.filter(|e| e.file_type().is_file()) else {
        return;
    };
    let rel = relative(root, entry.path());
    if let (true, Some(skipped)) = (included(&rel), found.skipped.last_mut()) {
        skipped.files.push(rel);
    }
}

/// `path` relative to `root`, `/`-separated.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    paths::normalize(&rel.to_string_lossy())
}

/// What the walk takes `entry` for (links are followed, so a link counts as what it points
/// to): `Some(Ok(()))` a source file; `Some(Err(kind))` a FIFO, a device or a socket; `None` a
/// folder.
fn source_kind(entry: &DirEntry) -> Option<std::result::Result<(), &'static str>> {
    let file_type = entry.file_type();
    if file_type.is_dir() {
        return None;
    }
    Some(
        file_type
            .is_file()
            .then_some(())
            .ok_or(source::kind(file_type)),
    )
}

/// The link and why the walk skips it, when `error` is that of a symbolic link below the root
/// that cannot be followed: a link to a folder that holds it (walkdir's loop check), or a link
/// whose target cannot be reached for any reason but permissions (`ELOOP`: a link to itself or a
/// chain back to one; `ENOENT`, `ENOTDIR`: a link to nothing). `None` for any other error.
fn broken_link(error: &walkdir::Error) -> Option<(&Path, String)> {
    let path = error.path().filter(|_| error.depth() > 0)?;
    if error.loop_ancestor().is_some() {
        return Some((
            path,
            "a symbolic link into a loop (to a folder that holds it)".to_string(),
        ));
    }
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let cause = error.io_error().filter(|_| is_link)?;
    let denied = cause.kind() == std::io::ErrorKind::PermissionDenied;
    (!denied).then(|| {
        (
            path,
            format!("a symbolic link that cannot be followed ({cause})"),
        )
    })
}

/// True for `target/` at the root: skipped unseen.
fn root_target(entry: &DirEntry) -> bool {
    entry.depth() == 1 && entry.file_type().is_dir() && entry.file_name() == "target"
}

/// Why the walk skips the folder `entry` (not the root): hidden, or tagged as a cache.
fn skip(entry: &DirEntry) -> Option<&'static str> {
    if entry.depth() == 0 || !entry.file_type().is_dir() {
        return None;
    }
    if entry.file_name().to_string_lossy().starts_with('.') {
        return Some("a hidden folder");
    }
    tagged(&entry.path().join("CACHEDIR.TAG")).then_some("a cache folder (CACHEDIR.TAG)")
}

/// True when `tag` is a regular file that begins with the cache signature (an empty or other
/// `CACHEDIR.TAG` tags nothing, as the specification says). Never opens anything else.
fn tagged(tag: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; SIGNATURE.len()];
    std::fs::metadata(tag).is_ok_and(|m| m.is_file())
        && std::fs::File::open(tag).is_ok_and(|mut f| f.read_exact(&mut head).is_ok())
        && &head == SIGNATURE
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn rust(p: &str) -> bool {
        p.ends_with(".rs")
    }

    #[test]
    fn the_walk_skips_hidden_target_and_cache_folders() {
        let dir = tempfile::tempdir().unwrap();
        for rel in [
            "tests/a.rs",
            "tests/a/b.rs",
            "tests/data.txt",
            ".hidden/x.rs",
            "target/debug/y.rs",
            "sub/target/kept.rs",
            "build/z.rs",
            "build/.deep/d.rs",
            "build/notes.txt",
            "cache/CACHEDIR.TAG",
            "cache/w.rs",
            "short/CACHEDIR.TAG",
            "short/s.rs",
            "fake/CACHEDIR.TAG/x.txt",
            "fake/f.rs",
            ".empty/x.txt",
        ] {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let tag = "Signature: 8a477f597d28d172789f06886806bc55\n# a cache\n";
        std::fs::write(dir.path().join("build/CACHEDIR.TAG"), tag).unwrap();
        std::fs::write(dir.path().join("cache/CACHEDIR.TAG"), "").unwrap();
        std::fs::write(dir.path().join("short/CACHEDIR.TAG"), "Signature: 8a47").unwrap();
        std::fs::create_dir_all(dir.path().join("other")).unwrap();
        std::fs::write(dir.path().join("other/o.rs"), "").unwrap();
        let unsigned = "Signature: 00000000000000000000000000000000\n";
        std::fs::write(dir.path().join("other/CACHEDIR.TAG"), unsigned).unwrap();
        let walked = walk(dir.path(), &rust).unwrap();
        let found: Vec<&str> = walked.files.iter().map(String::as_str).collect();
        // An empty or short CACHEDIR.TAG (or a folder of that name) tags nothing.
        assert_eq!(
            found,
            [
                "cache/w.rs",
                "fake/f.rs",
                "other/o.rs",
                "short/s.rs",
                "sub/target/kept.rs",
                "tests/a.rs",
                "tests/a/b.rs"
            ]
        );
        let mut notes = walked.notes();
        notes.sort();
        assert_eq!(
            notes,
            [
                ".hidden: a hidden folder, skipped by the walk, holds 1 file(s) that `include` \
                 selects (.hidden/x.rs): they are not measured unless a report names them; move \
                 them out of the folder, or narrow `include` or `[[exclude]]` them",
                "build: a cache folder (CACHEDIR.TAG), skipped by the walk, holds 2 file(s) that \
                 `include` selects (build/.deep/d.rs, build/z.rs): they are not measured unless a \
                 report names them; move them out of the folder, or narrow `include` or \
                 `[[exclude]]` them",
            ]
        );
        let one = walked.select(&|p: &str| p == "build/z.rs");
        assert_eq!(one.skipped.len(), 1);
        assert_eq!(one.skipped[0].files, ["build/z.rs"]);
        folder(dir.path()).unwrap();
        let err = folder(&dir.path().join("tests/a.rs")).unwrap_err();
        assert!(err
            .message()
            .ends_with("is not a folder; fix `root` in the policy or --root"));
        let err = folder(&dir.path().join("missing")).unwrap_err();
        assert!(err.message().starts_with("the root "), "{err}");
        // A folder nested deeper than PATH_MAX cannot be opened by its full path, even by root.
        // Built bottom-up by renames, so that no call needs the long path.
        let long = "d".repeat(200);
        let mut chain = dir.path().join("chain0");
        std::fs::create_dir(&chain).unwrap();
        for i in 1..25 {
            let next = dir.path().join(format!("chain{i}"));
            std::fs::create_dir(&next).unwrap();
            std::fs::rename(&chain, next.join(&long)).unwrap();
            chain = next;
        }
        let err = walk(dir.path(), &rust).unwrap_err();
        assert!(
            err.message()
                .starts_with(&format!("walking {}: ", dir.path().display())),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_walk_skips_fifos_devices_and_sockets_with_a_note() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/sub")).expect("mkdir");
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").expect("a");
        symlink("a.rs", root.join("src/link.rs")).expect("link to a file");
        symlink("sub", root.join("src/dir.rs")).expect("link to a folder");
        symlink("gone.rs", root.join("src/dangling.rs")).expect("dangling link");
        symlink("/dev/null", root.join("src/null.rs")).expect("link to a device");
        let made = std::process::Command::new("mkfifo")
            .args([root.join("src/fifo.rs"), root.join("src/fifo.txt")])
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let _socket =
            std::os::unix::net::UnixListener::bind(root.join("src/sub/s.rs")).expect("bind");
        let walked = walk(root, &|p: &str| p.ends_with(".rs")).expect("walk");
        let files: Vec<&str> = walked.files.iter().map(String::as_str).collect();
        assert_eq!(files, ["src/a.rs", "src/link.rs"]);
        let mut notes = walked.notes();
        notes.sort();
        assert_eq!(
            notes,
            [
                "src/dangling.rs: a symbolic link that cannot be followed (No such file or directory (os error 2)): skipped by the walk",
                // Links are followed: the socket is reached through `src/dir.rs` too.
                "src/dir.rs/s.rs: a socket, not a regular file: skipped by the walk (not read)",
                "src/fifo.rs: a FIFO, not a regular file: skipped by the walk (not read)",
                "src/null.rs: a device, not a regular file: skipped by the walk (not read)",
                "src/sub/s.rs: a socket, not a regular file: skipped by the walk (not read)",
            ]
        );
    }

    /// `src/sys` -> `/usr` made the walk walk `/usr`: a link to a folder outside the root is
    /// not followed, and a note names it (none for a hidden link, or one in a skipped folder).
    /// Links to folders inside the root, and to files anywhere, are followed; cycles through
    /// them end at walkdir's loop check.
    #[cfg(unix)]
    #[test]
    fn links_to_folders_outside_the_root_are_not_followed() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("root");
        let away = dir.path().join("away");
        std::fs::create_dir_all(root.join("src/in")).expect("mkdir");
        std::fs::create_dir_all(root.join(".hidden")).expect("mkdir");
        std::fs::create_dir_all(&away).expect("mkdir");
        std::fs::write(away.join("x.rs"), "fn x() {}\n").expect("x");
        std::fs::write(root.join("src/in/a.rs"), "fn a() {}\n").expect("a");
        symlink(&away, root.join("src/sys")).expect("a link out of the root");
        symlink(away.join("x.rs"), root.join("src/x.rs")).expect("a link to a file outside");
        symlink("in", root.join("src/within")).expect("a link inside the root");
        symlink("../..", root.join("src/in/top")).expect("a cycle inside the root");
        symlink(&away, root.join("src/.away")).expect("a hidden link out of the root");
        symlink(&away, root.join(".hidden/away")).expect("a link in a hidden folder");
        let walked = walk(&root, &|p: &str| p.ends_with(".rs")).expect("walk");
        let files: Vec<&str> = walked.files.iter().map(String::as_str).collect();
        assert_eq!(files, ["src/in/a.rs", "src/within/a.rs", "src/x.rs"]);
        let real_away = std::fs::canonicalize(&away).expect("away");
        let outside: Vec<(&str, &Path)> = walked
            .outside
            .iter()
            .map(|(rel, target)| (rel.as_str(), target.as_path()))
            .collect();
        assert_eq!(outside, [("src/sys", real_away.as_path())]);
        let notes = walked.notes();
        assert!(
            notes.contains(&format!(
                "src/sys: a symbolic link to a folder outside the root ({}): not walked, so the \
                 files below it are not measured unless a report names them; move the root \
                 above its target, or replace the link with the folder",
                real_away.display()
            )),
            "{notes:?}"
        );
        assert_eq!(walked.select(&|_| false).outside, walked.outside);
    }

    #[cfg(unix)]
    #[test]
    fn links_that_cannot_be_followed_are_skipped_with_a_note() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/sub")).expect("mkdir");
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").expect("a");
        symlink("self.rs", root.join("src/self.rs")).expect("a link to itself");
        symlink("c.rs", root.join("src/b.rs")).expect("a chain of links");
        symlink("b.rs", root.join("src/c.rs")).expect("back to its start");
        symlink("a.rs/x.rs", root.join("src/through.rs")).expect("a path through a file");
        symlink("..", root.join("src/sub/up.rs")).expect("a folder that holds it");
        symlink("..", root.join("src/sub/up")).expect("a loop no glob selects");
        let walked = walk(root, &|p: &str| p.ends_with(".rs")).expect("walk");
        let files: Vec<&str> = walked.files.iter().map(String::as_str).collect();
        assert_eq!(files, ["src/a.rs"]);
        let mut notes = walked.notes();
        notes.sort();
        let looped = "cannot be followed (Too many levels of symbolic links (os error 40))";
        assert_eq!(
            notes,
            [
                format!("src/b.rs: a symbolic link that {looped}: skipped by the walk"),
                format!("src/c.rs: a symbolic link that {looped}: skipped by the walk"),
                format!("src/self.rs: a symbolic link that {looped}: skipped by the walk"),
                "src/sub/up.rs: a symbolic link into a loop (to a folder that holds it): skipped by the walk".to_string(),
                "src/through.rs: a symbolic link that cannot be followed (Not a directory (os error 20)): skipped by the walk".to_string(),
            ]
        );
        // A selection keeps the notes of its own paths.
        let c = walked.select(&|p: &str| p == "src/c.rs");
        assert_eq!(c.links.len(), 1);
        assert_eq!(c.links[0].0, "src/c.rs");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_target_that_cannot_be_examined_is_an_error() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let closed = root.join("closed");
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::create_dir(&closed).expect("mkdir");
        std::fs::write(closed.join("x.rs"), "fn x() {}\n").expect("x");
        symlink("../closed/x.rs", root.join("src/x.rs")).expect("link");
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let examined = std::fs::metadata(root.join("src/x.rs")).is_ok();
        let walked = walk(&root.join("src"), &|p: &str| p.ends_with(".rs"));
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        if examined {
            // Permissions do not bind this user (root): the link is followed.
            assert_eq!(walked.expect("walk").files.len(), 1);
        } else {
            let err = walked.unwrap_err();
            assert!(err.message().contains("Permission denied"), "{err}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn two_files_the_walk_would_give_one_name_are_an_error() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let message = |names: &[&[u8]]| {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::create_dir_all(dir.path().join("a")).expect("mkdir");
            for name in names {
                std::fs::write(dir.path().join(OsStr::from_bytes(name)), "").expect("write");
            }
            let err = walk(dir.path(), &rust).expect_err("one name");
            let prefix = format!("walking {}: two files get one name, ", dir.path().display());
            err.message()
                .strip_prefix(&prefix)
                .expect("walking")
                .to_string()
        };
        // A `\` in a name on a POSIX system is a separator to covgate.
        let err = message(&[b"a\\b.rs", b"a/b.rs"]);
        assert!(
            err.starts_with("`a/b.rs` (covgate names files in UTF-8"),
            "{err}"
        );
        assert!(
            err.contains(r#""a/b.rs""#) && err.contains(r#""a\\b.rs""#),
            "{err}"
        );
        let err = message(&[b"x\xff.rs", b"x\xfe.rs"]);
        assert!(
            err.contains(r#""x\xFF.rs""#) && err.contains(r#""x\xFE.rs""#),
            "{err}"
        );
        assert!(
            err.ends_with("; rename one of them, so that both are measured"),
            "{err}"
        );
    }

    #[test]
    fn a_selection_keeps_the_files_and_notes_of_its_paths() {
        let walked = Walked {
            files: ["a.rs".to_string(), "b.c".to_string()].into(),
            special: vec![
                ("f.rs".to_string(), "a FIFO"),
                ("g.c".to_string(), "a device"),
            ],
            links: Vec::new(),
            skipped: vec![Skipped {
                folder: ".g".to_string(),
                why: "a hidden folder",
                files: ["a", "b", "c", "d.rs"].map(|f| format!(".g/{f}")).to_vec(),
            }],
            outside: Vec::new(),
        };
        assert!(walked.notes()[2].starts_with(
            ".g: a hidden folder, skipped by the walk, holds 4 file(s) that `include` selects \
             (.g/a, .g/b, .g/c, …): "
        ));
        let rs = walked.select(&rust);
        assert_eq!(rs.files, BTreeSet::from(["a.rs".to_string()]));
        assert_eq!(
            rs.notes()[..2],
            [
                "f.rs: a FIFO, not a regular file: skipped by the walk (not read)",
                ".g: a hidden folder, skipped by the walk, holds 1 file(s) that `include` selects \
                 (.g/d.rs): they are not measured unless a report names them; move them out of \
                 the folder, or narrow `include` or `[[exclude]]` them"
            ]
        );
    }
}
