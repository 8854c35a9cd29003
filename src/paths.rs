//! Path normalisation: making the file names in reports comparable with each other and with the
//! files under the root.
//!
//! All normalisation is lexical (no file-system access, so reports made on another machine work):
//! `\` becomes `/`, repeated separators collapse, `.` components go, `..` removes the component
//! before it (and is dropped at the top of an absolute path), a drive letter is upper-cased
//! (`c:\src` → `C:/src`). `--remap-path-prefix FROM=TO` then rewrites a leading `FROM` to `TO` as
//! rustc's flag does (the last matching mapping wins), and relative report paths are taken as
//! relative to the root, or to the anchor a [`Resolver`] is given (a report's own workspace
//! root). A resolver for a report recorded on a case-insensitive system compares prefixes
//! without case ([`PathCase`]). What the file system says (on-disk spelling, symbolic links) is
//! decided after this, in [`crate::identity`], which also asks [`Resolver::physical`] for the
//! spelling the kernel resolves when a path climbs out of a folder it names (`build/../src`).

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
    if is_normal(raw) {
        return raw.to_string();
    }
    lexical(raw)
}

/// [`normalize`] component by component.
fn lexical(raw: &str) -> String {
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

/// True when [`normalize`] gives `raw` back as it is (most paths of a report): `/` and then
/// names, or names alone (the first not a drive, `c:`), none of them empty, `.` or `..`, and
/// no `\`. Checked in one pass, without the copies and the list of components that
/// normalising takes.
fn is_normal(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let names = bytes.strip_prefix(b"/").unwrap_or(bytes);
    let drive = matches!(bytes, [letter, b':', ..] if letter.is_ascii_alphabetic());
    !drive
        && !names.is_empty()
        && !bytes.contains(&b'\\')
        && names
            .split(|b| *b == b'/')
            .all(|name| !matches!(name, b"" | b"." | b".."))
}

/// True when `raw` climbs out of a folder it names: a `..` after a named component
/// (`src/gen/../x.rs`; not a leading `../x.rs`). Spelled lexically, such a path names
/// `src/x.rs`; the kernel names what is beside the target of `gen` when `gen` is a link.
pub(crate) fn climbs_out(raw: &str) -> bool {
    let unified = raw.replace('\\', "/");
    let mut named = false;
    for part in split_prefix(&unified).1.split('/') {
        match part {
            "" | "." => {}
            ".." if named => return true,
            ".." => {}
            _ => named = true,
        }
    }
    false
}

/// Why a policy glob can match no root-relative path, which every file it is held against is:
/// an empty glob, an absolute one (`/abs/proj/src/*.rs`, `C:/x/*.rs`), or one that starts above
/// the root (`../*/src/*.rs`). `None` for any other.
pub(crate) fn unrooted(raw: &str) -> Option<String> {
    let glob = normalize(raw);
    let why = if glob.is_empty() {
        "an empty glob matches no file"
    } else if is_absolute(&glob) {
        "an absolute glob matches no file: globs are matched against paths relative to the root"
    } else if glob == ".." || glob.starts_with("../") {
        "a glob above the root matches no file: globs are matched against paths relative to the root"
    } else {
        return None;
    };
    Some(format!(
        "`{raw}`: {why}; write it relative to the root (e.g. `src/**/*.rs`), or move the root \
         with `root` in the policy or --root"
    ))
}

/// The message for a policy path that [`climbs_out`] of a folder it names.
pub(crate) fn climb_error(raw: &str) -> String {
    format!(
        "`{raw}`: a `..` after a folder name is ambiguous (through a symbolic link it climbs out \
         of the link's target, not back to where it was written); write the path without it, \
         e.g. `{}`",
        normalize(raw)
    )
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
///
/// A Windows verbatim or device prefix (`//?/`, `//./`, as `\\?\` and `\\.\` read once `\`
/// is `/`) names what its plain form names: `//?/C:/x` is `C:/x`, `//?/UNC/srv/share/x` is
/// `//srv/share/x` (that is, `/srv/share/x`), and any other (`//?/Volume{…}/x`) is absolute.
pub(crate) fn split_prefix(path: &str) -> (String, &str) {
    if let Some(rest) = verbatim(path) {
        return match split_prefix(rest) {
            (prefix, _) if prefix.is_empty() => ("/".to_string(), rest),
            plain => plain,
        };
    }
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

/// What follows a Windows verbatim or device prefix (`//?/`, `//./`), with a `UNC/` after it
/// dropped (`//?/UNC/srv/share` → `srv/share`); `None` for a path without one.
fn verbatim(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("//?/")
        .or_else(|| path.strip_prefix("//./"))?;
    Some(match rest.get(..4) {
        Some(unc) if unc.eq_ignore_ascii_case("UNC/") => rest.get(4..).unwrap_or_default(),
        _ => rest,
    })
}

/// True when a normalised path is absolute (`/…` or `X:…`).
pub(crate) fn is_absolute(normalized: &str) -> bool {
    !split_prefix(normalized).0.is_empty()
}

/// `path` relative to `base` (both normalised), when `path` is `base` itself or lies below it.
/// Comparison is by whole components: `/ws/ab` is not below `/ws/a`.
pub(crate) fn strip_base<'a>(path: &'a str, base: &str) -> Option<&'a str> {
    below(path.strip_prefix(base)?, base)
}

/// [`strip_base`], comparing case-insensitively when `fold` is set (each character by
/// [`fold_char`], as Windows compares names).
pub(crate) fn strip_base_folded<'a>(path: &'a str, base: &str, fold: bool) -> Option<&'a str> {
    if !fold {
        return strip_base(path, base);
    }
    let mut rest = path.chars();
    for b in base.chars() {
        let p = rest.next()?;
        if fold_char(p) != fold_char(b) {
            return None;
        }
    }
    below(rest.as_str(), base)
}

