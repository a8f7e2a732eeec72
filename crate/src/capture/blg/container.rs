//! The ETW container of a `.blg`: fixed-size buffers (each opening with a WMI_BUFFER_HEADER), events
//! (EVENT_TRACE_HEADER, then a payload preamble), records split into fragments and joined, and the log
//! header in buffer 0 (TRACE_LOGFILE_HEADER). The structures are the Windows SDK's evntrace.h; the
//! preamble and the event types of PDH's logger are described in `docs/blg.md`.

use super::bytes::{u16_at, u32_at};
use super::definitions::read_definitions;
use super::zone::Zone;
use super::{BlgReader, Layout};
use crate::capture::limits::MAX_LINE;
use crate::capture::{CaptureError, CaptureErrorKind};

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

const EVENT_DEFINITIONS: u8 = 0x20;
const EVENT_SAMPLE: u8 = 0x22;
const EVENT_TRAILER: u8 = 0x23;
const EVENT_NAMES: u8 = 0x24;

/// Where the u16 size of an event that is not PDH's is, by its header type (evntrace.h's
/// TRACE_HEADER_TYPE_*): system headers (1, 2: SYSTEM32/64; 3, 4: COMPACT32/64; 0x10, 0x11:
/// PERFINFO32/64) have `{u16 version, u8 type, u8 marker}` and then `{u16 size, u16 hook id}`; manifest
/// events (0x12, 0x13: EVENT_HEADER32/64) start with their size. `None` for PDH's own full headers
/// (0x0A, 0x14) and for types no logger of a perfmon log writes.
fn other_event_size_at(header_type: u8) -> Option<usize> {
    match header_type {
        0x01..=0x04 | 0x10 | 0x11 => Some(4),
        0x12 | 0x13 => Some(0),
        _ => None,
    }
}

/// Does `b` start like a .blg: a buffer size, then the logger's system header event at 0x48?
pub(crate) fn looks_like_blg(b: &[u8]) -> bool {
    b.len() >= BUFFER_HEADER + 4
        && valid_buffer_size(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        && matches!(b[0x4A], 1 | 2)
        && b[0x4B] == 0xC0
}

/// ETW buffers are whole KiB, at least 4 KiB and at most 16 MiB.
pub(super) fn valid_buffer_size(n: usize) -> bool {
    (0x1000..=0x100_0000).contains(&n) && n % 0x400 == 0
}

/// What buffer 0 says about the log.
#[derive(Clone, Debug)]
pub(super) struct LogHeader {
    pub(super) pointer_size: usize,
    pub(super) version: (u8, u8),
    pub(super) build: u32,
    pub(super) zone: Zone,
    /// TRACE_LOGFILE_HEADER's BuffersWritten: more than the file holds means it was cut at a buffer edge.
    pub(super) buffers_written: u32,
}

/// Fragments of one record being joined.
pub(super) struct Partial {
    kind: u8,
    pub(super) count: u32,
    pub(super) next: u32,
    timestamp: u64,
    /// Where its first fragment was (buffer, offset in the buffer).
    pub(super) at: (usize, usize),
    data: Vec<u8>,
}

/// A joined record and where its first fragment was.
struct Record<'a> {
    kind: u8,
    timestamp: u64,
    at: (usize, usize),
    data: &'a [u8],
}

fn at_buffer(
    buffer: usize,
    buffer_size: usize,
    offset: usize,
    code: CaptureErrorKind,
    what: String,
) -> CaptureError {
    CaptureError::at_offset(
        code,
        buffer * buffer_size + offset,
        format!("buffer {buffer}, event at +{offset:#x}: {what}"),
    )
}

