//! `--to json`: sample sets in the shape of PowerShell 7's `Get-Counter | ConvertTo-Json` (Timestamp
//! with its offset, CounterSamples with Path and CookedValue), so PowerShell and counterlens both read
//! it. Where the input carried raw samples (Get-Counter captures) they are written too (RawValue,
//! SecondValue, TimeBase, MultipleCount, CounterType), and counterlens re-cooks from them on reading.

use crate::time::iso;
use counterlens::capture::Capture;
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Sample<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance_name: Option<&'a str>,
    cooked_value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw_value: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    second_value: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_base: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    multiple_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counter_type: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct SampleSet<'a> {
    timestamp: String,
    counter_samples: Vec<Sample<'a>>,
}

pub fn write<W: Write>(c: &Capture, mut out: W) -> std::io::Result<()> {
    let east = c.time_zone.as_ref().map_or(0, |z| -z.bias_minutes);
    out.write_all(b"[")?;
    for (k, &t) in c.timestamps.iter().enumerate() {
        let samples = c
            .series
            .iter()
            .filter_map(|s| {
                let raw = s.raw.as_ref().and_then(|r| r.get(k));
                let v = s.values[k];
                // A raw sample without a cooked value (the first of a rate) is kept: it cooks the next.
                if v.is_nan() && raw.is_none() {
                    return None;
                }
                Some(Sample {
                    path: &s.path,
                    instance_name: s.parsed.instance.as_deref(),
                    cooked_value: if v.is_nan() { 0.0 } else { v },
                    raw_value: raw.map(|r| r.value),
                    second_value: raw.and_then(|r| r.second),
                    time_base: raw.and_then(|r| r.frequency),
                    multiple_count: raw.and_then(|r| r.multi),
                    counter_type: raw.and(s.counter_type),
                })
            })
            .collect();
        if k > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")?;
        serde_json::to_writer(
            &mut out,
            &SampleSet {
                timestamp: iso(t, east),
                counter_samples: samples,
            },
        )?;
    }
    out.write_all(b"\n]\n")?;
    Ok(())
}
