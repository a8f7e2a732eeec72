//! The catalogue of a log: its series (path, parts, sample count), its time range and its rows, read
//! without keeping any value, so a log larger than memory (a Data Collector Set left running for days)
//! can be listed before a part of it is read (`OpenOptions::series`, `from_ms`, `to_ms`).
//!
//! The same readers as a whole read go through every byte (`CaptureReader`, in counting mode): the
//! series, their order, the rows and the notes are what a whole read gives, and each series' sample
//! count is how many samples hold a value of it in the log. A PDH-CSV/TSV row's values are tallied and
//! dropped as each row is read; a .blg's series count their raw values instead of cooking them. Memory
//! is the series' names and counts, independent of the log's length. JSON captures are parsed whole
//! anyway (at most `limits::MAX_JSON` bytes), so theirs is the whole read's, summarised.

use super::{
    path::CounterPath, Capture, CaptureError, CaptureReader, Format, Note, OpenOptions, TimeZone,
};

/// One series of a log, as the catalogue lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogueSeries {
    /// The path as written in the file.
    pub path: String,
    pub parsed: CounterPath,
    /// The counter type, where the file gives it (a .blg, Get-Counter JSON, a raw capture).
    pub counter_type: Option<u32>,
    /// Samples holding a value of this series in the log: a CSV/TSV row's cell that is not blank, a
    /// .blg's (or a JSON capture's) raw value. A rate counter's first raw value has no cooked value, so
    /// a whole read may show one value fewer; a CSV's count equals the whole read's values that are not
    /// NaN.
    pub samples: usize,
}

/// What a log holds, without its values (`read_catalogue`, `CatalogueReader`).
#[derive(Clone, Debug, PartialEq)]
pub struct Catalogue {
    pub format: Format,
    /// As `Capture::encoding`.
    pub encoding: super::CaptureEncoding,
    pub time_zone: Option<TimeZone>,
    /// In the order a whole read gives them.
    pub series: Vec<CatalogueSeries>,
    /// Samples (rows) in the log: a whole read's `timestamps.len()`.
    pub rows: usize,
    /// The earliest and the latest sample (ms since the epoch, UTC); None without rows.
    pub first_ms: Option<f64>,
    pub last_ms: Option<f64>,
    /// What the reader noted (as a whole read's notes: cut short, no time zone, ...).
    pub notes: Vec<Note>,
    /// Bytes read.
    pub bytes: usize,
}

impl Catalogue {
    pub fn format_name(&self) -> &'static str {
        self.format.name()
    }

    /// Bytes the columns of a whole read take: 8 per timestamp and 8 per value of every series (the
    /// figure `OpenOptions::max_column_bytes` is compared with).
    ///
    /// ```
    /// use counterlens::capture::read_catalogue;
    /// let csv = "\"(PDH-CSV 4.0)\",\"\\\\PC\\A\\x\",\"\\\\PC\\A\\y\"\n\
    ///            \"01/02/2026 03:04:05.000\",\"1\",\" \"\n\
    ///            \"01/02/2026 03:04:06.000\",\"2\",\"3\"\n";
    /// let c = read_catalogue(csv.as_bytes(), &Default::default()).unwrap();
    /// // 2 rows x (1 timestamp + 2 series) x 8 bytes
    /// assert_eq!(c.column_bytes(), 48);
    /// assert_eq!((c.series[0].samples, c.series[1].samples), (2, 1));
    /// ```
    pub fn column_bytes(&self) -> usize {
        self.rows
            .saturating_mul(8)
            .saturating_mul(self.series.len() + 1)
    }

    /// The catalogue of a capture already read whole (JSON captures, parsed whole).
    pub(crate) fn of_capture(c: Capture, bytes: usize) -> Catalogue {
        let (first_ms, last_ms) = range(&c.timestamps);
        Catalogue {
            format: c.format.unwrap_or(Format::PdhCsv),
            encoding: c
                .encoding
                .unwrap_or(super::CaptureEncoding::Text(super::text::Encoding::UTF_8)),
            time_zone: c.time_zone,
            rows: c.timestamps.len(),
            first_ms,
            last_ms,
            notes: c.notes,
            bytes,
            series: c
                .series
                .into_iter()
                .map(|s| CatalogueSeries {
                    samples: match &s.raw {
                        Some(raw) => raw.present.iter().filter(|&&p| p & 1 != 0).count(),
                        None => s.values.iter().filter(|v| !v.is_nan()).count(),
                    },
                    path: s.path,
                    parsed: s.parsed,
                    counter_type: s.counter_type,
                })
                .collect(),
        }
    }
}

/// The earliest and latest of some times.
fn range(t: &[f64]) -> (Option<f64>, Option<f64>) {
    let mut tally = TimeTally::default();
    for &t in t {
        tally.add(t);
    }
    (tally.first, tally.last)
}

/// Rows counted and the earliest and latest time, as a reader in counting mode sees them.
#[derive(Clone, Debug, Default)]
pub(crate) struct TimeTally {
    pub rows: usize,
    pub first: Option<f64>,
    pub last: Option<f64>,
}

impl TimeTally {
    pub fn add(&mut self, t: f64) {
        self.rows += 1;
        self.first = Some(self.first.map_or(t, |f| f.min(t)));
        self.last = Some(self.last.map_or(t, |l| l.max(t)));
    }
}

/// The catalogue of a log pushed in chunks of any size (as `CaptureReader`, the same result for any
/// cutting of the input).
pub struct CatalogueReader {
    reader: CaptureReader,
}

impl CatalogueReader {
    /// `options`: only `encoding` and `format` are used (the catalogue lists the whole log).
    pub fn new(options: &OpenOptions) -> Result<CatalogueReader, CaptureError> {
        let options = OpenOptions {
            encoding: options.encoding.clone(),
            format: options.format.clone(),
            ..OpenOptions::default()
        };
        Ok(CatalogueReader {
            reader: CaptureReader::counting(&options)?,
        })
    }

    /// Reads a chunk. Errors are a whole read's, at the same line, column or offset.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
        self.reader.push(chunk)
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.reader.bytes()
    }

    /// The catalogue, once every chunk has been pushed.
    pub fn finish(self) -> Result<Catalogue, CaptureError> {
        self.reader.finish_catalogue()
    }
}

/// The catalogue of a log from its bytes (`CatalogueReader` with one push).
///
/// ```
/// use counterlens::capture::{read_catalogue, OpenOptions};
/// let csv = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\PC\\Memory\\Available MBytes\"\n\
///            \"01/02/2026 03:04:05.000\",\"512\"\n\
///            \"01/02/2026 03:04:20.000\",\"500\"\n";
/// let c = read_catalogue(csv.as_bytes(), &OpenOptions::default()).unwrap();
/// assert_eq!((c.format_name(), c.rows, c.series.len()), ("pdh-csv", 2, 1));
/// assert_eq!(c.series[0].parsed.counter, "Available MBytes");
/// // 03:04:20 is 15 s after 03:04:05.
/// assert_eq!(c.last_ms.unwrap() - c.first_ms.unwrap(), 15_000.0);
/// ```
pub fn read_catalogue(bytes: &[u8], options: &OpenOptions) -> Result<Catalogue, CaptureError> {
    let mut r = CatalogueReader::new(options)?;
    r.push(bytes)?;
    r.finish()
}
