//! The pages that describe this repository (its layout, architecture, robustness and
//! performance) name only files that exist: a file moved or removed leaves no stale path behind.

use std::path::Path;

/// The pages about covgate's own source (the other pages name files of a user's project).
const PAGES: [&str; 4] = [
    "docs/development.md",
    "docs/ARCHITECTURE.md",
    "docs/robustness.md",
    "docs/performance.md",
];

/// The repository's files (no build output), `/`-separated, relative to its root.
fn repository_files(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target" && e.file_name() != ".git")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .collect()
}

/// Each backticked name of a source or script file (`src/walk.rs`, `llvm_json/stream.rs`,
/// `lane.rs`, `ci/module-graph.py`) in `text`.
fn named_files(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|token| {
            [".rs", ".py", ".sh"].iter().any(|ext| token.ends_with(ext))
                && !token.starts_with('.')
                && token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
        })
        .collect()
}

#[test]
fn every_file_the_repository_pages_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = repository_files(root);
    let mut missing = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(root.join(page)).expect("read page");
        for name in named_files(&text) {
            // A path from the root must exist as written; a shorter name (`lane.rs`,
            // `llvm_json/stream.rs`, named in the context of its folder) must end some file's path.
            let rooted = name.split('/').count() > 1 && root.join(name).is_file();
            let suffix = format!("/{name}");
            let somewhere = files.iter().any(|f| f == name || f.ends_with(&suffix));
            if !(rooted || somewhere) {
                missing.push(format!("{page}: `{name}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "stale file names:\n{}",
        missing.join("\n")
    );
    // The check itself finds a stale name.
    assert_eq!(
        named_files("`src/gone.rs` and `document.rs`, not `a b.rs` or `.rs` files"),
        ["src/gone.rs", "document.rs"]
    );
}
