//! The analysis in JS: `rulePacks`, `analyze`, `analysisReport`, `importPalThresholds`. Converts the
//! arguments (checking them: JS callers can pass anything), calls `crate::analysis`, converts back.
//! Packs given as objects cross as their JSON text so their errors name the JSON pointer; the capture's
//! columns never cross at all (the `Capture` object is Rust's own).

use super::baseline::baseline_error;
use super::capture::JsCapture;
use super::convert::{get, named_error, ErrorClass};
use crate::analysis::baseline::Baseline;
use crate::analysis::{
    self, pal, AnalysisError, AnalyzeOptions, PackRef, RulePack, SliceLength, Value,
};
use js_sys::{Array, Object, Reflect, JSON};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// An `AnalysisError` with `code`, and where it applies the JSON `pointer`, `line`/`column`, `file`,
/// `variable` or `field`.
fn analysis_error(e: AnalysisError) -> JsValue {
    let message = e.to_string();
    // The JS argument at fault, where one is.
    let field = match &e {
        AnalysisError::UnknownPack(_) => Some("packs"),
        AnalysisError::UnknownVariable { .. }
        | AnalysisError::NonNumericVariable { .. }
        | AnalysisError::NonTextVariable { .. } => Some("variables"),
        AnalysisError::PalXml { .. } => Some("files"),
        AnalysisError::Baseline(_) => Some("baseline"),
        _ => None,
    };
    let err = named_error(ErrorClass::Analysis, e.code(), &message, field);
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&err, &k.into(), &v);
    };
    match e {
        AnalysisError::Pack {
            pointer,
            line,
            column,
            ..
        } => {
            set("pointer", pointer.into());
            set("line", (line as f64).into());
            set("column", (column as f64).into());
        }
        AnalysisError::PackContent { pointer, .. } => set("pointer", pointer.into()),
        AnalysisError::UnknownVariable { name, .. }
        | AnalysisError::NonNumericVariable { name, .. }
        | AnalysisError::NonTextVariable { name, .. } => set("variable", name.into()),
        AnalysisError::PalXml {
            file, line, column, ..
        } => {
            set("file", file.into());
            set("line", f64::from(line).into());
            set("column", f64::from(column).into());
        }
        _ => {}
    }
    err
}

pub(super) fn bad(message: &str, field: &str) -> JsValue {
    named_error(
        ErrorClass::Analysis,
        "invalid-argument",
        message,
        Some(field),
    )
}

/// Results to JS as plain objects (maps too), `None` as absent.
pub(super) fn out<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let s = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&s)
        .map_err(|e| bad(&format!("could not convert the result: {e}"), "result"))
}

fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

/// A value given as an object or as its JSON text (a pack, a baseline), as JSON text; None when it
/// does not stringify (a function, a cycle). The core reads the text, so its errors name the place.
fn json_text(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| JSON::stringify(v).ok().and_then(|s| s.as_string()))
}

/// A pack object (or JSON text) read as the core reads pack files: errors name the JSON pointer.
fn pack_from_js(v: &JsValue, field: &str) -> Result<RulePack, JsValue> {
    let text = json_text(v).ok_or_else(|| {
        bad(
            &format!("{field} must be a pack object or its JSON text"),
            field,
        )
    })?;
    RulePack::from_json(&text).map_err(analysis_error)
}

#[derive(Serialize)]
struct PackInfo<'a> {
    id: &'a str,
    title: &'a str,
    rules: usize,
    source: &'a str,
    description: &'a analysis::Text,
    /// The questions the pack asks (name, question, type, default, derive).
    variables: &'a [analysis::Variable],
}

/// The built-in rule packs: id, title, number of rules, source, description and the questions.
#[wasm_bindgen(js_name = rulePacks)]
pub fn rule_packs() -> Result<JsValue, JsValue> {
    let list: Vec<PackInfo<'_>> = analysis::builtin_packs()
        .iter()
        .map(|p| PackInfo {
            id: &p.id,
            title: &p.title,
            rules: p.rules.len(),
            source: &p.source,
            description: &p.description,
            variables: &p.variables,
        })
        .collect();
    out(&list)
}

