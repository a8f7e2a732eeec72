//! The binary form: PERF_COUNTERSET_REG_INFO (32 bytes) followed by NumCounters PERF_COUNTER_REG_INFO
//! (48 bytes each), little-endian, as PerfQueryCounterSetRegistrationInfo returns them; several sets may
//! follow each other. Also hex text of those bytes, as pasted from a debugger.

use super::{
    Counter, CounterSet, Diagnostic, DiagnosticCode, Field, Guid, Pos, Severity, Spans, MAX_SETS,
    NO_COUNTER,
};

const SET_SIZE: usize = 32;
const COUNTER_SIZE: usize = 48;
const SRC: &str = "perflib.h PERF_COUNTERSET_REG_INFO";

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

fn reference(v: u32) -> Option<u32> {
    (v != NO_COUNTER).then_some(v)
}

fn parse_error(offset: usize, message: String) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::ParseError,
        Severity::Error,
        Pos::at(offset),
        message,
        SRC,
    )
}

/// Reads every counter-set block; what cannot be read becomes a diagnostic naming the byte offset.
pub fn read(b: &[u8], diags: &mut Vec<Diagnostic>) -> Vec<CounterSet> {
    let mut sets = Vec::new();
    if b.is_empty() {
        diags.push(parse_error(
            0,
            "the input is empty: expected a 32-byte PERF_COUNTERSET_REG_INFO".into(),
        ));
        return sets;
    }
    let mut off = 0;
    while off < b.len() {
        if sets.len() == MAX_SETS {
            diags.push(Diagnostic::new(
                DiagnosticCode::InputTooLarge,
                Severity::Error,
                Pos::at(off),
                format!("more than {MAX_SETS} counter sets: reading stopped at byte {off}"),
                SRC,
            ));
            break;
        }
        let remaining = b.len() - off;
        if remaining < SET_SIZE {
            diags.push(parse_error(off, format!(
                "{remaining} bytes at byte {off} are too short for a PERF_COUNTERSET_REG_INFO (32 bytes): the input is cut short or has trailing bytes")));
            break;
        }
        let mut guid = [0u8; 16];
        guid.copy_from_slice(&b[off..off + 16]);
        let num = u32_at(b, off + 24);
        let room = (remaining - SET_SIZE) / COUNTER_SIZE;
        let present = (num as usize).min(room);
        let truncated = present < num as usize;
        let mut set = CounterSet {
            guid: Some(Guid(guid)),
            counter_set_type: u32_at(b, off + 16),
            detail_level: u32_at(b, off + 20),
            num_counters: (!truncated).then_some(num),
            instance_type: u32_at(b, off + 28),
            spans: Spans {
                start: Pos::at(off),
                fields: vec![
                    (Field::CounterSetGuid, Pos::at(off)),
                    (Field::CounterSetType, Pos::at(off + 16)),
                    (Field::DetailLevel, Pos::at(off + 20)),
                    (Field::NumCounters, Pos::at(off + 24)),
                    (Field::InstanceType, Pos::at(off + 28)),
                ],
            },
            ..Default::default()
        };
        if truncated {
            diags.push(
                parse_error(off + 24, format!(
                    "NumCounters is {num}, which needs {} bytes of PERF_COUNTER_REG_INFO after byte {}, but only {} follow (room for {present}): the block is cut short or NumCounters is wrong",
                    num as u64 * COUNTER_SIZE as u64, off + SET_SIZE, remaining - SET_SIZE))
                .in_set(&set).field(Field::NumCounters),
            );
        }
        set.counters.reserve_exact(present);
        for i in 0..present {
            let o = off + SET_SIZE + i * COUNTER_SIZE;
            let at = |k: usize| Pos::at(o + k);
            set.counters.push(Counter {
                counter_id: u32_at(b, o),
                ty: u32_at(b, o + 4),
                attrib: u64::from(u32_at(b, o + 8)) | (u64::from(u32_at(b, o + 12)) << 32),
                detail_level: u32_at(b, o + 16),
                default_scale: u32_at(b, o + 20) as i32,
                base_counter_id: reference(u32_at(b, o + 24)),
                perf_time_id: reference(u32_at(b, o + 28)),
                perf_freq_id: reference(u32_at(b, o + 32)),
                multi_id: reference(u32_at(b, o + 36)),
                aggregate_func: u32_at(b, o + 40),
                reserved: u32_at(b, o + 44),
                name: None,
                description: None,
                unidentified: None,
                spans: Spans {
                    start: at(0),
                    fields: vec![
                        (Field::CounterId, at(0)),
                        (Field::Type, at(4)),
                        (Field::Attrib, at(8)),
                        (Field::DetailLevel, at(16)),
                        (Field::DefaultScale, at(20)),
                        (Field::BaseCounterId, at(24)),
                        (Field::PerfTimeId, at(28)),
                        (Field::PerfFreqId, at(32)),
                        (Field::MultiId, at(36)),
                        (Field::AggregateFunc, at(40)),
                        (Field::Reserved, at(44)),
                    ],
                },
            });
        }
        sets.push(set);
        off += SET_SIZE + present * COUNTER_SIZE;
        if truncated {
            break;
        }
    }
    sets
}

