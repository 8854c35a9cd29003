//! Writes a large llvm-cov JSON export by replicating a real one under renamed paths, and
//! optionally a source tree that makes `covgate check` of it run end to end, so the performance
//! figures can be reproduced:
//!
//! ```sh
//! cargo run --release --example gen_export -- \
//!     tests/fixtures/real/walkdir.branch.json target/bench/json/big.json --copies 7000 \
//!     --sources target/bench/json
//! cd target/bench/json && covgate check big.json
//! ```
//!
//! Usage: `gen_export SOURCE.json OUT.json --copies N [--sources DIR] [--covered
//! [--failing-every K]]`.
//!
//! With `--covered`, every count of the source that is 0 (function records, regions, branch
//! sides) is written as 1 and every file summary as fully covered: an export of a project held
//! at 100%, where each file's summary is all a verdict needs. With `--failing-every K` as well,
//! every K-th copy (copies 0, K, 2K, …) is written as the source has it, so that its files below
//! 100% fail among covered ones: a project with a few files below the gate.
//!
//! Every file and function record of the source export is written `N` times; copy `i` renames
//! each path `/x/y.rs` to `/x/copyNNNNN/y.rs` (under the same parent folder, `NNNNN` = `i` on five
//! digits), so the result has `N ×` the files, with the same per-file numbers. The export's
//! `version` and `cargo_llvm_cov` object are kept (its `totals` are the source's, not multiplied).
//!
//! With `--sources DIR`, every renamed path below the folder of `cargo_llvm_cov.manifest_path`
//! also gets a source file at the same relative place under `DIR` (e.g.
//! `DIR/src/copy00001/dent.rs`) holding as many comment lines as the highest line the export
//! mentions for it, and `DIR/coverage-policy.toml` includes `src/**/*.rs` (threshold 100: the
//! files below 100% fail and have their uncovered items listed, the work a failing check does; no
//! branch metric when the export has no branches), so
//! `cd DIR && covgate check OUT.json` finds every file of the report in scope (covgate maps the
//! report's paths onto `DIR` through the manifest folder).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse(std::env::args().skip(1))?;
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&args.source)?)?;
    let original = doc["data"][0].clone();
    if args.covered {
        cover(&mut doc["data"][0]);
    }
    let export = &doc["data"][0];
    let failing = args.failing_every;
    let copy_of = |copy: usize| {
        if failing.is_some_and(|k| copy % k == 0) {
            &original
        } else {
            export
        }
    };
    let mut w = BufWriter::new(File::create(&args.out)?);
    write!(
        w,
        "{{\"type\":\"llvm.coverage.json.export\",\"version\":{},",
        doc["version"]
    )?;
    if let Some(cargo) = doc.get("cargo_llvm_cov") {
        write!(w, "\"cargo_llvm_cov\":{cargo},")?;
    }
    write!(w, "\"data\":[{{\"files\":[")?;
    write_copies(&mut w, &copy_of, "files", args.copies, "filename")?;
    write!(w, "],\"functions\":[")?;
    write_copies(&mut w, &copy_of, "functions", args.copies, "filenames")?;
    write!(w, "],\"totals\":{}}}]}}", export["totals"])?;
    w.flush()?;
    if let Some(dir) = &args.sources {
        let manifest = doc["cargo_llvm_cov"]["manifest_path"]
            .as_str()
            .ok_or("--sources needs the export's cargo_llvm_cov.manifest_path")?;
        let base = manifest.rsplit_once('/').map_or("", |(dir, _)| dir);
        let branches = export["files"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| f["branches"].as_array().is_some_and(|b| !b.is_empty()));
        write_sources(dir, base, &highest_lines(export), args.copies, branches)?;
    }
    Ok(())
}

/// The command line.
struct Args {
    source: PathBuf,
    out: PathBuf,
    copies: usize,
    sources: Option<PathBuf>,
    covered: bool,
    failing_every: Option<usize>,
}

impl Args {
    fn parse(args: impl Iterator<Item = String>) -> Result<Args, Box<dyn std::error::Error>> {
        const USAGE: &str = "usage: gen_export SOURCE.json OUT.json --copies N [--sources DIR] \
             [--covered [--failing-every K]]";
        let mut positional = Vec::new();
        let (mut copies, mut sources, mut covered, mut failing_every) = (None, None, false, None);
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--copies" => copies = Some(args.next().ok_or(USAGE)?.parse()?),
                "--sources" => sources = Some(PathBuf::from(args.next().ok_or(USAGE)?)),
                "--covered" => covered = true,
                "--failing-every" => failing_every = Some(args.next().ok_or(USAGE)?.parse()?),
                _ if arg.starts_with("--") => return Err(format!("{arg}?\n{USAGE}").into()),
                _ => positional.push(PathBuf::from(arg)),
            }
        }
        let [source, out] = <[PathBuf; 2]>::try_from(positional).map_err(|_| USAGE)?;
        if failing_every == Some(0) || (failing_every.is_some() && !covered) {
            return Err(format!("--failing-every needs --covered and K > 0\n{USAGE}").into());
        }
        Ok(Args {
            source,
            out,
            copies: copies.ok_or(USAGE)?,
            sources,
            covered,
            failing_every,
        })
    }
}

