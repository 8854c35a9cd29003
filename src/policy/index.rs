//! Many globs matched against many paths in time near-linear in paths and globs: a path is
//! matched only against the globs that its file name or one of its folders can match, not
//! against every glob (session 16: 5,000 `[[exclude]]` entries and 100,000 report files took
//! minutes one by one; a `GlobSet` of them all was 10× slower than one by one on a policy of a
//! few globs).
//!
//! Each glob is filed under its literal parts, read from the glob as compiled
//! ([`Pattern::compiled`]):
//! - its file name, when the last component holds no glob syntax (`src/gen/foo.rs`,
//!   `**/foo.rs`, `{a,b}/foo.rs`): only a path with that file name can match;
//! - else the folder that its leading components name, up to the first glob syntax (`src/gen`
//!   for `src/gen/*_pb.rs`, `src` for `src/**` and `src/**/*.rs`): only a path below it can match;
//! - else (`**/*.rs`, `*.rs`, `{src,lib}/*.rs`) it may match any path.
//!
//! A path is tested with the glob's own matcher against the globs filed under its file name, under
//! each of its folders, and those of the last kind, in the globs' order: the answers are those of
//! matching every glob one by one, only sooner.
//!
//! Why a glob filed under a part only matches paths with that part: text without `*`, `?`, `[`,
//! `]`, `{`, `}` and `\` is literal in the compiled glob, and a glob that compiles closes its
//! classes and alternations, so a last component without `]` and `}` follows a `/` that is
//! outside them (and `*` and `?` never match `/`): the glob ends in `/NAME` or is `NAME`, or
//! `**/NAME`, whose `**/` matches nothing or text ending in `/`. Likewise a glob that starts with
//! `FOLDER/` before any syntax matches only paths that start so. Without case (`fold`), the
//! parts are compared ASCII-lowercased: the matcher folds ASCII letters only (globset compiles
//! its patterns without Unicode, `(?-u)`), so `K` (the Kelvin sign) is not `k`.

use hashbrown::HashMap;

use super::Pattern;

/// What ends the literal part of a glob.
const SYNTAX: [char; 7] = ['*', '?', '[', ']', '{', '}', '\\'];

/// Globs filed by their literal parts, in the order given.
#[derive(Debug)]
pub(crate) struct Index<'p> {
    patterns: Vec<&'p Pattern>,
    names: Parts<'p>,
    folders: Parts<'p>,
    /// The length of the longest folder filed: a path's longer folders are not looked up (a
    /// path of 10 MiB of folders would hash each of its prefixes).
    longest: usize,
    anywhere: Vec<usize>,
}

/// Positions of globs by a literal part, as written and ASCII-lowercased.
#[derive(Debug, Default)]
struct Parts<'p> {
    exact: HashMap<&'p str, Vec<usize>>,
    folded: HashMap<String, Vec<usize>>,
}

/// Where a glob is filed.
#[derive(Debug, PartialEq, Eq)]
enum Filed<'g> {
    Name(&'g str),
    Folder(&'g str),
    Anywhere,
}

/// The literal part a path that `glob` (as compiled) matches must have.
fn filed(glob: &str) -> Filed<'_> {
    let name = glob.rsplit_once('/').map_or(glob, |(_, name)| name);
    if !name.contains(SYNTAX) {
        return Filed::Name(name);
    }
    let head = glob.split(SYNTAX).next().unwrap_or_default();
    match head.rsplit_once('/') {
        Some((folder, _)) => Filed::Folder(folder),
        None => Filed::Anywhere,
    }
}

impl<'p> Parts<'p> {
    fn file(&mut self, part: &'p str, at: usize) {
        self.exact.entry(part).or_default().push(at);
        let folded = part.to_ascii_lowercase();
        self.folded.entry(folded).or_default().push(at);
    }

    /// The globs filed under `part` (ASCII-lowercased when `fold` is set).
    fn get(&self, part: &str, fold: bool) -> &[usize] {
        let found = if fold {
            self.folded.get(part)
        } else {
            self.exact.get(part)
        };
        found.map_or(&[], Vec::as_slice)
    }
}

