//! The analysis report: one self-contained HTML document (no script; no style, font or image from
//! outside it; charts as inline SVG drawn here), readable offline from disk: a summary per category, the
//! findings in time order, a chart of every series with findings (warning and critical bands, the
//! finding ranges marked), the variables used and the rules skipped with the reason.
//!
//! Every string that comes from the capture or a pack is escaped ([`esc`]): a counter named
//! `<script>` is text in the page.

use super::findings::{Clock, Finding};
use super::pack::{Operator, Severity};
use super::variables::Origin;
use super::Analysis;
use crate::capture::Capture;
use crate::units::number;
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f4f4f4}.critical{color:#b00020;font-weight:600}.warning{color:#8a5a00;font-weight:600}\
.muted{color:#666}figure{margin:1em 0}figcaption{font-weight:600;word-break:break-all}code{word-break:break-all}";

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Warning => "warning",
        Severity::Critical => "critical",
    }
}

/// The report of `analysis` (made by [`super::analyze`] on `capture`).
pub fn analysis_report(capture: &Capture, analysis: &Analysis, title: Option<&str>) -> String {
    let title = title.unwrap_or("Performance analysis");
    let clock = Clock::of(capture, &analysis.slices);
    let when = |f: &Finding| {
        format!(
            "{} – {}{}",
            clock.time(f.start),
            clock.time(f.end),
            clock.suffix()
        )
    };
    let mut h = String::with_capacity(64 * 1024);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    );
    let (first, last) = (
        analysis.slices.first().map(|s| s.start),
        analysis.slices.last().map(|s| s.end),
    );
    let ran = analysis
        .rules
        .iter()
        .filter(|r| r.skipped.is_none())
        .count();
    let _ = writeln!(
        h,
        "<p class=\"muted\">{} series ({}), {} to {}{}, {} slices. {} rules ran, {} skipped. {} findings.</p>",
        capture.series.len(),
        esc(capture.format),
        first.map_or("?".into(), |t| clock.time(t)),
        last.map_or("?".into(), |t| clock.time(t)),
        clock.suffix(),
        analysis.slices.len(),
        ran,
        analysis.rules.len() - ran,
        analysis.findings.len()
    );

    // Summary per category.
    h.push_str("<h2>Summary by category</h2>\n");
    if analysis.findings.is_empty() {
        h.push_str("<p>No rule broke: nothing to report.</p>\n");
    } else {
        let mut cats: BTreeMap<&str, (usize, usize, Vec<usize>)> = BTreeMap::new();
        for f in &analysis.findings {
            let c = cats
                .entry(if f.category.is_empty() {
                    "Other"
                } else {
                    &f.category
                })
                .or_default();
            match f.severity {
                Severity::Critical => c.0 += 1,
                Severity::Warning => c.1 += 1,
            }
            if !c.2.contains(&f.series_index) {
                c.2.push(f.series_index);
            }
        }
        h.push_str(
            "<table><tr><th>Category</th><th>Critical</th><th>Warning</th><th>Series</th></tr>\n",
        );
        for (cat, (c, w, s)) in &cats {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"{}\">{c}</td><td class=\"{}\">{w}</td><td>{}</td></tr>",
                esc(cat),
                if *c > 0 { "critical" } else { "muted" },
                if *w > 0 { "warning" } else { "muted" },
                s.len()
            );
        }
        h.push_str("</table>\n");
    }

    // Findings in time order.
    h.push_str("<h2>Findings in time order</h2>\n");
    if !analysis.findings.is_empty() {
        h.push_str("<table><tr><th>When</th><th>Severity</th><th>Rule</th><th>What</th></tr>\n");
        for (i, f) in analysis.findings.iter().enumerate() {
            let _ = writeln!(
                h,
                "<tr id=\"f{i}\"><td>{}</td><td class=\"{sev}\">{sev}</td><td>{}<br><span class=\"muted\">{} / {}</span></td>\
<td><a href=\"#s{}\">{}</a></td></tr>",
                esc(&when(f)),
                esc(&f.title),
                esc(&f.pack),
                esc(&f.rule),
                f.series_index,
                esc(&f.message),
                sev = severity(f.severity),
            );
        }
        h.push_str("</table>\n");
    } else {
        h.push_str("<p>None.</p>\n");
    }

    // A chart per series with findings.
    let mut by_series: BTreeMap<usize, Vec<&Finding>> = BTreeMap::new();
    for f in &analysis.findings {
        by_series.entry(f.series_index).or_default().push(f);
    }
    if !by_series.is_empty() {
        h.push_str("<h2>Series with findings</h2>\n");
    }
    for (&s, fs) in &by_series {
        let path = capture
            .series
            .get(s)
            .map_or(fs[0].path.as_str(), |x| x.path.as_str());
        let _ = writeln!(
            h,
            "<figure id=\"s{s}\"><figcaption>{}</figcaption>",
            esc(path)
        );
        if let Some(series) = capture.series.get(s) {
            h.push_str(&chart(
                &capture.timestamps,
                &series.values,
                fs,
                first.unwrap_or(0.0),
                last.unwrap_or(0.0),
                &clock,
            ));
        }
        h.push_str("<ul>");
        for f in fs {
            let _ = write!(
                h,
                "<li><span class=\"{sev}\">{sev}</span> {}: {}</li>",
                esc(&when(f)),
                esc(&f.message),
                sev = severity(f.severity)
            );
        }
        h.push_str("</ul></figure>\n");
    }

    // Variables.
    h.push_str("<h2>Variables used</h2>\n");
    if analysis.variables.is_empty() {
        h.push_str("<p>None.</p>\n");
    } else {
        h.push_str("<table><tr><th>Name</th><th>Value</th><th>From</th></tr>\n");
        for (name, value) in &analysis.variables {
            let from = match analysis.variable_sources.get(name) {
                Some(Origin::User) => "given by the user",
                Some(Origin::Capture) => "derived from the capture",
                Some(Origin::Pack) => "the pack's default",
                None => "",
            };
            let _ = writeln!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td>{from}</td></tr>",
                esc(name),
                esc(&value.to_string())
            );
        }
        h.push_str("</table>\n");
    }

    // Rules skipped.
    h.push_str("<h2>Rules skipped</h2>\n");
    let skipped: Vec<_> = analysis
        .rules
        .iter()
        .filter_map(|r| r.skipped.as_ref().map(|why| (r, why)))
        .collect();
    if skipped.is_empty() {
        h.push_str("<p>None: every rule ran.</p>\n");
    } else {
        h.push_str("<table><tr><th>Pack</th><th>Rule</th><th>Why</th></tr>\n");
        for (r, why) in skipped {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&r.pack),
                esc(&r.rule),
                esc(why)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("<p class=\"muted\">Made by counterlens.</p>\n</body></html>\n");
    h
}

