//! Binary perfmon logs (`.blg`, Windows Vista and later), read from the bytes with no Windows API.
//!
//! A `.blg` is an ETW trace log (the `.etl` container): fixed-size buffers of events, each event a
//! 48-byte EVENT_TRACE_HEADER and a payload, large payloads split into fragments. PDH's logger writes a
//! counter name table, the counter definitions (the logged paths), one event per sample holding "BL"
//! blocks of raw values (PDH_RAW_COUNTER, instance arrays, or whole PERF_DATA_BLOCKs in winperf.h's
//! layout), and a trailer when the log is closed. `docs/blg.md` is the layout as implemented here, what
//! each part was checked against, and what is still unknown.
//!
//! Written by hand because nothing else reads it: the container is documented (evntrace.h, winperf.h)
//! but no crate parses .etl files outside Windows, and the PDH payload is undocumented. Everything is
//! bounds-checked; anything the layout does not explain is a `CaptureError` naming the buffer and the
//! event's offset, never a guess.
//!
//! Streaming: `BlgReader::push` takes bytes in any chunks, reads each buffer as soon as it is complete,
//! and cooks each raw value as it is read against the series' previous one (its N and D are all that is
//! kept), so only the cooked columns are held, never the file or its raw samples; but every raw sample
//! of the series `OpenOptions::keep_raw` names, so their points can be explained.
//!
//! One file per layer, outermost first:
//! - `container`: ETW buffers, events and fragments, the log header (evntrace.h);
//! - `definitions`: the name table and the logged paths (PDH's own records, `docs/blg.md`);
//! - `samples`: one sample's "BL" blocks, turned into raw samples per series;
//! - `column`: one series, each raw sample cooked on arrival (`compute` and `apply_options`, as `cook`);
//! - `perf_data`: a whole object's PERF_DATA_BLOCK (winperf.h) and the raw values it gives;
//! - `zone`: the log's TIME_ZONE_INFORMATION, local times to UTC;
//! - `bytes`: bounds-checked little-endian and UTF-16LE reads.

mod bytes;
mod column;
mod container;
mod definitions;
mod perf_data;
mod samples;
mod zone;

pub(crate) use container::looks_like_blg;

use super::catalogue::{CatalogueSeries, TimeTally};
use super::{
    part_note, path, Capture, CaptureEncoding, CaptureError, CaptureErrorKind, Catalogue, Format,
    KeepRaw, Note, OpenOptions, SampleFilter, Series,
};
use crate::types::PERF_MULTI_COUNTER;
use column::Column;
use container::{valid_buffer_size, LogHeader, Partial};
use definitions::{Definition, Shape, FLAG_INSTANCES, FLAG_OBJECT};
use perf_data::PerfObject;
use std::collections::HashMap;

/// Per definition: the instance names of the last sample and their columns (per counter for objects),
/// so a sample with the same instances in the same order needs no lookups.
#[derive(Default)]
struct Layout {
    signature: Vec<u8>,
    names: Vec<String>,
    /// Counters per instance (1 for an instance array).
    counters: usize,
    /// The column of counter `j`, instance `i` at `j * names.len() + i`, once it is known.
    columns: Vec<Option<usize>>,
    /// The object's counter types once every series of every counter with values exists in `columns`
    /// (none then needs looking for while the layout and the types stay).
    complete: Option<Vec<u32>>,
}

impl Layout {
    fn column(&self, j: usize, i: usize) -> Option<usize> {
        self.columns
            .get(j * self.names.len() + i)
            .copied()
            .flatten()
    }
}