/// The binary blocks of `sets` (NumCounters is the number of counters present; names are dropped).
pub fn encode(sets: &[CounterSet]) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        sets.iter()
            .map(|s| SET_SIZE + COUNTER_SIZE * s.counters.len())
            .sum(),
    );
    for s in sets {
        out.extend_from_slice(&s.guid.unwrap_or_default().0);
        for v in [
            s.counter_set_type,
            s.detail_level,
            s.counters.len() as u32,
            s.instance_type,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for c in &s.counters {
            out.extend_from_slice(&c.counter_id.to_le_bytes());
            out.extend_from_slice(&c.ty.to_le_bytes());
            out.extend_from_slice(&c.attrib.to_le_bytes());
            out.extend_from_slice(&c.detail_level.to_le_bytes());
            out.extend_from_slice(&c.default_scale.to_le_bytes());
            for r in [
                c.base_counter_id,
                c.perf_time_id,
                c.perf_freq_id,
                c.multi_id,
            ] {
                out.extend_from_slice(&r.unwrap_or(NO_COUNTER).to_le_bytes());
            }
            out.extend_from_slice(&c.aggregate_func.to_le_bytes());
            out.extend_from_slice(&c.reserved.to_le_bytes());
        }
    }
    out
}

/// Bytes from hex text: pairs of hex digits separated (or not) by white space, commas or `-`, each
/// token optionally `0x`-prefixed. A debugger dump's address column (a first token ending in `:` or
/// holding a backtick, as WinDbg's `00000000`0a1b2c3d`) is skipped, and so is the ASCII column after
/// sixteen bytes on such a line.
#[allow(clippy::result_large_err)] // One diagnostic, returned once per call: boxing it would buy nothing.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, Diagnostic> {
    let mut out = Vec::with_capacity(text.len() / 3);
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut bytes_on_line = 0;
        let mut dump_line = false;
        let mut first = true;
        let mut cursor = 0;
        for token in line.split(|c: char| c.is_whitespace() || c == ',' || c == '-') {
            let token_at = line_start + cursor;
            cursor += token.len() + 1;
            if token.is_empty() {
                continue;
            }
            if first && (token.ends_with(':') || token.contains('`')) {
                dump_line = true;
                first = false;
                continue;
            }
            first = false;
            if dump_line && bytes_on_line >= 16 {
                break; // the ASCII column
            }
            let digits = token
                .strip_prefix("0x")
                .or_else(|| token.strip_prefix("0X"))
                .unwrap_or(token);
            if digits.is_empty()
                || digits.len() % 2 != 0
                || !digits.bytes().all(|b| b.is_ascii_hexdigit())
            {
                let pos = Pos::in_text(text, token_at);
                let shown: String = token.chars().take(20).collect();
                return Err(Diagnostic::new(
                    DiagnosticCode::ParseError,
                    Severity::Error,
                    pos,
                    format!(
                        "expected pairs of hex digits at line {} column {}, found {shown:?}",
                        pos.line.unwrap_or(1),
                        pos.column.unwrap_or(1)
                    ),
                    "counterlens",
                ));
            }
            for i in (0..digits.len()).step_by(2) {
                out.push(u8::from_str_radix(&digits[i..i + 2], 16).unwrap_or(0));
                bytes_on_line += 1;
            }
        }
        line_start += line.len();
    }
    if out.is_empty() {
        return Err(Diagnostic::new(
            DiagnosticCode::ParseError,
            Severity::Error,
            Pos::in_text(text, 0),
            "the text holds no hex bytes: expected PERF_COUNTERSET_REG_INFO blocks as hex".into(),
            "counterlens",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_forms() {
        assert_eq!(
            parse_hex("b3 3b 3f 93").unwrap(),
            vec![0xb3, 0x3b, 0x3f, 0x93]
        );
        assert_eq!(parse_hex("b33b3f93").unwrap(), vec![0xb3, 0x3b, 0x3f, 0x93]);
        assert_eq!(
            parse_hex("0xb3, 0x3b,0x3f\n0x93").unwrap(),
            vec![0xb3, 0x3b, 0x3f, 0x93]
        );
        // WinDbg db: address with a backtick, a '-' in the middle, an ASCII column after 16 bytes.
        let dump = "00000000`00a1b2c0  b3 3b 3f 93 43 94 0d 49-9c ed 3c bb 14 c1 44 79  .;?.C..I..<...Dy\n\
                    00000000`00a1b2d0  00 00 00 00 64 00 00 00-01 00 00 00 02 00 00 00  ....d...........\n";
        let b = parse_hex(dump).unwrap();
        assert_eq!(b.len(), 32);
        assert_eq!((b[0], b[15], b[20], b[28]), (0xb3, 0x79, 0x64, 0x02));
        assert_eq!(parse_hex("0010: ab cd").unwrap(), vec![0xab, 0xcd]);
    }

    #[test]
    fn hex_errors_name_line_and_column() {
        let e = parse_hex("b3 3b\n3f zz 93").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(4)));
        assert!(e.message.contains("\"zz\""), "{}", e.message);
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex("   \n").is_err());
    }
}