/// What is left of a path after `base` (already matched as a prefix), when the match ends at a
/// component boundary.
fn below<'a>(rest: &'a str, base: &str) -> Option<&'a str> {
    if base.is_empty() || base.ends_with('/') || rest.is_empty() {
        Some(rest)
    } else {
        rest.strip_prefix('/')
    }
}

/// True when two names are equal ignoring case: character by character under [`fold_char`].
pub(crate) fn eq_folded(a: &str, b: &str) -> bool {
    a.chars().map(fold_char).eq(b.chars().map(fold_char))
}

/// `name` with each character under [`fold_char`]: the key under which names that differ only
/// by case are one.
pub(crate) fn folded(name: &str) -> String {
    name.chars().map(fold_char).collect()
}

/// A character as Windows compares names without case: NTFS looks each UTF-16 unit up in its
/// upcase table, Unicode's simple (one-to-one) upper-case mapping. So `k` and `K` are one, but
/// the KELVIN SIGN (U+212A, whose lower case is `k`) stays apart, as do the OHM SIGN and `Ω`,
/// the ANGSTROM SIGN and `Å`, `ẞ` and `ß` (whose full upper case `SS` is two characters, so
/// its simple mapping is itself). A character beyond U+FFFF (a surrogate pair in UTF-16) has no
/// entry in the table and is kept.
pub(crate) fn fold_char(c: char) -> char {
    let code = u32::from(c);
    let simple = match code {
        // Greek with ypogegrammeni: the full upper case is two characters (`ᾀ` → `ἈΙ`), the
        // simple mapping the title-case letter (`ᾀ` → `ᾈ`).
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => char::from_u32(code + 8),
        0x1FB3 | 0x1FC3 | 0x1FF3 => char::from_u32(code + 9),
        0x10000.. => None,
        _ => {
            let mut upper = c.to_uppercase();
            upper.next().filter(|_| upper.len() == 0)
        }
    };
    simple.unwrap_or(c)
}

/// True when a raw report path was written on a case-insensitive system (Windows): it starts
/// with a drive letter (`C:`) or a verbatim prefix (`//?/`), or uses `\` separators.
pub(crate) fn recorded_on_windows(raw: &str) -> bool {
    raw.contains('\\')
        || verbatim(raw).is_some()
        || matches!(raw.as_bytes(), [drive, b':', ..] if drive.is_ascii_alphabetic())
}

/// How report paths are compared with each other and with the files on disk
/// (`--path-case`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PathCase {
    /// Case-insensitively for a report recorded on Windows (a drive letter or `\` in a path),
    /// case-sensitively otherwise.
    #[default]
    Auto,
    /// Always case-sensitively.
    Sensitive,
    /// Always case-insensitively.
    Insensitive,
}

