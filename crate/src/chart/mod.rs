//! Time-series charts with plotters, generic over plotters' `DrawingBackend`: the browser draws on a
//! canvas (the binding layer's `plotters-canvas` edge), native tests draw the same chart to SVG.
//!
//! Each series is decimated with M4 to the plot's pixel columns before anything is drawn ([`m4`]), gaps
//! (NaN) stay gaps, and the time axis ticks on round local-time boundaries ([`time_axis`]).

pub mod compose;
pub mod m4;
pub mod time_axis;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Colours by series index, stable across redraws: the Okabe-Ito palette (distinguishable with the
/// common colour-vision deficiencies) followed by a few darker tones.
pub const PALETTE: [(u8, u8, u8); 10] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (120, 94, 240),
    (170, 68, 0),
    (0, 90, 70),
    (110, 110, 110),
];

pub fn series_color(index: usize) -> RGBColor {
    let (r, g, b) = PALETTE[index % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The time axis as plotters sees it: linear in ms, with the ticks [`time_axis::ticks`] chose.
/// (plotters' own `WithKeyPoints` opts out of default label formatting, which the mesh needs.)
struct TimeCoord {
    linear: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for TimeCoord {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;
    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(value, limit)
    }
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.max_num_points() == 0 {
            return vec![];
        }
        self.ticks.clone()
    }
    fn range(&self) -> Range<f64> {
        self.linear.range()
    }
}

/// One line of the chart: its values (aligned with the timestamps) and its colour slot.
#[derive(Clone, Debug)]
pub struct ChartSeries<'a> {
    pub label: String,
    pub values: &'a [f64],
    pub color_index: usize,
    /// Drawn dashed: a reference beside a series of the same colour (PDH's own values of a Get-Counter
    /// capture beside counterlens').
    pub dashed: bool,
    /// The values' block summary (`m4::Summary`), when the caller keeps one: redraws then cost per
    /// block, not per point.
    pub summary: Option<&'a m4::Summary>,
}

/// What to show: the time range (ms since the epoch, UTC), optionally a fixed value range, the zone
/// of the labels, and the drawing scale (devicePixelRatio) for fonts and line widths.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub x_range: Option<(f64, f64)>,
    pub y_range: Option<(f64, f64)>,
    /// Minutes east of UTC for axis labels (0: UTC).
    pub offset_minutes: i32,
    pub unit: String,
    pub dark: bool,
    pub pixel_ratio: f64,
    pub legend: bool,
    /// A series (its position in `series`) to draw thicker, with the others faded: the one a viewer's
    /// user points at in a list.
    pub highlight: Option<usize>,
}

impl Default for View {
    fn default() -> Self {
        View {
            x_range: None,
            y_range: None,
            offset_minutes: 0,
            unit: String::new(),
            dark: false,
            pixel_ratio: 1.0,
            legend: true,
            highlight: None,
        }
    }
}

/// Where the chart ended up, so the caller can map pointer positions back to data.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    pub plot_left: i32,
    pub plot_top: i32,
    pub plot_width: i32,
    pub plot_height: i32,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    /// Points handed to the backend after decimation, all series together.
    pub points_drawn: usize,
}

#[derive(Debug, thiserror::Error)]
#[error("chart drawing failed: {0}")]
pub struct ChartError(String);

/// The time range of the data: first and last finite timestamp, widened when they coincide.
pub fn data_x_range(timestamps: &[f64]) -> (f64, f64) {
    let first = timestamps.iter().copied().find(|t| t.is_finite());
    let last = timestamps.iter().rev().copied().find(|t| t.is_finite());
    match (first, last) {
        (Some(a), Some(b)) if b > a => (a, b),
        (Some(a), _) => (a - 1000.0, a + 1000.0),
        _ => (0.0, 1000.0),
    }
}

/// A value range with 5% headroom around what is drawn; a flat line gets a unit-wide band.
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi > lo {
        let pad = (hi - lo) * 0.05;
        // Counters are mostly non-negative: do not invent a negative axis for them.
        let bottom = if lo >= 0.0 && lo - pad < 0.0 {
            0.0
        } else {
            lo - pad
        };
        (bottom, hi + pad)
    } else {
        (lo - 1.0, hi + 1.0)
    }
}