impl BlgReader {
    /// Reads one buffer. A file cut short ends in a partial buffer (`b` shorter than the buffer size):
    /// its events that are complete are read, and reading stops at the first that is not.
    pub(super) fn buffer(&mut self, b: &[u8]) -> Result<(), CaptureError> {
        let index = self.buffers;
        self.buffers += 1;
        let n = self.buffer_size;
        let cut = b.len() < n;
        if b.len() < BUFFER_HEADER + EVENT_HEADER {
            return Ok(()); // not even the buffer's header and one event's: nothing in it can be read
        }
        let fail = |offset: usize, what: String| {
            CaptureError::at_offset(
                CaptureErrorKind::BadBlg,
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
        while at + 8 <= end {
            let ev = &b[at..end];
            if ev[..4] == [0xFF; 4] {
                // Windows 8 and later fill a buffer's unused space with 0xFF, and some loggers count the
                // fill as data (+0x30 says the whole buffer): no event starts with a 0xFFFF size and
                // header type 0xFF, so the fill ends the buffer's events.
                break;
            }
            let header_type = ev[2];
            if ev[3] != 0xC0 {
                return Err(at_buffer(index, n, at, CaptureErrorKind::BadBlg, format!("expected an event header (marker 0xC0), found type {header_type:#04x} marker {:#04x}", ev[3])));
            }
            if let Some(size_at) = other_event_size_at(header_type) {
                // An event of the trace's own machinery (the logger's system events, or a manifest
                // provider's), not PDH's: skipped by its size, its type listed in a note.
                let size = usize::from(u16::from_le_bytes([ev[size_at], ev[size_at + 1]]));
                if cut && size > ev.len() {
                    break;
                }
                if size < 0x18 || size > ev.len() {
                    return Err(at_buffer(index, n, at, CaptureErrorKind::BadBlg, format!("expected a logger event (header type {header_type:#04x}) of 24 to {} bytes, found size {size}", ev.len())));
                }
                // System headers name the event by its hook id (+6: type, +7: group); the others by
                // header type alone.
                let hook = if size_at == 4 {
                    u16::from_le_bytes([ev[6], ev[7]])
                } else {
                    0
                };
                self.skipped_event(header_type, hook, index * n + at);
                at += (size + 7) & !7;
                continue;
            }
            if !matches!(header_type, 0x0A | 0x14) {
                return Err(at_buffer(index, n, at, CaptureErrorKind::BadBlg, format!("expected an event header (type 0x0A or 0x14 for PDH's events; 0x01-0x04, 0x10-0x13 for the logger's), found type {header_type:#04x} marker {:#04x}", ev[3])));
            }
            if at + EVENT_HEADER > end {
                break; // not even a whole event header before the buffer's data ends
            }
            let size = usize::from(u16::from_le_bytes([ev[0], ev[1]]));
            if cut && size > ev.len() {
                break; // the event runs past where the file was cut
            }
            if size < EVENT_HEADER + PREAMBLE || size > ev.len() {
                return Err(at_buffer(
                    index,
                    n,
                    at,
                    CaptureErrorKind::BadBlg,
                    format!(
                        "expected an event of {} to {} bytes, found size {size}",
                        EVENT_HEADER + PREAMBLE,
                        ev.len()
                    ),
                ));
            }
            if ev[0x18..0x28] != PDH_PROVIDER {
                return Err(at_buffer(index, n, at, CaptureErrorKind::Unsupported, format!("expected an event of PDH's perfmon logger {{933f3bb3-943e-490d-9ced-3cbb14c14479}}, found provider {}: this trace is not a perfmon log", guid_text(&ev[0x18..0x28]))));
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
                CaptureErrorKind::BadBlg,
                format!("expected fragment i of n with 1 <= i <= n, found {index} of {count}"),
            ));
        }
        if let Some(p) = &self.partial {
            if index == 1 {
                return Err(at_buffer(at.0, n, at.1, CaptureErrorKind::BadBlg, format!("expected fragment {} of {} of the record started in buffer {} at +{:#x}, found a new record", p.next, p.count, p.at.0, p.at.1)));
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
            // The bytes of the last joined record are reused: no allocation per record.
            let mut joined = std::mem::take(&mut self.joined);
            joined.clear();
            joined.extend_from_slice(data);
            self.partial = Some(Partial {
                kind,
                count,
                next: 2,
                timestamp,
                at,
                data: joined,
            });
            return Ok(());
        }
        let Some(p) = &mut self.partial else {
            return Err(at_buffer(at.0, n, at.1, CaptureErrorKind::BadBlg, format!("expected a first fragment, found fragment {index} of {count} with no record before it")));
        };
        if p.kind != kind || p.count != count || p.next != index || p.timestamp != timestamp {
            return Err(at_buffer(at.0, n, at.1, CaptureErrorKind::BadBlg, format!(
                "expected fragment {} of {} of a type {:#04x} record, found fragment {index} of {count} of type {kind:#04x}", p.next, p.count, p.kind)));
        }
        if p.data.len() + data.len() > MAX_LINE {
            return Err(at_buffer(
                at.0,
                n,
                at.1,
                CaptureErrorKind::TooLarge,
                format!("a record of more than {MAX_LINE} bytes is not read"),
            ));
        }
        p.data.extend_from_slice(data);
        p.next += 1;
        if index == count {
            if let Some(p) = self.partial.take() {
                let result = self.record(Record {
                    kind: p.kind,
                    timestamp: p.timestamp,
                    at: p.at,
                    data: &p.data,
                });
                self.joined = p.data;
                result?;
            }
        }
        Ok(())
    }

    fn record(&mut self, r: Record<'_>) -> Result<(), CaptureError> {
        let n = self.buffer_size;
        let fail = |code: CaptureErrorKind, what: String| at_buffer(r.at.0, n, r.at.1, code, what);
        match r.kind {
            EVENT_NAMES => self.read_names(r.data).map_err(|w| fail(CaptureErrorKind::BadBlg, format!("the counter name table: {w}"))),
            EVENT_DEFINITIONS => {
                if self.defs.is_some() {
                    return Err(fail(CaptureErrorKind::Unsupported, "a second definitions event (counters added to a running log) is not read: no sample log shows its layout".into()));
                }
                let defs = read_definitions(r.data).map_err(|w| fail(CaptureErrorKind::BadBlg, format!("the counter definitions: {w}")))?;
                self.seen = vec![0; defs.len()];
                self.keys = vec![std::collections::HashMap::new(); defs.len()];
                self.layouts = defs.iter().map(|_| Layout::default()).collect();
                self.wanted = defs
                    .iter()
                    .map(|d| self.options.wants_object(d.machine(), &d.object))
                    .collect();
                self.defs = Some(defs);
                Ok(())
            }
            EVENT_SAMPLE => {
                self.record_at = r.at.0 * n + r.at.1;
                let Some(defs) = self.defs.take() else {
                    return Err(fail(CaptureErrorKind::BadBlg, "expected the counter definitions before the first sample".into()));
                };
                let result = self.read_sample(&defs, r.timestamp, r.data).map_err(|(code, w)| fail(code, format!("sample {}: {w}", self.samples_read())));
                self.defs = Some(defs);
                result
            }
            EVENT_TRAILER => {
                self.trailer_samples = Some(u32_at(r.data, 16, "the trailer's sample count").map_err(|w| fail(CaptureErrorKind::BadBlg, w))?);
                Ok(())
            }
            other => Err(fail(CaptureErrorKind::Unsupported, format!("expected a name table (0x24), definitions (0x20), sample (0x22) or trailer (0x23) event, found type {other:#04x}"))),
        }
    }
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
        buffers_written: u32_at(h, l + 0x24, "BuffersWritten")?,
    };
    Ok((header, e + ((size + 7) & !7)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            (e.kind, e.offset),
            (CaptureErrorKind::TooLarge, Some(2 * 0x10000 + 0x48))
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