impl PathCase {
    /// True when the report whose raw paths are `raw` is matched case-insensitively.
    pub fn folds<'a>(self, mut raw: impl Iterator<Item = &'a str>) -> bool {
        match self {
            PathCase::Auto => raw.any(recorded_on_windows),
            PathCase::Sensitive => false,
            PathCase::Insensitive => true,
        }
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
pub(crate) struct Remap {
    /// The prefix as the report spells it.
    pub from: String,
    /// What to put in its place.
    pub to: String,
}

impl Remap {
    /// Parses `FROM=TO`, split at the last `=` as rustc does. Errors when there is no `=` or
    /// `FROM` is empty.
    pub(crate) fn parse(spec: &str) -> Result<Remap> {
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
pub(crate) struct Resolver {
    root: String,
    remaps: Vec<Remap>,
    hint: Option<String>,
    /// The local folder of the hint (its paths are moved there); `None`: the anchor.
    home: Option<String>,
    anchor: String,
    fold: bool,
    normalise: bool,
}

/// Where a report path lands after normalisation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Location {
    /// Below the root: the relative path, `/`-separated (`src/lib.rs`).
    Inside(String),
    /// Outside the root: the normalised absolute path.
    Outside(String),
}

impl Location {
    /// The path as shown to users: relative inside the root, absolute outside.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Location::Inside(p) | Location::Outside(p) => p,
        }
    }
}

impl Resolver {
    /// A resolver for `root` (an absolute, normalised path), remappings, and an optional hint
    /// folder (cargo-llvm-cov's manifest folder as it was on the machine that made the report).
    pub(crate) fn new(root: &str, remaps: Vec<Remap>, hint: Option<String>) -> Resolver {
        Resolver {
            root: normalize(root),
            remaps,
            hint: hint.map(|h| normalize(&h)),
            home: None,
            anchor: normalize(root),
            fold: false,
            normalise: true,
        }
    }

    /// The same resolver, moving paths below the hint folder to `home` (an absolute, normalised
    /// folder: the local copy of the package whose manifest the report recorded) rather than
    /// to the anchor.
    pub(crate) fn homed(self, home: &str) -> Resolver {
        Resolver {
            home: Some(normalize(home)),
            ..self
        }
    }

    /// The same resolver, anchoring relative report paths (and paths below the hint folder) at
    /// `anchor` (an absolute, normalised folder) instead of the root: the local copy of the
    /// folder the report's paths are relative to (a cargo workspace root, for an export made
    /// with `cargo llvm-cov --remap-path-prefix`).
    pub(crate) fn anchored(self, anchor: &str) -> Resolver {
        Resolver {
            anchor: normalize(anchor),
            ..self
        }
    }

    /// The same resolver, matching prefixes (remappings, the hint, the root) case-insensitively
    /// when `fold` is set: for a report recorded on a case-insensitive system.
    pub(crate) fn folding(self, fold: bool) -> Resolver {
        Resolver { fold, ..self }
    }

    /// True when the resolver compares prefixes case-insensitively (see [`Resolver::folding`]).
    pub(crate) fn folds(&self) -> bool {
        self.fold
    }

    /// The same resolver, whose paths compare with names on disk in Unicode normalisation form
    /// C when `normalise` is set (the default): for a report not recorded on Windows, since
    /// APFS and HFS+ compare names so, and NTFS does not (`\u{212A}` and `K` are two names there).
    pub(crate) fn normalising(self, normalise: bool) -> Resolver {
        Resolver { normalise, ..self }
    }

    /// True when names compare in Unicode normalisation form C (see
    /// [`Resolver::normalising`]).
    pub(crate) fn normalises(&self) -> bool {
        self.normalise
    }

    /// Resolves one report path: [`absolute`](Self::absolute), then [`locate`](Self::locate).
    pub(crate) fn resolve(&self, raw: &str) -> Location {
        self.locate(&self.absolute(raw))
    }