pub(crate) struct BlgReader {
    buffer_size: usize,
    /// Bytes of a buffer not yet complete.
    pending: Vec<u8>,
    buffers: usize,
    header: Option<LogHeader>,
    partial: Option<Partial>,
    names: HashMap<u32, String>,
    defs: Option<Vec<Definition>>,
    timestamps: Vec<f64>,
    columns: Vec<Column>,
    /// Per definition: instance key -> its column per counter within the object (looked up by `&str`,
    /// with no key built per lookup).
    keys: Vec<HashMap<String, Vec<Option<usize>>>>,
    /// For each definition, how many instances have been seen (the next instance's order).
    seen: Vec<usize>,
    layouts: Vec<Layout>,
    trailer_samples: Option<u32>,
    empty_buffers: usize,
    /// Events not PDH's that were skipped: (header type, hook id, first at byte, how many).
    skipped: Vec<(u8, u16, usize, usize)>,
    bad_status: usize,
    unnamed: Vec<u32>,
    first_local_ms: Option<f64>,
    /// The previous sample's local time, and whether the clock has gone back into the repeated hour.
    last_local_ms: Option<f64>,
    fell_back: bool,
    /// The first and the latest bias used, the previous sample's, and how often it changed.
    biases: Option<(i32, i32)>,
    last_bias: Option<i32>,
    bias_changes: usize,
    /// Scratch space for a sample's instance signature.
    signature: Vec<u8>,
    /// The last PERF_DATA_BLOCK's objects, whose vectors the next one reuses.
    objects: Vec<PerfObject>,
    /// A joined record's bytes, kept for the next record of several fragments.
    joined: Vec<u8>,
    /// The input's size when known, and the samples it should hold once a few show their size.
    size_hint: Option<usize>,
    expected_samples: usize,
    /// Where the first sample's record and the one being read start (bytes into the file).
    first_sample_at: usize,
    record_at: usize,
    /// Which series keep every raw sample.
    keep_raw: KeepRaw,
    /// Which series and samples are read (`OpenOptions::series`, `from_ms`, `to_ms`, `every`), and the
    /// columns' budget.
    options: OpenOptions,
    samples_kept: SampleFilter,
    /// Per definition: whether any of its series can be wanted (a block no pattern can match is skipped
    /// whole).
    wanted: Vec<bool>,
    /// Samples in the log (read or not), and series left out by `options.series`.
    samples_seen: usize,
    series_skipped: usize,
    /// Bytes one more sample takes in all columns (the timestamp, a value per series, a raw record per
    /// series that keeps raw samples), and the columns' capacity in bytes.
    per_sample: usize,
    /// A catalogue pass (`count_only`): the samples' times tallied, none kept.
    counting: Option<TimeTally>,
    /// Samples read and already taken out (`take_rows`): the samples read so far are these and
    /// `timestamps`.
    taken: usize,
}

/// The column of a series that is not read (`OpenOptions::series`): known, so it is never looked for
/// again, but never stored.
pub(super) const SKIPPED: usize = usize::MAX;

impl BlgReader {
    pub fn new() -> BlgReader {
        BlgReader {
            buffer_size: 0,
            pending: Vec::new(),
            buffers: 0,
            header: None,
            partial: None,
            names: HashMap::new(),
            defs: None,
            timestamps: Vec::new(),
            columns: Vec::new(),
            keys: Vec::new(),
            seen: Vec::new(),
            layouts: Vec::new(),
            trailer_samples: None,
            empty_buffers: 0,
            skipped: Vec::new(),
            bad_status: 0,
            unnamed: Vec::new(),
            first_local_ms: None,
            last_local_ms: None,
            fell_back: false,
            biases: None,
            last_bias: None,
            bias_changes: 0,
            signature: Vec::new(),
            objects: Vec::new(),
            joined: Vec::new(),
            size_hint: None,
            expected_samples: 0,
            first_sample_at: 0,
            record_at: 0,
            keep_raw: KeepRaw::None,
            options: OpenOptions::default(),
            samples_kept: SampleFilter::default(),
            wanted: Vec::new(),
            samples_seen: 0,
            series_skipped: 0,
            per_sample: 8,
            counting: None,
            taken: 0,
        }
    }

    /// A catalogue pass: each series counts its raw values, none is cooked or stored, and the samples'
    /// times are tallied, not kept (`CatalogueReader`).
    pub fn count_only(&mut self) {
        self.counting = Some(TimeTally::default());
    }

    /// Samples read so far (kept, or counted), those taken out (`take_rows`) included.
    pub(super) fn samples_read(&self) -> usize {
        self.counting
            .as_ref()
            .map_or(self.taken + self.timestamps.len(), |t| t.rows)
    }

    /// The index of the next sample in the columns: the samples read but those taken out.
    pub(super) fn next_sample(&self) -> usize {
        self.samples_read() - self.taken
    }

    /// Counts an event of the trace's machinery that the reader skips (the first of each type is
    /// remembered for the note).
    fn skipped_event(&mut self, header_type: u8, hook: u16, at: usize) {
        match self
            .skipped
            .iter_mut()
            .find(|s| (s.0, s.1) == (header_type, hook))
        {
            Some(s) => s.3 += 1,
            None => self.skipped.push((header_type, hook, at, 1)),
        }
    }

