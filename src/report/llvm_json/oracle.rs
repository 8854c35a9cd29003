//! The reference reader, a test oracle: the whole document in memory, read by serde visitors
//! alone, the plainest reading of an export. The reader ([`super::stream`]) must give the same
//! report, and the same error, for every document (see `stream_tests.rs`); it shares this
//! reader's rules ([`super::export`], [`super::wire`], [`super::record`]).
//!
//! Keys come in any order (cargo-llvm-cov rewrites the root with `data` first and adds
//! `cargo_llvm_cov`); unknown keys are skipped. Errors: a key written twice anywhere first, then
//! a rejected `type` or `version` wherever it is written, then the first error of the parse.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;

use crate::error::{Error, Result};
use crate::report::Report;

use super::evidence::Evidence;
use super::export::{self, check_filename, Export, Header, Kind};
use super::record::{RawRecord, FILE_ID_PAST_FILENAMES};
use super::unique::Unique;
use super::wire::{CargoMeta, FileEntry};
use super::{FunctionStats, Kept, LlvmSummary};

/// Reads a whole export (see [`super::read`]). A key written twice in any object is an error
/// naming the key and its position ([`Unique`]); other errors are worded by the full parse.
pub(super) fn read(origin: &str, bytes: &[u8]) -> Result<Report> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Err(err) = serde_json::from_slice::<Unique>(body) {
        if err.classify() == Category::Data {
            return Err(explain(origin, body, &err));
        }
    }
    match parse(body) {
        Ok(root) => root.into_report(origin),
        Err(err) => Err(explain(origin, body, &err)),
    }
}

/// Parses the document; trailing non-whitespace is an error.
fn parse(body: &[u8]) -> std::result::Result<Root, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let root = RootSeed.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(root)
}

/// Turns a parse error into covgate's error. When the document's `type` or `version` (possibly
/// written after the data that failed) says it is not a supported export, that is the clearer
/// message. serde_json quotes offending values in its messages; they are clipped, so a huge
/// string in the wrong place cannot make a huge message.
fn explain(origin: &str, body: &[u8], err: &serde_json::Error) -> Error {
    if let Some(error) = header_error(origin, body) {
        return error;
    }
    // serde_json locates every error of a slice deserializer (line 1 and up).
    Error::at(
        origin,
        err.line() as u64,
        Some(err.column() as u64),
        export::word(Kind::of(err), &export::bare(err)),
    )
}

/// The error for a document whose root `type` or `version` is rejected, located at the end of
/// that value; `None` when neither is (or neither can be read).
///
/// Reads only the root's `type` and `version`, skipping everything else, and stops at the first
/// error or right after a rejected value (where the parser's position then is).
fn header_error(origin: &str, body: &[u8]) -> Option<Error> {
    let mut header = Header::default();
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let err = deserializer
        .deserialize_map(HeaderVisitor {
            header: &mut header,
        })
        .err()?;
    let problem = header.problem()?;
    Some(Error::at(
        origin,
        err.line() as u64,
        Some(err.column() as u64),
        problem,
    ))
}

struct HeaderVisitor<'h> {
    header: &'h mut Header,
}

impl<'de> Visitor<'de> for HeaderVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an llvm-cov JSON export object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "type" => self.header.kind = Some(map.next_value()?),
                "version" => self.header.version = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if self.header.problem().is_some() {
                // Stop here, so the error's position is the end of the rejected value.
                return Err(de::Error::custom("rejected header"));
            }
        }
        Ok(())
    }
}

/// Everything the root holds that covgate needs.
#[derive(Debug, Default)]
struct Root {
    header: Header,
    manifest_path: Option<String>,
    exports: Option<Vec<Export>>,
}

impl Root {
    fn into_report(self, origin: &str) -> Result<Report> {
        export::finish(origin, self.header, self.manifest_path, self.exports)
            .map(|(report, _)| report)
    }
}

struct RootSeed;

impl<'de> DeserializeSeed<'de> for RootSeed {
    type Value = Root;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Root, D::Error> {
        deserializer.deserialize_map(RootVisitor)
    }
}

struct RootVisitor;

impl<'de> Visitor<'de> for RootVisitor {
    type Value = Root;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an llvm-cov JSON export object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Root, A::Error> {
        let mut root = Root::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "type" => root.header.kind = Some(map.next_value()?),
                "version" => root.header.version = Some(map.next_value()?),
                "data" => root.exports = Some(map.next_value_seed(DataSeed)?),
                "cargo_llvm_cov" => {
                    let meta: CargoMeta = map.next_value()?;
                    root.manifest_path = meta.manifest_path;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if let Some(problem) = root.header.problem() {
                // Stop reading a document that is not a supported export; `explain` words it.
                return Err(de::Error::custom(problem));
            }
        }
        Ok(root)
    }
}

struct DataSeed;