    /// The absolute, normalised local path of one report path, by spelling alone: normalise,
    /// remap, anchor a relative path at the anchor (the root unless [`anchored`](Self::anchored)),
    /// and move a path that lies outside the root but below the hint folder to the same place
    /// below the hint's home ([`homed`](Self::homed)), else below the anchor (a report made on
    /// another machine without `--remap-path-prefix`).
    pub(crate) fn absolute(&self, raw: &str) -> String {
        let remapped = self.remap(&normalize(raw));
        if !is_absolute(&remapped) {
            return join(&self.anchor, &remapped);
        }
        if strip_base_folded(&remapped, &self.root, self.fold).is_some() {
            return remapped;
        }
        match self
            .hint
            .as_deref()
            .and_then(|h| strip_base_folded(&remapped, h, self.fold))
        {
            Some(rel) => join(self.home.as_deref().unwrap_or(&self.anchor), rel),
            None => remapped,
        }
    }

    /// The absolute local path of `raw` as the kernel would open it, when `raw` climbs out of a
    /// folder it names (`/ws/build/../src/x.c`, `gen/../lib.rs`); `None` otherwise (then the
    /// lexical [`absolute`](Self::absolute) path is the same file). The part before the first
    /// such `..` is made absolute as [`absolute`](Self::absolute) does (remapped, anchored); the
    /// rest keeps its `..`, so that a symbolic link before it is followed before climbing
    /// (POSIX path resolution, which the compiler's `open` used).
    pub(crate) fn physical(&self, raw: &str) -> Option<String> {
        let unified = raw.replace('\\', "/");
        let (prefix, rest) = split_prefix(&unified);
        let parts: Vec<&str> = rest
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        let named = parts.iter().position(|p| *p != "..")?;
        let climb = parts
            .iter()
            .enumerate()
            .position(|(at, p)| at > named && *p == "..")?;
        let head: Vec<&str> = parts.iter().take(climb).copied().collect();
        let tail: Vec<&str> = parts.iter().skip(climb).copied().collect();
        let head = self.absolute(&format!("{prefix}{}", head.join("/")));
        Some(format!("{head}/{}", tail.join("/")))
    }

    /// Where an absolute, normalised local path lands: root-relative below the root, else
    /// outside.
    pub(crate) fn locate(&self, absolute: &str) -> Location {
        match strip_base_folded(absolute, &self.root, self.fold) {
            Some(rel) => Location::Inside(rel.to_string()),
            None => Location::Outside(absolute.to_string()),
        }
    }

