//! A capture put together again from its parts: the columns a Worker transferred to the page (JS
//! `Capture.toParts` there, `Capture.fromParts` here) or any caller's own. The parts are checked here, not
//! trusted: every column as long as the timestamps, the format and encoding named as a capture names them
//! (an unknown name gives none, "unknown" in JS); paths are parsed as a reader parses them.

use super::{Capture, CaptureEncoding, Format, RawColumn, Series, TimeZone};

/// One series of `CaptureParts`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeriesParts {
    pub path: String,
    pub counter_type: Option<u32>,
    pub scale: Option<i32>,
    pub values: Vec<f64>,
    pub reference: Option<Vec<f64>>,
    pub raw: Option<RawColumn>,
}

/// A capture's parts: its format and encoding by name (`Capture::format_name`, an encoding label), time
/// zone, timestamps and series. No notes: they stay with whoever holds the parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaptureParts<'a> {
    pub format: &'a str,
    pub encoding: &'a str,
    pub time_zone: Option<TimeZone>,
    pub timestamps: Vec<f64>,
    pub series: Vec<SeriesParts>,
}

/// Parts that do not make a capture: a column whose length is not the timestamps'.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartsError {
    /// Series `series`'s values (or its reference) hold `values` numbers for `timestamps` timestamps.
    #[error("series[{series}] has {values} values for {timestamps} timestamps")]
    Values {
        series: usize,
        values: usize,
        timestamps: usize,
    },
    /// Series `series`'s raw column `column` ("value", "second", "frequency", "multi", "present") holds
    /// `len` samples for `timestamps` timestamps.
    #[error("series[{series}].raw.{column} has {len} samples for {timestamps} timestamps")]
    Raw {
        series: usize,
        column: &'static str,
        len: usize,
        timestamps: usize,
    },
}

impl Capture {
    /// A capture of `parts`, checked: every column as long as the timestamps.
    ///
    /// ```
    /// use counterlens::capture::{Capture, CaptureParts, PartsError, SeriesParts};
    /// let series = |values: Vec<f64>| SeriesParts { path: "\\\\PC\\Memory\\Available MBytes".into(), values, ..Default::default() };
    /// let parts = CaptureParts { format: "pdh-csv", encoding: "latin1", timestamps: vec![0.0, 1000.0],
    ///                            series: vec![series(vec![1.0, 2.0])], ..Default::default() };
    /// let c = Capture::from_parts(parts.clone()).unwrap();
    /// assert_eq!((c.format_name(), c.encoding_name()), ("pdh-csv", "windows-1252"));
    /// assert_eq!(c.series[0].parsed.counter, "Available MBytes");
    /// let odd = CaptureParts { format: "xlsx", ..parts.clone() };
    /// assert_eq!(Capture::from_parts(odd).unwrap().format_name(), "unknown");
    /// let short = CaptureParts { series: vec![series(vec![1.0])], ..parts };
    /// assert_eq!(Capture::from_parts(short), Err(PartsError::Values { series: 0, values: 1, timestamps: 2 }));
    /// ```
    pub fn from_parts(parts: CaptureParts<'_>) -> Result<Capture, PartsError> {
        let n = parts.timestamps.len();
        let mut series = Vec::with_capacity(parts.series.len());
        for (i, s) in parts.series.into_iter().enumerate() {
            let wrong = [Some(&s.values), s.reference.as_ref()]
                .into_iter()
                .flatten()
                .find(|c| c.len() != n);
            if let Some(c) = wrong {
                return Err(PartsError::Values {
                    series: i,
                    values: c.len(),
                    timestamps: n,
                });
            }
            if let Some(r) = &s.raw {
                let lengths = [
                    ("value", r.value.len()),
                    ("second", r.second.len()),
                    ("frequency", r.frequency.len()),
                    ("multi", r.multi.len()),
                    ("present", r.present.len()),
                ];
                if let Some(&(column, len)) = lengths.iter().find(|(_, len)| *len != n) {
                    return Err(PartsError::Raw {
                        series: i,
                        column,
                        len,
                        timestamps: n,
                    });
                }
            }
            series.push(Series {
                counter_type: s.counter_type,
                scale: s.scale,
                reference: s.reference,
                raw: s.raw,
                ..Series::new(s.path, s.values)
            });
        }
        Ok(Capture {
            format: Format::parse(parts.format),
            encoding: CaptureEncoding::from_label(parts.encoding),
            time_zone: parts.time_zone,
            timestamps: parts.timestamps,
            series,
            notes: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::text::Encoding;

    fn parts(series: Vec<SeriesParts>) -> CaptureParts<'static> {
        CaptureParts {
            format: "blg",
            encoding: "binary",
            time_zone: Some(TimeZone {
                name: "Pacific Standard Time".into(),
                bias_minutes: 480,
            }),
            timestamps: vec![0.0, 1000.0, 2000.0],
            series,
        }
    }

    #[test]
    fn names_resolve_as_a_capture_names_them() {
        let c = Capture::from_parts(parts(vec![])).unwrap();
        assert_eq!(c.format, Some(Format::Blg));
        assert_eq!(c.encoding, Some(CaptureEncoding::Binary));
        assert_eq!(c.time_zone.as_ref().unwrap().bias_minutes, 480);
        for (label, want) in [
            ("UTF-8", Some(CaptureEncoding::Text(Encoding::UTF_8))),
            ("utf-16be", Some(CaptureEncoding::Text(Encoding::UTF_16BE))),
            ("", None),
            ("unknown", None),
        ] {
            let c = Capture::from_parts(CaptureParts {
                encoding: label,
                ..parts(vec![])
            })
            .unwrap();
            assert_eq!(c.encoding, want, "{label:?}");
        }
        let c = Capture::from_parts(CaptureParts {
            format: "unknown",
            ..parts(vec![])
        })
        .unwrap();
        assert_eq!((c.format, c.format_name()), (None, "unknown"));
    }

    #[test]
    fn every_column_is_as_long_as_the_timestamps() {
        let ok = || SeriesParts {
            path: "\\\\H\\O\\C".into(),
            values: vec![1.0, 2.0, 3.0],
            reference: Some(vec![1.0, 2.0, 3.0]),
            raw: Some(RawColumn {
                value: vec![0; 3],
                second: vec![0; 3],
                frequency: vec![0; 3],
                multi: vec![0; 3],
                present: vec![1; 3],
                options: Default::default(),
            }),
            counter_type: Some(0x10410400),
            scale: Some(-2),
        };
        let c = Capture::from_parts(parts(vec![ok(), ok()])).unwrap();
        assert_eq!(c.series[1].counter_type, Some(0x10410400));
        assert_eq!(c.series[1].scale, Some(-2));
        assert_eq!(c.series[1].parsed.object, "O");
        let mut short_reference = ok();
        short_reference.reference = Some(vec![1.0]);
        assert_eq!(
            Capture::from_parts(parts(vec![ok(), short_reference])),
            Err(PartsError::Values {
                series: 1,
                values: 1,
                timestamps: 3
            })
        );
        let mut long_multi = ok();
        long_multi.raw.as_mut().unwrap().multi.push(0);
        let e = Capture::from_parts(parts(vec![long_multi])).unwrap_err();
        assert_eq!(
            e,
            PartsError::Raw {
                series: 0,
                column: "multi",
                len: 4,
                timestamps: 3
            }
        );
        assert_eq!(
            e.to_string(),
            "series[0].raw.multi has 4 samples for 3 timestamps"
        );
    }
}
