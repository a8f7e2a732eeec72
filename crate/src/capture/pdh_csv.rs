//! PDH-CSV and PDH-TSV, as relog, typeperf and Perfmon write them.
//!
//! Header: `"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\HOST\Object(Instance)\Counter",...`; typeperf
//! writes just `"(PDH-CSV 4.0)"`. The bias is minutes to add to local time to get UTC. Rows: the local
//! time `MM/dd/yyyy HH:mm:ss.fff`, then one quoted value per counter; `" "` or an empty cell is no value.
//! TSV is the same with tabs. Quotes are RFC 4180's (a `""` inside a quoted cell is one `"`).
//!
//! Each row is parsed into a row buffer and added to the columns only when it is complete, so a bad or
//! cut row never leaves a column longer than the others.

use super::catalogue::{CatalogueSeries, TimeTally};
use super::number::parse_decimal;
use super::text::Encoding;
use super::{
    columns_too_large, grown_capacity, part_note, path, Capture, CaptureEncoding, CaptureError,
    CaptureErrorKind, Catalogue, Format, Note, OpenOptions, SampleFilter, Series, TimeZone,
};
use crate::civil::{civil_from_days, days_in_month, ms_from_civil, MS_PER_DAY};

/// Where a cell is: its text (quotes removed) and the byte index it starts at.
#[derive(Debug, PartialEq)]
struct Cell<'a> {
    text: std::borrow::Cow<'a, str>,
    start: usize,
}

/// The character column (1-based) of byte `i` of `line`.
fn column(line: &str, i: usize) -> u32 {
    line.get(..i.min(line.len()))
        .map_or(i, |s| s.chars().count()) as u32
        + 1
}

/// Splits one line into cells. Err(byte index) where a quoted cell is not closed.
fn split(line: &str, delim: u8) -> Result<Vec<Cell<'_>>, usize> {
    let b = line.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        if i < b.len() && b[i] == b'"' {
            let mut text = String::new();
            let mut j = i + 1;
            let mut run = j;
            loop {
                match b[j..].iter().position(|&c| c == b'"') {
                    None => return Err(start),
                    Some(k) if j + k + 1 < b.len() && b[j + k + 1] == b'"' => {
                        text.push_str(&line[run..j + k + 1]);
                        j += k + 2;
                        run = j;
                    }
                    Some(k) => {
                        let end = j + k;
                        let cell = if text.is_empty() {
                            std::borrow::Cow::Borrowed(&line[run..end])
                        } else {
                            text.push_str(&line[run..end]);
                            std::borrow::Cow::Owned(text)
                        };
                        cells.push(Cell { text: cell, start });
                        i = end + 1;
                        break;
                    }
                }
            }
        } else {
            let end = b[i..]
                .iter()
                .position(|&c| c == delim)
                .map_or(b.len(), |k| i + k);
            cells.push(Cell {
                text: std::borrow::Cow::Borrowed(&line[i..end]),
                start,
            });
            i = end;
        }
        if i >= b.len() {
            return Ok(cells);
        }
        if b[i] != delim {
            // Text after a closing quote: treat as part of a malformed cell.
            return Err(i);
        }
        i += 1;
        if i == b.len() {
            cells.push(Cell {
                text: std::borrow::Cow::Borrowed(""),
                start: i,
            });
            return Ok(cells);
        }
    }
}

/// `MM/dd/yyyy HH:mm:ss[.fff]` as ms since the epoch, read as if it were UTC.
pub(crate) fn parse_local_time(s: &str) -> Option<f64> {
    let (date, time) = s.trim().split_once(' ')?;
    let mut d = date.split('/');
    let (mo, da, y): (u32, u32, i64) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    if d.next().is_some()
        || !(1..=12).contains(&mo)
        || da == 0
        || da > days_in_month(y, mo)
        || !(1601..=9999).contains(&y)
    {
        return None;
    }
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.split(':');
    let (h, mi, se): (u32, u32, u32) = (
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
    );
    if t.next().is_some()
        || h > 23
        || mi > 59
        || se > 59
        || frac.len() > 7
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let frac_ms = if frac.is_empty() {
        0.0
    } else {
        frac.parse::<f64>().ok()? / 10f64.powi(frac.len() as i32 - 3)
    };
    Some(ms_from_civil(y, mo, da, h, mi, se) + frac_ms)
}

/// What the start of a text that is no capture looks like, in words, for the error that refuses it:
/// never the bytes themselves (binary data is only named), at most a short quote of the first cell.
pub(crate) fn describe_start(t: &str) -> String {
    let head: String = t.chars().take(512).collect();
    let odd = head
        .chars()
        .filter(|&c| (c.is_control() && !matches!(c, '\t' | '\r' | '\n')) || c == '\u{FFFD}')
        .count();
    if odd * 20 > head.chars().count() {
        return "binary data that is not a .blg either (a .blg starts with an ETW buffer size and the logger's header at byte 72)".into();
    }
    let line = t.lines().next().unwrap_or("");
    let (sep, name) = [(',', "','"), (';', "';'"), ('\t', "tabs")]
        .into_iter()
        .filter_map(|(c, n)| line.find(c).map(|i| (i, c, n)))
        .min()
        .map_or((None, ""), |(_, c, n)| (Some(c), n));
    let first = sep
        .and_then(|c| line.split(c).next())
        .unwrap_or(line)
        .trim()
        .trim_matches('"');
    let resave = if sep == Some(';') {
        " with cells separated by ';' (a re-save by a spreadsheet in a locale with a decimal comma; export the log again with relog -f csv, or save it with ',' separators)"
    } else {
        ""
    };
    if parse_local_time(first).is_some() {
        format!("a data row (a time, then values) as the first line{resave}: the header line, \"(PDH-CSV 4.0) (zone)(bias)\" and the counter paths, is missing, so the columns cannot be named")
    } else if line.contains("\\") {
        format!("a header with counter paths{resave} whose first cell is {}, not \"(PDH-CSV 4.0) (zone)(bias)\"", shorten(first, 40))
    } else {
        format!(
            "text whose first line starts {}{}",
            shorten(first, 40),
            if sep.is_some() {
                format!(" (cells separated by {name})")
            } else {
                String::new()
            }
        )
    }
}