impl<'de> DeserializeSeed<'de> for DataSeed {
    type Value = Vec<Export>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Vec<Export>, D::Error> {
        deserializer.deserialize_seq(DataVisitor)
    }
}

struct DataVisitor;

impl<'de> Visitor<'de> for DataVisitor {
    type Value = Vec<Export>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`data`: an array of export objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Vec<Export>, A::Error> {
        let mut exports = Vec::new();
        while let Some(export) = seq.next_element_seed(ExportSeed)? {
            exports.push(export);
        }
        Ok(exports)
    }
}

struct ExportSeed;

impl<'de> DeserializeSeed<'de> for ExportSeed {
    type Value = Export;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Export, D::Error> {
        deserializer.deserialize_map(ExportVisitor)
    }
}

struct ExportVisitor;

impl<'de> Visitor<'de> for ExportVisitor {
    type Value = Export;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an export object {files, functions, totals}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Export, A::Error> {
        let mut files: Option<Vec<(String, LlvmSummary)>> = None;
        let mut functions: Option<Functions> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "files" => {
                    let seed = FilesSeed;
                    files = Some(map.next_value_seed(seed)?);
                }
                "functions" => {
                    let known = files
                        .as_ref()
                        .map(|f| f.iter().map(|(name, _)| name.clone()).collect());
                    functions = Some(map.next_value_seed(FunctionsSeed { known })?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let files = files.ok_or_else(|| de::Error::missing_field("files"))?;
        let has_branch_records = functions.as_ref().is_some_and(|f| f.has_branches);
        let (functions, named) = match functions {
            Some(f) => (Some(f.by_file), f.evidence),
            None => (None, HashMap::new()),
        };
        Ok(Export {
            files,
            functions,
            skipped: HashSet::new(),
            has_branch_records,
            evidence: Vec::new(),
            named,
        })
    }
}

struct FilesSeed;

impl<'de> DeserializeSeed<'de> for FilesSeed {
    type Value = Vec<(String, LlvmSummary)>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(FilesVisitor)
    }
}

struct FilesVisitor;

impl<'de> Visitor<'de> for FilesVisitor {
    type Value = Vec<(String, LlvmSummary)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`files`: an array of file objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut files = Vec::new();
        while let Some(entry) = seq.next_element::<FileEntry>()? {
            check_filename(&entry.filename).map_err(de::Error::custom)?;
            let summary = entry.summary.into_summary().map_err(de::Error::custom)?;
            files.push((entry.filename, summary));
        }
        Ok(files)
    }
}

/// `functions[]` reduced: records by main file.
#[derive(Debug, Default)]
struct Functions {
    by_file: HashMap<String, Vec<FunctionStats>>,
    has_branches: bool,
    /// What the kept records of each file show ran.
    evidence: HashMap<String, Evidence>,
}

/// Reads `functions[]`. `known` holds the export's filenames when `files` came first: records
/// of other files (e.g. tests left out by `-ignore-filename-regex`) are then dropped at once.
struct FunctionsSeed {
    known: Option<HashSet<String>>,
}

