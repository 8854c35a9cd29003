//! Properties of the readers and of path normalisation, on generated input:
//!
//! - `paths::normalize` is idempotent, and every spelling of one path (`\` or `/`, repeated
//!   separators, `.`, detours through `x/..`, a lower-case drive letter, a trailing separator)
//!   normalises to the same text;
//! - merging LCOV sections (`LcovFile::merge`) is commutative and associative: the summary and
//!   the uncovered lists do not depend on the order or grouping of the shards;
//! - the llvm-cov JSON reader (streaming serde visitors) and a slow reference written here over
//!   `serde_json::Value` agree on every file's summary, on which files have function detail, and
//!   on `has_branch_data`, for generated exports.

use covgate::paths::normalize;
use covgate::report::lcov::{self, LcovFile};
use covgate::report::llvm_json;
use covgate::report::{FileCoverage, Report};
use proptest::prelude::*;
use serde_json::{json, Value};

// ---- paths ----------------------------------------------------------------------------------

/// A path component that is a name (not `.`, `..` or empty).
fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ -]{1,4}".prop_filter("a name, not . or ..", |n| n != "." && n != "..")
}

/// A root: none (relative), `/`, or a drive letter.
fn root() -> impl Strategy<Value = (String, String)> {
    // (canonical spelling, a spelling to use)
    prop_oneof![
        Just((String::new(), String::new())),
        Just(("/".to_string(), "/".to_string())),
        Just(("/".to_string(), "\\".to_string())),
        Just(("/".to_string(), "//".to_string())),
        Just(("C:/".to_string(), "C:/".to_string())),
        Just(("C:/".to_string(), "c:\\".to_string())),
        Just(("D:/".to_string(), "d://".to_string())),
    ]
}

/// A separator spelling: `detour` is a name used for `/x/../`.
fn separator() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/".to_string()),
        Just("\\".to_string()),
        Just("//".to_string()),
        Just("/./".to_string()),
        Just("\\.\\".to_string()),
        name().prop_map(|detour| format!("/{detour}/../")),
        name().prop_map(|detour| format!("\\{detour}\\..\\")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn normalize_is_idempotent(raw in r"([a-zA-Z]:)?([/\\.a-c: ]|\.\.){0,16}") {
        let once = normalize(&raw);
        prop_assert_eq!(normalize(&once), once.clone(), "{:?}", raw);
    }

    #[test]
    fn every_spelling_of_a_path_is_the_same_path(
        (canonical_root, spelled_root) in root(),
        names in proptest::collection::vec(name(), 1..6),
        separators in proptest::collection::vec(separator(), 5),
        leading_dot in any::<bool>(),
        trailing in prop_oneof![Just(""), Just("/"), Just("/."), Just("\\")],
    ) {
        let canonical = format!("{canonical_root}{}", names.join("/"));
        let mut spelled = spelled_root.clone();
        if leading_dot && spelled_root.is_empty() {
            spelled.push_str("./");
        }
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                spelled.push_str(&separators[i % separators.len()]);
            }
            spelled.push_str(name);
        }
        spelled.push_str(trailing);
        prop_assert_eq!(normalize(&canonical), canonical.clone());
        prop_assert_eq!(normalize(&spelled), canonical, "{:?}", spelled);
    }
}

// ---- LCOV merging ----------------------------------------------------------------------------

