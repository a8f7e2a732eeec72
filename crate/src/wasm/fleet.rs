//! The fleet in JS: `fleetRuns` (an analysed capture reduced per machine to small runs, as the CLI's
//! `analyze DIR` does), `rankFleet` (runs joined per machine and ranked worst first), `fleetHeatmapSvg`
//! (the heatmap of machines by time, drawn by the core's chart) and `sparklineSvg`. Converts and
//! delegates to `crate::analysis::fleet` and `crate::chart`; the viewer's fleet view (js/viewer/fleet.js)
//! keeps runs, never captures, so memory does not grow with the number of logs.

use super::analysis::{bad, out};
use super::capture::JsCapture;
use super::convert::get;
use crate::analysis::{
    self,
    fleet::{self, Fleet, Run},
};
use crate::chart::spark::sparkline_svg;
use wasm_bindgen::prelude::*;

/// The runs of one analysed capture: one per machine it names. `analysis` is what `analyze` returned on
/// it; `logs` the names of the files it was read from (default: `[name]`); `name` stands for the
/// machine of a log that names none (its file name).
#[wasm_bindgen(js_name = fleetRuns)]
pub fn fleet_runs(
    capture: &JsCapture,
    analysis_arg: JsValue,
    name: &str,
    logs: Option<Vec<String>>,
) -> Result<JsValue, JsValue> {
    let a: analysis::Analysis = serde_wasm_bindgen::from_value(analysis_arg).map_err(|e| {
        bad(
            &format!("analysis must be what analyze() returned: {e}"),
            "analysis",
        )
    })?;
    let logs = logs.unwrap_or_else(|| vec![name.to_string()]);
    out(&fleet::runs(&capture.inner, &a, &logs, name))
}

fn runs_from_js(v: JsValue) -> Result<Vec<Run>, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| {
        bad(
            &format!("runs must be what fleetRuns() returned: {e}"),
            "runs",
        )
    })
}

fn fleet_from_js(v: JsValue) -> Result<Fleet, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| {
        bad(
            &format!("fleet must be what rankFleet() returned: {e}"),
            "fleet",
        )
    })
}

/// The machines of `runs` (from any number of `fleetRuns` calls), each machine's runs joined in time
/// order, ranked worst first: severity, then time in trouble, then cards, then name.
#[wasm_bindgen(js_name = rankFleet)]
pub fn rank_fleet(runs: JsValue) -> Result<JsValue, JsValue> {
    out(&fleet::fleet(runs_from_js(runs)?))
}

/// The heatmap of a fleet (`rankFleet`'s) as one `<svg>` element's text: a row per machine in its
/// order, `options.columns` (default 120) stretches of the span of all its logs, each coloured by the
/// worst the machine was then (no log, calm, warning, critical); `options.width` px wide (default 960),
/// times on the clock `options.offsetMinutes` east of UTC. Labels are escaped by the chart's SVG
/// backend; a caller inserts it parsed (DOMParser), not as HTML. Empty text when no log has a time.
#[wasm_bindgen(js_name = fleetHeatmapSvg)]
pub fn fleet_heatmap_svg(fleet: JsValue, options: JsValue) -> Result<String, JsValue> {
    let f = fleet_from_js(fleet)?;
    let num = |k: &str, d: f64, lo: f64, hi: f64| {
        get(&options, k)
            .as_f64()
            .filter(|x| x.is_finite())
            .map_or(d, |x| x.clamp(lo, hi))
    };
    let columns = num("columns", 120.0, 1.0, 2000.0) as usize;
    let width = num("width", 960.0, 200.0, 8000.0) as u32;
    let offset = num("offsetMinutes", 0.0, -1440.0, 1440.0) as i32;
    f.heatmap_svg(width, columns, offset)
        .map(Option::unwrap_or_default)
        .map_err(|e| bad(&e.to_string(), "fleet"))
}

/// A sparkline of `points` (`[[x, y], ...]`, as a run's or a machine's `cpu`) as one `<svg>` element's
/// text, `width` x `height` px, y between `range` (`[lo, hi]`; default: the points' own), drawn in
/// `currentColor`.
#[wasm_bindgen(js_name = sparklineSvg)]
pub fn sparkline(
    points: JsValue,
    width: u32,
    height: u32,
    range: JsValue,
) -> Result<String, JsValue> {
    let pts: Vec<[f64; 2]> = serde_wasm_bindgen::from_value(points)
        .map_err(|e| bad(&format!("points must be [[x, y], ...]: {e}"), "points"))?;
    let range: Option<(f64, f64)> = if range.is_undefined() || range.is_null() {
        None
    } else {
        Some(
            serde_wasm_bindgen::from_value(range)
                .map_err(|e| bad(&format!("range must be [lo, hi]: {e}"), "range"))?,
        )
    };
    Ok(sparkline_svg(
        &pts,
        (width.clamp(1, 4000), height.clamp(1, 4000)),
        range,
    ))
}
