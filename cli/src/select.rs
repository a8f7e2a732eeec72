//! What `convert` keeps of each input (relog's `-c`/`-cf`, `-b`/`-e`, `-t`) and how inputs merge into
//! one table for CSV/TSV/JSON: series by path, rows by time; the same machine's logs appended in time
//! order, overlaps reported.

use crate::error::CliError;
use crate::time::{iso_utc, TimeSpec};
use counterlens::capture::{Capture, FoldedPath, OpenOptions, PathPattern, Series, TimeZone};
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Empty: every series.
    pub patterns: Vec<PathPattern>,
    pub begin: Option<TimeSpec>,
    pub end: Option<TimeSpec>,
    /// Keep every Nth sample of the window (1: all).
    pub every: usize,
}

/// Reads a relog counter file (`-cf`): one path per line; blank lines and lines starting `#` skipped.
pub fn read_pattern_file(path: &Path) -> Result<Vec<PathPattern>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("--cf {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let l = line.trim().trim_start_matches('\u{feff}');
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        out.push(PathPattern::parse(l).map_err(|_| CliError::PatternFile {
            file: path.to_path_buf(),
            line: n + 1,
            text: l.to_string(),
        })?);
    }
    Ok(out)
}

impl Selection {
    /// What the core's reader can leave out while reading (`-c`/`-cf`, `--begin`/`--end`): the series
    /// matched, and a time window in UTC; a time given without a zone is the log's own local time,
    /// unknown before its header is read, so the window is widened by a day either way (no bias is
    /// larger) and `apply` cuts it exactly. Every Nth sample is picked by `apply` (it counts within the
    /// exact window).
    pub fn open_options(&self) -> OpenOptions {
        const DAY: f64 = 86_400_000.0;
        let widened = |t: &TimeSpec, by: f64| match t.offset_minutes {
            Some(east) => t.local_ms - f64::from(east) * 60_000.0,
            None => t.local_ms + by,
        };
        OpenOptions {
            series: (!self.patterns.is_empty()).then(|| self.patterns.clone()),
            from_ms: self.begin.as_ref().map(|b| widened(b, -DAY)),
            to_ms: self.end.as_ref().map(|e| widened(e, DAY)),
            ..OpenOptions::default()
        }
    }

    /// Whether a series is kept: by its path as written, or by its English names when it is localized.
    pub fn keeps_series(&self, s: &Series) -> bool {
        if self.patterns.is_empty() {
            return true;
        }
        let folded = FoldedPath::new(&s.parsed);
        self.patterns.iter().any(|p| p.matches_folded(&folded))
    }

    /// The samples kept: within [begin, end] (inclusive, as relog), then every Nth of those.
    pub fn samples(&self, c: &Capture) -> Vec<usize> {
        let lo = self.begin.map_or(f64::NEG_INFINITY, |b| b.utc_ms(c));
        let hi = self.end.map_or(f64::INFINITY, |e| e.utc_ms(c));
        c.timestamps
            .iter()
            .enumerate()
            .filter(|(_, &t)| t >= lo && t <= hi)
            .map(|(k, _)| k)
            .enumerate()
            .filter(|(n, _)| n % self.every.max(1) == 0)
            .map(|(_, k)| k)
            .collect()
    }

    /// The capture cut to the selection (a copy of what is kept; raw samples are dropped when samples
    /// are skipped, since cooking needs each sample's predecessor).
    pub fn apply(&self, c: &Capture) -> Capture {
        let rows = self.samples(c);
        let all_rows = rows.len() == c.timestamps.len();
        let series = c
            .series
            .iter()
            .filter(|s| self.keeps_series(s))
            .map(|s| Series {
                path: s.path.clone(),
                parsed: s.parsed.clone(),
                counter_type: s.counter_type,
                scale: s.scale,
                values: rows.iter().map(|&k| s.values[k]).collect(),
                reference: s
                    .reference
                    .as_ref()
                    .map(|r| rows.iter().map(|&k| r[k]).collect()),
                raw: if all_rows { s.raw.clone() } else { None },
            })
            .collect();
        Capture {
            format: c.format,
            encoding: c.encoding,
            time_zone: c.time_zone.clone(),
            timestamps: rows.iter().map(|&k| c.timestamps[k]).collect(),
            series,
            notes: c.notes.clone(),
        }
    }
}

