//! The pieces of a big text capture read in parallel (`capture::join`), for `openCaptureParallel`
//! (js/parallel.js): the plan made once on the page, a `CapturePiece` read in each worker, the join
//! back on the page. Columns cross as Float64Arrays (`toParts`), never as JSON.

use super::capture::{capture_error, options, series, JsCapture};
use super::convert::{get, named_error, to_js, ErrorClass};
use crate::capture::join::{self, JoinError, PieceRows, Plan};
use crate::capture::text::Encoding;
use crate::capture::{Capture, CaptureEncoding, Format, Note, OpenOptions, Series, TimeZone};
use js_sys::{Float64Array, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn bad(message: &str, field: &str) -> JsValue {
    named_error(
        ErrorClass::Capture,
        "invalid-argument",
        message,
        Some(field),
    )
}

/// `{ encoding, format }` when the text starting with `head` can be read in pieces cut at line ends;
/// null when it is read whole (openCapture). `complete` when `head` is the whole file.
#[wasm_bindgen(js_name = planCapturePieces)]
pub fn plan_capture_pieces(
    head: &[u8],
    options_: JsValue,
    complete: bool,
) -> Result<JsValue, JsValue> {
    let o = options(&options_)?;
    match join::plan(head, &o, complete) {
        None => Ok(JsValue::NULL),
        Some(p) => {
            let out = js_sys::Object::new();
            Reflect::set(&out, &"encoding".into(), &p.encoding.name().into())?;
            Reflect::set(&out, &"format".into(), &p.format.name().into())?;
            // The series to read travel with the plan to every piece (the rows are picked at the join).
            let series = get(&options_, "series");
            if !series.is_undefined() && !series.is_null() {
                Reflect::set(&out, &"series".into(), &series)?;
            }
            Ok(out.into())
        }
    }
}

/// One piece of a text capture, held in a worker's wasm memory between counting its lines and reading it.
#[wasm_bindgen(js_name = CapturePiece)]
pub struct JsCapturePiece {
    header: Vec<u8>,
    body: Vec<u8>,
    last: bool,
    plan: Plan,
    /// The series to read (`plan.series`).
    options: OpenOptions,
}

#[wasm_bindgen(js_class = CapturePiece)]
impl JsCapturePiece {
    /// `header`: the file's first line without its line end; `body`: whole lines (the last piece may
    /// end in a line without one); `plan`: what `planCapturePieces` gave.
    #[wasm_bindgen(constructor)]
    pub fn new(
        header: Vec<u8>,
        body: Vec<u8>,
        plan: JsValue,
        last: bool,
    ) -> Result<JsCapturePiece, JsValue> {
        let text = |k: &str| get(&plan, k).as_string().unwrap_or_default();
        let encoding = Encoding::from_name(&text("encoding"))
            .filter(|e| !e.is_wide())
            .ok_or_else(|| bad("plan.encoding must come from planCapturePieces", "plan"))?;
        let format = Format::parse(&text("format"))
            .filter(|f| matches!(f, Format::PdhCsv | Format::PdhTsv))
            .ok_or_else(|| bad("plan.format must be \"pdh-csv\" or \"pdh-tsv\"", "plan"))?;
        Ok(JsCapturePiece {
            header,
            body,
            last,
            plan: Plan { encoding, format },
            options: OpenOptions {
                series: series(&get(&plan, "series"))?,
                ..OpenOptions::default()
            },
        })
    }

    /// Line ends in the body: the next piece's first line is this one's plus this count.
    #[wasm_bindgen(js_name = lineEnds)]
    pub fn line_ends(&self) -> f64 {
        join::line_ends(&self.body) as f64
    }

    /// Reads the piece, its first line being `firstLine` of the file: `{ format, encoding, timeZone,
    /// notes, paths, local, lines, values }`: the rows' local times (Float64Array), each row's line
    /// (Uint32Array) and every value column in one Float64Array, series after series (one buffer to
    /// transfer). Throws the CaptureError the whole-file reader would, at the same line.
    pub fn read(&self, first_line: u32) -> Result<JsValue, JsValue> {
        let piece = join::read_piece_of(
            &self.header,
            &self.body,
            first_line,
            self.last,
            &self.plan,
            &self.options,
        )
        .map_err(capture_error)?;
        let c = &piece.capture;
        let rows = c.timestamps.len() as u32;
        let values = Float64Array::new_with_length(rows * c.series.len() as u32);
        for (k, s) in c.series.iter().enumerate() {
            values
                .subarray(k as u32 * rows, (k as u32 + 1) * rows)
                .copy_from(&s.values);
        }
        let paths: js_sys::Array = c.series.iter().map(|s| JsValue::from(&s.path)).collect();
        let out = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| Reflect::set(&out, &k.into(), v).map(|_| ());
        set("format", &c.format_name().into())?;
        set("encoding", &c.encoding_name().into())?;
        set("timeZone", &to_js(&c.time_zone)?)?;
        set("notes", &to_js(&c.notes)?)?;
        set("paths", &paths.into())?;
        // How many series the file has, when some were left out (`options.series`).
        set("ofSeries", &JsValue::from(piece.of_series as f64))?;
        set("local", &Float64Array::from(&c.timestamps[..]).into())?;
        set("lines", &Uint32Array::from(&piece.lines[..]).into())?;
        set("values", &values.into())?;
        Ok(out.into())
    }
}

/// The notes of a piece, back as the core's (only the codes a piece can carry).
fn notes(piece: &JsValue, i: usize) -> Result<Vec<Note>, JsValue> {
    let list = get(piece, "notes");
    if list.is_undefined() || list.is_null() {
        return Ok(Vec::new());
    }
    let list = list.dyn_into::<js_sys::Array>().map_err(|_| {
        bad(
            &format!("pieces[{i}].parts.notes must be an array"),
            "pieces",
        )
    })?;
    list.iter()
        .map(|n| {
            let code = get(&n, "code").as_string().unwrap_or_default();
            Ok(Note {
                code: join::note_code(&code).ok_or_else(|| {
                    bad(
                        &format!("pieces[{i}]: {code:?} is no note of a piece"),
                        "pieces",
                    )
                })?,
                message: get(&n, "message").as_string().unwrap_or_default(),
                line: get(&n, "line").as_f64().map(|l| l as u32),
            })
        })
        .collect()
}

/// The whole file's Capture from its pieces' `read` results, in file order: each value column copied
/// once, straight from the pieces' arrays into its place. `options`: openCapture's (`from`, `to`,
/// `every` pick the rows; `maxColumnBytes` bounds the columns).
#[wasm_bindgen(js_name = joinCapturePieces)]
pub fn join_capture_pieces(pieces: js_sys::Array, options_: JsValue) -> Result<JsCapture, JsValue> {
    let o = options(&options_)?;
    let mut rows = Vec::with_capacity(pieces.length() as usize);
    let mut values = Vec::with_capacity(pieces.length() as usize);
    for (i, p) in pieces.iter().enumerate() {
        let typed = |k: &str| {
            bad(
                &format!("pieces[{i}].{k} must be the typed array CapturePiece.read gives"),
                "pieces",
            )
        };
        let local = get(&p, "local")
            .dyn_into::<Float64Array>()
            .map_err(|_| typed("local"))?
            .to_vec();
        let lines = get(&p, "lines")
            .dyn_into::<Uint32Array>()
            .map_err(|_| typed("lines"))?
            .to_vec();
        values.push(
            get(&p, "values")
                .dyn_into::<Float64Array>()
                .map_err(|_| typed("values"))?,
        );
        rows.push(PieceRows {
            local,
            lines,
            notes: notes(&p, i)?,
        });
    }
    let first = pieces.get(0);
    let paths = get(&first, "paths")
        .dyn_into::<js_sys::Array>()
        .map_err(|_| bad("pieces[0].paths must be an array of paths", "pieces"))?;
    let series: Vec<Series> = paths
        .iter()
        .map(|p| Series::new(p.as_string().unwrap_or_default(), Vec::new()))
        .collect();
    // Every piece's values hold its rows of each series, series after series.
    let total: usize = rows.iter().map(|r| r.local.len()).sum();
    for (i, (r, v)) in rows.iter().zip(&values).enumerate() {
        if v.length() as usize != r.local.len() * series.len() {
            return Err(bad(
                &format!(
                    "pieces[{i}].values holds {} values for {} rows of {} series",
                    v.length(),
                    r.local.len(),
                    series.len()
                ),
                "pieces",
            ));
        }
    }
    let count = series.len();
    let make = |keep: Option<&[bool]>| {
        let mut columns = Vec::with_capacity(count);
        let kept = keep.map_or(total, |k| k.iter().filter(|&&x| x).count());
        let mut scratch = Vec::new();
        for k in 0..count as u32 {
            let mut column = Vec::with_capacity(kept);
            let mut row = 0;
            for (r, v) in rows.iter().zip(&values) {
                let n = r.local.len();
                let part = v.subarray(k * n as u32, (k + 1) * n as u32);
                match keep {
                    None => {
                        column.resize(row + n, 0.0);
                        part.copy_to(&mut column[row..row + n]);
                    }
                    Some(keep) => {
                        scratch.resize(n, 0.0);
                        part.copy_to(&mut scratch);
                        column.extend(
                            scratch
                                .iter()
                                .zip(&keep[row..row + n])
                                .filter_map(|(v, &k)| k.then_some(*v)),
                        );
                    }
                }
                row += n;
            }
            columns.push(column);
        }
        columns
    };
    let of_series = get(&first, "ofSeries").as_f64().map(|n| n as usize);
    let text = |k: &str| get(&first, k).as_string().unwrap_or_default();
    let head = Capture {
        format: Format::parse(&text("format")),
        encoding: Encoding::from_name(&text("encoding")).map(CaptureEncoding::Text),
        time_zone: match get(&first, "timeZone") {
            z if z.is_object() => Some(TimeZone {
                name: get(&z, "name").as_string().unwrap_or_default(),
                bias_minutes: get(&z, "biasMinutes")
                    .as_f64()
                    .map_or(0, |b| b.clamp(-1440.0, 1440.0) as i32),
            }),
            _ => None,
        },
        timestamps: Vec::new(),
        series,
        notes: Vec::new(),
    };
    join::assemble_part(head, &rows, &o, of_series, make)
        .map(JsCapture::new)
        .map_err(|e| match e {
            JoinError::Capture(e) => capture_error(e),
            e => bad(&e.to_string(), "pieces"),
        })
}
