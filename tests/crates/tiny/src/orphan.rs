// Not in the module tree: never compiled, so no report mentions it.
pub fn forgotten() -> u32 {
    7
}