/// Rows of a log as they stream, with what the selection keeps of them (`Cut::piece`).
pub struct Piece {
    /// The rows' times (ms, UTC).
    pub times: Vec<f64>,
    /// The series kept, each with its values at these rows, by its index among the series the reader
    /// has met (`CaptureReader::take_rows`: it never changes, and later pieces may add series), in the
    /// order of those indices.
    pub series: Vec<(usize, Series)>,
    /// The indices of the series kept so far, in the order the whole capture lists them.
    pub order: Vec<usize>,
    pub time_zone: Option<TimeZone>,
}

impl Piece {
    /// A whole capture (its series in its order) as one piece (the Python binding's `convert`).
    pub fn whole(c: Capture) -> Piece {
        let order = (0..c.series.len()).collect();
        Piece {
            times: c.timestamps,
            series: c.series.into_iter().enumerate().collect(),
            order,
            time_zone: c.time_zone,
        }
    }

    /// The series of index `id`, if it is in the piece (`series` is in the order of the indices).
    pub fn get(&self, id: usize) -> Option<&Series> {
        self.series
            .binary_search_by_key(&id, |(i, _)| *i)
            .ok()
            .map(|k| &self.series[k].1)
    }

    /// The rows as a capture of the series `ids` in that order (a series not met yet: no value).
    pub fn capture(&self, ids: &[usize]) -> Capture {
        let n = self.times.len();
        let series = ids
            .iter()
            .map(|&id| {
                let values = self
                    .get(id)
                    .map_or_else(|| vec![f64::NAN; n], |s| s.values.clone());
                Series::new(String::new(), values)
            })
            .collect();
        Capture {
            format: None,
            encoding: None,
            time_zone: self.time_zone.clone(),
            timestamps: self.times.clone(),
            series,
            notes: Vec::new(),
        }
    }
}

/// The selection applied to a log as it streams, piece by piece: the rows and series `Selection::apply`
/// keeps of the whole read, whatever the pieces.
pub struct Cut<'a> {
    sel: &'a Selection,
    /// The exact window in UTC, known from the first rows (a time without a zone is the log's own).
    window: Option<(f64, f64)>,
    in_window: usize,
    /// Per series met: whether it is kept.
    keep: Vec<bool>,
    /// The first and last times read (before the cut).
    pub span: Option<(f64, f64)>,
    pub rows_read: u64,
    pub rows_kept: u64,
}