/// Parses the first header cell: `(PDH-CSV 4.0) (zone name)(bias)`. Returns the zone, and a note when
/// there is none or it is cut short.
fn parse_zone(cell: &str) -> (Option<TimeZone>, Option<Note>) {
    let rest = cell.find(')').map_or("", |i| &cell[i + 1..]).trim();
    let mut groups = Vec::new();
    let mut open = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => open = Some(i + 1),
            ')' => {
                if let Some(o) = open.take() {
                    groups.push(&rest[o..i]);
                }
            }
            _ => {}
        }
    }
    let unclosed = open.is_some();
    let bias = groups
        .last()
        .and_then(|g| g.trim().parse::<i32>().ok())
        .filter(|b| (-1440..=1440).contains(b));
    match bias {
        Some(b) => {
            let name = if groups.len() >= 2 {
                groups[0].to_string()
            } else {
                String::new()
            };
            (
                Some(TimeZone {
                    name,
                    bias_minutes: b,
                }),
                None,
            )
        }
        None => {
            let why = if rest.is_empty() {
                "the header gives no time zone (typeperf writes none)"
            } else if unclosed {
                "the header's time zone text is cut short and has no bias"
            } else {
                "the header's time zone has no bias in minutes"
            };
            (
                None,
                Some(Note {
                    code: "no-time-zone",
                    message: format!("{why}: times are read as UTC"),
                    line: Some(1),
                }),
            )
        }
    }
}

/// Words that mark a zone name as daylight (summer) time or as standard (winter) time, in the languages
/// Windows names zones in: "Eastern Daylight Time", "Hora de verano romance", "Mitteleuropäische
/// Sommerzeit"; "Pacific Standard Time", "Hora estándar romance", "Mitteleuropäische Zeit" (no marker).
const DAYLIGHT_WORDS: &[&str] = &[
    "daylight",
    "summer",
    "verano",
    "sommerzeit",
    "été",
    "zomertijd",
    "legale",
    "verão",
    "летнее",
    "letni",
    "nyári",
    "夏時間",
    "夏令时",
];
const STANDARD_WORDS: &[&str] = &[
    "standard",
    "estándar",
    "normalzeit",
    "hiver",
    "standaard",
    "solare",
    "padrão",
    "стандартное",
    "zimowy",
    "標準時",
    "标准时间",
];

/// Some(true) for a daylight-time zone name, Some(false) for a standard-time one, None when it says neither.
pub(super) fn zone_is_daylight(name: &str) -> Option<bool> {
    let n = name.to_lowercase();
    if DAYLIGHT_WORDS.iter().any(|w| n.contains(w)) {
        Some(true)
    } else if STANDARD_WORDS.iter().any(|w| n.contains(w)) {
        Some(false)
    } else {
        None
    }
}

const HOUR_MS: f64 = 3_600_000.0;

/// Follows the rows' local times across daylight saving changes. The header gives one bias, the one in
/// force when the log started; the rows give local wall-clock times, which repeat an hour when daylight
/// time ends (the clock goes back) and skip one when it starts. A change is recognised from the jump
/// (back by up to an hour; or forward by an hour more than the previous interval), in the small hours
/// (the time after it between 00:00 and 04:59), when the zone name does not rule it out (a log that
/// started in daylight time cannot enter it); each shifts the bias by an hour from that row on.
#[derive(Default)]
pub(super) struct DstTracker {
    /// Whether the clock is now in daylight time, as far as the name and the changes seen tell.
    pub(super) daylight: Option<bool>,
    /// The previous row's local time, and the interval before it.
    last: Option<f64>,
    interval: Option<f64>,
    /// Minutes added to the header's bias from here on.
    shift_minutes: i32,
}

impl DstTracker {
    /// Milliseconds to add to the header's bias for the row at local time `local` (line `n`).
    pub(super) fn step(
        &mut self,
        local: f64,
        n: u32,
        notes: &mut Vec<Note>,
        zone: Option<&TimeZone>,
    ) -> f64 {
        if let (Some(p), Some(z)) = (self.last, zone) {
            let small_hours = (local.rem_euclid(MS_PER_DAY) / HOUR_MS) < 5.0;
            let interval = self.interval.unwrap_or(0.0);
            let change = if local < p {
                // Back: the repeated hour; the row is one interval after the last, an hour earlier.
                let after = local + HOUR_MS - p;
                let bound = if interval > 0.0 {
                    (2.0 * interval).max(2000.0)
                } else {
                    HOUR_MS
                };
                (self.daylight != Some(false) && small_hours && after > 0.0 && after <= bound)
                    .then_some(false)
            } else {
                // Forward: an hour more than the interval before.
                let excess = local - p - HOUR_MS;
                let near =
                    interval > 0.0 && (excess - interval).abs() <= (interval / 2.0).max(2000.0);
                (self.daylight != Some(true) && small_hours && near).then_some(true)
            };
            if let Some(daylight) = change {
                self.daylight = Some(daylight);
                self.shift_minutes += if daylight { -60 } else { 60 };
                let bias = z.bias_minutes + self.shift_minutes;
                notes.push(Note {
                    code: "dst-change",
                    message: format!(
                        "the local clock {} at line {n} ({} after {}): daylight saving time {}, so the rows from there are read with bias {bias} (UTC = local + {bias} minutes) and times stay in order; the header's bias {} ({}) is the one in force when the log started",
                        if daylight { "skips an hour" } else { "goes back an hour" },
                        format_local_time(local),
                        format_local_time(p),
                        if daylight { "started" } else { "ended" },
                        z.bias_minutes,
                        z.name
                    ),
                    line: Some(n),
                });
                self.interval = None;
                self.last = Some(local);
                return f64::from(self.shift_minutes) * 60_000.0;
            }
            self.interval = Some(local - p);
        }
        self.last = Some(local);
        f64::from(self.shift_minutes) * 60_000.0
    }
}