    /// Which series keep every raw sample (`Series::raw`), which series and samples are read, and the
    /// columns' budget.
    pub fn options(&mut self, options: &OpenOptions) {
        self.keep_raw = options.keep_raw.clone();
        self.options = options.clone();
        if let Some(size) = options.size_hint.filter(|_| !options.skips_samples()) {
            // A window or every Nth sample reads a part of the samples: columns grow as they fill.
            self.expect_bytes(size);
        }
    }

    /// The input's total size (a File's size): once the first samples show how many bytes a sample
    /// takes, every column is reserved for the whole log, so none is copied by doubling.
    pub fn expect_bytes(&mut self, size: usize) {
        self.size_hint = Some(size);
    }

    /// A first guess at the samples, from the first sample's bytes alone (its record, without the event
    /// headers around it: a guess on the high side), so that every series made in the first sample is
    /// allocated once, at its size, rather than grown and then moved by `reserve`.
    fn guess(&mut self, first_sample: usize) {
        let Some(size) = self.size_hint else {
            return;
        };
        // Samples are at least 64 bytes: a hostile size hint cannot make this reserve without bound.
        let expected = size / first_sample.max(64);
        // Within the budget, counting a series for every 4 bytes of the sample (a PERF_DATA_BLOCK's
        // counters take 4 or 8): an estimate on the high side, refined after 16 samples.
        let fits = self.options.column_budget() / (8 + 2 * first_sample);
        self.expected_samples = (expected + expected / 50 + 16).min(fits.max(16));
        self.timestamps.reserve_exact(self.expected_samples);
    }

    /// The estimate once 16 samples are read; columns reserved by the first guess are not moved unless
    /// they need more room.
    fn reserve(&mut self) {
        let Some(size) = self.size_hint.take() else {
            return;
        };
        // Bytes per sample from the bytes the samples so far took, from the first sample's record to this
        // one's (buffer headers and padding included; not the name table's and definitions').
        let read = self.record_at.saturating_sub(self.first_sample_at);
        let per_sample = (read / self.timestamps.len().max(1)).max(1);
        // Samples are at least 64 bytes: a hostile size hint cannot make this reserve without bound.
        let expected = (size / per_sample).min(size / 64);
        let fits = self.options.column_budget() / self.per_sample.max(1);
        self.expected_samples =
            (expected + expected / 50 + 16).min(fits.max(self.timestamps.len()));
        let extra = self.expected_samples.saturating_sub(self.timestamps.len());
        self.timestamps.reserve_exact(extra);
        for c in &mut self.columns {
            c.reserve(extra);
        }
    }

    /// Reads a chunk: every buffer it completes is read at once.
    pub fn push(&mut self, mut chunk: &[u8]) -> Result<(), CaptureError> {
        if self.buffer_size == 0 {
            let need = 4usize.saturating_sub(self.pending.len()).min(chunk.len());
            self.pending.extend_from_slice(&chunk[..need]);
            chunk = &chunk[need..];
            if self.pending.len() < 4 {
                return Ok(());
            }
            let size = u32::from_le_bytes([
                self.pending[0],
                self.pending[1],
                self.pending[2],
                self.pending[3],
            ]) as usize;
            if !valid_buffer_size(size) {
                return Err(CaptureError::at_offset(CaptureErrorKind::BadBlg, 0, format!("expected the first buffer's size (a whole number of KiB, 4 KiB to 16 MiB), found {size} bytes")));
            }
            self.buffer_size = size;
        }
        let n = self.buffer_size;
        if !self.pending.is_empty() {
            let need = (n - self.pending.len()).min(chunk.len());
            self.pending.extend_from_slice(&chunk[..need]);
            chunk = &chunk[need..];
            if self.pending.len() < n {
                return Ok(());
            }
            let buffer = std::mem::take(&mut self.pending);
            self.buffer(&buffer)?;
        }
        let mut whole = chunk.chunks_exact(n);
        for buffer in &mut whole {
            self.buffer(buffer)?;
        }
        self.pending.extend_from_slice(whole.remainder());
        Ok(())
    }

