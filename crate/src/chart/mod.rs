//! Time-series charts with plotters, generic over plotters' `DrawingBackend`: the browser draws on a
//! canvas (the binding layer's `plotters-canvas` edge), native tests draw the same chart to SVG.
//!
//! Each series is decimated with M4 to the plot's pixel columns before anything is drawn ([`m4`]), gaps
//! (NaN) stay gaps, and the time axis ticks on round local-time boundaries ([`time_axis`]).
//!
//! The analysis draws on the same charts: warning and critical thresholds ([`ThresholdMark`], a dashed line
//! with the band beyond it shaded, always inside the value range) and shaded time ranges (a finding's), in
//! the viewer's canvas and in the report's SVG ([`svg`]) alike. The fleet draws on it too: the heatmap of
//! machines by time ([`heatmap`]) and sparklines for tables ([`spark`]).

pub mod axes;
pub mod compose;
pub mod heatmap;
pub mod m4;
pub mod range_stats;
pub mod spark;
pub mod svg;
pub mod time_axis;

use crate::units::{self, Measure, Unit};

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Colours by palette slot, stable across redraws: 24 colours that stay apart for the common
/// colour-vision deficiencies, none repeated within a chart of up to 24 series. The Okabe-Ito palette
/// (Okabe and Ito, "Color Universal Design", 2008) first, then Paul Tol's "muted" scheme ("Colour
/// Schemes", SRON/EPS/TN/09-002) and tones of Tol's other schemes; the pale ones last (faint on white).
/// Slots past the palette come round again dashed, so no two lines of one chart look alike.
pub const PALETTE: [(u8, u8, u8); 24] = [
    (0, 114, 178),   // Okabe-Ito blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (230, 159, 0),   // orange
    (86, 180, 233),  // sky blue
    (51, 34, 136),   // Tol muted: indigo
    (238, 51, 119),  // Tol vibrant: magenta
    (17, 119, 51),   // green
    (136, 34, 85),   // wine
    (68, 170, 153),  // teal
    (153, 153, 51),  // olive
    (170, 68, 153),  // purple
    (120, 94, 240),  // violet
    (170, 68, 0),    // brown
    (34, 34, 85),    // Tol dark: navy
    (110, 110, 110), // grey
    (255, 170, 187), // Tol light: pink
    (102, 37, 6),    // Tol YlOrBr: dark brown
    (0, 68, 136),    // Tol high-contrast: dark blue
    (102, 102, 51),  // dark olive
    (136, 204, 238), // Tol muted: cyan
    (221, 204, 119), // sand
    (240, 228, 66),  // Okabe-Ito yellow
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

/// One line of the chart: its values (aligned with the timestamps), its unit and its colour slot.
#[derive(Clone, Debug, Default)]
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
    /// What the values measure (its axis) and the factor to the unit's base (MBytes -> bytes).
    pub measure: Measure,
}

/// A threshold drawn on the chart: a dashed line at `value` (in the series' own unit, as its values) on
/// the axis of the series at position `series`, with the band beyond it shaded; the axis's range always
/// takes it in.
#[derive(Clone, Debug, PartialEq)]
pub struct ThresholdMark {
    pub series: usize,
    pub value: f64,
    pub critical: bool,
    pub band: Band,
}

/// Which side of a threshold breaks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Band {
    Above,
    Below,
    /// `eq` / `ne`: the line alone.
    #[default]
    None,
}

/// Where a threshold or a shaded range went, in the canvas's pixels (for tests and tools).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarkLayout {
    /// "critical", "warning" or "range".
    pub kind: &'static str,
    pub value: f64,
    /// A threshold's y; a range's left edge.
    pub a: i32,
    /// A range's right edge (a threshold: its y again).
    pub b: i32,
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
    /// How values map to heights: an axis per unit, Perfmon's power-of-ten scale per counter, or log.
    pub y_scale: YScale,
    /// Room for at least this many value axes on the (left, right): charts stacked on one time axis
    /// reserve the same, so their plots line up to the pixel.
    pub min_axes: (usize, usize),
    /// Thresholds to draw (an analysis finding's warning and critical).
    pub thresholds: Vec<ThresholdMark>,
    /// Time ranges to shade, ms since the epoch (a finding's).
    pub ranges: Vec<(f64, f64)>,
}