/// One LCOV record of `src/a.c` (small ranges, so shards share lines, branches and functions).
fn record() -> impl Strategy<Value = String> {
    let fn_name = prop_oneof![
        Just("f"),
        Just("g"),
        Just("_ZN4demo3run17h0123456789abcdefE"),
        Just("_ZN4demo3run17hfedcba9876543210E"),
    ];
    prop_oneof![
        (0u32..12, 0u64..3).prop_map(|(line, count)| format!("DA:{line},{count}")),
        (0u32..6, 0u32..2, 0u32..2, prop::option::of(0u64..3)).prop_map(
            |(line, block, branch, taken)| {
                let taken = taken.map_or("-".to_string(), |t| t.to_string());
                format!("BRDA:{line},{block},{branch},{taken}")
            }
        ),
        (1u32..6, fn_name.clone()).prop_map(|(start, name)| format!("FN:{start},{name}")),
        (0u64..3, fn_name).prop_map(|(count, name)| format!("FNDA:{count},{name}")),
        (0u64..3, 1u32..6).prop_map(|(index, start)| format!("FNL:{index},{start}")),
        (0u64..3, 0u64..3, prop_oneof![Just("x"), Just("y")])
            .prop_map(|(index, count, alias)| format!("FNA:{index},{count},{alias}")),
        (
            prop_oneof![
                Just("LF"),
                Just("LH"),
                Just("BRF"),
                Just("BRH"),
                Just("FNF"),
                Just("FNH")
            ],
            0u64..8
        )
            .prop_map(|(tag, n)| format!("{tag}:{n}")),
    ]
}

/// A shard: one section of `src/a.c`, read by covgate's reader; or, now and then, the empty
/// file (`LcovFile::default()`).
fn shard() -> impl Strategy<Value = LcovFile> {
    prop_oneof![
        1 => Just(LcovFile::default()),
        8 => proptest::collection::vec(record(), 0..12).prop_map(|records| {
            let text = format!("SF:src/a.c\n{}\nend_of_record\n", records.join("\n"));
            // Declared totals with more hit than found are refused: then the shard goes
            // without its totals.
            let report = lcov::read("shard.info", text.as_bytes()).or_else(|_| {
                let valid: Vec<&String> = records.iter().filter(|r| !r.contains("F:") && !r.contains("H:")).collect();
                let text = format!("SF:src/a.c\n{}\nend_of_record\n", valid.iter().map(|r| r.as_str()).collect::<Vec<_>>().join("\n"));
                lcov::read("shard.info", text.as_bytes())
            }).expect("a valid shard");
            match report.files.into_iter().next().map(|f| f.coverage) {
                Some(FileCoverage::Lcov(file)) => *file,
                other => panic!("not one LCOV file: {other:?}"),
            }
        }),
    ]
}

/// What a merged file shows: its summary and its uncovered lists, in a canonical order (the
/// lists keep first-appearance order among equals, which depends on the merge order; a
/// function's end line, which nothing shows, keeps the first one written).
fn observed(file: &LcovFile) -> String {
    let mut branches: Vec<String> = file
        .uncovered_branches()
        .iter()
        .map(|b| format!("{}:{}:{}:{:?}", b.line, b.block, b.branch, b.taken))
        .collect();
    branches.sort();
    let mut functions: Vec<String> = file
        .uncovered_functions()
        .iter()
        .map(|u| {
            let f = &u.function;
            format!(
                "{:?}:{}:{:?}:{}:{}",
                f.start, f.name, f.aliases, f.count, u.shares_line_with_executed
            )
        })
        .collect();
    functions.sort();
    format!(
        "{:?}\nlines {:?}\nbranches {branches:?}\nfunctions {functions:?}",
        file.summary(),
        file.uncovered_lines()
    )
}

