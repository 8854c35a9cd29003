//! Tests of [`super`]: the fast lane reads what serde reads, and declines the rest.

use super::*;

fn skips(text: &str) -> Option<usize> {
    let mut scan = Scan {
        bytes: text.as_bytes(),
        pos: 0,
    };
    scan.skip(0).map(|()| scan.pos)
}

#[test]
fn the_lane_skips_valid_json_and_declines_the_rest() {
    for good in [
        r#"{"a":[1,-2,3.5,4e9,5E-1,0,0.0,-0],"b":{"c":true,"d":false,"e":null},"f":"ü"}"#,
        "[ ]",
        "{ }",
        " [ 1 , { } , [ ] ] ",
    ] {
        assert_eq!(skips(good), Some(good.trim_end().len()), "{good}");
        serde_json::from_str::<serde_json::Value>(good).expect("valid JSON");
    }
    for declined in [
        "01",
        "-",
        "1.",
        "1e",
        "1e+",
        ".5",
        "+1",
        "tru",
        "nul",
        r#""a\"b""#,
        "\"a\tb\"",
        "[1,]",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "{1:2}",
        "\"open",
        "[",
        "",
    ] {
        assert_eq!(skips(declined), None, "{declined}");
    }
    let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
    assert_eq!(skips(&deep), None);
    let invalid_utf8 = [b'"', 0xFF, b'"'];
    let mut scan = Scan {
        bytes: &invalid_utf8,
        pos: 0,
    };
    assert_eq!(scan.skip(0), None);
}

#[test]
fn unsigned_integers_are_plain_digits_within_u64() {
    let read = |text: &str| {
        let mut scan = Scan {
            bytes: text.as_bytes(),
            pos: 0,
        };
        scan.uint()
    };
    assert_eq!(read("0"), Some(0));
    assert_eq!(read(" 42]"), Some(42));
    assert_eq!(read("9999999999999999999"), Some(9_999_999_999_999_999_999));
    for declined in [
        "18446744073709551615",
        "99999999999999999999",
        "01",
        "1.0",
        "1e3",
        "-1",
        "x",
        "",
    ] {
        assert_eq!(read(declined), None, "{declined}");
    }
}

