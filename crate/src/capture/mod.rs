//! Captures: the logs users have, read into one columnar model.
//!
//! | file | concept |
//! |---|---|
//! | `mod.rs` | the model (`Capture`, `Series`), notes, sniffing, `open_capture` |
//! | `error.rs` | `CaptureError` and its kinds (`CaptureErrorKind`), each with its stable JS code |
//! | `path.rs` | counter paths: machine, object, parent, instance, counter; Perfmon wildcard patterns |
//! | `names.rs` | English paths for localized ones (`\Procesador(_Total)\...`), from PAL's CounterLang.xml |
//! | `text.rs` | bytes to text: BOM, UTF-8, UTF-16, Windows code pages (decoded by the embedder's `LegacyText`: TextDecoder in wasm, encoding_rs natively) |
//! | `reader.rs` | `CaptureReader`: bytes in chunks, decoded and split into lines, handed to a format |
//! | `pdh_csv.rs` | PDH-CSV and PDH-TSV (relog, typeperf, Perfmon): the header, the rows, and writing |
//! | `join.rs` | a big PDH-CSV/TSV read in pieces side by side (JS workers) and joined: the one-pass result |
//! | `parts.rs` | a capture put together again from its parts (`Capture::from_parts`: a Worker's hand-over), checked |
//! | `get_counter.rs` | PowerShell Get-Counter JSON: raw fields cooked by the core, PDH's values kept beside |
//! | `raw_json.rs` | the counterlens raw capture (v1): registration + raw samples, cooked through references |
//! | `blg/` | binary perfmon logs (.blg): the ETW container, PDH's definitions and raw samples, cooked |
//!
//! The model is columnar: one `Vec<f64>` of timestamps (ms since the epoch, UTC) and one `Vec<f64>` of
//! cooked values per series, NaN where there is no value. No per-cell objects.

mod blg;
mod error;
mod get_counter;
pub mod join;
mod json_fields;
pub mod names;
pub mod parts;
pub mod path;
mod pdh_csv;
mod raw_json;
mod reader;
pub mod text;

pub use error::{CaptureError, CaptureErrorKind};
pub use names::english_path;
pub use parts::{CaptureParts, PartsError, SeriesParts};
pub use path::{CounterPath, FoldedPath, PathPattern, PatternError};
pub use pdh_csv::{write_csv, write_pdh};
pub use reader::CaptureReader;

use crate::series::{stats, Stats};

/// Limits on what a capture may ask of the reader, each refused with a `too-large` CaptureError rather
/// than a hang or an allocation that kills the tab. Documented in docs/captures.md.
pub mod limits {
    /// Counter columns in a PDH-CSV/TSV header (a busy server logs a few thousand process instances).
    pub const MAX_COLUMNS: usize = 65_536;
    /// Bytes in one line of text (a 65,536-column header of 200-character paths is 13 MB).
    pub const MAX_LINE: usize = 64 << 20;
    /// Bytes of a JSON capture, which is parsed whole.
    pub const MAX_JSON: usize = 1 << 30;
}
use serde::Serialize;

/// Something the reader did that the user should know (input kept, but not all of it, or assumed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// The log's time zone as its header gives it. Windows' convention: UTC = local + bias.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeZone {
    pub name: String,
    pub bias_minutes: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The path as written in the file.
    pub path: String,
    pub parsed: CounterPath,
    pub counter_type: Option<u32>,
    /// The counter's DefaultScale (Perfmon's graph multiplies by 10^scale; values here are unscaled,
    /// as relog writes them), where the file gives it.
    pub scale: Option<i32>,
    /// Cooked values aligned with the capture's timestamps; NaN where there is none.
    pub values: Vec<f64>,
    /// For Get-Counter captures: PDH's own CookedValue, beside ours.
    pub reference: Option<Vec<f64>>,
    /// The raw samples the values were cooked from, so any point can be explained with its numbers:
    /// always for Get-Counter, for .blg series when `OpenOptions::keep_raw` asks for them.
    pub raw: Option<RawColumn>,
}

impl Series {
    /// A series of cooked values only (no counter type, scale, reference or raw samples), as a text
    /// format gives it; `parsed` is the path's parts, or empty parts when it is not a counter path.
    pub fn new(path: String, values: Vec<f64>) -> Series {
        Series {
            parsed: path::parse(&path).unwrap_or_default(),
            path,
            counter_type: None,
            scale: None,
            values,
            reference: None,
            raw: None,
        }
    }
}

