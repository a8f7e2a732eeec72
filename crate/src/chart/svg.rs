//! Charts as SVG text, for documents without script (the analysis report): [`chart_svg`] draws with the
//! same [`super::draw`] as the viewer's canvas, through plotters' SVG backend.
//!
//! Text widths are estimated here ([`Estimated`]) rather than by plotters' font code, which in wasm
//! measures with a DOM probe (absent in a Worker, blocked by a strict Content-Security-Policy) and
//! natively needs a font file: an average advance of 0.56 em is what sans-serif fonts come to on digits
//! and path text, close enough to place labels.

use super::{draw, ChartError, ChartSeries, Layout, View};
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// plotters' SVG backend with text sizes estimated from the character count.
pub struct Estimated<'a> {
    inner: SVGBackend<'a>,
}

type Res<'a> = Result<(), DrawingErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

impl<'a> DrawingBackend for Estimated<'a> {
    type ErrorType = <SVGBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Res<'a> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Res<'a> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Res<'a> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Res<'a> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Res<'a> {
        self.inner.draw_rect(ul, br, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Res<'a> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Res<'a> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Res<'a> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Res<'a> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok(estimate(text, style.size()))
    }
}

/// Width and height of `text` at `size` px: 0.56 em per character, 1.2 em a line.
pub fn estimate(text: &str, size: f64) -> (u32, u32) {
    let n = text.chars().count() as f64;
    ((n * size * 0.56).ceil() as u32, (size * 1.2).ceil() as u32)
}

/// What `draw` draws on an area `width` x `height` px, as one `<svg>` element.
pub fn with_svg(
    (width, height): (u32, u32),
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<Estimated<'_>, plotters::coord::Shift>,
    ) -> Result<(), ChartError>,
) -> Result<String, ChartError> {
    let mut out = String::new();
    {
        let backend = Estimated {
            inner: SVGBackend::with_string(&mut out, (width, height)),
        };
        draw(&backend.into_drawing_area())?;
    }
    Ok(out)
}

/// The chart of `series` as one `<svg>` element `width` x `height` px, and where it drew.
pub fn chart_svg(
    (width, height): (u32, u32),
    timestamps: &[f64],
    series: &[ChartSeries<'_>],
    view: &View,
) -> Result<(String, Layout), ChartError> {
    let mut out = String::new();
    let layout = {
        let backend = Estimated {
            inner: SVGBackend::with_string(&mut out, (width, height)),
        };
        draw(&backend.into_drawing_area(), timestamps, series, view)?
    };
    Ok((out, layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{Band, ThresholdMark};
    use crate::units::measure_of;

    #[test]
    fn thresholds_and_ranges_are_drawn_inside_the_chart() {
        // Ten minutes at one-minute steps, 10 % then 97 % from minute 4 to 6; thresholds at 80 and 95.
        let ts: Vec<f64> = (0..10).map(|k| f64::from(k) * 60_000.0).collect();
        let values: Vec<f64> = (0..10)
            .map(|k| if (4..=6).contains(&k) { 97.0 } else { 10.0 })
            .collect();
        let series = [ChartSeries {
            label: "cpu".into(),
            values: &values,
            measure: measure_of(None, "% Processor Time"),
            ..Default::default()
        }];
        let view = View {
            legend: false,
            thresholds: vec![
                ThresholdMark {
                    series: 0,
                    value: 80.0,
                    critical: false,
                    band: Band::Above,
                },
                ThresholdMark {
                    series: 0,
                    value: 95.0,
                    critical: true,
                    band: Band::Above,
                },
            ],
            ranges: vec![(240_000.0, 420_000.0)],
            ..Default::default()
        };
        let (svg, layout) = chart_svg((600, 240), &ts, &series, &view).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(
            svg.contains("critical 95%"),
            "threshold labelled in its unit"
        );
        assert!(svg.contains("warning 80%"));
        let kinds: Vec<&str> = layout.marks.iter().map(|m| m.kind).collect();
        assert_eq!(kinds, ["range", "warning", "critical"]);
        // The range 4..7 min of 0..9 min sits at 4/9 and 7/9 of the plot's width.
        let r = &layout.marks[0];
        let w = f64::from(layout.plot_width);
        let at = |f: f64| f64::from(layout.plot_left) + f * w;
        assert!((f64::from(r.a) - at(4.0 / 9.0)).abs() <= 1.0, "{r:?}");
        assert!((f64::from(r.b) - at(7.0 / 9.0)).abs() <= 1.0, "{r:?}");
        // Both lines inside the plot, 95 above 80.
        let (wy, cy) = (layout.marks[1].a, layout.marks[2].a);
        assert!(cy < wy && cy > layout.plot_top && wy < layout.plot_top + layout.plot_height);
    }

    #[test]
    fn a_threshold_far_above_the_data_widens_the_axis() {
        // Values 1..2 ms (in seconds), threshold 25 ms: the axis reaches 25 ms, labelled in ms.
        let ts = [0.0, 60_000.0, 120_000.0];
        let values = [0.001, 0.002, 0.0015];
        let series = [ChartSeries {
            label: "lat".into(),
            values: &values,
            measure: measure_of(None, "Avg. Disk sec/Read"),
            ..Default::default()
        }];
        let view = View {
            legend: false,
            thresholds: vec![ThresholdMark {
                series: 0,
                value: 0.025,
                critical: true,
                band: Band::Above,
            }],
            ..Default::default()
        };
        let (svg, layout) = chart_svg((600, 240), &ts, &series, &view).unwrap();
        assert!(layout.axes[0].hi >= 0.025, "{:?}", layout.axes[0]);
        assert_eq!(layout.marks.len(), 1);
        // Text content is written on its own line: "\n10 ms\n".
        assert!(svg.contains("\n10 ms\n"), "axis labelled in ms");
        assert!(svg.contains("critical 25 ms"));
    }
}