/// The value scale of a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum YScale {
    /// One linear axis per unit (percent, per second, bytes, ...), left and right of the plot.
    #[default]
    Units,
    /// Perfmon's: one 0-100 axis, each counter multiplied by the power of ten that makes it span it.
    Perfmon,
    /// One logarithmic axis per unit.
    Log,
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
            y_scale: YScale::Units,
            min_axes: (1, 0),
            thresholds: Vec::new(),
            ranges: Vec::new(),
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
    /// The value axes, the first one's range as `y0`/`y1`.
    pub axes: Vec<AxisLayout>,
    /// Each series' axis and drawing factor, in the order of the series drawn.
    pub series: Vec<SeriesLayout>,
    /// The thresholds and ranges drawn, in the order given.
    pub marks: Vec<MarkLayout>,
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

/// A scale factor as Perfmon shows it: 0.01, 1000, 1e-7.
pub fn factor_text(f: f64) -> String {
    let k = f.log10().round() as i32;
    if (-4..=6).contains(&k) {
        let text = format!("{f:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("1e{k}")
    }
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
    placed: &[SeriesLayout],
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
    for (s, p) in series.iter().zip(placed).take(LEGEND_MAX) {
        let label = if p.factor == 1.0 {
            s.label.clone()
        } else {
            format!("{} (x{})", s.label, factor_text(p.factor))
        };
        entries.push((
            fit_from_left(&label, max_text, &measure)?,
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

/// One value axis: the unit of the series on it, its range (in the unit's base: bytes, seconds, ...),
/// its side and whether it is logarithmic.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AxisLayout {
    pub unit: Unit,
    pub title: String,
    /// "left" or "right".
    pub side: &'static str,
    /// Its place on that side, 0 next to the plot.
    pub slot: usize,
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
}

/// Where one series went: its axis, and the factor its values were drawn with (Perfmon's scale: 10^k;
/// 1 otherwise).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesLayout {
    pub axis: usize,
    pub factor: f64,
}

/// The axes of a chart and each series' place on them.
struct Axes {
    axes: Vec<AxisLayout>,
    series: Vec<SeriesLayout>,
}

/// Groups the series onto axes by unit (or one 0-100 axis with a power of ten per series), with the
/// ranges of what is visible in `[x0, x1]`.
fn plan_axes(
    series: &[ChartSeries<'_>],
    decimated: &[Vec<m4::Segment>],
    (x0, x1): (f64, f64),
    view: &View,
) -> Axes {
    let visible = |k: usize| {
        decimated[k]
            .iter()
            .flatten()
            .filter(move |(x, y)| *x >= x0 && *x <= x1 && y.is_finite())
            .map(|(_, y)| *y)
    };
    if view.y_scale == YScale::Perfmon {
        let placed = (0..series.len())
            .map(|k| {
                let max = visible(k).fold(0.0f64, |m, y| m.max(y.abs()));
                SeriesLayout {
                    axis: 0,
                    factor: 10f64.powi(axes::power_of_ten_scale(max)),
                }
            })
            .collect();
        return Axes {
            axes: vec![AxisLayout {
                unit: Unit::Count,
                title: "scaled (factor in legend)".into(),
                side: "left",
                slot: 0,
                lo: 0.0,
                hi: 100.0,
                log: false,
            }],
            series: placed,
        };
    }
    let log = view.y_scale == YScale::Log;
    let mut units: Vec<Unit> = Vec::new();
    let mut placed = Vec::with_capacity(series.len());
    for s in series {
        let axis = units
            .iter()
            .position(|u| *u == s.measure.unit)
            .unwrap_or_else(|| {
                units.push(s.measure.unit);
                units.len() - 1
            });
        placed.push(SeriesLayout { axis, factor: 1.0 });
    }
    let axes = units
        .iter()
        .enumerate()
        .map(|(a, &unit)| {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for (k, s) in series.iter().enumerate() {
                if placed[k].axis != a {
                    continue;
                }
                for y in visible(k) {
                    let v = y * s.measure.multiplier;
                    if log && v <= 0.0 {
                        continue;
                    }
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
                // A threshold is always inside its series' axis, so a line that is not crossed still
                // shows how far away it is.
                for t in view.thresholds.iter().filter(|t| t.series == k) {
                    let v = t.value * s.measure.multiplier;
                    if v.is_finite() && !(log && v <= 0.0) {
                        lo = lo.min(v);
                        hi = hi.max(v);
                    }
                }
            }
            let (lo, hi) = match view.y_range {
                Some((a0, b0)) if a == 0 && a0.is_finite() && b0.is_finite() && b0 > a0 => (a0, b0),
                _ if log => log_range(lo, hi),
                _ => padded(lo, hi),
            };
            let title = if units.len() == 1 && unit == Unit::Count && !view.unit.is_empty() {
                view.unit.clone()
            } else {
                unit.title().to_string()
            };
            AxisLayout {
                unit,
                title,
                side: if a % 2 == 0 { "left" } else { "right" },
                slot: a / 2,
                lo,
                hi,
                log,
            }
        })
        .collect();
    Axes {
        axes,
        series: placed,
    }
}

/// A log axis's range: whole decades around what is drawn (positive values only).
fn log_range(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0) {
        return (1.0, 10.0);
    }
    let (a, b) = (lo.log10().floor(), hi.log10().ceil());
    (10f64.powf(a), 10f64.powf(if b > a { b } else { a + 1.0 }))
}

/// Position of `v` on an axis, 0 at its bottom and 1 at its top; NaN where it cannot be drawn (a value
/// not above zero on a log axis).
fn normalise(axis: &AxisLayout, v: f64) -> f64 {
    if axis.log {
        if v <= 0.0 {
            return f64::NAN;
        }
        (v.log10() - axis.lo.log10()) / (axis.hi.log10() - axis.lo.log10())
    } else {
        (v - axis.lo) / (axis.hi - axis.lo)
    }
}

/// The tick values of an axis.
fn axis_ticks(axis: &AxisLayout, plot_height: f64, pr: f64) -> Vec<f64> {
    if axis.log {
        axes::log_ticks(axis.lo, axis.hi)
    } else {
        let max = (plot_height / (40.0 * pr)).max(2.0) as usize;
        axes::linear_ticks(axis.lo, axis.hi, max, axis.unit)
    }
}

/// The text of an axis tick.
fn tick_label(axis: &AxisLayout, v: f64, ticks: &[f64]) -> String {
    if axis.title.starts_with("scaled") || (axis.unit == Unit::Count && !axis.log) {
        return axis_number(v);
    }
    let magnitude = axis.lo.abs().max(axis.hi.abs());
    let span = if axis.log {
        v
    } else {
        ticks
            .windows(2)
            .map(|w| w[1] - w[0])
            .next()
            .unwrap_or(axis.hi - axis.lo)
    };
    units::format_in_unit(axis.unit, v, if axis.log { v } else { magnitude }, span)
}

/// Width of one value axis (labels and title), before the pixel ratio.
const AXIS_WIDTH: f64 = 64.0;

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
    let (width, height) = area.dim_in_pixel();
    let columns = (width as usize).max(1);
    let decimated: Vec<Vec<m4::Segment>> = series
        .iter()
        .map(|s| m4::m4_summarised(timestamps, s.values, s.summary, x0, x1, columns))
        .collect();
    let plan = plan_axes(series, &decimated, (x0, x1), view);
    let on_side = |side: &str| plan.axes.iter().filter(|a| a.side == side).count() as f64;
    let (left_w, right_w) = (
        px(AXIS_WIDTH * on_side("left").max(view.min_axes.0.max(1) as f64)),
        px(AXIS_WIDTH * on_side("right").max(view.min_axes.1 as f64)),
    );

    let max_ticks = (width as f64 / (110.0 * pr)).floor().max(2.0) as usize;
    let (ticks, step) = time_axis::ticks(x0, x1, max_ticks, view.offset_minutes);
    let span = x1 - x0;
    let x_fmt = |v: &f64| time_axis::label(*v, step, span, view.offset_minutes);
    let font = ("sans-serif", 12.0 * pr).into_font().color(&fg);

    let mut chart = ChartBuilder::on(area)
        .margin(px(10.0))
        .margin_top(px(22.0))
        .x_label_area_size(px(28.0))
        .set_label_area_size(LabelAreaPosition::Left, left_w)
        .set_label_area_size(LabelAreaPosition::Right, right_w)
        .build_cartesian_2d(
            TimeCoord {
                linear: (x0..x1).into(),
                ticks,
            },
            0.0..1.0,
        )
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_label_formatter(&x_fmt)
        .y_labels(0)
        .disable_y_mesh()
        .disable_y_axis()
        .label_style(font.clone())
        .axis_style(ShapeStyle::from(&fg).stroke_width(px(1.0)))
        .bold_line_style(ShapeStyle::from(&grid).stroke_width(px(1.0)))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(err)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let plot_h = (yr.end - yr.start) as f64;
    let y_px = |n: f64| yr.end - (n * plot_h).round() as i32;

    // Value axes: grid lines of the first, then each axis's line, ticks, labels and title.
    let aw = px(AXIS_WIDTH) as i32;
    let anchor = |h| {
        font.pos(plotters::style::text_anchor::Pos::new(
            h,
            plotters::style::text_anchor::VPos::Center,
        ))
    };
    use plotters::style::text_anchor::HPos;
    for (a, axis) in plan.axes.iter().enumerate() {
        let ticks = axis_ticks(axis, plot_h, pr);
        let left = axis.side == "left";
        let x = if left {
            xr.start - aw * axis.slot as i32
        } else {
            xr.end + aw * axis.slot as i32
        };
        let stroke = ShapeStyle::from(&fg).stroke_width(px(1.0));
        area.draw(&PathElement::new(vec![(x, yr.start), (x, yr.end)], stroke))
            .map_err(err)?;
        for &t in &ticks {
            let y = y_px(normalise(axis, t));
            if a == 0 {
                area.draw(&PathElement::new(
                    vec![(xr.start, y), (xr.end, y)],
                    ShapeStyle::from(&grid).stroke_width(px(1.0)),
                ))
                .map_err(err)?;
            }
            let tick = px(4.0) as i32;
            let (tx, lx, h) = if left {
                (x - tick, x - tick - px(2.0) as i32, HPos::Right)
            } else {
                (x + tick, x + tick + px(2.0) as i32, HPos::Left)
            };
            area.draw(&PathElement::new(vec![(x, y), (tx, y)], stroke))
                .map_err(err)?;
            area.draw_text(&tick_label(axis, t, &ticks), &anchor(h), (lx, y))
                .map_err(err)?;
        }
        // The title starts at the outer edge of its axis's room and runs inwards, over the plot's top
        // margin: a long one ("scaled (factor in legend)") is not cut by the canvas's edge.
        let (tx, h) = if left {
            (x - aw + px(2.0) as i32, HPos::Left)
        } else {
            (x + aw - px(2.0) as i32, HPos::Right)
        };
        area.draw_text(&axis.title, &anchor(h), (tx, yr.start - px(11.0) as i32))
            .map_err(err)?;
    }

    let marks = draw_marks(&chart, area, series, &plan, view, (x0, x1), pr)?;

    let mut points_drawn = 0;
    // The highlighted series is drawn last, over the others.
    let mut order: Vec<usize> = (0..series.len()).collect();
    if let Some(h) = view.highlight.filter(|&h| h < series.len()) {
        order.retain(|&k| k != h);
        order.push(h);
    }
    for k in order {
        let (s, segments) = (&series[k], &decimated[k]);
        let placed = &plan.series[k];
        let axis = &plan.axes[placed.axis];
        let to_plot = |(x, y): (f64, f64)| {
            let v = if view.y_scale == YScale::Perfmon {
                y * placed.factor
            } else {
                y * s.measure.multiplier
            };
            (x, normalise(axis, v))
        };
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
            // A log axis cannot draw values at or below zero: they break the line as gaps do.
            let mapped: Vec<(f64, f64)> = seg.iter().copied().map(to_plot).collect();
            for run in mapped.split(|p| !p.1.is_finite()) {
                if run.is_empty() {
                    continue;
                }
                points_drawn += run.len();
                // A lone point between gaps has no line to draw: mark it so it is not lost.
                if run.len() == 1 {
                    chart
                        .draw_series(std::iter::once(Circle::new(
                            run[0],
                            px(2.0),
                            style.filled(),
                        )))
                        .map_err(err)?;
                } else if s.dashed || s.color_index >= PALETTE.len() {
                    chart
                        .draw_series(DashedLineSeries::new(
                            run.iter().copied(),
                            px(6.0),
                            px(4.0),
                            style,
                        ))
                        .map_err(err)?;
                } else {
                    chart
                        .draw_series(LineSeries::new(run.iter().copied(), style))
                        .map_err(err)?;
                }
            }
        }
    }
    if view.legend && !series.is_empty() {
        draw_legend(
            area,
            (xr.start, yr.start, xr.end),
            series,
            &plan.series,
            &font,
            (bg, grid),
            pr,
        )?;
    }
    let _ = height;
    area.present().map_err(err)?;
    let first = plan.axes.first();
    Ok(Layout {
        plot_left: xr.start,
        plot_top: yr.start,
        plot_width: xr.end - xr.start,
        plot_height: yr.end - yr.start,
        x0,
        x1,
        y0: first.map_or(0.0, |a| a.lo),
        y1: first.map_or(1.0, |a| a.hi),
        points_drawn,
        axes: plan.axes,
        series: plan.series,
        marks,
    })
}

/// The colour of a threshold: Okabe-Ito vermillion for critical, orange for warning (the palette's, so
/// they read for colour-blind eyes too), a little lighter on dark backgrounds.
pub fn threshold_color(critical: bool) -> RGBColor {
    if critical {
        RGBColor(213, 94, 0)
    } else {
        RGBColor(230, 159, 0)
    }
}

/// The shaded ranges (under everything), then each threshold's band and dashed line with its value.
fn draw_marks<DB: DrawingBackend>(
    chart: &ChartContext<'_, DB, Cartesian2d<TimeCoord, RangedCoordf64>>,
    area: &DrawingArea<DB, Shift>,
    series: &[ChartSeries<'_>],
    plan: &Axes,
    view: &View,
    (x0, x1): (f64, f64),
    pr: f64,
) -> Result<Vec<MarkLayout>, ChartError> {
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let plot_h = f64::from(yr.end - yr.start);
    let x_px = |t: f64| {
        let p = ((t - x0) / (x1 - x0)).clamp(0.0, 1.0);
        xr.start + (p * f64::from(xr.end - xr.start)).round() as i32
    };
    let px = |v: f64| (v * pr).round().max(1.0) as u32;
    let shade = if view.dark {
        RGBColor(200, 200, 210).mix(0.16)
    } else {
        RGBColor(40, 40, 60).mix(0.09)
    };
    let mut out = Vec::new();
    for &(a, b) in &view.ranges {
        if !(a.is_finite() && b.is_finite()) || b < x0 || a > x1 {
            continue;
        }
        let (l, r) = (x_px(a), x_px(b).max(x_px(a) + 1));
        area.draw(&Rectangle::new(
            [(l, yr.start), (r, yr.end)],
            shade.filled(),
        ))
        .map_err(err)?;
        for x in [l, r] {
            area.draw(&PathElement::new(
                vec![(x, yr.start), (x, yr.end)],
                ShapeStyle::from(&RGBColor(110, 110, 120)).stroke_width(px(1.0)),
            ))
            .map_err(err)?;
        }
        out.push(MarkLayout {
            kind: "range",
            value: a,
            a: l,
            b: r,
        });
    }
    let font = ("sans-serif", 11.0 * pr)
        .into_font()
        .color(&if view.dark { WHITE } else { BLACK });
    for t in &view.thresholds {
        let (Some(s), Some(placed)) = (series.get(t.series), plan.series.get(t.series)) else {
            continue;
        };
        let axis = &plan.axes[placed.axis];
        let v = if view.y_scale == YScale::Perfmon {
            t.value * placed.factor
        } else {
            t.value * s.measure.multiplier
        };
        let n = normalise(axis, v);
        if !n.is_finite() || !(0.0..=1.0).contains(&n) {
            continue;
        }
        let y = yr.end - (n * plot_h).round() as i32;
        let color = threshold_color(t.critical);
        let band = match t.band {
            Band::Above => Some((yr.start, y)),
            Band::Below => Some((y, yr.end)),
            Band::None => None,
        };
        if let Some((top, bottom)) = band {
            area.draw(&Rectangle::new(
                [(xr.start, top), (xr.end, bottom)],
                color.mix(if view.dark { 0.16 } else { 0.10 }).filled(),
            ))
            .map_err(err)?;
        }
        let dash = px(6.0) as i32;
        let mut x = xr.start;
        while x < xr.end {
            area.draw(&PathElement::new(
                vec![(x, y), ((x + dash).min(xr.end), y)],
                ShapeStyle::from(&color).stroke_width(px(2.0)),
            ))
            .map_err(err)?;
            x += dash * 2;
        }
        let label = format!(
            "{} {}",
            if t.critical { "critical" } else { "warning" },
            crate::words::value(t.value, s.measure)
        );
        let below = y - yr.start < px(14.0) as i32;
        let pos = plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Right,
            if below {
                plotters::style::text_anchor::VPos::Top
            } else {
                plotters::style::text_anchor::VPos::Bottom
            },
        );
        area.draw_text(
            &label,
            &font.pos(pos),
            (
                xr.end - px(4.0) as i32,
                if below {
                    y + px(3.0) as i32
                } else {
                    y - px(3.0) as i32
                },
            ),
        )
        .map_err(err)?;
        out.push(MarkLayout {
            kind: if t.critical { "critical" } else { "warning" },
            value: t.value,
            a: y,
            b: y,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_has_24_distinct_colours() {
        let mut seen = std::collections::HashSet::new();
        assert!(PALETTE.iter().all(|c| seen.insert(*c)));
        assert!(PALETTE.len() >= 20);
        // Far enough apart: every pair differs by at least 40 in some channel (of 255).
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                let d = [a.0.abs_diff(b.0), a.1.abs_diff(b.1), a.2.abs_diff(b.2)];
                assert!(d.iter().any(|&x| x >= 40), "{a:?} vs {b:?}");
            }
        }
        assert_eq!(series_color(24), series_color(0)); // drawn dashed, as the next round
    }

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