fn merged(parts: &[&LcovFile]) -> LcovFile {
    let mut out = LcovFile::default();
    for part in parts {
        out.merge((*part).clone());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn merging_lcov_is_commutative(a in shard(), b in shard()) {
        prop_assert_eq!(observed(&merged(&[&a, &b])), observed(&merged(&[&b, &a])));
    }

    #[test]
    fn merging_lcov_is_associative(a in shard(), b in shard(), c in shard()) {
        let left = merged(&[&merged(&[&a, &b]), &c]);
        let mut right = a.clone();
        right.merge(merged(&[&b, &c]));
        prop_assert_eq!(observed(&left), observed(&right));
    }
}

// ---- the JSON reader against a slow reference -----------------------------------------------

/// A `{count, covered}` pair, as llvm-cov writes it (with `percent` and `notcovered`), covered at
/// most count; sometimes huge, sometimes as an integral float (`3.0`, as re-serialisers write
/// numbers; only below 2^32: serde_json's default float parsing is best-effort, and a float count
/// near 2^52 may read as a fraction, which covgate then refuses).
fn pair() -> impl Strategy<Value = Value> {
    let count = prop_oneof![0u64..6, Just(u64::MAX), Just(1u64 << 53)];
    (count, any::<u64>(), any::<bool>(), any::<bool>()).prop_map(
        |(count, seed, as_float, with_extras)| {
            let covered = if count == 0 {
                0
            } else {
                seed % (count.saturating_add(1)).max(1)
            };
            let number = |n: u64| {
                if as_float && n < (1 << 32) {
                    json!(n as f64)
                } else {
                    json!(n)
                }
            };
            let mut pair = json!({"count": number(count), "covered": number(covered)});
            if with_extras {
                pair["percent"] = json!(if count == 0 {
                    0.0
                } else {
                    100.0 * covered as f64 / count as f64
                });
                pair["notcovered"] = json!(count - covered);
            }
            pair
        },
    )
}

fn summary() -> impl Strategy<Value = Value> {
    (pair(), pair(), pair(), pair(), prop::option::of(pair())).prop_map(
        |(lines, functions, instantiations, regions, branches)| {
            let mut s = json!({"lines": lines, "functions": functions,
                               "instantiations": instantiations, "regions": regions});
            if let Some(branches) = branches {
                s["branches"] = branches;
            }
            s
        },
    )
}

const NAMES: [&str; 4] = ["src/a.rs", "/ws/src/b.rs", "c:\\w\\c.rs", "src/a.rs\u{e9}"];

fn file() -> impl Strategy<Value = Value> {
    (0..NAMES.len(), summary(), any::<bool>()).prop_map(|(i, summary, segments)| {
        let mut f = json!({"filename": NAMES[i], "summary": summary});
        if segments {
            f["segments"] = json!([[1, 1, 1, true, true, false]]);
            f["expansions"] = json!([]);
        }
        f
    })
}

/// A region array `[l1, c1, l2, c2, count, file_id, expanded_file_id, kind]`.
fn region() -> impl Strategy<Value = Value> {
    (
        1u32..5,
        1u32..4,
        0u32..3,
        0u64..3,
        0u32..2,
        0u32..2,
        0u32..4,
    )
        .prop_map(|(line, col, lines, count, file, expanded, kind)| {
            json!([
                line,
                col,
                line + lines,
                col + 2,
                count,
                file,
                expanded,
                kind
            ])
        })
}

fn record_json() -> impl Strategy<Value = Value> {
    (
        // Two names: file ids (and expanded ids) 0 and 1 then index them, as llvm-cov's do.
        proptest::collection::vec(0..NAMES.len(), 2..3),
        proptest::collection::vec(region(), 0..4),
        proptest::collection::vec(
            (1u32..5, 0u64..3, 0u64..3, 0u32..2)
                .prop_map(|(line, t, f, file)| json!([line, 1, line, 5, t, f, file, 0, 4])),
            0..3,
        ),
        0u64..3,
        any::<bool>(),
    )
        .prop_map(|(files, regions, branches, count, mcdc)| {
            let filenames: Vec<&str> = files.iter().map(|i| NAMES[*i]).collect();
            let mut r = json!({"name": "_ZN1f", "count": count, "regions": regions,
                               "branches": branches, "filenames": filenames});
            if mcdc {
                r["mcdc_records"] = json!([]);
            }
            r
        })
}

fn export_json() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(file(), 0..4),
        prop::option::of(proptest::collection::vec(record_json(), 0..4)),
    )
        .prop_map(|(files, functions)| {
            let mut e = json!({"files": files, "totals": {}});
            if let Some(functions) = functions {
                e["functions"] = Value::Array(functions);
            }
            e
        })
}

fn document() -> impl Strategy<Value = (Value, bool)> {
    (
        prop_oneof![Just("2.0.0"), Just("2.0.1"), Just("3.0.1"), Just("3.1.0")],
        proptest::collection::vec(export_json(), 0..3),
        prop::option::of("/[a-z]{1,6}/Cargo.toml"),
        any::<bool>(),
    )
        .prop_map(|(version, data, manifest, pretty)| {
            let mut doc = json!({"type": "llvm.coverage.json.export", "version": version,
                                 "data": data});
            if let Some(manifest) = manifest {
                doc["cargo_llvm_cov"] = json!({"version": "0.6.0", "manifest_path": manifest});
            }
            (doc, pretty)
        })
}

