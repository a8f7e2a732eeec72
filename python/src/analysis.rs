//! The analysis in Python: `analyze`, `rule_packs`, `rule_pack`, `import_pal_thresholds`,
//! `analysis_report`, `build_baseline` (a machine's normal, which `analyze(baseline=...)` reads). Arguments are checked and converted, `crate::analysis` runs, and results go back
//! as the JSON the CLI writes (`counterlens analyze --json`), which the Python half parses and wraps.
//! Packs given as dicts cross as their JSON text, so their errors name the JSON pointer, as in npm.

use crate::capture::{capture_arg, to_py};
use crate::errors::{analysis_error, invalid_analysis_argument};
use counterlens::analysis::baseline::{Baseline, Builder};
use counterlens::analysis::{
    self, pal, AnalyzeOptions, Overlap, PackRef, RulePack, SliceLength, Value,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use serde::Serialize;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze_json, m)?)?;
    m.add_function(wrap_pyfunction!(rule_packs, m)?)?;
    m.add_function(wrap_pyfunction!(rule_pack, m)?)?;
    m.add_function(wrap_pyfunction!(import_pal_json, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_report, m)?)?;
    m.add_function(wrap_pyfunction!(build_baseline_json, m)?)?;
    Ok(())
}

#[derive(Serialize)]
struct PackInfo<'a> {
    id: &'a str,
    title: &'a str,
    rules: usize,
    source: &'a str,
    description: &'a analysis::Text,
    variables: &'a [analysis::Variable],
}

/// The built-in rule packs: id, title, number of rules, source, description and the questions.
#[pyfunction]
fn rule_packs(py: Python<'_>) -> PyResult<Py<PyAny>> {
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
    to_py(py, &list)
}

/// The built-in pack `id` whole (rules and all), as its JSON reads; None if there is none.
#[pyfunction]
fn rule_pack(py: Python<'_>, id: &str) -> PyResult<Py<PyAny>> {
    to_py(py, &analysis::builtin_packs().iter().find(|p| p.id == id))
}

/// One entry of `packs`: a built-in id, a pack's JSON text (a string that opens an object), or a dict.
fn pack_ref(v: &Bound<'_, PyAny>, i: usize) -> PyResult<PackRef> {
    let field = format!("packs[{i}]");
    let text = if let Ok(s) = v.cast::<PyString>() {
        let s = s.to_cow()?;
        if !s.trim_start().starts_with('{') {
            return Ok(PackRef::Builtin(s.to_string()));
        }
        s.to_string()
    } else if v.is_instance_of::<PyDict>() {
        v.py()
            .import("json")?
            .call_method1("dumps", (v,))?
            .extract::<String>()?
    } else {
        return Err(invalid_analysis_argument(
            format!("{field} must be a pack id, a pack dict or its JSON text"),
            &field,
        ));
    };
    RulePack::from_json(&text)
        .map(PackRef::Pack)
        .map_err(analysis_error)
}

fn options(
    packs: Option<&Bound<'_, PyAny>>,
    variables: Option<&Bound<'_, PyDict>>,
    slice: Option<&Bound<'_, PyAny>>,
    from_ms: Option<f64>,
    to_ms: Option<f64>,
    overlap: Option<&str>,
    baseline: Option<&str>,
) -> PyResult<AnalyzeOptions> {
    let mut o = AnalyzeOptions::default();
    if let Some(text) = baseline {
        o.baseline = Some(Baseline::from_json(text).map_err(|e| analysis_error(e.into()))?);
    }
    if let Some(packs) = packs.filter(|p| !p.is_none()) {
        if packs.is_instance_of::<PyString>() {
            return Err(invalid_analysis_argument(
                "packs must be a list of pack ids, pack dicts or pack JSON texts",
                "packs",
            ));
        }
        let list = packs
            .try_iter()
            .map_err(|_| {
                invalid_analysis_argument(
                    "packs must be a list of pack ids, pack dicts or pack JSON texts",
                    "packs",
                )
            })?
            .enumerate()
            .map(|(i, p)| pack_ref(&p?, i))
            .collect::<PyResult<Vec<_>>>()?;
        o.packs = Some(list);
    }
    for (name, value) in variables.iter().flat_map(|d| d.iter()) {
        let name: String = name.extract().map_err(|_| {
            invalid_analysis_argument("variables' names must be strings", "variables")
        })?;
        let v = if value.is_instance_of::<PyString>() {
            Value::Text(value.extract()?)
        } else if let Ok(n) = value.extract::<f64>() {
            Value::Number(n)
        } else {
            return Err(invalid_analysis_argument(
                format!("variables[{name:?}] must be a number or a string"),
                "variables",
            ));
        };
        o.variables.insert(name, v);
    }
    o.slice = match slice.filter(|s| !s.is_none()) {
        None => SliceLength::Auto,
        Some(s) => {
            if let Ok(text) = s.extract::<String>() {
                // "auto", or a duration as the CLI's --slice takes it (5m, 30s, 1h).
                counterlens_cli::args::slice(&text)
                    .map_err(|e| invalid_analysis_argument(format!("slice: {e}"), "slice"))?
            } else if let Ok(ms) = s.extract::<f64>() {
                SliceLength::Ms(ms)
            } else {
                return Err(invalid_analysis_argument(
                    "slice must be \"auto\", a duration such as \"5m\", or a length in ms",
                    "slice",
                ));
            }
        }
    };
    o.from = from_ms;
    o.to = to_ms;
    if let Some(ov) = overlap {
        o.overlap = match ov {
            "imported" => Overlap::Imported,
            "builtin" => Overlap::Builtin,
            "both" => Overlap::Both,
            _ => {
                return Err(invalid_analysis_argument(
                    "overlap must be \"imported\", \"builtin\" or \"both\"",
                    "overlap",
                ))
            }
        };
    }
    Ok(o)
}

