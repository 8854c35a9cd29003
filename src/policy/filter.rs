//! A `[[suite]]`'s `filter`: cargo's test-target selection as a user types it, and its
//! resolution against the workspace.
//!
//! Accepted words (split as a shell splits them, with `'…'` and `"…"` quoting and no backslash
//! escapes): `-p PKG` / `-pPKG` / `--package PKG` / `--package=PKG` (repeatable), and
//! `--test NAME`, `--bench NAME`, `--example NAME` (each repeatable, also as `--test=NAME`). A
//! NAME or PKG holding one of `*`, `?`, `[`, `]` is a glob pattern, as cargo reads it (cargo's
//! `is_glob_pattern`); otherwise it is a literal name. Without `-p`, the targets are searched in
//! the workspace's default members, as `cargo test --test NAME` run at the workspace root does.
//! At least one `--test`, `--bench` or `--example` is required.

use globset::{GlobBuilder, GlobMatcher};

use crate::workspace::{Kind, Target, Workspace};

/// A parsed `filter`.
#[derive(Debug, Clone)]
pub struct Filter {
    /// The filter as written in the policy.
    pub text: String,
    /// `-p` / `--package` values, in order (empty: the workspace's default members).
    pub packages: Vec<Name>,
    /// `--test`, `--bench` and `--example` values, in order (never empty).
    pub selectors: Vec<(Kind, Name)>,
}

/// A package or target name, or a glob pattern of names.
#[derive(Debug, Clone)]
pub struct Name {
    /// As written.
    pub text: String,
    /// Set when the text is a glob pattern (it holds `*`, `?`, `[` or `]`).
    glob: Option<GlobMatcher>,
}

impl Name {
    fn parse(text: &str) -> Result<Name, String> {
        let glob = if text.contains(['*', '?', '[', ']']) {
            let glob = GlobBuilder::new(text)
                .build()
                .map_err(|e| format!("bad pattern `{text}`: {}", e.kind()))?;
            Some(glob.compile_matcher())
        } else {
            None
        };
        Ok(Name {
            text: text.to_string(),
            glob,
        })
    }

    /// True when `name` is this name, or matches this pattern.
    pub fn matches(&self, name: &str) -> bool {
        match &self.glob {
            Some(glob) => glob.is_match(name),
            None => self.text == name,
        }
    }

    /// True for a glob pattern.
    pub(crate) fn is_pattern(&self) -> bool {
        self.glob.is_some()
    }
}

