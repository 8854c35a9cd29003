//! Tests of the per-folder canonical paths: every answer is the one `canonicalize` gives.

use std::collections::BTreeSet;
use std::os::unix::fs::symlink;
use std::path::Path;

use super::*;

fn text(path: &Path) -> String {
    paths::normalize(&path.to_string_lossy())
}

fn write(path: &Path) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
    std::fs::write(path, "x").expect("file");
}

/// The folders `canonical` holds.
fn held(canonical: &Canonical) -> BTreeSet<String> {
    canonical.folders.borrow().keys().cloned().collect()
}

/// `dir` and every folder above it, as [`Canonical`] spells them (`/tmp/a` → `""`, `/tmp`,
/// `/tmp/a`).
fn chain(dir: &str) -> BTreeSet<String> {
    let above = dir.match_indices('/').map(|(at, _)| dir[..at].to_string());
    above.chain([dir.to_string()]).collect()
}

/// Checks that `canonical` and `canonicalize` agree on `path`, and returns the answer.
fn same(canonical: &Canonical, path: &str) -> Option<String> {
    let answer = canonical.real(path);
    assert_eq!(answer, real(path), "{path}");
    answer
}

/// A root with `src/lib.rs`, `src/linked.rs -> lib.rs`, `alias -> src`, `out -> <outside>/o.rs`,
/// a dangling link and a file `src/file.rs`; and the outside folder.
fn tree() -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("root");
    let outside = tempfile::tempdir().expect("outside");
    write(&root.path().join("src/lib.rs"));
    write(&root.path().join("src/file.rs"));
    write(&outside.path().join("o.rs"));
    symlink("lib.rs", root.path().join("src/linked.rs")).expect("link");
    symlink(root.path().join("src"), root.path().join("alias")).expect("link");
    symlink(outside.path().join("o.rs"), root.path().join("src/out.rs")).expect("link");
    symlink("gone.rs", root.path().join("src/dangling.rs")).expect("link");
    (root, outside)
}

#[test]
fn a_plain_file_is_its_canonical_folder_and_name() {
    let (root, _outside) = tree();
    let canonical = Canonical::default();
    let real_root = real(&text(root.path())).expect("root");
    let lib = text(&root.path().join("src/lib.rs"));
    assert_eq!(
        same(&canonical, &lib),
        Some(format!("{real_root}/src/lib.rs"))
    );
    let file = text(&root.path().join("src/file.rs"));
    assert_eq!(
        same(&canonical, &file),
        Some(format!("{real_root}/src/file.rs"))
    );
    // One listing served both files; the folders above it gave its canonical path.
    let src = text(&root.path().join("src"));
    assert_eq!(held(&canonical), chain(&src));
}

#[test]
fn links_resolve_as_canonicalize_resolves_them() {
    let (root, outside) = tree();
    let canonical = Canonical::default();
    let real_root = real(&text(root.path())).expect("root");
    let lib = Some(format!("{real_root}/src/lib.rs"));
    // Through a linked folder, and a linked file.
    let through = text(&root.path().join("alias/lib.rs"));
    assert_eq!(same(&canonical, &through), lib);
    let linked = text(&root.path().join("src/linked.rs"));
    assert_eq!(same(&canonical, &linked), lib);
    // A link below the root to a file outside it.
    let out = text(&root.path().join("src/out.rs"));
    let o = real(&text(&outside.path().join("o.rs")));
    assert_eq!(same(&canonical, &out), o);
    assert!(o.is_some_and(|o| !o.starts_with(&real_root)));
    // A link to nothing.
    let dangling = text(&root.path().join("src/dangling.rs"));
    assert_eq!(same(&canonical, &dangling), None);
}

