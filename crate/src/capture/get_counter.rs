//! PowerShell Get-Counter captures: `Get-Counter ... | ConvertTo-Json -Depth 4`, an array of sample sets
//! or a single one, from Windows PowerShell 5.1 (`"Timestamp": "/Date(1763756708123)/"`) or PowerShell 7
//! (`"2026-11-21T20:25:08.123+01:00"`).
//!
//! Each sample carries PDH's raw counter (RawValue N, SecondValue D, TimeBase F, MultipleCount M) and
//! PDH's own CookedValue. counterlens cooks every series from the raw fields with the calculation core,
//! as Get-Counter does (cap100 off, no scaling), keeps PDH's value beside it as the reference, and
//! notes how many points differ. 64-bit raw values are read exactly (serde_json reads integers into
//! u64 without passing through a double).
//!
//! A sample with a CookedValue and neither RawValue nor CounterType (what `counterlens convert --to json`
//! writes for a log that holds only cooked values, such as a PDH-CSV) is read as that value.

use super::json_fields::{AnyU64, NumberOrText};
use super::text::Encoding;
use super::{
    path, Capture, CaptureEncoding, CaptureError, CaptureErrorKind, Format, Note, Series, TimeZone,
};
use crate::cook::{cook, CookOptions, RawSample};
use crate::types::{parse_type, CounterType};
use serde::Deserialize;
use std::collections::HashMap;

/// CounterType: the PERF_* number (32 bits) or its name.
enum TypeField {
    Number(u32),
    Name(String),
}

impl<'de> Deserialize<'de> for TypeField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match NumberOrText::deserialize(d)? {
            NumberOrText::Number(n) => u32::try_from(n).map(TypeField::Number).map_err(|_| {
                serde::de::Error::invalid_value(
                    serde::de::Unexpected::Unsigned(n),
                    &"a counter type of 32 bits",
                )
            }),
            NumberOrText::Text(t) => Ok(TypeField::Name(t)),
        }
    }
}

/// A JSON integer that should be an unsigned 64-bit raw value; anything else is kept as not-a-value.
type RawField = AnyU64;