impl<'a> Cut<'a> {
    pub fn new(sel: &'a Selection) -> Cut<'a> {
        Cut {
            sel,
            window: None,
            in_window: 0,
            keep: Vec::new(),
            span: None,
            rows_read: 0,
            rows_kept: 0,
        }
    }

    /// How many series are kept of those met.
    pub fn series_kept(&self) -> usize {
        self.keep.iter().filter(|&&k| k).count()
    }

    /// Cuts the rows `c` (a take of the reader: series in the order met) to the selection; `order` is
    /// the order of the series met in the whole capture (`CaptureReader::series_order`).
    pub fn piece(&mut self, c: Capture, order: &[usize]) -> Piece {
        for s in &c.series[self.keep.len().min(c.series.len())..] {
            self.keep.push(self.sel.keeps_series(s));
        }
        if let (Some(&a), Some(&b)) = (c.timestamps.first(), c.timestamps.last()) {
            self.span = Some(self.span.map_or((a, b), |(first, _)| (first, b)));
            if self.window.is_none() {
                let lo = self.sel.begin.map_or(f64::NEG_INFINITY, |t| t.utc_ms(&c));
                let hi = self.sel.end.map_or(f64::INFINITY, |t| t.utc_ms(&c));
                self.window = Some((lo, hi));
            }
        }
        let (lo, hi) = self.window.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let every = self.sel.every.max(1);
        let rows: Vec<usize> = (0..c.timestamps.len())
            .filter(|&k| {
                let t = c.timestamps[k];
                if t < lo || t > hi {
                    return false;
                }
                self.in_window += 1;
                (self.in_window - 1).is_multiple_of(every)
            })
            .collect();
        self.rows_read += c.timestamps.len() as u64;
        self.rows_kept += rows.len() as u64;
        let all = rows.len() == c.timestamps.len();
        let keep = &self.keep;
        let series = c
            .series
            .into_iter()
            .enumerate()
            .filter(|(id, _)| keep[*id])
            .map(|(id, mut s)| {
                if !all {
                    s.values = rows.iter().map(|&k| s.values[k]).collect();
                    s.reference = s.reference.map(|r| rows.iter().map(|&k| r[k]).collect());
                    s.raw = None;
                }
                (id, s)
            })
            .collect();
        Piece {
            times: rows.iter().map(|&k| c.timestamps[k]).collect(),
            series,
            order: order.iter().copied().filter(|&i| keep[i]).collect(),
            time_zone: c.time_zone,
        }
    }
}

/// The machines of a capture (path machines, without `\\`), sorted, distinct.
pub fn machines(c: &Capture) -> Vec<String> {
    let mut m: Vec<String> = c.series.iter().map(|s| s.parsed.machine.clone()).collect();
    m.sort();
    m.dedup();
    m
}

/// Inputs merged into one capture: series by path (first seen first), rows by time (union). Where two
/// inputs give the same series a value at the same time, the earlier input on the command line wins and
/// the clash is counted. Returns the merged capture and messages about overlaps.
pub fn merge(inputs: Vec<(String, Capture)>) -> (Capture, Vec<String>) {
    let mut messages = Vec::new();
    // Overlapping time ranges of inputs that share a machine.
    for i in 0..inputs.len() {
        for j in i + 1..inputs.len() {
            let (a, b) = (&inputs[i].1, &inputs[j].1);
            let (Some(&a0), Some(&a1), Some(&b0), Some(&b1)) = (
                a.timestamps.first(),
                a.timestamps.last(),
                b.timestamps.first(),
                b.timestamps.last(),
            ) else {
                continue;
            };
            let shared: Vec<String> = machines(a)
                .into_iter()
                .filter(|m| machines(b).contains(m))
                .collect();
            if !shared.is_empty() && a0 <= b1 && b0 <= a1 {
                messages.push(format!(
                    "{} and {} overlap from {} to {} (machine {}); where both have a value for a series at the same time, {}'s is kept",
                    inputs[i].0,
                    inputs[j].0,
                    iso_utc(a0.max(b0)),
                    iso_utc(a1.min(b1)),
                    shared.join(", "),
                    inputs[i].0
                ));
            }
        }
    }
    let mut inputs = inputs;
    if inputs.len() <= 1 {
        return (inputs.pop().map_or_else(empty, |(_, c)| c), messages);
    }
    let mut times: Vec<f64> = inputs
        .iter()
        .flat_map(|(_, c)| c.timestamps.iter().copied())
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut series: Vec<Series> = Vec::new();
    let mut clashes = 0usize;
    let mut notes = Vec::new();
    for (_, c) in &inputs {
        let rows: Vec<usize> = c
            .timestamps
            .iter()
            .map(|t| times.partition_point(|x| x < t))
            .collect();
        for s in &c.series {
            let i = *index.entry(s.path.clone()).or_insert_with(|| {
                series.push(Series {
                    path: s.path.clone(),
                    parsed: s.parsed.clone(),
                    counter_type: s.counter_type,
                    scale: s.scale,
                    values: vec![f64::NAN; times.len()],
                    reference: None,
                    raw: None,
                });
                series.len() - 1
            });
            let out = &mut series[i].values;
            for (k, &v) in s.values.iter().enumerate() {
                if v.is_nan() {
                    continue;
                }
                if out[rows[k]].is_nan() {
                    out[rows[k]] = v;
                } else {
                    clashes += 1;
                }
            }
        }
        notes.extend(c.notes.iter().cloned());
    }
    if clashes > 0 {
        messages.push(format!(
            "{clashes} values were given by more than one input for the same series and time; the first input's were kept"
        ));
    }
    let first = &inputs[0].1;
    let zones: Vec<_> = inputs
        .iter()
        .filter_map(|(_, c)| c.time_zone.clone())
        .collect();
    if zones.windows(2).any(|w| w[0] != w[1]) {
        messages.push(format!(
            "the inputs are in different time zones; times are written in the first one's ({})",
            zones[0].name
        ));
    }
    (
        Capture {
            format: first.format,
            encoding: first.encoding,
            time_zone: first.time_zone.clone(),
            timestamps: times,
            series,
            notes,
        },
        messages,
    )
}

fn empty() -> Capture {
    Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: vec![],
        series: vec![],
        notes: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use counterlens::capture::open_capture;

    fn csv(text: &str) -> Capture {
        open_capture(text.as_bytes(), &Default::default()).unwrap()
    }

    const A: &str = "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\H\\Processor(_Total)\\% Processor Time\",\"\\\\H\\Processor(0)\\% Processor Time\",\"\\\\H\\Memory\\Available MBytes\"\r\n\
\"11/21/2026 12:00:00.000\",\"10\",\"11\",\"100\"\r\n\
\"11/21/2026 12:00:01.000\",\"20\",\"21\",\"200\"\r\n\
\"11/21/2026 12:00:02.000\",\"30\",\"31\",\"300\"\r\n\
\"11/21/2026 12:00:03.000\",\"40\",\"41\",\"400\"\r\n\
\"11/21/2026 12:00:04.000\",\"50\",\"51\",\"500\"\r\n";

    #[test]
    fn filters_window_and_every() {
        let c = csv(A);
        let sel = Selection {
            patterns: vec![PathPattern::parse(r"\Processor(_Total)\*").unwrap()],
            begin: crate::time::parse("11/21/2026 12:00:01"),
            end: crate::time::parse("2026-11-21T12:00:04Z"),
            every: 2,
        };
        // Window: samples 1..=4 (12:00:01 to 12:00:04, inclusive); every 2nd of them: 1 and 3.
        assert_eq!(sel.samples(&c), vec![1, 3]);
        let cut = sel.apply(&c);
        assert_eq!(cut.series.len(), 1);
        assert_eq!(cut.series[0].values, vec![20.0, 40.0]);
        assert_eq!(cut.timestamps, vec![c.timestamps[1], c.timestamps[3]]);
    }

    #[test]
    fn merging_appends_and_reports_overlap() {
        let c = csv(A);
        let first = Selection {
            end: crate::time::parse("2026-11-21T12:00:02"),
            every: 1,
            ..Default::default()
        }
        .apply(&c);
        let second = Selection {
            begin: crate::time::parse("2026-11-21T12:00:02"),
            every: 1,
            ..Default::default()
        }
        .apply(&c);
        let (m, msgs) = merge(vec![("a.csv".into(), first), ("b.csv".into(), second)]);
        // 0..=2 and 2..=4 share 12:00:02: five distinct times, one overlap of 3 series at one time.
        assert_eq!(m.timestamps, c.timestamps);
        assert_eq!(m.series[0].values, vec![10.0, 20.0, 30.0, 40.0, 50.0]);
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].contains("a.csv and b.csv overlap") && msgs[0].contains("machine H"));
        assert!(msgs[1].starts_with("3 values"));
    }
}