    /// Applies the last matching `--remap-path-prefix`.
    fn remap(&self, path: &str) -> String {
        for remap in self.remaps.iter().rev() {
            if let Some(rest) = strip_base_folded(path, &remap.from, self.fold) {
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
    fn unrooted_globs_say_why() {
        for (glob, why) in [
            ("", "an empty glob"),
            ("./", "an empty glob"),
            ("/abs/src/*.rs", "an absolute glob"),
            ("C:\\x\\*.rs", "an absolute glob"),
            ("..", "a glob above the root"),
            ("../*/src/*.rs", "a glob above the root"),
        ] {
            let message = unrooted(glob).unwrap_or_default();
            assert!(message.contains(why), "{glob}: {message}");
        }
        for glob in ["src/**", "**/*.rs", "..x/*.rs"] {
            assert_eq!(unrooted(glob), None, "{glob}");
        }
    }

    proptest::proptest! {
        /// A path that `is_normal` gives back as it is normalises to itself, component by
        /// component; whatever the path, both ways agree.
        #[test]
        fn normal_paths_are_given_back_as_they_are(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["/", "\\", ".", "..", "a", "C", ":", "?", "é"]),
                0..10,
            ),
        ) {
            let raw = parts.concat();
            proptest::prop_assert_eq!(normalize(&raw), lexical(&raw));
            if is_normal(&raw) {
                proptest::prop_assert_eq!(lexical(&raw), raw);
            }
        }
    }

    #[test]
    fn normal_paths_are_told_apart() {
        for raw in [
            "/ws/src/lib.rs",
            "src/a.rs",
            "a",
            "/c:/x",
            "ab:c",
            "1:x",
            "..x/.y",
            "/é",
        ] {
            assert!(is_normal(raw), "{raw}");
            assert_eq!(normalize(raw), raw);
        }
        for raw in [
            "", "/", "//x", "/a//b", "a/", "./a", "a/./b", "../a", "a/..", "c:x", "a\\b",
        ] {
            assert!(!is_normal(raw), "{raw}");
        }
    }

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
    fn a_climb_is_a_dotdot_after_a_named_component() {
        assert!(climbs_out("src/gen/../x.rs"));
        assert!(climbs_out(r"C:\a\..\b"));
        assert!(climbs_out("/a/./../b"));
        assert!(!climbs_out("../../x.rs"));
        assert!(!climbs_out("/../x/./y"));
        assert!(!climbs_out("src//x.rs"));
        assert_eq!(
            climb_error("a/b/../c"),
            "`a/b/../c`: a `..` after a folder name is ambiguous (through a symbolic link it \
             climbs out of the link's target, not back to where it was written); write the path \
             without it, e.g. `a/c`"
        );
    }

    #[test]
    fn verbatim_and_device_prefixes_name_their_plain_forms() {
        assert_eq!(normalize(r"\\?\d:\a\src\b.rs"), "D:/a/src/b.rs");
        assert_eq!(normalize(r"\\.\C:\a\..\b.rs"), "C:/b.rs");
        assert_eq!(normalize(r"\\?\UNC\srv\share\x.rs"), "/srv/share/x.rs");
        assert_eq!(
            normalize(r"\\?\unc\srv\share\x.rs"),
            normalize(r"\\srv\share\x.rs")
        );
        assert_eq!(normalize("//?/Volume{1}/x/../y"), "/Volume{1}/y");
        assert_eq!(normalize("//?/UNC"), "/UNC");
        assert_eq!(normalize("//?/"), "/");
        assert!(is_absolute(&normalize(r"\\.\pipe\p")));
        let res = Resolver::new("D:/a/proj", vec![], None);
        assert_eq!(
            res.resolve(r"\\?\D:\a\proj\src\b.rs"),
            Location::Inside("src/b.rs".into())
        );
        assert_eq!(
            res.physical(r"\\?\D:\a\proj\gen\..\b.rs").as_deref(),
            Some("D:/a/proj/gen/../b.rs")
        );
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
    fn folded_prefixes_compare_without_case() {
        assert_eq!(strip_base_folded("/WS/a/x.rs", "/ws/A", true), Some("x.rs"));
        assert_eq!(strip_base_folded("/WS/a/x.rs", "/ws/A", false), None);
        assert_eq!(strip_base_folded("/ws", "/ws/a", true), None);
        assert_eq!(strip_base_folded("/wsb/x", "/ws/a", true), None);
        assert_eq!(strip_base_folded("/ws/ab", "/WS/A", true), None);
        assert_eq!(strip_base_folded("C:/X", "c:/", true), Some("X"));
        assert!(eq_folded("Straße.RS", "straße.rs"));
        assert!(!eq_folded("a.rs", "b.rs"));
        // Windows keeps these apart; lower-casing would make each pair one name.
        assert_eq!(
            strip_base_folded("/ws/\u{212A}ey/x.rs", "/ws/key", true),
            None
        );
        assert_eq!(
            strip_base_folded("/ws/KEY/x.rs", "/ws/key", true),
            Some("x.rs")
        );
    }

    #[test]
    fn case_is_folded_as_windows_does_by_simple_upper_case() {
        // Letters one-to-one: ASCII, Latin-1, Greek, Cyrillic.
        for (a, b) in [
            ("key.c", "KEY.C"),
            ("é", "É"),
            ("ω", "Ω"),
            ("ж", "Ж"),
            ("ÿ", "Ÿ"),
        ] {
            assert!(eq_folded(a, b), "{a} {b}");
        }
        // Signs whose lower case is a letter stay apart from the letter (NTFS's upcase table
        // maps neither to the other), as do ß and ẞ.
        for (sign, letter) in [
            ('\u{212A}', 'k'),
            ('\u{212A}', 'K'),
            ('\u{2126}', '\u{3A9}'),
            ('\u{2126}', '\u{3C9}'),
            ('\u{212B}', '\u{C5}'),
            ('\u{212B}', '\u{E5}'),
            ('\u{1E9E}', '\u{DF}'),
        ] {
            assert_ne!(fold_char(sign), fold_char(letter), "{sign} {letter}");
            assert_eq!(fold_char(sign), sign);
        }
        assert_eq!(fold_char('\u{DF}'), '\u{DF}');
        assert_eq!(fold_char('k'), 'K');
        // A full upper case of two characters: the simple mapping.
        assert_eq!(fold_char('\u{1F80}'), '\u{1F88}');
        assert_eq!(fold_char('\u{1FA7}'), '\u{1FAF}');
        assert_eq!(fold_char('\u{1FB3}'), '\u{1FBC}');
        assert_eq!(fold_char('\u{1FF3}'), '\u{1FFC}');
        assert_eq!(fold_char('\u{1F88}'), '\u{1F88}');
        assert_eq!(fold_char('\u{149}'), '\u{149}');
        // Beyond U+FFFF: not in the table (Deseret `𐐨` and `𐐀` are two names).
        assert_eq!(fold_char('\u{10428}'), '\u{10428}');
        assert!(!eq_folded("\u{10428}.rs", "\u{10400}.rs"));
        assert_eq!(folded("Src/\u{212A}ey.c"), "SRC/\u{212A}EY.C");
    }

    #[test]
    fn windows_paths_are_recognised_by_drive_or_backslash() {
        assert!(recorded_on_windows(r"src\lib.rs"));
        assert!(recorded_on_windows("d:/a/lib.rs"));
        assert!(!recorded_on_windows("/ci/src/lib.rs"));
        assert!(!recorded_on_windows("1:/x"));
        assert!(recorded_on_windows("//?/d:/a/lib.rs"));
        let paths = || ["/a", r"C:\a"].into_iter();
        assert!(PathCase::Auto.folds(paths()));
        assert!(!PathCase::Auto.folds(["/a"].into_iter()));
        assert!(!PathCase::Sensitive.folds(paths()));
        assert!(PathCase::Insensitive.folds(["/a"].into_iter()));
    }

    #[test]
    fn an_anchored_folding_resolver_places_relative_and_hinted_paths_at_the_anchor() {
        let res = Resolver::new(
            "/ws/crates/units",
            vec![Remap::parse("D:/CI=/ws").unwrap()],
            Some("/ci/ws".into()),
        )
        .anchored("/ws")
        .folding(true);
        assert!(res.folds());
        assert_eq!(
            res.absolute("crates/app/src/lib.rs"),
            "/ws/crates/app/src/lib.rs"
        );
        assert_eq!(
            res.absolute(r"d:\ci\crates\units\src\lib.rs"),
            "/ws/crates/units/src/lib.rs"
        );
        assert_eq!(
            res.absolute("/CI/WS/crates/app/x.rs"),
            "/ws/crates/app/x.rs"
        );
        assert_eq!(res.absolute("/usr/x.rs"), "/usr/x.rs");
        assert_eq!(
            res.resolve("/WS/Crates/Units/src/lib.rs"),
            Location::Inside("src/lib.rs".into())
        );
        assert_eq!(
            res.locate("/usr/x.rs"),
            Location::Outside("/usr/x.rs".into())
        );
    }

    #[test]
    fn physical_keeps_the_climb_after_a_named_folder() {
        let res = Resolver::new("/work", vec![Remap::parse("/ci=/work").unwrap()], None);
        // Nothing climbs out of a named folder: the lexical path is the file.
        assert_eq!(res.physical("/work/src/lib.rs"), None);
        assert_eq!(res.physical("../shared/x.rs"), None);
        assert_eq!(res.physical("/../x.rs"), None);
        assert_eq!(res.physical("../.."), None);
        // The head is remapped and anchored; the climb and what follows are kept.
        assert_eq!(
            res.physical("/ci/build/./../src//x.c").as_deref(),
            Some("/work/build/../src/x.c")
        );
        assert_eq!(
            res.physical("gen\\..\\lib.rs").as_deref(),
            Some("/work/gen/../lib.rs")
        );
        assert_eq!(
            res.physical("../up/gen/../../b.rs").as_deref(),
            Some("/up/gen/../../b.rs")
        );
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
        assert_eq!(res.root, "/home/me/p");
        // Homed at a sibling package: its files land there, outside the root.
        let homed = res.clone().homed("/home/me/q");
        assert_eq!(
            homed.resolve("/ci/p/src/b.rs"),
            Location::Outside("/home/me/q/src/b.rs".into())
        );
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