/// The PDH-CSV/TSV grammar, fed one line at a time by the capture reader.
pub(crate) struct CsvParser {
    delim: u8,
    format: Format,
    time_zone: Option<TimeZone>,
    bias_ms: f64,
    /// Daylight saving changes seen in the rows' local times.
    dst: DstTracker,
    paths: Vec<String>,
    /// One column per counter path; a row's values are pushed as it is parsed, and cut back to
    /// `timestamps.len()` when the row turns out bad, so no column is ever longer than the others.
    columns: Vec<Vec<f64>>,
    timestamps: Vec<f64>,
    /// Whether cells are tried with the fast path ([`fast_cell`]) before the general one (always, except
    /// in the tests that check both give the same capture).
    fast: bool,
    /// A last header cell that is not a counter path (Windows 11 writes the collector set's description
    /// there): left out, with a blank cell under it in every row.
    trailing: Option<String>,
    notes: Vec<Note>,
    /// Expected bytes of text in all (from the input's size), and bytes of rows read so far.
    size_hint: Option<usize>,
    read: usize,
    /// A piece of a file read on its own (`join.rs`): rows keep their local times (no bias, no daylight
    /// rule, which the join applies across the pieces) and each row's line number is kept here.
    piece_lines: Option<Vec<u32>>,
    /// Which series and rows are read, and the columns' budget (`OpenOptions`).
    options: OpenOptions,
    rows_kept: SampleFilter,
    /// Per header path: whether its column is read (empty: every one).
    keep: Vec<bool>,
    /// Rows in the file (read or not).
    rows_seen: usize,
    /// Rows read and already taken out (`take_rows`): the rows read so far are these and `timestamps`.
    taken: usize,
    /// A catalogue pass (`count_only`): each row's values are counted per column and dropped.
    tally: Option<(TimeTally, Vec<usize>)>,
}

/// Rows read before the columns are reserved from their average length.
const ROWS_TO_MEASURE: usize = 64;

impl CsvParser {
    pub fn new(tsv: bool) -> Self {
        CsvParser {
            delim: if tsv { b'\t' } else { b',' },
            format: if tsv { Format::PdhTsv } else { Format::PdhCsv },
            time_zone: None,
            bias_ms: 0.0,
            dst: DstTracker::default(),
            paths: vec![],
            columns: vec![],
            timestamps: vec![],
            fast: !general_only(),
            trailing: None,
            notes: vec![],
            size_hint: None,
            read: 0,
            piece_lines: None,
            options: OpenOptions::default(),
            rows_kept: SampleFilter::default(),
            keep: Vec::new(),
            rows_seen: 0,
            taken: 0,
            tally: None,
        }
    }

    /// A catalogue pass: every row's values are counted per column (those not NaN) and its time
    /// tallied, then dropped, so memory does not grow with the rows (`CatalogueReader`).
    pub fn count_only(&mut self) {
        self.tally = Some((TimeTally::default(), Vec::new()));
    }

    /// Rows read so far (kept in the columns, or counted).
    fn rows_read(&self) -> usize {
        self.tally
            .as_ref()
            .map_or(self.taken + self.timestamps.len(), |t| t.0.rows)
    }

    /// Which series and rows to read, and the columns' budget.
    pub fn select(&mut self, options: &OpenOptions) {
        self.options = options.clone();
    }

    /// Bytes one more row takes in the columns.
    fn per_row(&self) -> usize {
        8 * (self.columns.len() + 1)
    }

    /// Reads a piece of a file for `join.rs`: local times, each row's line kept, no refusal of no rows.
    pub(super) fn read_as_piece(&mut self) {
        self.piece_lines = Some(Vec::new());
    }

    /// The piece's rows (local times), the line of each row (`read_as_piece`), and how many series
    /// the header has (more than the capture's when `OpenOptions::series` left some out).
    pub(super) fn finish_piece(
        mut self,
        encoding: Encoding,
    ) -> Result<(Capture, Vec<u32>, usize), CaptureError> {
        let lines = self.piece_lines.as_mut().map(std::mem::take);
        let of_series = self.paths.len();
        Ok((self.finish(encoding)?, lines.unwrap_or_default(), of_series))
    }

    /// The expected size of the whole text, in bytes of UTF-8.
    pub fn expect_bytes(&mut self, size: usize) {
        self.size_hint = Some(size);
    }

    /// Once the first rows show how long a row is, reserves every column for the rows the rest of the
    /// input will hold (2% spare), so they are never copied by a doubling.
    fn reserve(&mut self) {
        let Some(size) = self.size_hint.take() else {
            return;
        };
        let rows = self.timestamps.len();
        let per_row = (self.read / rows).max(1);
        let expected = size.saturating_sub(self.read) / per_row;
        let fits = self.options.column_budget() / self.per_row();
        let extra = (expected + expected / 50 + 16).min(fits.saturating_sub(rows));
        self.timestamps.reserve_exact(extra);
        for col in &mut self.columns {
            col.reserve_exact(extra);
        }
    }

    /// PDH-CSV or PDH-TSV.
    pub fn format(&self) -> Format {
        self.format
    }

    /// How many series are read (the header's, or those `OpenOptions::series` keeps).
    pub fn series_read(&self) -> usize {
        self.columns.len()
    }

    pub fn has_header(&self) -> bool {
        !self.paths.is_empty()
    }

