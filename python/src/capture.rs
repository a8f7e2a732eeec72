//! Captures in Python: `open_capture` (bytes or a path; gzip undone, as the CLI reads files) and the
//! `Capture` class. A column crosses as a NumPy array filled from the Rust column in one copy (no
//! per-value objects); borrowing the Rust column without a copy would take unsafe code, which the
//! workspace forbids. The long table crosses to pyarrow through the Arrow C data interface, its
//! buffers handed over, not copied.

use crate::errors::{capture_error, cli_error, invalid_capture_argument};
use counterlens::capture::names::{english_names, english_path};
use counterlens::capture::{write_csv, Capture, KeepRaw, OpenOptions, PathPattern};
use counterlens_cli::error::CliError;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use serde::Serialize;
use std::path::PathBuf;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCapture>()?;
    m.add_function(wrap_pyfunction!(open_capture, m)?)?;
    Ok(())
}

/// A value as Python objects: serde's JSON, parsed by Python's `json` (maps as dicts, None for null).
pub fn to_py<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| invalid_capture_argument(format!("could not convert: {e}"), "result"))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A capture read into columns: timestamps (ms since the epoch, UTC) and one value column per series.
#[pyclass(name = "Capture", module = "counterlens", frozen)]
pub struct PyCapture {
    pub inner: Capture,
    /// The name the long table's `source` column gives it (the file name, or "" for bytes).
    pub source: String,
}

#[derive(Serialize)]
struct SeriesInfo<'a> {
    index: usize,
    path: &'a str,
    machine: &'a str,
    object: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance: Option<&'a str>,
    counter: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    counter_type: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    default_scale: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    english_object: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    english_counter: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    english_path: Option<String>,
}

#[derive(Serialize)]
struct TimeZoneInfo<'a> {
    name: &'a str,
    bias_minutes: i32,
}

impl PyCapture {
    fn series_at(&self, index: usize) -> PyResult<&counterlens::capture::Series> {
        self.inner.series.get(index).ok_or_else(|| {
            invalid_capture_argument(
                format!(
                    "no series {index}: the capture has {}",
                    self.inner.series.len()
                ),
                "index",
            )
        })
    }
}

