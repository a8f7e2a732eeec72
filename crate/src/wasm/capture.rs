//! Captures in JS: `openCapture`, the streaming `CaptureReader`, and the `Capture` class, whose columns
//! cross as `Float64Array`s (one copy, no JSON, no per-value objects).

use super::convert::{cook_error, get, named_error, to_js, ErrorClass};
use crate::capture::names::{english_names, english_path};
use crate::capture::{
    write_csv, Capture, CaptureError, CaptureParts, CaptureReader, KeepRaw, OpenOptions,
    PartsError, PathPattern, SeriesParts,
};
use js_sys::{Float64Array, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A `CaptureError`: an Error with `code`, and `line`/`column` or `offset` where the input was wrong.
pub fn capture_error(e: CaptureError) -> JsValue {
    let err = named_error(ErrorClass::Capture, e.code(), &e.message, e.field);
    for (k, v) in [
        ("line", e.line.map(f64::from)),
        ("column", e.column.map(f64::from)),
        ("offset", e.offset.map(|o| o as f64)),
    ] {
        if let Some(v) = v {
            let _ = Reflect::set(&err, &k.into(), &v.into());
        }
    }
    err
}

pub(crate) fn options(v: &JsValue) -> Result<OpenOptions, JsValue> {
    let text = |k: &str| -> Result<Option<String>, JsValue> {
        match get(v, k) {
            x if x.is_undefined() || x.is_null() => Ok(None),
            x => x.as_string().map(Some).ok_or_else(|| {
                named_error(
                    ErrorClass::Capture,
                    "invalid-option",
                    &format!("options.{k} must be a string"),
                    Some(k),
                )
            }),
        }
    };
    let size = get(v, "size")
        .as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| s as usize);
    let number = |k: &'static str| -> Result<Option<f64>, JsValue> {
        match get(v, k) {
            x if x.is_undefined() || x.is_null() => Ok(None),
            x => x.as_f64().map(Some).ok_or_else(|| {
                named_error(
                    ErrorClass::Capture,
                    "invalid-option",
                    &format!("options.{k} must be a number"),
                    Some(k),
                )
            }),
        }
    };
    let whole = |k: &'static str| -> Result<Option<usize>, JsValue> {
        match number(k)? {
            Some(n) if n.fract() != 0.0 || !(1.0..=9.0e15).contains(&n) => Err(named_error(
                ErrorClass::Capture,
                "invalid-option",
                &format!("options.{k} must be a whole number of 1 or more, found {n}"),
                Some(k),
            )),
            n => Ok(n.map(|n| n as usize)),
        }
    };
    let o = OpenOptions {
        encoding: text("encoding")?,
        format: text("format")?,
        size_hint: size,
        keep_raw: keep_raw(&get(v, "keepRaw"))?,
        series: series(&get(v, "series"))?,
        from_ms: number("from")?,
        to_ms: number("to")?,
        every: whole("every")?,
        max_column_bytes: whole("maxColumnBytes")?,
    };
    o.check().map_err(capture_error)?;
    Ok(o)
}

/// `options.series`: an array of counter paths and Perfmon wildcard paths (the series to read), or
/// absent (every series).
pub(crate) fn series(v: &JsValue) -> Result<Option<Vec<PathPattern>>, JsValue> {
    let bad = |m: &str| named_error(ErrorClass::Capture, "invalid-option", m, Some("series"));
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    let shape =
        || bad("options.series must be an array of counter path strings (wildcards allowed)");
    let paths = v
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(shape)?
        .iter()
        .map(|p| p.as_string().ok_or_else(shape))
        .collect::<Result<Vec<String>, JsValue>>()?;
    paths
        .iter()
        .map(|p| PathPattern::parse(p))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
        .map_err(|e| bad(&format!("options.series: {e}")))
}

