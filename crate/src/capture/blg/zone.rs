//! The log's time zone: the TIME_ZONE_INFORMATION in its header and the SYSTEMTIME transition rules
//! in it (timezoneapi.h, minwinbase.h), turning the logger's local time stamps into UTC through
//! daylight saving time changes, including the hour the change back repeats.

use super::bytes::{before_nul, i32_at, u16_at, utf16_text};
use super::BlgReader;
use crate::capture::TimeZone;
use crate::civil::{days_from_civil, ms_from_civil, MS_PER_DAY};

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
        Some(ms_from_civil(
            year,
            month,
            day,
            u32::from(self.hour),
            u32::from(self.minute),
            0,
        ))
    }
}

/// The log's TIME_ZONE_INFORMATION: UTC = local + bias (+ the standard or daylight bias).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Zone {
    pub(super) bias: i32,
    standard_name: String,
    standard_date: Transition,
    pub(super) standard_bias: i32,
    daylight_name: String,
    daylight_date: Transition,
    pub(super) daylight_bias: i32,
}

impl Zone {
    pub(super) fn read(b: &[u8], at: usize) -> Result<Zone, String> {
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
        let year = crate::civil::civil_from_days((local_ms / MS_PER_DAY).floor() as i64).0;
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
        let year = crate::civil::civil_from_days((local_ms / MS_PER_DAY).floor() as i64).0;
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
    pub(super) fn at(&self, local_ms: f64) -> TimeZone {
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

impl BlgReader {
    /// The bias at a sample's local time. In the hour the autumn change repeats, a sample is in daylight
    /// time until the clock has gone back (a sample earlier than the one before), and in standard time
    /// after, so times stay in order through the change. The biases seen are kept for the note.
    pub(super) fn bias_at(&mut self, local_ms: f64) -> i32 {
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
        let day = |y, m, d| ms_from_civil(y, m, d, 0, 0, 0);
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
        let day = |y, m, d| ms_from_civil(y, m, d, 0, 0, 0);
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
}
