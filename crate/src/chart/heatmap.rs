//! The fleet's heatmap: machines (rows) by time (columns), each cell coloured by how bad the machine
//! was then (no log, calm, warning, critical), on the time axis of the other charts. Generic over
//! plotters' backend like [`super::draw`]; [`heatmap_svg`] writes it for the CLI's fleet page (text is
//! escaped by plotters' SVG backend).

use super::{err, time_axis, ChartError, TimeCoord};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One row: the machine's label and its cells, each 0 (no log), 1 (calm), 2 (warning), 3 (critical).
pub struct HeatRow<'a> {
    pub label: &'a str,
    pub cells: &'a [u8],
}

/// The colours of levels 0..=3: no log, calm, warning, critical (the report's warning and critical).
pub const LEVEL_COLORS: [(u8, u8, u8); 4] = [
    (240, 242, 245),
    (199, 229, 204),
    (227, 179, 65),
    (207, 34, 46),
];

/// Height of a row, px.
pub const ROW_HEIGHT: u32 = 18;

/// Draws the heatmap of `rows` over `[x0, x1]` (ms, UTC; each row's cells split it evenly), labels in
/// the clock `offset_minutes` east of UTC.
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: &[HeatRow<'_>],
    (x0, x1): (f64, f64),
    offset_minutes: i32,
) -> Result<(), ChartError> {
    area.fill(&WHITE).map_err(err)?;
    let (x0, x1) = if x1 > x0 { (x0, x1) } else { (x0, x0 + 1.0) };
    let fg = RGBColor(40, 40, 45);
    let font = ("sans-serif", 12.0).into_font().color(&fg);
    let label_w = rows
        .iter()
        .map(|r| super::svg::estimate(r.label, 12.0).0)
        .max()
        .unwrap_or(0)
        .clamp(40, 220)
        + 8;
    let (width, _) = area.dim_in_pixel();
    let max_ticks = (f64::from(width) / 110.0).floor().max(2.0) as usize;
    let (ticks, step) = time_axis::ticks(x0, x1, max_ticks, offset_minutes);
    let span = x1 - x0;
    let x_fmt = |v: &f64| time_axis::label(*v, step, span, offset_minutes);
    let n = rows.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(6)
        .x_label_area_size(24)
        .y_label_area_size(label_w)
        .build_cartesian_2d(
            TimeCoord {
                linear: (x0..x1).into(),
                ticks,
            },
            0.0..n,
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_label_formatter(&x_fmt)
        .y_labels(0)
        .disable_y_mesh()
        .disable_x_mesh()
        .label_style(font.clone())
        .axis_style(ShapeStyle::from(&fg).stroke_width(1))
        .draw()
        .map_err(err)?;
    for (r, row) in rows.iter().enumerate() {
        let top = n - r as f64;
        let cols = row.cells.len().max(1) as f64;
        let w = span / cols;
        chart
            .draw_series(row.cells.iter().enumerate().map(|(k, &level)| {
                let (cr, cg, cb) = LEVEL_COLORS[usize::from(level.min(3))];
                let a = x0 + k as f64 * w;
                Rectangle::new(
                    [(a, top - 0.92), (a + w, top - 0.08)],
                    RGBColor(cr, cg, cb).filled(),
                )
            }))
            .map_err(err)?;
        let (_, y) = chart.backend_coord(&(x0, top - 0.5));
        let (xr, _) = chart.plotting_area().get_pixel_range();
        area.draw_text(
            row.label,
            &font.pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Right,
                plotters::style::text_anchor::VPos::Center,
            )),
            (xr.start - 6, y),
        )
        .map_err(err)?;
    }
    Ok(())
}

/// The heatmap as one `<svg>` element, `width` px wide and as tall as its rows need.
pub fn heatmap_svg(
    width: u32,
    rows: &[HeatRow<'_>],
    range: (f64, f64),
    offset_minutes: i32,
) -> Result<String, ChartError> {
    let height = ROW_HEIGHT * rows.len().max(1) as u32 + 36;
    super::svg::with_svg((width, height), |area| {
        draw_heatmap(area, rows, range, offset_minutes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rectangle_per_cell_coloured_by_level_and_labels_escaped() {
        let rows = [
            HeatRow {
                label: "WEB<01>",
                cells: &[3, 2, 1, 0],
            },
            HeatRow {
                label: "DB01",
                cells: &[1, 1, 1, 1],
            },
        ];
        let svg = heatmap_svg(600, &rows, (0.0, 4.0 * 3_600_000.0), 0).unwrap();
        assert!(svg.starts_with("<svg"));
        // 2 x 18 + 36 = 72 px tall.
        assert!(svg.contains("height=\"72\""), "{}", &svg[..200]);
        assert!(svg.contains("WEB&lt;01&gt;") && !svg.contains("WEB<01>"));
        // Critical (207, 34, 46) once, warning (227, 179, 65) once, calm (199, 229, 204) five times.
        let count = |rgb: &str| svg.matches(&format!("fill=\"{rgb}\"")).count();
        assert_eq!(count("#CF222E"), 1, "{svg}");
        assert_eq!(count("#E3B341"), 1);
        assert_eq!(count("#C7E5CC"), 5);
    }
}