    /// The samples read since the last take, taken out (`CaptureReader::take_rows`): their times and
    /// every series met so far, in the order first met (a series keeps its index from one take to the
    /// next; `series_order` gives the order the capture lists them in); None before the log's header
    /// and definitions are read, and in a catalogue pass. No room is reserved for the whole log any more.
    pub fn take_rows(&mut self) -> Option<Capture> {
        if self.counting.is_some() {
            return None;
        }
        let header = self.header.as_ref()?;
        self.defs.as_ref()?;
        self.size_hint = None;
        let samples = self.timestamps.len();
        self.taken += samples;
        let time_zone = Some(header.zone.at(self.first_local_ms.unwrap_or(0.0)));
        let series = self
            .columns
            .iter_mut()
            .map(|c| {
                let (values, raw) = c.take(samples);
                Series {
                    parsed: path::parse(&c.path).unwrap_or_default(),
                    path: c.path.clone(),
                    counter_type: Some(c.type_value()),
                    scale: Some(c.scale),
                    values,
                    reference: None,
                    raw,
                }
            })
            .collect();
        let timestamps = self.timestamps.clone();
        self.timestamps.clear();
        Some(Capture {
            format: Some(Format::Blg),
            encoding: Some(CaptureEncoding::Binary),
            time_zone,
            timestamps,
            series,
            notes: Vec::new(),
        })
    }