/// Axis numbers: short, without trailing zeros, with k/M/G above ten thousand.
pub fn axis_number(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = match a {
        a if a >= 1e10 => (v / 1e9, "G"),
        a if a >= 1e7 => (v / 1e6, "M"),
        a if a >= 1e4 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let text = format!("{scaled:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    let text = if text == "-0" { "0" } else { text };
    format!("{text}{suffix}")
}

fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    ChartError(format!("{e:?}"))
}

/// `label`, or "…" and the longest end of it that `measure`s at most `max` wide: the end of a counter
/// path (object, instance, counter) is what tells series apart. A binary search over the kept length,
/// so a 100 KB path costs about 17 measurements, not one per character.
fn fit_from_left(
    label: &str,
    max: u32,
    measure: &dyn Fn(&str) -> Result<u32, ChartError>,
) -> Result<String, ChartError> {
    // No glyph is narrower than a pixel in practice: more characters than `max` cannot fit, so the
    // search (and each measured string) starts at most that long.
    let chars: Vec<char> = label.chars().collect();
    if chars.len() <= max as usize && measure(label)? <= max {
        return Ok(label.to_string());
    }
    let with_end = |keep: usize| -> String {
        std::iter::once('…')
            .chain(chars[chars.len() - keep..].iter().copied())
            .collect()
    };
    let (mut lo, mut hi) = (1usize, chars.len().min(max as usize).max(1)); // lo always fits or is the floor
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if measure(&with_end(mid))? <= max {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    Ok(with_end(lo.min(chars.len())))
}

/// At most this many legend entries; the rest are counted in a last line.
const LEGEND_MAX: usize = 12;

/// The legend, in the plot's upper-left corner. Drawn here rather than with plotters' series labels
/// because those size text through the font (in wasm: a DOM probe span with an inline style, which a
/// strict Content-Security-Policy blocks); here every width comes from the backend's own
/// `estimate_text_size`, which the canvas edge answers with `measureText`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (left, top, right): (i32, i32, i32),
    series: &[ChartSeries<'_>],
    font: &TextStyle<'_>,
    (bg, border): (RGBColor, RGBColor),
    pr: f64,
) -> Result<(), ChartError> {
    let pad = (6.0 * pr) as i32;
    let sample = (16.0 * pr) as i32;
    let line_h = (16.0 * pr) as i32;
    let max_text = ((right - left) as f64 * 0.6) as u32;
    let measure = |t: &str| {
        area.estimate_text_size(t, font)
            .map(|(w, _)| w)
            .map_err(err)
    };
    let mut entries: Vec<(String, Option<RGBColor>)> = Vec::new();
    for s in series.iter().take(LEGEND_MAX) {
        entries.push((
            fit_from_left(&s.label, max_text, &measure)?,
            Some(series_color(s.color_index)),
        ));
    }
    if series.len() > LEGEND_MAX {
        entries.push((format!("+{} more", series.len() - LEGEND_MAX), None));
    }
    let mut width = 0;
    for (label, _) in &entries {
        width = width.max(measure(label)?);
    }
    let (x0, y0) = (left + pad, top + pad);
    let x1 = x0 + pad * 3 + sample + width as i32;
    let y1 = y0 + pad * 2 + line_h * entries.len() as i32;
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], bg.mix(0.85).filled()))
        .map_err(err)?;
    area.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        ShapeStyle::from(&border).stroke_width(1),
    ))
    .map_err(err)?;
    let text = font.pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Left,
        plotters::style::text_anchor::VPos::Center,
    ));
    for (i, (label, color)) in entries.iter().enumerate() {
        let y = y0 + pad + line_h * i as i32 + line_h / 2;
        if let Some(c) = color {
            let stroke = ShapeStyle::from(c).stroke_width((2.0 * pr).round().max(1.0) as u32);
            area.draw(&PathElement::new(
                vec![(x0 + pad, y), (x0 + pad + sample, y)],
                stroke,
            ))
            .map_err(err)?;
        }
        area.draw_text(label, &text, (x0 + pad * 2 + sample, y))
            .map_err(err)?;
    }
    Ok(())
}