/// `options.keepRaw`: true (every series), false or absent (none), or an array of counter paths and
/// Perfmon wildcard paths (the series they match).
fn keep_raw(v: &JsValue) -> Result<KeepRaw, JsValue> {
    let bad = |m: &str| named_error(ErrorClass::Capture, "invalid-option", m, Some("keepRaw"));
    if v.is_undefined() || v.is_null() {
        return Ok(KeepRaw::None);
    }
    if let Some(b) = v.as_bool() {
        return Ok(if b { KeepRaw::All } else { KeepRaw::None });
    }
    // One message for a wrong shape (not an array, or an entry not a string): a few bytes less of wasm.
    let shape = || {
        bad("options.keepRaw must be true, false or an array of counter path strings (wildcards allowed)")
    };
    let paths = v
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(shape)?
        .iter()
        .map(|p| p.as_string().ok_or_else(shape))
        .collect::<Result<Vec<String>, JsValue>>()?;
    KeepRaw::matching(&paths).map_err(|e| bad(&format!("options.keepRaw: {e}")))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
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
    /// The English names and path of a localized path (capture::names), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    english_object: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    english_counter: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    english_path: Option<String>,
}

/// A capture read into columns: timestamps (ms since the epoch, UTC) and one value column per series.
#[wasm_bindgen(js_name = Capture)]
pub struct JsCapture {
    pub(crate) inner: Capture,
    /// Each series' M4 block summary, built the first time it is drawn and kept for every redraw.
    pub(crate) summaries: crate::chart::m4::SummaryCache,
}

impl JsCapture {
    pub(crate) fn new(inner: Capture) -> JsCapture {
        JsCapture {
            summaries: crate::chart::m4::SummaryCache::new(inner.series.len()),
            inner,
        }
    }
}

