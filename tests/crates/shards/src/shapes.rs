//! A second file: a match whose arms different partitions take.

/// A shape.
pub enum Shape {
    /// A circle of radius r.
    Circle(f64),
    /// A rectangle w × h.
    Rect(f64, f64),
    /// A square of side s.
    Square(f64),
}

/// The area of a shape.
pub fn area(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle(r) => std::f64::consts::PI * r * r,
        Shape::Rect(w, h) => w * h,
        Shape::Square(s) => s * s,
    }
}

/// Whether the shape is bigger than `limit`.
pub fn bigger(shape: &Shape, limit: f64) -> bool {
    area(shape) > limit && limit >= 0.0
}

#[cfg(test)]
#[cfg_attr(coverage_nightly, coverage(off))]
mod tests {
    use super::*;

    #[test]
    fn h1_x2_circle() {
        assert!(area(&Shape::Circle(1.0)) > 3.0);
    }

    #[test]
    fn h2_x3_rect_bigger() {
        assert!(bigger(&Shape::Rect(2.0, 3.0), 5.0));
    }

    #[test]
    fn h2_x1_not_bigger() {
        assert!(!bigger(&Shape::Rect(1.0, 1.0), 5.0));
    }
}
