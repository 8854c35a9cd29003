/// Covered.
pub fn word(s: &str) -> Option<&str> {
    s.split(' ').next()
}

/// Uncovered at adoption; a later test covers it.
pub fn old_gap(s: &str) -> usize {
    s.len() * 2
}

/// Stays uncovered.
pub fn other_gap(s: &str) -> bool {
    s.is_empty()
}