const W: f64 = 900.0;
const H: f64 = 220.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// An inline SVG line chart of one series over `[from, to]`, with the bands of its static findings'
/// thresholds (critical over warning) and each finding's range shaded. At most two points per pixel
/// column (the column's min and max), so a day of samples stays a small path.
fn chart(
    timestamps: &[f64],
    values: &[f64],
    findings: &[&Finding],
    from: f64,
    to: f64,
    clock: &Clock,
) -> String {
    let span = if to > from { to - from } else { 1.0 };
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    // Value range: the data and the static thresholds, so bands are visible.
    let first = timestamps.partition_point(|&t| t < from);
    let end = timestamps.partition_point(|&t| t <= to).max(first);
    let (mut lo, mut hi, _, _) =
        super::slices::slice_min_max_sum(values.get(first..end).unwrap_or(&[]));
    let bands: Vec<&&Finding> = findings
        .iter()
        .filter(|f| !f.broke.contains(&super::Stat::Trend))
        .collect();
    for f in &bands {
        if f.threshold.is_finite() {
            lo = lo.min(f.threshold);
            hi = hi.max(f.threshold);
        }
    }
    if !lo.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (
        if lo >= 0.0 {
            (lo - pad).max(0.0)
        } else {
            lo - pad
        },
        hi + pad,
    );
    let x = |t: f64| LEFT + (t - from) / span * pw;
    let y = |v: f64| TOP + (hi - v) / (hi - lo) * ph;
    let mut s = String::with_capacity(8 * 1024);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"100%\" role=\"img\">\
<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"#fff\" stroke=\"#ccc\"/>"
    );
    // Bands: warning first, critical over it.
    let mut drawn: Vec<(Severity, Operator, u64)> = Vec::new();
    for sev in [Severity::Warning, Severity::Critical] {
        for f in bands.iter().filter(|f| f.severity == sev) {
            let key = (sev, f.operator, f.threshold.to_bits());
            if drawn.contains(&key) || !f.threshold.is_finite() {
                continue;
            }
            drawn.push(key);
            let ty = y(f.threshold).clamp(TOP, TOP + ph);
            let (y0, y1) = match f.operator {
                Operator::Gt | Operator::Ge => (TOP, ty),
                Operator::Lt | Operator::Le => (ty, TOP + ph),
                // A band of one value (eq), or of every value but one (ne): the line, thickened.
                Operator::Eq | Operator::Ne => (ty - 1.0, ty + 1.0),
            };
            let color = if sev == Severity::Critical {
                "#d32f2f"
            } else {
                "#f9a825"
            };
            let _ = write!(
                s,
                "<rect x=\"{LEFT}\" y=\"{y0:.1}\" width=\"{pw}\" height=\"{:.1}\" fill=\"{color}\" fill-opacity=\"0.12\"/>\
<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{ty:.1}\" y2=\"{ty:.1}\" stroke=\"{color}\" stroke-dasharray=\"4 3\"/>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\" fill=\"{color}\">{} {} {}</text>",
                (y1 - y0).max(0.0),
                LEFT + pw,
                LEFT + pw - 4.0,
                (ty - 3.0).max(TOP + 10.0),
                severity(sev),
                f.operator.name(),
                esc(&number(f.threshold)),
            );
        }
    }
    // Ranges of the findings.
    for f in findings {
        let (x0, x1) = (
            x(f.start).clamp(LEFT, LEFT + pw),
            x(f.end).clamp(LEFT, LEFT + pw),
        );
        let color = if f.severity == Severity::Critical {
            "#d32f2f"
        } else {
            "#f9a825"
        };
        let _ = write!(
            s,
            "<rect x=\"{x0:.1}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{ph}\" fill=\"{color}\" fill-opacity=\"0.10\"/>\
<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"4\" fill=\"{color}\"><title>{}</title></rect>",
            (x1 - x0).max(1.0),
            TOP + ph - 4.0,
            (x1 - x0).max(1.0),
            esc(&f.message)
        );
    }
    // The line: per pixel column its first, min, max and last value, in order; gaps where values are missing.
    let mut d = String::new();
    let mut pen_up = true;
    let mut col: Option<(i64, f64, f64, f64, f64, f64, f64)> = None; // column, first, min, max, last, t of min, t of max
    let flush = |d: &mut String, pen_up: &mut bool, c: (i64, f64, f64, f64, f64, f64, f64)| {
        let px = LEFT + c.0 as f64 + 0.5;
        let pts: [f64; 4] = [
            c.1,
            if c.5 <= c.6 { c.2 } else { c.3 },
            if c.5 <= c.6 { c.3 } else { c.2 },
            c.4,
        ];
        for v in pts {
            let _ = write!(d, "{}{px:.1},{:.1}", if *pen_up { "M" } else { "L" }, y(v));
            *pen_up = false;
        }
    };
    for (&t, &v) in timestamps.iter().zip(values) {
        if t < from || t > to {
            continue;
        }
        if !v.is_finite() {
            if let Some(c) = col.take() {
                flush(&mut d, &mut pen_up, c);
            }
            pen_up = true;
            continue;
        }
        let c = ((t - from) / span * pw).floor().min(pw - 1.0) as i64;
        match &mut col {
            Some(k) if k.0 == c => {
                if v < k.2 {
                    k.2 = v;
                    k.5 = t;
                }
                if v > k.3 {
                    k.3 = v;
                    k.6 = t;
                }
                k.4 = v;
            }
            _ => {
                if let Some(k) = col.take() {
                    flush(&mut d, &mut pen_up, k);
                }
                col = Some((c, v, v, v, v, t, t));
            }
        }
    }
    if let Some(k) = col.take() {
        flush(&mut d, &mut pen_up, k);
    }
    if !d.is_empty() {
        let _ = write!(
            s,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.2\"/>"
        );
    }
    // Axes: values at top and bottom, times at both ends.
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
<text x=\"{LEFT}\" y=\"{:.1}\" font-size=\"11\">{}</text>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}{}</text></svg>",
        LEFT - 4.0,
        TOP + 10.0,
        esc(&number(hi)),
        LEFT - 4.0,
        TOP + ph,
        esc(&number(lo)),
        H - 10.0,
        esc(&clock.time(from)),
        LEFT + pw,
        H - 10.0,
        esc(&clock.time(to)),
        clock.suffix(),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::super::{analyze, AnalyzeOptions, PackRef, RulePack};
    use super::*;
    use crate::capture::Series;

    fn capture(path: &str) -> Capture {
        // 61 samples a minute apart; 20% but 97.3 at minutes 40..=49.
        let values = (0..=60)
            .map(|m| if (40..=49).contains(&m) { 97.3 } else { 20.0 })
            .collect();
        Capture {
            format: "pdh-csv",
            encoding: "UTF-8",
            time_zone: None,
            timestamps: (0..=60).map(|i| 1.7e12 + i as f64 * 60_000.0).collect(),
            series: vec![Series::new(path.to_string(), values)],
            notes: Vec::new(),
        }
    }

    fn pack(category: &str) -> RulePack {
        RulePack::from_json(&format!(
            r#"{{ "id": "t", "title": "T", "rules": [
              {{ "id": "cpu", "title": "CPU <b>high</b>", "category": {category:?},
                 "counter": "\\*(*)\\*", "kind": "static", "severity": "critical", "operator": "gt", "threshold": 80 }},
              {{ "id": "never", "title": "x", "counter": "\\Nothing\\Here", "kind": "static",
                 "severity": "warning", "operator": "gt", "threshold": 1 }} ] }}"#
        ))
        .unwrap()
    }

    #[test]
    fn hostile_strings_are_text() {
        let c = capture(r"\\SRV\Evil(<script>alert(1)</script>)\<img src=x onerror=alert(2)>");
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(pack("<script>alert(3)</script>"))]),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(a.findings.len(), 1);
        let html = analysis_report(&c, &a, Some("<script>alert(4)</script>"));
        let lower = html.to_lowercase();
        assert!(!lower.contains("<script"), "no script element");
        assert!(!lower.contains("<img"), "no image element");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("&lt;script&gt;alert(3)&lt;/script&gt;"));
        assert!(html.contains("CPU &lt;b&gt;high&lt;/b&gt;"));
        // Only the elements the report writes: none that runs or loads anything.
        let allowed = [
            "!doctype",
            "html",
            "head",
            "meta",
            "title",
            "style",
            "body",
            "h1",
            "h2",
            "p",
            "table",
            "tr",
            "th",
            "td",
            "br",
            "span",
            "a",
            "figure",
            "figcaption",
            "ul",
            "li",
            "code",
            "svg",
            "rect",
            "line",
            "text",
            "path",
        ];
        for tag in lower.split('<').skip(1) {
            let name: String = tag
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
                .collect();
            assert!(allowed.contains(&name.as_str()), "element <{name}>");
        }
        // Nothing from outside: no external reference but the SVG namespace.
        assert!(!lower.contains("src=\""));
        assert!(!lower.contains("@import") && !lower.contains("url("));
        assert_eq!(
            lower.matches("http").count(),
            lower.matches("http://www.w3.org/2000/svg").count()
        );
    }

    #[test]
    fn the_report_has_every_part() {
        let c = capture(r"\\SRV\Processor(_Total)\% Processor Time");
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(pack("Processor"))]),
                ..Default::default()
            },
        )
        .unwrap();
        let html = analysis_report(&c, &a, None);
        for part in [
            "<h2>Summary by category</h2>",
            "<h2>Findings in time order</h2>",
            "<h2>Series with findings</h2>",
            "<h2>Variables used</h2>",
            "<h2>Rules skipped</h2>",
        ] {
            assert!(html.contains(part), "{part}");
        }
        // One chart, with the critical band (gt 80) and the range of the finding marked.
        assert_eq!(html.matches("<svg").count(), 1);
        assert!(html.contains("critical gt 80"));
        assert!(html.contains(r"% Processor Time above 80 (max 97.3) from"));
        // The rule that matched nothing, with its reason.
        assert!(html.contains(r"no series in the capture matches \Nothing\Here"));
        // The summary: Processor, 1 critical.
        assert!(html.contains("<tr><td>Processor</td><td class=\"critical\">1</td>"));
    }
}
