//! The chart drawn natively to SVG, through the same generic `chart::draw` the canvas uses: the
//! assertions read the SVG's polylines and labels.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::chart::{draw, series_color, ChartSeries, View};
use plotters::prelude::*;

fn render(
    timestamps: &[f64],
    series: &[ChartSeries<'_>],
    view: &View,
    size: (u32, u32),
) -> (String, counterlens::chart::Layout) {
    let mut svg = String::new();
    let layout = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area, timestamps, series, view).unwrap()
    };
    (svg, layout)
}

/// The point lists of the polylines drawn in a colour.
fn polylines(svg: &str, color: RGBColor) -> Vec<Vec<(f64, f64)>> {
    let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2);
    svg.lines()
        .filter(|l| l.contains("<polyline") && l.contains(&stroke))
        .map(|l| {
            let pts = l
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            pts.split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// plotters' SVG writes each text on a line of its own.
fn has_text(svg: &str, text: &str) -> bool {
    svg.lines().any(|l| l == text)
}

const T0: f64 = 1_361_328_618_844.0; // 2013-02-20 02:50:18.844 UTC

#[test]
fn a_million_points_draw_as_at_most_four_per_column() {
    let n = 1_000_000;
    let ts: Vec<f64> = (0..n).map(|i| T0 + i as f64 * 1000.0).collect();
    let vs: Vec<f64> = (0..n as u64).map(|i| ((i * 7919) % 100) as f64).collect();
    let s = [ChartSeries {
        label: "cpu".into(),
        values: &vs,
        color_index: 0,
        dashed: false,
        summary: None,
        measure: Default::default(),
    }];
    let (svg, layout) = render(&ts, &s, &View::default(), (800, 400));
    let lines = polylines(&svg, series_color(0));
    let drawn: usize = lines.iter().map(Vec::len).sum();
    // The series' own polylines, minus the 2-point legend sample.
    assert!(drawn <= 4 * 800 + 2, "{drawn} points drawn");
    assert!(layout.points_drawn <= 4 * 800);
    assert_eq!(layout.x0, T0);
    assert_eq!(layout.x1, T0 + 999_999_000.0);
    // Values 0..99: the y axis is padded 5% and floored at 0: 0 .. 99 * 1.05 = 103.95
    assert_eq!(layout.y0, 0.0);
    assert!((layout.y1 - 103.95).abs() < 1e-9);
}

#[test]
fn gaps_are_drawn_as_gaps_and_colours_are_stable() {
    let ts: Vec<f64> = (0..10).map(|i| T0 + i as f64 * 1000.0).collect();
    let a = [1.0, 2.0, 3.0, f64::NAN, f64::NAN, 4.0, 5.0, 6.0, 7.0, 8.0];
    let b = [5.0; 10];
    let s = [
        ChartSeries {
            label: "a".into(),
            values: &a,
            color_index: 3,
            dashed: false,
            summary: None,
            measure: Default::default(),
        },
        ChartSeries {
            label: "b".into(),
            values: &b,
            color_index: 7,
            dashed: false,
            summary: None,
            measure: Default::default(),
        },
    ];
    let (svg, _) = render(
        &ts,
        &s,
        &View {
            legend: false,
            ..View::default()
        },
        (600, 300),
    );
    let a_lines = polylines(&svg, series_color(3));
    assert_eq!(a_lines.len(), 2, "the NaN run splits series a in two");
    assert_eq!((a_lines[0].len(), a_lines[1].len()), (3, 5));
    // Nothing is drawn between x of sample 2 and x of sample 5.
    assert!(a_lines[0].last().unwrap().0 < a_lines[1][0].0);
    assert_eq!(polylines(&svg, series_color(7)).len(), 1);
}

#[test]
fn time_labels_follow_the_zone_and_the_unit_is_shown() {
    let ts: Vec<f64> = (0..=600).map(|i| T0 + i as f64 * 1000.0).collect();
    let v: Vec<f64> = (0..=600).map(|i| i as f64).collect();
    let s = [ChartSeries {
        label: "Avg. Disk Queue Length".into(),
        values: &v,
        color_index: 0,
        dashed: false,
        summary: None,
        measure: Default::default(),
    }];
    // Ten minutes in PST (UTC-8): labels every 2 minutes on the minute, local time 18:52 ... 19:00.
    let view = View {
        offset_minutes: -480,
        unit: "queue length".into(),
        ..View::default()
    };
    let (svg, _) = render(&ts, &s, &view, (800, 400));
    for label in [
        "18:52",
        "18:54",
        "18:56",
        "18:58",
        "19:00",
        "queue length",
        "Avg. Disk Queue Length",
    ] {
        assert!(has_text(&svg, label), "label {label} missing");
    }
    let utc = render(&ts, &s, &View::default(), (800, 400)).0;
    assert!(has_text(&utc, "02:52") && !has_text(&utc, "18:52"));
}

#[test]
fn zoom_draws_only_the_range_and_empty_input_draws_axes() {
    let ts: Vec<f64> = (0..1000).map(|i| T0 + i as f64 * 1000.0).collect();
    let v: Vec<f64> = (0..1000)
        .map(|i| if i < 500 { 1.0 } else { 1000.0 })
        .collect();
    let s = [ChartSeries {
        label: "x".into(),
        values: &v,
        color_index: 0,
        dashed: false,
        summary: None,
        measure: Default::default(),
    }];
    // Zoomed into the first 100 s the y range comes from the visible points only (all 1.0).
    let view = View {
        x_range: Some((T0, T0 + 100_000.0)),
        ..View::default()
    };
    let (_, layout) = render(&ts, &s, &view, (400, 200));
    assert_eq!((layout.y0, layout.y1), (0.0, 2.0));
    assert!(layout.points_drawn <= 103);
    let (svg, layout) = render(&[], &[], &View::default(), (400, 200));
    assert!(svg.contains("<svg"));
    assert_eq!(layout.points_drawn, 0);
}

#[test]
fn a_100_kb_label_is_shortened_from_the_left_in_a_few_measurements() {
    // Shortening one character at a time measured a 100 000-character path 100 000 times (minutes in a
    // browser, found by the viewer's hostile-paths test); a binary search measures it about 17 times.
    let ts = [T0, T0 + 1000.0];
    let vs = [1.0, 2.0];
    let label = format!("\\\\HOST\\Big({})\\Counter", "A".repeat(100_000));
    let s = [ChartSeries {
        label,
        values: &vs,
        color_index: 0,
        dashed: false,
        summary: None,
        measure: Default::default(),
    }];
    let (svg, _) = render(&ts, &s, &View::default(), (800, 400));
    let shown = svg
        .lines()
        .find(|l| l.starts_with('…'))
        .expect("a shortened legend label");
    assert!(
        shown.ends_with("AAA)\\Counter") && shown.chars().count() < 600,
        "{} chars",
        shown.chars().count()
    );
    // A label that fits is drawn whole.
    let s = [ChartSeries {
        label: "\\\\HOST\\Processor(_Total)\\% Processor Time".into(),
        values: &vs,
        color_index: 0,
        dashed: false,
        summary: None,
        measure: Default::default(),
    }];
    let (svg, _) = render(&ts, &s, &View::default(), (800, 400));
    assert!(has_text(
        &svg,
        "\\\\HOST\\Processor(_Total)\\% Processor Time"
    ));
}

#[test]
fn a_highlighted_series_is_drawn_thicker_and_last() {
    let ts = [T0, T0 + 1000.0, T0 + 2000.0];
    let (a, b) = ([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]);
    let s = [
        ChartSeries {
            label: "a".into(),
            values: &a,
            color_index: 0,
            dashed: false,
            summary: None,
            measure: Default::default(),
        },
        ChartSeries {
            label: "b".into(),
            values: &b,
            color_index: 1,
            dashed: false,
            summary: None,
            measure: Default::default(),
        },
    ];
    let view = View {
        highlight: Some(0),
        legend: false,
        ..View::default()
    };
    let (svg, _) = render(&ts, &s, &view, (600, 300));
    // The series' lines are the last two polylines (the axes' ticks come first).
    let lines: Vec<&str> = svg.lines().filter(|l| l.contains("<polyline")).collect();
    let (first, last) = (lines[lines.len() - 2], lines[lines.len() - 1]);
    // Series 0 (#0072B2) drawn last, 3 px wide; series 1 (#D55E00) before it at opacity 0.3, the normal 1 px.
    assert!(
        last.contains("stroke=\"#0072B2\"")
            && last.contains("stroke-width=\"3\"")
            && last.contains("opacity=\"1\""),
        "{last}"
    );
    assert!(
        first.contains("stroke=\"#D55E00\"")
            && first.contains("opacity=\"0.3\"")
            && first.contains("stroke-width=\"1\""),
        "{first}"
    );
}

/// The vertical extent (top, bottom) in pixels of a colour's polylines.
fn extent(svg: &str, color: RGBColor) -> (f64, f64) {
    let ys: Vec<f64> = polylines(svg, color)
        .into_iter()
        .filter(|l| l.len() > 2) // not the legend's 2-point sample
        .flatten()
        .map(|p| p.1)
        .collect();
    (
        ys.iter().copied().fold(f64::INFINITY, f64::min),
        ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

fn mixed<'a>(cpu: &'a [f64], mem: &'a [f64]) -> [ChartSeries<'a>; 2] {
    use counterlens::units::measure_of;
    [
        ChartSeries {
            label: "\\\\H\\Processor(_Total)\\% Processor Time".into(),
            values: cpu,
            color_index: 0,
            measure: measure_of(None, "% Processor Time"),
            ..Default::default()
        },
        ChartSeries {
            label: "\\\\H\\Memory\\Available MBytes".into(),
            values: mem,
            color_index: 1,
            measure: measure_of(None, "Available MBytes"),
            ..Default::default()
        },
    ]
}

#[test]
fn percent_and_megabytes_get_their_own_axes_and_both_span_the_plot() {
    use counterlens::chart::YScale;
    let ts: Vec<f64> = (0..100).map(|i| T0 + i as f64 * 1000.0).collect();
    // CPU from 10 to 90 %, memory from 7 000 to 8 000 MB: on one axis the CPU line would lie in the
    // bottom 1 % of the plot.
    let cpu: Vec<f64> = (0..100)
        .map(|i| 10.0 + 80.0 * ((i % 20) as f64 / 19.0))
        .collect();
    let mem: Vec<f64> = (0..100)
        .map(|i| 7000.0 + 1000.0 * ((i % 10) as f64 / 9.0))
        .collect();
    let s = mixed(&cpu, &mem);
    let (svg, layout) = render(&ts, &s, &View::default(), (900, 400));
    assert_eq!(layout.axes.len(), 2);
    assert_eq!(
        (layout.axes[0].title.as_str(), layout.axes[0].side),
        ("percent", "left")
    );
    assert_eq!(
        (layout.axes[1].title.as_str(), layout.axes[1].side),
        ("bytes", "right")
    );
    // The bytes axis is in bytes: 7000 MiB = 7 340 032 000 bytes, less 5 % of the 1000 MiB span.
    assert!((layout.axes[1].lo - (7000.0 - 50.0) * 1_048_576.0).abs() < 1.0);
    // Labels by unit: percent, and GB on the bytes axis (7.0 .. 7.8 GiB).
    assert!(has_text(&svg, "40%"), "percent labels");
    assert!(svg.lines().any(|l| l.ends_with(" GB")), "GB labels");
    let h = layout.plot_height as f64;
    for c in [0, 1] {
        let (top, bottom) = extent(&svg, series_color(c));
        assert!(
            bottom - top > 0.8 * h,
            "series {c} spans {} of {h} px",
            bottom - top
        );
    }
    // Perfmon's scale: one 0-100 axis, CPU x1 and memory x0.01 (8000 * 0.01 = 80).
    let view = View {
        y_scale: YScale::Perfmon,
        ..View::default()
    };
    let (svg, layout) = render(&ts, &s, &view, (900, 400));
    assert_eq!(layout.axes.len(), 1);
    assert_eq!(layout.series[0].factor, 1.0);
    assert!((layout.series[1].factor - 0.01).abs() < 1e-15);
    assert!(svg.contains("(x0.01)"), "the factor is in the legend");
    // On 0..100 the memory line runs 70..80: a tenth of the height, where it is.
    let (top, bottom) = extent(&svg, series_color(1));
    assert!((bottom - top - 0.1 * layout.plot_height as f64).abs() < 3.0);
    // Log scale: whole decades around each unit's values: 10 .. 100 %, and 7.3e9 .. 8.4e9 bytes in 1e9 .. 1e10.
    let view = View {
        y_scale: YScale::Log,
        ..View::default()
    };
    let (_, layout) = render(&ts, &s, &view, (900, 400));
    assert!(layout.axes.iter().all(|a| a.log));
    assert_eq!((layout.axes[0].lo, layout.axes[0].hi), (10.0, 100.0));
    assert_eq!((layout.axes[1].lo, layout.axes[1].hi), (1e9, 1e10));
}
