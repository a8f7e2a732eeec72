//! `--begin` / `--end`: ISO 8601 with or without a zone, or relog's `M/d/yyyy H:mm:ss` (relog's `-b`
//! and `-e`), optionally with `.fff` and `AM`/`PM`. Without a zone the time is the log's own local time,
//! resolved per input through its header's bias (Windows: UTC = local + bias).

use counterlens::capture::Capture;
use counterlens::civil::{days_from_civil, days_in_month};

/// A wall-clock time, and the zone it was given in (minutes east of UTC) if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSpec {
    /// Milliseconds since the epoch, reading the wall clock as if it were UTC.
    pub local_ms: f64,
    pub offset_minutes: Option<i32>,
}

impl TimeSpec {
    /// UTC milliseconds for this capture: the given zone, else the capture's bias, else UTC.
    pub fn utc_ms(&self, capture: &Capture) -> f64 {
        match self.offset_minutes {
            Some(east) => self.local_ms - f64::from(east) * 60_000.0,
            None => {
                let bias = capture.time_zone.as_ref().map_or(0, |z| z.bias_minutes);
                self.local_ms + f64::from(bias) * 60_000.0
            }
        }
    }
}

fn num<T: std::str::FromStr>(s: &str) -> Option<T> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `H:mm[:ss[.fff]]` to ms in the day.
fn clock(s: &str) -> Option<f64> {
    let (hms, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut it = hms.split(':');
    let h: u32 = num(it.next()?)?;
    let m: u32 = num(it.next()?)?;
    let sec: u32 = match it.next() {
        Some(x) => num(x)?,
        None => 0,
    };
    if it.next().is_some() || h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let frac_ms = if frac.is_empty() {
        0.0
    } else {
        if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        frac.parse::<f64>().ok()? * 1000.0 / 10f64.powi(frac.len() as i32)
    };
    Some(f64::from(h * 3_600_000 + m * 60_000 + sec * 1000) + frac_ms)
}

fn day(y: i64, mo: u32, d: u32) -> Option<f64> {
    ((1..=12).contains(&mo) && d >= 1 && d <= days_in_month(y, mo))
        .then(|| days_from_civil(y, mo, d) as f64 * 86_400_000.0)
}

/// Parses a time as `--begin` / `--end` take it.
pub fn parse(text: &str) -> Option<TimeSpec> {
    let t = text.trim();
    if t.contains('/') {
        return parse_relog(t);
    }
    // ISO 8601: date, then optionally T or a space and a clock with an optional zone.
    let (date, rest) = match t.find(['T', 't', ' ']) {
        Some(i) => (&t[..i], Some(t[i + 1..].trim())),
        None => (t, None),
    };
    let mut d = date.split('-');
    let y: i64 = num(d.next()?)?;
    let mo: u32 = num(d.next()?)?;
    let da: u32 = num(d.next()?)?;
    if d.next().is_some() {
        return None;
    }
    let base = day(y, mo, da)?;
    let Some(rest) = rest else {
        return Some(TimeSpec {
            local_ms: base,
            offset_minutes: None,
        });
    };
    let (time, offset) = if let Some(c) = rest.strip_suffix(['Z', 'z']) {
        (c, Some(0))
    } else if let Some(i) = rest.rfind(['+', '-']) {
        let sign = if &rest[i..=i] == "-" { -1 } else { 1 };
        let z = &rest[i + 1..];
        let (h, m) = match z.split_once(':') {
            Some((h, m)) => (h, m),
            None if z.len() == 4 => (&z[..2], &z[2..]),
            None => (z, "0"),
        };
        let (h, m): (i32, i32) = (num(h)?, num(m)?);
        if h > 14 || m > 59 {
            return None;
        }
        (&rest[..i], Some(sign * (h * 60 + m)))
    } else {
        (rest, None)
    };
    Some(TimeSpec {
        local_ms: base + clock(time)?,
        offset_minutes: offset,
    })
}

/// relog's `M/d/yyyy H:mm:ss`, with optional `.fff` and `AM`/`PM`.
fn parse_relog(t: &str) -> Option<TimeSpec> {
    let (date, rest) = t.split_once(' ').unwrap_or((t, ""));
    let mut d = date.split('/');
    let mo: u32 = num(d.next()?)?;
    let da: u32 = num(d.next()?)?;
    let y: i64 = num(d.next()?)?;
    if d.next().is_some() {
        return None;
    }
    let base = day(y, mo, da)?;
    let rest = rest.trim();
    let upper = rest.to_ascii_uppercase();
    let (time, pm) = if let Some(c) = upper.strip_suffix("PM") {
        (c.trim().to_string(), Some(true))
    } else if let Some(c) = upper.strip_suffix("AM") {
        (c.trim().to_string(), Some(false))
    } else {
        (upper.clone(), None)
    };
    let mut ms = if time.is_empty() { 0.0 } else { clock(&time)? };
    if let Some(pm) = pm {
        let hour = (ms / 3_600_000.0).floor();
        if !(1.0..=12.0).contains(&hour) {
            return None;
        }
        if hour == 12.0 {
            ms -= 12.0 * 3_600_000.0;
        }
        if pm {
            ms += 12.0 * 3_600_000.0;
        }
    }
    Some(TimeSpec {
        local_ms: base + ms,
        offset_minutes: None,
    })
}

/// UTC ISO 8601 with milliseconds, for messages and JSON.
pub fn iso_utc(ms: f64) -> String {
    iso(ms, 0)
}

/// ISO 8601 of `ms` UTC shown at `east_minutes` from UTC, with that offset written.
pub fn iso(ms: f64, east_minutes: i32) -> String {
    if !ms.is_finite() {
        return String::new();
    }
    let local = ms.round() + f64::from(east_minutes) * 60_000.0;
    let days = (local / 86_400_000.0).floor();
    let (y, mo, d) = counterlens::civil::civil_from_days(days as i64);
    let in_day = (local - days * 86_400_000.0) as i64;
    let zone = if east_minutes == 0 {
        "Z".to_string()
    } else {
        let a = east_minutes.abs();
        format!(
            "{}{:02}:{:02}",
            if east_minutes < 0 { '-' } else { '+' },
            a / 60,
            a % 60
        )
    };
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{:03}{zone}",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-21 is day 20413 + 365 = 20778 (2025-11-21 is day 20413, 2026 is not a leap year):
    // 20778 * 86_400_000 = 1_795_219_200_000.
    const DAY: f64 = 1_795_219_200_000.0;

    #[test]
    fn iso_with_and_without_zone() {
        assert_eq!(
            parse("2026-11-21T12:00:00"),
            Some(TimeSpec {
                local_ms: DAY + 12.0 * 3_600_000.0,
                offset_minutes: None
            })
        );
        assert_eq!(parse("2026-11-21").map(|t| t.local_ms), Some(DAY));
        assert_eq!(
            parse("2026-11-21T12:00:01.5Z"),
            Some(TimeSpec {
                local_ms: DAY + 12.0 * 3_600_000.0 + 1500.0,
                offset_minutes: Some(0)
            })
        );
        assert_eq!(
            parse("2026-11-21 12:00-08:00").map(|t| t.offset_minutes),
            Some(Some(-480))
        );
        assert_eq!(
            parse("2026-11-21T12:00:00+0530").map(|t| t.offset_minutes),
            Some(Some(330))
        );
    }

    #[test]
    fn relog_times() {
        // 11/21/2026 12:00:02 = DAY + 12 h + 2 s
        assert_eq!(
            parse("11/21/2026 12:00:02").map(|t| t.local_ms),
            Some(DAY + 43_202_000.0)
        );
        assert_eq!(
            parse("1/2/2026 3:04:05").map(|t| t.local_ms),
            parse("2026-01-02T03:04:05").map(|t| t.local_ms)
        );
        // 12:30 AM is 00:30; 1:00 PM is 13:00.
        assert_eq!(
            parse("11/21/2026 12:30:00 AM").map(|t| t.local_ms),
            Some(DAY + 1_800_000.0)
        );
        assert_eq!(
            parse("11/21/2026 1:00:00 PM").map(|t| t.local_ms),
            Some(DAY + 13.0 * 3_600_000.0)
        );
    }

    #[test]
    fn not_times() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30T00:00:00",
            "2026-11-21T25:00",
            "13/1/2026 0:00:00",
            "11/21/2026 13:00:00 PM",
            "2026-11-21T12:00:00+99:00",
            "<script>",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn zone_of_the_log_when_none_given() {
        let mut c = counterlens::capture::open_capture(
            b"\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\H\\Memory\\x\"\r\n\"11/21/2026 12:00:00.000\",\"1\"\r\n",
            &Default::default(),
        )
        .unwrap();
        let t = parse("2026-11-21T12:00:00").unwrap();
        // PST: UTC = local + 480 min.
        assert_eq!(t.utc_ms(&c), DAY + 20.0 * 3_600_000.0);
        assert_eq!(c.timestamps[0], DAY + 20.0 * 3_600_000.0);
        let z = parse("2026-11-21T12:00:00Z").unwrap();
        assert_eq!(z.utc_ms(&c), DAY + 12.0 * 3_600_000.0);
        c.time_zone = None;
        assert_eq!(t.utc_ms(&c), DAY + 12.0 * 3_600_000.0);
        assert_eq!(iso_utc(DAY + 1.0), "2026-11-21T00:00:00.001Z");
        assert_eq!(iso(DAY, -480), "2026-11-20T16:00:00.000-08:00");
    }
}