impl<'p> Index<'p> {
    /// Files `patterns`; positions in the answers are positions in it.
    pub(crate) fn new(patterns: Vec<&'p Pattern>) -> Index<'p> {
        let mut names = Parts::default();
        let mut folders = Parts::default();
        let mut longest = 0;
        let mut anywhere = Vec::new();
        for (at, pattern) in patterns.iter().enumerate() {
            match filed(pattern.compiled()) {
                Filed::Name(name) => names.file(name, at),
                Filed::Folder(folder) => {
                    longest = longest.max(folder.len());
                    folders.file(folder, at);
                }
                Filed::Anywhere => anywhere.push(at),
            }
        }
        Index {
            patterns,
            names,
            folders,
            longest,
            anywhere,
        }
    }

    /// The positions of the globs that may match `path` (those that do, and maybe more), in
    /// order.
    fn candidates(&self, path: &str, fold: bool) -> Vec<usize> {
        let lowered;
        let path = if fold {
            lowered = path.to_ascii_lowercase();
            lowered.as_str()
        } else {
            path
        };
        let name = path.rsplit_once('/').map_or(path, |(_, name)| name);
        let mut found = self.names.get(name, fold).to_vec();
        let folders = path
            .match_indices('/')
            .take_while(|(at, _)| *at <= self.longest);
        for (at, _) in folders {
            let folder = path.get(..at).unwrap_or_default();
            found.extend_from_slice(self.folders.get(folder, fold));
        }
        found.extend_from_slice(&self.anywhere);
        found.sort_unstable();
        found
    }

    /// True when the glob at `at` matches `path` (see [`Pattern::matches`]).
    fn is_match(&self, at: usize, path: &str, fold: bool) -> bool {
        self.patterns
            .get(at)
            .is_some_and(|pattern| pattern.matches(path, fold))
    }

    /// The positions of the globs that match `path`, ignoring case when `fold` is set, in order.
    pub(crate) fn matching<'a>(
        &'a self,
        path: &'a str,
        fold: bool,
    ) -> impl Iterator<Item = usize> + 'a {
        self.candidates(path, fold)
            .into_iter()
            .filter(move |at| self.is_match(*at, path, fold))
    }

    /// The position of the first glob that matches `path`, ignoring case when `fold` is set.
    pub(crate) fn first(&self, path: &str, fold: bool) -> Option<usize> {
        self.matching(path, fold).next()
    }

    /// For each glob, in order: true when it matches none of `paths` (each with its `fold`).
    /// Stops reading `paths` once every glob has matched one.
    pub(crate) fn unmatched<'a>(
        &self,
        paths: impl IntoIterator<Item = (&'a str, bool)>,
    ) -> Vec<bool> {
        let mut unmatched = vec![true; self.patterns.len()];
        let mut left = self.patterns.len();
        for (path, fold) in paths {
            if left == 0 {
                break;
            }
            for at in self.candidates(path, fold) {
                let open = unmatched.get_mut(at).filter(|open| **open);
                if let Some(open) = open.filter(|_| self.is_match(at, path, fold)) {
                    *open = false;
                    left -= 1;
                }
            }
        }
        unmatched
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;
    use crate::paths;
    use crate::policy::validate::compile;

    fn pattern(glob: &str) -> Pattern {
        Pattern {
            glob: glob.to_string(),
            location: String::new(),
            matcher: compile(&paths::normalize(glob)).expect(glob),
        }
    }

    /// The plain matcher: every glob against the path, one by one.
    fn one_by_one(patterns: &[Pattern], path: &str, fold: bool) -> Vec<usize> {
        (0..patterns.len())
            .filter(|at| patterns[*at].matches(path, fold))
            .collect()
    }

    /// The plain stale check: a glob no path matches.
    fn unmatched_one_by_one(patterns: &[Pattern], paths: &[(&str, bool)]) -> Vec<bool> {
        patterns
            .iter()
            .map(|p| !paths.iter().any(|(path, fold)| p.matches(path, *fold)))
            .collect()
    }

    /// The index answers as the plain matcher does, for each path, with and without case.
    fn agrees(globs: &[&str], paths: &[&str]) {
        let patterns: Vec<Pattern> = globs.iter().map(|g| pattern(g)).collect();
        let index = Index::new(patterns.iter().collect());
        for path in paths {
            for fold in [false, true] {
                let plain = one_by_one(&patterns, path, fold);
                let found: Vec<usize> = index.matching(path, fold).collect();
                assert_eq!(found, plain, "{path} (fold {fold}) in {globs:?}");
                assert_eq!(index.first(path, fold), plain.first().copied());
            }
        }
        for fold in [false, true] {
            let with: Vec<(&str, bool)> = paths
                .iter()
                .enumerate()
                .map(|(at, p)| (*p, fold && at % 2 == 0))
                .collect();
            assert_eq!(
                index.unmatched(with.iter().copied()),
                unmatched_one_by_one(&patterns, &with),
                "{globs:?} over {with:?}"
            );
        }
    }

    #[test]
    fn globs_are_filed_by_their_literal_parts() {
        for (glob, filed_as) in [
            ("src/gen/foo.rs", Filed::Name("foo.rs")),
            ("foo.rs", Filed::Name("foo.rs")),
            ("**/foo.rs", Filed::Name("foo.rs")),
            ("{a,b}/foo.rs", Filed::Name("foo.rs")),
            ("src/**/mod.rs", Filed::Name("mod.rs")),
            ("x/{a,b/c}/e.rs", Filed::Name("e.rs")),
            ("src/gen/*_pb.rs", Filed::Folder("src/gen")),
            ("src/**", Filed::Folder("src")),
            ("src/**/*.rs", Filed::Folder("src")),
            ("src/a{b,c}/x.r?", Filed::Folder("src")),
            ("a/b/[xy]/z.rs", Filed::Name("z.rs")),
            ("a/b/[xy]z.rs", Filed::Folder("a/b")),
            ("a[/]b.rs", Filed::Anywhere),
            ("src/{x.rs,y/z.rs}", Filed::Folder("src")),
            ("{src,lib}/*.rs", Filed::Anywhere),
            ("**/*.rs", Filed::Anywhere),
            ("*.rs", Filed::Anywhere),
            ("**", Filed::Anywhere),
        ] {
            assert_eq!(filed(glob), filed_as, "{glob}");
        }
    }

    #[test]
    fn the_index_answers_as_the_plain_matcher() {
        let globs = [
            "src/gen/foo.rs",
            "**/foo.rs",
            "src/**/FOO.rs",
            "Src/Gen/*_pb.rs",
            "src/gen/**",
            "src/{a,b}/x.rs",
            "src/a/{x.rs,y/z.rs}",
            "src/[ab]/*.rs",
            "src/**/[!x]*.rs",
            "**/*.rs",
            "src\\win\\lib.rs",
            ".\\src\\win/*.rs",
            "src/a/**/b/*.rs",
            "src/\u{212A}.rs",
            "src/k.rs",
            "src/é.rs",
            "lib.rs",
            "*",
            "src/a/b.r?",
        ];
        let paths = [
            "src/gen/foo.rs",
            "src/gen/FOO.rs",
            "SRC/GEN/foo.RS",
            "foo.rs",
            "src/gen/a_pb.rs",
            "src/gen/deep/a_pb.rs",
            "src/a/x.rs",
            "src/c/x.rs",
            "src/a/y/z.rs",
            "src/a/b.rs",
            "src/x/b.rs",
            "src/a/q/b/c.rs",
            "src/a/b/c.rs",
            "src/win/lib.rs",
            "SRC/WIN/Lib.RS",
            "src/K.rs",
            "src/k.rs",
            "src/\u{212A}.rs",
            "src/É.rs",
            "src/é.rs",
            "lib.rs",
            "LIB.rs",
            "x/lib.rs",
            "README",
        ];
        agrees(&globs, &paths);
    }

    #[test]
    fn unmatched_stops_once_every_glob_has_matched() {
        let patterns = [pattern("src/a.rs"), pattern("src/*.rs")];
        let index = Index::new(patterns.iter().collect());
        // The second path would panic were it read: it is not.
        let paths = [("src/a.rs", false), ("src/b.rs", false)]
            .into_iter()
            .chain(std::iter::once_with(|| {
                panic!("read past the last glob's match")
            }));
        assert_eq!(index.unmatched(paths), [false, false]);
        let none: [(&str, bool); 0] = [];
        assert_eq!(index.unmatched(none), [true, true]);
        assert_eq!(Index::new(Vec::new()).unmatched(none), Vec::<bool>::new());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        #[test]
        fn random_globs_and_paths_answer_as_the_plain_matcher(
            globs in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        "src", "Src", "gen", "a", "b", "foo.rs", "FOO.rs", "x_pb.rs", "mod.rs",
                        "*", "**", "*.rs", "*_pb.rs", "f?o.rs", "[a-c]", "[!a]*.rs", "{a,b}",
                        "{foo.rs,gen/x_pb.rs}", "\u{212A}.rs", "k.rs", "é.rs",
                    ]),
                    1..5,
                ),
                1..24,
            ),
            separators in proptest::collection::vec(proptest::bool::ANY, 24),
            paths in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        "src", "SRC", "Src", "gen", "GEN", "a", "B", "b", "c", "foo.rs",
                        "Foo.RS", "x_pb.rs", "X_PB.rs", "mod.rs", "K.rs", "\u{212A}.rs",
                        "k.rs", "É.rs", "é.rs",
                    ]),
                    1..5,
                ),
                1..24,
            ),
        ) {
            // Some globs written with Windows separators, as a policy may.
            let globs: Vec<String> = globs
                .iter()
                .zip(separators.iter().cycle())
                .map(|(parts, windows)| parts.join(if *windows { "\\" } else { "/" }))
                .collect();
            let globs: Vec<&str> = globs.iter().map(String::as_str).collect();
            let paths: Vec<String> = paths.iter().map(|parts| parts.join("/")).collect();
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            agrees(&globs, &paths);
        }
    }
}