#[wasm_bindgen(js_class = Capture)]
impl JsCapture {
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.inner.format_name().to_string()
    }
    #[wasm_bindgen(getter)]
    pub fn encoding(&self) -> String {
        self.inner.encoding_name().to_string()
    }
    #[wasm_bindgen(getter, js_name = sampleCount)]
    pub fn sample_count(&self) -> usize {
        self.inner.timestamps.len()
    }
    #[wasm_bindgen(getter, js_name = seriesCount)]
    pub fn series_count(&self) -> usize {
        self.inner.series.len()
    }
    /// The log's time zone `{ name, biasMinutes }` (UTC = local + bias), or null when it gave none.
    #[wasm_bindgen(getter, js_name = timeZone)]
    pub fn time_zone(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.time_zone)
    }
    pub fn timestamps(&self) -> Float64Array {
        Float64Array::from(&self.inner.timestamps[..])
    }
    pub fn series(&self) -> Result<JsValue, JsValue> {
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
        to_js(&infos)
    }
    /// The path of series `index` in English when it is written in another language and the names are
    /// known (`\\H\Procesador(_Total)\% de tiempo de procesador` -> `\\H\Processor(_Total)\% Processor Time`);
    /// undefined otherwise.
    #[wasm_bindgen(js_name = englishPath)]
    pub fn english_path(&self, index: usize) -> Result<Option<String>, JsValue> {
        Ok(english_path(&self.series_at(index)?.parsed))
    }
    fn series_at(&self, index: usize) -> Result<&crate::capture::Series, JsValue> {
        self.inner.series.get(index).ok_or_else(|| {
            named_error(
                ErrorClass::Capture,
                "invalid-argument",
                &format!(
                    "no series {index}: the capture has {}",
                    self.inner.series.len()
                ),
                Some("index"),
            )
        })
    }
    /// Cooked values of series `index`, aligned with timestamps(); NaN where there is none.
    pub fn values(&self, index: usize) -> Result<Float64Array, JsValue> {
        Ok(Float64Array::from(&self.series_at(index)?.values[..]))
    }
    /// The sample nearest to time `ms` (ms since the epoch, UTC); -1 for a capture without samples. For a
    /// crosshair: read from the data, not from pixels.
    #[wasm_bindgen(js_name = sampleAt)]
    pub fn sample_at(&self, ms: f64) -> f64 {
        self.inner.sample_at(ms).map_or(-1.0, |k| k as f64)
    }
    /// Value of series `index` at sample `sample` (NaN where there is none), without copying the column.
    #[wasm_bindgen(js_name = valueAt)]
    pub fn value_at(&self, index: usize, sample: usize) -> Result<f64, JsValue> {
        Ok(self
            .series_at(index)?
            .values
            .get(sample)
            .copied()
            .unwrap_or(f64::NAN))
    }
    /// PDH's own CookedValue of series `index` at `sample` (Get-Counter captures); NaN elsewhere.
    #[wasm_bindgen(js_name = referenceAt)]
    pub fn reference_at(&self, index: usize, sample: usize) -> Result<f64, JsValue> {
        Ok(self
            .series_at(index)?
            .reference
            .as_ref()
            .and_then(|r| r.get(sample).copied())
            .unwrap_or(f64::NAN))
    }
    /// How the value of series `index` at `sample` was cooked: `{ formula, substituted, result }` with the
    /// raw numbers, or null where the series holds no raw samples (Get-Counter captures keep them; a .blg
    /// those `keepRaw` names).
    #[wasm_bindgen(js_name = explainAt)]
    pub fn explain_at(&self, index: usize, sample: usize) -> Result<JsValue, JsValue> {
        self.series_at(index)?;
        match self.inner.explain_at(index, sample) {
            None => Ok(JsValue::NULL),
            Some(Ok(e)) => to_js(&e),
            Some(Err(e)) => Err(cook_error(e)),
        }
    }
    /// Get-Counter captures: PDH's own CookedValue of series `index`; undefined for other formats.
    pub fn reference(&self, index: usize) -> Result<Option<Float64Array>, JsValue> {
        Ok(self
            .series_at(index)?
            .reference
            .as_deref()
            .map(Float64Array::from))
    }
    /// Statistics of series `index` over `fromMs <= t <= toMs` (both optional).
    pub fn stats(
        &self,
        index: usize,
        from_ms: Option<f64>,
        to_ms: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        self.series_at(index)?;
        to_js(&self.inner.stats(index, from_ms, to_ms))
    }
    /// PDH-CSV (relog's dialect) of the chosen series, or of all.
    #[wasm_bindgen(js_name = toCsv)]
    pub fn to_csv(&self, indices: Option<Vec<u32>>) -> String {
        let idx: Option<Vec<usize>> = indices.map(|v| v.into_iter().map(|i| i as usize).collect());
        write_csv(&self.inner, idx.as_deref())
    }
    /// What the reader noted: `{ code, message, line? }` (a last line cut short, no time zone, ...).
    pub fn notes(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.notes)
    }

    /// The capture as plain parts, its columns as Float64Arrays (a Worker can transfer them to the page
    /// without copying): `{ format, encoding, timeZone, notes, timestamps, series: [{ path, counterType,
    /// values, reference }] }`. `Capture.fromParts` makes a Capture of them again.
    #[wasm_bindgen(js_name = toParts)]
    pub fn to_parts(&self) -> Result<JsValue, JsValue> {
        let c = &self.inner;
        let o = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| Reflect::set(&o, &k.into(), v).map(|_| ());
        set("format", &c.format_name().into())?;
        set("encoding", &c.encoding_name().into())?;
        set("timeZone", &to_js(&c.time_zone)?)?;
        set("notes", &to_js(&c.notes)?)?;
        set("timestamps", &Float64Array::from(&c.timestamps[..]).into())?;
        let series = js_sys::Array::new();
        for s in &c.series {
            let e = js_sys::Object::new();
            Reflect::set(&e, &"path".into(), &s.path.as_str().into())?;
            Reflect::set(
                &e,
                &"counterType".into(),
                &s.counter_type.map_or(JsValue::NULL, |t| t.into()),
            )?;
            Reflect::set(
                &e,
                &"defaultScale".into(),
                &s.scale.map_or(JsValue::NULL, |t| t.into()),
            )?;
            Reflect::set(
                &e,
                &"values".into(),
                &Float64Array::from(&s.values[..]).into(),
            )?;
            Reflect::set(
                &e,
                &"reference".into(),
                &s.reference
                    .as_deref()
                    .map_or(JsValue::NULL, |r| Float64Array::from(r).into()),
            )?;
            Reflect::set(
                &e,
                &"raw".into(),
                &match &s.raw {
                    None => JsValue::NULL,
                    Some(r) => {
                        let o = js_sys::Object::new();
                        for (k, v) in [
                            ("value", &r.value),
                            ("second", &r.second),
                            ("frequency", &r.frequency),
                            ("multi", &r.multi),
                        ] {
                            Reflect::set(
                                &o,
                                &k.into(),
                                &js_sys::BigUint64Array::from(&v[..]).into(),
                            )?;
                        }
                        Reflect::set(
                            &o,
                            &"present".into(),
                            &Uint8Array::from(&r.present[..]).into(),
                        )?;
                        Reflect::set(&o, &"cap100".into(), &r.options.cap100.into())?;
                        o.into()
                    }
                },
            )?;
            series.push(&e);
        }
        set("series", &series.into())?;
        Ok(o.into())
    }

    /// A Capture from the parts `toParts` gives: each part converted (a column of the wrong kind refused
    /// here), then checked and put together by the core (`Capture::from_parts`).
    #[wasm_bindgen(js_name = fromParts)]
    pub fn from_parts(parts: JsValue) -> Result<JsCapture, JsValue> {
        let bad = |m: &str| {
            named_error(
                ErrorClass::Capture,
                "invalid-argument",
                &format!("Capture.fromParts: {m}"),
                Some("parts"),
            )
        };
        let column = |v: JsValue, what: &str| {
            v.dyn_into::<Float64Array>()
                .map(|a| a.to_vec())
                .map_err(|_| bad(&format!("{what} must be a Float64Array")))
        };
        let timestamps = column(get(&parts, "timestamps"), "timestamps")?;
        let n = timestamps.len();
        // A raw column of the wrong kind and one of the wrong length say the same.
        let raw_message = |i: usize, k: &str| {
            let kind = if k == "present" {
                "Uint8Array"
            } else {
                "BigUint64Array"
            };
            format!("series[{i}].raw.{k} must be a {kind} of {n}")
        };
        let text = |k: &str| get(&parts, k).as_string().unwrap_or_default();
        let (format, encoding) = (text("format"), text("encoding"));
        let mut series = Vec::new();
        let list = get(&parts, "series")
            .dyn_into::<js_sys::Array>()
            .map_err(|_| bad("series must be an array"))?;
        for (i, s) in list.iter().enumerate() {
            let path = get(&s, "path")
                .as_string()
                .ok_or_else(|| bad(&format!("series[{i}].path must be a string")))?;
            let values = column(get(&s, "values"), &format!("series[{i}].values"))?;
            let reference = match get(&s, "reference") {
                r if r.is_null() || r.is_undefined() => None,
                r => Some(column(r, &format!("series[{i}].reference"))?),
            };
            let raw = match get(&s, "raw") {
                r if r.is_null() || r.is_undefined() => None,
                r => {
                    let col = |k: &str| -> Result<Vec<u64>, JsValue> {
                        get(&r, k)
                            .dyn_into::<js_sys::BigUint64Array>()
                            .map(|a| a.to_vec())
                            .map_err(|_| bad(&raw_message(i, k)))
                    };
                    Some(crate::capture::RawColumn {
                        value: col("value")?,
                        second: col("second")?,
                        frequency: col("frequency")?,
                        multi: col("multi")?,
                        present: get(&r, "present")
                            .dyn_into::<Uint8Array>()
                            .map(|a| a.to_vec())
                            .map_err(|_| bad(&raw_message(i, "present")))?,
                        options: crate::cook::CookOptions {
                            cap100: get(&r, "cap100").as_bool().unwrap_or(true),
                            ..Default::default()
                        },
                    })
                }
            };
            series.push(SeriesParts {
                path,
                counter_type: get(&s, "counterType").as_f64().map(|t| t as u32),
                scale: get(&s, "defaultScale")
                    .as_f64()
                    .map(|t| t.clamp(-10.0, 10.0) as i32),
                values,
                reference,
                raw,
            });
        }
        let time_zone = match get(&parts, "timeZone") {
            z if z.is_object() => Some(crate::capture::TimeZone {
                name: get(&z, "name").as_string().unwrap_or_default(),
                bias_minutes: get(&z, "biasMinutes")
                    .as_f64()
                    .map_or(0, |b| b.clamp(-1440.0, 1440.0) as i32),
            }),
            _ => None,
        };
        let capture = Capture::from_parts(CaptureParts {
            format: &format,
            encoding: &encoding,
            time_zone,
            timestamps,
            series,
        })
        .map_err(|e| match e {
            PartsError::Raw { series, column, .. } => bad(&raw_message(series, column)),
            e => bad(&e.to_string()),
        })?;
        Ok(JsCapture::new(capture))
    }
}