impl RawField {
    fn get(&self) -> Option<u64> {
        self.0
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Sample {
    path: String,
    cooked_value: Option<f64>,
    raw_value: Option<RawField>,
    second_value: Option<RawField>,
    multiple_count: Option<RawField>,
    time_base: Option<RawField>,
    counter_type: Option<TypeField>,
    status: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct SampleSet {
    timestamp: String,
    counter_samples: Vec<Sample>,
}

/// `/Date(1763756708123)/` (ms since the epoch, UTC; an offset suffix like `+0100` only says the
/// writer's zone) or ISO 8601 with an offset (`2026-11-21T20:25:08.1234567+01:00`, `...Z`).
/// Returns UTC ms and the offset in minutes east of UTC when the text gave one.
pub(crate) fn parse_time(s: &str) -> Option<(f64, Option<i32>)> {
    if let Some(inner) = s.strip_prefix("/Date(").and_then(|r| r.strip_suffix(")/")) {
        let digits = inner
            .find(['+', '-'])
            .filter(|&i| i > 0)
            .map_or(inner, |i| &inner[..i]);
        return digits.parse::<i64>().ok().map(|ms| (ms as f64, None));
    }
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-');
    let (y, mo, da): (i64, u32, u32) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    if !(1..=12).contains(&mo) || da == 0 || da > crate::civil::days_in_month(y, mo) {
        return None;
    }
    let (clock, offset) = if let Some(c) = time.strip_suffix('Z') {
        (c, Some(0))
    } else if let Some(i) = time.rfind(['+', '-']) {
        let (sign, hm) = (if &time[i..=i] == "-" { -1 } else { 1 }, &time[i + 1..]);
        let (h, m) = hm
            .split_once(':')
            .unwrap_or((hm.get(..2)?, hm.get(2..).unwrap_or("0")));
        (
            &time[..i],
            Some(sign * (h.parse::<i32>().ok()? * 60 + m.parse::<i32>().ok()?)),
        )
    } else {
        (time, None)
    };
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, ""));
    let mut t = hms.split(':');
    let (h, mi, se): (u32, u32, u32) = (
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
    );
    if h > 23 || mi > 59 || se > 60 || !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 9 {
        return None;
    }
    let frac_ms = if frac.is_empty() {
        0.0
    } else {
        frac.parse::<f64>().ok()? * 1000.0 / 10f64.powi(frac.len() as i32)
    };
    let local = crate::civil::ms_from_civil(y, mo, da, h, mi, se) + frac_ms;
    Some((local - f64::from(offset.unwrap_or(0)) * 60_000.0, offset))
}

/// The raw fields of one series, one entry per sample set (`None` where the series is absent).
struct Raw {
    path: String,
    ty: Option<CounterType>,
    samples: Vec<Option<(RawSample, Option<f64>, bool)>>, // raw, PDH's CookedValue, PDH status ok
    /// Samples that carry only a CookedValue: (sample set, value).
    cooked: Vec<(usize, f64)>,
}

pub(crate) fn read(text: &str) -> Result<Capture, CaptureError> {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    let skipped = text.len() - body.len();
    let json_error = |e: serde_json::Error| {
        // serde_json counts lines and columns in `body`; the skipped prefix is at most a BOM and blanks.
        let line = e.line() as u32 + text[..skipped].matches('\n').count() as u32;
        CaptureError::at_line(
            CaptureErrorKind::BadJson,
            line,
            e.column() as u32,
            format!(
                "expected Get-Counter JSON (sample sets with Timestamp and CounterSamples): {e}"
            ),
        )
    };
    let sets: Vec<SampleSet> = if body.starts_with('[') {
        serde_json::from_str(body).map_err(json_error)?
    } else {
        vec![serde_json::from_str(body).map_err(json_error)?]
    };
    let mut timestamps = Vec::with_capacity(sets.len());
    let mut zone_offset = None;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut raws: Vec<Raw> = Vec::new();
    let mut unreadable = 0usize;
    let mut cooked_only = 0usize;
    for (k, set) in sets.iter().enumerate() {
        let (t, offset) = parse_time(&set.timestamp).ok_or_else(|| {
            CaptureError::at_offset(CaptureErrorKind::BadTime, 0, format!("sample set {k}: expected a Timestamp like \"/Date(1763756708123)/\" or \"2026-11-21T20:25:08.123+01:00\", found {:?}", set.timestamp.chars().take(40).collect::<String>()))
        })?;
        if zone_offset.is_none() {
            zone_offset = offset;
        }
        timestamps.push(t);
        for s in &set.counter_samples {
            // Looked up by reference: the path is copied only the first time a series is seen.
            let i = match index.get(s.path.as_str()) {
                Some(&i) => i,
                None => {
                    raws.push(Raw {
                        path: s.path.clone(),
                        ty: None,
                        samples: vec![None; sets.len()],
                        cooked: Vec::new(),
                    });
                    index.insert(s.path.clone(), raws.len() - 1);
                    raws.len() - 1
                }
            };
            let ty = match &s.counter_type {
                Some(TypeField::Number(n)) => Some(CounterType::from_value(*n)),
                Some(TypeField::Name(n)) => parse_type(n).ok(),
                None => None,
            };
            raws[i].ty = raws[i].ty.or(ty);
            match s.raw_value.as_ref().and_then(RawField::get) {
                Some(value) => {
                    let sample = RawSample {
                        value,
                        second: s.second_value.as_ref().and_then(RawField::get),
                        frequency: s.time_base.as_ref().and_then(RawField::get),
                        multi: s.multiple_count.as_ref().and_then(RawField::get),
                    };
                    raws[i].samples[k] = Some((sample, s.cooked_value, s.status.unwrap_or(0) == 0));
                }
                None => match (&s.raw_value, &s.counter_type, s.cooked_value) {
                    (None, None, Some(v)) => {
                        raws[i].cooked.push((k, v));
                        cooked_only += 1;
                    }
                    _ => unreadable += 1,
                },
            }
        }
    }
    // Cook each series against the previous sample set, as Get-Counter shows it: cap100 off, no scale.
    let opts = CookOptions {
        cap100: false,
        ..CookOptions::default()
    };
    let (mut compared, mut differ, mut errors) = (0usize, 0usize, 0usize);
    let series = raws
        .into_iter()
        .map(|r| {
            let n = r.samples.len();
            let (mut values, mut reference) = (vec![f64::NAN; n], vec![f64::NAN; n]);
            let mut raw = super::RawColumn {
                options: opts,
                ..Default::default()
            };
            for s in &r.samples {
                raw.push(s.as_ref().map(|s| &s.0));
            }
            if let Some(ty) = r.ty {
                for k in 0..n {
                    let Some((newer, pdh, pdh_ok)) = &r.samples[k] else {
                        continue;
                    };
                    if *pdh_ok {
                        reference[k] = pdh.unwrap_or(f64::NAN);
                    }
                    let older = if k > 0 {
                        r.samples[k - 1].as_ref().map(|s| s.0)
                    } else {
                        None
                    };
                    match cook(ty, older.as_ref(), newer, &opts) {
                        Ok(c) => values[k] = c.value.unwrap_or(f64::NAN),
                        Err(_) => errors += 1,
                    }
                    let (a, b) = (values[k], reference[k]);
                    if a.is_finite() && b.is_finite() {
                        compared += 1;
                        if (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1e-300) {
                            differ += 1;
                        }
                    }
                }
            }
            for &(k, v) in &r.cooked {
                values[k] = v;
                reference[k] = v;
            }
            Series {
                parsed: path::parse(&r.path).unwrap_or_default(),
                path: r.path,
                counter_type: r.ty.map(|t| t.value),
                scale: None,
                values,
                reference: Some(reference),
                raw: r.ty.is_some().then_some(raw),
            }
        })
        .collect();
    let mut notes = vec![Note {
        code: "pdh-comparison",
        message: format!("{differ} of {compared} points where both have a value differ from PDH's CookedValue by more than 1e-9 relative"),
        line: None,
    }];
    if unreadable > 0 {
        notes.push(Note { code: "unreadable-raw", message: format!("{unreadable} samples had no RawValue readable as an unsigned integer; they are gaps"), line: None });
    }
    if cooked_only > 0 {
        notes.push(Note { code: "cooked-only", message: format!("{cooked_only} samples had a CookedValue and no raw fields (RawValue, CounterType); they are read as given"), line: None });
    }
    if errors > 0 {
        notes.push(Note { code: "missing-raw-fields", message: format!("{errors} points lacked a raw field their type needs (SecondValue, TimeBase or MultipleCount); they are gaps"), line: None });
    }
    let time_zone = zone_offset.map(|m| TimeZone {
        name: format!(
            "UTC{}{:02}:{:02}",
            if m < 0 { '-' } else { '+' },
            m.abs() / 60,
            m.abs() % 60
        ),
        bias_minutes: -m,
    });
    Ok(Capture {
        format: Some(Format::GetCounterJson),
        encoding: Some(CaptureEncoding::Text(Encoding::UTF_8)),
        time_zone,
        timestamps,
        series,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cooked_only_samples_read_as_given() {
        // Two sets; the memory series carries only CookedValue, the rate series a RawValue too.
        let text = r#"[
          {"Timestamp": "2026-11-21T12:00:00Z", "CounterSamples": [
            {"Path": "\\\\h\\memory\\available mbytes", "CookedValue": 1536.25}]},
          {"Timestamp": "2026-11-21T12:00:01Z", "CounterSamples": [
            {"Path": "\\\\h\\memory\\available mbytes", "CookedValue": 1024},
            {"Path": "\\\\h\\memory\\pages/sec", "CookedValue": 3}]}]"#;
        let c = read(text).unwrap();
        assert_eq!(c.series[0].values, vec![1536.25, 1024.0]);
        assert!(c.series[0].raw.is_none());
        assert!(c.series[1].values[0].is_nan() && c.series[1].values[1] == 3.0);
        assert!(c
            .notes
            .iter()
            .any(|n| n.code == "cooked-only" && n.message.starts_with("3 samples")));
        // A RawValue that is not an unsigned integer stays a gap, as before.
        let bad = r#"{"Timestamp": "2026-11-21T12:00:00Z", "CounterSamples": [
            {"Path": "\\\\h\\memory\\x", "CookedValue": 5, "RawValue": -1}]}"#;
        let c = read(bad).unwrap();
        assert!(c.series[0].values[0].is_nan());
        assert!(c.notes.iter().any(|n| n.code == "unreadable-raw"));
    }