/// Raw samples, columnar: N, D, F, M per sample, and which of them each sample has; with the options
/// the series was cooked with.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawColumn {
    pub value: Vec<u64>,
    pub second: Vec<u64>,
    pub frequency: Vec<u64>,
    pub multi: Vec<u64>,
    /// Per sample: bit 0 value (the sample exists), 1 second, 2 frequency, 3 multi.
    pub present: Vec<u8>,
    pub options: crate::cook::CookOptions,
}

impl RawColumn {
    pub fn push(&mut self, s: Option<&crate::cook::RawSample>) {
        let bit = |o: Option<u64>, b: u8| if o.is_some() { b } else { 0 };
        self.value.push(s.map_or(0, |s| s.value));
        self.second.push(s.and_then(|s| s.second).unwrap_or(0));
        self.frequency
            .push(s.and_then(|s| s.frequency).unwrap_or(0));
        self.multi.push(s.and_then(|s| s.multi).unwrap_or(0));
        self.present.push(s.map_or(0, |s| {
            1 | bit(s.second, 2) | bit(s.frequency, 4) | bit(s.multi, 8)
        }));
    }

    /// Sample `k`, if it exists.
    pub fn get(&self, k: usize) -> Option<crate::cook::RawSample> {
        let p = *self.present.get(k)?;
        let field = |v: &[u64], b: u8| (p & b != 0).then(|| v.get(k).copied()).flatten();
        (p & 1 != 0).then(|| crate::cook::RawSample {
            value: self.value.get(k).copied().unwrap_or(0),
            second: field(&self.second, 2),
            frequency: field(&self.frequency, 4),
            multi: field(&self.multi, 8),
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The format it was read from; None only for a capture put together from parts that named no known
    /// format (`Capture::from_parts`). `format_name` spells it.
    pub format: Option<Format>,
    /// How its bytes were read: a text encoding, or none for a .blg; None only for a capture put together
    /// from parts that named no known encoding. `encoding_name` spells it.
    pub encoding: Option<CaptureEncoding>,
    pub time_zone: Option<TimeZone>,
    pub timestamps: Vec<f64>,
    pub series: Vec<Series>,
    pub notes: Vec<Note>,
}

impl Capture {
    /// The format's name (`Format::name`): "pdh-csv", "pdh-tsv", "get-counter-json", "counterlens-json",
    /// "blg"; "unknown" for none (JS `Capture.format`).
    pub fn format_name(&self) -> &'static str {
        self.format.map_or("unknown", Format::name)
    }

    /// The encoding's name (`CaptureEncoding::name`): "UTF-8", "UTF-16LE", "windows-1252", ...; "binary" for
    /// a .blg; "unknown" for none (JS `Capture.encoding`).
    pub fn encoding_name(&self) -> &'static str {
        self.encoding.map_or("unknown", CaptureEncoding::name)
    }

    /// How the value of series `index` at sample `k` was cooked: the formula with the raw numbers. None
    /// where the series holds no raw samples (Get-Counter captures keep them, a .blg those
    /// `OpenOptions::keep_raw` names) or no type.
    pub fn explain_at(
        &self,
        index: usize,
        k: usize,
    ) -> Option<Result<crate::explain::Explanation, crate::cook::CookError>> {
        let s = self.series.get(index)?;
        let raw = s.raw.as_ref()?;
        let ty = crate::types::CounterType::from_value(s.counter_type?);
        let newer = raw.get(k)?;
        let older = k.checked_sub(1).and_then(|j| raw.get(j));
        Some(crate::explain::explain(
            ty,
            older.as_ref(),
            &newer,
            &raw.options,
        ))
    }

    /// The sample nearest to `ms` (the earlier on a tie); None without samples or for NaN.
    pub fn sample_at(&self, ms: f64) -> Option<usize> {
        if self.timestamps.is_empty() || ms.is_nan() {
            return None;
        }
        let k = self.timestamps.partition_point(|&t| t < ms);
        Some(match k {
            0 => 0,
            k if k == self.timestamps.len() => k - 1,
            k if ms - self.timestamps[k - 1] <= self.timestamps[k] - ms => k - 1,
            k => k,
        })
    }

    /// Statistics of series `index` over the samples with `from_ms <= t <= to_ms`.
    pub fn stats(&self, index: usize, from_ms: Option<f64>, to_ms: Option<f64>) -> Option<Stats> {
        let s = self.series.get(index)?;
        let lo = from_ms.map_or(0, |f| self.timestamps.partition_point(|&t| t < f));
        let hi = to_ms.map_or(self.timestamps.len(), |t| {
            self.timestamps.partition_point(|&x| x <= t)
        });
        Some(stats(&s.values[lo..hi.max(lo)]))
    }
}

/// The formats a capture can be in; `name()` is how `Capture::format` and `OpenOptions::format` spell
/// each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PDH-CSV: relog, typeperf and Perfmon's comma-separated logs.
    PdhCsv,
    /// PDH-TSV: the same, tab-separated.
    PdhTsv,
    /// PowerShell's `Get-Counter | ConvertTo-Json`.
    GetCounterJson,
    /// The counterlens raw capture (registration and raw samples).
    CounterlensJson,
    /// A binary perfmon log.
    Blg,
}

