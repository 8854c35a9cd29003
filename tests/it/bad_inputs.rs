//! The bad-input table: every row is an input covgate reads from CI artifacts, other machines or
//! other tools, run through the binary. A row states the exit code and a piece of the message
//! that names the file and, where the input has one, the position (`t.json:LINE:COL`,
//! `t.info:LINE`, `coverage-policy.toml:LINE:COL`). Every row must finish in under a second and
//! must not panic; a failing row shows the input's name, so each row is its own regression test.
//!
//! Most rows are errors (exit 2, no verdict). A few are not, on purpose, and say why in `why`:
//! a gate fails closed when garbage can never pass, and some odd inputs are not garbage (a
//! missing `percent`, which covgate never reads) or already fail the gate (exit 1).

use crate::common;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{Run, Sandbox};

/// The longest a row may take (a guard against hangs and blow-ups, loose enough for a loaded
/// 2-core machine and an instrumented self-coverage run).
const ROW_LIMIT: Duration = Duration::from_secs(3);

/// The policy of every row that does not write its own: lines only, so that LCOV rows can pass.
const POLICY: &str = "[measure]\nmetrics = [\"lines\"]\n";

/// The source file every sandbox holds.
const LIB: &str = "pub fn f() {}\n";

/// A complete, passing llvm-cov export for `src/lib.rs` (one function, one line); the JSON rows
/// are this document cut or edited.
const EXPORT: &str = r#"{"type":"llvm.coverage.json.export","version":"2.0.1","data":[{"files":[{"filename":"src/lib.rs","summary":{"lines":{"count":1,"covered":1,"percent":100.0},"functions":{"count":1,"covered":1,"percent":100.0},"instantiations":{"count":1,"covered":1,"percent":100.0},"regions":{"count":1,"covered":1,"percent":100.0}}}],"functions":[{"name":"f","count":1,"regions":[[1,1,1,14,1,0,0,0]],"filenames":["src/lib.rs"]}],"totals":{}}]}"#;

/// A passing LCOV tracefile for `src/lib.rs`.
const TRACEFILE: &str = "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nDA:1,1\nend_of_record\n";

/// Sets a sandbox up for a row and returns covgate's arguments.
type Setup = Box<dyn Fn(&Sandbox) -> Vec<String>>;

/// One row: how to set the sandbox up, and what must happen.
struct Row {
    name: &'static str,
    setup: Setup,
    code: i32,
    /// Must be on stderr.
    message: String,
    /// Why a row that is not an error is right (empty for error rows).
    why: &'static str,
    /// The longest the row may take: [`ROW_LIMIT`], unless the row says otherwise.
    limit: Duration,
}

fn row(
    name: &'static str,
    code: i32,
    message: &str,
    setup: impl Fn(&Sandbox) -> Vec<String> + 'static,
) -> Row {
    Row {
        name,
        setup: Box::new(setup),
        code,
        message: message.to_string(),
        why: "",
        limit: ROW_LIMIT,
    }
}

/// A row whose report is `t.json` holding `bytes`.
fn json(name: &'static str, bytes: impl Into<Vec<u8>>, code: i32, message: &str) -> Row {
    let bytes = bytes.into();
    row(name, code, message, move |sb| {
        write_bytes(sb, "t.json", &bytes);
        args(&["check", "t.json"])
    })
}

/// A row whose report is `t.info` holding `bytes`.
fn lcov(name: &'static str, bytes: impl Into<Vec<u8>>, code: i32, message: &str) -> Row {
    let bytes = bytes.into();
    row(name, code, message, move |sb| {
        write_bytes(sb, "t.info", &bytes);
        args(&["check", "t.info"])
    })
}

/// A row whose policy is `text`, checking the passing tracefile.
fn policy(name: &'static str, text: &'static str, code: i32, message: &str) -> Row {
    row(name, code, message, move |sb| {
        sb.policy(text);
        sb.write("t.info", TRACEFILE);
        args(&["check", "t.info"])
    })
}

/// `EXPORT` cut right after the first `marker` (a truncated export).
fn cut_after(marker: &str) -> String {
    let at = EXPORT
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker} in EXPORT"));
    EXPORT[..at + marker.len()].to_string()
}

/// `EXPORT` with its first `from` replaced by `to`.
fn edit(from: &str, to: &str) -> String {
    assert!(EXPORT.contains(from), "no {from} in EXPORT");
    EXPORT.replacen(from, to, 1)
}

/// `text` with its first `from` replaced by `to`, as bytes (for bytes that are not UTF-8).
fn edit_bytes(text: &str, from: &str, to: &[u8]) -> Vec<u8> {
    let at = text.find(from).unwrap_or_else(|| panic!("no {from}"));
    let mut bytes = text.as_bytes()[..at].to_vec();
    bytes.extend_from_slice(to);
    bytes.extend_from_slice(&text.as_bytes()[at + from.len()..]);
    bytes
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.to_string()).collect()
}

fn write_bytes(sb: &Sandbox, rel: &str, bytes: &[u8]) {
    std::fs::write(sb.path().join(rel), bytes).expect("write input");
}

/// A v0 symbol whose back-reference points into itself: rustc-demangle expands it to its 1 MB
/// limit. Found by the `lcov` fuzz target (a timeout).
const EXPANDING: &str = "_RNCNvXNtCscpBoQPaMcWV_6semver7displayNtB3_7VersiovXNtCscpBoQPaMcWV_6semver7displayNtB3_7VersionNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmts_0B6_";

/// A tracefile of `src/lib.rs` with 200 functions named `EXPANDING`, each run `count` times.
fn expanding_symbols(count: u64) -> String {
    let mut text = String::from("SF:src/lib.rs\nDA:1,1\n");
    for line in 1..=200 {
        text.push_str(&format!(
            "FN:{line},{EXPANDING}\nFNDA:{count},{EXPANDING}\n"
        ));
    }
    text + "end_of_record\n"
}

/// A fresh sandbox: the policy and `src/lib.rs`.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    sb.policy(POLICY);
    sb.write("src/lib.rs", LIB);
    sb
}

/// Writes `head`, then `size` bytes of `fill`, then `tail` to `path`, a mebibyte at a time.
fn write_streaming(path: &Path, head: &[u8], fill: u8, size: usize, tail: &[u8]) {
    let file = std::fs::File::create(path).expect("create");
    let mut out = std::io::BufWriter::new(file);
    out.write_all(head).expect("write");
    let chunk = vec![fill; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        out.write_all(&chunk[..n]).expect("write");
        left -= n;
    }
    out.write_all(tail).expect("write");
    out.flush().expect("flush");
}

#[cfg(unix)]
fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

