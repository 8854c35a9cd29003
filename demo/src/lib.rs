pub mod covered;
mod types;

pub use types::Shape;

/// Called by the test: covered.
pub fn area(shape: &Shape) -> u32 {
    match shape {
        Shape::Square(side) => side * side,
        Shape::Rect(w, h) => w * h,
    }
}

/// Never called: the gate must name it.
pub fn perimeter(shape: &Shape) -> u32 {
    match shape {
        Shape::Square(side) => 4 * side,
        Shape::Rect(w, h) => 2 * (w + h),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas() {
        assert_eq!(area(&Shape::Square(3)), 9);
        assert_eq!(area(&Shape::Rect(2, 5)), 10);
        assert_eq!(covered::double(4), 8);
    }
}
