//! Duplicate keys: llvm-cov never writes an object key twice (`CoverageExporterJson.cpp` builds
//! each object once, key by key), so a duplicate means the export was edited or two exports were
//! joined by hand. A JSON parser keeps one of the values and drops the other without a word (a
//! second `data` or `files` would hide the first, failing one), so covgate refuses the export.
//!
//! [`Unique`] reads any JSON value, keeping nothing, and fails on the first object that holds a
//! key twice, with [`duplicate`]'s message at the parser's position (just after the key). The
//! fast reader's lane checks its objects itself ([`super::lane`]); what serde reads is checked
//! with [`Unique`] first, and the reference reader checks the whole document with it.

use hashbrown::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::report::clip;

/// Any JSON value, read and dropped; an object holding a key twice is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unique;

/// The message for a key written twice in one object.
pub(super) fn duplicate(key: &str) -> String {
    format!(
        "duplicate key `{}` in one object; llvm-cov never writes a key twice, and a reader \
         would keep one value and drop the other: produce the export again instead of editing \
         or joining exports (covgate merges several exports given side by side)",
        clip(key)
    )
}

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Unique, D::Error> {
        deserializer.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut keys: HashSet<String> = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                return Err(de::Error::custom(duplicate(&key)));
            }
            map.next_value::<Unique>()?;
            keys.insert(key);
        }
        Ok(Unique)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<Unique, String> {
        serde_json::from_str::<Unique>(text).map_err(|e| e.to_string())
    }

    #[test]
    fn every_kind_of_value_is_read_and_duplicate_keys_refused() {
        let plain =
            r#"{"a": [true, false, -1, 2, 0.5, "s", "\u00e9", null, {}, []], "b": {"a": 1}}"#;
        assert_eq!(check(plain), Ok(Unique));
        let e = check(r#"{"x": 1, "data": [], "data": [1]}"#).expect_err("duplicate");
        assert!(
            e.starts_with("duplicate key `data` in one object; llvm-cov never writes a key twice"),
            "{e}"
        );
        assert!(e.ends_with("at line 1 column 27"), "{e}");
        let e = check(r#"[{"a": {"files": [], "files": []}}]"#).expect_err("nested");
        assert!(e.starts_with("duplicate key `files`"), "{e}");
        // The same key in two objects is fine; a broken document is an error of its own.
        assert_eq!(check(r#"[{"a": 1}, {"a": 2}]"#), Ok(Unique));
        assert!(check(r#"{"a": "#).is_err());
        let expected: &dyn de::Expected = &UniqueVisitor;
        assert_eq!(expected.to_string(), "any JSON value");
    }
}
