//! Chart composition: which lines a chart of a capture draws. The series a viewer picked, each with its
//! palette slot, their M4 block summaries from the capture's [`SummaryCache`], and (optionally) each
//! series' reference column (PDH's own values of a Get-Counter capture) dashed in the same colour, each
//! with its unit ([`crate::units`]) so mixed series get their own axes.
//!
//! The binding layer only hands the picks over; everything decided about the lines is here.

use super::m4::SummaryCache;
use super::ChartSeries;
use crate::capture::Capture;
use crate::units::measure_of;

/// One series to draw: its index in the capture and its palette slot (a viewer keeps a series' slot
/// while it stays selected, as Perfmon keeps a counter's colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    pub index: usize,
    pub slot: usize,
}

/// The lines to draw, and where each pick landed among them (references sit between the picks).
#[derive(Debug)]
pub struct Composed<'a> {
    pub series: Vec<ChartSeries<'a>>,
    /// `positions[k]`: the position in `series` of `picks[k]`.
    pub positions: Vec<usize>,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    #[error("no series {index} in the capture: it has {count}")]
    NoSeries { index: usize, count: usize },
}

/// The lines of a chart of `picks` of `capture`; with `references`, each series that has a reference
/// column is followed by it, dashed, labelled `PDH: <path>`.
pub fn compose<'a>(
    capture: &'a Capture,
    cache: &'a SummaryCache,
    picks: &[Pick],
    references: bool,
) -> Result<Composed<'a>, ComposeError> {
    let mut series = Vec::with_capacity(picks.len());
    let mut positions = Vec::with_capacity(picks.len());
    for p in picks {
        let s = capture.series.get(p.index).ok_or(ComposeError::NoSeries {
            index: p.index,
            count: capture.series.len(),
        })?;
        positions.push(series.len());
        let measure = measure_of(s.counter_type, &s.parsed.counter);
        series.push(ChartSeries {
            label: s.path.clone(),
            values: &s.values,
            color_index: p.slot,
            dashed: false,
            summary: cache.get(p.index, &capture.timestamps, &s.values),
            measure,
        });
        if let (true, Some(r)) = (references, &s.reference) {
            series.push(ChartSeries {
                label: format!("PDH: {}", s.path),
                values: r,
                color_index: p.slot,
                dashed: true,
                summary: None,
                measure,
            });
        }
    }
    Ok(Composed { series, positions })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{open_capture, OpenOptions};

    fn capture() -> Capture {
        // Two series of a PDH-CSV, three samples a second apart.
        let csv = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\Memory\\Available MBytes\",\"\\\\H\\Processor(_Total)\\% Processor Time\"\r\n\
                   \"11/22/2026 09:00:00.000\",\"8000\",\"10\"\r\n\
                   \"11/22/2026 09:00:01.000\",\"7990\",\"20\"\r\n\
                   \"11/22/2026 09:00:02.000\",\"7980\",\"30\"\r\n";
        open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap()
    }

    #[test]
    fn picks_keep_their_slots_and_summaries_come_from_the_cache() {
        let c = capture();
        let cache = SummaryCache::new(c.series.len());
        let picks = [Pick { index: 1, slot: 4 }, Pick { index: 0, slot: 0 }];
        let out = compose(&c, &cache, &picks, true).unwrap();
        // No reference columns in a CSV: one line per pick, in the order given.
        assert_eq!(out.positions, vec![0, 1]);
        assert_eq!(
            out.series[0].label,
            "\\\\H\\Processor(_Total)\\% Processor Time"
        );
        assert_eq!(out.series[0].color_index, 4);
        assert_eq!(out.series[0].values, &[10.0, 20.0, 30.0]);
        assert_eq!(out.series[1].values, &[8000.0, 7990.0, 7980.0]);
        assert_eq!(out.series[0].measure.unit, crate::units::Unit::Percent);
        assert_eq!(out.series[1].measure.multiplier, 1_048_576.0);
        // The summary is the cache's (the same one on the next call).
        let again = compose(&c, &cache, &picks, false).unwrap();
        assert!(std::ptr::eq(
            out.series[0].summary.unwrap(),
            again.series[0].summary.unwrap()
        ));
    }

    #[test]
    fn references_follow_their_series_dashed_in_the_same_slot() {
        let mut c = capture();
        c.series[0].reference = Some(vec![1.0, 2.0, 3.0]);
        let cache = SummaryCache::new(c.series.len());
        let picks = [Pick { index: 0, slot: 2 }, Pick { index: 1, slot: 3 }];
        let out = compose(&c, &cache, &picks, true).unwrap();
        // Series 0, its reference, then series 1: the second pick lands at position 2.
        assert_eq!(out.positions, vec![0, 2]);
        assert!(out.series[1].dashed && out.series[1].color_index == 2);
        assert_eq!(out.series[1].label, "PDH: \\\\H\\Memory\\Available MBytes");
        // Without the option, no reference line.
        assert_eq!(compose(&c, &cache, &picks, false).unwrap().series.len(), 2);
    }

    #[test]
    fn an_unknown_index_is_an_error_not_a_panic() {
        let c = capture();
        let cache = SummaryCache::new(c.series.len());
        assert_eq!(
            compose(&c, &cache, &[Pick { index: 9, slot: 0 }], false).unwrap_err(),
            ComposeError::NoSeries { index: 9, count: 2 }
        );
    }
}