impl<'de> DeserializeSeed<'de> for FunctionsSeed {
    type Value = Functions;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> std::result::Result<Functions, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for FunctionsSeed {
    type Value = Functions;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`functions`: an array of function records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Functions, A::Error> {
        let mut functions = Functions::default();
        while let Some(record) = seq.next_element::<RawRecord>()? {
            if !record.file_ids_fit() {
                return Err(serde::de::Error::custom(FILE_ID_PAST_FILENAMES));
            }
            functions.has_branches |= record.has_branches();
            let evidence = record.evidence();
            let Some((file, stats)) = record.into_stats(Kept::Everything) else {
                continue;
            };
            if self
                .known
                .as_ref()
                .is_some_and(|known| !known.contains(&file))
            {
                continue;
            }
            let shown = functions.evidence.entry(file.clone()).or_default();
            shown.add(evidence);
            functions.by_file.entry(file).or_default().push(stats);
        }
        Ok(functions)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::model::Counts;
    use crate::report::llvm_json::export::is_supported;
    use crate::report::FileCoverage;

    /// The error of `doc`, which the reader words as this reader does.
    fn err(doc: &str) -> String {
        let message = match read("t.json", doc.as_bytes()) {
            Ok(report) => panic!("read {} files from {doc}", report.files.len()),
            Err(e) => e.message().to_string(),
        };
        let streamed = super::super::read("t.json", doc.as_bytes()).map(|_| ());
        assert_eq!(streamed.map_err(|e| e.message()), Err(message.clone()));
        message
    }

    fn summary(count: &str, covered: &str) -> String {
        let pair = format!(r#"{{"count":{count},"covered":{covered}}}"#);
        format!(r#"{{"lines":{pair},"functions":{pair},"instantiations":{pair},"regions":{pair}}}"#)
    }

    fn export(files: &str) -> String {
        format!(
            r#"{{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{{"files":[{files}]}}]}}"#
        )
    }

    fn file(name: &str, summary: &str) -> String {
        format!(r#"{{"filename":{name},"summary":{summary}}}"#)
    }

    #[test]
    fn a_rejected_version_or_type_is_located_at_its_value() {
        let e = err(r#"{"type":"llvm.coverage.json.export","version":"4.0.0","data":[]}"#);
        assert!(
            e.starts_with("t.json:1:53: unsupported llvm-cov JSON export version \"4.0.0\""),
            "{e}"
        );
        let e = err("{\"data\":[],\n\"type\":\"x\",\n\"version\":\"3.1.0\"}");
        assert!(e.starts_with("t.json:2:10: `type` is \"x\""), "{e}");
        // Written after data this reader rejects: the version is still the message.
        let e = err(r#"{"data":[{"files":7}],"version":"1.0","type":"llvm.coverage.json.export"}"#);
        assert!(e.starts_with("t.json:1:37: unsupported"), "{e}");
        // A huge version string is clipped.
        let e = err(&format!(r#"{{"version":"{}"}}"#, "9".repeat(10_000)));
        assert!(e.contains("… (10000 bytes)") && e.len() < 600, "{e}");
    }

    #[test]
    fn only_numbers_joined_by_dots_are_a_version() {
        for good in ["2.0.1", "3.1.0", "3", "2.0.0.7"] {
            assert!(is_supported(good), "{good}");
        }
        for bad in [
            "2.0.1\n::error::x",
            "3 ",
            " 2.0",
            "2..1",
            "2.",
            "+2.0",
            "4.0.0",
            "",
            "x",
        ] {
            assert!(!is_supported(bad), "{bad:?}");
        }
        let e = err(r#"{"type":"llvm.coverage.json.export","version":"2.0.1\n::error::x"}"#);
        assert!(e.starts_with("t.json:1:"), "{e}");
        assert!(
            e.contains("unsupported llvm-cov JSON export version"),
            "{e}"
        );
    }

    #[test]
    fn header_errors_need_a_rejected_value() {
        // A good header: the data error is the message.
        assert_eq!(header_error("t", br#"{"version":"3.1.0","data":1}"#), None);
        // Nothing rejected before the document ends.
        assert_eq!(header_error("t", br#"{"version":"3.1.0","da"#), None);
    }

    #[test]
    fn filenames_must_be_paths() {
        let good = summary("1", "1");
        let e = err(&export(&file(r#""src/\u0000lib.rs""#, &good)));
        assert!(
            e.starts_with("t.json:1:")
                && e.contains("`filename` \"src/\\0lib.rs\" holds a NUL byte"),
            "{e}"
        );
        let e = err(&export(&file(r#""""#, &good)));
        assert!(
            e.contains("a `files[]` entry has an empty `filename`"),
            "{e}"
        );
        let e = err(&export(
            &file("\"src/\u{FF}\"", &good).replace('\u{FF}', "\\udc00"),
        ));
        assert!(e.contains("not valid JSON"), "a lone surrogate: {e}");
        let e = err(&export(&format!(
            "{},{}",
            file(r#""a.rs""#, &good),
            file(r#""b.rs""#, &summary("1", "2"))
        )));
        assert!(
            e.contains("summary `regions` has covered 2 above count 1"),
            "{e}"
        );
        let two = format!("{},{}", file(r#""a.rs""#, &good), file(r#""b.rs""#, &good));
        let report = read("t.json", export(&two).as_bytes()).expect("two files");
        let names: Vec<&str> = report.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["a.rs", "b.rs"]);
    }

    #[test]
    fn summary_counts_above_u64_are_errors_not_clamps() {
        for count in ["18446744073709551616", "1.8446744073709552e19", "1e300"] {
            let e = err(&export(&file(r#""a.rs""#, &summary(count, count))));
            assert!(
                e.starts_with("t.json:1:") && e.contains("at most 18446744073709551615"),
                "{count}: {e}"
            );
        }
        let max = u64::MAX.to_string();
        let report = read(
            "t.json",
            export(&file(r#""a.rs""#, &summary(&max, "0"))).as_bytes(),
        )
        .expect("u64::MAX items");
        let Some(FileCoverage::Llvm(f)) = report.files.first().map(|f| &f.coverage) else {
            panic!("no file");
        };
        assert_eq!(f.summary.lines, Counts::new(0, u64::MAX));
    }

    #[test]
    fn long_values_in_parser_messages_are_clipped() {
        let long = "x".repeat(10_000);
        let e = err(&export(&file(
            &format!("\"a.rs\",\"segments\":1,\"summary\":\"{long}\""),
            "1",
        )));
        assert!(e.contains("… (") && e.len() < 800, "{e}");
    }
}