fn number(v: &Value) -> u64 {
    v.as_u64()
        .or_else(|| v.as_f64().map(|f| f as u64))
        .unwrap_or_else(|| panic!("not a count: {v}"))
}

/// `covered/total` of one `{count, covered}` pair, or 0/0 when absent.
fn counts(pair: Option<&Value>) -> (u64, u64) {
    pair.map_or((0, 0), |p| (number(&p["covered"]), number(&p["count"])))
}

/// What the reference expects of each file: (path, [regions, functions, instantiations,
/// lines, branches] as (covered, total), has function detail).
type Expected = Vec<(String, [(u64, u64); 5], bool)>;

/// The slow reference: the document as a `serde_json::Value` tree, read by the export's shape.
fn reference(doc: &Value) -> (Expected, bool) {
    let mut files = Vec::new();
    let mut has_branch_data = false;
    let data = doc["data"].as_array().expect("data");
    for export in data {
        let functions = export.get("functions").and_then(Value::as_array);
        has_branch_data |= functions.is_some_and(|records| {
            records
                .iter()
                .any(|r| r["branches"].as_array().is_some_and(|b| !b.is_empty()))
        });
        for f in export["files"].as_array().expect("files") {
            let s = &f["summary"];
            let metrics = [
                counts(s.get("regions")),
                counts(s.get("functions")),
                counts(s.get("instantiations")),
                counts(s.get("lines")),
                counts(s.get("branches")),
            ];
            has_branch_data |= metrics[4].1 > 0;
            let path = f["filename"].as_str().expect("filename").to_string();
            files.push((path, metrics, functions.is_some()));
        }
    }
    (files, has_branch_data)
}

/// The same facts from covgate's reader.
fn read_back(report: &Report) -> (Expected, bool) {
    let files = report
        .files
        .iter()
        .map(|f| {
            let FileCoverage::Llvm(file) = &f.coverage else {
                panic!("not JSON: {}", f.path);
            };
            let s = file.summary;
            let pairs = [
                s.regions,
                s.functions,
                s.instantiations,
                s.lines,
                s.branches,
            ]
            .map(|c| (c.covered, c.total));
            (f.path.clone(), pairs, file.functions.is_some())
        })
        .collect();
    (files, report.has_branch_data)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_json_reader_agrees_with_a_value_tree((doc, pretty) in document()) {
        let text = if pretty {
            serde_json::to_string_pretty(&doc)
        } else {
            serde_json::to_string(&doc)
        }
        .expect("serialise");
        let report = llvm_json::read("gen.json", text.as_bytes())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (mut got, branches) = read_back(&report);
        let (expected, expected_branches) = reference(&doc);
        // A summary that claims more covered than the file's records show, or fewer misses
        // than they prove, is counted from the records, and one without a record of its own
        // in an export with records counts nothing as covered, with a warning naming the file
        // (`json_trust.rs`, `json_misses.rs`).
        for (got, expected) in got.iter_mut().zip(&expected) {
            let named = format!("gen.json: {}: the summary", got.0);
            if report.warnings.iter().any(|w| w.starts_with(&named)) {
                got.1 = expected.1;
            }
        }
        // A file whose summary counts items but no record belongs to reads as without detail
        // (its records are absent), although its export has a `functions` array.
        for (got, expected) in got.iter_mut().zip(&expected) {
            let counted = expected.1.iter().any(|pair| *pair != (0, 0));
            got.2 |= expected.2 && counted && got.1 == expected.1;
        }
        prop_assert_eq!((got, branches), (expected, expected_branches), "{}", text);
        let manifest = doc["cargo_llvm_cov"]["manifest_path"].as_str().map(String::from);
        prop_assert_eq!(report.manifest_path, manifest);
    }
}
