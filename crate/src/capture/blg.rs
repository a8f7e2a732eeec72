//! Binary perfmon logs (`.blg`, Windows Vista and later), read from the bytes with no Windows API.
//!
//! A `.blg` is an ETW trace log (the `.etl` container): fixed-size buffers of events, each event a
//! 48-byte EVENT_TRACE_HEADER and a payload, large payloads split into fragments. PDH's logger writes a
//! counter name table, the counter definitions (the logged paths), one event per sample holding "BL"
//! blocks of raw values (PDH_RAW_COUNTER, instance arrays, or whole PERF_DATA_BLOCKs in winperf.h's
//! layout), and a trailer when the log is closed. `docs/blg.md` is the layout as implemented here, what
//! each part was checked against, and what is still unknown; `../shared/reference/blg-format.md` is where
//! it was first established.
//!
//! Written by hand because nothing else reads it: the container is documented (evntrace.h, winperf.h)
//! but no crate parses .etl files outside Windows, and the PDH payload is undocumented. Everything is
//! bounds-checked; anything the layout does not explain is a `CaptureError` naming the buffer and the
//! event's offset, never a guess.
//!
//! Streaming: `BlgReader::push` takes bytes in any chunks, reads each buffer as soon as it is complete,
//! and cooks each sample against the previous one at once, so only the cooked columns and one raw sample
//! per series are held, never the file.

use super::limits::{MAX_COLUMNS, MAX_LINE};
use super::{path, Capture, CaptureError, Note, Series, TimeZone};
use crate::civil::days_from_civil;
use crate::cook::{cook, CookOptions, Cooked, RawSample, Status};
use crate::types::{CounterType, Formula};
use std::collections::HashMap;

/// PDH's logger provider, {933f3bb3-943e-490d-9ced-3cbb14c14479}, in the byte order of a GUID in memory.
const PDH_PROVIDER: [u8; 16] = [
    0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79,
];
/// The WMI_BUFFER_HEADER at the start of every buffer.
const BUFFER_HEADER: usize = 0x48;
/// EVENT_TRACE_HEADER, the same 48 bytes from 32-bit and 64-bit loggers.
const EVENT_HEADER: usize = 0x30;
/// The payload's preamble: session GUID, fragment index, fragment count.
const PREAMBLE: usize = 0x18;
/// FILETIME of 1970-01-01 (100 ns units since 1601).
const UNIX_EPOCH_FILETIME: i64 = 116_444_736_000_000_000;

const EVENT_DEFINITIONS: u8 = 0x20;
const EVENT_SAMPLE: u8 = 0x22;
const EVENT_TRAILER: u8 = 0x23;
const EVENT_NAMES: u8 = 0x24;

/// Does `b` start like a .blg: a buffer size, then the logger's system header event at 0x48?
pub(crate) fn looks_like_blg(b: &[u8]) -> bool {
    b.len() >= BUFFER_HEADER + 4
        && valid_buffer_size(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        && matches!(b[0x4A], 1 | 2)
        && b[0x4B] == 0xC0
}

/// ETW buffers are whole KiB, at least 4 KiB and at most 16 MiB.
fn valid_buffer_size(n: usize) -> bool {
    (0x1000..=0x100_0000).contains(&n) && n % 0x400 == 0
}

// Little-endian reads that fail with what they were reading instead of panicking.
fn get<const N: usize>(b: &[u8], at: usize, what: &str) -> Result<[u8; N], String> {
    at.checked_add(N)
        .and_then(|end| b.get(at..end))
        .map(|s| s.try_into().unwrap_or([0; N]))
        .ok_or_else(|| {
            format!(
                "expected {what} ({N} bytes) at +{at:#x}, but the block ends at +{:#x}",
                b.len()
            )
        })
}
fn u16_at(b: &[u8], at: usize, what: &str) -> Result<u16, String> {
    get::<2>(b, at, what).map(u16::from_le_bytes)
}
fn u32_at(b: &[u8], at: usize, what: &str) -> Result<u32, String> {
    get::<4>(b, at, what).map(u32::from_le_bytes)
}
fn i32_at(b: &[u8], at: usize, what: &str) -> Result<i32, String> {
    get::<4>(b, at, what).map(i32::from_le_bytes)
}
fn u64_at(b: &[u8], at: usize, what: &str) -> Result<u64, String> {
    get::<8>(b, at, what).map(u64::from_le_bytes)
}

/// Longest instance name read, in UTF-16 units (PDH's own limit is far below). Names of an instance
/// array may all point at the same bytes: without a bound, a block of a million entries pointing at one
/// long name would be scanned a million times over.
const MAX_NAME_UNITS: usize = 4096;

/// UTF-16LE bytes up to their first NUL unit (all of them if there is none).
fn before_nul(b: &[u8]) -> &[u8] {
    let units = b
        .chunks_exact(2)
        .position(|c| c == [0, 0])
        .unwrap_or(b.len() / 2);
    &b[..2 * units]
}

/// The text of UTF-16LE bytes (unpaired surrogates become U+FFFD).
fn utf16_text(b: &[u8]) -> String {
    let units: Vec<u16> = b
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16_lossy(&units)
}

/// The bytes of a NUL-terminated UTF-16LE string starting at `at`, without the NUL, at most
/// `max_units` long (`usize::MAX`: up to the end of `b`).
fn utf16z_bytes<'b>(
    b: &'b [u8],
    at: usize,
    what: &str,
    max_units: usize,
) -> Result<&'b [u8], String> {
    let rest = b.get(at..).ok_or_else(|| {
        format!(
            "expected {what} (UTF-16 text) at +{at:#x}, past the end +{:#x}",
            b.len()
        )
    })?;
    let window = &rest[..rest
        .len()
        .min(max_units.saturating_add(1).saturating_mul(2))];
    let len = window.chunks_exact(2).position(|c| c == [0, 0]).ok_or_else(|| match max_units {
        usize::MAX => format!("expected {what} at +{at:#x} to end with a NUL before +{:#x}", b.len()),
        m => format!("expected {what} at +{at:#x} to end with a NUL within {m} characters and before +{:#x}", b.len()),
    })?;
    Ok(&rest[..2 * len])
}

/// A NUL-terminated UTF-16LE string starting at `at`, and the offset after its NUL.
fn utf16z(b: &[u8], at: usize, what: &str) -> Result<(String, usize), String> {
    let bytes = utf16z_bytes(b, at, what, usize::MAX)?;
    Ok((utf16_text(bytes), at + bytes.len() + 2))
}

/// A SYSTEMTIME as TIME_ZONE_INFORMATION uses it: a transition rule ("the wDay-th wDayOfWeek of
/// wMonth at wHour:wMinute", wDay 5 = the last) when wYear is 0, a date otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Transition {
    year: u16,
    month: u16,
    day_of_week: u16,
    day: u16,
    hour: u16,
    minute: u16,
}

impl Transition {
    fn read(b: &[u8], at: usize) -> Result<Transition, String> {
        let f = |i: usize| u16_at(b, at + 2 * i, "a SYSTEMTIME field");
        Ok(Transition {
            year: f(0)?,
            month: f(1)?,
            day_of_week: f(2)?,
            day: f(3)?,
            hour: f(4)?,
            minute: f(5)?,
        })
    }

    /// Local ms since the epoch of the transition in `year`; None for no rule or one out of range.
    fn in_year(&self, year: i64) -> Option<f64> {
        if !(1..=12).contains(&self.month) || self.hour > 23 || self.minute > 59 {
            return None;
        }
        let month = u32::from(self.month);
        let dim = crate::civil::days_in_month(year, month);
        let day = if self.year != 0 {
            u32::from(self.day).clamp(1, dim)
        } else {
            // 1970-01-01 was a Thursday (4, counting from Sunday 0).
            let first = days_from_civil(year, month, 1);
            let first_dow = (first + 4).rem_euclid(7) as u32;
            let wanted = u32::from(self.day_of_week % 7);
            let mut d =
                1 + (wanted + 7 - first_dow) % 7 + 7 * (u32::from(self.day.clamp(1, 5)) - 1);
            while d > dim {
                d -= 7;
            }
            d
        };
        let days = days_from_civil(year, month, day) as f64;
        Some(
            days * 86_400_000.0
                + f64::from(self.hour) * 3_600_000.0
                + f64::from(self.minute) * 60_000.0,
        )
    }
}

