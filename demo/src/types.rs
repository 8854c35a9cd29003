/// Types only: no code to cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Square(u32),
    Rect(u32, u32),
}