    pub fn header(&mut self, line: &str, n: u32) -> Result<(), CaptureError> {
        let line = line
            .strip_suffix('\r')
            .unwrap_or(line)
            .trim_start_matches('\u{feff}');
        // A re-save with ';' separators: the first cell (quoted) is followed by a ';', or (unquoted) holds it.
        let semicolon = |i: usize| {
            CaptureError::at_line(CaptureErrorKind::BadHeader, n, column(line, i),
                "expected the header's cells separated by ',' as relog, typeperf and Perfmon write them, found ';': a re-save by a spreadsheet in a locale with a decimal comma (export the log again with relog -f csv, or save it with ',' separators)".into())
        };
        let cells = split(line, self.delim).map_err(|i| {
            if self.delim == b',' && line.as_bytes().get(i) == Some(&b';') {
                return semicolon(i);
            }
            CaptureError::at_line(
                CaptureErrorKind::BadHeader,
                n,
                column(line, i),
                "expected a closing quote in the header".into(),
            )
        })?;
        let first = &cells[0].text;
        if let Some(i) = first.find(';').filter(|_| self.delim == b',') {
            return Err(semicolon(
                cells[0].start + i + usize::from(line.starts_with('"')),
            ));
        }
        let want = if self.delim == b'\t' {
            "(PDH-TSV"
        } else {
            "(PDH-CSV"
        };
        if !first.starts_with(want) {
            return Err(CaptureError::at_line(
                CaptureErrorKind::BadHeader,
                n,
                1,
                format!(
                    "expected the first header cell to start {want:?}, found {:?}",
                    first.chars().take(30).collect::<String>()
                ),
            ));
        }
        let (zone, note) = parse_zone(first);
        self.bias_ms = zone
            .as_ref()
            .map_or(0.0, |z| f64::from(z.bias_minutes) * 60_000.0);
        self.dst.daylight = zone.as_ref().and_then(|z| zone_is_daylight(&z.name));
        self.time_zone = zone;
        self.notes.extend(note);
        if cells.len() - 1 > super::limits::MAX_COLUMNS {
            return Err(CaptureError::at_line(
                CaptureErrorKind::TooLarge,
                n,
                1,
                format!(
                    "the header has {} counter columns; at most {} are read",
                    cells.len() - 1,
                    super::limits::MAX_COLUMNS
                ),
            ));
        }
        if cells.len() < 2 {
            return Err(CaptureError::at_line(
                CaptureErrorKind::BadHeader,
                n,
                column(line, line.len()),
                "expected counter paths after the first header cell, found none".into(),
            ));
        }
        for (k, c) in cells.iter().enumerate().skip(1) {
            if path::parse(&c.text).is_none() && k == cells.len() - 1 && k > 1 {
                // Windows 11's "System Performance" Data Collector Set ends its header with the set's
                // description, and every row with a " " under it: kept aside, and each row's cell there
                // must be blank (`parse_row`).
                self.trailing = Some(c.text.to_string());
                break;
            }
            if path::parse(&c.text).is_none() {
                return Err(CaptureError::at_line(CaptureErrorKind::BadHeader, n, column(line, c.start),
                    format!("expected a counter path like \\\\MACHINE\\Object(Instance)\\Counter, found {:?}", c.text.chars().take(60).collect::<String>())));
            }
            self.paths.push(c.text.to_string());
        }
        if self.options.series.is_some() {
            self.keep = self
                .paths
                .iter()
                .map(|p| self.options.wants_series(p))
                .collect();
            if !self.keep.contains(&true) {
                return Err(CaptureError::invalid_option(
                    "series",
                    format!(
                        "none of the log's {} series matches the paths asked for",
                        self.paths.len()
                    ),
                ));
            }
        }
        let kept = if self.keep.is_empty() {
            self.paths.len()
        } else {
            self.keep.iter().filter(|&&k| k).count()
        };
        self.columns = vec![Vec::new(); kept];
        if let Some(text) = &self.trailing {
            self.notes.push(Note {
                code: "dropped-column",
                message: format!("the header's last cell is not a counter path but text ({}), with a blank cell under it in every row (Windows 11 Data Collector Sets write their description there): that column is left out", shorten(text, 80)),
                line: Some(n),
            });
        }
        Ok(())
    }