/// Analyses a capture (or a log's bytes or path); the result as the JSON text `counterlens analyze
/// --json` writes (without its `inputs`). The Python half's `analyze` wraps it.
#[pyfunction]
#[pyo3(signature = (capture, packs=None, variables=None, slice=None, from_ms=None, to_ms=None, overlap=None, baseline=None))]
// The keyword arguments of Python's `analyze`, one parameter each as PyO3 maps them.
#[allow(clippy::too_many_arguments)]
fn analyze_json(
    py: Python<'_>,
    capture: &Bound<'_, PyAny>,
    packs: Option<&Bound<'_, PyAny>>,
    variables: Option<&Bound<'_, PyDict>>,
    slice: Option<&Bound<'_, PyAny>>,
    from_ms: Option<f64>,
    to_ms: Option<f64>,
    overlap: Option<&str>,
    baseline: Option<&str>,
) -> PyResult<String> {
    let o = options(packs, variables, slice, from_ms, to_ms, overlap, baseline)?;
    let c = capture_arg(py, capture)?;
    let c = c.get();
    let a = py
        .detach(|| analysis::analyze(&c.inner, &o))
        .map_err(analysis_error)?;
    serde_json::to_string(&a)
        .map_err(|e| invalid_analysis_argument(format!("could not convert: {e}"), "result"))
}

/// A machine's normal from its logs (captures, bytes or paths; `names[i]` names log i, default its
/// path or "log i+1"), as the JSON text `counterlens baseline` writes.
#[pyfunction]
#[pyo3(signature = (captures, names=None))]
fn build_baseline_json(
    py: Python<'_>,
    captures: &Bound<'_, PyAny>,
    names: Option<Vec<String>>,
) -> PyResult<String> {
    let mut b = Builder::new();
    for (i, c) in captures
        .try_iter()
        .map_err(|_| invalid_analysis_argument("captures must be a list of captures", "captures"))?
        .enumerate()
    {
        let c = c?;
        let name = names
            .as_ref()
            .and_then(|n| n.get(i).cloned())
            .or_else(|| c.extract::<String>().ok())
            .unwrap_or_else(|| format!("log {}", i + 1));
        let c = capture_arg(py, &c)?;
        b.add(&name, &c.get().inner)
            .map_err(|e| analysis_error(e.into()))?;
    }
    let baseline = b.finish().map_err(|e| analysis_error(e.into()))?;
    serde_json::to_string(&baseline)
        .map_err(|e| invalid_analysis_argument(format!("could not convert: {e}"), "result"))
}

/// One self-contained HTML document reporting `analysis` (the JSON `analyze_json` returned) on
/// `capture`.
#[pyfunction]
#[pyo3(signature = (capture, analysis_json, title=None))]
fn analysis_report(
    py: Python<'_>,
    capture: &Bound<'_, PyAny>,
    analysis_json: &str,
    title: Option<&str>,
) -> PyResult<String> {
    let a: analysis::Analysis = serde_json::from_str(analysis_json).map_err(|e| {
        invalid_analysis_argument(
            format!("analysis must be what analyze() returned: {e}"),
            "analysis",
        )
    })?;
    let c = capture_arg(py, capture)?;
    Ok(analysis::analysis_report(&c.get().inner, &a, title))
}

/// A PAL file's text: a str as given, bytes decoded as the CLI decodes `--pack` files (BOM, UTF-8,
/// else the Windows code page the core's detection guesses; PAL writes UTF-16 with a BOM).
fn pal_text(v: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_cow()?.to_string());
    }
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(counterlens_cli::packs::decode(b.as_bytes()));
    }
    Err(invalid_analysis_argument(
        format!("files[{name:?}] must be the file's text (str) or bytes"),
        "files",
    ))
}

/// PAL threshold XML into a pack: `files` maps file names to their text or bytes (several, so
/// `<INHERITANCE>` between them resolves). The result as JSON: pack, translated, total,
/// untranslated, variables, missingFiles, notes.
#[pyfunction]
fn import_pal_json(files: &Bound<'_, PyDict>) -> PyResult<String> {
    let mut list = Vec::new();
    for (name, text) in files.iter() {
        let name: String = name
            .extract()
            .map_err(|_| invalid_analysis_argument("files' names must be strings", "files"))?;
        let text = pal_text(&text, &name)?;
        list.push((name, text));
    }
    let r = pal::import_pal(&list).map_err(analysis_error)?;
    serde_json::to_string(&r)
        .map_err(|e| invalid_analysis_argument(format!("could not convert: {e}"), "result"))
}
