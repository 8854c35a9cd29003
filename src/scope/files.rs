//! The in-scope files of a check with their classes, as one sorted vector.

use super::Class;

/// Every in-scope file by root-relative path, ascending, once, with its class. A sorted vector
/// rather than a map: on 189,000 files a map's nodes took 10 MB more, and a second copy of the
/// files while the map was built from them; the judging takes the vector apart from its end
/// ([`Files::split_tail`]), so that it shrinks while the verdicts grow. A path is a `Box<str>`
/// (an entry is 40 bytes; with a `String` and a `Class` of `String`s it was 56).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Files(Vec<(Box<str>, Class)>);

impl Files {
    /// The files of `sorted`, which must be ascending by path, without repeats.
    pub(crate) fn from_sorted(sorted: Vec<(Box<str>, Class)>) -> Files {
        debug_assert!(sorted.is_sorted_by(|a, b| a.0 < b.0));
        Files(sorted)
    }

    /// The class of `path`, `None` when it is not in scope.
    pub(crate) fn get(&self, path: &str) -> Option<&Class> {
        let at = self.find(path)?;
        self.0.get(at).map(|(_, class)| class)
    }

    /// The class of `path`, to change, `None` when it is not in scope.
    pub(crate) fn get_mut(&mut self, path: &str) -> Option<&mut Class> {
        let at = self.find(path)?;
        self.0.get_mut(at).map(|(_, class)| class)
    }

    fn find(&self, path: &str) -> Option<usize> {
        self.0.binary_search_by(|(p, _)| (**p).cmp(path)).ok()
    }

    /// Every path, ascending.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(path, _)| &**path)
    }

    /// How many files are in scope.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// True when no file is in scope.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last `count` files (all when fewer), taken out, ascending. The room they took is
    /// given back once the files left fill at most half of it.
    pub(crate) fn split_tail(&mut self, count: usize) -> Vec<(String, Class)> {
        let tail = self.0.split_off(self.0.len().saturating_sub(count));
        if self.0.len() <= self.0.capacity() / 2 {
            self.0.shrink_to_fit();
        }
        let owned = tail
            .into_iter()
            .map(|(path, class)| (path.into_string(), class));
        owned.collect()
    }
}

/// Files of distinct paths in any order, sorted by path.
impl FromIterator<(String, Class)> for Files {
    fn from_iter<I: IntoIterator<Item = (String, Class)>>(files: I) -> Files {
        let mut files: Vec<(Box<str>, Class)> = files
            .into_iter()
            .map(|(path, class)| (path.into_boxed_str(), class))
            .collect();
        files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Files::from_sorted(files)
    }
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn files_are_found_by_path_and_taken_from_the_end() {
        let mut files: Files = [
            ("b.rs".to_string(), Class::Measured),
            ("a.rs".to_string(), Class::NoCode),
            ("c.rs".to_string(), Class::Measured),
        ]
        .into_iter()
        .collect();
        assert_eq!(files.len(), 3);
        assert_eq!(files.keys().collect::<Vec<_>>(), ["a.rs", "b.rs", "c.rs"]);
        assert_eq!(files.get("a.rs"), Some(&Class::NoCode));
        assert_eq!(files.get("d.rs"), None);
        *files.get_mut("b.rs").expect("b.rs") = Class::Unmeasured("why".into());
        assert_eq!(files.get_mut("d.rs"), None);
        // Two of three left: the room is kept; one of two: given back.
        assert_eq!(files.split_tail(1).len(), 1);
        assert_eq!(files.0.capacity(), 3);
        let tail = files.split_tail(1);
        let paths: Vec<&str> = tail.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["b.rs"]);
        assert_eq!(tail[0].1, Class::Unmeasured("why".into()));
        assert_eq!(files.0.capacity(), 1);
        assert!(!files.is_empty());
        assert_eq!(files.split_tail(2).len(), 1);
        assert!(files.is_empty());
        assert!(files.split_tail(2).is_empty());
    }
}