#[test]
fn what_is_not_a_listed_file_is_left_to_canonicalize() {
    let (root, _outside) = tree();
    let canonical = Canonical::default();
    let base = text(root.path());
    // Missing file, missing folder, a folder path that is a file, a name in another case.
    for rel in [
        "src/missing.rs",
        "nowhere/lib.rs",
        "src/lib.rs/x.rs",
        "src/LIB.rs",
    ] {
        assert_eq!(same(&canonical, &format!("{base}/{rel}")), None, "{rel}");
    }
    // A folder itself, and paths without a folder part or under `/`.
    assert!(same(&canonical, &format!("{base}/src")).is_some());
    assert!(same(&canonical, "Cargo.toml").is_some());
    assert_eq!(same(&canonical, "no-such-name"), None);
    assert_eq!(same(&canonical, "/"), Some("/".to_string()));
    assert!(same(&canonical, "/tmp").is_some());
    assert!(same(&canonical, "..").is_some());
}

#[test]
fn past_the_bound_the_cache_starts_afresh_but_for_the_folders_above() {
    let root = tempfile::tempdir().expect("root");
    let base = text(root.path());
    let real_root = real(&base).expect("root");
    let above = chain(&base);
    let room = FOLDERS - above.len();
    for n in 0..=room {
        write(&root.path().join(format!("d{n}/f.rs")));
    }
    let canonical = Canonical::default();
    let file = |n: usize| format!("{base}/d{n}/f.rs");
    for n in 0..room {
        assert_eq!(
            same(&canonical, &file(n)),
            Some(format!("{real_root}/d{n}/f.rs"))
        );
    }
    assert_eq!(canonical.folders.borrow().len(), FOLDERS);
    // A folder already held does not clear the cache; a new one does, but for the folders
    // above it.
    assert!(same(&canonical, &file(0)).is_some());
    assert_eq!(canonical.folders.borrow().len(), FOLDERS);
    let last = same(&canonical, &file(room));
    assert_eq!(last, Some(format!("{real_root}/d{room}/f.rs")));
    assert_eq!(held(&canonical), chain(&format!("{base}/d{room}")));
}

#[test]
fn a_folder_below_a_linked_folder_is_resolved_through_the_link() {
    let (root, _outside) = tree();
    let canonical = Canonical::default();
    let real_root = real(&text(root.path())).expect("root");
    write(&root.path().join("src/deep/d.rs"));
    // `alias` is a link: the folders below it take its target's canonical path.
    let deep = text(&root.path().join("alias/deep/d.rs"));
    assert_eq!(
        same(&canonical, &deep),
        Some(format!("{real_root}/src/deep/d.rs"))
    );
    let plain = text(&root.path().join("src/deep/d.rs"));
    assert_eq!(
        same(&canonical, &plain),
        Some(format!("{real_root}/src/deep/d.rs"))
    );
    // A folder below a folder that cannot be listed: left to `canonicalize`.
    assert_eq!(
        same(&canonical, &format!("{real_root}/src/lib.rs/x/y.rs")),
        None
    );
}

#[test]
fn paths_too_long_for_a_system_call_are_left_to_canonicalize() {
    let root = tempfile::tempdir().expect("root");
    let base = text(root.path());
    // A folder whose canonical path is 4 bytes short of the limit, reached through a short link.
    let mut long = base.clone();
    while long.len() < PATH_MAX - 4 {
        let room = PATH_MAX - 4 - long.len() - 1;
        long.push('/');
        long.push_str(&"d".repeat(room.clamp(1, 200)));
    }
    assert_eq!(long.len(), PATH_MAX - 4);
    std::fs::create_dir_all(&long).expect("long folder");
    symlink(&long, root.path().join("l")).expect("link");
    // What lies below it is made from inside it: its own paths are too long for `mkdir`.
    let made = std::process::Command::new("sh")
        .args(["-c", ": > x.rs && : > y && mkdir subd && : > subd/f.rs"])
        .current_dir(&long)
        .status()
        .expect("sh");
    assert!(made.success());
    let canonical = Canonical::default();
    // `y` fits; `x.rs` and `subd` do not, nor what `subd` holds.
    assert_eq!(
        same(&canonical, &format!("{base}/l/y")),
        Some(format!("{long}/y"))
    );
    assert_eq!(same(&canonical, &format!("{base}/l/x.rs")), None);
    assert_eq!(same(&canonical, &format!("{base}/l/subd/f.rs")), None);
    // A path of thousands of components is not looked up folder by folder.
    let deep = format!("{base}/{}f.rs", "a/".repeat(5000));
    assert_eq!(same(&canonical, &deep), None);
}
