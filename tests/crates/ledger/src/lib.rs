pub mod parse;
pub mod util;

/// Covered by the test below.
pub fn covered(x: u32) -> u32 {
    x + 1
}

#[cfg(test)]
mod tests {
    #[test]
    fn some() {
        assert_eq!(super::covered(1), 2);
        assert_eq!(crate::parse::word("a b"), Some("a"));
        assert_eq!(crate::util::twice(2), 4);
    }
}