/// The log's TIME_ZONE_INFORMATION: UTC = local + bias (+ the standard or daylight bias).
#[derive(Clone, Debug, Default, PartialEq)]
struct Zone {
    bias: i32,
    standard_name: String,
    standard_date: Transition,
    standard_bias: i32,
    daylight_name: String,
    daylight_date: Transition,
    daylight_bias: i32,
}

impl Zone {
    fn read(b: &[u8], at: usize) -> Result<Zone, String> {
        let name = |o: usize| -> Result<String, String> {
            let raw = b
                .get(at + o..at + o + 64)
                .ok_or("expected a 32-character zone name")?;
            Ok(utf16_text(before_nul(raw)))
        };
        Ok(Zone {
            bias: i32_at(b, at, "the zone's Bias")?,
            standard_name: name(4)?,
            standard_date: Transition::read(b, at + 68)?,
            standard_bias: i32_at(b, at + 84, "the zone's StandardBias")?,
            daylight_name: name(88)?,
            daylight_date: Transition::read(b, at + 152)?,
            daylight_bias: i32_at(b, at + 168, "the zone's DaylightBias")?,
        })
    }

    /// Is local wall-clock time `local_ms` in daylight saving time? Wall times in the hour a change
    /// repeats are read as daylight time, the hour a change skips as standard time (docs/blg.md).
    fn is_daylight(&self, local_ms: f64) -> bool {
        if self.daylight_date.month == 0 || self.standard_date.month == 0 {
            return false;
        }
        let year = crate::civil::civil_from_days((local_ms / 86_400_000.0).floor() as i64).0;
        let (Some(start), Some(end)) = (
            self.daylight_date.in_year(year),
            self.standard_date.in_year(year),
        ) else {
            return false;
        };
        // `end` is written in daylight time: the wall clock reads `end` just before it goes back.
        if start < end {
            local_ms >= start && local_ms < end
        } else {
            local_ms >= start || local_ms < end
        }
    }

    /// Is local time `local_ms` in the hour (the DaylightBias's worth) that the change back to standard
    /// time repeats: wall times the clock shows once in daylight time and again in standard time?
    fn in_repeated_hour(&self, local_ms: f64) -> bool {
        if self.daylight_date.month == 0 || self.standard_date.month == 0 {
            return false;
        }
        let year = crate::civil::civil_from_days((local_ms / 86_400_000.0).floor() as i64).0;
        let Some(end) = self.standard_date.in_year(year) else {
            return false;
        };
        let back = f64::from(self.standard_bias - self.daylight_bias) * 60_000.0;
        back > 0.0 && local_ms >= end - back && local_ms < end
    }

    /// Minutes to add to local time to get UTC at local time `local_ms`.
    fn bias_at(&self, local_ms: f64) -> i32 {
        self.bias
            + if self.is_daylight(local_ms) {
                self.daylight_bias
            } else {
                self.standard_bias
            }
    }

    /// The zone as the capture model names it, at local time `local_ms`. Windows logs name zones by a
    /// tzres.dll resource ("@tzres.dll,-112") that only Windows can resolve, so those are named by offset.
    fn at(&self, local_ms: f64) -> TimeZone {
        let bias = self.bias_at(local_ms);
        let name = if self.is_daylight(local_ms) {
            &self.daylight_name
        } else {
            &self.standard_name
        };
        let name = if name.is_empty() || name.starts_with('@') {
            let east = -bias;
            format!(
                "UTC{}{:02}:{:02}",
                if east < 0 { '-' } else { '+' },
                east.abs() / 60,
                east.abs() % 60
            )
        } else {
            name.clone()
        };
        TimeZone {
            name,
            bias_minutes: bias,
        }
    }
}

/// What buffer 0 says about the log.
#[derive(Clone, Debug)]
struct LogHeader {
    pointer_size: usize,
    version: (u8, u8),
    build: u32,
    zone: Zone,
}

/// Definition flag: the path is an instance wildcard `Object(*)\Counter`, logged as an instance array.
const FLAG_INSTANCES: u32 = 0x1;
/// Definition flag: the path is a whole object `Object(*)\*`, logged as a PERF_DATA_BLOCK.
const FLAG_OBJECT: u32 = 0x10;

/// A definition's shape: one raw counter, an instance array `(*)`, or a whole object `(*)\*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Single,
    Instances,
    Object,
}

/// One logged path (a record of the definitions event).
#[derive(Clone, Debug)]
struct Definition {
    shape: Shape,
    /// The flags word as written: 0x1 and 0x10 set the shape; any other bit is unknown, kept for a note.
    flags: u32,
    counter_type: u32,
    frequency: u64,
    scale: i32,
    machine: String,
    object: String,
    instance: Option<String>,
    parent: Option<String>,
    instance_index: u32,
    counter: String,
}

impl Definition {
    /// The path of one series of this definition.
    fn path(&self, parent: Option<&str>, instance: Option<&str>, counter: &str) -> String {
        let machine = if self.machine.is_empty() {
            String::new()
        } else if self.machine.starts_with("\\\\") {
            self.machine.clone()
        } else {
            format!("\\\\{}", self.machine)
        };
        match instance {
            Some(i) => match parent {
                Some(p) => format!("{machine}\\{}({p}/{i})\\{counter}", self.object),
                None => format!("{machine}\\{}({i})\\{counter}", self.object),
            },
            None => format!("{machine}\\{}\\{counter}", self.object),
        }
    }
}

/// A series being read: where it comes from, how it cooks, and its column.
struct Column {
    /// Sort key: definition, counter within the object, order the instance was first seen.
    order: (usize, usize, usize),
    path: String,
    ty: CounterType,
    two_samples: bool,
    /// AVERAGE_TIMER or AVERAGE_BULK.
    average: bool,
    type_value: u32,
    scale: i32,
    values: Vec<f64>,
    /// The newest raw sample and the sample number it belongs to.
    last: Option<(usize, RawSample)>,
}

/// Fragments of one record being joined.
struct Partial {
    kind: u8,
    count: u32,
    next: u32,
    timestamp: u64,
    /// Where its first fragment was (buffer, offset in the buffer).
    at: (usize, usize),
    data: Vec<u8>,
}

/// A joined record and where its first fragment was.
struct Record<'a> {
    kind: u8,
    timestamp: u64,
    at: (usize, usize),
    data: &'a [u8],
}

/// Per definition: the instance names of the last sample and their columns (per counter for objects),
/// so a sample with the same instances in the same order needs no lookups.
#[derive(Default)]
struct Layout {
    signature: Vec<u8>,
    names: Vec<String>,
    columns: Vec<Vec<Option<usize>>>,
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
    /// (definition, counter within the object, instance key) -> column.
    keys: HashMap<(usize, usize, String), usize>,
    /// For each definition, how many instances have been seen (the next instance's order).
    seen: Vec<usize>,
    layouts: Vec<Layout>,
    trailer_samples: Option<u32>,
    empty_buffers: usize,
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
    /// The input's size when known, and the samples it should hold once a few show their size.
    size_hint: Option<usize>,
    expected_samples: usize,
    first_sample_buffer: usize,
}

