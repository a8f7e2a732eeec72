//! Sparklines: a series as one small `<svg>` polyline, no axes, for tables (the fleet page's machines
//! and their runs over time). The y range is the values' own (or the caller's, so rows compare).

/// `points` (x, y) as an `<svg>` `width` x `height` px: a polyline through them scaled to the box, `y`
/// between `range` (default: the points' own least and greatest), and a dot on the last point. Points
/// that are not finite are left out; none gives an empty box.
pub fn sparkline_svg(
    points: &[[f64; 2]],
    (width, height): (u32, u32),
    range: Option<(f64, f64)>,
) -> String {
    let pts: Vec<[f64; 2]> = points
        .iter()
        .copied()
        .filter(|p| p[0].is_finite() && p[1].is_finite())
        .collect();
    let (w, h) = (f64::from(width), f64::from(height));
    let mut out = format!(
        "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    if let (Some(a), Some(b)) = (pts.first(), pts.last()) {
        let (x0, x1) = (a[0], b[0]);
        let (y0, y1) = range.unwrap_or_else(|| {
            pts.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p[1]), hi.max(p[1]))
                })
        });
        let sx = |x: f64| {
            if x1 > x0 {
                1.0 + (x - x0) / (x1 - x0) * (w - 2.0)
            } else {
                w / 2.0
            }
        };
        let sy = |y: f64| {
            let f = if y1 > y0 {
                ((y - y0) / (y1 - y0)).clamp(0.0, 1.0)
            } else {
                0.5
            };
            h - 1.0 - f * (h - 2.0)
        };
        let line: Vec<String> = pts
            .iter()
            .map(|p| format!("{:.1},{:.1}", sx(p[0]), sy(p[1])))
            .collect();
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.2\" points=\"{}\"/>",
            line.join(" ")
        ));
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"1.8\" fill=\"currentColor\"/>",
            sx(b[0]),
            sy(b[1])
        ));
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_scaled_into_the_box() {
        // x 0..2 into 1..99 (width 100, a pixel's margin), y 0..10 into 19..1 (height 20, y down):
        // (0, 0) -> (1, 19); (1, 10) -> (50, 1); (2, 5) -> (99, 10).
        let s = sparkline_svg(
            &[[0.0, 0.0], [1.0, 10.0], [2.0, 5.0], [3.0, f64::NAN]],
            (100, 20),
            None,
        );
        assert!(s.contains("points=\"1.0,19.0 50.0,1.0 99.0,10.0\""), "{s}");
        assert!(s.contains("<circle cx=\"99.0\" cy=\"10.0\""), "{s}");
        // A given range: 5 of 0..100 is 5% up from the bottom: 19 - 0.05 x 18 = 18.1.
        let s = sparkline_svg(&[[0.0, 5.0], [1.0, 5.0]], (100, 20), Some((0.0, 100.0)));
        assert!(s.contains("points=\"1.0,18.1 99.0,18.1\""), "{s}");
        // No point: an empty box.
        assert!(!sparkline_svg(&[], (100, 20), None).contains("polyline"));
    }
}