    #[test]
    fn both_powershell_time_shapes() {
        assert_eq!(
            parse_time("/Date(1763756708123)/"),
            Some((1_763_756_708_123.0, None))
        );
        assert_eq!(
            parse_time("/Date(1763756708123+0100)/"),
            Some((1_763_756_708_123.0, None))
        );
        // 2025-11-21T20:25:08.123+01:00 = 19:25:08.123 UTC. 2025-11-21 is day 20413:
        // 20413 * 86400000 + 19:25:08.123 (69908123 ms) = 1763683200000 + 69908123 = 1763753108123
        assert_eq!(
            parse_time("2025-11-21T20:25:08.123+01:00"),
            Some((1_763_753_108_123.0, Some(60)))
        );
        assert_eq!(
            parse_time("2025-11-21T19:25:08.123Z"),
            Some((1_763_753_108_123.0, Some(0)))
        );
        // Seven fractional digits (.NET's ticks): 0.1234567 s = 123.4567 ms.
        assert_eq!(
            parse_time("2025-11-21T19:25:08.1234567Z").map(|t| t.0),
            Some(1_763_753_108_123.456_7)
        );
        assert_eq!(
            parse_time("2025-11-21T14:25:08-05:00").map(|t| (t.0, t.1)),
            Some((1_763_753_108_000.0, Some(-300)))
        );
        for bad in [
            "",
            "/Date(x)/",
            "2025-13-01T00:00:00Z",
            "2025-11-21 19:25:08",
            "yesterday",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }
}
