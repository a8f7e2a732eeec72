//! M4 decimation: per pixel column keep the first, minimum, maximum and last point, so a series of a
//! million points draws like one of a few thousand and no spike is lost (Jugel et al., "M4: A
//! Visualization-Oriented Time Series Data Aggregation", VLDB 2014).
//!
//! Gaps (NaN) break the line wherever they fall between two pixel columns' points. A gap narrower than
//! one pixel column, inside it, cannot be seen at that zoom and does not break the column's run.
//! One point beyond each end of the range is kept so lines run to the plot's edges.

/// A run of points to draw as one connected line.
pub type Segment = Vec<(f64, f64)>;

/// Index of the first `x >= v` in sorted `xs` (NaN times sort nowhere: they are skipped by callers).
fn lower_bound(xs: &[f64], v: f64) -> usize {
    xs.partition_point(|&x| x < v)
}

#[derive(Clone, Copy)]
struct Bucket {
    first: usize,
    last: usize,
    min: usize,
    max: usize,
}

/// Points per block of a `Summary`.
pub const BLOCK: usize = 64;

/// What M4 needs of one block of points: its first and last drawable points, its minimum and maximum
/// (first occurrences), whether a gap comes before the first or after the last, whether it has any.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Block {
    first: usize,
    last: usize,
    min: usize,
    max: usize,
    lead_gap: bool,
    trail_gap: bool,
    any: bool,
}

/// A series summarised by blocks of `BLOCK` points, built once (one pass) and reused by every redraw, so
/// a zoomed-out redraw of a million points looks at a few thousand block summaries instead of every
/// point. Only valid for the `xs`/`ys` it was built from.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Summary {
    blocks: Vec<Block>,
    len: usize,
}

impl Summary {
    pub fn new(xs: &[f64], ys: &[f64]) -> Summary {
        let n = xs.len().min(ys.len());
        let blocks = (0..n)
            .step_by(BLOCK)
            .map(|start| {
                let end = (start + BLOCK).min(n);
                let mut b = Block {
                    first: 0,
                    last: 0,
                    min: 0,
                    max: 0,
                    lead_gap: false,
                    trail_gap: false,
                    any: false,
                };
                for i in start..end {
                    let y = ys[i];
                    if y.is_nan() || xs[i].is_nan() {
                        if b.any {
                            b.trail_gap = true
                        } else {
                            b.lead_gap = true
                        }
                        continue;
                    }
                    if !b.any {
                        b = Block {
                            first: i,
                            last: i,
                            min: i,
                            max: i,
                            lead_gap: b.lead_gap,
                            trail_gap: false,
                            any: true,
                        };
                        continue;
                    }
                    b.last = i;
                    b.trail_gap = false;
                    if y < ys[b.min] {
                        b.min = i;
                    }
                    if y > ys[b.max] {
                        b.max = i;
                    }
                }
                b
            })
            .collect();
        Summary { blocks, len: n }
    }
}

/// Each series' block summary, built the first time the series is drawn and kept for every redraw
/// of the same capture (a capture's columns never change once read). One slot per series.
#[derive(Debug, Default)]
pub struct SummaryCache {
    slots: Vec<std::cell::OnceCell<Summary>>,
}

impl SummaryCache {
    /// An empty cache for a capture of `series` series.
    pub fn new(series: usize) -> SummaryCache {
        SummaryCache {
            slots: (0..series).map(|_| std::cell::OnceCell::new()).collect(),
        }
    }

    /// The summary of series `index` (values `ys` at times `xs`), built on first use; None for an index
    /// beyond the cache.
    pub fn get(&self, index: usize, xs: &[f64], ys: &[f64]) -> Option<&Summary> {
        Some(self.slots.get(index)?.get_or_init(|| Summary::new(xs, ys)))
    }
}

/// One pixel column being gathered, and the gap state carried between columns.
struct Column<'a> {
    ys: &'a [f64],
    bucket: Option<Bucket>,
    min_y: f64,
    max_y: f64,
}