/// The built-in pack `id` whole (rules and all), for callers that show or edit it; null if none.
#[wasm_bindgen(js_name = rulePack)]
pub fn rule_pack(id: &str) -> Result<JsValue, JsValue> {
    match analysis::builtin_packs().iter().find(|p| p.id == id) {
        Some(p) => out(p),
        None => Ok(JsValue::NULL),
    }
}

/// The counters to collect so that the packs of `options.packs` (every built-in pack when absent) can run
/// and name their causes: a file for `logman create counter NAME -cf FILE`, one path per line.
#[wasm_bindgen(js_name = counterTemplate)]
pub fn counter_template(options_arg: JsValue) -> Result<String, JsValue> {
    let o = options(&options_arg)?;
    analysis::template::counter_list(o.packs.as_deref()).map_err(analysis_error)
}

fn options(v: &JsValue) -> Result<AnalyzeOptions, JsValue> {
    let mut o = AnalyzeOptions::default();
    if absent(v) {
        return Ok(o);
    }
    if !v.is_object() {
        return Err(bad("options must be an object", "options"));
    }
    let packs = get(v, "packs");
    if !absent(&packs) {
        if !Array::is_array(&packs) {
            return Err(bad(
                "options.packs must be an array of pack ids or pack objects",
                "packs",
            ));
        }
        let mut list = Vec::new();
        for (i, p) in Array::from(&packs).iter().enumerate() {
            let field = format!("packs[{i}]");
            list.push(match p.as_string() {
                // A string that opens an object is a pack's JSON text; any other is an id.
                Some(s) if s.trim_start().starts_with('{') => {
                    PackRef::Pack(pack_from_js(&p, &field)?)
                }
                Some(id) => PackRef::Builtin(id),
                None if p.is_object() => PackRef::Pack(pack_from_js(&p, &field)?),
                None => {
                    return Err(bad(
                        &format!("{field} must be a pack id or a pack object"),
                        &field,
                    ))
                }
            });
        }
        o.packs = Some(list);
    }
    let vars = get(v, "variables");
    if !absent(&vars) {
        if !vars.is_object() {
            return Err(bad(
                "options.variables must be an object of names to numbers or strings",
                "variables",
            ));
        }
        for entry in Object::entries(&Object::from(vars)).iter() {
            let pair = Array::from(&entry);
            let name = pair.get(0).as_string().unwrap_or_default();
            let value = pair.get(1);
            let value = if let Some(n) = value.as_f64() {
                Value::Number(n)
            } else if let Some(s) = value.as_string() {
                Value::Text(s)
            } else {
                return Err(bad(
                    &format!("options.variables.{name} must be a number or a string"),
                    "variables",
                ));
            };
            o.variables.insert(name, value);
        }
    }
    let slice = get(v, "slice");
    o.slice = if absent(&slice) || slice.as_string().as_deref() == Some("auto") {
        SliceLength::Auto
    } else if let Some(ms) = slice.as_f64() {
        SliceLength::Ms(ms)
    } else {
        return Err(bad(
            "options.slice must be \"auto\" or a length in ms",
            "slice",
        ));
    };
    for (k, slot) in [("from", &mut o.from), ("to", &mut o.to)] {
        let x = get(v, k);
        if !absent(&x) {
            *slot = Some(
                x.as_f64()
                    .ok_or_else(|| bad(&format!("options.{k} must be ms since the epoch"), k))?,
            );
        }
    }
    // Where a built-in pack and a given one (an imported PAL file) cover one series: whose rules run.
    let overlap = get(v, "overlap");
    if !absent(&overlap) {
        o.overlap = match overlap.as_string().as_deref() {
            Some("imported") => analysis::Overlap::Imported,
            Some("builtin") => analysis::Overlap::Builtin,
            Some("both") => analysis::Overlap::Both,
            _ => {
                return Err(bad(
                    "options.overlap must be \"imported\", \"builtin\" or \"both\"",
                    "overlap",
                ))
            }
        };
    }
    // The machine's normal: the object BaselineBuilder.finish() gave, or a baseline file's text.
    let baseline = get(v, "baseline");
    if !absent(&baseline) {
        let text = json_text(&baseline).unwrap_or_default();
        o.baseline = Some(Baseline::from_json(&text).map_err(|e| baseline_error(&e, "baseline"))?);
    }
    Ok(o)
}

