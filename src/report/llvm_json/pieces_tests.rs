//! Tests of [`super`]: pieces stitched as a sequential parse reads them.

use serde::Deserialize;

use super::*;

/// A comma-separated list of `{"k":N}` objects, as a test element.
struct Numbers;

#[derive(Deserialize)]
struct Number {
    k: u64,
}

impl Element for Numbers {
    type Out = u64;

    fn parse(&self, bytes: &[u8], last: bool) -> Parsed<u64> {
        match parse_value::<Number>(bytes, last) {
            Parsed::Done(n, len) => Parsed::Done(n.k, len),
            Parsed::Eof => Parsed::Eof,
            Parsed::Bad(reason) => Parsed::Bad(reason),
        }
    }
}

fn values(runs: Vec<Vec<(usize, u64)>>) -> Vec<u64> {
    runs.into_iter().flatten().map(|(_, value)| value).collect()
}

fn stitched(window: &str, piece: usize) -> (Vec<u64>, String) {
    let mut out = Vec::new();
    let end = match stitch(
        &Numbers,
        window.as_bytes(),
        piece,
        &mut out,
        &mut Vec::new(),
    ) {
        End::Open(at) => format!("open {at}"),
        End::Closed(at) => format!("closed {at}"),
        End::Short(at) => format!("short {at}"),
        End::Bad(at, _) => format!("bad {at}"),
        End::Separator(at) => format!("sep {at}"),
    };
    (values(out), end)
}

#[test]
fn every_piece_size_gives_the_sequential_result() {
    let window = r#"{"k":1}, {"k":22} ,{"k":333},{"k":4}] tail"#;
    for piece in 1..window.len() + 2 {
        assert_eq!(
            stitched(window, piece),
            (vec![1, 22, 333, 4], "closed 37".to_string()),
            "piece {piece}"
        );
    }
}

#[test]
fn false_candidates_inside_strings_are_parsed_again() {
    // `,{"k"` inside a string of another key looks like an element start.
    #[derive(Deserialize)]
    struct Tagged {
        k: u64,
        #[serde(default, rename = "s")]
        _s: Option<String>,
    }
    struct TaggedNumbers;
    impl Element for TaggedNumbers {
        type Out = u64;
        fn parse(&self, bytes: &[u8], last: bool) -> Parsed<u64> {
            match parse_value::<Tagged>(bytes, last) {
                Parsed::Done(n, len) => Parsed::Done(n.k, len),
                Parsed::Eof => Parsed::Eof,
                Parsed::Bad(reason) => Parsed::Bad(reason),
            }
        }
    }
    let window = r#"{"k":1,"s":"x,{\"k\":9}, ,{"},{"k":2,"s":",{\"k\":8},{\"k\":7}"},{"k":3}]"#;
    for piece in 1..window.len() + 2 {
        let mut out = Vec::new();
        let end = stitch(
            &TaggedNumbers,
            window.as_bytes(),
            piece,
            &mut out,
            &mut Vec::new(),
        );
        assert_eq!(values(out), vec![1, 2, 3], "piece {piece}");
        assert!(
            matches!(end, End::Closed(at) if at == window.len()),
            "piece {piece}"
        );
    }
}

