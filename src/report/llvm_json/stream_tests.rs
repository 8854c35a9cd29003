//! Tests of [`super`]: the reader against the reference reader ([`super::super::oracle`]) on
//! fixtures, shapes and malformed documents, at every window size.

use std::io::Read;

use super::*;
use crate::report::llvm_json::{oracle, FunctionStats, Instances};

/// [`super::read`] without the files to recount (none in these tests but where said).
fn read(origin: &str, input: Input<'_>, detail: &Detail<'_>, sizes: Sizes) -> Result<Report> {
    super::read(origin, input, detail, sizes).map(|(report, _)| report)
}
use crate::report::{FileCoverage, ReportKind};

fn fixtures() -> Vec<std::path::PathBuf> {
    let mut paths = Vec::new();
    for dir in ["tests/fixtures/real", "tests/fixtures/llvm"] {
        for entry in std::fs::read_dir(dir).expect("fixture folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    assert!(paths.len() >= 8, "{paths:?}");
    paths
}

#[test]
fn every_fixture_reads_as_the_reference_reads_it_at_any_size() {
    for path in fixtures() {
        let bytes = std::fs::read(&path).expect("fixture");
        let reference = oracle::read("f.json", &bytes).expect("reference");
        let sizes = [
            (1 << 20, 1 << 16, 0),
            (1000, 300, 5000),
            (64, 7, 30),
            (1, 1, 2),
        ];
        for (chunk, piece, gap) in sizes {
            let sizes = Sizes { chunk, piece, gap };
            let mut input = bytes.as_slice();
            let fast = read("f.json", Input::Shared(&mut input), &Detail::All, sizes)
                .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            assert_eq!(
                format!("{fast:?}"),
                format!("{reference:?}"),
                "{} at {chunk}/{piece}",
                path.display()
            );
        }
    }
}

const FULL: &str = r#"{"lines":{"count":2,"covered":2},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1}}"#;
const PART: &str = r#"{"lines":{"count":2,"covered":1},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":2,"covered":1},"branches":{"count":0,"covered":0}}"#;

fn entry(name: &str, summary: &str) -> String {
    format!(r#"{{"filename":{name},"summary":{summary},"segments":[[1,1,1,true,true,false]]}}"#)
}

fn rec(name: &str, file: &str) -> String {
    format!(
        r#"{{"branches":[[2,5,2,9,1,0,0,0,4]],"count":1,"filenames":[{file}],"name":{name},"regions":[[1,1,3,2,1,0,0,0],[2,5,2,9,0,0,0,0]]}}"#
    )
}

fn doc(export: &str) -> String {
    format!(
        r#"{{"data":[{export}],"type":"llvm.coverage.json.export","version":"2.0.1","cargo_llvm_cov":{{"manifest_path":"/m/Cargo.toml"}},"extra":[1,{{"x":null}}]}}"#
    )
}

fn standard() -> String {
    // The last record expands four macro files into b.rs (its main file is the last one).
    let expanding = r#"{"count":0,"filenames":["h1","h2","h3","h4","b.rs"],"name":"fe","regions":[[1,1,1,9,0,0,0,0],[1,1,1,9,0,4,0,1],[1,1,1,9,0,4,1,1],[1,1,1,9,0,4,2,1],[1,1,1,9,0,4,3,1],[2,1,2,5,0,4,0,0]]}"#;
    // A record of a.rs that expands a macro of b.rs: read (b.rs keeps records), then not
    // kept unless a.rs keeps its own.
    let into_a = r#"{"count":1,"filenames":["a.rs","b.rs"],"name":"fx","regions":[[5,1,9,2,1,0,0,0],[6,1,6,9,1,0,1,1],[1,1,1,5,1,1,0,0]]}"#;
    format!(
        r#"{{"files":[{},{}],"functions":[{},{},{},{expanding},{into_a}],"totals":{{}}}}"#,
        entry(r#""a.rs""#, FULL),
        entry(r#""b.rs""#, PART),
        rec(r#""fa""#, r#""a.rs""#),
        rec(r#""fb""#, r#""b.rs""#),
        rec(r#""fc""#, r#""c.rs""#),
    )
}

/// The files of a report with how many records each kept (`-` for none), or its error.
fn outcome(text: &str, detail: &Detail<'_>, sizes: Sizes) -> String {
    let mut input = text.as_bytes();
    match read("t.json", Input::Shared(&mut input), detail, sizes) {
        Ok(report) => report
            .files
            .iter()
            .map(|f| match &f.coverage {
                FileCoverage::Llvm(file) if file.functions.is_some() => {
                    let records = file.functions.as_deref().unwrap_or_default();
                    format!("{}:{}", f.path, records.len())
                }
                _ => format!("{}:-", f.path),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Err(e) => format!("error {}", e.message()),
    }
}

/// The reader's report or error, as text.
fn streamed(text: &[u8], detail: &Detail<'_>, sizes: Sizes) -> String {
    let mut input = text;
    match read("t.json", Input::Shared(&mut input), detail, sizes) {
        Ok(report) => format!("{report:?}"),
        Err(e) => e.message(),
    }
}

/// The reference reader's report or error, as text.
fn reference(text: &[u8]) -> String {
    match oracle::read("t.json", text) {
        Ok(report) => format!("{report:?}"),
        Err(e) => e.message(),
    }
}

const ONE: Sizes = Sizes {
    chunk: 1,
    piece: 1,
    gap: 0,
};

/// The reader gives what the reference reader gives, at every size.
fn as_reference(text: &str) {
    let want = reference(text.as_bytes());
    for sizes in [SIZES, SMALL, ONE] {
        assert_eq!(
            streamed(text.as_bytes(), &Detail::All, sizes),
            want,
            "{text} at {sizes:?}"
        );
    }
}

const NONE_MARKED: Detail<'static> = Detail::Needed(&|_| false);
const SMALL: Sizes = Sizes {
    chunk: 7,
    piece: 5,
    gap: 3,
};

#[test]
fn a_file_id_past_the_filenames_is_an_error() {
    let text = doc(&standard());
    for (from, to) in [
        // A region of a.rs's record (a.rs keeps nothing unless marked).
        ("[1,1,1,5,1,1,0,0]", "[1,1,1,5,1,7,0,0]"),
        // An expansion of b.rs's record (b.rs keeps its misses).
        ("[1,1,1,9,0,4,3,1]", "[1,1,1,9,0,4,9,1]"),
        // A branch.
        (
            r#""name":"fx","#,
            r#""name":"fx","branches":[[5,1,5,2,1,0,2,0,4]],"#,
        ),
    ] {
        let bad = text.replace(from, to);
        assert_ne!(bad, text, "{from}");
        as_reference(&bad);
        let e = reference(bad.as_bytes());
        assert!(e.contains("names a file id past the record's"), "{e}");
        for sizes in [SIZES, SMALL, ONE] {
            assert_eq!(
                outcome(&bad, &NONE_MARKED, sizes),
                format!("error {e}"),
                "{to}"
            );
        }
    }
}

#[test]
fn records_are_kept_as_their_file_needs() {
    for sizes in [SIZES, SMALL] {
        let text = doc(&standard());
        assert_eq!(outcome(&text, &Detail::All, sizes), "a.rs:2 b.rs:2");
        assert_eq!(outcome(&text, &NONE_MARKED, sizes), "a.rs:- b.rs:1");
        let marked = |name: &str| name == "a.rs";
        assert_eq!(
            outcome(&text, &Detail::Needed(&marked), sizes),
            "a.rs:2 b.rs:1"
        );
        let bom = format!("\u{FEFF}{text}\n");
        assert_eq!(outcome(&bom, &NONE_MARKED, sizes), "a.rs:- b.rs:1");
    }
    let mut input = doc(&standard()).into_bytes();
    let report = read(
        "t.json",
        Input::Shared(&mut input.as_slice()),
        &NONE_MARKED,
        SMALL,
    )
    .expect("read");
    assert_eq!(report.manifest_path.as_deref(), Some("/m/Cargo.toml"));
    assert!(matches!(
        report.kind,
        ReportKind::LlvmJson { summary_only: false, ref version } if version == "2.0.1"
    ));
    // Kept for its misses only: a record that ran keeps no name.
    let Some(FileCoverage::Llvm(b)) = report.files.get(1).map(|f| &f.coverage) else {
        panic!("b.rs");
    };
    let records = b.functions.as_deref().unwrap_or_default();
    let names: Vec<&str> = records.iter().map(|r| &*r.name).collect();
    // `fb` and `fe` are one instantiation group (both start at 1:1), merged as read, under
    // its first record's name; that record misses a region, so its name is also kept as the
    // instantiation its uncovered region comes from.
    assert_eq!(names, ["fb"]);
    assert_eq!(records[0].origin(|o| &o.regions), "fb");
    assert_eq!(
        records[0].instances,
        Instances {
            records: 2,
            executed: 1
        }
    );
    input.clear();
}

#[test]
fn elements_the_lane_declines_are_read_by_serde() {
    // An escaped name or filename, and `mcdc_records: null`, are not in the lane.
    let export = format!(
        r#"{{"files":[{},{}],"functions":[{},{},{}]}}"#,
        entry(r#""a\u002ers""#, FULL),
        entry(r#""b.rs""#, PART),
        rec(r#""f\u0061""#, r#""a.rs""#),
        rec(r#""f\u0062""#, r#""b.rs""#).replace(r#""branches":"#, r#""mcdc_records":null,"b":"#),
        rec(r#""f\u0063""#, r#""c.rs""#),
    );
    for sizes in [SIZES, SMALL] {
        assert_eq!(outcome(&doc(&export), &Detail::All, sizes), "a.rs:1 b.rs:1");
        assert_eq!(outcome(&doc(&export), &NONE_MARKED, sizes), "a.rs:- b.rs:1");
    }
    // A summary-only export, and empty arrays.
    let summary_only = format!(r#"{{"files":[{}]}}"#, entry(r#""a.rs""#, FULL));
    assert_eq!(outcome(&doc(&summary_only), &NONE_MARKED, SIZES), "a.rs:-");
    assert_eq!(
        outcome(&doc(r#"{"files":[],"functions":[]}"#), &NONE_MARKED, SMALL),
        ""
    );
}

#[test]
fn anything_unusual_is_read_or_worded_as_the_reference_does() {
    let good = doc(&standard());
    let type_first = good.replacen(r#"{"data""#, r#"{"type":"x","data""#, 1);
    let cases = [
        format!("{good} x"),
        good.replace(r#","version":"2.0.1""#, ""),
        good.replace(r#""data":"#, r#""other":"#),
        good.replace(r#""type":"llvm.coverage.json.export""#, r#""type":"other""#),
        type_first,
        good.replace(r#","type":"#, r#" "type":"#),
        good.replace(r#""type":"llvm.coverage.json.export""#, r#""type":7"#),
        good.replace(
            r#""version":"2.0.1""#,
            r#""version":"2.0.1","version":"2.0.1""#,
        ),
        good.replace(
            r#""type":"llvm.coverage.json.export""#,
            r#""type":"llvm.coverage.json.export","type":"llvm.coverage.json.export""#,
        ),
        good.replace(r#""extra":"#, r#""data":[{"files":[]}],"extra":"#),
        good.replace(r#""cargo_llvm_cov":{"#, r#""cargo_llvm_cov":5,"x":{"#),
        good.replacen(r#""data":"#, r#""data" "#, 1),
        good.replace(r#""version":"2.0.1""#, r#""version":5"#),
        good.replace(r#""extra":[1,"#, r#""extra":[1,}"#),
        r#"{"type":"llvm.coverage.json.export""#.to_string(),
        good.replacen(r#""data":[{"files""#, r#""data":{"x":[{"files""#, 1),
        good.replacen(r#""data":[{"files""#, r#""data":[5,{"files""#, 1),
        good.replacen(r#""data":[{"files""#, r#""data":[{5:1,"files""#, 1),
        good.replacen(r#""files":["#, r#""files" ["#, 1),
        good.replace(r#","totals":{}"#, r#","functions":[],"totals":{}"#),
        good.replace(r#","totals":{}"#, r#","totals":{,}"#),
        r#"{"data":[{"files":[]"#.to_string(),
        r#"{"data":[{"files":["#.to_string(),
        doc(r#"{"totals":{}}"#),
        good.replace("\"data\":[{", "\"data\":[{\"files\":[]},{"),
        good.replacen(r#""files":"#, r#""functions":[],"files":"#, 1),
        good.replacen(r#""files":"#, r#""files":[],"files":"#, 1),
        good.replace(r#","totals":{}"#, r#" "totals":{}"#),
        good.replace(r#""files":"#, r#""fils":"#),
        good.replace(r#""count":2,"covered":1"#, r#""count":1,"covered":2"#),
        good.replace(r#""filename":"a.rs""#, r#""filename":"""#),
        good.replace(r#""count":1,"filenames""#, r#""count":-1,"filenames""#),
        good.replace(
            r#""filenames":["c.rs"]"#,
            r#""filenames":["c.rs"],"name":"x""#,
        ),
        good.replace(r#"[2,5,2,9,0,0,0,0]]"#, r#"[2,5,2,9,0,0,0,0],]"#),
        good.replace(r#"[2,5,2,9,0,0,0,0]]"#, r#"[2,5,2,9,"x",0,0,0]]"#),
        good.replace(r#""files":["#, r#""files":{"#),
        good.get(..good.len() / 2).unwrap_or_default().to_string(),
        "[]".to_string(),
        String::new(),
        " \n".to_string(),
    ];
    for text in &cases {
        as_reference(text);
        // The detail kept changes no error.
        let all = outcome(text, &Detail::All, SMALL);
        if all.starts_with("error ") {
            assert_eq!(outcome(text, &NONE_MARKED, SMALL), all, "{text}");
        }
    }
}

#[test]
fn values_cut_by_the_window_are_read_whole() {
    // A number at the end of a window may go on: the reader reads more before taking it.
    let text = doc(&standard()).replace(r#""extra":[1,"#, r#""n":1234567,"extra":[1,"#);
    for chunk in 1..40 {
        let sizes = Sizes {
            chunk,
            piece: 3,
            gap: 4,
        };
        assert_eq!(
            outcome(&text, &NONE_MARKED, sizes),
            "a.rs:- b.rs:1",
            "{chunk}"
        );
    }
}

/// A value nested deeper than serde's depth limit (128) where the reader skips (an unknown key
/// of a record, of a `files[]` entry, of the root) is skipped at any depth, as the reference
/// reader skips it, wherever the window ends. It was an error that the export "ends early"
/// when the element did not fit the window: a check that stopped at the depth limit took the
/// window's end for the export's.
#[test]
fn deep_values_where_the_reader_skips_are_skipped_whatever_the_window() {
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let good = doc(&standard());
    let cases = [
        good.replacen(
            r#""count":1,"filenames""#,
            &format!(r#""x":{deep},"count":1,"filenames""#),
            1,
        ),
        good.replacen(r#""segments":"#, &format!(r#""x":{deep},"segments":"#), 1),
        good.replacen(r#""extra":"#, &format!(r#""x":{deep},"extra":"#), 1),
    ];
    for text in &cases {
        assert!(!reference(text.as_bytes()).contains("error"), "{text}");
        as_reference(text);
        for chunk in [64, 300, 500, 700] {
            let sizes = Sizes {
                chunk,
                piece: 50,
                gap: 8,
            };
            assert_eq!(
                streamed(text.as_bytes(), &Detail::All, sizes),
                reference(text.as_bytes()),
                "{chunk}"
            );
        }
    }
}

#[test]
fn duplicate_keys_anywhere_are_errors() {
    let good = doc(&standard());
    let entry_a = entry(r#""a.rs""#, FULL);
    let cases = [
        (
            good.replace(r#""extra":"#, r#""extra":1,"extra":"#),
            "extra",
            1,
            0,
        ),
        (
            good.replace(
                r#""manifest_path":"/m/Cargo.toml""#,
                r#""manifest_path":"/m/Cargo.toml","manifest_path":"x""#,
            ),
            "manifest_path",
            1,
            0,
        ),
        (
            good.replace(r#","extra""#, r#","cargo_llvm_cov":{},"extra""#),
            "cargo_llvm_cov",
            1,
            0,
        ),
        (
            good.replace(r#""totals":{}"#, r#""totals":{},"totals":{}"#),
            "totals",
            1,
            0,
        ),
        (
            good.replace(r#""totals":{}"#, r#""totals":{"a":[{"b":1,"b":2}]}"#),
            "b",
            1,
            0,
        ),
        (
            good.replacen(r#""files":"#, r#""files":[],"files":"#, 1),
            "files",
            1,
            0,
        ),
        (
            good.replacen(r#""data":"#, r#""data":[],"data":"#, 1),
            "data",
            1,
            0,
        ),
        (
            good.replace(
                &entry_a,
                &entry_a.replace(r#""segments""#, r#""x":{},"x":{},"segments""#),
            ),
            "x",
            1,
            0,
        ),
        (
            good.replace(r#""name":"fa""#, r#""name":"fa","more":{"k":[1],"k":[2]}"#),
            "k",
            1,
            0,
        ),
    ];
    for (text, key, line, _) in &cases {
        as_reference(text);
        let e = oracle::read("t.json", text.as_bytes()).expect_err(key);
        let want = format!("t.json:{line}:");
        assert!(e.message().starts_with(&want), "{}", e.message());
        assert!(
            e.message()
                .contains(&format!("duplicate key `{key}` in one object")),
            "{}",
            e.message()
        );
    }
    // Many distinct keys: not the lane's, but a valid export all the same.
    let keys: String = (0..17).map(|i| format!(r#""k{i}":{i},"#)).collect();
    let many = good.replace(r#"{"branches""#, &format!("{{{keys}\"branches\""));
    assert_eq!(
        outcome(&many, &Detail::All, SIZES),
        outcome(&good, &Detail::All, SIZES)
    );
    as_reference(&many);
}

#[test]
fn read_errors_stop_the_reader() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let e = read("t.json", Input::Shared(&mut Failing), &Detail::All, SIZES).expect_err("io");
    assert_eq!(e.message(), "t.json: cannot read the report: disk on fire");
    /// Fails after its first chunk: the error comes from a read ahead.
    struct Once(Vec<u8>);
    impl Read for Once {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("gone"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let text = doc(&standard());
    let head = text.get(..60).unwrap_or_default().as_bytes().to_vec();
    let mut input = Once(head);
    let sizes = Sizes {
        chunk: 60,
        piece: 8,
        gap: 16,
    };
    let e = read("t.json", Input::Shared(&mut input), &Detail::All, sizes).expect_err("io");
    assert_eq!(e.message(), "t.json: cannot read the report: gone");
}

/// Every cut, every byte dropped and every byte replaced of a small export, compact and
/// pretty-printed (so positions cross lines and windows): the reader reads or words each as the
/// reference reader does.
#[test]
fn every_small_edit_is_read_or_worded_as_the_reference_does() {
    let compact = doc(&standard()).replace(r#""extra":[1,"#, r#""extra":[1.5e3,"#);
    let value: serde_json::Value = serde_json::from_str(&compact).expect("valid");
    let pretty = serde_json::to_string_pretty(&value).expect("pretty");
    let mut differ = Vec::new();
    for (text, edit_bytes) in [(compact, true), (pretty, false)] {
        let bytes = text.as_bytes();
        let mut edits: Vec<Vec<u8>> = Vec::new();
        for at in 0..=bytes.len() {
            edits.push(bytes[..at].to_vec());
            if edit_bytes && at < bytes.len() {
                let mut dropped = bytes.to_vec();
                dropped.remove(at);
                edits.push(dropped);
                for junk in [b'x', b',', b']', b'}'] {
                    let mut replaced = bytes.to_vec();
                    replaced[at] = junk;
                    edits.push(replaced);
                }
            }
        }
        for (index, edit) in edits.into_iter().enumerate() {
            let want = reference(&edit);
            // Unknown keys are refused by the wire types in tests only (the reader's lane skips
            // them, as both readers do outside tests).
            if want.contains("unknown field") {
                continue;
            }
            // Small windows for a share of the edits: enough to cross every kind of boundary.
            let sizes: &[Sizes] = if index % 5 == 0 {
                &[SIZES, SMALL]
            } else {
                &[SIZES]
            };
            for &sizes in sizes {
                let got = streamed(&edit, &Detail::All, sizes);
                if got != want {
                    let short = |s: &str| s.chars().take(160).collect::<String>();
                    differ.push(format!(
                        "{}\n  at {sizes:?}\n  reader:    {}\n  reference: {}",
                        String::from_utf8_lossy(&edit),
                        short(&got),
                        short(&want)
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Records of one group at random counts: the merged record of a file kept for its misses gives
/// llvm-cov's numbers and the best record's uncovered items per metric, as the records kept
/// whole do.
#[test]
fn groups_merged_as_read_keep_what_the_verdict_needs() {
    use crate::report::llvm_json::recompute;
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..200 {
        let mut recs = Vec::new();
        for _ in 0..1 + next(5) {
            let key = 1 + next(2) * 10;
            let c = |next: &mut dyn FnMut(u64) -> u64| next(2);
            let (a, b, t, f) = (c(&mut next), c(&mut next), c(&mut next), c(&mut next));
            let lines = 2 + next(2);
            let name = format!("f{}", next(3));
            recs.push(format!(
                r#"{{"branches":[[{key},5,{key},9,{t},{f},0,0,4]],"count":{a},"filenames":["b.rs"],"name":"{name}","regions":[[{key},1,{e},2,{a},0,0,0],[{key},5,{key},9,{b},0,0,0]]}}"#,
                e = key + lines
            ));
        }
        let export = format!(
            r#"{{"files":[{}],"functions":[{}]}}"#,
            entry(r#""b.rs""#, PART),
            recs.join(",")
        );
        let text = doc(&export);
        let records = |detail: &Detail<'_>| {
            let report =
                read("t.json", Input::Shared(&mut text.as_bytes()), detail, SMALL).expect("read");
            let Some(FileCoverage::Llvm(file)) = report.files.first().map(|f| f.coverage.clone())
            else {
                panic!("b.rs");
            };
            file.functions.expect("records")
        };
        let (whole, merged) = (records(&Detail::All), records(&NONE_MARKED));
        assert_eq!(recompute(&merged), recompute(&whole), "{text}");
        let mut keys: Vec<(u32, u32)> = whole.iter().map(|r| r.key).collect();
        keys.dedup();
        for key in keys {
            let group: Vec<&FunctionStats> = whole.iter().filter(|r| r.key == key).collect();
            let one: Vec<&FunctionStats> = merged.iter().filter(|r| r.key == key).collect();
            assert_eq!(one.len(), 1, "{text}");
            let m = one[0];
            let pick = |metric: fn(&FunctionStats) -> (u64, u64)| {
                group
                    .iter()
                    .fold(group[0], |b, r| if metric(r) >= metric(b) { r } else { b })
            };
            let r = pick(|r| (r.regions.covered, r.regions.total));
            assert_eq!(m.uncovered_regions(), r.uncovered_regions(), "{text}");
            let r = pick(|r| (r.lines.covered, r.lines.total));
            assert_eq!(m.uncovered_lines(), r.uncovered_lines(), "{text}");
            let r = pick(|r| (r.branches.covered, r.branches.total));
            assert_eq!(m.uncovered_branches(), r.uncovered_branches(), "{text}");
            let never_ran = group.iter().all(|r| r.count == 0);
            assert_eq!(m.count == 0, never_ran);
            if never_ran {
                assert_eq!(m.name, group[0].name);
            }
        }
    }
}

/// Faults whose message needs the rest of the document (a rejected header after them), or none
/// of it: each worded as the reference words it.
#[test]
fn faults_and_the_header_after_them_are_worded_as_the_reference_does() {
    let good = doc(&standard());
    let late = |export: &str, tail: &str| {
        format!(r#"{{"data":[{export}]{tail},"type":"llvm.coverage.json.export","version":"9.0"}}"#)
    };
    let entry_a = entry(r#""a.rs""#, FULL);
    let empty_name = entry(r#""""#, FULL);
    let cases = [
        // A key twice, then no `:`.
        good.replace(r#""extra":"#, r#""extra":1,"extra" 1,"x":"#),
        // After a fault, a broken key, a broken `:` or a value of the wrong type end the search.
        r#"{"data":7,"x"#.to_string(),
        r#"{"data":7,"x" 1}"#.to_string(),
        r#"{"data":7,"version":5}"#.to_string(),
        r#"{"data":7,"x":[}"#.to_string(),
        r#"{"data":7,"version":"9.0"}"#.to_string(),
        r#"{"data":[7],"version":"9.0"}"#.to_string(),
        r#"{"data":[{"files":7}],"version":"9.0"}"#.to_string(),
        // Inside an export, after a fault: broken keys, `:` or values, or a good rest.
        late(r#"{"files":7,"x":1}"#, ""),
        late(r#"{"files":7,"x" 1}"#, ""),
        late(r#"{"files":7,5:1}"#, ""),
        late(r#"{"files":7,"x\q":1}"#, ""),
        format!(r#"{{"data":[{{"files":[{empty_name},"#),
        "{}".to_string(),
        r#"{"type":"llvm.coverage.json.export","version":"2.0.1","data":[]}"#.to_string(),
        late(r#"{"files":7,"x":[}"#, ""),
        late(r#"{"files":7,"x":1]"#, ""),
        late(&format!(r#"{{"files":[{entry_a},7,{entry_a}]}}"#), ""),
        late(&format!(r#"{{"files":[{empty_name}]}}"#), ""),
        late(&format!(r#"{{"files":[{empty_name},{entry_a}]}}"#), ""),
        late(&format!(r#"{{"files":[{empty_name} , {entry_a}]}}"#), ""),
        late(&format!(r#"{{"files":[{empty_name} x]}}"#), ""),
        late(&format!(r#"{{"files":[{empty_name},]}}"#), ""),
        late(r#"{"functions":[]}"#, ""),
        late(r#"{"functions":[],"x":{"k":1,"k":2}}"#, ""),
        late(r#"{"files":[]},{"files":[]}"#, ""),
        late(r#"{"files":[]}"#, r#","cargo_llvm_cov":7"#),
        // A record without regions (no main file for it).
        good.replace(
            r#""name":"fb","regions":[[1,1,3,2,1,0,0,0],[2,5,2,9,0,0,0,0]]"#,
            r#""name":"fb","regions":[]"#,
        ),
        // Several exports in `data`, and `functions` before `files`.
        good.replace(r#""data":[{"#, r#""data":[{"files":[]},{"#),
        good.replacen(r#""files":"#, r#""functions":[],"files":"#, 1),
    ];
    for text in &cases {
        as_reference(text);
        let want = reference(text.as_bytes());
        if want.starts_with("t.json:") {
            // The detail kept changes no error.
            assert_eq!(outcome(text, &NONE_MARKED, SMALL), format!("error {want}"));
        }
    }
}

/// `functions` before `files`: every record is read whole, then what each file keeps is asked
/// once its summary is known.
#[test]
fn records_before_their_files_keep_what_the_files_need() {
    let (files, functions) = {
        let standard = standard();
        let at = standard.find(r#"],"functions":["#).expect("functions") + 1;
        let end = standard.find(r#","totals":"#).expect("totals");
        (
            standard.get(1..at).unwrap_or_default().to_string(),
            standard.get(at + 1..end).unwrap_or_default().to_string(),
        )
    };
    let text = doc(&format!("{{{functions},{files}}}"));
    for sizes in [SIZES, SMALL] {
        assert_eq!(outcome(&text, &Detail::All, sizes), "a.rs:2 b.rs:2");
        assert_eq!(outcome(&text, &NONE_MARKED, sizes), "a.rs:- b.rs:2");
    }
    as_reference(&text);
}

/// A value that ends right at the end of the window is read on (a number could go on), and a
/// `,` at the end of the window after an element that fails its check is looked past.
#[test]
fn ends_of_the_window_are_read_past() {
    let sizes = Sizes {
        chunk: 4,
        piece: 64,
        gap: 0,
    };
    let mut input = &br#""ab" "#[..];
    let mut reader = Reader::new(Input::Shared(&mut input), sizes);
    reader.more();
    assert_eq!(reader.value::<String>().expect("a string"), "ab");
    let empty_name = entry(r#""""#, FULL);
    let text = doc(&format!(r#"{{"files":[{empty_name},  {empty_name}]}}"#));
    let want = reference(text.as_bytes());
    for chunk in 1..80 {
        let sizes = Sizes {
            chunk,
            piece: 7,
            gap: 3,
        };
        assert_eq!(
            streamed(text.as_bytes(), &Detail::All, sizes),
            want,
            "{chunk}"
        );
    }
}

#[test]
fn an_input_of_this_thread_reads_as_a_shared_one() {
    let text = doc(&standard());
    let mut input = text.as_bytes();
    let local = read("t.json", Input::Local(&mut input), &Detail::All, SMALL).expect("read");
    assert_eq!(
        format!("{local:?}"),
        streamed(text.as_bytes(), &Detail::All, SMALL)
    );
    let mut cut = text.get(..100).unwrap_or_default().as_bytes();
    let e = read("t.json", Input::Local(&mut cut), &Detail::All, SMALL).expect_err("cut");
    assert_eq!(
        e.message(),
        reference(text.get(..100).unwrap_or_default().as_bytes())
    );
}

#[test]
fn short_and_interrupted_reads_ahead_read_the_same() {
    /// Gives at most 7 bytes a read, and is interrupted every third read.
    struct Dribble<'a>(&'a [u8], usize);
    impl Read for Dribble<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 += 1;
            if self.1 % 3 == 0 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(self.0.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let text = doc(&standard());
    let sizes = Sizes {
        chunk: 60,
        piece: 8,
        gap: 16,
    };
    let mut input = Dribble(text.as_bytes(), 0);
    let report = read("t.json", Input::Shared(&mut input), &Detail::All, sizes).expect("read");
    assert_eq!(
        format!("{report:?}"),
        streamed(text.as_bytes(), &Detail::All, sizes)
    );
}

#[test]
fn a_record_of_several_files_none_of_which_keeps_records_is_not_kept() {
    let both = r#"{"count":0,"filenames":["a.rs","c.rs"],"name":"f2","regions":[[1,1,1,9,0,0,0,0],[2,1,2,9,0,1,0,0]]}"#;
    let text = doc(&standard()).replace(r#""functions":["#, &format!(r#""functions":[{both},"#));
    for sizes in [SIZES, SMALL] {
        assert_eq!(outcome(&text, &NONE_MARKED, sizes), "a.rs:- b.rs:1");
        assert_eq!(outcome(&text, &Detail::All, sizes), "a.rs:3 b.rs:2");
    }
}