    /// The series met so far (`take_rows`' order) in the order the capture lists them: by definition,
    /// counter, then instance in the order first seen.
    pub fn series_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.columns.len()).collect();
        order.sort_by_key(|&i| self.columns[i].order);
        order
    }

    /// The capture, once every chunk has been pushed.
    pub fn finish(self) -> Result<Capture, CaptureError> {
        self.finish_rows(true).map(|(c, _)| c)
    }

    /// The rest of the samples and the notes; the series in the capture's order when `sorted`, else in
    /// the order first met (`take_rows`' order), with the capture's order of those (`series_order`).
    pub fn finish_rows(mut self, sorted: bool) -> Result<(Capture, Vec<usize>), CaptureError> {
        // The notes count every sample read; the columns hold those since the last take.
        let (notes, time_zone, _) = self.end()?;
        let held = self.timestamps.len();
        let order = if sorted {
            self.columns.sort_by_key(|c| c.order);
            (0..self.columns.len()).collect()
        } else {
            self.series_order()
        };
        let series = self
            .columns
            .into_iter()
            .map(|mut c| {
                let raw = c.take_raw(held);
                let (parsed, counter_type, scale) = (
                    path::parse(&c.path).unwrap_or_default(),
                    c.type_value(),
                    c.scale,
                );
                let path = c.path.clone();
                Series {
                    parsed,
                    path,
                    counter_type: Some(counter_type),
                    scale: Some(scale),
                    values: c.finish(held),
                    reference: None,
                    raw,
                }
            })
            .collect();
        let capture = Capture {
            format: Some(Format::Blg),
            encoding: Some(CaptureEncoding::Binary),
            time_zone,
            timestamps: self.timestamps,
            series,
            notes,
        };
        Ok((capture, order))
    }

    /// The catalogue of a catalogue pass (`count_only`), once every chunk has been pushed; `bytes` is
    /// the input's size.
    pub fn finish_catalogue(mut self, bytes: usize) -> Result<Catalogue, CaptureError> {
        let (notes, time_zone, _) = self.end()?;
        let times = self.counting.take().unwrap_or_default();
        self.columns.sort_by_key(|c| c.order);
        Ok(Catalogue {
            format: Format::Blg,
            encoding: CaptureEncoding::Binary,
            time_zone,
            series: self
                .columns
                .iter()
                .map(|c| CatalogueSeries {
                    parsed: path::parse(&c.path).unwrap_or_default(),
                    path: c.path.clone(),
                    counter_type: Some(c.type_value()),
                    samples: c.counted(),
                })
                .collect(),
            rows: times.rows,
            first_ms: times.first,
            last_ms: times.last,
            notes,
            bytes,
        })
    }

    /// Reads the last partial buffer and checks the log is one: its notes, time zone and samples read.
    fn end(&mut self) -> Result<(Vec<Note>, Option<super::TimeZone>, usize), CaptureError> {
        let n = self.buffer_size.max(1);
        // A file cut short (a copy that stopped, an upload that broke, a log still being written) ends
        // inside a buffer: every complete event of that buffer is read too, and a note says where it ends.
        let truncated = (!self.pending.is_empty()).then(|| {
            (
                self.buffers,
                self.pending.len(),
                self.buffers * n + self.pending.len(),
            )
        });
        if !self.pending.is_empty() && self.buffer_size > 0 {
            let partial = std::mem::take(&mut self.pending);
            self.buffer(&partial)?;
        }
        // Cut exactly at a buffer's edge: only the header's count of buffers written tells.
        let boundary = match (&truncated, &self.header) {
            (None, Some(h)) if h.buffers_written as usize > self.buffers => {
                Some((h.buffers_written as usize, self.buffers * n))
            }
            _ => None,
        };
        // Where the file was cut, for an error: said first, since it is why the rest is missing.
        let cut_at = |what: &str| {
            match (truncated, boundary) {
            (Some((buffer, into, at)), _) => Some(format!(
                "the file is cut short: it is truncated at byte {at} ({into} bytes into buffer {buffer}) {what}"
            )),
            (None, Some((written, at))) => Some(format!(
                "the file is cut short: it is truncated at byte {at} (a buffer boundary: its header says {written} buffers of {n} bytes were written, the file holds {}) {what}",
                at / n
            )),
            _ => None,
        }
        };
        let end = truncated.map_or(boundary.map_or(n, |b| b.1), |t| t.2);
        let Some(header) = self.header.take() else {
            return Err(CaptureError::at_offset(
                CaptureErrorKind::Empty,
                end.min(n),
                match cut_at("inside the log's first buffer, before its header is complete") {
                    Some(cut) => cut,
                    None => "expected at least the log's first buffer and its header".into(),
                },
            ));
        };
        if self.defs.is_none() {
            return Err(CaptureError::at_offset(
                CaptureErrorKind::NoRows,
                end,
                match cut_at(
                    "before the log's counter definitions, without which no value can be read",
                ) {
                    Some(cut) => cut,
                    None => "the log holds no counter definitions: nothing was logged".into(),
                },
            ));
        }
        let samples = self.samples_read();
        if samples == 0 && self.samples_seen > 0 {
            return Err(CaptureError::invalid_option(
                if self.options.from_ms.is_some() || self.options.to_ms.is_some() {
                    "from"
                } else {
                    "every"
                },
                format!(
                    "none of the log's {} samples is in the window asked for",
                    self.samples_seen
                ),
            ));
        }
        if self.columns.is_empty() && self.options.series.is_some() {
            let defs: Vec<String> = self
                .defs
                .iter()
                .flatten()
                .take(3)
                .map(|d| d.path(d.parent.as_deref(), d.instance.as_deref(), &d.counter))
                .collect();
            return Err(CaptureError::invalid_option(
                "series",
                format!(
                    "none of the log's series matches the paths asked for (its counters: {}{})",
                    defs.join(", "),
                    if self.defs.as_ref().is_some_and(|d| d.len() > 3) {
                        ", ..."
                    } else {
                        ""
                    }
                ),
            ));
        }
        if samples == 0 {
            return Err(CaptureError::at_offset(
                CaptureErrorKind::NoRows,
                end,
                match cut_at("before the first sample is complete") {
                    Some(cut) => cut,
                    None => "the log defines counters but holds no complete sample".into(),
                },
            ));
        }
        let notes = self.notes(&header, samples, truncated);
        let time_zone = Some(header.zone.at(self.first_local_ms.unwrap_or(0.0)));
        Ok((notes, time_zone, samples))
    }

    /// What the reader says about the log beside its values: its origin, and everything it kept,
    /// assumed or left out (each a `Note` with a stable code).
    fn notes(
        &mut self,
        header: &LogHeader,
        samples: usize,
        truncated: Option<(usize, usize, usize)>,
    ) -> Vec<Note> {
        let n = self.buffer_size.max(1);
        let mut notes = vec![Note {
            code: "blg",
            message: format!("binary perfmon log from Windows {}.{} build {} ({}-bit logger), {samples} samples; values cooked by counterlens as relog and Perfmon show them (no value where a counter needs two samples and has one)",
                header.version.0, header.version.1, header.build, header.pointer_size * 8),
            line: None,
        }];
        if let Some((buffer, into, at)) = truncated {
            notes.push(Note { code: "truncated", message: format!("the file is truncated at byte {at} ({into} bytes into buffer {buffer} of {n} bytes: a copy that stopped, or a log still being written); the {samples} complete samples before it were read"), line: None });
        } else if header.buffers_written as usize > self.buffers {
            // Cut at a buffer's edge: only the header's count of buffers written tells.
            notes.push(Note { code: "truncated", message: format!("the file is truncated at byte {} (a buffer boundary): its header says {} buffers of {n} bytes were written, the file holds {}; the {samples} complete samples before the cut were read", self.buffers * n, header.buffers_written, self.buffers), line: None });
        }
        if let Some(p) = &self.partial {
            notes.push(Note { code: "cut-short", message: format!("the last record (started in buffer {} at +{:#x}) has {} of its {} fragments: the log was not closed; it is left out", p.at.0, p.at.1, p.next - 1, p.count), line: None });
        }
        match self.trailer_samples {
            // Without a trailer but with every buffer whole, nothing is lost: Windows reads such a log
            // whole too (BasicPerfCounters, Microsoft's own sample). A cut is its own note above.
            None if truncated.is_none() && self.partial.is_none() && header.buffers_written as usize <= self.buffers => notes.push(Note { code: "not-closed", message: format!("not closed (all {} samples read): the log has no trailer, as when the logger was stopped without closing it or the file was copied while logging; every buffer is whole, so no value is lost", self.samples_seen), line: None }),
            None => notes.push(Note { code: "not-closed", message: format!("not closed: the log has no trailer (the logger stopped, or the file was copied while logging); the {samples} complete samples were read"), line: None }),
            Some(t) if t as usize != self.samples_seen => notes.push(Note { code: "sample-count", message: format!("the trailer counts {t} samples; the log holds {}", self.samples_seen), line: None }),
            Some(_) => {}
        }
        let whole_objects_left = self.wanted.contains(&false);
        if self.series_skipped > 0 || whole_objects_left || samples < self.samples_seen {
            let of = (!whole_objects_left).then_some(self.columns.len() + self.series_skipped);
            notes.push(part_note(
                self.columns.len(),
                of,
                samples,
                self.samples_seen,
            ));
        }
        if self.empty_buffers > 0 {
            notes.push(Note {
                code: "empty-buffers",
                message: format!(
                    "{} buffers hold no data (space the logger set aside)",
                    self.empty_buffers
                ),
                line: None,
            });
        }
        if !self.skipped.is_empty() {
            let kinds: Vec<String> = self
                .skipped
                .iter()
                .map(|&(t, hook, at, count)| {
                    let what = if matches!(t, 0x12 | 0x13) {
                        format!("header type {t:#04x}")
                    } else {
                        format!("header type {t:#04x} hook {hook:#06x}")
                    };
                    format!("{count} x {what} (first at byte {at})")
                })
                .collect();
            notes.push(Note { code: "logger-events", message: format!("events of the trace's logger that hold no counter data were skipped: {} (Windows Server 2019 writes one after the log header)", kinds.join(", ")), line: None });
        }
        if self.bad_status > 0 {
            notes.push(Note { code: "bad-status", message: format!("{} raw values carried an error status (PDH CStatus with the top bit set); they are gaps", self.bad_status), line: None });
        }
        self.unnamed.sort_unstable();
        self.unnamed.dedup();
        if let Some(defs) = &self.defs {
            let multi: Vec<String> = defs
                .iter()
                .filter(|d| d.shape == Shape::Instances && d.counter_type & PERF_MULTI_COUNTER != 0)
                .map(|d| format!("{}(*)\\{}", d.object, d.counter))
                .collect();
            if !multi.is_empty() {
                notes.push(Note { code: "multi-unknown", message: format!("{} are MULTI timers logged as instance arrays, whose entries carry no MultiCount: they have no values rather than guessed ones", multi.join(", ")), line: None });
            }
        }
        if let Some(defs) = &self.defs {
            let known = FLAG_OBJECT | FLAG_INSTANCES;
            let flagged: Vec<&Definition> = defs.iter().filter(|d| d.flags & !known != 0).collect();
            if !flagged.is_empty() {
                let bits = flagged.iter().fold(0, |a, d| a | (d.flags & !known));
                notes.push(Note { code: "definition-flags", message: format!("{} of the {} counter definitions carry flag bits {bits:#x} besides the known 0x1 (instances) and 0x10 (whole object); their meaning is not known (PowerShell's Export-Counter sets 0x20000000) and they change nothing in how values are read", flagged.len(), defs.len()), line: None });
            }
        }
        if !self.unnamed.is_empty() {
            notes.push(Note { code: "unnamed-counters", message: format!("{} counter name indexes are not in the log's name table; those counters are named \"Counter <index>\"", self.unnamed.len()), line: None });
        }
        if let Some((first, last)) = self.biases.filter(|_| self.bias_changes > 0) {
            notes.push(Note { code: "dst-change", message: format!("daylight saving time starts or ends within the log (the bias goes from {first} to {last} minutes{}): times are UTC throughout and in order; CSV exports write local times with the zone of the first sample", if self.bias_changes > 1 { format!(", changing {} times", self.bias_changes) } else { String::new() }), line: None });
        }
        notes
    }
}