/// Draws the chart onto `area` (cleared first). Series values are aligned with `timestamps`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    timestamps: &[f64],
    series: &[ChartSeries<'_>],
    view: &View,
) -> Result<Layout, ChartError> {
    let pr = if view.pixel_ratio.is_finite() && view.pixel_ratio > 0.0 {
        view.pixel_ratio.min(8.0)
    } else {
        1.0
    };
    let px = |v: f64| (v * pr).round() as u32;
    let (bg, fg, grid) = if view.dark {
        (
            RGBColor(24, 24, 27),
            RGBColor(220, 220, 225),
            RGBColor(60, 60, 66),
        )
    } else {
        (WHITE, RGBColor(40, 40, 45), RGBColor(225, 225, 230))
    };
    area.fill(&bg).map_err(err)?;

    let (x0, x1) = match view.x_range {
        Some((a, b)) if a.is_finite() && b.is_finite() && b > a => (a, b),
        _ => data_x_range(timestamps),
    };
    let (width, _) = area.dim_in_pixel();
    let columns = (width as usize).max(1);
    let decimated: Vec<Vec<m4::Segment>> = series
        .iter()
        .map(|s| m4::m4_summarised(timestamps, s.values, s.summary, x0, x1, columns))
        .collect();
    let (y0, y1) = match view.y_range {
        Some((a, b)) if a.is_finite() && b.is_finite() && b > a => (a, b),
        _ => {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for &(x, y) in decimated.iter().flatten().flatten() {
                if x >= x0 && x <= x1 {
                    lo = lo.min(y);
                    hi = hi.max(y);
                }
            }
            padded(lo, hi)
        }
    };

    let max_ticks = (width as f64 / (110.0 * pr)).floor().max(2.0) as usize;
    let (ticks, step) = time_axis::ticks(x0, x1, max_ticks, view.offset_minutes);
    let span = x1 - x0;
    let x_fmt = |v: &f64| time_axis::label(*v, step, span, view.offset_minutes);
    let y_fmt = |v: &f64| axis_number(*v);
    let font = ("sans-serif", 12.0 * pr).into_font().color(&fg);

    let mut chart = ChartBuilder::on(area)
        .margin(px(10.0))
        .x_label_area_size(px(28.0))
        .y_label_area_size(px(if view.unit.is_empty() { 52.0 } else { 70.0 }))
        .build_cartesian_2d(
            TimeCoord {
                linear: (x0..x1).into(),
                ticks,
            },
            y0..y1,
        )
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .y_labels(((area.dim_in_pixel().1 as f64) / (40.0 * pr)).max(2.0) as usize)
        .label_style(font.clone())
        .axis_style(ShapeStyle::from(&fg).stroke_width(px(1.0)))
        .bold_line_style(ShapeStyle::from(&grid).stroke_width(px(1.0)))
        .light_line_style(TRANSPARENT);
    if !view.unit.is_empty() {
        mesh.y_desc(view.unit.as_str())
            .axis_desc_style(font.clone());
    }
    mesh.draw().map_err(err)?;

    let mut points_drawn = 0;
    // The highlighted series is drawn last, over the others.
    let mut order: Vec<usize> = (0..series.len()).collect();
    if let Some(h) = view.highlight.filter(|&h| h < series.len()) {
        order.retain(|&k| k != h);
        order.push(h);
    }
    for k in order {
        let (s, segments) = (&series[k], &decimated[k]);
        let color = series_color(s.color_index);
        // One device pixel at devicePixelRatio 1: the rasteriser's hairline path, about 15 times faster
        // than a 2-pixel stroke for the dense zigzags M4 leaves (measured in Chromium's software canvas:
        // 8 lines of 1 150 columns, 7 ms against 108 ms), and what Perfmon draws.
        let style = match view.highlight {
            Some(h) if h == k => ShapeStyle::from(&color).stroke_width(px(3.0).max(2)),
            Some(h) if h < series.len() => {
                ShapeStyle::from(&color.mix(0.3)).stroke_width(px(1.0).max(1))
            }
            _ => ShapeStyle::from(&color).stroke_width(px(1.0).max(1)),
        };
        for seg in segments {
            points_drawn += seg.len();
            // A lone point between gaps has no line to draw: mark it so it is not lost.
            if seg.len() == 1 {
                chart
                    .draw_series(std::iter::once(Circle::new(
                        seg[0],
                        px(2.0),
                        style.filled(),
                    )))
                    .map_err(err)?;
            } else if s.dashed {
                chart
                    .draw_series(DashedLineSeries::new(
                        seg.iter().copied(),
                        px(6.0),
                        px(4.0),
                        style,
                    ))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(seg.iter().copied(), style))
                    .map_err(err)?;
            }
        }
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    if view.legend && !series.is_empty() {
        draw_legend(
            area,
            (xr.start, yr.start, xr.end),
            series,
            &font,
            (bg, grid),
            pr,
        )?;
    }
    area.present().map_err(err)?;
    Ok(Layout {
        plot_left: xr.start,
        plot_top: yr.start,
        plot_width: xr.end - xr.start,
        plot_height: yr.end - yr.start,
        x0,
        x1,
        y0,
        y1,
        points_drawn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_numbers() {
        assert_eq!(axis_number(0.0), "0");
        assert_eq!(axis_number(12.5), "12.5");
        assert_eq!(axis_number(-0.0001), "0");
        assert_eq!(axis_number(25_000.0), "25k");
        assert_eq!(axis_number(84_000_000.0), "84M");
        assert_eq!(axis_number(3.5e10), "35G");
    }

    #[test]
    fn ranges() {
        assert_eq!(data_x_range(&[f64::NAN, 5.0, 9.0, f64::NAN]), (5.0, 9.0));
        // One sample: widened by a second each side, 5 - 1000 = -995 and 5 + 1000 = 1005.
        assert_eq!(data_x_range(&[5.0]), (-995.0, 1005.0));
        assert_eq!(data_x_range(&[]), (0.0, 1000.0));
        assert_eq!(padded(0.0, 100.0), (0.0, 105.0));
        assert_eq!(padded(10.0, 20.0), (9.5, 20.5));
        assert_eq!(padded(3.0, 3.0), (2.0, 4.0));
        assert_eq!(padded(f64::INFINITY, f64::NEG_INFINITY), (0.0, 1.0));
    }
}