#[test]
fn packed_numbers_read_as_the_general_path_reads_them() {
    let read = |text: &str| {
        let mut scan = Scan {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let packed = scan.packed_uints::<3>().map(|values| (values, scan.pos));
        let mut general = Scan {
            bytes: text.replace(',', " , ").as_bytes().to_vec().leak(),
            pos: 0,
        };
        let spaced = general.uints::<3>();
        assert_eq!(packed.map(|(values, _)| values), spaced, "{text}");
        packed
    };
    assert_eq!(
        read("[0,7,1234567890123456789]"),
        Some(([0, 7, 1_234_567_890_123_456_789], 25))
    );
    assert_eq!(read("[10,20,30]]"), Some(([10, 20, 30], 10)));
    for declined in [
        "[1,2,3,4]",
        "[1,2]",
        "[1,2,03]",
        "[1,00,3]",
        "[1,2,12345678901234567890]",
        "[1,2,3",
        "[1,2,",
        "[1,-2,3]",
        "[1,2.5,3]",
        "[1;2,3]",
    ] {
        assert_eq!(read(declined), None, "{declined}");
    }
}

#[test]
fn keys_are_checked_once_each_within_limits() {
    let object = |text: &str| {
        let mut scan = Scan {
            bytes: text.as_bytes(),
            pos: 0,
        };
        scan.object(&mut |scan, _| scan.skip(1)).map(|()| scan.pos)
    };
    let others: Vec<String> = (0..MAX_KEYS).map(|i| format!("\"k{i}\":1")).collect();
    let known: Vec<String> = KNOWN_KEYS.iter().map(|k| format!("\"{k}\":1")).collect();
    let full = format!("{{{},{}}}", others.join(","), known.join(","));
    assert_eq!(object(&full), Some(full.len()));
    let over = format!("{{{},\"k{MAX_KEYS}\":1}}", others.join(","));
    assert_eq!(object(&over), None);
    assert_eq!(object(r#"{"k":1,"j":2,"k":3}"#), None);
    assert_eq!(object(r#"{"count":1,"name":2,"count":3}"#), None);
    assert_eq!(object(r#"{"count":1,"k":2,"name":3}"#), Some(26));
}

#[test]
fn records_and_entries_read_as_serde_reads_them() {
    let record_text = r#"{"branches":[[3,8,3,14,1,0,0,0,4]],"mcdc_records":[],"count":2,"filenames":["/s/a.rs","/s/m.rs"],"name":"_RNvC1a1f","regions":[[1,1,9,2,2,0,0,0],[3,5,3,9,0,0,1,1],[1,1,1,5,0,1,0,0]],"x":{"y":[1.5]}} tail"#;
    let keep_all = |_: &[&str]| Want::Whole;
    let (Record::Read(fast), len) = record(record_text.as_bytes(), &keep_all).expect("in the lane")
    else {
        panic!("read whole");
    };
    let mut values = serde_json::Deserializer::from_str(record_text).into_iter::<RawRecord>();
    let slow = values.next().expect("a value").expect("valid");
    assert_eq!(len, values.byte_offset());
    assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
    for declined in [
        r#"{"count":1,"filenames":[],"regions":[]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[],"name":"g"}"#,
        r#"{"name":"f","count":1.0,"filenames":[],"regions":[]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[[1,1,1,1,1,0,0]]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[[1,1,1,1,1,0,0,0,9]]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[[4294967296,1,1,1,1,0,0,0]]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[],"mcdc_records":null}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[],"branches":[[1,1,1,1,1,1,0,0]]}"#,
        r#"{"name":"f","count":1,"filenames":[],"regions":[],"branches":[],"branches":[]}"#,
    ] {
        assert!(
            record(declined.as_bytes(), &keep_all).is_none(),
            "{declined}"
        );
    }
    let entry_text = r#"{"segments":[[1,2,3,true,true,false]],"filename":"/s/a.rs","summary":{"lines":{"count":9,"covered":7,"percent":77.7},"functions":{"count":1,"covered":1},"instantiations":{"count":2,"covered":1},"regions":{"count":4,"covered":3},"branches":{"count":2,"covered":1},"mcdc":{"count":3,"covered":1}}}"#;
    let (fast, len) = file_entry(entry_text.as_bytes()).expect("in the lane");
    let slow: FileEntry = serde_json::from_str(entry_text).expect("valid");
    assert_eq!(len, entry_text.len());
    assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
    // MC/DC is read; a key a later LLVM may add to a summary is skipped, as serde does
    // outside tests (where unknown keys are refused).
    let later = entry_text.replace("}}}", r#"},"later":{"count":1}}}"#);
    assert!(file_entry(later.as_bytes()).is_some(), "{later}");
    assert!(
        format!("{fast:?}")
            .contains("mcdc: Some(CountsJson { count: ExactCount(3), covered: ExactCount(1)"),
        "{fast:?}"
    );
    for declined in [
        r#"{"filename":"a","summary":{"lines":{"count":1},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1}}}"#,
        r#"{"filename":"a"}"#,
        r#"{"filename":"a","summary":{"lines":{"count":1,"covered":1},"functions":{"count":1,"covered":1},"instantiations":{"count":1,"covered":1},"regions":{"count":1,"covered":1},"mcdc":{"count":1}}}"#,
        r#"{"summary":{}}"#,
        r#"{"filename":"a","filename":"b","summary":{}}"#,
    ] {
        assert!(file_entry(declined.as_bytes()).is_none(), "{declined}");
    }
}

#[test]
fn known_keys_are_found_by_their_bytes_and_others_read_as_strings() {
    let key = |text: &'static str| {
        let mut scan = Scan {
            bytes: text.as_bytes(),
            pos: 0,
        };
        scan.key().map(|(key, _)| (key, scan.pos))
    };
    for known in KNOWN_KEYS {
        let text: &'static str = Box::leak(format!("\"{known}\":1").into_boxed_str());
        assert_eq!(key(text), Some((known, known.len() + 2)), "{text}");
    }
    // Not known: read as any string, with what `str` takes and declines.
    assert_eq!(key(r#""x":1"#), Some(("x", 3)));
    assert_eq!(key(r#" "name":1"#), Some(("name", 7)));
    assert_eq!(
        key(r#""abcdefghijklmnopqrstu":1"#),
        Some(("abcdefghijklmnopqrstu", 23))
    );
    assert_eq!(key("\"n\u{e4}me\":1"), Some(("n\u{e4}me", 7)));
    assert_eq!(key(r#""na\"me":1"#), None);
    assert_eq!(key(r#""name"#), None);
    assert_eq!(key("\"na\tme\":1"), None);
}

#[test]
fn records_of_files_that_keep_nothing_are_checked_not_stored() {
    let text = r#"{"branches":[[3,8,3,14,1,0,0,0,4]],"count":2,"filenames":["/s/a.rs"],"name":"f","regions":[[1,1,9,2,2,0,0,0]]}"#;
    let skip_all = |_: &[&str]| Want::Nothing;
    let Some((
        Record::Skipped {
            has_branches,
            main,
            evidence,
        },
        len,
    )) = record(text.as_bytes(), &skip_all)
    else {
        panic!("skipped");
    };
    assert!(has_branches && len == text.len());
    assert_eq!(main, Some("/s/a.rs"));
    let span = Span {
        line_start: 1,
        col_start: 1,
        line_end: 9,
        col_end: 2,
    };
    let region = Region {
        span,
        count: 2,
        file_id: 0,
        expanded_file_id: 0,
        kind: 0,
    };
    let branch = Branch {
        span,
        true_count: 1,
        false_count: 0,
        file_id: 0,
    };
    assert_eq!(evidence, Evidence::of(2, &[region], &[branch]));
    // Checked all the same: a bad region is declined.
    let bad = text.replace("[1,1,9,2,2,0,0,0]", "[1,1,9,2,2,0,0]");
    assert!(record(bad.as_bytes(), &skip_all).is_none());
    // `filenames` after `regions`: the regions are read, then the record is skipped.
    let late = r#"{"regions":[[1,1,9,2,2,0,0,0]],"name":"f","count":0,"filenames":["a"]}"#;
    assert!(matches!(
        record(late.as_bytes(), &skip_all),
        Some((
            Record::Skipped {
                has_branches: false,
                main: Some("a"),
                ..
            },
            _
        ))
    ));
}

#[test]
fn blank_space_takes_the_general_path() {
    let spaced = "{ \"name\" : \"f\" , \"count\" : 1 , \"filenames\" : [ \"a\" ] ,\n \"regions\" : [ [ 1 , 1 , 2 , 2 , 1 , 0 , 0 , 0 ] ] , \"branches\" : [ [ 1 , 1 , 1 , 5 , 0 , 1 , 0 , 0 , 4 ] ] }";
    let keep_all = |_: &[&str]| Want::Whole;
    let (Record::Read(fast), len) = record(spaced.as_bytes(), &keep_all).expect("in the lane")
    else {
        panic!("read whole");
    };
    let slow: RawRecord = serde_json::from_str(spaced).expect("valid");
    assert_eq!(len, spaced.len());
    assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
    for declined in [
        "[ 1 , 2 ]",
        "[1,2,3]",
        "[1,2",
        "[01,2]",
        "[4294967296,1,1,1,1,0,0,0]",
        "[1,1,1,1,1,4294967296,0,0]",
        "[1,1,1,1,1,0,4294967296,0]",
        "[1,1,1,1,1,0,0,4294967296]",
    ] {
        let mut scan = Scan {
            bytes: declined.as_bytes(),
            pos: 0,
        };
        assert!(scan.region().is_none(), "{declined}");
    }
    for declined in [
        "[1,1,1,1,1,1,0,4294967296,0]",
        "[1,1,1,1,1,1,0,0,4294967296]",
        "[1,1,1,1,1,1,4294967296,0,0]",
        "[1,1,4294967296,1,1,1,0,0,0]",
    ] {
        let mut scan = Scan {
            bytes: declined.as_bytes(),
            pos: 0,
        };
        assert!(scan.branch().is_none(), "{declined}");
    }
}

#[test]
fn flat_arrays_take_the_fast_path_or_none() {
    for (text, len) in [
        ("[]", Some(2)),
        ("[1,true,false,null,0]", Some(21)),
        ("[1.5]", None),
        ("[01]", None),
        ("[tru]", None),
        ("[fals]", None),
        ("[nul]", None),
        ("[\"s\"]", None),
        ("[1", None),
        ("[1,", None),
        ("x", None),
        ("[0]", Some(3)),
        ("[10,20]]", Some(7)),
        ("[0", None),
        ("[12", None),
        ("[00]", None),
        ("[-1]", None),
        ("[1 ,2]", None),
        ("[true", None),
        ("[null,false]", Some(12)),
    ] {
        let mut scan = Scan {
            bytes: text.as_bytes(),
            pos: 0,
        };
        assert_eq!(scan.flat().map(|()| scan.pos), len, "{text}");
    }
}

#[test]
fn incomplete_or_oversized_parts_are_declined() {
    let scan = |text: &str| Scan {
        bytes: text.as_bytes().to_vec().leak(),
        pos: 0,
    };
    assert!(scan("[12345678901234567890,1,1,1,1,0,0,0]")
        .region()
        .is_none());
    assert!(scan("[1,4294967296,1,1,1,0,0,0]").region().is_none());
    assert!(scan("[1,1,1,4294967296,1,0,0,0]").region().is_none());
    assert!(scan("{").skip(0).is_none());
    assert!(scan(r#"{"covered":1}"#).counts().is_none());
    let pair = r#"{"count":1,"covered":1}"#;
    for missing in ["functions", "instantiations", "regions", "lines"] {
        let present: Vec<String> = ["lines", "functions", "instantiations", "regions"]
            .iter()
            .filter(|k| **k != missing)
            .map(|k| format!("\"{k}\":{pair}"))
            .collect();
        let text = format!("{{{}}}", present.join(","));
        assert!(scan(&text).summary().is_none(), "{missing}");
    }
    let keep_all = |_: &[&str]| Want::Whole;
    for text in [
        r#"{"name":"f","filenames":[],"regions":[]}"#,
        r#"{"name":"f","count":1,"filenames":[]}"#,
        r#"{"name":"f","count":1,"regions":[]}"#,
    ] {
        assert!(record(text.as_bytes(), &keep_all).is_none(), "{text}");
    }
}

#[test]
fn a_short_quote_is_found_as_a_byte_search_finds_it() {
    let reference = |body: &[u8]| body.iter().take(16).position(|&b| b == b'"');
    let mut bodies: Vec<Vec<u8>> = Vec::new();
    for at in 0..20 {
        for fill in [b'a', 0x21, 0x23, 0x80, 0xA2, 0xFF, 0x00] {
            let mut body = vec![fill; 24];
            if at < 24 {
                body[at] = b'"';
            }
            body[at.min(23)..]
                .iter_mut()
                .skip(1)
                .for_each(|b| *b = b'"');
            bodies.push(body.clone());
            bodies.push(body[..at.min(15)].to_vec());
            bodies.push(vec![fill; 24]);
        }
    }
    for body in &bodies {
        let found = short_quote(body);
        if body.len() >= 16 {
            assert_eq!(found, reference(body), "{body:?}");
        } else {
            assert_eq!(found, body.iter().position(|&b| b == b'"'), "{body:?}");
        }
    }
    assert_eq!(short_quote(b"count\":1,\"covered\":2}"), Some(5));
    assert_eq!(short_quote(b"abcdefghijklmnopq\""), None);
}

#[test]
fn records_whose_file_is_known_keep_their_file_names_empty() {
    let text =
        r#"{"count":2,"filenames":["/s/a.rs","/s/b.rs"],"name":"f","regions":[[1,1,9,2,2,0,0,0]]}"#;
    let unnamed = |names: &[&str]| {
        assert_eq!(names, ["/s/a.rs", "/s/b.rs"]);
        Want::Unnamed
    };
    let Some((Record::Read(read), len)) = record(text.as_bytes(), &unnamed) else {
        panic!("read");
    };
    assert_eq!(
        (read.filenames, len),
        (vec![String::new(), String::new()], text.len())
    );
    let Some((Record::Read(read), _)) = record(text.as_bytes(), &|_: &[&str]| Want::Whole) else {
        panic!("read");
    };
    assert_eq!(read.filenames, ["/s/a.rs", "/s/b.rs"]);
}

#[test]
fn a_record_borrows_its_name_and_keeps_it_only_when_it_is_listed() {
    let text = |count: u64, hit: u64| {
        format!(
            r#"{{"count":{count},"filenames":["/s/a.rs"],"name":"_RNvC1a1f","regions":[[1,1,9,2,{hit},0,0,0]]}}"#
        )
    };
    let kept_name = |text: &str| {
        let Some((Record::Read(read), _)) = record(text.as_bytes(), &|_: &[&str]| Want::Whole)
        else {
            panic!("read");
        };
        // Read without a copy of the name.
        assert!(
            matches!(&read.name, std::borrow::Cow::Borrowed("_RNvC1a1f")),
            "{:?}",
            read.name
        );
        let (_, stats) = read.into_stats(super::super::Kept::Misses).expect("stats");
        stats.name
    };
    // Ran with nothing missed: no name; never ran, or a miss: the name, copied once.
    assert_eq!(&*kept_name(&text(2, 2)), "");
    assert_eq!(&*kept_name(&text(0, 0)), "_RNvC1a1f");
    assert_eq!(&*kept_name(&text(2, 0)), "_RNvC1a1f");
}

/// A skipped record's main file among more than 64 files: the expansions of files 64 and up
/// are listed apart from the bits of the others, and the one file no expansion expands is the
/// main one.
#[test]
fn the_main_file_of_a_record_with_files_past_64() {
    let names: Vec<String> = (0..66).map(|i| format!("\"f{i}\"")).collect();
    let mut regions = vec!["[1,1,2,1,1,65,0,0]".to_string()];
    regions.extend((0..65).map(|k| format!("[1,1,1,5,1,65,{k},1]")));
    let text = format!(
        r#"{{"count":1,"filenames":[{}],"name":"f","regions":[{}]}}"#,
        names.join(","),
        regions.join(",")
    );
    let skip_all = |_: &[&str]| Want::Nothing;
    let Some((Record::Skipped { main, .. }, len)) = record(text.as_bytes(), &skip_all) else {
        panic!("skipped");
    };
    assert_eq!((main, len), (Some("f65"), text.len()));
}