impl Filter {
    /// Parses a filter. Errors (as a message, which the policy locates): an unterminated quote,
    /// a word that is not one of the accepted options, an option without its value, an empty
    /// or bad name, or a filter that names no target.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let mut words = words(text)?.into_iter();
        let mut packages = Vec::new();
        let mut selectors = Vec::new();
        while let Some(word) = words.next() {
            let (flag, inline) = split_flag(&word);
            let kind = match flag {
                "-p" | "--package" => None,
                "--test" => Some(Kind::Test),
                "--bench" => Some(Kind::Bench),
                "--example" => Some(Kind::Example),
                _ => {
                    return Err(format!(
                        "`{word}` is not a target selection; a filter takes -p PKG, --test NAME, --bench NAME and --example NAME"
                    ))
                }
            };
            let value = inline
                .or_else(|| words.next())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("`{flag}` needs a name"))?;
            let name = Name::parse(&value)?;
            match kind {
                None => packages.push(name),
                Some(kind) => selectors.push((kind, name)),
            }
        }
        if selectors.is_empty() {
            return Err(format!(
                "the filter `{text}` names no target; write cargo's selection, e.g. \"--test heavy\" or \"-p app --test 'slow_*'\""
            ));
        }
        Ok(Filter {
            text: text.to_string(),
            packages,
            selectors,
        })
    }

    /// The targets this filter selects in `workspace`, and what it names that is not there
    /// (unknown packages, unknown targets, patterns that match nothing), as messages.
    pub(crate) fn resolve<'w>(&self, workspace: &'w Workspace) -> (Vec<&'w Target>, Vec<String>) {
        let mut problems = Vec::new();
        let packages: Vec<&str> = if self.packages.is_empty() {
            workspace.defaults.iter().map(String::as_str).collect()
        } else {
            let mut chosen = Vec::new();
            for wanted in &self.packages {
                let found: Vec<&str> = workspace
                    .members
                    .iter()
                    .map(String::as_str)
                    .filter(|m| wanted.matches(m))
                    .collect();
                if found.is_empty() {
                    problems.push(format!(
                        "unknown package `{}` (workspace members: {})",
                        wanted.text,
                        workspace.members.join(", ")
                    ));
                }
                chosen.extend(found);
            }
            chosen
        };
        if packages.is_empty() {
            return (Vec::new(), problems);
        }
        let mut selected: Vec<&Target> = Vec::new();
        for (kind, wanted) in &self.selectors {
            let found: Vec<&Target> = workspace
                .targets
                .iter()
                .filter(|t| t.kind == *kind && packages.contains(&t.package.as_str()))
                .filter(|t| wanted.matches(&t.name))
                .collect();
            if found.is_empty() {
                let what = if wanted.is_pattern() {
                    format!("no {} matches `{}`", kind.noun(), wanted.text)
                } else {
                    format!("unknown {} `{}`", kind.noun(), wanted.text)
                };
                problems.push(format!("{what} (packages: {})", packages.join(", ")));
            }
            for target in found {
                if !selected.contains(&target) {
                    selected.push(target);
                }
            }
        }
        (selected, problems)
    }
}

/// `--flag=value` → (`--flag`, `value`); `-pNAME` → (`-p`, `NAME`); anything else as it is.
fn split_flag(word: &str) -> (&str, Option<String>) {
    if let Some((flag, value)) = word.split_once('=').filter(|_| word.starts_with("--")) {
        return (flag, Some(value.to_string()));
    }
    match word.strip_prefix("-p").filter(|rest| !rest.is_empty()) {
        Some(rest) => ("-p", Some(rest.to_string())),
        None => (word, None),
    }
}

