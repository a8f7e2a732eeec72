//! Captures: the logs users have, read into one columnar model.
//!
//! | file | concept |
//! |---|---|
//! | `mod.rs` | the model (`Capture`, `Series`), notes, sniffing, `open_capture` |
//! | `error.rs` | `CaptureError` and its kinds (`CaptureErrorKind`), each with its stable JS code |
//! | `path.rs` | counter paths: machine, object, parent, instance, counter; Perfmon wildcard patterns |
//! | `names.rs` | English paths for localized ones (`\Procesador(_Total)\...`), from PAL's CounterLang.xml |
//! | `text.rs` | bytes to text: BOM, UTF-8, UTF-16, Windows code pages (decoded by the embedder's `LegacyText`: TextDecoder in wasm, encoding_rs natively) |
//! | `catalogue.rs` | a log's series, sample counts and time range, read without keeping values (`CatalogueReader`) |
//! | `reader.rs` | `CaptureReader`: bytes in chunks, decoded and split into lines, handed to a format; rows taken out as they are read (`take_rows`) |
//! | `pdh_csv.rs` | PDH-CSV and PDH-TSV (relog, typeperf, Perfmon): the header, the rows, and writing |
//! | `number.rs` | a cell's decimal number read to the nearest double in one pass (the CSV reader's fast path) |
//! | `join.rs` | a big PDH-CSV/TSV read in pieces side by side (JS workers) and joined: the one-pass result |
//! | `parts.rs` | a capture put together again from its parts (`Capture::from_parts`: a Worker's hand-over), checked |
//! | `get_counter.rs` | PowerShell Get-Counter JSON: raw fields cooked by the core, PDH's values kept beside |
//! | `raw_json.rs` | the counterlens raw capture (v1): registration + raw samples, cooked through references |
//! | `blg/` | binary perfmon logs (.blg): the ETW container, PDH's definitions and raw samples, cooked |
//!
//! The model is columnar: one `Vec<f64>` of timestamps (ms since the epoch, UTC) and one `Vec<f64>` of
//! cooked values per series, NaN where there is no value. No per-cell objects.

mod blg;
mod catalogue;
mod error;
mod get_counter;
pub mod join;
mod json_fields;
pub mod names;
mod number;
pub mod parts;
pub mod path;
mod pdh_csv;
mod raw_json;
mod reader;
pub mod text;

pub use catalogue::{read_catalogue, Catalogue, CatalogueReader, CatalogueSeries};
pub use error::{CaptureError, CaptureErrorKind};
pub use names::english_path;
pub use parts::{CaptureParts, PartsError, SeriesParts};
pub use path::{CounterPath, FoldedPath, PathPattern, PatternError};
pub use pdh_csv::{write_csv, write_pdh, write_pdh_header, write_pdh_rows};
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

    /// The bytes a capture's columns may take by default (`OpenOptions::max_column_bytes`). A wasm
    /// module's memory ends at 4 GiB and holds the input's chunks, the decoded text and the allocator's
    /// free blocks besides the columns, which grow one at a time (a column that grows is copied while
    /// its old copy is still held), so 3 GiB of columns is the most that is reached without the
    /// allocator failing (which traps). Natively the machine's memory is the bound: no limit.
    pub fn column_bytes() -> usize {
        if cfg!(target_arch = "wasm32") {
            3 << 30
        } else {
            usize::MAX
        }
    }
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
    /// Read only the series whose path matches one of these paths or Perfmon wildcard paths
    /// (`PathPattern`, as the CLI's `-c`; a localized path also by its English names); `None`: every
    /// series. The others are skipped as they are read, never stored.
    pub series: Option<Vec<PathPattern>>,
    /// Read only the samples at or after this time (ms since the epoch, UTC).
    pub from_ms: Option<f64>,
    /// Read only the samples at or before this time (ms since the epoch, UTC).
    pub to_ms: Option<f64>,
    /// Read every Nth sample (of those in the window), starting with the first: 1 (or `None`) reads
    /// every one. In a .blg each is cooked against the sample just before it, read or not.
    pub every: Option<usize>,
    /// The most bytes the value columns may take (timestamps and one f64 per series and sample; raw
    /// samples kept count too): past it, reading stops with a `too-large` error that says what was read
    /// and how to read less. `None`: [`limits::column_bytes`] (what a wasm module's 4 GiB can hold).
    pub max_column_bytes: Option<usize>,
}

impl OpenOptions {
    /// Refuses options that cannot be used: a time that is not a finite number, a window that ends before
    /// it starts (`invalid-option`, naming the option).
    pub fn check(&self) -> Result<(), CaptureError> {
        for (field, t) in [("from", self.from_ms), ("to", self.to_ms)] {
            if t.is_some_and(|t| !t.is_finite()) {
                return Err(CaptureError::invalid_option(
                    field,
                    format!(
                        "expected a time in ms since 1970 (UTC), found {}",
                        t.unwrap_or_default()
                    ),
                ));
            }
        }
        if let (Some(from), Some(to)) = (self.from_ms, self.to_ms) {
            if to < from {
                return Err(CaptureError::invalid_option(
                    "to",
                    format!("the window ends ({to}) before it starts (from: {from})"),
                ));
            }
        }
        if self.every == Some(0) {
            return Err(CaptureError::invalid_option(
                "every",
                "expected a whole number of 1 or more (1: every sample)".into(),
            ));
        }
        if self.max_column_bytes == Some(0) {
            return Err(CaptureError::invalid_option(
                "maxColumnBytes",
                "expected a number of bytes above 0".into(),
            ));
        }
        Ok(())
    }