/// Bytes copied into wasm at a time by openCapture, as the viewer's worker pushes them: 4 MiB read the
/// clean 95 MB benchmark file at 697-717 MB/s against 605 for 1 MiB slices (bench/captures.mjs, at
/// rest; fewer slices, fewer rows carried over a slice's end).
const OPEN_SLICE: usize = 4 << 20;

/// Reads a capture from its bytes; the format is sniffed from the bytes. Throws CaptureError.
///
/// The bytes are not copied into wasm whole (wasm-bindgen's way with a `&[u8]`, which would hold a
/// second copy of the file): they are read in 4 MiB slices through the core's `CaptureReader`, which
/// gives the same capture as the whole input at once, while each slice is still in cache. The argument
/// is checked to be a Uint8Array (a Node Buffer is one) before any method of it is called: a JS
/// exception thrown inside an import would unwind through wasm and leave its state half changed.
#[wasm_bindgen(js_name = openCapture)]
pub fn open_capture(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    options_: JsValue,
) -> Result<JsCapture, JsValue> {
    let bytes = bytes.dyn_ref::<Uint8Array>().ok_or_else(|| {
        named_error(
            ErrorClass::Capture,
            "invalid-argument",
            "openCapture expects the capture's bytes as a Uint8Array (a Node Buffer is one)",
            None,
        )
    })?;
    let len = bytes.length() as usize;
    let o = OpenOptions {
        size_hint: Some(len),
        ..options(&options_)?
    };
    let mut reader = CaptureReader::new(&o).map_err(capture_error)?;
    let mut slice = vec![0; OPEN_SLICE.min(len)];
    let mut at = 0;
    while at < len {
        let end = (at + OPEN_SLICE).min(len);
        let part = &mut slice[..end - at];
        bytes.subarray(at as u32, end as u32).copy_to(part);
        reader.push(part).map_err(capture_error)?;
        at = end;
    }
    reader.finish().map(JsCapture::new).map_err(capture_error)
}