fn at_buffer(
    buffer: usize,
    buffer_size: usize,
    offset: usize,
    code: &'static str,
    what: String,
) -> CaptureError {
    CaptureError::at_offset(
        code,
        buffer * buffer_size + offset,
        format!("buffer {buffer}, event at +{offset:#x}: {what}"),
    )
}

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
            keys: HashMap::new(),
            seen: Vec::new(),
            layouts: Vec::new(),
            trailer_samples: None,
            empty_buffers: 0,
            bad_status: 0,
            unnamed: Vec::new(),
            first_local_ms: None,
            last_local_ms: None,
            fell_back: false,
            biases: None,
            last_bias: None,
            bias_changes: 0,
            signature: Vec::new(),
            size_hint: None,
            expected_samples: 0,
            first_sample_buffer: 0,
        }
    }

    /// The input's total size (a File's size): once the first samples show how many bytes a sample
    /// takes, every column is reserved for the whole log, so none is copied by doubling.
    pub fn expect_bytes(&mut self, size: usize) {
        self.size_hint = Some(size);
    }

    fn reserve(&mut self) {
        let Some(size) = self.size_hint.take() else {
            return;
        };
        // Bytes per sample from the buffers the samples so far took (not the name table's and definitions').
        let read = (self.buffers - self.first_sample_buffer) * self.buffer_size;
        let per_sample = (read / self.timestamps.len().max(1)).max(1);
        // Samples are at least 64 bytes: a hostile size hint cannot make this reserve without bound.
        let expected = (size / per_sample).min(size / 64);
        self.expected_samples = expected + expected / 50 + 16;
        let extra = self.expected_samples.saturating_sub(self.timestamps.len());
        self.timestamps.reserve_exact(extra);
        for c in &mut self.columns {
            c.values.reserve_exact(extra);
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
                return Err(CaptureError::at_offset("bad-blg", 0, format!("expected the first buffer's size (a whole number of KiB, 4 KiB to 16 MiB), found {size} bytes")));
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

    /// Reads one buffer. A file cut short ends in a partial buffer (`b` shorter than the buffer size):
    /// its events that are complete are read, and reading stops at the first that is not.
    fn buffer(&mut self, b: &[u8]) -> Result<(), CaptureError> {
        let index = self.buffers;
        self.buffers += 1;
        let n = self.buffer_size;
        let cut = b.len() < n;
        if b.len() < BUFFER_HEADER + EVENT_HEADER {
            return Ok(()); // not even the buffer's header and one event's: nothing in it can be read
        }
        let fail = |offset: usize, what: String| {
            CaptureError::at_offset(
                "bad-blg",
                index * n + offset,
                format!("buffer {index}: {what}"),
            )
        };
        if b[..BUFFER_HEADER].iter().all(|&x| x == 0)
            || b[..BUFFER_HEADER].iter().all(|&x| x == 0xFF)
        {
            // Space a logger set aside and never wrote (a log that was not closed).
            self.empty_buffers += 1;
            return Ok(());
        }
        let size = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        if size != n {
            return Err(fail(
                0,
                format!("expected the buffer size {n} that buffer 0 gives, found {size}"),
            ));
        }
        let end = u32::from_le_bytes([b[0x30], b[0x31], b[0x32], b[0x33]]) as usize;
        if end < BUFFER_HEADER || end > n {
            return Err(fail(0x30, format!("expected the end of the buffer's data between {BUFFER_HEADER:#x} and {n:#x}, found {end:#x}")));
        }
        let end = end.min(b.len());
        let mut at = BUFFER_HEADER;
        if index == 0 {
            let (header, next) =
                read_log_header(b, end).map_err(|what| fail(BUFFER_HEADER, what))?;
            self.header = Some(header);
            at = next;
        } else if self.header.is_none() {
            return Err(fail(0, "expected buffer 0 to hold the log header".into()));
        }
        while at + EVENT_HEADER <= end {
            let ev = &b[at..end];
            let size = usize::from(u16::from_le_bytes([ev[0], ev[1]]));
            let header_type = ev[2];
            if ev[3] != 0xC0 || !matches!(header_type, 0x0A | 0x14) {
                return Err(at_buffer(index, n, at, "bad-blg", format!("expected an event header (type 0x0A or 0x14, marker 0xC0), found type {header_type:#04x} marker {:#04x}", ev[3])));
            }
            if cut && size > ev.len() {
                break; // the event runs past where the file was cut
            }
            if size < EVENT_HEADER + PREAMBLE || size > ev.len() {
                return Err(at_buffer(
                    index,
                    n,
                    at,
                    "bad-blg",
                    format!(
                        "expected an event of {} to {} bytes, found size {size}",
                        EVENT_HEADER + PREAMBLE,
                        ev.len()
                    ),
                ));
            }
            if ev[0x18..0x28] != PDH_PROVIDER {
                return Err(at_buffer(index, n, at, "unsupported", format!("expected an event of PDH's perfmon logger {{933f3bb3-943e-490d-9ced-3cbb14c14479}}, found provider {}: this trace is not a perfmon log", guid_text(&ev[0x18..0x28]))));
            }
            let kind = ev[4];
            let timestamp = u64::from_le_bytes(ev[0x10..0x18].try_into().unwrap_or([0; 8]));
            let fragment = u32::from_le_bytes(ev[0x40..0x44].try_into().unwrap_or([0; 4]));
            let count = u32::from_le_bytes(ev[0x44..0x48].try_into().unwrap_or([0; 4]));
            self.fragment(
                kind,
                timestamp,
                fragment,
                count,
                &ev[EVENT_HEADER + PREAMBLE..size],
                (index, at),
            )?;
            at += (size + 7) & !7;
        }
        Ok(())
    }

    /// Joins fragments; a record with one fragment is read in place.
    fn fragment(
        &mut self,
        kind: u8,
        timestamp: u64,
        index: u32,
        count: u32,
        data: &[u8],
        at: (usize, usize),
    ) -> Result<(), CaptureError> {
        let n = self.buffer_size;
        if count == 0 || index == 0 || index > count {
            return Err(at_buffer(
                at.0,
                n,
                at.1,
                "bad-blg",
                format!("expected fragment i of n with 1 <= i <= n, found {index} of {count}"),
            ));
        }
        if let Some(p) = &self.partial {
            if index == 1 {
                return Err(at_buffer(at.0, n, at.1, "bad-blg", format!("expected fragment {} of {} of the record started in buffer {} at +{:#x}, found a new record", p.next, p.count, p.at.0, p.at.1)));
            }
        }
        if index == 1 && count == 1 {
            return self.record(Record {
                kind,
                timestamp,
                at,
                data,
            });
        }
        if index == 1 {
            self.partial = Some(Partial {
                kind,
                count,
                next: 2,
                timestamp,
                at,
                data: data.to_vec(),
            });
            return Ok(());
        }
        let Some(p) = &mut self.partial else {
            return Err(at_buffer(at.0, n, at.1, "bad-blg", format!("expected a first fragment, found fragment {index} of {count} with no record before it")));
        };
        if p.kind != kind || p.count != count || p.next != index || p.timestamp != timestamp {
            return Err(at_buffer(at.0, n, at.1, "bad-blg", format!(
                "expected fragment {} of {} of a type {:#04x} record, found fragment {index} of {count} of type {kind:#04x}", p.next, p.count, p.kind)));
        }
        if p.data.len() + data.len() > MAX_LINE {
            return Err(at_buffer(
                at.0,
                n,
                at.1,
                "too-large",
                format!("a record of more than {MAX_LINE} bytes is not read"),
            ));
        }
        p.data.extend_from_slice(data);
        p.next += 1;
        if index == count {
            if let Some(p) = self.partial.take() {
                self.record(Record {
                    kind: p.kind,
                    timestamp: p.timestamp,
                    at: p.at,
                    data: &p.data,
                })?;
            }
        }
        Ok(())
    }

    fn record(&mut self, r: Record<'_>) -> Result<(), CaptureError> {
        let n = self.buffer_size;
        let fail = |code: &'static str, what: String| at_buffer(r.at.0, n, r.at.1, code, what);
        match r.kind {
            EVENT_NAMES => self.read_names(r.data).map_err(|w| fail("bad-blg", format!("the counter name table: {w}"))),
            EVENT_DEFINITIONS => {
                if self.defs.is_some() {
                    return Err(fail("unsupported", "a second definitions event (counters added to a running log) is not read: no sample log shows its layout".into()));
                }
                let defs = read_definitions(r.data).map_err(|w| fail("bad-blg", format!("the counter definitions: {w}")))?;
                self.seen = vec![0; defs.len()];
                self.layouts = defs.iter().map(|_| Layout::default()).collect();
                self.defs = Some(defs);
                Ok(())
            }
            EVENT_SAMPLE => {
                let Some(defs) = self.defs.take() else {
                    return Err(fail("bad-blg", "expected the counter definitions before the first sample".into()));
                };
                let result = self.read_sample(&defs, r.timestamp, r.data).map_err(|(code, w)| fail(code, format!("sample {}: {w}", self.timestamps.len())));
                self.defs = Some(defs);
                result
            }
            EVENT_TRAILER => {
                self.trailer_samples = Some(u32_at(r.data, 16, "the trailer's sample count").map_err(|w| fail("bad-blg", w))?);
                Ok(())
            }
            other => Err(fail("unsupported", format!("expected a name table (0x24), definitions (0x20), sample (0x22) or trailer (0x23) event, found type {other:#04x}"))),
        }
    }

    /// A name table event: the machine, then pairs of strings "index", "name".
    fn read_names(&mut self, b: &[u8]) -> Result<(), String> {
        let (_machine, mut at) = utf16z(b, 0, "the machine name")?;
        while at + 2 <= b.len() && !(b[at] == 0 && b[at + 1] == 0) {
            let (index, next) = utf16z(b, at, "a counter index")?;
            let (name, next) = utf16z(b, next, "a counter name")?;
            let index: u32 = index.trim().parse().map_err(|_| {
                format!("expected a counter index (digits) at +{at:#x}, found {index:?}")
            })?;
            self.names.insert(index, name);
            at = next;
        }
        Ok(())
    }

    fn read_sample(
        &mut self,
        defs: &[Definition],
        timestamp: u64,
        b: &[u8],
    ) -> Result<(), (&'static str, String)> {
        let bad = |w: String| ("bad-blg", w);
        let (kind, size) = block_header(b, 0).map_err(bad)?;
        if kind != 0 || size != b.len() {
            return Err(bad(format!(
                "expected a BL container (kind 0) of {} bytes, found kind {kind} of {size} bytes",
                b.len()
            )));
        }
        let k = self.timestamps.len();
        match k {
            0 => self.first_sample_buffer = self.buffers - 1,
            16 => self.reserve(),
            _ => {}
        }
        // In i128: a hostile u64 time stamp must not overflow the subtraction.
        let local_ms = (i128::from(timestamp) - i128::from(UNIX_EPOCH_FILETIME)) as f64 / 10_000.0;
        let bias = self.bias_at(local_ms);
        self.first_local_ms.get_or_insert(local_ms);
        self.timestamps.push(local_ms + f64::from(bias) * 60_000.0);
        let mut at = 8;
        for (d, def) in defs.iter().enumerate() {
            let (kind, size) =
                block_header(b, at).map_err(|w| bad(format!("definition {d}: {w}")))?;
            let body = &b[at + 8..at + size];
            let want = match def.shape {
                Shape::Single => 1,
                Shape::Instances => 2,
                Shape::Object => 5,
            };
            if kind != want {
                return Err(bad(format!("definition {d} ({}, flags {:#x}): expected a kind {want} block, found kind {kind} at +{at:#x}", def.path(def.parent.as_deref(), def.instance.as_deref(), &def.counter), def.flags)));
            }
            let result = match def.shape {
                Shape::Single => self.single(d, def, k, body),
                Shape::Instances => self.instances(d, def, k, body),
                Shape::Object => self.object(d, def, k, body),
            };
            result
                .map_err(|(code, w)| (code, format!("definition {d}, block at +{at:#x}: {w}")))?;
            at += size;
        }
        if at != b.len() {
            return Err(bad(format!("expected {} blocks, one per definition, filling the container; {} bytes are left at +{at:#x}", defs.len(), b.len() - at)));
        }
        Ok(())
    }

    /// The bias at a sample's local time. In the hour the autumn change repeats, a sample is in daylight
    /// time until the clock has gone back (a sample earlier than the one before), and in standard time
    /// after, so times stay in order through the change. The biases seen are kept for the note.
    fn bias_at(&mut self, local_ms: f64) -> i32 {
        let Some(zone) = self.header.as_ref().map(|h| &h.zone) else {
            return 0;
        };
        let repeated = zone.in_repeated_hour(local_ms);
        let went_back = self.last_local_ms.is_some_and(|p| local_ms < p);
        self.fell_back = repeated && (self.fell_back || went_back);
        self.last_local_ms = Some(local_ms);
        let bias = if self.fell_back {
            zone.bias + zone.standard_bias
        } else {
            zone.bias_at(local_ms)
        };
        self.biases.get_or_insert((bias, bias)).1 = bias;
        self.bias_changes += usize::from(self.last_bias.is_some_and(|b| b != bias));
        self.last_bias = Some(bias);
        bias
    }

    /// The column of (definition, counter, instance key), made on first sight.
    fn column(
        &mut self,
        d: usize,
        counter: usize,
        key: &str,
        make: impl FnOnce() -> (String, u32, i32),
    ) -> Result<usize, (&'static str, String)> {
        if let Some(&c) = self.keys.get(&(d, counter, key.to_string())) {
            return Ok(c);
        }
        if self.columns.len() >= MAX_COLUMNS {
            return Err((
                "too-large",
                format!("a log of more than {MAX_COLUMNS} series is not read"),
            ));
        }
        let (path, type_value, scale) = make();
        let ty = CounterType::from_value(type_value);
        let order = (d, counter, self.seen[d]);
        self.seen[d] += 1;
        self.columns.push(Column {
            order,
            path,
            ty,
            two_samples: ty.samples() == 2,
            average: matches!(
                ty.formula(),
                Some(Formula::AverageTimer | Formula::AverageBulk)
            ),
            type_value,
            scale,
            values: Vec::with_capacity(self.expected_samples),
            last: None,
        });
        self.keys
            .insert((d, counter, key.to_string()), self.columns.len() - 1);
        Ok(self.columns.len() - 1)
    }

    /// Cooks sample `k` of column `c` against its previous sample (when that is sample `k - 1`).
    #[inline]
    fn put(&mut self, c: usize, k: usize, raw: Option<RawSample>) {
        let col = &mut self.columns[c];
        if col.values.len() > k {
            return; // a second value for the same sample (a duplicate key): the first stands
        }
        col.values.resize(k, f64::NAN);
        let Some(raw) = raw else {
            col.values.push(f64::NAN);
            col.last = None;
            return;
        };
        let older = match &col.last {
            Some((j, s)) if col.two_samples && *j + 1 == k => Some(s),
            _ => None,
        };
        let v = match cook(col.ty, older, &raw, &CookOptions::default()) {
            Ok(Cooked { value: Some(v), .. }) => v,
            // An average over an interval with no operations (Avg. Disk sec/Read of an idle disk): the
            // contract's zero-denominator, which Perfmon and relog show as 0 (docs/blg.md).
            Ok(Cooked {
                status: Status::ZeroDenominator,
                ..
            }) if col.average => 0.0,
            _ => f64::NAN,
        };
        col.values.push(v);
        col.last = Some((k, raw));
    }

    fn single(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (&'static str, String)> {
        let bad = |w: String| ("bad-blg", w);
        let status = u32_at(b, 0, "CStatus").map_err(bad)?;
        let first = u64_at(b, 0x10, "FirstValue").map_err(bad)?;
        let second = u64_at(b, 0x18, "SecondValue").map_err(bad)?;
        let multi = u32_at(b, 0x20, "MultiCount").map_err(bad)?;
        let instance = def.instance.as_ref().map(|i| {
            if def.instance_index > 0 {
                format!("{i}#{}", def.instance_index)
            } else {
                i.clone()
            }
        });
        let c = self.column(d, 0, "", || {
            (
                def.path(def.parent.as_deref(), instance.as_deref(), &def.counter),
                def.counter_type,
                def.scale,
            )
        })?;
        let raw = RawSample {
            value: first,
            second: Some(second),
            frequency: Some(def.frequency),
            multi: Some(u64::from(multi)),
        };
        // PDH_CSTATUS_VALID_DATA 0 and NEW_DATA 1 carry a value; the error statuses set the top bit.
        let raw = if status & 0x8000_0000 != 0 {
            self.bad_status += 1;
            None
        } else {
            Some(raw)
        };
        self.put(c, k, raw);
        Ok(())
    }

    fn instances(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (&'static str, String)> {
        let bad = |w: String| ("bad-blg", w);
        let count = u32_at(b, 4, "the instance count").map_err(bad)? as usize;
        if count > (b.len().saturating_sub(0x18)) / 24 {
            return Err(bad(format!("expected {count} instance entries of 24 bytes after +0x18, but the block has {} bytes", b.len())));
        }
        // The names' bytes, compared with the last sample's: decoded only when the instances change.
        let mut signature = std::mem::take(&mut self.signature);
        signature.clear();
        let mut raws = Vec::with_capacity(count);
        let mut names: Vec<&[u8]> = Vec::with_capacity(count);
        for i in 0..count {
            let e = 0x18 + 24 * i;
            let name_at = u32_at(b, e, "an instance name offset").map_err(bad)? as usize;
            let name = utf16z_bytes(b, name_at, "an instance name", MAX_NAME_UNITS).map_err(bad)?;
            signature.extend_from_slice(name);
            signature.extend_from_slice(&[0, 0]);
            names.push(name);
            let first = u64_at(b, e + 8, "FirstValue").map_err(bad)?;
            let second = u64_at(b, e + 16, "SecondValue").map_err(bad)?;
            // The entries carry no MultiCount (the u32 after the name offset is 0 in both samples, where
            // a PDH_RAW_COUNTER's MultiCount is 1): MULTI timers in instance arrays get no value, and a
            // note says why, rather than a guessed count.
            raws.push(RawSample {
                value: first,
                second: Some(second),
                frequency: Some(def.frequency),
                multi: None,
            });
        }
        self.relayout(d, &signature, 1, || {
            instance_keys(&names.iter().map(|n| utf16_text(n)).collect::<Vec<_>>())
        });
        self.signature = signature;
        for (i, raw) in raws.into_iter().enumerate() {
            let c = self.cached_column(d, 0, i, |key| {
                (
                    def.path(None, Some(key), &def.counter),
                    def.counter_type,
                    def.scale,
                )
            })?;
            self.put(c, k, Some(raw));
        }
        Ok(())
    }

    /// Starts a new instance layout for definition `d` when the instances (`signature`: their names'
    /// bytes) differ from the last sample's; `keys` names them then.
    fn relayout(
        &mut self,
        d: usize,
        signature: &[u8],
        counters: usize,
        keys: impl FnOnce() -> Vec<String>,
    ) {
        let layout = &mut self.layouts[d];
        if layout.signature == signature && layout.columns.len() == counters {
            return;
        }
        // Carry the columns of instances that stay over to their new positions (one lookup per instance,
        // not per counter and instance): processes come and go between most samples of a busy server.
        let names = keys();
        let old: HashMap<&str, usize> = layout
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let columns = (0..counters)
            .map(|j| {
                let before = layout
                    .columns
                    .get(j)
                    .filter(|_| layout.columns.len() == counters);
                names
                    .iter()
                    .map(|n| before.and_then(|b| old.get(n.as_str()).and_then(|&i| b[i])))
                    .collect()
            })
            .collect();
        layout.columns = columns;
        layout.names = names;
        layout.signature = signature.to_vec();
    }

    /// The column of counter `j`, instance `i` of the current layout of definition `d`.
    fn cached_column(
        &mut self,
        d: usize,
        j: usize,
        i: usize,
        make: impl FnOnce(&str) -> (String, u32, i32),
    ) -> Result<usize, (&'static str, String)> {
        if let Some(c) = self.layouts[d].columns[j][i] {
            return Ok(c);
        }
        let key = self.layouts[d].names[i].clone();
        let c = self.column(d, j, &key, || make(&key))?;
        self.layouts[d].columns[j][i] = Some(c);
        Ok(c)
    }

    fn object(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (&'static str, String)> {
        let block =
            PerfDataBlock::read(b).map_err(|w| ("bad-blg", format!("the PERF_DATA_BLOCK: {w}")))?;
        let object = block
            .object_for(def, &self.names)
            .map_err(|w| ("bad-blg", format!("the PERF_DATA_BLOCK: {w}")))?;
        let mut signature = std::mem::take(&mut self.signature);
        block.signature(object, &mut signature);
        self.relayout(d, &signature, object.counters.len(), || {
            match &object.instances {
                None => vec![String::new()],
                Some(_) => instance_keys(&block.instance_names(object)),
            }
        });
        self.signature = signature;
        let has_instances = object.instances.is_some();
        for (j, counter) in object.counters.iter().enumerate() {
            let Some(plan) = block.plan(object, j) else {
                continue;
            };
            for i in 0..self.layouts[d].names.len() {
                let c = match self.layouts[d].columns[j][i] {
                    Some(c) => c,
                    None => {
                        let name =
                            self.names
                                .get(&counter.name_index)
                                .cloned()
                                .unwrap_or_else(|| {
                                    self.unnamed.push(counter.name_index);
                                    format!("Counter {}", counter.name_index)
                                });
                        self.cached_column(d, j, i, |key| {
                            let (parent, inst) = match key.split_once('/') {
                                Some((p, i)) if has_instances => (Some(p), Some(i)),
                                _ => (None, has_instances.then_some(key)),
                            };
                            (
                                def.path(parent, inst, &name),
                                counter.counter_type,
                                counter.scale,
                            )
                        })?
                    }
                };
                self.put(c, k, block.raw(object, &plan, j, i));
            }
        }
        Ok(())
    }

    /// The capture, once every chunk has been pushed.
    pub fn finish(mut self) -> Result<Capture, CaptureError> {
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
        let cut_at = |what: &str| match truncated {
            Some((buffer, into, at)) => format!(
                "; the file is truncated at byte {at} ({into} bytes into buffer {buffer}) {what}"
            ),
            None => String::new(),
        };
        let end = truncated.map_or(n, |t| t.2);
        let Some(header) = self.header.take() else {
            return Err(CaptureError::at_offset(
                "empty",
                end.min(n),
                format!(
                    "expected at least the log's first buffer and its header{}",
                    cut_at("inside it")
                ),
            ));
        };
        if self.defs.is_none() {
            return Err(CaptureError::at_offset(
                "no-rows",
                end,
                format!(
                    "the log holds no counter definitions: nothing was logged{}",
                    cut_at("before them")
                ),
            ));
        }
        let samples = self.timestamps.len();
        if samples == 0 {
            return Err(CaptureError::at_offset(
                "no-rows",
                end,
                format!(
                    "the log defines counters but holds no complete sample{}",
                    cut_at("before the first sample is complete")
                ),
            ));
        }
        let mut notes = vec![Note {
            code: "blg",
            message: format!("binary perfmon log from Windows {}.{} build {} ({}-bit logger), {samples} samples; values cooked by counterlens as relog and Perfmon show them (no value where a counter needs two samples and has one)",
                header.version.0, header.version.1, header.build, header.pointer_size * 8),
            line: None,
        }];
        if let Some((buffer, into, at)) = truncated {
            notes.push(Note { code: "truncated", message: format!("the file is truncated at byte {at} ({into} bytes into buffer {buffer} of {n} bytes: a copy that stopped, or a log still being written); the {samples} complete samples before it were read"), line: None });
        }
        if let Some(p) = &self.partial {
            notes.push(Note { code: "cut-short", message: format!("the last record (started in buffer {} at +{:#x}) has {} of its {} fragments: the log was not closed; it is left out", p.at.0, p.at.1, p.next - 1, p.count), line: None });
        }
        match self.trailer_samples {
            None => notes.push(Note { code: "not-closed", message: "the log has no trailer: it was not closed cleanly (the logger stopped or the file was copied while logging); every complete sample was read".into(), line: None }),
            Some(t) if t as usize != samples => notes.push(Note { code: "sample-count", message: format!("the trailer counts {t} samples; {samples} were read"), line: None }),
            Some(_) => {}
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
        if self.bad_status > 0 {
            notes.push(Note { code: "bad-status", message: format!("{} raw values carried an error status (PDH CStatus with the top bit set); they are gaps", self.bad_status), line: None });
        }
        self.unnamed.sort_unstable();
        self.unnamed.dedup();
        if let Some(defs) = &self.defs {
            let multi: Vec<String> = defs
                .iter()
                .filter(|d| d.shape == Shape::Instances && d.counter_type & 0x0200_0000 != 0)
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
        let time_zone = Some(header.zone.at(self.first_local_ms.unwrap_or(0.0)));
        if let Some((first, last)) = self.biases.filter(|_| self.bias_changes > 0) {
            notes.push(Note { code: "dst-change", message: format!("daylight saving time starts or ends within the log (the bias goes from {first} to {last} minutes{}): times are UTC throughout and in order; CSV exports write local times with the zone of the first sample", if self.bias_changes > 1 { format!(", changing {} times", self.bias_changes) } else { String::new() }), line: None });
        }
        self.columns.sort_by_key(|c| c.order);
        let series = self
            .columns
            .into_iter()
            .map(|mut c| {
                c.values.resize(samples, f64::NAN);
                Series {
                    parsed: path::parse(&c.path).unwrap_or_default(),
                    path: c.path,
                    counter_type: Some(c.type_value),
                    scale: Some(c.scale),
                    values: c.values,
                    reference: None,
                    raw: None,
                }
            })
            .collect();
        Ok(Capture {
            format: "blg",
            encoding: "binary",
            time_zone,
            timestamps: self.timestamps,
            series,
            notes,
        })
    }
}

/// Instance names made unique as PDH does: the second "svchost" is "svchost#1", the third "svchost#2".
fn instance_keys(names: &[String]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    names
        .iter()
        .map(|n| {
            let c = count.entry(n.as_str()).or_insert(0);
            let key = if *c == 0 {
                n.clone()
            } else {
                format!("{n}#{c}")
            };
            *c += 1;
            key
        })
        .collect()
}

fn guid_text(b: &[u8]) -> String {
    let u = |r: std::ops::Range<usize>| {
        b[r].iter()
            .rev()
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
    };
    let h = |r: std::ops::Range<usize>| b[r].iter().map(|x| format!("{x:02x}")).collect::<String>();
    format!(
        "{{{}-{}-{}-{}-{}}}",
        u(0..4),
        u(4..6),
        u(6..8),
        h(8..10),
        h(10..16)
    )
}

/// The system header event at 0x48 of buffer 0 and the TRACE_LOGFILE_HEADER after it (evntrace.h).
/// Returns the header and the offset of the first event after it.
fn read_log_header(b: &[u8], end: usize) -> Result<(LogHeader, usize), String> {
    let e = BUFFER_HEADER;
    let header_type = b[e + 2];
    if b[e + 3] != 0xC0 || !matches!(header_type, 1 | 2) {
        return Err(format!("expected the logger's system header (type 1 or 2, marker 0xC0) at +0x48, found type {header_type:#04x} marker {:#04x}", b[e + 3]));
    }
    let size = usize::from(u16_at(b, e + 4, "the header size")?);
    if size < 0x20 + 0x40 || e + size > end {
        return Err(format!("expected a system header event of at least 96 bytes within the buffer's {end:#x} bytes of data, found {size}"));
    }
    let h = &b[..e + size];
    let l = e + 0x20; // TRACE_LOGFILE_HEADER
    let pointer_size = u32_at(h, l + 0x2C, "PointerSize")? as usize;
    let expected = if header_type == 1 { 4 } else { 8 };
    if pointer_size != expected {
        return Err(format!("expected PointerSize {expected} for a {} logger (header type {header_type}), found {pointer_size}", expected * 8));
    }
    let buffer_size = u32_at(h, l, "BufferSize")? as usize;
    let outer = u32_at(b, 0, "BufferSize")? as usize;
    if buffer_size != outer {
        return Err(format!("expected the log header's BufferSize to equal the buffer's ({outer}), found {buffer_size}"));
    }
    let zone = Zone::read(h, l + 0x38 + 2 * pointer_size)?;
    // unsigned_abs: i32::MIN has no positive counterpart (found by fuzzing: `abs` overflowed).
    if [zone.bias, zone.daylight_bias, zone.standard_bias]
        .iter()
        .any(|b| b.unsigned_abs() > 24 * 60)
    {
        return Err(format!(
            "expected time zone biases within a day, found {} / {} / {} minutes",
            zone.bias, zone.standard_bias, zone.daylight_bias
        ));
    }
    let header = LogHeader {
        pointer_size,
        version: (h[l + 4], h[l + 5]),
        build: u32_at(h, l + 8, "ProviderVersion")?,
        zone,
    };
    Ok((header, e + ((size + 7) & !7)))
}

/// A "BL" block's kind and size (the size includes the 8-byte header), checked against `b`.
fn block_header(b: &[u8], at: usize) -> Result<(u8, usize), String> {
    let h = get::<8>(b, at, "a BL block header")?;
    if &h[..3] != b"BL\x03" {
        return Err(format!(
            "expected a block header \"BL\" 3 at +{at:#x}, found {:02x?}",
            &h[..4]
        ));
    }
    let size = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
    if size < 8 || size > b.len() - at {
        return Err(format!(
            "expected a block size from 8 to {} at +{at:#x}, found {size}",
            b.len() - at
        ));
    }
    Ok((h[3], size))
}

/// The definitions event: two u32 of unknown meaning, then one record per logged path.
fn read_definitions(b: &[u8]) -> Result<Vec<Definition>, String> {
    let mut defs = Vec::new();
    let mut at = 8;
    while at < b.len() {
        let size = u32_at(b, at, "a definition's size")? as usize;
        if size == 0 && b[at..].iter().all(|&x| x == 0) {
            break; // padding
        }
        if size < 0x34 || size > b.len() - at {
            return Err(format!(
                "expected a definition of 52 to {} bytes at +{at:#x}, found {size}",
                b.len() - at
            ));
        }
        let r = &b[at..at + size];
        // A bit set: 0x10 a whole object `(*)\*`, else 0x1 an instance array `(*)`, else one counter.
        // Other bits are kept for a note (PowerShell's Export-Counter sets 0x20000000; docs/blg.md).
        let flags = u32_at(r, 4, "the definition's flags")?;
        let shape = if flags & FLAG_OBJECT != 0 {
            Shape::Object
        } else if flags & FLAG_INSTANCES != 0 {
            Shape::Instances
        } else {
            Shape::Single
        };
        let strings = &r[0x34..];
        let text = |field: usize, what: &str| -> Result<Option<String>, String> {
            let off = u32_at(r, field, what)?;
            if off == u32::MAX {
                return Ok(None);
            }
            utf16z(strings, off as usize, what)
                .map(|(s, _)| Some(s))
                .map_err(|e| format!("definition {} at +{at:#x}: {e}", defs.len()))
        };
        let object = text(0x20, "the object name")?.ok_or_else(|| {
            format!(
                "definition {} at +{at:#x}: expected an object name",
                defs.len()
            )
        })?;
        let counter = text(0x30, "the counter name")?.ok_or_else(|| {
            format!(
                "definition {} at +{at:#x}: expected a counter name",
                defs.len()
            )
        })?;
        defs.push(Definition {
            shape,
            flags,
            counter_type: u32_at(r, 0xC, "the counter type")?,
            frequency: u64_at(r, 0x10, "the time base")?,
            scale: i32_at(r, 0x18, "the default scale")?.clamp(-10, 10),
            machine: text(0x1C, "the machine name")?.unwrap_or_default(),
            object,
            instance: text(0x24, "the instance name")?,
            parent: text(0x28, "the parent name")?,
            instance_index: u32_at(r, 0x2C, "the instance index")?,
            counter,
        });
        at += size;
    }
    if defs.is_empty() {
        return Err("expected at least one counter definition".into());
    }
    Ok(defs)
}

/// A counter of a PERF_OBJECT_TYPE (PERF_COUNTER_DEFINITION).
#[derive(Debug)]
struct PerfCounter {
    name_index: u32,
    scale: i32,
    counter_type: u32,
    size: usize,
    offset: usize,
}

#[derive(Debug)]
struct PerfInstance {
    /// The name's bytes (UTF-16LE, no NUL) in the data block.
    name: (usize, usize),
    /// PERF_INSTANCE_DEFINITION's (ParentObjectTitleIndex, ParentObjectInstance) when the title is not 0.
    parent: Option<(u32, u32)>,
    /// Offset of its PERF_COUNTER_BLOCK in the data block.
    block: usize,
    block_len: usize,
}

#[derive(Debug)]
struct PerfObject {
    name_index: u32,
    perf_time: u64,
    perf_freq: u64,
    counters: Vec<PerfCounter>,
    /// None for an object without instances (PERF_NO_INSTANCES), whose one counter block is `block`.
    instances: Option<Vec<PerfInstance>>,
    block: usize,
    block_len: usize,
}

/// A PERF_DATA_BLOCK (winperf.h) as the logger stores it for a whole-object record.
struct PerfDataBlock<'a> {
    b: &'a [u8],
    perf_time: u64,
    perf_freq: u64,
    perf_time_100ns: u64,
    objects: Vec<PerfObject>,
}

impl<'a> PerfDataBlock<'a> {
    fn read(b: &'a [u8]) -> Result<PerfDataBlock<'a>, String> {
        if b.get(..8) != Some(b"P\0E\0R\0F\0") {
            return Err("expected the signature \"PERF\" in UTF-16".into());
        }
        if u32_at(b, 8, "LittleEndian")? != 1 {
            return Err("expected a little-endian block (LittleEndian = 1)".into());
        }
        let total = u32_at(b, 0x14, "TotalByteLength")? as usize;
        if total > b.len() {
            return Err(format!(
                "TotalByteLength {total} is more than the block's {} bytes",
                b.len()
            ));
        }
        let b = &b[..total];
        let header = u32_at(b, 0x18, "HeaderLength")? as usize;
        let count = u32_at(b, 0x1C, "NumObjectTypes")? as usize;
        let mut block = PerfDataBlock {
            b,
            perf_time: u64_at(b, 0x38, "PerfTime")?,
            perf_freq: u64_at(b, 0x40, "PerfFreq")?,
            perf_time_100ns: u64_at(b, 0x48, "PerfTime100nSec")?,
            objects: Vec::new(),
        };
        let mut at = header;
        for i in 0..count {
            let object = read_object(b, at).map_err(|w| format!("object {i} at +{at:#x}: {w}"))?;
            let len = u32_at(b, at, "the object's TotalByteLength")? as usize;
            block.objects.push(object);
            at += len;
        }
        Ok(block)
    }

    fn name(&self, i: &PerfInstance) -> String {
        utf16_text(&self.b[i.name.0..i.name.1])
    }

    /// What identifies the object's instances in this sample (names and parents), to compare with the last.
    fn signature(&self, o: &PerfObject, out: &mut Vec<u8>) {
        out.clear();
        if o.instances.is_none() {
            out.extend_from_slice(&[0xFF, 0xFF]); // no instances, unlike an instance list that is empty
        }
        for i in o.instances.iter().flatten() {
            out.extend_from_slice(&self.b[i.name.0..i.name.1]);
            let (t, n) = i.parent.unwrap_or((0, 0));
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(&t.to_le_bytes());
            out.extend_from_slice(&n.to_le_bytes());
        }
    }

    /// Instance names, "parent/instance" where the parent object is in the block to name the parent.
    fn instance_names(&self, o: &PerfObject) -> Vec<String> {
        o.instances
            .iter()
            .flatten()
            .map(|i| {
                let parent = i.parent.and_then(|(title, n)| {
                    let p = self.objects.iter().find(|x| x.name_index == title)?;
                    p.instances
                        .as_ref()?
                        .get(n as usize)
                        .map(|pi| self.name(pi))
                });
                match parent {
                    Some(p) => format!("{p}/{}", self.name(i)),
                    None => self.name(i),
                }
            })
            .collect()
    }

    /// The object a whole-object definition logs: the only one, or the one the name table names so.
    fn object_for(
        &self,
        def: &Definition,
        names: &HashMap<u32, String>,
    ) -> Result<&PerfObject, String> {
        match self.objects.as_slice() {
            [one] => Ok(one),
            [] => Err("expected an object, found none".into()),
            many => many
                .iter()
                .find(|o| {
                    names
                        .get(&o.name_index)
                        .is_some_and(|n| n.eq_ignore_ascii_case(&def.object))
                })
                .ok_or_else(|| {
                    format!(
                        "expected the object {:?} among its {} objects",
                        def.object,
                        many.len()
                    )
                }),
        }
    }

    /// Counter `j`'s raw value in instance `i` (or the object's one block).
    fn value(&self, o: &PerfObject, j: usize, i: usize) -> Option<u64> {
        let c = o.counters.get(j)?;
        let (block, len) = match &o.instances {
            None => (o.block, o.block_len),
            Some(list) => list.get(i).map(|x| (x.block, x.block_len))?,
        };
        if c.counter_type & 0x300 == 0x200 {
            return Some(0); // PERF_SIZE_ZERO
        }
        // Checked: on wasm32 usize is 32 bits, and two u32 fields can add past it.
        if c.offset.checked_add(c.size).is_none_or(|end| end > len) {
            return None;
        }
        let at = block + c.offset;
        match c.size {
            4 => u32_at(self.b, at, "").ok().map(u64::from),
            8 => u64_at(self.b, at, "").ok(),
            _ => None,
        }
    }

    /// Where counter `j`'s D, F and M come from (the data block's times for system and 100 ns timers, the
    /// object's for object timers and ELAPSED_TIME, the next counter, which must be a base, for fractions,
    /// averages, precision timers and MULTI timers): worked out once per counter and sample, then
    /// applied to every instance. None for a counter that is not a series (bases, text, histograms).
    fn plan(&self, o: &PerfObject, j: usize) -> Option<Plan> {
        let c = o.counters.get(j)?;
        let ty = CounterType::from_value(c.counter_type);
        let formula = ty.formula()?;
        if ty.samples() == 0 || formula == Formula::Text {
            return None;
        }
        // PERF_TYPE_COUNTER | PERF_COUNTER_BASE
        let base = o
            .counters
            .get(j + 1)
            .filter(|n| n.counter_type & 0xC00 == 0x400 && n.counter_type & 0xF_0000 == 0x3_0000)
            .map(|_| j + 1);
        let (object_time, object_freq) = if o.perf_freq != 0 {
            (o.perf_time, o.perf_freq)
        } else {
            (self.perf_time, self.perf_freq)
        };
        let timer = c.counter_type & 0x0030_0000;
        let subtype = c.counter_type & 0x000F_0000;
        let from_base = Source::Base(base);
        let (second, frequency) = match formula {
            Formula::Elapsed => (Source::Fixed(object_time), Some(object_freq)),
            Formula::AverageTimer => (from_base, Some(self.perf_freq)),
            Formula::AverageBulk | Formula::RawFraction => (from_base, None),
            _ if timer == 0x0020_0000 => (Source::Fixed(object_time), Some(object_freq)),
            _ if subtype == 0x0002_0000 || subtype == 0x0007_0000 => (from_base, None),
            _ if timer == 0x0010_0000 => (Source::Fixed(self.perf_time_100ns), Some(10_000_000)),
            _ => (Source::Fixed(self.perf_time), Some(self.perf_freq)),
        };
        let multi = (c.counter_type & 0x0200_0000 != 0).then_some(from_base);
        Some(Plan {
            second,
            frequency,
            multi,
        })
    }

    /// The raw sample of counter `j` in instance `i` by its plan; None where a value is missing.
    fn raw(&self, o: &PerfObject, plan: &Plan, j: usize, i: usize) -> Option<RawSample> {
        let get = |s: Source| match s {
            Source::Fixed(v) => Some(v),
            Source::Base(b) => self.value(o, b?, i),
        };
        Some(RawSample {
            value: self.value(o, j, i)?,
            second: Some(get(plan.second)?),
            frequency: plan.frequency,
            multi: match plan.multi {
                Some(m) => Some(get(m)?),
                None => None,
            },
        })
    }
}

/// Where a raw sample's D (or M) comes from: a value of the whole sample, or the base counter (by index).
#[derive(Clone, Copy, Debug)]
enum Source {
    Fixed(u64),
    Base(Option<usize>),
}

/// How a whole-object counter's raw samples are assembled (see `PerfDataBlock::plan`).
#[derive(Clone, Copy, Debug)]
struct Plan {
    second: Source,
    frequency: Option<u64>,
    multi: Option<Source>,
}

/// A PERF_OBJECT_TYPE at `at`: its counter definitions and its instances or one counter block.
fn read_object(b: &[u8], at: usize) -> Result<PerfObject, String> {
    let total = u32_at(b, at, "TotalByteLength")? as usize;
    if total < 0x40 || total > b.len() - at {
        return Err(format!(
            "expected TotalByteLength from 64 to {}, found {total}",
            b.len() - at
        ));
    }
    let o = &b[at..at + total];
    let definition = u32_at(o, 4, "DefinitionLength")? as usize;
    let header = u32_at(o, 8, "HeaderLength")? as usize;
    let counters_n = u32_at(o, 0x20, "NumCounters")? as usize;
    let instances_n = i32_at(o, 0x28, "NumInstances")?;
    if definition > total || header > definition {
        return Err(format!("expected HeaderLength {header} <= DefinitionLength {definition} <= TotalByteLength {total}"));
    }
    let mut counters = Vec::with_capacity(counters_n.min(4096));
    let mut c = header;
    for k in 0..counters_n {
        let len = u32_at(o, c, "a counter definition's ByteLength")? as usize;
        if len < 0x28 || len > definition - c {
            return Err(format!(
                "counter definition {k} at +{c:#x}: expected ByteLength from 40 to {}, found {len}",
                definition - c
            ));
        }
        let counter_type = u32_at(o, c + 0x1C, "CounterType")?;
        counters.push(PerfCounter {
            name_index: u32_at(o, c + 4, "CounterNameTitleIndex")?,
            scale: i32_at(o, c + 0x14, "DefaultScale")?.clamp(-10, 10),
            counter_type,
            size: u32_at(o, c + 0x20, "CounterSize")? as usize,
            offset: u32_at(o, c + 0x24, "CounterOffset")? as usize,
        });
        c += len;
    }
    let counter_block = |p: usize| -> Result<(usize, usize), String> {
        let len = u32_at(o, p, "a PERF_COUNTER_BLOCK's ByteLength")? as usize;
        if len < 4 || len > total - p {
            return Err(format!(
                "expected a counter block of 4 to {} bytes at +{p:#x}, found {len}",
                total - p
            ));
        }
        Ok((at + p, len))
    };
    let mut object = PerfObject {
        name_index: u32_at(o, 0xC, "ObjectNameTitleIndex")?,
        perf_time: u64_at(o, 0x30, "PerfTime")?,
        perf_freq: u64_at(o, 0x38, "PerfFreq")?,
        counters,
        instances: None,
        block: 0,
        block_len: 0,
    };
    if instances_n < 0 {
        (object.block, object.block_len) = counter_block(definition)?;
        return Ok(object);
    }
    let mut list = Vec::with_capacity((instances_n as usize).min(65_536));
    let mut p = definition;
    for k in 0..instances_n as usize {
        let len = u32_at(o, p, "a PERF_INSTANCE_DEFINITION's ByteLength")? as usize;
        if len < 0x18 || len > total - p {
            return Err(format!(
                "instance {k} at +{p:#x}: expected ByteLength from 24 to {}, found {len}",
                total - p
            ));
        }
        let parent_title = u32_at(o, p + 4, "ParentObjectTitleIndex")?;
        let parent_instance = u32_at(o, p + 8, "ParentObjectInstance")?;
        let name_offset = u32_at(o, p + 0x10, "NameOffset")? as usize;
        let name_length = u32_at(o, p + 0x14, "NameLength")? as usize;
        if name_offset
            .checked_add(name_length)
            .is_none_or(|end| end > len)
        {
            return Err(format!("instance {k} at +{p:#x}: its name ({name_length} bytes at +{name_offset:#x}) runs past its {len} bytes"));
        }
        // NameLength counts the terminating NUL; the name ends at the first NUL in any case.
        let units = before_nul(&o[p + name_offset..p + name_offset + name_length]).len() / 2;
        let (block, block_len) =
            counter_block(p + len).map_err(|w| format!("instance {k}: {w}"))?;
        list.push(PerfInstance {
            name: (at + p + name_offset, at + p + name_offset + 2 * units),
            parent: (parent_title != 0).then_some((parent_title, parent_instance)),
            block,
            block_len,
        });
        p += len + block_len;
    }
    object.instances = Some(list);
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_find_the_nth_weekday() {
        // US rules since 2007: second Sunday of March, first Sunday of November, 02:00.
        let dst = Transition {
            month: 3,
            day_of_week: 0,
            day: 2,
            hour: 2,
            ..Default::default()
        };
        let std = Transition {
            month: 11,
            day_of_week: 0,
            day: 1,
            hour: 2,
            ..Default::default()
        };
        // 2013-03-10 is the second Sunday of March 2013 (March 1st was a Friday: Sundays 3, 10).
        let day = |y, m, d| days_from_civil(y, m, d) as f64 * 86_400_000.0;
        assert_eq!(dst.in_year(2013), Some(day(2013, 3, 10) + 7_200_000.0));
        // 2007-11-04 is the first Sunday of November 2007 (November 1st was a Thursday).
        assert_eq!(std.in_year(2007), Some(day(2007, 11, 4) + 7_200_000.0));
        // Week 5 is the last: the last Sunday of October 2026 is the 25th (October 31st is a Saturday).
        let last = Transition {
            month: 10,
            day_of_week: 0,
            day: 5,
            hour: 3,
            ..Default::default()
        };
        assert_eq!(last.in_year(2026), Some(day(2026, 10, 25) + 10_800_000.0));
        assert_eq!(Transition::default().in_year(2026), None);
    }

    #[test]
    fn zones_switch_bias_in_summer() {
        let z = Zone {
            bias: 300,
            daylight_bias: -60,
            daylight_date: Transition {
                month: 3,
                day_of_week: 0,
                day: 2,
                hour: 2,
                ..Default::default()
            },
            standard_date: Transition {
                month: 11,
                day_of_week: 0,
                day: 1,
                hour: 2,
                ..Default::default()
            },
            standard_name: "@tzres.dll,-112".into(),
            ..Default::default()
        };
        let day = |y, m, d| days_from_civil(y, m, d) as f64 * 86_400_000.0;
        // 2007-08-14 is summer: UTC = local + 300 - 60 = local + 240 minutes.
        assert_eq!(z.bias_at(day(2007, 8, 14)), 240);
        assert_eq!(z.bias_at(day(2007, 1, 14)), 300);
        // The spring change at 02:00 on 2007-03-11: 01:59 is standard, 03:00 daylight.
        assert_eq!(z.bias_at(day(2007, 3, 11) + 7_140_000.0), 300);
        assert_eq!(z.bias_at(day(2007, 3, 11) + 10_800_000.0), 240);
        assert_eq!(
            z.at(day(2007, 8, 14)),
            TimeZone {
                name: "UTC-04:00".into(),
                bias_minutes: 240
            }
        );
        // Southern hemisphere: daylight from October to April wraps the year end.
        let s = Zone {
            bias: -600,
            daylight_bias: -60,
            daylight_date: Transition {
                month: 10,
                day_of_week: 0,
                day: 1,
                hour: 2,
                ..Default::default()
            },
            standard_date: Transition {
                month: 4,
                day_of_week: 0,
                day: 1,
                hour: 3,
                ..Default::default()
            },
            ..Default::default()
        };
        assert_eq!(s.bias_at(day(2026, 1, 15)), -660);
        assert_eq!(s.bias_at(day(2026, 7, 15)), -600);
    }

    #[test]
    fn duplicate_instances_are_numbered() {
        let names: Vec<String> = ["svchost", "csrss", "svchost", "svchost"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            instance_keys(&names),
            vec!["svchost", "csrss", "svchost#1", "svchost#2"]
        );
    }

    #[test]
    fn a_record_beyond_the_limit_is_refused_while_joining() {
        // Two fragments of 40 MiB each: the second would make the record 80 MiB, over MAX_LINE (64 MiB).
        let mut r = BlgReader::new();
        r.buffer_size = 0x10000;
        let part = vec![0u8; 40 << 20];
        r.fragment(EVENT_SAMPLE, 1, 1, 3, &part, (1, 0x48)).unwrap();
        let e = r
            .fragment(EVENT_SAMPLE, 1, 2, 3, &part, (2, 0x48))
            .unwrap_err();
        assert_eq!((e.code, e.offset), ("too-large", Some(2 * 0x10000 + 0x48)));
    }

    #[test]
    fn more_series_than_the_limit_is_an_error() {
        let mut r = BlgReader::new();
        r.seen = vec![0];
        for j in 0..MAX_COLUMNS {
            r.column(0, j, "", || (String::new(), 0x10000, 0)).unwrap();
        }
        let e = r
            .column(0, MAX_COLUMNS, "", || (String::new(), 0x10000, 0))
            .unwrap_err();
        assert_eq!(e.0, "too-large");
    }

    #[test]
    fn instance_names_are_read_within_a_bound() {
        // 5000 units without a NUL: refused at the bound, not scanned to the end of the block.
        let mut b = vec![0x41u8; 2 * 5000];
        b.extend_from_slice(&[0, 0]);
        assert!(utf16z_bytes(&b, 0, "a name", MAX_NAME_UNITS)
            .unwrap_err()
            .contains("within 4096 characters"));
        assert_eq!(
            utf16z_bytes(&b, 2 * 1000, "a name", MAX_NAME_UNITS)
                .unwrap()
                .len(),
            2 * 4000
        );
    }

    #[test]
    fn guids_print_in_registry_form() {
        assert_eq!(
            guid_text(&PDH_PROVIDER),
            "{933f3bb3-943e-490d-9ced-3cbb14c14479}"
        );
    }
}
