/// Covered.
pub fn twice(x: u32) -> u32 {
    x * 2
}

/// Uncovered.
pub fn unused() -> u32 {
    7
}