impl Format {
    /// Every format, in the order error messages list them.
    pub const ALL: [Format; 5] = [
        Format::PdhCsv,
        Format::PdhTsv,
        Format::GetCounterJson,
        Format::CounterlensJson,
        Format::Blg,
    ];

    /// The format's stable name.
    ///
    /// ```
    /// use counterlens::capture::Format;
    /// assert_eq!(Format::Blg.name(), "blg");
    /// assert_eq!(Format::parse("pdh-tsv"), Some(Format::PdhTsv));
    /// assert_eq!(Format::parse("xlsx"), None);
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Format::PdhCsv => "pdh-csv",
            Format::PdhTsv => "pdh-tsv",
            Format::GetCounterJson => "get-counter-json",
            Format::CounterlensJson => "counterlens-json",
            Format::Blg => "blg",
        }
    }

    /// The format of a name `name()` gives; None for any other text.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// How a capture's bytes were read: as text in an encoding, or as a binary log (.blg).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureEncoding {
    Text(text::Encoding),
    Binary,
}

impl CaptureEncoding {
    /// The encoding's WHATWG name as `text::Encoding` spells it ("UTF-8", "windows-1252"), or "binary".
    ///
    /// ```
    /// use counterlens::capture::{text::Encoding, CaptureEncoding};
    /// assert_eq!(CaptureEncoding::Text(Encoding::UTF_16LE).name(), "UTF-16LE");
    /// assert_eq!(CaptureEncoding::Binary.name(), "binary");
    /// assert_eq!(CaptureEncoding::from_label("utf-16"), Some(CaptureEncoding::Text(Encoding::UTF_16LE)));
    /// assert_eq!(CaptureEncoding::from_label("ebcdic"), None);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            CaptureEncoding::Text(e) => e.name(),
            CaptureEncoding::Binary => "binary",
        }
    }

    /// "binary", or the encoding a WHATWG label stands for (`text::Encoding::for_label`); None for other text.
    pub fn from_label(label: &str) -> Option<CaptureEncoding> {
        match label {
            "binary" => Some(CaptureEncoding::Binary),
            label => text::Encoding::for_label(label).map(CaptureEncoding::Text),
        }
    }
}

/// Options of `open_capture`.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// An encoding label (WHATWG: "utf-8", "utf-16le", "windows-1251", ...) instead of detection.
    pub encoding: Option<String>,
    /// A format name instead of sniffing.
    pub format: Option<String>,
    /// The input's total size in bytes, when known (a File's size): lets the CSV reader reserve its
    /// columns once, from the first rows' length, instead of growing them by doubling.
    pub size_hint: Option<usize>,
    /// Which series of a .blg keep the raw samples their values were cooked from (`Series::raw`, so
    /// `Capture::explain_at` can explain their points). None by default: raw samples cost 33 bytes per
    /// value beside the 8 of the cooked one. Get-Counter captures keep theirs whatever this says.
    pub keep_raw: KeepRaw,
}

