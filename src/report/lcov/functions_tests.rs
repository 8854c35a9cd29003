use super::super::lines::put;
use super::*;

fn function(start: Option<u32>, end: Option<u32>, name: &str, count: u64) -> Function {
    Function {
        start,
        end,
        name: Name::from(name),
        aliases: Aliases::default(),
        count,
    }
}

/// Every field comes back exactly from the packed form: lines at the ends of `u32` (and none),
/// counts at the ends of `u64`, aliases, in order.
#[test]
fn packed_functions_come_back_exactly() {
    let mut grouped = function(Some(7), Some(9), "a", 3);
    grouped.aliases = Aliases::from_sorted(vec![Name::from("a"), Name::from("b")]);
    let list = vec![
        function(Some(0), None, "zero", 0),
        function(Some(u32::MAX), Some(u32::MAX), "last", u64::MAX),
        function(None, None, "fnda_only", 1),
        grouped,
        function(Some(300), Some(70_000), "far", 1 << 40),
    ];
    let mut functions = Functions::from(list.clone());
    functions.pack();
    assert!(matches!(functions, Functions::Packed(_)));
    assert_eq!(functions.len(), 5);
    assert_eq!(functions.list().into_owned(), list);
    assert_eq!(functions.clone().into_vec(), list);
    assert_eq!(functions, Functions::from(list.clone()));
    assert_eq!(format!("{functions:?}"), format!("{list:?}"));
    // Packed functions are read only: nothing to change in place, and none to look up.
    assert!(functions.get_mut(0).is_none());
    assert!(functions.opened().is_empty());
    functions.unpack();
    assert_eq!(functions.opened(), list.as_slice());
    assert_eq!(functions.get_mut(3).map(|f| f.count), Some(3));
}

/// A function added to packed functions unpacks them; packing twice changes nothing; no
/// function packs to none.
#[test]
fn pushing_onto_packed_functions_unpacks_them() {
    let mut functions = Functions::from(vec![function(Some(1), None, "f", 1)]);
    functions.pack();
    functions.pack();
    functions.push(function(Some(2), None, "g", 0));
    // Open functions stay as they are.
    functions.unpack();
    assert_eq!(
        functions.opened(),
        [
            function(Some(1), None, "f", 1),
            function(Some(2), None, "g", 0)
        ]
    );
    let mut empty = Functions::default();
    empty.pack();
    assert!(empty.is_empty());
    assert_eq!(empty.into_vec(), Vec::new());
}

/// The length of `name`'s number as a varint.
fn number_bytes(name: &str) -> usize {
    let mut bytes = Vec::new();
    put(&mut bytes, Name::from(name).number() as u64);
    bytes.len()
}

/// The common `FN` record (a start line, no end line, no aliases, a small count) takes three
/// bytes beside its name's number; end lines and aliases take room only where they are.
#[test]
fn a_plain_function_takes_three_bytes() {
    let plain = |start, count| function(Some(start), None, "f", count);
    let mut functions = Functions::from(vec![plain(4094, 127), plain(0, 0)]);
    functions.pack();
    let Functions::Packed(packed) = &functions else {
        panic!("packed");
    };
    assert_eq!(packed.bytes.len(), 3 + 2 + 2 * number_bytes("f"));
    assert_eq!(functions.len(), 2);
    assert!(!functions.is_empty());
    let mut ended = Functions::from(vec![function(Some(1), Some(300), "g", 1)]);
    ended.pack();
    let Functions::Packed(packed) = &ended else {
        panic!("packed");
    };
    assert_eq!(packed.bytes.len(), 1 + 2 + 1 + number_bytes("g"));
}

/// A name is stored once for the process: spelt again (by another block, another file), it is
/// the same name with the same number; packed functions hold numbers, and bytes that name no
/// name of the table end the list (only `pack` writes them, so this never happens).
#[test]
fn names_are_numbered_once_per_process() {
    let (a, again) = (Name::from("numbered once"), Name::from("numbered once"));
    assert_eq!(a.number(), again.number());
    assert_ne!(a.number(), Name::from("numbered twice").number());
    assert_eq!(
        with_numbered(|names| names.get(a.number()).cloned()),
        Some(a)
    );
    let mut bytes = Vec::new();
    put(&mut bytes, u64::MAX);
    let unknown = Packed {
        bytes: bytes.into_boxed_slice(),
    };
    assert!(unknown.unpack().is_empty());
    // An alias list cut short ends with the last alias found.
    let mut grouped = function(Some(1), None, "x", 1);
    grouped.aliases = Aliases::from_sorted(vec![Name::from("x"), Name::from("y")]);
    let Functions::Packed(packed) = ({
        let mut f = Functions::from(vec![grouped]);
        f.pack();
        f
    }) else {
        panic!("packed");
    };
    let cut = Packed {
        bytes: packed.bytes[..packed.bytes.len() - number_bytes("y")].into(),
    };
    assert_eq!(cut.unpack().first().map(|f| f.aliases.len()), Some(1));
}
