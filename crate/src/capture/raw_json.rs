//! The counterlens raw capture, version 1: V2 counter sets as registered, and raw samples with the
//! PERF_DATA_HEADER times. Nothing standard exists for this; the schema is
//! `schema/counterlens-raw-capture-v1.schema.json`, and docs/captures.md describes it.
//!
//! ```json
//! { "format": "counterlens-raw-capture", "version": 1, "machine": "HOST",
//!   "timeZone": { "name": "Pacific Standard Time", "biasMinutes": 480 },
//!   "counterSets": [ <a counter set in the registration JSON form, with names> ],
//!   "samples": [ { "systemTime": "2026-11-22T09:00:00.000Z", "perfTimeStamp": 123, "perfTime100NSec": "1340...",
//!                  "perfFreq": 10000000,
//!                  "data": { "<counterSetGuid>": { "<instance, \"\" for single-instance>": [raw, ...] } } } ] }
//! ```
//! Raw values follow the set's counter order, as integers or decimal strings (JSON writers that go
//! through doubles must write values beyond 2^53 as strings).
//!
//! The registration is validated first: any error stops reading. Then every displayable counter of every
//! instance is cooked with cap100 on and without DefaultScale, as relog writes a counter and as a .blg's
//! series reads (the counter's DefaultScale is kept on the series, for a Perfmon-scale display), taking D, F
//! and M from where the type says: the PERF_DATA_HEADER times for system and 100 ns timers, the
//! BaseCounterId counter for fractions and precision timers, PerfTimeId / PerfFreqId for object timers,
//! MultiId for the MULTI timers.

use super::json_fields::NumberOrText;
use super::text::Encoding;
use super::{
    path, Capture, CaptureEncoding, CaptureError, CaptureErrorKind, Format, Note, Series, TimeZone,
};
use crate::cook::{cook, CookOptions, RawSample};
use crate::registration::{
    read_registration, Counter, CounterSet, Format as RegFormat, Input, Severity,
};
use crate::types::{CounterType, Formula, PERF_DELTA_COUNTER};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// A 64-bit value as an integer or as its decimal text.
type Int = NumberOrText;

