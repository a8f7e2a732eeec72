//! Civil (proleptic Gregorian) dates and epoch days, both ways: Howard Hinnant's `days_from_civil` and
//! `civil_from_days` (public domain, a dozen lines each). Written here rather than with chrono because the
//! charts and readers need only these two conversions plus fixed offsets, and chrono would add its weight
//! to every wasm download for that.

/// Milliseconds in a day.
pub const MS_PER_DAY: f64 = 86_400_000.0;

/// Milliseconds since 1970-01-01T00:00 of a civil date and time of day (in whatever zone the date is
/// in: the readers give local dates and subtract the zone's bias after).
///
/// ```
/// use counterlens::civil::ms_from_civil;
/// // 1970-01-02 01:01:01 = 86,400,000 + 3,600,000 + 60,000 + 1,000 ms.
/// assert_eq!(ms_from_civil(1970, 1, 2, 1, 1, 1), 90_061_000.0);
/// // 2025-11-21 = day 20,413 since the epoch: 20,413 * 86,400,000 = 1,763,683,200,000.
/// assert_eq!(ms_from_civil(2025, 11, 21, 0, 0, 0), 1_763_683_200_000.0);
/// ```
pub fn ms_from_civil(y: i64, m: u32, d: u32, hour: u32, minute: u32, second: u32) -> f64 {
    days_from_civil(y, m, d) as f64 * MS_PER_DAY
        + f64::from(hour) * 3_600_000.0
        + f64::from(minute) * 60_000.0
        + f64::from(second) * 1000.0
}

/// Days since 1970-01-01 of a civil date (month 1-12, day 1-31).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month 1-12, day 1-31) of a day count since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Days in a month of a year.
pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2013-02-20 is day 15756: 43 years * 365 + 11 leap days (72..2012) = 15706, + 31 (Jan) + 19 = 15756
        assert_eq!(civil_from_days(15_756), (2013, 2, 20));
        assert_eq!(days_from_civil(2013, 2, 20), 15_756);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(
            (
                days_in_month(2000, 2),
                days_in_month(1900, 2),
                days_in_month(2024, 2),
                days_in_month(2023, 4)
            ),
            (29, 28, 29, 30)
        );
    }

    #[test]
    fn round_trip_over_centuries() {
        for z in (-800_000..800_000).step_by(37) {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }
}