/// Analyses a capture: findings, what ran and what was skipped, the variables used.
#[wasm_bindgen]
pub fn analyze(capture: &JsCapture, options_arg: JsValue) -> Result<JsValue, JsValue> {
    let o = options(&options_arg)?;
    let a = analysis::analyze(&capture.inner, &o).map_err(analysis_error)?;
    out(&a)
}

/// One self-contained HTML document reporting `analysis` (as `analyze` returned it) on `capture`.
#[wasm_bindgen(js_name = analysisReport)]
pub fn analysis_report(
    capture: &JsCapture,
    analysis_arg: JsValue,
    options_arg: JsValue,
) -> Result<String, JsValue> {
    let a: analysis::Analysis = serde_wasm_bindgen::from_value(analysis_arg).map_err(|e| {
        bad(
            &format!("analysis must be what analyze() returned: {e}"),
            "analysis",
        )
    })?;
    let title = get(&options_arg, "title").as_string();
    Ok(analysis::analysis_report(
        &capture.inner,
        &a,
        title.as_deref(),
    ))
}

/// PAL threshold XML into a pack: one file's text, or several by file name so inheritance resolves.
#[wasm_bindgen(js_name = importPalThresholds)]
pub fn import_pal_thresholds(files: JsValue) -> Result<JsValue, JsValue> {
    let list: Vec<(String, String)> = if let Some(text) = files.as_string() {
        vec![("thresholds.xml".to_string(), text)]
    } else if files.is_object() && !Array::is_array(&files) {
        let mut l = Vec::new();
        for entry in Object::entries(&Object::from(files)).iter() {
            let pair = Array::from(&entry);
            let name = pair.get(0).as_string().unwrap_or_default();
            let text = pair
                .get(1)
                .as_string()
                .ok_or_else(|| bad(&format!("files[{name:?}] must be the file's text"), "files"))?;
            l.push((name, text));
        }
        l
    } else {
        return Err(bad(
            "files must be a PAL threshold file's text, or an object of file names to texts",
            "files",
        ));
    };
    let r = pal::import_pal(&list).map_err(analysis_error)?;
    out(&r)
}

/// A finding's `derived` (its definition) read from JS.
fn derived_from_js(v: &JsValue) -> Result<analysis::DerivedRef, JsValue> {
    serde_wasm_bindgen::from_value(v.clone()).map_err(|e| {
        bad(
            &format!("derived must be a finding's derived (pack, id, expression, inputs): {e}"),
            "derived",
        )
    })
}

/// The values of the derived series a finding names (`finding.derived`), sample by sample over
/// `capture`'s timestamps.
#[wasm_bindgen(js_name = derivedSeries)]
pub fn derived_series(capture: &JsCapture, derived: JsValue) -> Result<Vec<f64>, JsValue> {
    let d = derived_from_js(&derived)?;
    analysis::derived_values(&capture.inner, &d).map_err(analysis_error)
}

/// One point of a derived series explained: its inputs' values at `sample` and the arithmetic.
#[wasm_bindgen(js_name = explainDerived)]
pub fn explain_derived(
    capture: &JsCapture,
    derived: JsValue,
    sample: JsValue,
) -> Result<JsValue, JsValue> {
    let d = derived_from_js(&derived)?;
    let k = sample
        .as_f64()
        .filter(|k| k.fract() == 0.0 && *k >= 0.0 && *k <= u32::MAX as f64)
        .ok_or_else(|| {
            bad(
                "sample must be a sample index (a whole number from 0)",
                "sample",
            )
        })?;
    let e = analysis::explain_derived(&capture.inner, &d, k as usize).map_err(analysis_error)?;
    out(&e)
}