/// Reads a capture pushed in chunks, with the same result as openCapture on the whole.
#[wasm_bindgen(js_name = CaptureReader)]
pub struct JsCaptureReader {
    inner: Option<CaptureReader>,
}

#[wasm_bindgen(js_class = CaptureReader)]
impl JsCaptureReader {
    #[wasm_bindgen(constructor)]
    pub fn new(options_: JsValue) -> Result<JsCaptureReader, JsValue> {
        Ok(JsCaptureReader {
            inner: Some(CaptureReader::new(&options(&options_)?).map_err(capture_error)?),
        })
    }

    fn reader(&mut self) -> Result<&mut CaptureReader, JsValue> {
        self.inner.as_mut().ok_or_else(spent)
    }

    /// Reads a chunk; returns `{ bytes }`, the total pushed so far. After an error the reader is spent.
    pub fn push(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        let r = self.reader()?;
        match r.push(chunk) {
            Ok(()) => Ok(pushed(r.bytes())),
            Err(e) => {
                self.inner = None;
                Err(capture_error(e))
            }
        }
    }

    pub fn finish(&mut self) -> Result<JsCapture, JsValue> {
        self.reader()?;
        let r = self.inner.take().ok_or(JsValue::NULL)?;
        r.finish().map(JsCapture::new).map_err(capture_error)
    }
}

// ---- The viewer's statistics of a range (chart::range_stats) ----
#[wasm_bindgen(js_class = Capture)]
impl JsCapture {
    /// Statistics of series `index` over `fromMs <= t <= toMs` (both optional) as the viewer shows them:
    /// `{ count, min, max, mean, last, stddev, p95, p99, trendPerHour }`.
    #[wasm_bindgen(js_name = rangeStats)]
    pub fn range_stats(
        &self,
        index: usize,
        from_ms: Option<f64>,
        to_ms: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        let s = self.series_at(index)?;
        to_js(&crate::chart::range_stats::range_stats(
            &self.inner.timestamps,
            &s.values,
            from_ms,
            to_ms,
        ))
    }
}

// ---- The catalogue of a log (capture::catalogue): its series and time range, no values ----

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueInfo<'a> {
    format: &'static str,
    encoding: &'static str,
    time_zone: &'a Option<crate::capture::TimeZone>,
    rows: usize,
    first_ms: Option<f64>,
    last_ms: Option<f64>,
    bytes: usize,
    column_bytes: usize,
    notes: &'a [crate::capture::Note],
    series: Vec<CatalogueSeriesInfo<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CatalogueSeriesInfo<'a> {
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
    samples: usize,
}

