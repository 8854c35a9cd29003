//! cfg values as rustc takes and prints them: a `--cfg` flag parsed, and the values a built-in
//! target sets.

use cfg_expr::targets::{Abi, Env, Os, TargetInfo, Vendor};
use cfg_expr::Expression;

use super::condition::{atom, Atom, Free};
use crate::error::{Error, Result};

/// `--cfg KEY` or `--cfg KEY=VALUE` (VALUE optionally in double quotes), as rustc takes it.
pub(super) fn parse_cfg(flag: &str) -> Result<Free> {
    let bad = |why: &str| Error::new(format!("--cfg {flag}: {why}"));
    let (key, value) = match flag.split_once('=') {
        Some((key, value)) => {
            let value = value.trim();
            let unquoted = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            (key.trim(), Some(unquoted))
        }
        None => (flag.trim(), None),
    };
    if !is_identifier(key) {
        return Err(bad("expected KEY or KEY=VALUE, where KEY is an identifier"));
    }
    if value.is_some_and(|v| v.contains(['"', '\\'])) {
        return Err(bad("the value may not contain `\"` or `\\`"));
    }
    let text = match value {
        Some(value) => format!("{key} = \"{value}\""),
        None => key.to_string(),
    };
    let expr = Expression::parse(&text).map_err(|e| bad(&e.reason.to_string()))?;
    let first = expr.predicates().next();
    match first.as_ref().map(atom) {
        Some(Atom::Free((key, _))) if key == "feature" => {
            Err(bad("features are given with --features A,B"))
        }
        Some(Atom::Free(free)) => Ok(free),
        _ => Err(bad(&format!(
            "`{key}` is set by the target; choose the target with --target TRIPLE"
        ))),
    }
}

pub(super) fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `key` or `key="value"`, as `rustc --print cfg` writes a cfg.
pub(super) fn cfg_text(key: &str, value: &Option<String>) -> String {
    match value {
        Some(value) => format!("{key}=\"{value}\""),
        None => key.to_string(),
    }
}

/// The cfg values a built-in target sets, as `rustc --print cfg` writes them (without
/// `target_feature`, which cfg-expr's list does not carry).
pub(super) fn target_cfgs(target: &TargetInfo) -> Vec<String> {
    let kv = |key: &str, value: &str| cfg_text(key, &Some(value.to_string()));
    let mut values = vec![
        kv("panic", target.panic.as_str()),
        kv("target_abi", target.abi.as_ref().map_or("", Abi::as_str)),
        kv("target_arch", target.arch.as_str()),
        kv("target_endian", &format!("{:?}", target.endian)),
        kv("target_env", target.env.as_ref().map_or("", Env::as_str)),
        kv("target_os", target.os.as_ref().map_or("none", Os::as_str)),
        kv("target_pointer_width", &target.pointer_width.to_string()),
        kv(
            "target_vendor",
            target.vendor.as_ref().map_or("unknown", Vendor::as_str),
        ),
    ];
    for family in target.families.iter() {
        values.push(kv("target_family", family.as_str()));
        if matches!(family.as_str(), "unix" | "windows") {
            values.push(family.as_str().to_string());
        }
    }
    values.extend(
        target
            .has_atomics
            .iter()
            .map(|width| kv("target_has_atomic", &width.to_string())),
    );
    values
}
