//! Path normalisation: making the file names in reports comparable with each other and with the
//! files under the root.
//!
//! All normalisation is lexical (no file-system access, so reports made on another machine work):
//! `\` becomes `/`, repeated separators collapse, `.` components go, `..` removes the component
//! before it (and is dropped at the top of an absolute path), a drive letter is upper-cased
//! (`c:\src` → `C:/src`). `--remap-path-prefix FROM=TO` then rewrites a leading `FROM` to `TO` as
//! rustc's flag does (the last matching mapping wins), and relative report paths are taken as
//! relative to the root.

use crate::error::{Error, Result};

/// Normalises a path lexically: `/` separators, no `.`, `..` resolved, upper-case drive letter.
///
/// Relative paths stay relative (leading `..` components are kept); an absolute path never climbs
/// above its root (`/a/../../b` → `/b`). The empty path and `.` normalise to `""`.
///
/// ```
/// use covgate::paths::normalize;
/// assert_eq!(normalize("/ws/a/src/../shared/./x.rs"), "/ws/a/shared/x.rs");
/// assert_eq!(normalize(r"c:\work\src\lib.rs"), "C:/work/src/lib.rs");
/// ```
pub fn normalize(raw: &str) -> String {
    let unified = raw.replace('\\', "/");
    let (prefix, rest) = split_prefix(&unified);
    let absolute = !prefix.is_empty();
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => pop_parent(&mut parts, absolute),
            other => parts.push(other),
        }
    }
    let out = format!("{prefix}{}", parts.join("/"));
    if absolute || split_prefix(&out).0.is_empty() {
        out
    } else {
        // `..` left a relative path that starts like a drive (`x/../c:` → `c:`): read it as one,
        // so that normalising twice changes nothing.
        normalize(&out)
    }
}

/// Removes the last component for `..`, keeping leading `..` on relative paths.
fn pop_parent(parts: &mut Vec<&str>, absolute: bool) {
    match parts.last() {
        Some(&last) if last != ".." => {
            parts.pop();
        }
        _ if absolute => {}
        _ => parts.push(".."),
    }
}

/// Splits a `/`-separated path into its root prefix (`/`, `C:/`, or `""`) and the rest.
fn split_prefix(path: &str) -> (String, &str) {
    let bytes = path.as_bytes();
    if let [drive, b':', rest @ ..] = bytes {
        if drive.is_ascii_alphabetic() {
            let root = if rest.first() == Some(&b'/') { "/" } else { "" };
            let tail = path.get(2..).unwrap_or("").trim_start_matches('/');
            return (
                format!("{}:{root}", drive.to_ascii_uppercase() as char),
                tail,
            );
        }
    }
    match path.strip_prefix('/') {
        Some(rest) => ("/".to_string(), rest.trim_start_matches('/')),
        None => (String::new(), path),
    }
}

/// True when a normalised path is absolute (`/…` or `X:…`).
pub fn is_absolute(normalized: &str) -> bool {
    !split_prefix(normalized).0.is_empty()
}

/// `path` relative to `base` (both normalised), when `path` is `base` itself or lies below it.
/// Comparison is by whole components: `/ws/ab` is not below `/ws/a`.
pub fn strip_base<'a>(path: &'a str, base: &str) -> Option<&'a str> {
    if base.is_empty() {
        return Some(path);
    }
    let rest = path.strip_prefix(base)?;
    if rest.is_empty() {
        Some("")
    } else if base.ends_with('/') {
        Some(rest)
    } else {
        rest.strip_prefix('/')
    }
}

/// Joins a normalised relative path onto a normalised base.
pub fn join(base: &str, rel: &str) -> String {
    if base.is_empty() {
        normalize(rel)
    } else {
        normalize(&format!("{base}/{rel}"))
    }
}

/// One `--remap-path-prefix FROM=TO` mapping (both sides normalised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remap {
    /// The prefix as the report spells it.
    pub from: String,
    /// What to put in its place.
    pub to: String,
}

impl Remap {
    /// Parses `FROM=TO`, split at the last `=` as rustc does. Errors when there is no `=` or
    /// `FROM` is empty.
    pub fn parse(spec: &str) -> Result<Remap> {
        match spec.rsplit_once('=') {
            Some((from, to)) if !from.is_empty() => Ok(Remap {
                from: normalize(from),
                to: normalize(to),
            }),
            _ => Err(Error::new(format!(
                "--remap-path-prefix `{spec}`: expected FROM=TO, e.g. --remap-path-prefix /ci/build=."
            ))),
        }
    }
}

/// Turns report paths into root-relative paths.
#[derive(Debug, Clone)]
pub struct Resolver {
    root: String,
    remaps: Vec<Remap>,
    hint: Option<String>,
}

/// Where a report path lands after normalisation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    /// Below the root: the relative path, `/`-separated (`src/lib.rs`).
    Inside(String),
    /// Outside the root: the normalised absolute path.
    Outside(String),
}

impl Location {
    /// The path as shown to users: relative inside the root, absolute outside.
    pub fn as_str(&self) -> &str {
        match self {
            Location::Inside(p) | Location::Outside(p) => p,
        }
    }
}

