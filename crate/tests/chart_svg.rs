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
        },
        ChartSeries {
            label: "b".into(),
            values: &b,
            color_index: 7,
            dashed: false,
            summary: None,
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
        },
        ChartSeries {
            label: "b".into(),
            values: &b,
            color_index: 1,
            dashed: false,
            summary: None,
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