    /// Whether the series of this path (as written in the file) is read.
    pub fn wants_series(&self, path: &str) -> bool {
        let Some(patterns) = &self.series else {
            return true;
        };
        let Some(parsed) = path::parse(path) else {
            return false;
        };
        let folded = FoldedPath::new(&parsed);
        patterns.iter().any(|p| p.matches_folded(&folded))
    }

    /// Whether any series of this machine's object can be read (a .blg skips the others' blocks whole).
    pub(crate) fn wants_object(&self, machine: &str, object: &str) -> bool {
        self.series
            .as_ref()
            .is_none_or(|patterns| patterns.iter().any(|p| p.may_match_object(machine, object)))
    }

    /// Whether a sample at `t` (ms, UTC) is read.
    pub fn wants_time(&self, t: f64) -> bool {
        self.from_ms.is_none_or(|f| t >= f) && self.to_ms.is_none_or(|e| t <= e)
    }

    /// Whether only some samples are read (a window, or every Nth).
    pub fn skips_samples(&self) -> bool {
        self.from_ms.is_some() || self.to_ms.is_some() || self.every.unwrap_or(1) > 1
    }

    /// The part of a capture read whole (JSON is parsed whole, then cut): the series and samples asked
    /// for, with the `part` note. The raw samples of a series go when samples are left out, as each
    /// point's explanation needs the sample just before it.
    pub(crate) fn cut(&self, mut c: Capture) -> Result<Capture, CaptureError> {
        let (of_series, of_samples) = (c.series.len(), c.timestamps.len());
        if self.series.is_some() {
            c.series.retain(|s| self.wants_series(&s.path));
            if c.series.is_empty() {
                return Err(CaptureError::invalid_option(
                    "series",
                    format!("none of the log's {of_series} series matches the paths asked for"),
                ));
            }
        }
        if self.skips_samples() {
            let mut filter = SampleFilter::default();
            let keep: Vec<bool> = c.timestamps.iter().map(|&t| filter.keep(self, t)).collect();
            let pick = |v: &mut Vec<f64>| {
                let mut k = 0;
                v.retain(|_| {
                    k += 1;
                    keep[k - 1]
                });
            };
            pick(&mut c.timestamps);
            if c.timestamps.is_empty() {
                return Err(CaptureError::invalid_option(
                    if self.from_ms.is_some() || self.to_ms.is_some() {
                        "from"
                    } else {
                        "every"
                    },
                    format!("none of the log's {of_samples} samples is in the window asked for"),
                ));
            }
            for s in &mut c.series {
                pick(&mut s.values);
                if let Some(r) = &mut s.reference {
                    pick(r);
                }
                s.raw = None;
            }
        }
        if c.series.len() < of_series || c.timestamps.len() < of_samples {
            c.notes.push(part_note(
                c.series.len(),
                Some(of_series),
                c.timestamps.len(),
                of_samples,
            ));
        }
        Ok(c)
    }

    /// The column budget in bytes.
    pub fn column_budget(&self) -> usize {
        self.max_column_bytes.unwrap_or_else(limits::column_bytes)
    }
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

/// Which samples a reader keeps, in file order: those in the window, and of those every Nth
/// (`OpenOptions::from_ms`, `to_ms`, `every`).
#[derive(Clone, Debug, Default)]
pub(crate) struct SampleFilter {
    in_window: usize,
}

impl SampleFilter {
    pub(crate) fn keep(&mut self, o: &OpenOptions, t: f64) -> bool {
        if !o.wants_time(t) {
            return false;
        }
        let n = self.in_window;
        self.in_window += 1;
        n % o.every.unwrap_or(1).max(1) == 0
    }
}

/// The note of a capture read in part (`OpenOptions::series`, `from_ms`, `to_ms`, `every`);
/// `of_series` is `None` where the series left out were never counted (a .blg's objects skipped whole).
pub(crate) fn part_note(
    series: usize,
    of_series: Option<usize>,
    samples: usize,
    of_samples: usize,
) -> Note {
    let of = match of_series {
        Some(n) => format!("of its {n} series"),
        None => "series (its other counters left out unread)".into(),
    };
    Note {
        code: "part",
        message: format!("a part of the log was read, as the options asked: {series} {of}, {samples} of its {of_samples} samples"),
        line: None,
    }
}

/// The `too-large` error of a capture whose columns would outgrow `budget` bytes: how much was read, how
/// much fits, and how to read less. `per_sample` is the bytes one more sample takes in every column.
pub(crate) fn columns_too_large(
    series: usize,
    samples: usize,
    per_sample: usize,
    budget: usize,
    at: Option<u32>,
) -> CaptureError {
    let fits = budget / per_sample.max(1);
    let gib = |b: usize| b as f64 / f64::from(1u32 << 30);
    let message = format!(
        "the log is larger than this reader can hold: {series} series x {samples} samples were read ({:.2} GiB of columns), and at most {fits} samples of {series} series fit in {:.2} GiB (what a WebAssembly module's 4 GiB of memory holds beside the rest); read less of it: some of its series (option series, the CLI's -c), a time window (from and to; --begin and --end), or every Nth sample (every; -t N)",
        gib(per_sample.saturating_mul(samples)),
        gib(budget)
    );
    match at {
        Some(line) => CaptureError::at_line(CaptureErrorKind::TooLarge, line, 1, message),
        None => CaptureError {
            kind: CaptureErrorKind::TooLarge,
            message,
            line: None,
            column: None,
            offset: None,
            field: None,
        },
    }
}

/// How many samples the columns may hold before they next grow, from `len` now: half as many again (not
/// twice: near the budget, the capacity stays near what is used), within `budget`; None when not even
/// one more fits.
pub(crate) fn grown_capacity(len: usize, per_sample: usize, budget: usize) -> Option<usize> {
    let fits = budget / per_sample.max(1);
    (len < fits).then(|| (len + len / 2 + 16).min(fits))
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