/// Which series keep their raw samples (`OpenOptions::keep_raw`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum KeepRaw {
    /// No series: only the cooked values are held.
    #[default]
    None,
    /// Every series.
    All,
    /// The series whose path matches one of these Perfmon wildcard paths (a path as written matches
    /// itself: names compared case-insensitively, `PathPattern`'s rules).
    Matching(Vec<PathPattern>),
}

impl KeepRaw {
    /// The series matching any of `patterns` (paths or Perfmon wildcard paths); the first that is not a
    /// counter path is refused.
    ///
    /// ```
    /// use counterlens::capture::KeepRaw;
    /// let keep = KeepRaw::matching(&["\\\\*\\Processor(*)\\% Processor Time"]).unwrap();
    /// assert!(keep.keeps("\\\\PC\\Processor(_Total)\\% Processor Time"));
    /// assert!(!keep.keeps("\\\\PC\\Memory\\Available MBytes"));
    /// assert!(KeepRaw::matching(&["<script>"]).is_err());
    /// ```
    pub fn matching<S: AsRef<str>>(patterns: &[S]) -> Result<KeepRaw, PatternError> {
        let parsed = patterns
            .iter()
            .map(|p| PathPattern::parse(p.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(KeepRaw::Matching(parsed))
    }

    /// Whether the series of this path (as written in the file) keeps its raw samples.
    pub fn keeps(&self, path: &str) -> bool {
        match self {
            KeepRaw::None => false,
            KeepRaw::All => true,
            KeepRaw::Matching(patterns) => {
                let Some(parsed) = path::parse(path) else {
                    return false;
                };
                let folded = FoldedPath::new(&parsed);
                patterns.iter().any(|p| p.matches_folded(&folded))
            }
        }
    }
}

/// Reads a capture from its bytes, the format sniffed from the bytes (never from a file name).
///
/// ```
/// use counterlens::capture::{open_capture, CaptureErrorKind, OpenOptions};
/// let csv = "\"(PDH-CSV 4.0)\",\"\\\\PC\\System\\Processor Queue Length\"\n\
///            \"01/02/2026 03:04:05.678\",\"3\"\n";
/// let c = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
/// assert_eq!((c.format_name(), c.series.len()), ("pdh-csv", 1));
/// assert_eq!(c.series[0].parsed.counter, "Processor Queue Length");
/// assert_eq!(c.series[0].values, [3.0]);
/// // Anything else is refused with what was expected and where.
/// let e = open_capture(b"hello", &OpenOptions::default()).unwrap_err();
/// assert_eq!((e.kind, e.line, e.column), (CaptureErrorKind::NotACapture, Some(1), Some(1)));
/// ```
pub fn open_capture(bytes: &[u8], options: &OpenOptions) -> Result<Capture, CaptureError> {
    let options = OpenOptions {
        size_hint: Some(bytes.len()),
        ..options.clone()
    };
    let mut reader = CaptureReader::new(&options)?;
    reader.push(bytes)?;
    reader.finish()
}

/// What the start of a text says its format is (a .blg is recognised from its bytes before this).
pub(crate) fn sniff(text: &str) -> Result<Format, CaptureError> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with("\"(PDH-CSV") || t.starts_with("(PDH-CSV") {
        return Ok(Format::PdhCsv);
    }
    if t.starts_with("\"(PDH-TSV") || t.starts_with("(PDH-TSV") {
        return Ok(Format::PdhTsv);
    }
    if t.starts_with('{') || t.starts_with('[') {
        if t.contains("\"counterlens-raw-capture\"") {
            return Ok(Format::CounterlensJson);
        }
        if t.contains("\"CounterSamples\"") {
            return Ok(Format::GetCounterJson);
        }
        return Err(CaptureError::at_line(CaptureErrorKind::NotACapture, 1, 1,
            "JSON, but neither Get-Counter sample sets (\"CounterSamples\") nor a counterlens raw capture (\"format\": \"counterlens-raw-capture\") near the start".into()));
    }
    Err(CaptureError::at_line(
        CaptureErrorKind::NotACapture,
        1,
        1,
        format!("expected a perfmon log: a .blg, a CSV or TSV whose first cell starts \"(PDH-CSV 4.0)\" (relog, typeperf and Perfmon write it) or Get-Counter JSON; found {}", pdh_csv::describe_start(t)),
    ))
}
