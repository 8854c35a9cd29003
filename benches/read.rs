//! Benchmarks of report reading through the public API (`covgate::report::read`).
//!
//! ```sh
//! cargo bench --bench read            # all
//! cargo bench --bench read -- medium  # only the generated inputs
//! ```
//!
//! Inputs: the real fixtures (`tests/fixtures/real/*.json`, `*.lcov`), and two generated medium
//! inputs written under `target/bench/` at the first run (kept for later runs): an llvm-cov JSON
//! export of 50 renamed copies of `walkdir.branch.json` (≈ 7 MB) and an LCOV tracefile of 100
//! copies of `semver.lcov` (≈ 3.7 MB, enough for the reader's parallel blocks). The copies are
//! made as `examples/gen_export.rs` and `examples/gen_lcov.rs` make them. For the large inputs
//! and whole `covgate check` runs, see `ci/bench.sh`.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn main() {
    divan::main();
}

const FIXTURES: [&str; 4] = [
    "semver.json",
    "semver.lcov",
    "walkdir.branch.json",
    "walkdir.branch.lcov",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> Vec<u8> {
    let path = root().join("tests/fixtures/real").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reads one real fixture.
#[divan::bench(args = FIXTURES)]
fn real(bencher: divan::Bencher, name: &str) {
    let bytes = fixture(name);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| covgate::report::read(name, divan::black_box(&bytes)).map(|r| r.files.len()));
}

/// Reads a generated export of 50 copies of `walkdir.branch.json`.
#[divan::bench(sample_count = 20)]
fn medium_json(bencher: divan::Bencher) {
    let bytes = generated("medium.json", medium_json_bytes);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| covgate::report::read("medium.json", &bytes).map(|r| r.files.len()));
}

/// Reads a generated tracefile of 100 copies of `semver.lcov`.
#[divan::bench(sample_count = 20)]
fn medium_lcov(bencher: divan::Bencher) {
    let bytes = generated("medium.lcov", medium_lcov_bytes);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| covgate::report::read("medium.lcov", &bytes).map(|r| r.files.len()));
}

/// The bytes of `target/bench/NAME`, made by `make` when the file is absent.
fn generated(name: &str, make: fn() -> Vec<u8>) -> Vec<u8> {
    let path: PathBuf = root().join("target/bench").join(name);
    if let Ok(bytes) = std::fs::read(&path) {
        return bytes;
    }
    let bytes = make();
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, &bytes));
    if let Err(e) = written {
        eprintln!("{}: not kept ({e})", path.display());
    }
    bytes
}

/// `/x/y.rs` as copy `copy` names it: `/x/copyNNNNN/y.rs`.
fn renamed(path: &str, copy: usize) -> String {
    match path.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/copy{copy:05}/{name}"),
        None => path.to_string(),
    }
}

fn medium_json_bytes() -> Vec<u8> {
    let mut doc: Value = serde_json::from_slice(&fixture("walkdir.branch.json"))
        .unwrap_or_else(|e| panic!("walkdir.branch.json: {e}"));
    let export = &mut doc["data"][0];
    for (list, key) in [("files", "filename"), ("functions", "filenames")] {
        let items = export[list].as_array().cloned().unwrap_or_default();
        let mut copies = Vec::with_capacity(items.len() * 50);
        for copy in 0..50 {
            for item in &items {
                let mut item = item.clone();
                match &mut item[key] {
                    Value::String(path) => *path = renamed(path, copy),
                    Value::Array(paths) => {
                        for path in paths.iter_mut() {
                            if let Value::String(p) = path {
                                *p = renamed(p, copy);
                            }
                        }
                    }
                    _ => {}
                }
                copies.push(item);
            }
        }
        export[list] = Value::Array(copies);
    }
    serde_json::to_vec(&doc).unwrap_or_default()
}

fn medium_lcov_bytes() -> Vec<u8> {
    let source = String::from_utf8(fixture("semver.lcov")).unwrap_or_default();
    let mut out = String::with_capacity(source.len() * 100);
    for copy in 0..100 {
        for line in source.lines() {
            match line.strip_prefix("SF:") {
                Some(path) => out.push_str(&format!("SF:{}", renamed(path, copy))),
                None => out.push_str(line),
            }
            out.push('\n');
        }
    }
    out.into_bytes()
}
