//! Writes a large llvm-cov JSON export by replicating a real one under renamed paths, so the
//! performance figures in the README can be reproduced:
//!
//! ```sh
//! cargo run --release --example gen_export -- tests/fixtures/real/walkdir.branch.json 3000 target/big.json
//! ```
//!
//! Every file and function record of the source export is written `COPIES` times; copy `i`
//! renames each path `/x/y.rs` to `/x/copyNNNNN/y.rs` (under the same parent folder), so the
//! result has `COPIES ×` the files, with the same per-file numbers.

use std::fs::File;
use std::io::{BufWriter, Write};

use serde_json::Value;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [source, copies, out] = args.as_slice() else {
        return Err("usage: gen_export SOURCE.json COPIES OUT.json".into());
    };
    let copies: usize = copies.parse()?;
    let doc: Value = serde_json::from_slice(&std::fs::read(source)?)?;
    let export = &doc["data"][0];
    let mut w = BufWriter::new(File::create(out)?);
    write!(
        w,
        "{{\"type\":\"llvm.coverage.json.export\",\"version\":{},\"data\":[{{\"files\":[",
        doc["version"]
    )?;
    write_copies(&mut w, export["files"].as_array(), copies, "filename")?;
    write!(w, "],\"functions\":[")?;
    write_copies(&mut w, export["functions"].as_array(), copies, "filenames")?;
    write!(w, "],\"totals\":{}}}]}}", export["totals"])?;
    w.flush()?;
    Ok(())
}

fn write_copies(
    w: &mut impl Write,
    items: Option<&Vec<Value>>,
    copies: usize,
    key: &str,
) -> std::io::Result<()> {
    let mut first = true;
    for copy in 0..copies {
        for item in items.into_iter().flatten() {
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
        Value::String(path) => {
            if let Some((dir, name)) = path.rsplit_once('/') {
                *path = format!("{dir}/copy{copy:05}/{name}");
            }
        }
        Value::Array(paths) => paths.iter_mut().for_each(|p| rename(p, copy)),
        _ => {}
    }
}
