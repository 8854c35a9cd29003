//! The side-by-side anchor of `ci/bench.sh`: reads a JSON file whole and parses it with serde,
//! keeping nothing (`std::fs::read` + `serde_json::from_slice::<IgnoredAny>`), on one core. A
//! reader's wall and CPU time over this anchor's, on the same file and machine, compare across
//! machines and loads better than raw times.
//!
//! Usage: `anchor FILE.json`; exit 0 when the file is JSON, 2 otherwise.

fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: anchor FILE.json");
        std::process::exit(2);
    };
    let parsed = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| {
            serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).map_err(|e| e.to_string())
        });
    if let Err(e) = parsed {
        eprintln!("anchor: {}: {e}", path.to_string_lossy());
        std::process::exit(2);
    }
}