#[test]
fn a_window_ending_inside_an_element_is_short_there() {
    for piece in [1, 3, 8, 100] {
        assert_eq!(
            stitched(r#"{"k":1},{"k":2},{"k":"#, piece),
            (vec![1, 2], "short 16".to_string())
        );
        // The separator after the last element is not in the window yet.
        assert_eq!(
            stitched(r#"{"k":1},{"k":2} "#, piece),
            (vec![1], "short 8".to_string())
        );
        assert_eq!(
            stitched(r#"{"k":1},{"k":2}, "#, piece),
            (vec![1, 2], "open 17".to_string())
        );
    }
}

#[test]
fn bad_elements_and_separators_are_bad() {
    for piece in [1, 4, 100] {
        assert_eq!(stitched(r#"{"k":1},{"k":"x"}]"#, piece).1, "bad 8");
        assert_eq!(stitched(r#"{"k":1};{"k":2}]"#, piece).1, "sep 7");
        assert_eq!(stitched(r#"{"k":1},] ..."#, piece).1, "bad 8");
        // At the end of the window, the same may be a cut: more input decides.
        assert_eq!(stitched(r#"{"k":1},]"#, piece).1, "short 8");
        assert_eq!(stitched(r#"{"k":1},{"k":1."#, piece).1, "short 8");
        assert_eq!(stitched("{\"k\":1},\n{\"k\":1.", piece).1, "short 9");
        assert_eq!(stitched("{\"k\":1},\n{\"k\":1.x\n", piece).1, "bad 9");
    }
}

#[test]
fn candidates_need_a_comma_before_and_the_key_after() {
    let w = br#"[{"a":1}, {"b":2},{ "a" :3},{"ab":4}"#;
    assert_eq!(candidate(w, 0, w.len(), b"a"), Some(18));
    assert_eq!(candidate(w, 19, w.len(), b"a"), None);
    assert_eq!(candidate(w, 0, w.len(), b"b"), Some(10));
    assert_eq!(first_key(br#" {"name":1}"#), b"name");
    assert_eq!(first_key(br#"{"na\"me":1}"#), b"");
    assert_eq!(first_key(b"{}"), b"");
    assert_eq!(first_key(br#"{"open"#), b"");
}

#[test]
fn errors_at_the_end_of_the_bytes_may_be_cuts() {
    let err = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect_err("invalid");
    assert!(at_end(&err("[1,"), b"[1,"));
    assert!(at_end(&err("[1,]"), b"[1,]"));
    assert!(!at_end(&err("[1,] "), b"[1,] "));
    assert!(at_end(&err("[\n1,\n]"), b"[\n1,\n]"));
    assert!(!at_end(&err("[\n1,\n] "), b"[\n1,\n] "));
    // A position past the bytes given (cannot happen for the bytes parsed): not a cut.
    assert!(!at_end(&err("[\n\n\n1,\n]"), b"[1,]"));
}

#[test]
fn values_are_cut_bad_or_done_as_the_input_may_go_on() {
    let parse = |text: &str, last: bool| match parse_value::<Number>(text.as_bytes(), last) {
        Parsed::Done(n, len) => format!("done {} {len}", n.k),
        Parsed::Eof => "eof".to_string(),
        Parsed::Bad(Reason::Serde(err)) => format!("bad {err}"),
        Parsed::Bad(Reason::Custom(message, _)) => format!("custom {message}"),
    };
    assert_eq!(parse("  ", false), "eof");
    assert_eq!(parse("  ", true), "eof");
    assert_eq!(parse(r#"{"k":"#, false), "eof");
    assert!(parse(r#"{"k":"#, true).starts_with("bad EOF while parsing"));
    assert!(parse(r#"{"k":1,"k":2} "#, false).starts_with("bad duplicate key `k`"));
    assert!(parse(r#"{"k":1,"k":2}"#, true).starts_with("bad duplicate key `k`"));
    assert!(parse(r#"{"k":"x"} "#, false).starts_with("bad invalid type"));
    assert_eq!(parse(r#"{"k":7} "#, false), "done 7 7");
}

#[test]
fn a_run_makes_room_for_the_elements_its_first_one_suggests_up_to_a_bound() {
    assert_eq!(expected(1000, 100), 11);
    assert_eq!(expected(99, 100), 1);
    assert_eq!(expected(256 << 10, 10), EXPECTED_MOST);
}

#[test]
fn runs_are_parsed_into_the_rooms_given_and_their_vectors_come_back() {
    let window = r#"{"k":1},{"k":22},{"k":333},{"k":4},{"k":5}] tail"#;
    for piece in [1, 8, 9, 17, 100] {
        // Rooms with a mark of their own (their capacity), more than the pieces need.
        let mut rooms: Vec<Vec<(usize, u64)>> = (0..64).map(|_| Vec::with_capacity(77)).collect();
        let mut out = Vec::new();
        let end = stitch(&Numbers, window.as_bytes(), piece, &mut out, &mut rooms);
        assert!(matches!(end, End::Closed(43)), "piece {piece}");
        // Every run taken was parsed into a room given (none was allocated afresh), and the
        // rooms of the pieces skipped went back, emptied (those after the array's end are
        // dropped).
        assert!(out.iter().all(|run| run.capacity() == 77), "piece {piece}");
        assert!(rooms
            .iter()
            .all(|room| room.is_empty() && room.capacity() == 77));
        let pieces = window.len().div_ceil(piece);
        assert!(rooms.len() >= 64 - pieces, "piece {piece}");
        let mut given = Vec::new();
        let mut back = Vec::new();
        recycle(out, &mut |value| given.push(value), &mut back);
        assert_eq!(given, [1, 22, 333, 4, 5], "piece {piece}");
        assert!(back
            .iter()
            .all(|room| room.is_empty() && room.capacity() == 77));
    }
    // Without rooms, runs get vectors of their own.
    let (values, end) = stitched(window, 8);
    assert_eq!(
        (values, end.as_str()),
        (vec![1, 22, 333, 4, 5], "closed 43")
    );
}