impl Int {
    fn get(&self) -> Option<u64> {
        match self {
            Int::Number(n) => Some(*n),
            Int::Text(t) => t.trim().parse().ok(),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Sample {
    system_time: String,
    perf_time_stamp: Int,
    /// Spelled as the docs spell it (winperf.h's field is PerfTime100nSec).
    #[serde(rename = "perfTime100NSec")]
    perf_time_100n_sec: Int,
    perf_freq: Int,
    /// Set GUID -> instance name -> raw values in counter order.
    data: BTreeMap<String, HashMap<String, Vec<Int>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawCapture {
    format: String,
    version: u32,
    machine: String,
    time_zone: Option<TimeZone>,
    counter_sets: Vec<serde_json::Value>,
    samples: Vec<Sample>,
}

/// Where a raw sample's D (or B) and F come from, by the counter's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    None,
    PerfTime,
    PerfTime100Ns,
    PerfFreq,
    TenMillion,
    Counter(usize),
}

/// D and F sources of counter `c` (an index into the set's counters by id).
fn sources(c: &Counter, by_id: &HashMap<u32, usize>) -> (Source, Source) {
    let ty = CounterType::from_value(c.ty);
    let counter = |id: Option<u32>| {
        id.and_then(|i| by_id.get(&i).copied())
            .map_or(Source::None, Source::Counter)
    };
    let timer = c.ty & 0x0030_0000;
    let subtype = c.ty & 0x000F_0000;
    match ty.formula() {
        Some(Formula::Elapsed) => (counter(c.perf_time_id), counter(c.perf_freq_id)),
        Some(Formula::AverageTimer) => (counter(c.base_counter_id), Source::PerfFreq),
        Some(Formula::AverageBulk | Formula::RawFraction) => {
            (counter(c.base_counter_id), Source::None)
        }
        Some(_) if timer == 0x0020_0000 => (counter(c.perf_time_id), counter(c.perf_freq_id)),
        // SAMPLE_FRACTION and the PRECISION system/100 ns timers divide by their base counter.
        Some(_) if subtype == 0x0002_0000 || subtype == 0x0007_0000 => {
            (counter(c.base_counter_id), Source::None)
        }
        Some(_) if timer == 0x0010_0000 => (Source::PerfTime100Ns, Source::TenMillion),
        Some(_) => (Source::PerfTime, Source::PerfFreq),
        None => (Source::None, Source::None),
    }
}

fn err(message: String) -> CaptureError {
    CaptureError {
        kind: CaptureErrorKind::BadRawCapture,
        message,
        line: None,
        column: None,
        offset: None,
        field: None,
    }
}

pub(crate) fn read(text: &str) -> Result<Capture, CaptureError> {
    let body = text.trim_start_matches('\u{feff}');
    let raw: RawCapture = serde_json::from_str(body).map_err(|e| {
        CaptureError::at_line(CaptureErrorKind::BadJson, e.line() as u32, e.column() as u32, format!("expected a counterlens raw capture (schema/counterlens-raw-capture-v1.schema.json): {e}"))
    })?;
    if raw.format != "counterlens-raw-capture" || raw.version != 1 {
        return Err(err(format!(
            "format {:?} version {}: this reader knows \"counterlens-raw-capture\" version 1",
            raw.format, raw.version
        )));
    }
    // The registration first: invalid sets are not cooked.
    let reg_text = serde_json::json!({ "counterSets": raw.counter_sets }).to_string();
    let (sets, report) = read_registration(Input::Text(&reg_text), Some(RegFormat::Json));
    if report.errors > 0 {
        let first = report
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map_or(String::new(), |d| {
                format!(
                    "{}{}: {}",
                    d.code,
                    d.counter_id
                        .map_or(String::new(), |i| format!(" (counter {i})")),
                    d.message
                )
            });
        return Err(CaptureError {
            kind: CaptureErrorKind::RegistrationInvalid,
            message: format!(
                "the capture's registration has {} error(s); the first: {first}",
                report.errors
            ),
            line: None,
            column: None,
            offset: None,
            field: None,
        });
    }
    let mut notes: Vec<Note> = report
        .diagnostics
        .iter()
        .map(|d| {
            let severity = if d.severity == Severity::Warning {
                "warning"
            } else {
                "info"
            };
            Note {
                code: "registration",
                message: format!("registration {severity} {}: {}", d.code, d.message),
                line: None,
            }
        })
        .collect();

    let n = raw.samples.len();
    let mut timestamps = Vec::with_capacity(n);
    for (k, s) in raw.samples.iter().enumerate() {
        let t = super::get_counter::parse_time(&s.system_time)
            .map(|t| t.0)
            .ok_or_else(|| {
                err(format!(
                    "sample {k}: systemTime {:?} is not an ISO 8601 time",
                    s.system_time
                ))
            })?;
        if timestamps.last().is_some_and(|&p| t < p) {
            return Err(err(format!("sample {k}: systemTime goes back in time")));
        }
        timestamps.push(t);
    }
    let header = |k: usize, src: Source| -> Option<u64> {
        let s = &raw.samples[k];
        match src {
            Source::PerfTime => s.perf_time_stamp.get(),
            Source::PerfTime100Ns => s.perf_time_100n_sec.get(),
            Source::PerfFreq => s.perf_freq.get(),
            Source::TenMillion => Some(10_000_000),
            _ => None,
        }
    };
    // Each sample's data keyed by the GUID in registry form, worked out once per sample: the capture may
    // write a GUID with braces or in upper case.
    let data: Vec<HashMap<String, &HashMap<String, Vec<Int>>>> = raw
        .samples
        .iter()
        .map(|s| s.data.iter().map(|(g, v)| (normalise_guid(g), v)).collect())
        .collect();
    let mut series = Vec::new();
    let mut bad_rows = 0usize;
    for set in &sets {
        let guid = set.guid.map(|g| g.to_string()).unwrap_or_default();
        let set_name = set.name.clone().unwrap_or_else(|| guid.clone());
        let by_id: HashMap<u32, usize> = set
            .counters
            .iter()
            .enumerate()
            .map(|(i, c)| (c.counter_id, i))
            .collect();
        // Instances in order of first appearance.
        let mut instances: Vec<&str> = Vec::new();
        for d in &data {
            let Some(inst) = d.get(&guid) else { continue };
            let mut names: Vec<&str> = inst
                .keys()
                .map(String::as_str)
                .filter(|k| !instances.contains(k))
                .collect();
            names.sort_unstable();
            instances.extend(names);
        }
        for inst in instances {
            // Raw rows of this instance per sample (None where absent or malformed).
            let rows: Vec<Option<Vec<Option<u64>>>> = data
                .iter()
                .map(|d| {
                    let row = d.get(&guid)?.get(inst)?;
                    if row.len() != set.counters.len() {
                        bad_rows += 1;
                        return None;
                    }
                    Some(row.iter().map(Int::get).collect())
                })
                .collect();
            for (me, c) in set.counters.iter().enumerate() {
                let ty = CounterType::from_value(c.ty);
                if ty.samples() == 0 || ty.formula() == Some(Formula::Text) {
                    continue;
                }
                series.push(cook_counter(
                    &raw.machine,
                    &set_name,
                    set,
                    inst,
                    me,
                    &by_id,
                    &rows,
                    &header,
                ));
            }
        }
    }
    if bad_rows > 0 {
        notes.push(Note {
            code: "bad-rows",
            message: format!(
                "{bad_rows} instance rows did not have one raw value per counter; they are gaps"
            ),
            line: None,
        });
    }
    Ok(Capture {
        format: Some(Format::CounterlensJson),
        encoding: Some(CaptureEncoding::Text(Encoding::UTF_8)),
        time_zone: raw.time_zone,
        timestamps,
        series,
        notes,
    })
}

fn normalise_guid(g: &str) -> String {
    crate::registration::Guid::parse(g).map_or_else(|| g.to_ascii_lowercase(), |g| g.to_string())
}

#[allow(clippy::too_many_arguments)]
fn cook_counter(
    machine: &str,
    set_name: &str,
    set: &CounterSet,
    inst: &str,
    me: usize,
    by_id: &HashMap<u32, usize>,
    rows: &[Option<Vec<Option<u64>>>],
    header: &dyn Fn(usize, Source) -> Option<u64>,
) -> Series {
    let c = &set.counters[me];
    let ty = CounterType::from_value(c.ty);
    let (d_src, f_src) = sources(c, by_id);
    let m_idx = c.multi_id.and_then(|id| by_id.get(&id).copied());
    let sample = |k: usize| -> Option<RawSample> {
        let row = rows[k].as_ref()?;
        let get = |src: Source| match src {
            Source::Counter(i) => row[i],
            Source::None => None,
            other => header(k, other),
        };
        Some(RawSample {
            value: row[me]?,
            second: get(d_src),
            frequency: get(f_src),
            multi: m_idx.and_then(|i| row[i]),
        })
    };
    // Unscaled, so `Avg. Disk sec/Read` is in seconds as every other reader gives it and the analysis'
    // thresholds (in the counter's unit) apply; the scale goes on the series, as a .blg's does.
    let opts = CookOptions::default();
    let two = ty.samples() == 2 || c.ty & PERF_DELTA_COUNTER != 0;
    let values = (0..rows.len())
        .map(|k| {
            let Some(newer) = sample(k) else {
                return f64::NAN;
            };
            let older = if two && k > 0 { sample(k - 1) } else { None };
            cook(ty, older.as_ref(), &newer, &opts)
                .ok()
                .and_then(|r| r.value)
                .unwrap_or(f64::NAN)
        })
        .collect();
    let counter_name = c
        .name
        .clone()
        .unwrap_or_else(|| format!("Counter {}", c.counter_id));
    let path = if set.instance_type == 0 || set.instance_type == 4 {
        format!("\\\\{machine}\\{set_name}\\{counter_name}")
    } else {
        format!("\\\\{machine}\\{set_name}({inst})\\{counter_name}")
    };
    Series {
        parsed: path::parse(&path).unwrap_or_default(),
        path,
        counter_type: Some(c.ty),
        scale: (c.default_scale != 0).then_some(c.default_scale.clamp(-10, 10)),
        values,
        reference: None,
        raw: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(id: u32, ty: u32) -> Counter {
        Counter {
            counter_id: id,
            ty,
            detail_level: 100,
            ..Default::default()
        }
    }

    #[test]
    fn sources_by_type() {
        let ids: HashMap<u32, usize> = [(1, 0), (2, 1), (3, 2)].into_iter().collect();
        let mut c = counter(1, 0x1041_0400); // COUNTER_COUNTER: system time and frequency
        assert_eq!(sources(&c, &ids), (Source::PerfTime, Source::PerfFreq));
        c.ty = 0x2151_0500; // 100NSEC_TIMER_INV
        assert_eq!(
            sources(&c, &ids),
            (Source::PerfTime100Ns, Source::TenMillion)
        );
        c.ty = 0x20C2_0400; // SAMPLE_FRACTION -> base
        c.base_counter_id = Some(2);
        assert_eq!(sources(&c, &ids), (Source::Counter(1), Source::None));
        c.ty = 0x2057_0500; // PRECISION_100NS_TIMER -> base
        assert_eq!(sources(&c, &ids), (Source::Counter(1), Source::None));
        c.ty = 0x3002_0400; // AVERAGE_TIMER -> base and PerfFreq
        assert_eq!(sources(&c, &ids), (Source::Counter(1), Source::PerfFreq));
        c.ty = 0x2067_0500; // PRECISION_OBJECT_TIMER -> object time and frequency
        c.perf_time_id = Some(3);
        c.perf_freq_id = Some(2);
        assert_eq!(sources(&c, &ids), (Source::Counter(2), Source::Counter(1)));
        c.ty = 0x3024_0500; // ELAPSED_TIME
        assert_eq!(sources(&c, &ids), (Source::Counter(2), Source::Counter(1)));
        c.ty = 0x0001_0000; // RAWCOUNT: nothing but N (the timer bits say tick, unused)
        assert_eq!(sources(&c, &ids).0, Source::PerfTime);
    }

    /// tests/vectors/captures/raw-tiny.json's `Avg Time` (AVERAGE_TIMER, BaseCounterId 4, DefaultScale 3)
    /// is cooked in seconds, unscaled, and keeps its scale on the series (as a .blg's series does).
    #[test]
    fn default_scale_kept_not_applied() {
        let text = include_str!("../../../tests/vectors/captures/raw-tiny.json");
        let cap = read(text).unwrap();
        let s = cap
            .series
            .iter()
            .find(|s| s.path.ends_with("Tiny(a)\\Avg Time"))
            .unwrap();
        assert_eq!(s.scale, Some(3));
        // AVERAGE_TIMER: ((N1 - N0) / F) / (B1 - B0), F = perfFreq 1000.
        // Sample 2: ((500 - 0) / 1000) / (2 - 0) = 0.25 s (Perfmon's graph: x 10^3 = 250).
        // Sample 3: ((1500 - 500) / 1000) / (4 - 2) = 0.5 s.
        assert!(s.values[0].is_nan());
        assert_eq!(&s.values[1..], &[0.25, 0.5]);
        // Instance b appears at sample 2 with N 0, B 0; sample 3: ((50 - 0) / 1000) / (1 - 0) = 0.05 s.
        let b = cap
            .series
            .iter()
            .find(|s| s.path.ends_with("Tiny(b)\\Avg Time"))
            .unwrap();
        assert_eq!(b.values[2], 0.05);
        // A counter with DefaultScale 0 carries none.
        let rate = cap
            .series
            .iter()
            .find(|s| s.path.ends_with("Tiny(a)\\Rate"))
            .unwrap();
        assert_eq!(rate.scale, None);
    }
}