impl Column<'_> {
    /// Adds a drawable point; returns true when it opened the column (the caller breaks the line there
    /// if a gap came before it).
    fn point(&mut self, i: usize, y: f64) -> bool {
        match self.bucket.as_mut() {
            Some(b) => {
                b.last = i;
                if y < self.min_y {
                    self.min_y = y;
                    b.min = i;
                }
                if y > self.max_y {
                    self.max_y = y;
                    b.max = i;
                }
                false
            }
            None => {
                self.bucket = Some(Bucket {
                    first: i,
                    last: i,
                    min: i,
                    max: i,
                });
                (self.min_y, self.max_y) = (y, y);
                true
            }
        }
    }

    /// Adds a block that has drawable points, as `point` would add them one by one.
    fn block(&mut self, b: &Block) -> bool {
        let opened = self.point(b.first, self.ys[b.first]);
        if let Some(c) = self.bucket.as_mut() {
            c.last = b.last;
            if self.ys[b.min] < self.min_y {
                self.min_y = self.ys[b.min];
                c.min = b.min;
            }
            if self.ys[b.max] > self.max_y {
                self.max_y = self.ys[b.max];
                c.max = b.max;
            }
        }
        opened
    }
}

/// Decimates `(xs[i], ys[i])` over `[x0, x1]` into at most 4 points per column of `columns`, split into
/// segments at gaps. `xs` must be sorted ascending (capture timestamps are).
pub fn m4(xs: &[f64], ys: &[f64], x0: f64, x1: f64, columns: usize) -> Vec<Segment> {
    m4_summarised(xs, ys, None, x0, x1, columns)
}

