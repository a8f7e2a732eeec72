//! The pieces of a big text capture read in parallel (`capture::join`), for `openCaptureParallel`
//! (js/parallel.js): the plan made once on the page, a `CapturePiece` read in each worker, the join
//! back on the page. Columns cross as Float64Arrays (`toParts`), never as JSON.

use super::capture::{capture_error, capture_from_parts, options, JsCapture};
use super::convert::{get, named_error, ErrorClass};
use crate::capture::join::{self, JoinError, Piece, Plan};
use crate::capture::text::Encoding;
use crate::capture::{Format, Note};
use js_sys::{Reflect, Uint32Array};
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
        })
    }

    /// Line ends in the body: the next piece's first line is this one's plus this count.
    #[wasm_bindgen(js_name = lineEnds)]
    pub fn line_ends(&self) -> f64 {
        join::line_ends(&self.body) as f64
    }

    /// Reads the piece, its first line being `firstLine` of the file: `{ parts, lines }`, parts as
    /// `Capture.toParts` gives them (timestamps are the rows' local times) and each row's line as a
    /// Uint32Array. Throws the CaptureError the whole-file reader would, at the same line.
    pub fn read(&self, first_line: u32) -> Result<JsValue, JsValue> {
        let piece = join::read_piece(&self.header, &self.body, first_line, self.last, &self.plan)
            .map_err(capture_error)?;
        let out = js_sys::Object::new();
        let lines = Uint32Array::from(&piece.lines[..]);
        Reflect::set(
            &out,
            &"parts".into(),
            &JsCapture::new(piece.capture).to_parts()?,
        )?;
        Reflect::set(&out, &"lines".into(), &lines.into())?;
        Ok(out.into())
    }
}

/// The notes of a piece's parts, back as the core's (only the codes a piece can carry).
fn notes(parts: &JsValue, i: usize) -> Result<Vec<Note>, JsValue> {
    let list = get(parts, "notes");
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

/// The whole file's Capture from its pieces' `read` results, in file order.
#[wasm_bindgen(js_name = joinCapturePieces)]
pub fn join_capture_pieces(pieces: js_sys::Array) -> Result<JsCapture, JsValue> {
    let mut list = Vec::with_capacity(pieces.length() as usize);
    for (i, p) in pieces.iter().enumerate() {
        let parts = get(&p, "parts");
        let mut capture = capture_from_parts(&parts)?;
        capture.notes = notes(&parts, i)?;
        let lines = get(&p, "lines")
            .dyn_into::<Uint32Array>()
            .map_err(|_| {
                bad(
                    &format!("pieces[{i}].lines must be a Uint32Array"),
                    "pieces",
                )
            })?
            .to_vec();
        list.push(Piece { capture, lines });
    }
    join::join(list).map(JsCapture::new).map_err(|e| match e {
        JoinError::Capture(e) => capture_error(e),
        e => bad(&e.to_string(), "pieces"),
    })
}