/// Splits `text` into words as a shell does: whitespace separates, `'…'` and `"…"` quote (no
/// escapes inside), and quotes join with the text around them (`'a'b` is `ab`).
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' | '"' => {
                let quoted = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(other) => quoted.push(other),
                        None => return Err(format!("unterminated {c} in the filter `{text}`")),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    fn target(package: &str, name: &str, kind: Kind) -> Target {
        Target {
            package: package.to_string(),
            name: name.to_string(),
            kind,
            src: format!("{package}/tests/{name}.rs"),
            tested: true,
        }
    }

    fn workspace() -> Workspace {
        Workspace {
            features: Default::default(),
            members: vec!["alpha".to_string(), "beta-pkg".to_string()],
            defaults: vec!["alpha".to_string()],
            targets: vec![
                target("alpha", "alpha", Kind::Lib),
                target("alpha", "heavy", Kind::Test),
                target("alpha", "heavy_two", Kind::Test),
                target("alpha", "perf", Kind::Bench),
                target("alpha", "demo", Kind::Example),
                target("beta-pkg", "heavy", Kind::Test),
                target("beta-pkg", "slow", Kind::Test),
            ],
        }
    }

    fn labels(filter: &str) -> (Vec<String>, Vec<String>) {
        let ws = workspace();
        let (targets, problems) = Filter::parse(filter).expect(filter).resolve(&ws);
        (targets.iter().map(|t| t.label()).collect(), problems)
    }

    #[test]
    fn words_are_split_as_a_shell_does() {
        assert_eq!(
            words("  --test 'a b'  -p\"x\"y '' ").unwrap(),
            ["--test", "a b", "-pxy", ""]
        );
        assert_eq!(words("").unwrap(), Vec::<String>::new());
        assert_eq!(
            words("--test 'heavy").unwrap_err(),
            "unterminated ' in the filter `--test 'heavy`"
        );
        assert_eq!(
            words("--test \"x").unwrap_err(),
            "unterminated \" in the filter `--test \"x`"
        );
    }

    #[test]
    fn every_spelling_of_the_options() {
        let text =
            "-p alpha -pbeta --package gamma --package=delta --test a --test=b --bench c --example=d";
        let f = Filter::parse(text).unwrap();
        let packages: Vec<&str> = f.packages.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(packages, ["alpha", "beta", "gamma", "delta"]);
        let selectors: Vec<(Kind, &str)> = f
            .selectors
            .iter()
            .map(|(k, n)| (*k, n.text.as_str()))
            .collect();
        assert_eq!(
            selectors,
            [
                (Kind::Test, "a"),
                (Kind::Test, "b"),
                (Kind::Bench, "c"),
                (Kind::Example, "d")
            ]
        );
        assert_eq!(f.text, text);
        assert!(!f.selectors[0].1.is_pattern());
        assert!(Filter::parse("--test 'slow_*'").unwrap().selectors[0]
            .1
            .is_pattern());
    }

    #[test]
    fn bad_filters() {
        let err = |text: &str| Filter::parse(text).unwrap_err();
        assert_eq!(
            err("--lib"),
            "`--lib` is not a target selection; a filter takes -p PKG, --test NAME, --bench NAME and --example NAME"
        );
        assert_eq!(err("--test"), "`--test` needs a name");
        assert_eq!(err("--test="), "`--test` needs a name");
        assert_eq!(err("--test ''"), "`--test` needs a name");
        assert_eq!(err("-p"), "`-p` needs a name");
        assert!(
            err("-p alpha").starts_with("the filter `-p alpha` names no target; write cargo's"),
            "{}",
            err("-p alpha")
        );
        assert!(err("").starts_with("the filter `` names no target"));
        assert!(err("--test 'a[b'").starts_with("bad pattern `a[b`: "));
        assert!(err("--test 'x").starts_with("unterminated '"));
    }

    #[test]
    fn resolution() {
        // Without -p: the default members only.
        assert_eq!(
            labels("--test heavy"),
            (vec!["alpha::heavy".to_string()], vec![])
        );
        assert_eq!(
            labels("-p 'beta*' --test heavy"),
            (vec!["beta-pkg::heavy".to_string()], vec![])
        );
        assert_eq!(
            labels("-p alpha -p beta-pkg --test heavy --test 'heavy*'"),
            (
                vec![
                    "alpha::heavy".to_string(),
                    "beta-pkg::heavy".to_string(),
                    "alpha::heavy_two".to_string()
                ],
                vec![]
            )
        );
        assert_eq!(
            labels("--bench perf --example demo"),
            (
                vec![
                    "alpha::bench/perf".to_string(),
                    "alpha::example/demo".to_string()
                ],
                vec![]
            )
        );
        // A bench is not a test target.
        assert_eq!(
            labels("--test perf"),
            (
                vec![],
                vec!["unknown test target `perf` (packages: alpha)".to_string()]
            )
        );
        assert_eq!(
            labels("-p alpha -p beta-pkg --test 'zz*' --test slow"),
            (
                vec!["beta-pkg::slow".to_string()],
                vec!["no test target matches `zz*` (packages: alpha, beta-pkg)".to_string()]
            )
        );
        assert_eq!(
            labels("-p nope -p alpha --bench perf"),
            (
                vec!["alpha::bench/perf".to_string()],
                vec!["unknown package `nope` (workspace members: alpha, beta-pkg)".to_string()]
            )
        );
        // No package at all: the target problems would only repeat it.
        assert_eq!(
            labels("-p nope --test heavy"),
            (
                vec![],
                vec!["unknown package `nope` (workspace members: alpha, beta-pkg)".to_string()]
            )
        );
    }
}
