//! Writes a large LCOV tracefile by replicating a real one under renamed paths, and optionally a
//! source tree that makes `covgate check` of it run end to end, so the performance figures can
//! be reproduced:
//!
//! ```sh
//! cargo run --release --example gen_lcov -- \
//!     tests/fixtures/real/semver.lcov target/bench/lcov/big.lcov --copies 2700 \
//!     --sources target/bench/lcov
//! cd target/bench/lcov && covgate check big.lcov
//! ```
//!
//! Usage: `gen_lcov SOURCE.lcov OUT.lcov --copies N [--shards S] [--sources DIR]`.
//!
//! The tracefile is written `N` times; copy `i` renames each `SF:/x/y.rs` to
//! `SF:/x/copyNNNNN/y.rs` (under the same parent folder, `NNNNN` = `i` on five digits), so the
//! result has `N ×` the files (semver.lcov: 37 kB per copy, so 2700 copies ≈ 100 MB), with the same
//! per-file numbers. Every other line is copied as it is.
//!
//! With `--shards S` (default 1) the `N` copies are written `S` times over, one after the
//! other, like the tracefiles of `S` test binaries concatenated: the same `N ×` files, each in
//! `S` sections that covgate merges (counts summed), and `S ×` the bytes. Memory then follows
//! the files, not the size of the tracefile.
//!
//! With `--sources DIR`, the paths are made to point into `DIR` instead: the project folder of
//! the source tracefile (the common folder of its `SF` paths, without a last `src` component)
//! is replaced by `DIR` made absolute, so `/ci/semver/src/display.rs` becomes
//! `DIR/src/copy00001/display.rs`. Each such file is written with as many comment lines as the
//! highest line the tracefile mentions for it, and `DIR/coverage-policy.toml` includes
//! `src/**/*.rs` (functions and lines, threshold 0: LCOV has no regions, and a tracefile may
//! have no branches): `cd DIR && covgate check OUT.lcov` finds every file in scope.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    let text = std::fs::read_to_string(&args.source)?;
    let paths: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("SF:"))
        .map(str::trim)
        .collect();
    let base = project_folder(&paths);
    // Where the project folder goes: itself, or the absolute source tree.
    let target = match &args.sources {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            std::fs::canonicalize(dir)?.to_string_lossy().into_owned()
        }
        None => base.clone(),
    };
    let mut w = BufWriter::new(File::create(&args.out)?);
    for copy in (0..args.shards).flat_map(|_| 0..args.copies) {
        for line in text.lines() {
            match line.trim().strip_prefix("SF:") {
                Some(path) => writeln!(w, "SF:{}", moved(path.trim(), &base, &target, copy))?,
                None => writeln!(w, "{line}")?,
            }
        }
    }
    w.flush()?;
    if let Some(dir) = &args.sources {
        write_sources(dir, &text, &base, &target, args.copies)?;
    }
    Ok(())
}

/// The command line.
struct Args {
    source: PathBuf,
    out: PathBuf,
    copies: usize,
    shards: usize,
    sources: Option<PathBuf>,
}

impl Args {
    fn parse(args: impl Iterator<Item = String>) -> Result<Args, Box<dyn std::error::Error>> {
        const USAGE: &str =
            "usage: gen_lcov SOURCE.lcov OUT.lcov --copies N [--shards S] [--sources DIR]";
        let mut positional = Vec::new();
        let (mut copies, mut shards, mut sources) = (None, 1, None);
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--copies" => copies = Some(args.next().ok_or(USAGE)?.parse()?),
                "--shards" => shards = args.next().ok_or(USAGE)?.parse()?,
                "--sources" => sources = Some(PathBuf::from(args.next().ok_or(USAGE)?)),
                _ if arg.starts_with("--") => return Err(format!("{arg}?\n{USAGE}").into()),
                _ => positional.push(PathBuf::from(arg)),
            }
        }
        let [source, out] = <[PathBuf; 2]>::try_from(positional).map_err(|_| USAGE)?;
        Ok(Args {
            source,
            out,
            copies: copies.ok_or(USAGE)?,
            shards,
            sources,
        })
    }
}

/// The common folder of `paths`, without a last `src` component (`/ci/semver`).
fn project_folder(paths: &[&str]) -> String {
    let folder = |p: &str| {
        p.rsplit_once('/')
            .map_or(String::new(), |(d, _)| d.to_string())
    };
    let mut common = paths.first().map(|p| folder(p)).unwrap_or_default();
    for path in paths {
        while !(path.starts_with(&common) && path[common.len()..].starts_with('/')) {
            match common.rsplit_once('/') {
                Some((parent, _)) => common = parent.to_string(),
                None => return String::new(),
            }
        }
    }
    match common.strip_suffix("/src") {
        Some(project) => project.to_string(),
        None => common,
    }
}

/// `path` of copy `copy`: `base/rest/y.rs` → `target/rest/copyNNNNN/y.rs`.
fn moved(path: &str, base: &str, target: &str, copy: usize) -> String {
    let path = match path.strip_prefix(base) {
        Some(rest) => format!("{target}{rest}"),
        None => path.to_string(),
    };
    match path.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/copy{copy:05}/{name}"),
        None => path,
    }
}

/// The highest line each `SF` path's records mention (`DA`, `BRDA`, `FN`, `FNL`).
fn highest_lines(text: &str) -> BTreeMap<&str, u64> {
    let mut highest = BTreeMap::new();
    let mut current = None;
    for line in text.lines().map(str::trim) {
        let Some((tag, value)) = line.split_once(':') else {
            continue;
        };
        let fields: Vec<&str> = value.split(',').collect();
        let numbers: &[usize] = match tag {
            "SF" => {
                current = Some(value.trim());
                continue;
            }
            "DA" | "BRDA" => &[0],
            "FN" => &[0, 1],
            "FNL" => &[1, 2],
            _ => continue,
        };
        let top = numbers
            .iter()
            .filter_map(|i| fields.get(*i)?.trim().parse::<u64>().ok())
            .max();
        if let (Some(file), Some(top)) = (current, top) {
            let slot = highest.entry(file).or_insert(0);
            *slot = top.max(*slot);
        }
    }
    highest
}

/// The source file of every copied path under `dir`, and a policy in `dir`.
fn write_sources(
    dir: &Path,
    text: &str,
    base: &str,
    target: &str,
    copies: usize,
) -> std::io::Result<()> {
    std::fs::write(
        dir.join("coverage-policy.toml"),
        "# Written by examples/gen_lcov.rs: every generated source in scope.\n\
         [measure]\ninclude = [\"src/**/*.rs\"]\nmetrics = [\"functions\", \"lines\"]\nthreshold = 0\n",
    )?;
    for (path, lines) in highest_lines(text) {
        if !path.starts_with(base) {
            continue;
        }
        let body: String = (1..=lines).map(|n| format!("// line {n}\n")).collect();
        for copy in 0..copies {
            let file = PathBuf::from(moved(path, base, target, copy));
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(file, &body)?;
        }
    }
    Ok(())
}