    /// One data row. `last` marks a final line without a line end, which may be cut short: then the
    /// complete rows are kept and the cut is noted instead of failing.
    pub fn row(&mut self, line: &str, n: u32, last: bool) -> Result<(), CaptureError> {
        // A file cut inside a character (half a UTF-16 unit) ends in the decoder's U+FFFD: not text.
        let line = match line.strip_suffix('\u{FFFD}') {
            Some(l) if last => l,
            _ => line,
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            return Ok(());
        }
        // A final line without a line end that stops right after a delimiter was cut there: its last
        // cell would read as an empty cell (no value) though it was never written.
        let rows = self.timestamps.len();
        let window = self.piece_lines.is_none() && self.options.skips_samples();
        if window && !last {
            if let Some(local) = self.far_outside(line) {
                // Hours outside the window: its values are not read (its time still is, for the
                // daylight saving rule).
                self.dst
                    .step(local, n, &mut self.notes, self.time_zone.as_ref());
                self.rows_seen += 1;
                return Ok(());
            }
        }
        if rows == self.timestamps.capacity() {
            self.grow(rows, n)?;
        }
        let parsed = match self.parse_row(line, n) {
            Ok(_) if last && line.as_bytes().last() == Some(&self.delim) => {
                Err(CaptureError::at_line(
                    CaptureErrorKind::WrongCellCount,
                    n,
                    column(line, line.len()),
                    "it ends with a delimiter, where the last cell was never written".into(),
                ))
            }
            other => other,
        };
        if parsed.is_err() {
            // The values the bad row pushed before its fault are taken back.
            for col in &mut self.columns {
                col.truncate(rows);
            }
        }
        match parsed {
            Ok(local) => {
                let t = match &mut self.piece_lines {
                    Some(lines) => {
                        lines.push(n);
                        local
                    }
                    None => {
                        local
                            + self.bias_ms
                            + self
                                .dst
                                .step(local, n, &mut self.notes, self.time_zone.as_ref())
                    }
                };
                self.rows_seen += 1;
                if window && !self.rows_kept.keep(&self.options, t) {
                    for col in &mut self.columns {
                        col.truncate(rows);
                    }
                    return Ok(());
                }
                if let Some((times, counts)) = &mut self.tally {
                    times.add(t);
                    counts.resize(self.columns.len(), 0);
                    for (n, col) in counts.iter_mut().zip(&mut self.columns) {
                        *n += col.iter().filter(|v| !v.is_nan()).count();
                        col.clear();
                    }
                    return Ok(());
                }
                self.timestamps.push(t);
                self.read += line.len() + 2;
                if self.timestamps.len() == ROWS_TO_MEASURE {
                    self.reserve();
                }
                Ok(())
            }
            // A file cut mid-row (a copy that stopped, a log still being written) ends in a row missing its
            // end: its cells are too few, its last quote unclosed, or its time or last number half written.
            Err(e)
                if last
                    && matches!(
                        e.kind,
                        CaptureErrorKind::WrongCellCount
                            | CaptureErrorKind::BadNumber
                            | CaptureErrorKind::BadQuote
                            | CaptureErrorKind::BadTime
                    ) =>
            {
                self.notes.push(Note {
                    code: "cut-short",
                    message: format!("the last line (line {n}) is cut short and was not read ({}); the {} complete rows before it were", e.message, self.rows_read()),
                    line: Some(n),
                });
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// The local time of a row that is hours outside the window (`OpenOptions::from_ms`, `to_ms`): more
    /// than the three hours a daylight saving change or two can move its UTC time from local + bias.
    /// None for any other row (and for one whose time does not read: the whole row is read then, and its
    /// error reported).
    fn far_outside(&self, line: &str) -> Option<f64> {
        const MARGIN: f64 = 3.0 * 3_600_000.0;
        let b = line.as_bytes();
        let cell = match b.first() {
            Some(b'"') => &line[1..1 + memchr::memchr(b'"', &b[1..])?],
            _ => &line[..memchr::memchr(self.delim, b).unwrap_or(b.len())],
        };
        let local = parse_local_time(cell)?;
        let t = local + self.bias_ms;
        let before = self.options.from_ms.is_some_and(|f| t < f - MARGIN);
        let after = self.options.to_ms.is_some_and(|e| t > e + MARGIN);
        (before || after).then_some(local)
    }

    /// Room for more rows in every column, within the budget (`OpenOptions::max_column_bytes`): half as
    /// many again, all columns at once, so that none doubles on its own.
    fn grow(&mut self, rows: usize, n: u32) -> Result<(), CaptureError> {
        let budget = self.options.column_budget();
        let per_row = self.per_row();
        let cap = grown_capacity(rows, per_row, budget)
            .ok_or_else(|| columns_too_large(self.columns.len(), rows, per_row, budget, Some(n)))?;
        self.timestamps.reserve_exact(cap - rows);
        for col in &mut self.columns {
            col.reserve_exact(cap - rows);
        }
        Ok(())
    }

    /// One data row's cells: the time is returned, the values are pushed onto the columns (the caller
    /// cuts them back if this fails).
    fn parse_row(&mut self, line: &str, n: u32) -> Result<f64, CaptureError> {
        let b = line.as_bytes();
        let delim = self.delim;
        let values = self.paths.len() + 1;
        let want = values + usize::from(self.trailing.is_some());
        // One column per value cell, in order: the iterator hands each out without an index to check.
        let mut cols = self.columns.iter_mut();
        let mut i = 0;
        let mut cell = 0;
        let mut time = 0.0;
        loop {
            let start = i;
            // Nearly every cell is a value cell holding a plain decimal or a blank: read in one pass, the
            // closing quote found where the number ends. Anything else goes through the general path below.
            let skip = cell != 0 && cell < values && self.keep.get(cell - 1) == Some(&false);
            let fast = if self.fast && cell != 0 && cell < values && !skip {
                b.get(i..).and_then(|rest| fast_cell(rest, delim))
            } else {
                None
            };
            if skip {
                // A series not read (`OpenOptions::series`): its cell is passed over, not parsed.
                i = if b.get(i) == Some(&b'"') {
                    1 + i
                        + 1
                        + memchr::memchr(b'"', &b[i + 1..]).ok_or_else(|| {
                            CaptureError::at_line(
                                CaptureErrorKind::BadQuote,
                                n,
                                column(line, start),
                                "expected a closing quote".into(),
                            )
                        })?
                } else {
                    memchr::memchr(delim, &b[i..]).map_or(b.len(), |k| i + k)
                };
            } else if let Some((v, len)) = fast {
                if let Some(col) = cols.next() {
                    col.push(v);
                }
                i += len;
            } else {
                // The general path: a quoted cell ends at the next quote, an unquoted one at the next
                // delimiter; its text is then read as a time, a number (std's correctly rounded parser) or a
                // blank.
                let (s, e) = if i < b.len() && b[i] == b'"' {
                    let close = memchr::memchr(b'"', &b[i + 1..])
                        .map(|k| i + 1 + k)
                        .ok_or_else(|| {
                            CaptureError::at_line(
                                CaptureErrorKind::BadQuote,
                                n,
                                column(line, start),
                                "expected a closing quote".into(),
                            )
                        })?;
                    i = close + 1;
                    (start + 1, close)
                } else {
                    let end = memchr::memchr(delim, &b[i..]).map_or(b.len(), |k| i + k);
                    i = end;
                    (start, end)
                };
                let text = &line[s..e];
                if cell == 0 {
                    time = parse_local_time(text).ok_or_else(|| {
                        CaptureError::at_line(
                            CaptureErrorKind::BadTime,
                            n,
                            column(line, start),
                            format!(
                                "expected a time MM/dd/yyyy HH:mm:ss.fff, found {:?}",
                                text.chars().take(40).collect::<String>()
                            ),
                        )
                    })?;
                } else if cell >= values {
                    if cell < want && !text.bytes().all(|c| c == b' ') {
                        let header = self.trailing.as_deref().unwrap_or("");
                        return Err(CaptureError::at_line(
                            CaptureErrorKind::BadHeader,
                            n,
                            column(line, start),
                            format!(
                                "expected \" \" under the header's last cell {}, which is not a counter path, found {}: a column with values needs a counter path",
                                shorten(header, 60),
                                shorten(text, 40)
                            ),
                        ));
                    }
                } else {
                    // Numbers first: they are nearly every cell; a gap is only looked for when parsing fails.
                    let v = match text.parse::<f64>() {
                        Ok(v) => v,
                        Err(_) if text.bytes().all(|c| c == b' ') => f64::NAN,
                        Err(_) => {
                            return Err(CaptureError::at_line(
                                CaptureErrorKind::BadNumber,
                                n,
                                column(line, start),
                                format!(
                                    "expected a number or \" \" (no value) for {}, found {:?}",
                                    self.paths[cell - 1],
                                    text.chars().take(40).collect::<String>()
                                ),
                            ));
                        }
                    };
                    if let Some(col) = cols.next() {
                        col.push(v);
                    }
                }
            }
            cell += 1;
            if i >= b.len() {
                break;
            }
            if b[i] != delim {
                return Err(CaptureError::at_line(
                    CaptureErrorKind::BadQuote,
                    n,
                    column(line, i),
                    "expected a delimiter after a quoted cell".into(),
                ));
            }
            i += 1;
            if i == b.len() {
                // A trailing delimiter: one more, empty, cell (no value, when under a counter read).
                if cell == 0 || self.keep.get(cell - 1) != Some(&false) {
                    if let Some(col) = cols.next() {
                        col.push(f64::NAN);
                    }
                }
                cell += 1;
                break;
            }
        }
        if cell != want {
            return Err(CaptureError::at_line(CaptureErrorKind::WrongCellCount, n, column(line, line.len()),
                format!("expected {want} cells (the time and {} values{}, as the header has), found {cell}", values - 1,
                    if want > values { " and a blank under the header's last cell" } else { "" })));
        }
        Ok(time)
    }

    /// The rows read since the last take, taken out (`CaptureReader::take_rows`): their times and every
    /// series read, in the header's order; None before the header is read (and in a catalogue pass,
    /// which keeps no rows). The columns keep their room
    /// for the next rows; no room is reserved for the whole file any more.
    pub fn take_rows(&mut self, encoding: Encoding) -> Option<Capture> {
        if self.paths.is_empty() || self.piece_lines.is_some() || self.tally.is_some() {
            return None;
        }
        self.size_hint = None;
        self.taken += self.timestamps.len();
        let keep = &self.keep;
        let series = self
            .paths
            .iter()
            .enumerate()
            .filter(|(k, _)| keep.get(*k) != Some(&false))
            .zip(&mut self.columns)
            .map(|((_, p), col)| {
                let values = col.clone();
                col.clear();
                Series::new(p.clone(), values)
            })
            .collect();
        let timestamps = self.timestamps.clone();
        self.timestamps.clear();
        Some(Capture {
            format: Some(self.format),
            encoding: Some(CaptureEncoding::Text(encoding)),
            time_zone: self.time_zone.clone(),
            timestamps,
            series,
            notes: Vec::new(),
        })
    }

    /// The catalogue of a catalogue pass (`count_only`): refused as `finish` refuses a log of no rows.
    pub fn finish_catalogue(
        self,
        encoding: Encoding,
        bytes: usize,
    ) -> Result<Catalogue, CaptureError> {
        let (times, mut counts) = self.tally.clone().unwrap_or_default();
        counts.resize(self.columns.len(), 0);
        // What `finish` checks and notes, on the rows counted (its columns are empty).
        let c = self.finish(encoding)?;
        Ok(Catalogue {
            format: c.format.unwrap_or(Format::PdhCsv),
            encoding: CaptureEncoding::Text(encoding),
            time_zone: c.time_zone,
            series: c
                .series
                .into_iter()
                .zip(counts)
                .map(|(s, samples)| CatalogueSeries {
                    path: s.path,
                    parsed: s.parsed,
                    counter_type: None,
                    samples,
                })
                .collect(),
            rows: times.rows,
            first_ms: times.first,
            last_ms: times.last,
            notes: c.notes,
            bytes,
        })
    }

    pub fn finish(self, encoding: Encoding) -> Result<Capture, CaptureError> {
        if self.paths.is_empty() {
            return Err(CaptureError::at_line(
                CaptureErrorKind::Empty,
                1,
                1,
                "expected a PDH-CSV header line, found no complete line".into(),
            ));
        }
        let rows = self.rows_read();
        if rows == 0 && self.rows_seen > 0 && self.piece_lines.is_none() {
            return Err(CaptureError::invalid_option(
                if self.options.from_ms.is_some() || self.options.to_ms.is_some() {
                    "from"
                } else {
                    "every"
                },
                format!(
                    "none of the log's {} samples is in the window asked for",
                    self.rows_seen
                ),
            ));
        }
        if rows == 0 && self.piece_lines.is_none() {
            // A capture of nothing is refused rather than shown as an empty chart.
            return Err(CaptureError::at_line(
                CaptureErrorKind::NoRows,
                2,
                1,
                "expected data rows after the header; the file has only a header".into(),
            ));
        }
        let mut notes = self.notes;
        if self.piece_lines.is_none()
            && (rows < self.rows_seen || self.columns.len() < self.paths.len())
        {
            notes.push(part_note(
                self.columns.len(),
                Some(self.paths.len()),
                rows,
                self.rows_seen,
            ));
        }
        let keep = self.keep;
        Ok(Capture {
            format: Some(self.format),
            encoding: Some(CaptureEncoding::Text(encoding)),
            time_zone: self.time_zone,
            series: self
                .paths
                .into_iter()
                .enumerate()
                .filter(|(k, _)| keep.get(*k) != Some(&false))
                .map(|(_, p)| p)
                .zip(self.columns)
                .map(|(p, values)| Series::new(p, values))
                .collect(),
            timestamps: self.timestamps,
            notes,
        })
    }
}

#[cfg(test)]
thread_local! {
    /// Whether the general path alone reads cells (set only by the tests that compare the two paths).
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn general_only() -> bool {
    #[cfg(test)]
    return GENERAL_ONLY.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// The fast path for one value cell at the start of `rest`: a decimal number ([`parse_decimal`]: up to
/// 19 significant digits kept and any number more, an exponent), quoted or not, or a quoted blank (`" "` or `""`, no value). Returns the value and the cell's length in bytes
/// (the byte after it is then a delimiter or the end of the line, or, after a quoted cell, something
/// the caller refuses exactly as the general path would). None for anything else (an exponent, a quote
/// inside, spaces around a number, `+`, text): the general path reads that cell and gives the same
/// value, or the error.
#[inline(always)]
fn fast_cell(rest: &[u8], delim: u8) -> Option<(f64, usize)> {
    match rest {
        [b'"', b'"', ..] => Some((f64::NAN, 2)),
        [b'"', b' ', b'"', ..] => Some((f64::NAN, 3)),
        [b'"', inner @ ..] => {
            let (v, len) = parse_decimal(inner)?;
            (inner.get(len) == Some(&b'"')).then_some((v, len + 2))
        }
        _ => {
            let (v, len) = parse_decimal(rest)?;
            rest.get(len)
                .is_none_or(|&c| c == delim)
                .then_some((v, len))
        }
    }
}

/// `s` quoted for a message, cut to `max` characters with "..." when longer.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head:?}...")
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// `MM/dd/yyyy HH:mm:ss.fff` of ms since the epoch.
fn format_local_time(ms: f64) -> String {
    let ms = ms.round();
    let days = (ms / MS_PER_DAY).floor();
    let (y, mo, d) = civil_from_days(days as i64);
    let in_day = (ms - days * MS_PER_DAY) as i64;
    format!(
        "{mo:02}/{d:02}/{y:04} {:02}:{:02}:{:02}.{:03}",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

/// PDH-CSV (relog's dialect: a zone and bias in the header, quoted cells, CRLF) of the chosen series,
/// or of all. Values are written in the shortest form that reads back to the same double.
pub fn write_csv(capture: &Capture, indices: Option<&[usize]>) -> String {
    let mut out =
        Vec::with_capacity(64 + capture.timestamps.len() * (26 + 12 * capture.series.len()));
    // Writing into a Vec cannot fail, and every piece written is UTF-8.
    let _ = write_pdh(capture, indices, false, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// PDH-CSV, or PDH-TSV when `tsv` (relog `-f tsv`: the same quoted cells, separated by tabs, and a
/// `(PDH-TSV 4.0)` header), streamed to `out` row by row so a large log is never held twice.
pub fn write_pdh<W: std::io::Write>(
    capture: &Capture,
    indices: Option<&[usize]>,
    tsv: bool,
    mut out: W,
) -> std::io::Result<()> {
    write_pdh_header(capture, indices, tsv, &mut out)?;
    write_pdh_rows(capture, indices, tsv, &mut out)
}

/// The chosen series (all for `None`; indices past the last series are left out).
fn chosen(capture: &Capture, indices: Option<&[usize]>) -> Vec<usize> {
    match indices {
        None => (0..capture.series.len()).collect(),
        Some(i) => i
            .iter()
            .copied()
            .filter(|&i| i < capture.series.len())
            .collect(),
    }
}

/// The zone's name and bias a capture is written with (UTC without one).
fn written_zone(capture: &Capture) -> (&str, i32) {
    capture
        .time_zone
        .as_ref()
        .map_or(("Coordinated Universal Time", 0), |z| {
            (z.name.as_str(), z.bias_minutes)
        })
}

/// The header line of `write_pdh`: the zone and bias, then the chosen series' paths. With
/// `write_pdh_rows`, a log is written a part of its rows at a time (the CLI's streaming `convert`):
/// each part a capture with the same zone and series.
pub fn write_pdh_header<W: std::io::Write>(
    capture: &Capture,
    indices: Option<&[usize]>,
    tsv: bool,
    mut out: W,
) -> std::io::Result<()> {
    let indices = chosen(capture, indices);
    let (zone, bias) = written_zone(capture);
    let (sep, kind) = if tsv { ('\t', "TSV") } else { (',', "CSV") };
    let mut line = String::with_capacity(64 + 24 * indices.len());
    line.push_str(&quote(&format!("(PDH-{kind} 4.0) ({zone})({bias})")));
    for &i in &indices {
        line.push(sep);
        line.push_str(&quote(&capture.series[i].path));
    }
    line.push_str("\r\n");
    out.write_all(line.as_bytes())
}

/// The rows of `write_pdh`, after its header: local time by the zone's bias, then the chosen series'
/// values (`" "` for none).
pub fn write_pdh_rows<W: std::io::Write>(
    capture: &Capture,
    indices: Option<&[usize]>,
    tsv: bool,
    mut out: W,
) -> std::io::Result<()> {
    let indices = chosen(capture, indices);
    let (_, bias) = written_zone(capture);
    let sep = if tsv { '\t' } else { ',' };
    let mut line = String::with_capacity(64 + 24 * indices.len());
    let bias_ms = f64::from(bias) * 60_000.0;
    for (row, &t) in capture.timestamps.iter().enumerate() {
        line.clear();
        line.push('"');
        line.push_str(&format_local_time(t - bias_ms));
        line.push('"');
        for &i in &indices {
            let v = capture.series[i].values[row];
            line.push(sep);
            if v.is_nan() {
                line.push_str("\" \"");
            } else {
                use std::fmt::Write;
                line.push('"');
                let _ = write!(line, "{v}");
                line.push('"');
            }
        }
        line.push_str("\r\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times() {
        // 02/20/2013 18:50:18.844 = day 15756 (2013-02-20) + 18 h 50 min 18.844 s
        //   = 15756 * 86400000 + 67818844 = 1361318400000 + 67818844 = 1361386218844
        assert_eq!(
            parse_local_time("02/20/2013 18:50:18.844"),
            Some(1_361_386_218_844.0)
        );
        assert_eq!(
            parse_local_time("2/20/2013 18:50:18"),
            Some(1_361_386_218_000.0)
        );
        assert_eq!(
            parse_local_time("02/20/2013 18:50:18.8"),
            Some(1_361_386_218_800.0)
        );
        for bad in [
            "",
            "02/30/2013 00:00:00.000",
            "13/01/2013 00:00:00",
            "02/20/2013 24:00:00",
            "02/20/2013",
            "2013-02-20 18:50:18",
            "02/20/2013 18:50:18.x",
        ] {
            assert_eq!(parse_local_time(bad), None, "{bad}");
        }
        assert_eq!(
            format_local_time(1_361_386_218_844.0),
            "02/20/2013 18:50:18.844"
        );
    }

    #[test]
    fn zones() {
        let (z, n) = parse_zone("(PDH-CSV 4.0) (Pacific Standard Time)(480)");
        assert_eq!(
            z,
            Some(TimeZone {
                name: "Pacific Standard Time".into(),
                bias_minutes: 480
            })
        );
        assert!(n.is_none());
        let (z, _) = parse_zone("(PDH-CSV 4.0) (Romance Standard Time)(-60)");
        assert_eq!(z.unwrap().bias_minutes, -60);
        let (z, n) = parse_zone("(PDH-CSV 4.0)");
        assert!(z.is_none() && n.unwrap().message.contains("typeperf"));
        let (z, n) = parse_zone("(PDH-CSV 4.0) (Pacific Standard Ti");
        assert!(z.is_none() && n.unwrap().message.contains("cut short"));
        let (z, _) = parse_zone("(PDH-CSV 4.0) (W. Europe Standard Tim)(-60)");
        assert_eq!(
            z,
            Some(TimeZone {
                name: "W. Europe Standard Tim".into(),
                bias_minutes: -60
            })
        );
    }

    #[test]
    fn fast_cells() {
        assert_eq!(fast_cell(b"\"42.5\",\"1\"", b','), Some((42.5, 6)));
        assert_eq!(fast_cell(b"42.5,1", b','), Some((42.5, 4)));
        assert_eq!(fast_cell(b"42.5", b','), Some((42.5, 4)));
        assert!(fast_cell(b"\" \",1", b',').is_some_and(|(v, n)| v.is_nan() && n == 3));
        assert!(fast_cell(b"\"\"", b',').is_some_and(|(v, n)| v.is_nan() && n == 2));
        // Exponents and digits past the 19th are read here too (crate::capture::number).
        assert_eq!(fast_cell(b"\"1.5e3\"", b','), Some((1500.0, 7)));
        assert_eq!(
            fast_cell(b"\"0.0028616000000000001678\",", b','),
            Some((0.0028616, 26))
        );
        // The general path's: a quote missing, a number then text, a tab inside a CSV cell, an unquoted
        // blank, hostile text, a '+', an exponent with no digits.
        for b in [
            &b"\"42.5"[..],
            b"\"+1\"",
            b"\"1e\"",
            b"42.5x,",
            b"42.5\t1",
            b" ,",
            b"\"<script>\"",
        ] {
            assert_eq!(fast_cell(b, b','), None, "{}", String::from_utf8_lossy(b));
        }
        // In a TSV, the tab is the delimiter.
        assert_eq!(fast_cell(b"42.5\t1", b'\t'), Some((42.5, 4)));
    }

    #[test]
    fn splitting_quoted_cells() {
        let cells = split(r#""a,b","c""d",e,"#, b',').unwrap();
        let texts: Vec<&str> = cells.iter().map(|c| c.text.as_ref()).collect();
        assert_eq!(texts, vec!["a,b", "c\"d", "e", ""]);
        assert_eq!(split(r#""open,b"#, b','), Err(0));
    }

    /// Reads `bytes` with the general path alone (whole), or the fast path (in `chunk`-byte pieces).
    fn read(bytes: &[u8], general: bool, chunk: usize) -> Result<Capture, CaptureError> {
        GENERAL_ONLY.with(|g| g.set(general));
        let mut r = super::super::CaptureReader::new(&OpenOptions {
            size_hint: Some(bytes.len()),
            ..Default::default()
        })?;
        let out = bytes
            .chunks(chunk.max(1))
            .try_for_each(|c| r.push(c))
            .and_then(|()| r.finish());
        GENERAL_ONLY.with(|g| g.set(false));
        out
    }

    /// What must be bit-identical between the two paths: every time stamp and value by its bits (NaN
    /// included), the paths, the zone and the notes.
    type Print = (
        Vec<u64>,
        Vec<(String, Vec<u64>)>,
        Option<TimeZone>,
        Vec<Note>,
    );
    fn print(c: Capture) -> Print {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect();
        (
            bits(&c.timestamps),
            c.series
                .iter()
                .map(|s| (s.path.clone(), bits(&s.values)))
                .collect(),
            c.time_zone,
            c.notes,
        )
    }

    use proptest::prelude::*;

    /// A value cell's text: mostly plain decimals (negative or not, short or past 19 digits, past 2^53,
    /// more than 22 after the point), and exponents, signs, blanks of any width, and a few that are no
    /// number at all (spaces around, text), which both paths must refuse alike.
    fn arb_value() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => ("-?", "[0-9]{0,12}", proptest::option::of("[0-9]{0,14}"))
                .prop_map(|(s, w, f)| format!("{s}{w}{}", f.map_or(String::new(), |f| format!(".{f}")))),
            2 => ("-?", "[0-9]{1,22}", "[0-9]{0,26}").prop_map(|(s, w, f)| format!("{s}{w}.{f}")),
            2 => any::<f64>().prop_map(|v| format!("{v}")),
            1 => (-1e30f64..1e30).prop_map(|v| format!("{v:e}")),
            1 => ("[0-9]\\.[0-9]{1,6}", "[eE]", "[+-]?", "[0-9]{1,3}").prop_map(|(m, e, s, x)| format!("{m}{e}{s}{x}")),
            1 => "\\+[0-9]{1,5}(\\.[0-9]{1,5})?",
            2 => " {0,3}",
            1 => prop::sample::select(vec![" 1.5", "1.5 ", "inf", "-NaN", "1,5", "x", "<script>", "9007199254740993", "-0", "0000.0000"]).prop_map(String::from),
        ]
    }

    /// A PDH-CSV (or TSV) of `cols` counters: random quoting per cell, CRLF or LF, and sometimes no line
    /// end after the last row.
    fn arb_csv() -> impl Strategy<Value = (Vec<u8>, bool)> {
        (1usize..6, any::<bool>()).prop_flat_map(|(cols, tsv)| {
            (
                proptest::collection::vec(
                    proptest::collection::vec((arb_value(), prop::bool::weighted(0.85)), cols),
                    1..12,
                ),
                any::<bool>(),
                any::<bool>(),
            )
                .prop_map(move |(rows, crlf, end)| {
                    let d = if tsv { "\t" } else { "," };
                    let nl = if crlf { "\r\n" } else { "\n" };
                    let kind = if tsv { "TSV" } else { "CSV" };
                    let mut t = format!("\"(PDH-{kind} 4.0) (Pacific Standard Time)(480)\"");
                    for c in 0..cols {
                        t.push_str(&format!("{d}\"\\\\HOST\\Object({c})\\Counter\""));
                    }
                    for (r, row) in rows.iter().enumerate() {
                        t.push_str(nl);
                        t.push_str(&format!("\"11/22/2026 09:00:{:02}.000\"", r % 60));
                        for (v, quoted) in row {
                            t.push_str(d);
                            if *quoted || v.contains(d) {
                                t.push_str(&format!("\"{v}\""));
                            } else {
                                t.push_str(v);
                            }
                        }
                    }
                    if end {
                        t.push_str(nl);
                    }
                    (t.into_bytes(), tsv)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// The fast path (in chunks of any size) gives the same capture as the general path, bit for bit,
        /// or the same error.
        #[test]
        fn the_fast_path_reads_as_the_general_path((csv, _tsv) in arb_csv(), chunk in 1usize..300) {
            let general = read(&csv, true, csv.len()).map(print);
            let fast = read(&csv, false, chunk).map(print);
            prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&csv));
        }
    }
}