/// Makes every count of an export's records at least 1 and every file summary full.
fn cover(export: &mut Value) {
    let at_least_one = |v: &mut Value| {
        if v.as_u64() == Some(0) {
            *v = Value::from(1);
        }
    };
    for record in export["functions"].as_array_mut().into_iter().flatten() {
        at_least_one(&mut record["count"]);
        for region in record["regions"].as_array_mut().into_iter().flatten() {
            at_least_one(&mut region[4]);
        }
        for branch in record["branches"].as_array_mut().into_iter().flatten() {
            at_least_one(&mut branch[4]);
            at_least_one(&mut branch[5]);
        }
    }
    for file in export["files"].as_array_mut().into_iter().flatten() {
        for counts in file["summary"]
            .as_object_mut()
            .into_iter()
            .flat_map(|s| s.values_mut())
        {
            counts["covered"] = counts["count"].clone();
            counts["notcovered"] = Value::from(0);
            counts["percent"] = Value::from(100);
        }
    }
}

/// Writes the `array` (`files` or `functions`) of each copy's export, its paths (`key`) renamed.
fn write_copies<'a>(
    w: &mut impl Write,
    copy_of: &dyn Fn(usize) -> &'a Value,
    array: &str,
    copies: usize,
    key: &str,
) -> std::io::Result<()> {
    let mut first = true;
    for copy in 0..copies {
        for item in copy_of(copy)[array].as_array().into_iter().flatten() {
            let mut item = item.clone();
            rename(&mut item[key], copy);
            if !first {
                w.write_all(b",")?;
            }
            first = false;
            serde_json::to_writer(&mut *w, &item)?;
        }
    }
    Ok(())
}

fn rename(value: &mut Value, copy: usize) {
    match value {
        Value::String(path) => *path = renamed(path, copy),
        Value::Array(paths) => paths.iter_mut().for_each(|p| rename(p, copy)),
        _ => {}
    }
}

/// `/x/y.rs` as copy `copy` names it: `/x/copyNNNNN/y.rs`.
fn renamed(path: &str, copy: usize) -> String {
    match path.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/copy{copy:05}/{name}"),
        None => path.to_string(),
    }
}

/// The highest line each file of the export mentions: in its segments and branches, and in the
/// regions of the functions that point at it.
fn highest_lines(export: &Value) -> BTreeMap<String, u64> {
    let mut highest: BTreeMap<String, u64> = BTreeMap::new();
    let mut note = |file: &str, line: Option<u64>| {
        let slot = highest.entry(file.to_string()).or_insert(0);
        *slot = (*slot).max(line.unwrap_or(0));
    };
    let items = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let in_report: std::collections::BTreeSet<String> = items(&export["files"])
        .iter()
        .filter_map(|f| f["filename"].as_str().map(str::to_string))
        .collect();
    for file in items(&export["files"]) {
        let Some(name) = file["filename"].as_str() else {
            continue;
        };
        for segment in items(&file["segments"]) {
            note(name, segment[0].as_u64());
        }
        for branch in items(&file["branches"]) {
            note(name, branch[2].as_u64());
        }
    }
    for function in items(&export["functions"]) {
        for region in items(&function["regions"]) {
            let file_id = region[5].as_u64().unwrap_or(0) as usize;
            // Only files of `files[]`: the report's other files (tests left out of it) would
            // be on disk but in no report, which is not the shape of a real workspace.
            let name = function["filenames"][file_id].as_str();
            if let Some(name) = name.filter(|n| in_report.contains(*n)) {
                note(name, region[2].as_u64());
            }
        }
    }
    highest
}

/// One source file per renamed path below `base`, under `dir`, and a policy in `dir`.
fn write_sources(
    dir: &Path,
    base: &str,
    highest: &BTreeMap<String, u64>,
    copies: usize,
    branches: bool,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let metrics = if branches {
        ""
    } else {
        "metrics = [\"regions\", \"functions\", \"lines\"]\n"
    };
    std::fs::write(
        dir.join("coverage-policy.toml"),
        format!(
            "# Written by examples/gen_export.rs: every generated source in scope.\n\
             [measure]\ninclude = [\"src/**/*.rs\"]\n{metrics}threshold = 100\n"
        ),
    )?;
    for (path, lines) in highest {
        let Some(relative) = path
            .strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('/'))
        else {
            continue;
        };
        let text = comment_lines(*lines);
        for copy in 0..copies {
            let target = dir.join(renamed(relative, copy));
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(target, &text)?;
        }
    }
    Ok(())
}

/// `lines` lines of Rust comments.
fn comment_lines(lines: u64) -> String {
    (1..=lines).map(|n| format!("// line {n}\n")).collect()
}
