/// Fully covered by the test in lib.rs.
pub fn double(x: u32) -> u32 {
    x * 2
}
