//! The canvas edge of the charts: sizes the canvas for the screen's pixel ratio (plotters-canvas
//! ignores devicePixelRatio, plotters#164), reads the view from a JS object, and hands a
//! [`MeasuredCanvas`] to the generic `chart::draw`.

use super::capture::JsCapture;
use super::convert::{error, get, to_js};
use crate::chart::compose::{compose, Pick};
use crate::chart::{draw, Band, ChartSeries, ThresholdMark, View, YScale};
use js_sys::{Array, Float64Array};
use plotters::prelude::IntoDrawingArea;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// plotters-canvas with text measured by the canvas itself (`measureText`). plotters' wasm font code
/// measures by inserting a probe `<span>` with an inline style into the page: a strict
/// Content-Security-Policy (ours) blocks that style, it costs a layout per label, and it cannot work
/// in a Worker. Everything else is delegated unchanged.
struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

type CanvasResult = Result<(), DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> CanvasResult {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> CanvasResult {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> CanvasResult {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> CanvasResult {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> CanvasResult {
        self.inner.draw_rect(ul, br, style, fill)
    }
    /// One `Path2D` built from SVG path data and stroked once, instead of plotters-canvas's `lineTo` per
    /// point: a zoom of 8 series x 1 M points draws ~36 000 points, and a call across the wasm boundary
    /// per point was most of the redraw. Falls back to plotters-canvas if the browser refuses the path.
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> CanvasResult {
        use std::fmt::Write;
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let points: Vec<BackendCoord> = path.into_iter().collect();
        let mut d = String::with_capacity(points.len() * 10);
        for (k, (x, y)) in points.iter().enumerate() {
            let _ = write!(d, "{}{x} {y}", if k == 0 { 'M' } else { 'L' });
        }
        match web_sys::Path2d::new_with_path_string(&d) {
            Ok(p) if !points.is_empty() => {
                let (r, g, b) = color.rgb;
                self.context
                    .set_stroke_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
                self.context.set_line_width(f64::from(style.stroke_width()));
                self.context.stroke_with_path(&p);
                Ok(())
            }
            _ => self.inner.draw_path(points, style),
        }
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> CanvasResult {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> CanvasResult {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> CanvasResult {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        // The same font string plotters-canvas's draw_text sets, so measure and draw agree.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0);
        Ok((width.ceil() as u32, (style.size() * 1.2).ceil() as u32))
    }
}

fn range(v: &JsValue) -> Option<(f64, f64)> {
    let a = v.dyn_ref::<Array>()?;
    Some((a.get(0).as_f64()?, a.get(1).as_f64()?))
}

/// `view.thresholds`: `[{ series, value, severity: 'warning'|'critical', operator }]` (series: a position
/// in what the caller drew); `view.ranges`: `[[from, to], ...]` in ms. Entries that do not read are left
/// out (a chart is drawn regardless).
fn marks_from_js(v: &JsValue) -> (Vec<ThresholdMark>, Vec<(f64, f64)>) {
    let thresholds = get(v, "thresholds")
        .dyn_into::<Array>()
        .map(|a| {
            a.iter()
                .filter_map(|t| {
                    let value = get(&t, "value").as_f64().filter(|x| x.is_finite())?;
                    Some(ThresholdMark {
                        series: get(&t, "series")
                            .as_f64()
                            .map_or(0, |s| s.max(0.0) as usize),
                        value,
                        critical: get(&t, "severity").as_string().as_deref() == Some("critical"),
                        band: match get(&t, "operator").as_string().as_deref() {
                            Some("gt" | "ge") => Band::Above,
                            Some("lt" | "le") => Band::Below,
                            _ => Band::None,
                        },
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let ranges = get(v, "ranges")
        .dyn_into::<Array>()
        .map(|a| a.iter().filter_map(|r| range(&r)).collect())
        .unwrap_or_default();
    (thresholds, ranges)
}

fn view_from_js(v: &JsValue, pixel_ratio: f64) -> View {
    let d = View::default();
    let (thresholds, ranges) = marks_from_js(v);
    View {
        thresholds,
        ranges,
        x_range: range(&get(v, "xRange")),
        y_range: range(&get(v, "yRange")),
        offset_minutes: get(v, "offsetMinutes")
            .as_f64()
            .map_or(0, |m| m.clamp(-1440.0, 1440.0) as i32),
        unit: get(v, "unit").as_string().unwrap_or_default(),
        dark: get(v, "dark").as_bool().unwrap_or(d.dark),
        pixel_ratio,
        legend: get(v, "legend").as_bool().unwrap_or(d.legend),
        highlight: get(v, "highlight")
            .as_f64()
            .filter(|h| *h >= 0.0)
            .map(|h| h as usize),
        min_axes: {
            let n = |k: &str| {
                get(v, k)
                    .as_f64()
                    .map_or(0, |x| x.clamp(0.0, 16.0) as usize)
            };
            (n("axesLeft").max(1), n("axesRight"))
        },
        y_scale: match get(v, "yScale").as_string().as_deref() {
            Some("perfmon") => YScale::Perfmon,
            Some("log") => YScale::Log,
            _ => YScale::Units,
        },
    }
}

/// Draws `series` (an array of `{ label, values: Float64Array, color? }` aligned with `timestamps`) on
/// `canvas`, sized to its CSS box times devicePixelRatio. Returns the layout (plot rectangle in CSS
/// pixels, ranges, points drawn) so the caller can map pointer positions to data.
#[wasm_bindgen(js_name = renderSeriesChart)]
pub fn render_series_chart(
    canvas: HtmlCanvasElement,
    timestamps: &[f64],
    series: Array,
    view: JsValue,
) -> Result<JsValue, JsValue> {
    let mut values: Vec<(String, Vec<f64>, usize)> = Vec::with_capacity(series.length() as usize);
    for (i, s) in series.iter().enumerate() {
        let v = get(&s, "values").dyn_into::<Float64Array>().map_err(|_| {
            error(
                "invalid-argument",
                &format!("series[{i}].values must be a Float64Array"),
                Some("series"),
            )
        })?;
        if v.length() as usize != timestamps.len() {
            return Err(error(
                "invalid-argument",
                &format!(
                    "series[{i}].values has {} values for {} timestamps",
                    v.length(),
                    timestamps.len()
                ),
                Some("series"),
            ));
        }
        let color = get(&s, "color").as_f64().map_or(i, |c| c.max(0.0) as usize);
        values.push((
            get(&s, "label")
                .as_string()
                .unwrap_or_else(|| format!("series {i}")),
            v.to_vec(),
            color,
        ));
    }
    let chart_series: Vec<ChartSeries<'_>> = values
        .iter()
        .map(|(label, v, c)| ChartSeries {
            label: label.clone(),
            values: v,
            color_index: *c,
            dashed: false,
            summary: None,
            measure: Default::default(),
        })
        .collect();
    draw_on_canvas(canvas, timestamps, &chart_series, &view, None)
}

/// Draws series `indices` of a capture, straight from its columns (nothing is copied out of wasm).
/// `view.colors`, aligned with `indices`, gives each series its palette slot (a viewer keeps a series'
/// slot while it stays selected, as Perfmon does); without it the slots follow the order of `indices`.
/// `view.references` adds PDH's own values (Get-Counter) dashed. Otherwise `view` as for
/// renderSeriesChart. What is drawn is decided by `chart::compose`.
#[wasm_bindgen(js_name = renderChart)]
pub fn render_chart(
    canvas: HtmlCanvasElement,
    capture: &JsCapture,
    indices: Vec<u32>,
    view: JsValue,
) -> Result<JsValue, JsValue> {
    let colors = get(&view, "colors").dyn_into::<Array>().ok();
    let picks: Vec<Pick> = indices
        .into_iter()
        .enumerate()
        .map(|(k, i)| Pick {
            index: i as usize,
            slot: colors
                .as_ref()
                .and_then(|a| a.get(k as u32).as_f64())
                .map_or(k, |v| v.max(0.0) as usize),
        })
        .collect();
    let references = get(&view, "references").as_bool() == Some(true);
    let mut composed = compose(&capture.inner, &capture.summaries, &picks, references)
        .map_err(|e| error("invalid-argument", &e.to_string(), Some("indices")))?;
    // `view.overlays`: lines of another capture already aligned with these timestamps (a comparison),
    // `{ values: Float64Array, slot, unitOf }`, dashed in the slot's colour, on the axis of the series
    // at position `unitOf` of `indices`.
    let overlays = overlays_from_js(&get(&view, "overlays"), capture.inner.timestamps.len())?;
    for (values, slot, unit_of) in &overlays {
        let measure = composed
            .positions
            .get(*unit_of)
            .and_then(|&p| composed.series.get(p))
            .map(|s| s.measure)
            .unwrap_or_default();
        composed.series.push(ChartSeries {
            label: String::new(),
            values,
            color_index: *slot,
            dashed: true,
            summary: None,
            measure,
        });
    }
    draw_on_canvas(
        canvas,
        &capture.inner.timestamps,
        &composed.series,
        &view,
        Some(&composed.positions),
    )
}

/// The overlay lines of a view: (values, slot, position of the pick whose axis they share).
fn overlays_from_js(v: &JsValue, n: usize) -> Result<Vec<(Vec<f64>, usize, usize)>, JsValue> {
    let Some(list) = v.dyn_ref::<Array>() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (k, o) in list.iter().enumerate() {
        let values = get(&o, "values")
            .dyn_into::<Float64Array>()
            .ok()
            .map(|a| a.to_vec())
            .filter(|a| a.len() == n)
            .ok_or_else(|| {
                error(
                    "invalid-argument",
                    &format!("view.overlays[{k}].values must be a Float64Array of {n}"),
                    Some("view"),
                )
            })?;
        let num = |key: &str| get(&o, key).as_f64().map_or(0, |x| x.max(0.0) as usize);
        out.push((values, num("slot"), num("unitOf")));
    }
    Ok(out)
}

/// Sizes the canvas for the screen and draws.
/// `positions` maps `view.highlight` (a position in what the caller passed) to a position in
/// `chart_series`, when reference series were added between them.
fn draw_on_canvas(
    canvas: HtmlCanvasElement,
    timestamps: &[f64],
    chart_series: &[ChartSeries<'_>],
    view: &JsValue,
    positions: Option<&[usize]>,
) -> Result<JsValue, JsValue> {
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(0.5, 8.0);
    let (css_w, css_h) = (
        canvas.client_width().max(1) as f64,
        canvas.client_height().max(1) as f64,
    );
    let (w, h) = (
        (css_w * ratio).round() as u32,
        (css_h * ratio).round() as u32,
    );
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let no_context = || error("canvas", "the canvas has no 2D context", None);
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(no_context)?;
    let inner = CanvasBackend::with_canvas_object(canvas).ok_or_else(no_context)?;
    let backend = MeasuredCanvas { inner, context };
    let mut view = view_from_js(view, ratio);
    if let Some(p) = positions {
        view.highlight = view.highlight.and_then(|h| p.get(h).copied());
        view.thresholds.retain_mut(|t| match p.get(t.series) {
            Some(&k) => {
                t.series = k;
                true
            }
            None => false,
        });
    }
    let mut layout = draw(
        &backend.into_drawing_area(),
        timestamps,
        chart_series,
        &view,
    )
    .map_err(|e| error("canvas", &e.to_string(), None))?;
    // One placement per series the caller passed (references dropped), aligned with its list.
    if let Some(p) = positions {
        layout.series = p
            .iter()
            .filter_map(|&k| layout.series.get(k).cloned())
            .collect();
    }
    // Back to CSS pixels, the unit of pointer events.
    let css = |p: i32| (p as f64 / ratio).round() as i32;
    layout.plot_left = css(layout.plot_left);
    layout.plot_top = css(layout.plot_top);
    layout.plot_width = css(layout.plot_width);
    layout.plot_height = css(layout.plot_height);
    for m in &mut layout.marks {
        m.a = css(m.a);
        m.b = css(m.b);
    }
    to_js(&layout)
}

/// The CSS colour (`#rrggbb`) of palette slot `slot`, as the chart draws it: for legends and readouts
/// drawn outside the canvas.
#[wasm_bindgen(js_name = seriesColor)]
pub fn series_color(slot: u32) -> String {
    let c = crate::chart::series_color(slot as usize);
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The unit of a counter (`{ unit, multiplier }`: multiplier takes its values to the unit's base), from
/// its counter type where known and its name: `counterUnit(null, 'Available MBytes')` is
/// `{ unit: 'bytes', multiplier: 1048576 }`.
#[wasm_bindgen(js_name = counterUnit)]
pub fn counter_unit(counter_type: Option<u32>, counter: &str) -> Result<JsValue, JsValue> {
    let m = crate::units::measure_of(counter_type, counter);
    let o = js_sys::Object::new();
    js_sys::Reflect::set(&o, &"unit".into(), &m.unit.key().into())?;
    js_sys::Reflect::set(&o, &"multiplier".into(), &m.multiplier.into())?;
    Ok(o.into())
}
