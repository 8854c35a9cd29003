//! What a policy mistake probably meant: a hint added to the message of a policy error (which
//! already gives the line and column).
//!
//! - a single-bracket `[exclude]` or `[suite]` where an array of tables (`[[exclude]]`) is meant,
//!   and the reverse (`[[measure]]`, `[[inline]]`);
//! - a key at the wrong level (`include` at the top level, `threshold` in an `[[exclude]]`):
//!   where it belongs;
//! - a name with a typo (`thresold`, `branchs`): the nearest valid one;
//! - `debt = "file"` beside `[[debt]]` tables: the ledger lives in that file.

/// Where each policy key belongs, as said in a hint (`KEY belongs …`).
const HOMES: [(&str, &str); 20] = [
    ("root", "at the top level, above the first [section]"),
    ("include", "under [measure]"),
    ("metrics", "under [measure]"),
    (
        "threshold",
        "under [measure] (one threshold for every measured file)",
    ),
    ("allow-empty", "under [measure], with `allow-empty-reason`"),
    (
        "allow-empty-reason",
        "under [measure], with `allow-empty = true`",
    ),
    ("path", "in an [[exclude]] entry"),
    ("reason", "in an [[exclude]] or a [[suite]] entry"),
    ("when", "in an [[exclude]] or a [[suite]] entry"),
    ("when-missing", "in an [[exclude]] or a [[suite]] entry"),
    ("name", "in a [[suite]] entry"),
    ("filter", "in a [[suite]] entry"),
    ("glob", "in a [[suite]] entry"),
    ("markers", "under [inline]"),
    ("require-reason", "under [inline]"),
    ("coverage-off", "under [inline]"),
    ("measure", "at the top level, as a [measure] section"),
    ("inline", "at the top level, as an [inline] section"),
    (
        "exclude",
        "at the top level, as [[exclude]] entries (double brackets), each with `path` and `reason`",
    ),
    (
        "suite",
        "at the top level, as [[suite]] entries (double brackets)",
    ),
];

/// The sections written as arrays of tables (`[[NAME]]`); the others are single tables.
const ARRAYS: [&str; 2] = ["exclude", "suite"];

/// A hint for a TOML error of the policy: `message` is the parser's, `text` the policy and
/// `offset` where the error points. `None` when no likely intent is known.
pub(crate) fn for_toml(message: &str, text: &str, offset: usize) -> Option<String> {
    if message.contains("duplicate key `debt`") {
        return Some(
            "; `debt = \"…\"` names the file the ledger lives in: write the [[debt]] entries there, \
             or drop the `debt` key to keep them in the policy"
                .to_string(),
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        return unknown_key(rest);
    }
    if message.starts_with("invalid type") {
        return bracket_mistake(line_at(text, offset));
    }
    None
}

/// `; did you mean `NAME`?` for the candidate nearest `name`, or empty when none is near.
pub(crate) fn did_you_mean(name: &str, candidates: &[&str]) -> String {
    nearest(name, candidates).map_or_else(String::new, |near| format!("; did you mean `{near}`?"))
}

/// For `KEY`, expected one of `A`, `B`` (the rest of toml's message): where KEY belongs when it
/// is a key of another section, else the expected key nearest to it.
fn unknown_key(rest: &str) -> Option<String> {
    let (key, expected) = rest.split_once('`')?;
    let expected: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    if let Some((_, home)) = HOMES.iter().find(|(name, _)| *name == key) {
        return Some(format!("; `{key}` belongs {home}"));
    }
    nearest(key, &expected).map(|near| format!("; did you mean `{near}`?"))
}

/// The line of `text` that holds `offset`.
fn line_at(text: &str, offset: usize) -> &str {
    let before = text.get(..offset).unwrap_or(text);
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let rest = text.get(start..).unwrap_or_default();
    rest.lines().next().unwrap_or_default()
}

/// A table header with the wrong number of brackets, or a section written as a key
/// (`exclude = "src/x.rs"`).
fn bracket_mistake(line: &str) -> Option<String> {
    let line = line.trim();
    let (name, double) = match line.strip_prefix("[[") {
        Some(inner) => (inner.split("]]").next().unwrap_or_default(), true),
        None => match line.strip_prefix('[') {
            Some(inner) => (inner.split(']').next().unwrap_or_default(), false),
            None => (line.split('=').next().unwrap_or_default(), false),
        },
    };
    let name = name.trim();
    let array = ARRAYS.contains(&name);
    match (line.starts_with('['), double, array) {
        (true, false, true) => Some(format!(
            "; `[{name}]` is a single table, but each {name} entry is one of an array of tables: \
             write `[[{name}]]` (double brackets) above each entry"
        )),
        (true, true, false) => Some(format!(
            "; `[[{name}]]` makes an array of tables, but the policy has one {name} section: \
             write `[{name}]` (single brackets)"
        )),
        (false, _, true) => Some(format!(
            "; `{name}` is not a key: write each entry as a `[[{name}]]` table (double brackets) \
             with its keys on the lines below"
        )),
        _ => None,
    }
}

/// The candidate nearest `name` (edit distance, ignoring case), if it is within 2 edits and
/// shorter than `name` itself is long.
fn nearest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let name = name.to_lowercase();
    let limit = 2.min(name.chars().count().saturating_sub(1));
    candidates
        .iter()
        .map(|c| (distance(&name, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance in characters: O(len(a) × len(b)), with `b` a short key name.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut left = i + 1;
        let mut next = Vec::with_capacity(row.len());
        next.push(left);
        for (cb, up) in b.iter().zip(row.iter().skip(1)) {
            let cost = usize::from(ca != *cb);
            left = (diagonal + cost).min(up + 1).min(left + 1);
            diagonal = *up;
            next.push(left);
        }
        row = next;
    }
    row.last().copied().unwrap_or_default()
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("branchs", "branches"), 1);
        assert_eq!(distance("thresold", "threshold"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(nearest("Line", &["regions", "lines"]), Some("lines"));
        assert_eq!(nearest("statements", &["regions", "lines"]), None);
        assert_eq!(nearest("x", &["a"]), None, "one letter is never near");
    }

    #[test]
    fn lines_at_offsets() {
        let text = "a = 1\n[exclude]\npath = 2\n";
        assert_eq!(line_at(text, 6), "[exclude]");
        assert_eq!(line_at(text, 0), "a = 1");
        assert_eq!(line_at(text, 999), "");
    }

    #[test]
    fn bracket_mistakes() {
        assert!(bracket_mistake("[ exclude ]")
            .unwrap()
            .contains("write `[[exclude]]`"));
        assert!(bracket_mistake("[[inline]]")
            .unwrap()
            .contains("write `[inline]`"));
        assert!(bracket_mistake("suite = 3")
            .unwrap()
            .contains("`[[suite]]` table"));
        assert_eq!(bracket_mistake("[[exclude]]"), None);
        assert_eq!(bracket_mistake("[measure]"), None);
        assert_eq!(bracket_mistake("metrics = 3"), None);
        assert_eq!(for_toml("invalid length 3", "", 0), None);
        assert_eq!(unknown_key("nothing"), None);
    }
}