impl Resolver {
    /// A resolver for `root` (an absolute, normalised path), remappings, and an optional hint
    /// folder (cargo-llvm-cov's manifest folder as it was on the machine that made the report).
    pub fn new(root: &str, remaps: Vec<Remap>, hint: Option<String>) -> Resolver {
        Resolver {
            root: normalize(root),
            remaps,
            hint: hint.map(|h| normalize(&h)),
        }
    }

    /// The root this resolver makes paths relative to.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Resolves one report path: normalise, remap, anchor relative paths at the root, then make
    /// it root-relative (or relative to the hint folder when it lies outside the root but below
    /// the hint: a report made on another machine without `--remap-path-prefix`).
    pub fn resolve(&self, raw: &str) -> Location {
        let remapped = self.remap(&normalize(raw));
        let absolute = if is_absolute(&remapped) {
            remapped
        } else {
            join(&self.root, &remapped)
        };
        if let Some(rel) = strip_base(&absolute, &self.root) {
            return Location::Inside(rel.to_string());
        }
        match self.hint.as_deref().and_then(|h| strip_base(&absolute, h)) {
            Some(rel) => Location::Inside(rel.to_string()),
            None => Location::Outside(absolute),
        }
    }

    /// Applies the last matching `--remap-path-prefix`.
    fn remap(&self, path: &str) -> String {
        for remap in self.remaps.iter().rev() {
            if let Some(rest) = strip_base(path, &remap.from) {
                return join(&remap.to, rest);
            }
        }
        path.to_string()
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn normalizes_dots_separators_and_drives() {
        assert_eq!(normalize("/ws/a/src/../shared/./c.rs"), "/ws/a/shared/c.rs");
        assert_eq!(
            normalize("c:\\Users\\me\\src\\lib.rs"),
            "C:/Users/me/src/lib.rs"
        );
        assert_eq!(normalize("./src//lib.rs"), "src/lib.rs");
        assert_eq!(normalize("../x/../y"), "../y");
        assert_eq!(normalize("/../a"), "/a");
        assert_eq!(normalize("."), "");
        assert_eq!(normalize("C:rel"), "C:rel");
        assert_eq!(normalize(": /..\\a:"), "A:");
        assert_eq!(normalize("x/../c:/y"), "C:/y");
        assert_eq!(normalize(&normalize("x/../c:/y")), "C:/y");
        assert_eq!(normalize("../../a/./b"), "../../a/b");
        assert_eq!(normalize("1:/x//y"), "1:/x/y");
    }

    #[test]
    fn strip_base_respects_components() {
        assert_eq!(strip_base("/ws/a/src/x.rs", "/ws/a"), Some("src/x.rs"));
        assert_eq!(strip_base("/ws/ab/x.rs", "/ws/a"), None);
        assert_eq!(strip_base("/ws/a", "/ws/a"), Some(""));
        assert_eq!(strip_base("/x", "/"), Some("x"));
        assert_eq!(strip_base("x", ""), Some("x"));
    }

    #[test]
    fn remap_uses_last_equals_and_last_match() {
        let r = Remap::parse("/ci/a=b=/work").unwrap();
        assert_eq!(r.from, "/ci/a=b");
        assert_eq!(r.to, "/work");
        assert!(Remap::parse("nothing").is_err());
        assert!(Remap::parse("=/x").is_err());
        let res = Resolver::new(
            "/work",
            vec![
                Remap::parse("/ci=/elsewhere").unwrap(),
                Remap::parse("/ci=/work").unwrap(),
            ],
            None,
        );
        assert_eq!(
            res.resolve("/ci/src/lib.rs"),
            Location::Inside("src/lib.rs".into())
        );
    }

    #[test]
    fn resolves_relative_outside_and_hint() {
        let res = Resolver::new("/home/me/p", vec![], Some("/ci/p".into()));
        assert_eq!(
            res.resolve("src\\lib.rs"),
            Location::Inside("src/lib.rs".into())
        );
        assert_eq!(
            res.resolve("/home/me/p/./src/a.rs"),
            Location::Inside("src/a.rs".into())
        );
        assert_eq!(
            res.resolve("/ci/p/src/b.rs"),
            Location::Inside("src/b.rs".into())
        );
        assert_eq!(
            res.resolve("/usr/lib/rust/core.rs"),
            Location::Outside("/usr/lib/rust/core.rs".into())
        );
        assert_eq!(res.root(), "/home/me/p");
        // A remap that does not match leaves the path alone; an empty TO makes it relative,
        // so it lands under the root.
        let res = Resolver::new(
            "/work",
            vec![
                Remap::parse("/ci=").unwrap(),
                Remap::parse("/other=/x").unwrap(),
            ],
            None,
        );
        assert_eq!(
            res.resolve("/ci/src/lib.rs"),
            Location::Inside("src/lib.rs".into())
        );
        assert_eq!(
            res.resolve("/usr/src/core.rs"),
            Location::Outside("/usr/src/core.rs".into())
        );
        assert_eq!(Location::Outside("/o".into()).as_str(), "/o");
        assert_eq!(Location::Inside("a".into()).as_str(), "a");
    }
}