#[pymethods]
impl PyCapture {
    /// The format read: blg, pdh-csv, pdh-tsv, get-counter-json, raw-json.
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format_name()
    }
    #[getter]
    fn encoding(&self) -> &'static str {
        self.inner.encoding_name()
    }
    #[getter]
    fn sample_count(&self) -> usize {
        self.inner.timestamps.len()
    }
    #[getter]
    fn series_count(&self) -> usize {
        self.inner.series.len()
    }
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }
    /// The log's time zone `{"name", "bias_minutes"}` (UTC = local + bias), or None when it gave none.
    #[getter]
    fn time_zone(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let tz = self.inner.time_zone.as_ref().map(|z| TimeZoneInfo {
            name: &z.name,
            bias_minutes: z.bias_minutes,
        });
        to_py(py, &tz)
    }
    /// The sample times, ms since the epoch (UTC), as a float64 array.
    fn timestamps<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.inner.timestamps)
    }
    /// One dict per series: index, path, machine, object, parent, instance, counter, counter_type,
    /// default_scale, english_object, english_counter, english_path (the keys that apply).
    fn series(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let infos: Vec<SeriesInfo<'_>> = self
            .inner
            .series
            .iter()
            .enumerate()
            .map(|(index, s)| SeriesInfo {
                index,
                path: &s.path,
                machine: &s.parsed.machine,
                object: &s.parsed.object,
                parent: s.parsed.parent.as_deref(),
                instance: s.parsed.instance.as_deref(),
                counter: &s.parsed.counter,
                counter_type: s.counter_type,
                default_scale: s.scale,
                english_object: english_names(&s.parsed).map(|e| e.0),
                english_counter: english_names(&s.parsed).map(|e| e.1),
                english_path: english_path(&s.parsed),
            })
            .collect();
        to_py(py, &infos)
    }
    /// Cooked values of series `index`, aligned with timestamps(); NaN where there is none.
    fn values<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(PyArray1::from_slice(py, &self.series_at(index)?.values))
    }
    /// Get-Counter captures: PDH's own CookedValue of series `index`; None for other formats.
    fn reference<'py>(
        &self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        Ok(self
            .series_at(index)?
            .reference
            .as_deref()
            .map(|r| PyArray1::from_slice(py, r)))
    }
    /// The path of series `index` in English when it is written in another language and the names are
    /// known; None otherwise.
    fn english_path(&self, index: usize) -> PyResult<Option<String>> {
        Ok(english_path(&self.series_at(index)?.parsed))
    }
    /// Statistics of series `index` over `from_ms <= t <= to_ms` (both optional): count, min, max,
    /// mean, last, stddev, p95.
    #[pyo3(signature = (index, from_ms=None, to_ms=None))]
    fn stats(
        &self,
        py: Python<'_>,
        index: usize,
        from_ms: Option<f64>,
        to_ms: Option<f64>,
    ) -> PyResult<Py<PyAny>> {
        self.series_at(index)?;
        to_py(py, &self.inner.stats(index, from_ms, to_ms))
    }
    /// PDH-CSV (relog's dialect) of the chosen series, or of all.
    #[pyo3(signature = (indices=None))]
    fn to_csv(&self, indices: Option<Vec<usize>>) -> PyResult<String> {
        if let Some(bad) = indices
            .iter()
            .flatten()
            .find(|&&i| i >= self.inner.series.len())
        {
            self.series_at(*bad)?;
        }
        Ok(write_csv(&self.inner, indices.as_deref()))
    }
    /// What the reader noted: dicts of code, message and line (where it applies).
    fn notes(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.notes)
    }
    /// The capture in the CLI Parquet's long layout as a `pyarrow.Table`: one row per value that
    /// exists (time, machine, object, instance, counter, value, source, object_en, counter_en), the
    /// rows `counterlens convert` writes for this log.
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        use arrow_pyarrow::IntoPyArrow;
        let batches = counterlens_cli::parquet_out::capture_batches(&self.inner, &self.source)
            .map_err(cli_error)?;
        let table = arrow_pyarrow::Table::try_new(batches, counterlens_cli::parquet_out::schema())
            .map_err(|e| invalid_capture_argument(e.to_string(), "table"))?;
        table.into_pyarrow(py)
    }
    fn __repr__(&self) -> String {
        format!(
            "<counterlens.Capture {} {}: {} series x {} samples>",
            self.inner.format_name(),
            if self.source.is_empty() {
                "(bytes)"
            } else {
                &self.source
            },
            self.inner.series.len(),
            self.inner.timestamps.len()
        )
    }
}

/// A list of counter paths (Perfmon wildcards allowed), for `series` and `keep_raw`.
fn paths(v: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<String>> {
    let shape = || {
        invalid_capture_argument(
            format!("{field} must be a list of counter path strings (wildcards allowed)"),
            field,
        )
    };
    if v.is_instance_of::<PyString>() {
        return Err(shape());
    }
    v.try_iter()
        .map_err(|_| shape())?
        .map(|p| p.and_then(|p| p.extract::<String>()).map_err(|_| shape()))
        .collect()
}

fn pattern_error(field: &'static str, e: impl std::fmt::Display) -> PyErr {
    capture_error(counterlens::capture::CaptureError::invalid_option(
        field,
        e.to_string(),
    ))
}

/// The reading options, checked by the core as the npm package's are.
#[allow(clippy::too_many_arguments)]
pub fn open_options(
    encoding: Option<String>,
    format: Option<String>,
    keep_raw: Option<&Bound<'_, PyAny>>,
    series: Option<&Bound<'_, PyAny>>,
    from_ms: Option<f64>,
    to_ms: Option<f64>,
    every: Option<usize>,
    max_column_bytes: Option<usize>,
) -> PyResult<OpenOptions> {
    let keep_raw = match keep_raw {
        None => KeepRaw::None,
        Some(v) if v.is_none() => KeepRaw::None,
        Some(v) => match v.extract::<bool>() {
            Ok(true) => KeepRaw::All,
            Ok(false) => KeepRaw::None,
            Err(_) => KeepRaw::matching(&paths(v, "keep_raw")?)
                .map_err(|e| pattern_error("keep_raw", e))?,
        },
    };
    let series = match series {
        Some(v) if !v.is_none() => Some(
            paths(v, "series")?
                .iter()
                .map(|p| PathPattern::parse(p))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| pattern_error("series", e))?,
        ),
        _ => None,
    };
    let o = OpenOptions {
        encoding,
        format,
        size_hint: None,
        keep_raw,
        series,
        from_ms,
        to_ms,
        every,
        max_column_bytes,
    };
    o.check().map_err(capture_error)?;
    Ok(o)
}