/// `m4`, reading whole blocks from `summary` (built by `Summary::new` from the same `xs` and `ys`)
/// where a column covers them: the same result, at a cost that depends on the columns and blocks
/// drawn rather than on the points.
pub fn m4_summarised(
    xs: &[f64],
    ys: &[f64],
    summary: Option<&Summary>,
    x0: f64,
    x1: f64,
    columns: usize,
) -> Vec<Segment> {
    let n = xs.len().min(ys.len());
    let mut segments: Vec<Segment> = Vec::new();
    if n == 0 || columns == 0 || x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
        return segments;
    }
    let summary = summary.filter(|s| s.len == n);
    // One point on each side of the range, so the line enters and leaves the plot.
    let lo = lower_bound(&xs[..n], x0).saturating_sub(1);
    let hi = (lower_bound(&xs[..n], x1) + 1).min(n);
    let width = (x1 - x0) / columns as f64;
    let column_of =
        |x: f64| -> i64 { ((x - x0) / width).floor().clamp(-1.0, columns as f64) as i64 };

    let mut current: Segment = Vec::new();
    let mut gap_since_last = false;
    let flush = |b: &Bucket, seg: &mut Segment| {
        let mut idx = [b.first, b.min, b.max, b.last];
        idx.sort_unstable();
        let mut prev = usize::MAX;
        for i in idx {
            if i != prev {
                seg.push((xs[i], ys[i]));
                prev = i;
            }
        }
    };
    // Column by column: each column's points are found by a binary search for its end (column_of is
    // monotone in x), so the scan inside does no division per point; whole blocks inside a column come
    // from the summary.
    let mut start = lo;
    for col in -1..=columns as i64 {
        let end = if col == columns as i64 {
            hi
        } else {
            start + xs[start..hi].partition_point(|&x| column_of(x) <= col)
        };
        let mut c = Column {
            ys,
            bucket: None,
            min_y: f64::INFINITY,
            max_y: f64::NEG_INFINITY,
        };
        let mut i = start;
        while i < end {
            if let Some(s) = summary.filter(|_| i % BLOCK == 0 && i + BLOCK <= end) {
                let b = &s.blocks[i / BLOCK];
                if b.any {
                    gap_since_last |= b.lead_gap;
                    if c.block(b) && gap_since_last && !current.is_empty() {
                        segments.push(std::mem::take(&mut current));
                    }
                    gap_since_last = b.trail_gap;
                } else {
                    gap_since_last = true; // a whole block of gaps
                }
                i += BLOCK;
                continue;
            }
            let y = ys[i];
            if y.is_nan() || xs[i].is_nan() {
                gap_since_last = true;
            } else {
                if c.point(i, y) && gap_since_last && !current.is_empty() {
                    segments.push(std::mem::take(&mut current));
                }
                gap_since_last = false;
            }
            i += 1;
        }
        if let Some(b) = c.bucket {
            flush(&b, &mut current);
        }
        start = end;
    }
    if !current.is_empty() {
        segments.push(current);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first implementation, point by point (each point's column by division): the column-wise
    /// `m4` must give exactly what it gives.
    fn m4_point_by_point(xs: &[f64], ys: &[f64], x0: f64, x1: f64, columns: usize) -> Vec<Segment> {
        let n = xs.len().min(ys.len());
        let mut segments: Vec<Segment> = Vec::new();
        if n == 0 || columns == 0 || x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
            return segments;
        }
        let lo = lower_bound(&xs[..n], x0).saturating_sub(1);
        let hi = (lower_bound(&xs[..n], x1) + 1).min(n);
        let width = (x1 - x0) / columns as f64;
        let column_of =
            |x: f64| -> i64 { ((x - x0) / width).floor().clamp(-1.0, columns as f64) as i64 };
        let mut current: Segment = Vec::new();
        let mut bucket: Option<(i64, Bucket)> = None;
        let mut gap = false;
        let flush = |b: &Bucket, seg: &mut Segment| {
            let mut idx = [b.first, b.min, b.max, b.last];
            idx.sort_unstable();
            idx.iter().fold(usize::MAX, |prev, &i| {
                if i != prev {
                    seg.push((xs[i], ys[i]));
                }
                i
            });
        };
        for i in lo..hi {
            let (x, y) = (xs[i], ys[i]);
            if y.is_nan() || x.is_nan() {
                gap = true;
                continue;
            }
            let col = column_of(x);
            match bucket.as_mut() {
                Some((c, b)) if *c == col => {
                    b.last = i;
                    if y < ys[b.min] {
                        b.min = i;
                    }
                    if y > ys[b.max] {
                        b.max = i;
                    }
                }
                _ => {
                    if let Some((_, b)) = bucket.take() {
                        flush(&b, &mut current);
                    }
                    if gap && !current.is_empty() {
                        segments.push(std::mem::take(&mut current));
                    }
                    bucket = Some((
                        col,
                        Bucket {
                            first: i,
                            last: i,
                            min: i,
                            max: i,
                        },
                    ));
                }
            }
            gap = false;
        }
        if let Some((_, b)) = bucket {
            flush(&b, &mut current);
        }
        if !current.is_empty() {
            segments.push(current);
        }
        segments
    }

    proptest! {
        #[test]
        fn column_wise_equals_point_by_point(
            steps in proptest::collection::vec(0u32..5, 0..400),
            ys in proptest::collection::vec(prop_oneof![8 => -1e3f64..1e3, 1 => Just(f64::NAN), 1 => Just(0.0)], 400),
            from in -20.0f64..300.0, width in 0.5f64..400.0, columns in 1usize..60,
        ) {
            // Sorted times with repeats (steps of 0), values with gaps and ties.
            let xs: Vec<f64> = steps.iter().scan(0.0, |t, &s| { *t += f64::from(s); Some(*t) }).collect();
            let ys = &ys[..xs.len()];
            prop_assert_eq!(m4(&xs, ys, from, from + width, columns), m4_point_by_point(&xs, ys, from, from + width, columns));
        }

        #[test]
        fn summarised_equals_point_by_point(
            steps in proptest::collection::vec(0u32..3, 0..3000),
            ys in proptest::collection::vec(prop_oneof![20 => -1e3f64..1e3, 1 => Just(f64::NAN), 1 => Just(0.0)], 3000),
            nan_run in 0usize..600, from in -20.0f64..3000.0, width in 0.5f64..4000.0, columns in 1usize..40,
        ) {
            // Long enough for whole blocks inside columns; a run of gaps that can cover whole blocks.
            let xs: Vec<f64> = steps.iter().scan(0.0, |t, &s| { *t += f64::from(s); Some(*t) }).collect();
            let mut ys = ys[..xs.len()].to_vec();
            let at = ys.len() / 3;
            for y in ys.iter_mut().skip(at).take(nan_run) { *y = f64::NAN; }
            let summary = Summary::new(&xs, &ys);
            prop_assert_eq!(m4_summarised(&xs, &ys, Some(&summary), from, from + width, columns), m4_point_by_point(&xs, &ys, from, from + width, columns));
        }
    }

    fn points(s: &[Segment]) -> usize {
        s.iter().map(Vec::len).sum()
    }

    #[test]
    fn the_cache_builds_each_summary_once_and_refuses_unknown_series() {
        let xs: Vec<f64> = (0..200).map(f64::from).collect();
        let ys: Vec<f64> = xs.iter().map(|x| x * 2.0).collect();
        let cache = SummaryCache::new(2);
        let a = cache.get(1, &xs, &ys).unwrap() as *const Summary;
        // A second call returns the same summary, not a new one (same address), even with other data.
        let b = cache.get(1, &xs[..10], &ys[..10]).unwrap() as *const Summary;
        assert_eq!(a, b);
        assert_eq!(cache.get(1, &xs, &ys).unwrap(), &Summary::new(&xs, &ys));
        assert!(cache.get(2, &xs, &ys).is_none());
    }

    #[test]
    fn keeps_first_min_max_last_per_column() {
        // 10 points in 2 columns of width 5: column 0 holds x 0..4, column 1 x 5..9.
        let xs: Vec<f64> = (0..10).map(f64::from).collect();
        let ys = [1.0, 9.0, -3.0, 2.0, 4.0, 0.0, 0.0, 7.0, 0.0, 5.0];
        let s = m4(&xs, &ys, 0.0, 10.0, 2);
        assert_eq!(s.len(), 1);
        // column 0: first (0,1), max (1,9), min (2,-3), last (4,4); column 1: first/min (5,0), max (7,7), last (9,5)
        assert_eq!(
            s[0],
            vec![
                (0.0, 1.0),
                (1.0, 9.0),
                (2.0, -3.0),
                (4.0, 4.0),
                (5.0, 0.0),
                (7.0, 7.0),
                (9.0, 5.0)
            ]
        );
    }

    #[test]
    fn a_million_points_become_at_most_four_per_column() {
        let n: usize = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let mut ys: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64).collect();
        ys[654_321] = 1e9; // a one-sample spike
        let s = m4(&xs, &ys, 0.0, n as f64, 800);
        assert!(points(&s) <= 4 * 800, "{}", points(&s));
        assert!(
            s[0].iter().any(|&(x, y)| x == 654_321.0 && y == 1e9),
            "the spike survives"
        );
    }

    #[test]
    fn gaps_between_columns_break_the_line_and_gaps_inside_do_not() {
        let xs: Vec<f64> = (0..8).map(f64::from).collect();
        // Two columns of width 4: [0..3] and [4..7]. The NaN at 1 lies between points of column 0 (x 0
        // and 2): inside one pixel, it does not break. The NaNs at 4 and 5 lie between column 0's last
        // point (x 3) and column 1's first (x 6): the line breaks there.
        let ys = [1.0, f64::NAN, 2.0, 3.0, f64::NAN, f64::NAN, 4.0, 5.0];
        let s = m4(&xs, &ys, 0.0, 8.0, 2);
        // column 0: first = min = (0,1), max = last = (3,3); column 1: (6,4) and (7,5)
        assert_eq!(
            s,
            vec![vec![(0.0, 1.0), (3.0, 3.0)], vec![(6.0, 4.0), (7.0, 5.0)]]
        );
        // With columns of width 2 the NaN at 1 falls between column 0 (x 0) and column 1 (x 2): a break.
        let s = m4(&xs, &ys, 0.0, 8.0, 4);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0], vec![(0.0, 1.0)]);
    }

    #[test]
    fn keeps_one_point_beyond_each_edge_and_handles_empty_input() {
        let xs: Vec<f64> = (0..100).map(f64::from).collect();
        let ys: Vec<f64> = xs.clone();
        let s = m4(&xs, &ys, 10.5, 20.5, 100);
        assert_eq!(s[0].first(), Some(&(10.0, 10.0)));
        assert_eq!(s[0].last(), Some(&(21.0, 21.0)));
        assert!(m4(&[], &[], 0.0, 1.0, 10).is_empty());
        assert!(m4(&xs, &ys, 5.0, 5.0, 10).is_empty());
        assert!(m4(&xs, &[f64::NAN; 100], 0.0, 100.0, 10).is_empty());
    }
}