fn rows() -> Vec<Row> {
    let mut rows = vec![
        // ---- the controls: the untouched inputs pass ------------------------------------
        Row {
            why: "the control: the export every JSON row breaks passes untouched",
            ..json("a complete export", EXPORT, 0, "covgate: PASS")
        },
        Row {
            why: "the control: the tracefile the policy and walk rows use passes untouched",
            ..lcov("a complete tracefile", TRACEFILE, 0, "covgate: PASS")
        },
        // ---- JSON truncated at each structural level -----------------------------------
        json("JSON cut inside a key", "{\"ty", 2, "t.json:1:4: the llvm-cov JSON export ends early"),
        json("JSON cut inside the type string", cut_after("{\"type\":\"llvm.cov"), 2, "t.json:1:17: the llvm-cov JSON export ends early"),
        json("JSON cut after the root's header", cut_after("\"2.0.1\""), 2, "t.json:1:53: the llvm-cov JSON export ends early"),
        json("JSON cut inside `data`", cut_after("\"data\":["), 2, "t.json:1:62: the llvm-cov JSON export ends early"),
        json("JSON cut inside an export", cut_after("\"files\":["), 2, "t.json:1:72: the llvm-cov JSON export ends early"),
        json("JSON cut inside a file's summary", cut_after("{\"lines\":{\"count\":1"), 2, "t.json:1:126: the llvm-cov JSON export ends early"),
        json("JSON cut inside a region", cut_after("\"regions\":[[1,1,1"), 2, "the llvm-cov JSON export ends early"),
        json("JSON cut before the final brace", &EXPORT[..EXPORT.len() - 1], 2, "the llvm-cov JSON export ends early"),
        // ---- wrong types -------------------------------------------------------------------
        json("`data` is an object", edit("\"data\":[", "\"data\":{"), 2, "t.json:1:61: not a valid llvm-cov JSON export: invalid type: map, expected `data`: an array of export objects"),
        json("a filename is a number", edit("\"filename\":\"src/lib.rs\"", "\"filename\":7"), 2, "t.json:1:85: not a valid llvm-cov JSON export: invalid type: integer `7`, expected a string"),
        json("a summary count is a string", edit("{\"lines\":{\"count\":1", "{\"lines\":{\"count\":\"1\""), 2, "t.json:1:128: not a valid llvm-cov JSON export: invalid type: string \"1\", expected a non-negative whole number of items"),
        json("a region is an object", edit("[[1,1,1,14,1,0,0,0]]", "[{\"line\":1}]"), 2, "not a valid llvm-cov JSON export: invalid type: map, expected a region ["),
        json("the version is a number", edit("\"2.0.1\"", "2"), 2, "t.json:1:47: not a valid llvm-cov JSON export: invalid type: integer `2`, expected a string"),
        // ---- negative, fractional and over-u64 counts -----------------------------------
        json("a negative summary count", edit("{\"lines\":{\"count\":1", "{\"lines\":{\"count\":-1"), 2, "t.json:1:127: not a valid llvm-cov JSON export: invalid value: integer `-1`, expected a non-negative whole number of items"),
        json("a negative execution count", edit("[[1,1,1,14,1,", "[[1,1,1,14,-1,"), 2, "not a valid llvm-cov JSON export: invalid value: integer `-1`, expected a non-negative whole number"),
        json("a fractional summary count", edit("{\"lines\":{\"count\":1", "{\"lines\":{\"count\":1.5"), 2, "t.json:1:128: not a valid llvm-cov JSON export: invalid value: floating point `1.5`, expected a non-negative whole number of items"),
        json("a fractional execution count", edit("[[1,1,1,14,1,", "[[1,1,1,14,0.5,"), 2, "not a valid llvm-cov JSON export: invalid value: floating point `0.5`"),
        json("a summary count above u64", edit("{\"lines\":{\"count\":1,\"covered\":1", "{\"lines\":{\"count\":18446744073709551616,\"covered\":18446744073709551616"), 2, "t.json:1:145: not a valid llvm-cov JSON export: invalid value: integer `18446744073709551616`, expected a non-negative whole number of items, at most 18446744073709551615"),
        // A float that is not whole but rounds to a whole f64 is still fractional: the text decides.
        json("an execution count just below 1", edit("[[1,1,1,14,1,", "[[1,1,1,14,0.99999999999999999,"), 2, "t.json:1:394: not a valid llvm-cov JSON export: invalid value: floating point `0.99999999999999999`, expected a non-negative whole number"),
        json("an execution count just above 1", edit("[[1,1,1,14,1,", "[[1,1,1,14,1.00000000000000001,"), 2, "t.json:1:394: not a valid llvm-cov JSON export: invalid value: floating point `1.00000000000000001`, expected a non-negative whole number"),
        json("an execution count of 5e-324", edit("[[1,1,1,14,1,", "[[1,1,1,14,5e-324,"), 2, "t.json:1:381: not a valid llvm-cov JSON export: invalid value: floating point `5e-324`, expected a non-negative whole number"),
        json("a function count just below 1", edit("\"count\":1,\"regions\"", "\"count\":0.99999999999999999,\"regions\""), 2, "not a valid llvm-cov JSON export: invalid value: floating point `0.99999999999999999`, expected a non-negative whole number"),
        json("a summary count just above 1", edit("{\"lines\":{\"count\":1", "{\"lines\":{\"count\":1.00000000000000001"), 2, "t.json:1:144: not a valid llvm-cov JSON export: invalid value: floating point `1.00000000000000001`, expected a non-negative whole number of items"),
        json("an execution count of 1e-400 (0.0 as an f64)", edit("[[1,1,1,14,1,", "[[1,1,1,14,1e-400,"), 2, "t.json:1:381: not a valid llvm-cov JSON export: invalid value: floating point `1e-400`, expected a non-negative whole number"),
        json("a summary count of 5e-324", edit("{\"lines\":{\"count\":1,\"covered\":1", "{\"lines\":{\"count\":1,\"covered\":5e-324"), 2, "not a valid llvm-cov JSON export: invalid value: floating point `5e-324`, expected a non-negative whole number of items"),
        Row {
            why: "a count written as a whole float (`7.000`, `1e3`, `1.5e1`, `70E-1`) is that \
                  whole number, as re-serialisers write them",
            ..json(
                "whole floats as counts",
                EXPORT
                    .replace("[[1,1,1,14,1,", "[[1,1,1,14,1.5e1,")
                    .replace("\"count\":1,\"regions\"", "\"count\":7.000,\"regions\"")
                    .replace("{\"lines\":{\"count\":1,\"covered\":1", "{\"lines\":{\"count\":1e0,\"covered\":10E-1")
                    .replace("\"regions\":{\"count\":1,\"covered\":1", "\"regions\":{\"count\":1.000,\"covered\":100e-2"),
                0,
                "covgate: PASS",
            )
        },
        json("a line number above u32", edit("[[1,1,1,14,", "[[4294967296,1,1,14,"), 2, "above the largest line, column or id (4294967295)"),
        json("covered above count", edit("\"covered\":1,\"percent\":100.0},\"functions\"", "\"covered\":2,\"percent\":100.0},\"functions\""), 2, "summary `lines` has covered 2 above count 1"),
        // ---- NaN or missing percent ----------------------------------------------------------
        json("a NaN percent", edit("\"percent\":100.0", "\"percent\":NaN"), 2, "t.json:1:150: not valid JSON: expected value"),
        Row {
            why: "`percent` is never read (covgate compares covered/count in integers), so an \
                  export without it is complete: it passes on its counts",
            ..json("no percent at all", EXPORT.replace(",\"percent\":100.0", ""), 0, "covgate: PASS")
        },
        // ---- versions and types ----------------------------------------------------------------
        json("an unknown major version", edit("\"2.0.1\"", "\"4.0.0\""), 2, "t.json:1:53: unsupported llvm-cov JSON export version \"4.0.0\""),
        json("a version after data of another shape", r#"{"data":[{"files":7}],"type":"llvm.coverage.json.export","version":"9.1"}"#, 2, "t.json:1:73: unsupported llvm-cov JSON export version \"9.1\""),
        json("another document type", edit("llvm.coverage.json.export", "llvm.coverage.json.import"), 2, "t.json:1:35: `type` is \"llvm.coverage.json.import\""),
        json("an empty `data`", cut_after("\"data\":[") + "]}", 2, "t.json: the report holds no source files"),
        json("text after the document", format!("{EXPORT} {{}}"), 2, "t.json:1:429: not valid JSON: trailing characters"),
        // ---- paths: not UTF-8, NUL -----------------------------------------------------------------
        json("a path that is not UTF-8", edit_bytes(EXPORT, "src/lib.rs", b"src/\xFFlib.rs"), 2, "t.json:1:90: not valid JSON: invalid unicode code point"),
        json("an escaped NUL in a path", edit("\"filename\":\"src/lib.rs\"", "\"filename\":\"src/\\u0000lib.rs\""), 2, "holds a NUL byte, which no file system allows in a path"),
        json("a raw NUL byte in a path", edit_bytes(EXPORT, "src/lib.rs", b"src/\0lib.rs"), 2, "t.json:1:90: not valid JSON: control character (\\u0000-\\u001F) found while parsing a string"),
        // ---- nesting -----------------------------------------------------------------------------------
        json("nesting 100,000 deep where an export belongs", format!("{}{}{}", cut_after("\"data\":["), "[".repeat(100_000), "]".repeat(100_000) + "]}"), 2, "t.json:1:62: not a valid llvm-cov JSON export: invalid type: sequence, expected an export object"),
        Row {
            why: "a key covgate does not read is skipped without recursion, however deep; the rest \
                  of the export is complete, so it passes on its counts",
            ..json("nesting 100,000 deep under an unknown key", edit("\"totals\":{}", &format!("\"totals\":{{}},\"x\":{}{}", "[".repeat(100_000), "]".repeat(100_000))), 0, "covgate: PASS")
        },
        json("nesting 100,000 deep, never closed", format!("{}{}", cut_after("\"totals\":{}"), ",\"x\":".to_string() + &"[".repeat(100_000)), 2, "t.json:1:100429: the llvm-cov JSON export ends early"),
        // ---- LCOV ----------------------------------------------------------------------------------------
        json("a region naming a file id past the record's filenames", EXPORT.replace("[1,1,1,14,1,0,0,0]", "[1,1,1,14,1,3,0,0]"), 2, "t.json:1:412: not a valid llvm-cov JSON export: a function record's region or branch names a file id past the record's `filenames`"),
        json("a branch naming a file id past the record's filenames", EXPORT.replace("\"filenames\":[\"src/lib.rs\"]}", "\"branches\":[[1,1,1,14,1,0,2,0,4]],\"filenames\":[\"src/lib.rs\"]}"), 2, "t.json:1:446: not a valid llvm-cov JSON export: a function record's region or branch names a file id past the record's `filenames`"),
        json("a JSON array instead of an export", "[]\n", 2, "t.json: the report starts with `[`, a JSON array"),
        json("an export compressed with gzip", [0x1F, 0x8B, 0x08, 0x00, 0x00], 2, "t.json: the report is compressed (gzip); decompress it first"),
        lcov("a program passed as the report", &b"\x7fELF\x02\x01\x01\0\0\0\0\n\x03\0"[..], 2, "t.info:1: the report holds 0 bytes: it is a binary file, not a coverage report"),
        lcov("binary bytes around a 0", &b"\0\x01\x02binary"[..], 2, "t.info:1: the report holds 0 bytes: it is a binary file"),
        lcov("BRDA without its taken count", "SF:src/lib.rs\nBRDA:1,0,0\nend_of_record\n", 2, "t.info:2: BRDA: missing taken count"),
        lcov("BRDA with only a line", "SF:src/lib.rs\nBRDA:1\nend_of_record\n", 2, "t.info:2: BRDA: missing block"),
        lcov("BRDA with an empty block", "SF:src/lib.rs\nBRDA:1,,0,1\nend_of_record\n", 2, "t.info:2: BRDA: empty block"),
        lcov("BRDA with an empty branch", "SF:src/lib.rs\nBRDA:1,0,,1\nend_of_record\n", 2, "t.info:2: BRDA: empty branch"),
        lcov("BRDA with no fields", "SF:src/lib.rs\nBRDA:\nend_of_record\n", 2, "t.info:2: BRDA: missing block"),
        lcov("a negative DA count", "SF:src/lib.rs\nDA:1,-1\nend_of_record\n", 2, "t.info:2: DA execution count `-1` is negative"),
        lcov("a fractional DA count", "SF:src/lib.rs\nDA:1,1.5\nend_of_record\n", 2, "t.info:2: DA execution count `1.5` is not a non-negative decimal integer"),
        lcov("a DA count above u64", "SF:src/lib.rs\nDA:1,18446744073709551616\nend_of_record\n", 2, "t.info:2: DA execution count `18446744073709551616` is too large"),
        lcov("a DA line above u32", "SF:src/lib.rs\nDA:4294967296,1\nend_of_record\n", 2, "t.info:2: DA line `4294967296` is too large"),
        lcov("a NUL byte in an SF path", "SF:src/\0lib.rs\nDA:1,1\nend_of_record\n", 2, "t.info:1: SF: path \"src/\\0lib.rs\" holds a NUL byte"),
        Row {
            why: "LCOV paths are read leniently (lcov's own reader does), with a warning naming the \
                  line; the mangled name matches no file, so src/lib.rs is unmeasured and the gate \
                  fails (exit 1): it cannot pass",
            ..lcov("an SF path that is not UTF-8", edit_bytes(TRACEFILE, "src/lib.rs", b"src/\xFFlib.rs"), 1, "covgate: warning: t.info:1: bytes that are not UTF-8 replaced")
        },
        Row {
            why: "200 functions named by a v0 symbol whose back-references expand without end; \
                  covgate stops demangling such a name (it keeps the mangled one), so the \
                  tracefile is read at once, and every function ran, so it passes",
            ..lcov("symbols that expand without end, all run", expanding_symbols(1), 0, "covgate: PASS")
        },
        lcov("a record before any SF", "DA:1,1\nSF:src/lib.rs\nend_of_record\n", 2, "t.info:1: record outside an `SF` section"),
        lcov("text glued after end_of_record", "SF:src/lib.rs\nDA:1,1\nend_of_recordgarbage\n", 2, "t.info:3: unexpected text `garbage` after `end_of_record`"),
        lcov("a tracefile without SF", "TN:x\nDA:1,1\n", 2, "t.info:2: record outside an `SF` section"),
        lcov("an empty report", "", 2, "t.info: the report is empty"),
        lcov("a report of blank lines", "\n\n  \n", 2, "t.info: the report is empty"),
        row("an LCOV line of 50 MB of digits", 2, "t.info:2: the line is longer than 16777216 bytes", |sb| {
            // 50 MB rather than 1 GB keeps the row fast; the 1 GB row streams through stdin
            // (`a_gigabyte_line_on_stdin_in_bounded_memory`).
            write_streaming(&sb.path().join("t.info"), b"SF:src/lib.rs\nDA:1,", b'9', 50_000_000, b"\nend_of_record\n");
            args(&["check", "t.info"])
        }),
        // ---- the policy ----------------------------------------------------------------------------------
        policy("a bad glob", "[measure]\ninclude = [\"src/[.rs\"]\n", 2, "coverage-policy.toml:2:12: bad glob `src/[.rs`: unclosed character class"),
        policy("an unknown key", "[measure]\nincludes = [\"src/**\"]\n", 2, "coverage-policy.toml:2:1: unknown field `includes`"),
        policy("an absolute glob", "[measure]\ninclude = [\"src/**\", \"/abs/src/*.rs\"]\n", 2, "coverage-policy.toml:2:22: `/abs/src/*.rs`: an absolute glob matches no file"),
        policy("a glob above the root", "[measure]\ninclude = [\"../*/src/*.rs\"]\n", 2, "coverage-policy.toml:2:12: `../*/src/*.rs`: a glob above the root matches no file"),
        policy("an empty glob", "[measure]\ninclude = [\"src/**\"]\n[[exclude]]\npath = \"\"\nreason = \"r\"\n", 2, "coverage-policy.toml:4:8: ``: an empty glob matches no file"),
        policy("a duplicate table", "[measure]\nmetrics = [\"lines\"]\n[measure]\nthreshold = 90\n", 2, "coverage-policy.toml:3:1: invalid table header"),
        policy("an empty reason", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/x.rs\"\nreason = \"  \"\n", 2, "coverage-policy.toml:5:10: an [[exclude]] needs a non-empty `reason`"),
        policy("a threshold above 100", "[measure]\nthreshold = 100.5\n", 2, "coverage-policy.toml:2:13: threshold 100.5 is not a percent between 0 and 100"),
        row("a policy nested 100,000 deep", 2, "coverage-policy.toml:1:", |sb| {
            sb.policy(&format!("x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000)));
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        // ---- roots, escapes, the walk --------------------------------------------------------------
        row("a --root that does not exist", 2, "the root", |sb| {
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info", "--root", "nope"])
        }),
        policy("a policy root that does not exist", "root = \"nope\"\n[measure]\nmetrics = [\"lines\"]\n", 2, "nope is not a folder"),
        lcov("a report path escaping the root with ..", "SF:../outside/lib.rs\nDA:1,1\nend_of_record\n", 2, "no file in the report(s) is selected by `include`"),
        lcov("a report path that climbs out and back in", "SF:src/../../x/src/lib.rs\nDA:1,1\nend_of_record\n", 2, "no file in the report(s) is selected by `include`"),
        policy("an exclude escaping the root with ..", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"../src/lib.rs\"\nreason = \"x\"\n", 2, "coverage-policy.toml:4:8: `../src/lib.rs`: a glob above the root matches no file"),
        policy("an include escaping the root with ..", "[measure]\ninclude = [\"../**/*.rs\"]\nmetrics = [\"lines\"]\n", 2, "coverage-policy.toml:2:12: `../**/*.rs`: a glob above the root matches no file"),
        // issue 19: policy mistakes
        // Each message says what was probably meant, after the line and column.
        policy("a single-bracket [exclude]", "[measure]\nmetrics = [\"lines\"]\n[exclude]\npath = \"src/x.rs\"\nreason = \"x\"\n", 2, "coverage-policy.toml:3:1: invalid type: map, expected a sequence; `[exclude]` is a single table, but each exclude entry is one of an array of tables: write `[[exclude]]` (double brackets) above each entry"),
        policy("a single-bracket [suite]", "[measure]\nmetrics = [\"lines\"]\n[suite]\nname = \"heavy\"\n", 2, "coverage-policy.toml:3:1: invalid type: map, expected a sequence; `[suite]` is a single table, but each suite entry is one of an array of tables: write `[[suite]]` (double brackets) above each entry"),
        policy("a double-bracket [[measure]]", "[[measure]]\nmetrics = [\"lines\"]\n", 2, "coverage-policy.toml:1:1: invalid type: map, expected a sequence; `[[measure]]` makes an array of tables, but the policy has one measure section: write `[measure]` (single brackets)"),
        policy("exclude written as a key", "exclude = \"src/x.rs\"\n[measure]\nmetrics = [\"lines\"]\n", 2, "coverage-policy.toml:1:11: invalid type: string \"src/x.rs\", expected a sequence; `exclude` is not a key: write each entry as a `[[exclude]]` table (double brackets)"),
        policy("include at the top level", "include = [\"src/**\"]\n[measure]\nmetrics = [\"lines\"]\n", 2, "coverage-policy.toml:1:1: unknown field `include`, expected one of `root`, `measure`, `exclude`, `inline`, `suite`, `debt`; `include` belongs under [measure]"),
        policy("threshold in an [[exclude]]", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/x.rs\"\nreason = \"x\"\nthreshold = 90\n", 2, "coverage-policy.toml:6:1: unknown field `threshold`, expected one of `path`, `reason`, `when`, `when-missing`; `threshold` belongs under [measure] (one threshold for every measured file)"),
        policy("[measure.exclude] for [[exclude]]", "[measure]\nmetrics = [\"lines\"]\n[measure.exclude]\npath = \"src/x.rs\"\n", 2, "coverage-policy.toml:3:10: unknown field `exclude`, expected one of `include`, `metrics`, `threshold`, `allow-empty`, `allow-empty-reason`; `exclude` belongs at the top level, as [[exclude]] entries (double brackets)"),
        policy("a key with a typo", "[measure]\nthresold = 90\n", 2, "coverage-policy.toml:2:1: unknown field `thresold`, expected one of `include`, `metrics`, `threshold`, `allow-empty`, `allow-empty-reason`; did you mean `threshold`?"),
        policy("metric `line`", "[measure]\nmetrics = [\"line\"]\n", 2, "coverage-policy.toml:2:12: unknown metric `line`; expected one of regions, branches, functions, lines, mcdc; did you mean `lines`?"),
        policy("metric `region`", "[measure]\nmetrics = [\"lines\", \"region\"]\n", 2, "coverage-policy.toml:2:21: unknown metric `region`; expected one of regions, branches, functions, lines, mcdc; did you mean `regions`?"),
        policy("metric `branchs`", "[measure]\nmetrics = [\"branchs\"]\n", 2, "coverage-policy.toml:2:12: unknown metric `branchs`; expected one of regions, branches, functions, lines, mcdc; did you mean `branches`?"),
        policy("a marker family with a typo", "[measure]\nmetrics = [\"lines\"]\n[inline]\nmarkers = [\"grcv\"]\n", 2, "coverage-policy.toml:4:12: unknown marker family `grcv`; expected covgate, lcov or grcov; did you mean `grcov`?"),
        row("a report path that is a folder", 2, "t.info: is a folder, not a report", |sb| {
            std::fs::create_dir(sb.path().join("t.info")).expect("mkdir");
            args(&["check", "t.info"])
        }),
        row("a report that does not exist", 2, "gone.info: cannot read the report", |_| args(&["check", "gone.info"])),
        row("a policy path that is a folder", 2, "cannot read the policy", |sb| {
            std::fs::create_dir(sb.path().join("policy.d")).expect("mkdir");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info", "--policy", "policy.d"])
        }),
        row("an ignore range without its end", 2, "src/lib.rs:1: covgate range start without its end", |sb| {
            sb.write("src/lib.rs", "// covgate:ignore-start -- generated\npub fn f() {}\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        // issue 18: files, pipes, sizes
        row("a policy of more than 1 MiB", 2, "coverage-policy.toml: cannot read the policy: it is larger than the limit (1048577 bytes); give the path of a policy file (a TOML file of at most 1048576 bytes)", |sb| {
            let mut text = POLICY.to_string();
            text.push_str(&"#".repeat((1 << 20) + 1 - text.len() - 1));
            text.push('\n');
            sb.policy(&text);
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        row("a policy that is not UTF-8", 2, "coverage-policy.toml: cannot read the policy: it is not UTF-8 text", |sb| {
            write_bytes(sb, "coverage-policy.toml", b"# \xFF\n[measure]\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        Row {
            why: "a source too large to scan for markers is measured as the report gives it (a \
                  note says it was not scanned), so a marker in it cannot help it pass; here \
                  the unbalanced range it holds would be an error if it were read",
            ..row("a measured source of more than 16 MiB", 0, "covgate: warning: src/lib.rs: 16777217 bytes, above the 16777216 bytes covgate scans: not read for inline markers", |sb| {
                let head = b"// covgate:ignore-start -- never closed\npub fn f() {}\n";
                write_streaming(&sb.path().join("src/lib.rs"), head, b'\n', (16 << 20) + 1 - head.len(), b"");
                sb.write("t.info", TRACEFILE);
                args(&["check", "t.info"])
            })
        },
        Row {
            why: "a Rust source that no report names is parsed for code only up to 1 MiB (the \
                  parse holds the whole syntax tree, 1.2 GB for 15 MB); a larger one is \
                  unmeasured, which fails, with a note saying why",
            ..row("a 15 MB no-code source in no report", 1, "not parsed for code: 15000000 bytes, above the 1048576 bytes covgate parses", |sb| {
                let line = "pub struct Generated;\n";
                let mut text = line.repeat(15_000_000 / line.len() + 1);
                text.truncate(15_000_000);
                sb.write("src/generated.rs", &text);
                sb.write("t.info", TRACEFILE);
                args(&["check", "t.info", "--format", "json"])
            })
        },
        Row {
            why: "one inline marker and one region 4,000,000,000 lines long: the ignored line is \
                  taken out of the record's line ranges as a range, at once (it took 18 s line \
                  by line); the rest ran, so it passes",
            ..row("an ignored line inside a region of four billion lines", 0, "ignored by inline markers: 1 line", |sb| {
                sb.write("src/lib.rs", "pub fn f() {} // LCOV_EXCL_LINE\n");
                sb.write("t.json", &edit("[[1,1,1,14,1,0,0,0]]", "[[1,1,4000000000,14,1,0,0,0]]"));
                args(&["check", "t.json"])
            })
        },
        Row {
            why: "a report path of 10 MiB: the table shortens it in the middle before laying it \
                  out, at once (the width took over 10 s when it grew with the square of the \
                  path's length); the file is in no folder and never ran, so it fails. Every \
                  step handles the 10 MiB in linear time, which a debug build takes seconds for",
            limit: Duration::from_secs(30),
            ..lcov("a report path of 10 MiB", format!("SF:src/{}.rs\nDA:1,0\nend_of_record\n{TRACEFILE}", "a/".repeat(5 << 20)), 1, "│ src/a/a/a/a/a/a/a/a/a/")
        },
        Row {
            why: "a value nested 2,500,000 deep under a key covgate does not read, in a function \
                  record larger than the reader's 4 MiB window: skipped at any depth, as inside \
                  the window (it was an error that the export ends early, where the window \
                  ended); skipping 5 MB takes about a second in a debug build",
            limit: Duration::from_secs(20),
            ..json(
                "a deep value under an unknown key, past the window",
                edit("\"name\":\"f\",", &format!("\"name\":\"f\",\"x\":{}{},", "[".repeat(2_500_000), "]".repeat(2_500_000))),
                0,
                "covgate: PASS",
            )
        },
    ];
    rows.extend(channels_and_near_misses());
    #[cfg(unix)]
    rows.extend(special_file_rows());
    #[cfg(unix)]
    rows.push(Row {
        why: "the walk follows symbolic links but skips a link into a loop, so a loop ends at \
              once; the only source file passes",
        ..row("a symlink loop during the walk", 0, "covgate: PASS", |sb| {
            symlink(".", &sb.path().join("src/loop"));
            std::fs::create_dir(sb.path().join("src/a")).expect("mkdir");
            symlink("..", &sb.path().join("src/a/up"));
            symlink("../a", &sb.path().join("src/a/self"));
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        })
    });
    #[cfg(unix)]
    rows.push(Row {
        why: "a link to itself (or a chain of links back to one) cannot be followed (ELOOP): \
              the walk skips it with a note, as it does a link into a folder loop, instead of \
              failing with `Too many levels of symbolic links`; the only source file passes",
        ..row("a link to itself during the walk", 0, "covgate: warning: src/self.rs: a symbolic link that cannot be followed (Too many levels of symbolic links (os error 40)): skipped by the walk", |sb| {
            symlink("self.rs", &sb.path().join("src/self.rs"));
            symlink("c.rs", &sb.path().join("src/b.rs"));
            symlink("b.rs", &sb.path().join("src/c.rs"));
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        })
    });
    rows
}

// issue 18: files, pipes, sizes

/// The longest a row may run before it is killed: a regression that hangs (a FIFO opened for
/// reading with no writer, or opened a second time) fails its row instead of the whole suite.
const HANG_LIMIT: Duration = Duration::from_secs(20);

/// Runs `command` (its output piped), killed after [`HANG_LIMIT`].
fn run_timed(command: &mut std::process::Command) -> Run {
    run_killed_after(command, HANG_LIMIT)
}

/// Runs `command` (its output piped), killed after `limit` (exit code -9, "(killed: hung)").
pub(crate) fn run_killed_after(command: &mut std::process::Command, limit: Duration) -> Run {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code().unwrap_or(-1);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break -9;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stderr = stderr.join().expect("stderr");
    if code == -9 {
        stderr.push_str("\n(killed: hung)");
    }
    Run {
        code,
        stdout: stdout.join().expect("stdout"),
        stderr,
    }
}

/// Makes a FIFO at `path` (replacing a file there).
#[cfg(unix)]
pub(crate) fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Makes `t.json` a FIFO that a thread fills with `bytes` once covgate opens it (the thread
/// stays blocked if covgate never does).
#[cfg(unix)]
fn fifo_report(sb: &Sandbox, bytes: &[u8]) -> Vec<String> {
    let path = sb.path().join("t.json");
    mkfifo(&path);
    let bytes = bytes.to_vec();
    std::thread::spawn(move || std::fs::write(path, bytes));
    args(&["check", "t.json"])
}

/// The export with a syntax error at column 300 of its one line: `data` holds blank space up
/// to there, then `x`.
fn syntax_error_at_300() -> String {
    let mut text = cut_after("\"data\":[");
    text.push_str(&" ".repeat(299 - text.len()));
    text.push_str("x]}");
    text
}

/// The rows about FIFOs, devices and sockets (Unix only).
#[cfg(unix)]
fn special_file_rows() -> Vec<Row> {
    vec![
        row("a report that is /dev/zero", 2, "/dev/zero:1: the line is longer than 16777216 bytes", |_| args(&["check", "/dev/zero"])),
        row("--policy /dev/zero", 2, "/dev/zero: cannot read the policy: it is a device, not a regular file", |sb| {
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info", "--policy", "/dev/zero"])
        }),
        row("a policy that is a FIFO, found by the search", 2, "coverage-policy.toml: cannot read the policy: it is a FIFO, not a regular file", |sb| {
            mkfifo(&sb.path().join("coverage-policy.toml"));
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        row("a measured source that is a FIFO", 2, "src/lib.rs: a report measures this source, but it is a FIFO, not a regular file; covgate reads only regular files", |sb| {
            mkfifo(&sb.path().join("src/lib.rs"));
            sb.write("src/types.rs", "pub struct S;\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        row("a measured source symlinked to /dev/zero", 2, "src/lib.rs: a report measures this source, but it is a device, not a regular file", |sb| {
            std::fs::remove_file(sb.path().join("src/lib.rs")).expect("rm");
            symlink("/dev/zero", &sb.path().join("src/lib.rs"));
            sb.write("src/types.rs", "pub struct S;\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        Row {
            why: "a FIFO or a device in scope that no report names holds no code covgate could \
                  read: the walk skips it, unopened, with a note; the measured file passes",
            ..row("a source symlinked to /dev/zero in no report", 0, "covgate: warning: src/zero.rs: a device, not a regular file: skipped by the walk (not read)", |sb| {
                symlink("/dev/zero", &sb.path().join("src/zero.rs"));
                mkfifo(&sb.path().join("src/fifo.rs"));
                sb.write("t.info", TRACEFILE);
                args(&["check", "t.info"])
            })
        },
        Row {
            why: "the control: a report given as a FIFO is read once, and passes",
            ..row("a report that is a FIFO", 0, "covgate: PASS", |sb| fifo_report(sb, EXPORT.as_bytes()))
        },
        row("a report that is a FIFO with an unknown version", 2, "t.json:1:53: unsupported llvm-cov JSON export version \"4.0.0\"", |sb| {
            fifo_report(sb, edit("\"2.0.1\"", "\"4.0.0\"").as_bytes())
        }),
        row("a report that is a FIFO with a syntax error at byte 300", 2, "t.json:1:300: not valid JSON: expected value", |sb| {
            fifo_report(sb, syntax_error_at_300().as_bytes())
        }),
        row("a report that is a FIFO, cut short", 2, "t.json:1:62: the llvm-cov JSON export ends early", |sb| {
            fifo_report(sb, cut_after("\"data\":[").as_bytes())
        }),
    ]
}

/// A report given as `<(…)` (bash's process substitution, a pipe under `/dev/fd/`) is read
/// once: the error is the one at fault, at its position (it was "ends early" at 1:0, from a
/// second read of the drained pipe).
#[cfg(unix)]
#[test]
fn a_report_from_process_substitution_is_read_once() {
    let sb = sandbox();
    for (text, want) in [
        (
            edit("\"2.0.1\"", "\"4.0.0\""),
            ":1:53: unsupported llvm-cov JSON export version \"4.0.0\"",
        ),
        (
            syntax_error_at_300(),
            ":1:300: not valid JSON: expected value",
        ),
    ] {
        let run = run_timed(
            std::process::Command::new("bash")
                .args(["-c", "exec \"$0\" check <(printf %s \"$1\")"])
                .arg(env!("CARGO_BIN_EXE_covgate"))
                .arg(&text)
                .current_dir(sb.path()),
        );
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.starts_with("covgate: error: /dev/fd/"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(want), "{}", run.stderr);
    }
}

// issue 18: channels and near-misses
/// Hostile names that must not steer CI (each printed escaped, on its own line and without a
/// workflow command or link; `steers_ci` checks every row for that), and near-misses of
/// markers, features and cfg values (errors naming file and line).
fn channels_and_near_misses() -> Vec<Row> {
    const WHY_ESCAPED: &str = "the hostile name is printed escaped (no line, workflow command or \
                               link of its own); the file fails as any uncovered file does";
    let mut rows = vec![
        json("a version that only starts like a known one", edit("\"2.0.1\"", "\"2.0.1\\n::error::pwned\""), 2, "t.json:1:69: unsupported llvm-cov JSON export version \"2.0.1\\u{a}::error::pwned\""),
        json("a version with a space after it", edit("\"2.0.1\"", "\"2.0.1 \""), 2, "unsupported llvm-cov JSON export version \"2.0.1 \""),
        json("a type holding a line break", edit("llvm.coverage.json.export", "x\\n::error::pwned ##[error]y"), 2, "`type` is \"x\\u{a}::error::pwned ##\\u{5b}error]y\""),
        policy("an unknown metric holding a line break", "[measure]\nmetrics = [\"lines\\n::error::pwned\"]\n", 2, "coverage-policy.toml:2:12: unknown metric `lines\\u{a}::error::pwned`"),
        Row {
            why: "no PATH lookup can find a program name holding a line break, so it is \
                  refused (it would exempt its files on every leg); the name is printed \
                  escaped in the error",
            ..policy("a when-missing program holding a line break", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/lib.rs\"\nreason = \"r\"\nwhen-missing = [\"nope\\n::error::pwned\"]\n", 2, "coverage-policy.toml:6:17: `when-missing` names `nope\\u{a}::error::pwned`, which holds white space")
        },
        Row {
            why: WHY_ESCAPED,
            ..row("Markdown: bare URLs and an e-mail address in function names", 1, "functions: a`@`evil.example (line 1), https\\://evil.example/x (line 1), www\\.evil.example (line 1)", |sb| {
                sb.policy("[measure]\nmetrics = [\"functions\"]\n");
                sb.write("t.info", "SF:src/lib.rs\nFN:1,https://evil.example/x\nFN:1,www.evil.example\nFN:1,a@evil.example\nDA:1,1\nend_of_record\n");
                args(&["check", "t.info", "--format", "markdown"])
            })
        },
        row("a marker with a space after the colon", 2, "src/lib.rs:1: `covgate: ignore` is not a covgate marker", |sb| {
            sb.write("src/lib.rs", "pub fn f() {} // covgate: ignore -- generated\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        row("a misspelt marker", 2, "src/lib.rs:2: `covgate:ignore-nxt` is not a covgate marker", |sb| {
            sb.write("src/lib.rs", "pub fn f() {}\n// covgate:ignore-nxt -- generated\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        row("a misspelt lcov marker", 2, "src/lib.rs:1: `LCOV_EXCL_LIEN` is not a marker of the lcov family that covgate reads", |sb| {
            sb.policy("[measure]\nmetrics = [\"lines\"]\n[inline]\nmarkers = [\"covgate\", \"lcov\"]\n");
            sb.write("src/lib.rs", "pub fn f() {} // LCOV_EXCL_LIEN\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info"])
        }),
        policy("a misspelt cfg name inside not()", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/lib.rs\"\nreason = \"r\"\nwhen = \"cfg(not(widows))\"\n", 2, "coverage-policy.toml:6:8: `widows` in the condition `cfg(not(widows))` is not a cfg name rustc knows; did you mean `windows`?"),
        policy("an unknown cfg value inside not()", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/lib.rs\"\nreason = \"r\"\nwhen = 'cfg(not(target_os = \"windos\"))'\n", 2, "coverage-policy.toml:6:8: `target_os = \"windos\"` in the condition `cfg(not(target_os = \"windos\"))` holds on no known target"),
        policy("an unknown cfg value inside any()", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/lib.rs\"\nreason = \"r\"\nwhen = 'cfg(any(unix, target_arch = \"x86-64\"))'\n", 2, "`target_arch = \"x86-64\"` in the condition"),
        policy("an unknown cfg value inside all()", "[measure]\nmetrics = [\"lines\"]\n[[exclude]]\npath = \"src/lib.rs\"\nreason = \"r\"\nwhen = 'cfg(all(unix, not(target_env = \"gnux\")))'\n", 2, "`target_env = \"gnux\"` in the condition"),
        row("a --features name the package does not declare", 2, "covgate: error: --features tagets: no package of the cargo workspace at", |sb| {
            sb.write("Cargo.toml", "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\ntargets = []\n");
            sb.write("tests/slow.rs", "#[test]\nfn slow() {}\n");
            sb.policy("[measure]\nmetrics = [\"lines\"]\n[[suite]]\nname = \"slow\"\nfilter = \"--test slow\"\nglob = \"tests/slow.rs\"\nreason = \"r\"\n");
            sb.write("t.info", TRACEFILE);
            args(&["check", "t.info", "--features", "targets,tagets"])
        }),
    ];
    #[cfg(unix)]
    rows.extend([
        Row {
            why: WHY_ESCAPED,
            ..row(
                "--format github: a file whose path starts with ::",
                1,
                "\\u{3a}:error::pwned.rs — uncovered:",
                |sb| {
                    sb.policy("[measure]\ninclude = [\"**/*.rs\"]\nmetrics = [\"lines\"]\n");
                    sb.write("::error::pwned.rs", "fn x() {}\n");
                    sb.write(
                        "t.info",
                        &format!("{TRACEFILE}SF:::error::pwned.rs\nDA:1,0\nend_of_record\n"),
                    );
                    args(&[
                        "check",
                        "t.info",
                        "--format",
                        "github",
                        "--summary-file",
                        "summary.md",
                    ])
                },
            )
        },
        Row {
            why: WHY_ESCAPED,
            ..row(
                "--format github: a path holding ##[error]",
                1,
                "src/##\\u{5b}error]x.rs",
                |sb| {
                    sb.write("src/##[error]x.rs", "fn x() {}\n");
                    sb.write(
                        "t.info",
                        &format!("{TRACEFILE}SF:src/##[error]x.rs\nDA:1,0\nend_of_record\n"),
                    );
                    args(&[
                        "check",
                        "t.info",
                        "--format",
                        "github",
                        "--summary-file",
                        "summary.md",
                    ])
                },
            )
        },
        Row {
            why: WHY_ESCAPED,
            ..row(
                "--format json: a path holding ##[error]",
                1,
                "\"path\": \"src/##\\u005berror]x.rs\"",
                |sb| {
                    sb.write("src/##[error]x.rs", "fn x() {}\n");
                    sb.write(
                        "t.info",
                        &format!("{TRACEFILE}SF:src/##[error]x.rs\nDA:1,0\nend_of_record\n"),
                    );
                    args(&["check", "t.info", "--format", "json"])
                },
            )
        },
    ]);
    rows
}

/// The step summary and `--output-markdown` get the Markdown channel's escaping: no bare URL,
/// `www.`, e-mail address or HTML tag of a report's names reaches a pull-request comment.
#[test]
fn hostile_names_in_the_step_summary_and_the_markdown_file_are_escaped() {
    let sb = sandbox();
    sb.policy("[measure]\nmetrics = [\"functions\"]\n");
    sb.write(
        "t.info",
        "SF:src/lib.rs\nFN:1,https://evil.example/x\nFN:1,www.evil.example\nFN:1,a@evil.example\n\
         FN:1,<img src=x onerror=alert(1)>\nDA:1,1\nend_of_record\n",
    );
    let run = sb.run(&[
        "check",
        "t.info",
        "--format",
        "github",
        "--summary-file",
        "summary.md",
        "--output-markdown",
        "out.md",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for file in ["summary.md", "out.md"] {
        let md = std::fs::read_to_string(sb.path().join(file)).expect("markdown");
        assert!(
            md.contains(
                "- functions: \\<img src=x onerror=alert(1)\\> (line 1), a`@`evil.example (line 1), \
                 https\\://evil.example/x (line 1), www\\.evil.example (line 1)\n"
            ),
            "{file}:\n{md}"
        );
        let unescaped = md.replace("\\<", "");
        for raw in ["https://evil", "www.evil", "a@evil", "<img"] {
            assert!(!unescaped.contains(raw), "{file} holds {raw}:\n{md}");
        }
    }
}

/// Two checks writing `--output-json` (and `--output-markdown`) to the same paths at once
/// leave one whole file of one of them, never a mixture: each output is written to a
/// temporary file and renamed into place.
#[test]
fn two_runs_writing_the_same_outputs_leave_one_whole_file() {
    use std::process::{Command, Stdio};

    let sb = sandbox();
    sb.write("t.info", TRACEFILE);
    // A failing run with a long output, and a passing one with a short output.
    let mut long = String::from("SF:src/lib.rs\n");
    for line in 1..=3000 {
        long.push_str(&format!("DA:{},{}\n", line, line % 2));
    }
    sb.write("long.info", &(long + "end_of_record\n"));
    let spawn = |report: &str| {
        Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args(["check", report, "--no-walk", "--format", "json"])
            .args(["--output-json", "out.json", "--output-markdown", "out.md"])
            .current_dir(sb.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn covgate")
    };
    for _ in 0..5 {
        let (a, b) = (spawn("long.info"), spawn("t.info"));
        let (a, b) = (
            a.wait_with_output().expect("a"),
            b.wait_with_output().expect("b"),
        );
        let outputs = [
            String::from_utf8_lossy(&a.stdout),
            String::from_utf8_lossy(&b.stdout),
        ];
        let written = std::fs::read_to_string(sb.path().join("out.json")).expect("out.json");
        assert!(
            outputs.iter().any(|o| *o == written),
            "a mixture:\n{written}"
        );
        let md = std::fs::read_to_string(sb.path().join("out.md")).expect("out.md");
        assert!(
            md.starts_with("### covgate: ") && md.ends_with('\n'),
            "{md}"
        );
    }
    let left: Vec<_> = std::fs::read_dir(sb.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// What in `run`'s output could steer a CI runner or a Markdown reader: a line that starts a
/// workflow command other than covgate's own annotations (`::error file=`, `::notice title=`
/// on stdout), `##[` anywhere, or the hostile link of the rows above unescaped outside an
/// annotation.
fn steers_ci(stdout: &str, stderr: &str) -> Option<String> {
    let own = |line: &str| line.starts_with("::error file=") || line.starts_with("::notice title=");
    let lines = stdout
        .split(['\n', '\r'])
        .filter(|l| !own(l))
        .chain(stderr.split(['\n', '\r']));
    for line in lines {
        let hostile = ["https://evil", "www.evil", "a@evil"];
        if line.trim_start().starts_with("::")
            || line.contains("##[")
            || hostile.iter().any(|h| line.contains(h))
        {
            return Some(format!("a line that steers CI: {line:?}"));
        }
    }
    None
}

/// What went wrong with one row, if anything.
fn check_row(row: &Row) -> Option<String> {
    let sb = sandbox();
    let args = (row.setup)(&sb);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    // A row allowed longer than the hang limit is killed only after its own limit, so a slow
    // machine reports "took" (the row's real time) rather than a hang.
    let run = run_killed_after(
        std::process::Command::new(env!("CARGO_BIN_EXE_covgate"))
            .args(&args)
            .current_dir(sb.path()),
        row.limit.max(HANG_LIMIT),
    );
    let took = started.elapsed();
    let mut problems = Vec::new();
    if run.code != row.code {
        problems.push(format!("exit code {} (want {})", run.code, row.code));
    }
    if run.stderr.contains("panicked") || run.code == 101 {
        problems.push("panicked".to_string());
    }
    let output = format!("{}{}", run.stdout, run.stderr);
    if !output.contains(&row.message) {
        problems.push(format!("no `{}` in the output", row.message));
    }
    if let Some(problem) = steers_ci(&run.stdout, &run.stderr) {
        problems.push(problem);
    }
    if row.code == 2 && !run.stdout.is_empty() {
        problems.push("a verdict on stdout despite the error".to_string());
    }
    if took >= row.limit {
        problems.push(format!("took {took:?}"));
    }
    if row.code != 2 && row.why.is_empty() {
        problems.push("a row that is not an error must say why".to_string());
    }
    (!problems.is_empty()).then(|| {
        let shown: String = output.chars().take(600).collect();
        format!("{}: {}\n    {shown}", row.name, problems.join("; "))
    })
}

#[test]
fn every_bad_input_fails_cleanly_and_fast() {
    let rows = rows();
    assert!(rows.len() >= 30, "{} rows", rows.len());
    let failures: Vec<String> = rows.iter().filter_map(check_row).collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// A line of 1 GiB of digits, streamed through standard input, must be refused at once and in
/// bounded memory (the process may not map 512 MiB): `covgate check -` streams an LCOV
/// tracefile from stdin.
#[cfg(unix)]
#[test]
fn a_gigabyte_line_on_stdin_in_bounded_memory() {
    use std::process::{Command, Stdio};

    let sb = sandbox();
    let started = Instant::now();
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 524288 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_covgate"))
        .args(["check", "-", "--no-walk"])
        .current_dir(sb.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn covgate");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        // covgate stops reading early: the broken pipe ends the write.
        let chunk = vec![b'9'; 1 << 20];
        let _ = stdin.write_all(b"SF:src/lib.rs\nDA:1,");
        for _ in 0..1024 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("<stdin>:2: the line is longer than 16777216 bytes"),
        "{stderr}"
    );
    // Stopped at the limit, not after reading the gigabyte (which takes far longer in a debug
    // build): the bound is loose, so a busy CI machine passes it.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// A source file in scope that is reached through a symbolic link, and that no report names,
/// must be found by the walk and be unmeasured (exit 1), not skipped (which passes).
#[cfg(unix)]
#[test]
fn a_symlinked_source_file_in_no_report_is_unmeasured() {
    let sb = sandbox();
    sb.write("elsewhere/extra.rs", "pub fn g() -> u32 { 1 }\n");
    symlink("../elsewhere/extra.rs", &sb.path().join("src/extra.rs"));
    sb.write("t.info", TRACEFILE);
    let run = sb.run(&["check", "t.info"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("src/extra.rs"), "{}", run.stdout);
}

/// Functions named by symbols that expand without end, none of them run: the gate must list
/// them as uncovered and finish at once (exit 1).
#[test]
fn symbols_that_expand_without_end_listed_as_uncovered_are_fast() {
    let sb = sandbox();
    sb.policy("[measure]\nmetrics = [\"lines\", \"functions\"]\n");
    sb.write("t.info", &expanding_symbols(0));
    let started = Instant::now();
    let run = sb.run(&["check", "t.info", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(started.elapsed() < ROW_LIMIT, "{:?}", started.elapsed());
}

/// A sandbox with the demo's sources and a lines-only policy (`demo/p.toml`), and the lines of
/// the demo's tracefile.
fn demo_tracefile() -> (Sandbox, String) {
    let sb = Sandbox::new();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    common::copy_dir(&demo.join("src"), &sb.path().join("demo/src"));
    let full = std::fs::read_to_string(demo.join("coverage.info")).expect("demo tracefile");
    sb.write("demo/p.toml", "[measure]\nmetrics = [\"lines\"]\n");
    (sb, full)
}

/// Checks the tracefile `name` of a [`demo_tracefile`] sandbox (JSON output).
fn check_demo(sb: &Sandbox, name: &str) -> Run {
    sb.run(&[
        "check",
        name,
        "--policy",
        "demo/p.toml",
        "--remap-path-prefix",
        "/ws/tiny=demo",
        "--format",
        "json",
    ])
}

/// The demo's tracefile cut inside `src/lib.rs`'s section (lines 1–14 and 23–27: the section
/// lost its tail and its `end_of_record`): the cut section is no evidence, so `src/lib.rs`
/// (really 10/15 lines) is unmeasured (exit 1) instead of passing on the lines left.
#[test]
fn a_tracefile_cut_inside_a_section_does_not_pass() {
    let (sb, full) = demo_tracefile();
    let lines: Vec<&str> = full.lines().collect();
    let cut = [&lines[..14], &lines[22..27]].concat().join("\n") + "\n";
    sb.write("tr.info", &cut);
    let run = check_demo(&sb, "tr.info");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "tr.info:19: missing final `end_of_record` for `/ws/tiny/src/lib.rs`: its section is ignored"
        ),
        "{}",
        run.stderr
    );
    let doc = run.json();
    assert_eq!(common::status(&doc, "src/lib.rs"), "unmeasured");
    assert_eq!(common::status(&doc, "src/covered.rs"), "pass");
    // The whole tracefile: 10 of 15 lines, a fail on the numbers.
    sb.write("full.info", &full);
    let run = check_demo(&sb, "full.info");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        common::metric(&run.json(), "src/lib.rs", "lines"),
        "10/15 fail"
    );
}

/// A truncated tracefile with another appended (`cat shard1.info shard2.info`, the first cut
/// inside `src/lib.rs`'s section): the next `SF:` comes before the `end_of_record`. The cut
/// section is ignored as a cut-short last one is, so `src/lib.rs` (10 of 15 lines in whole) is
/// unmeasured (exit 1), where it passed on the 5 lines left before the cut.
#[test]
fn a_tracefile_cut_inside_a_section_then_another_appended_does_not_pass() {
    let (sb, full) = demo_tracefile();
    let lines: Vec<&str> = full.lines().collect();
    let joined = [&lines[13..27], &lines[..13]].concat().join("\n") + "\n";
    sb.write("all.info", &joined);
    let run = check_demo(&sb, "all.info");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "all.info:15: `SF` before the `end_of_record` of `/ws/tiny/src/lib.rs`: its section is ignored"
        ),
        "{}",
        run.stderr
    );
    let doc = run.json();
    assert_eq!(common::status(&doc, "src/lib.rs"), "unmeasured");
    assert_eq!(common::status(&doc, "src/covered.rs"), "pass");
}

/// A report whose records lie past the end of the file they name is of other sources (made
/// before they changed, or for another file of that name: a member crate's tracefile read
/// from the workspace root): every output warns with its facts, naming LLVM's reports as such.
#[test]
fn records_past_the_end_of_their_file() {
    let sb = Sandbox::new();
    sb.policy("[measure]\ninclude = [\"src/**\"]\nmetrics = [\"functions\", \"lines\"]\n");
    sb.write("src/lib.rs", "pub fn untested() {}\n\n\n");
    let llvm = |line: u32| {
        format!(
            "SF:src/lib.rs\nFN:1,f\nFNDA:1,f\nFNF:1\nFNH:1\nDA:1,1\nDA:{line},1\nLF:2\nLH:2\n\
             end_of_record\n"
        )
    };
    let warnings = |report: &str, extra: &[&str]| {
        let run = sb.run(&[&["check", report, "--format", "json"][..], extra].concat());
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run.json()["facts"]["warnings"].to_string()
    };
    sb.write("past.info", &llvm(19));
    let said = warnings("past.info", &[]);
    assert!(
        said.contains(
            "src/lib.rs: LLVM's report names line 19, and the file on disk has 3 line(s): the \
             report is not of these sources"
        ),
        "{said}"
    );
    // The last line is fine; --no-walk does not read the sources.
    sb.write("fits.info", &llvm(3));
    assert!(!warnings("fits.info", &[]).contains("names line"));
    assert!(!warnings("past.info", &["--no-walk"]).contains("names line"));
    // grcov's shape (`TN:` first): another writer's report.
    sb.write("grcov.info", &format!("TN:\n{}", llvm(19)));
    let said = warnings("grcov.info", &[]);
    assert!(
        said.contains("src/lib.rs: the report names line 19, and the file on disk has 3"),
        "{said}"
    );
}