/// An error reading bytes: the core's own message (no file to name), or the CLI library's (gzip).
fn bytes_error(e: CliError) -> PyErr {
    match e {
        CliError::Capture { source, .. } => capture_error(source),
        e => cli_error(e),
    }
}

/// Reads a capture from `data`: the log's bytes (bytes, bytearray, memoryview) or a path (str or
/// os.PathLike; gzip-compressed files too). Every format the core reads: .blg, PDH-CSV/TSV,
/// Get-Counter JSON, counterlens raw JSON. The options are the npm package's `openCapture` options.
#[pyfunction]
#[pyo3(signature = (data, *, encoding=None, format=None, keep_raw=None, series=None, from_ms=None, to_ms=None, every=None, max_column_bytes=None))]
#[allow(clippy::too_many_arguments)]
pub fn open_capture(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    encoding: Option<String>,
    format: Option<String>,
    keep_raw: Option<&Bound<'_, PyAny>>,
    series: Option<&Bound<'_, PyAny>>,
    from_ms: Option<f64>,
    to_ms: Option<f64>,
    every: Option<usize>,
    max_column_bytes: Option<usize>,
) -> PyResult<PyCapture> {
    let o = open_options(
        encoding,
        format,
        keep_raw,
        series,
        from_ms,
        to_ms,
        every,
        max_column_bytes,
    )?;
    if let Ok(b) = data.cast::<PyBytes>() {
        // The bytes object's own buffer, read without the GIL held (it cannot change: bytes are immutable).
        let bytes = b.as_bytes();
        let c = py
            .detach(|| counterlens_cli::input::read_bytes(bytes, "bytes", &o))
            .map_err(bytes_error)?;
        return Ok(PyCapture {
            inner: c,
            source: String::new(),
        });
    }
    if data.is_instance_of::<PyString>() || data.hasattr("__fspath__")? {
        let path: PathBuf = data.extract()?;
        let source = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let progress = counterlens_cli::progress::Progress::new(&[], true);
        let loaded = py
            .detach(|| counterlens_cli::input::read(&path, &source, &progress.file(0), &o))
            .map_err(cli_error)?;
        return Ok(PyCapture {
            inner: loaded.capture,
            source,
        });
    }
    // bytearray, memoryview and other buffers: copied once, since Python code may change them meanwhile.
    let bytes: Vec<u8> = data.extract().map_err(|_| {
        invalid_capture_argument(
            "open_capture expects the log's bytes (bytes, bytearray, memoryview) or a path",
            "data",
        )
    })?;
    let c = py
        .detach(|| counterlens_cli::input::read_bytes(&bytes, "bytes", &o))
        .map_err(bytes_error)?;
    Ok(PyCapture {
        inner: c,
        source: String::new(),
    })
}

/// A capture argument: a `Capture`, or anything `open_capture` reads (opened with default options).
pub fn capture_arg<'py>(py: Python<'py>, v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyCapture>> {
    if let Ok(c) = v.cast::<PyCapture>() {
        return Ok(c.clone());
    }
    let c = open_capture(py, v, None, None, None, None, None, None, None, None)?;
    Bound::new(py, c)
}