/// A catalogue as a plain object (it crosses from a Worker by structured clone).
fn catalogue_js(c: &crate::capture::Catalogue) -> Result<JsValue, JsValue> {
    to_js(&CatalogueInfo {
        format: c.format_name(),
        encoding: c.encoding.name(),
        time_zone: &c.time_zone,
        rows: c.rows,
        first_ms: c.first_ms,
        last_ms: c.last_ms,
        bytes: c.bytes,
        column_bytes: c.column_bytes(),
        notes: &c.notes,
        series: c
            .series
            .iter()
            .enumerate()
            .map(|(index, s)| CatalogueSeriesInfo {
                index,
                path: &s.path,
                machine: &s.parsed.machine,
                object: &s.parsed.object,
                parent: s.parsed.parent.as_deref(),
                instance: s.parsed.instance.as_deref(),
                counter: &s.parsed.counter,
                counter_type: s.counter_type,
                samples: s.samples,
            })
            .collect(),
    })
}

/// The catalogue of a log from its bytes: `{ format, encoding, timeZone, rows, firstMs, lastMs, bytes,
/// columnBytes, notes, series: [{ index, path, machine, object, parent?, instance?, counter,
/// counterType?, samples }] }`, read in 4 MiB slices as openCapture reads; no value is kept. Options:
/// `encoding`, `format`. Throws CaptureError.
#[wasm_bindgen(js_name = readCatalogue)]
pub fn read_catalogue(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    options_: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = bytes.dyn_ref::<Uint8Array>().ok_or_else(|| {
        named_error(
            ErrorClass::Capture,
            "invalid-argument",
            "readCatalogue expects the log's bytes as a Uint8Array (a Node Buffer is one)",
            None,
        )
    })?;
    let len = bytes.length() as usize;
    let mut reader =
        crate::capture::CatalogueReader::new(&options(&options_)?).map_err(capture_error)?;
    let mut slice = vec![0; OPEN_SLICE.min(len)];
    let mut at = 0;
    while at < len {
        let end = (at + OPEN_SLICE).min(len);
        let part = &mut slice[..end - at];
        bytes.subarray(at as u32, end as u32).copy_to(part);
        reader.push(part).map_err(capture_error)?;
        at = end;
    }
    catalogue_js(&reader.finish().map_err(capture_error)?)
}

/// The catalogue of a log pushed in chunks, with the same result as readCatalogue on the whole.
#[wasm_bindgen(js_name = CatalogueReader)]
pub struct JsCatalogueReader {
    inner: Option<crate::capture::CatalogueReader>,
}

#[wasm_bindgen(js_class = CatalogueReader)]
impl JsCatalogueReader {
    #[wasm_bindgen(constructor)]
    pub fn new(options_: JsValue) -> Result<JsCatalogueReader, JsValue> {
        Ok(JsCatalogueReader {
            inner: Some(
                crate::capture::CatalogueReader::new(&options(&options_)?)
                    .map_err(capture_error)?,
            ),
        })
    }

    /// Reads a chunk; returns `{ bytes }`, the total pushed so far. After an error the reader is spent.
    pub fn push(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        let r = self.inner.as_mut().ok_or_else(spent)?;
        match r.push(chunk) {
            Ok(()) => Ok(pushed(r.bytes())),
            Err(e) => {
                self.inner = None;
                Err(capture_error(e))
            }
        }
    }

    /// The catalogue (as readCatalogue gives it), once every chunk has been pushed.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let r = self.inner.take().ok_or_else(spent)?;
        catalogue_js(&r.finish().map_err(capture_error)?)
    }
}

/// What a reader's `push` returns: `{ bytes }`, the total pushed so far.
fn pushed(bytes: usize) -> JsValue {
    let o = js_sys::Object::new();
    let _ = Reflect::set(&o, &"bytes".into(), &(bytes as f64).into());
    o.into()
}

/// The error of a reader used after it finished or failed.
fn spent() -> JsValue {
    named_error(
        ErrorClass::Capture,
        "finished",
        "this reader has finished (or failed); make a new one",
        None,
    )
}
