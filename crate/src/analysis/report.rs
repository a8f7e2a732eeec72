//! The analysis report: one self-contained HTML document to hand over (no script; no style, font or
//! image from outside it), readable offline from disk and printable to PDF (a print stylesheet):
//!
//! - a header: machine(s), OS where the log says it, time zone, first and last sample with dates,
//!   duration, interval, samples;
//! - a summary: counts by severity and category, the worst three findings in words;
//! - per category and rule: its description and references, the answers its threshold rests on (a
//!   default marked as an answer to confirm), its findings, and a chart per affected series with the
//!   thresholds and the findings' ranges (drawn by `chart::draw` through the SVG backend, the viewer's
//!   renderer, axes labelled in the counter's unit);
//! - statistics per series (min, avg, max, 95th percentile, trend per hour of the samples) and PAL's
//!   chronological alert grid (per time slice: condition, counter, min/avg/max, slice trend per hour: the
//!   two trends are named apart, each computed in one place, `series::samples_trend_per_hour` and
//!   `slices::trend`);
//! - key counters (CPU, memory, disk latency, network) charted even when nothing was found;
//! - the variables with their origin, the rules that did not run and why.
//!
//! Every string that comes from the capture or a pack is escaped ([`esc`]): a counter named
//! `<script>` is text in the page.

use super::cards::FindingGroup;
use super::derived::{derived_values, DerivedRef};
use super::findings::Clock;
use super::pack::{Block, Inline, Operator, Severity, Text};
use super::slices::{Slice, SliceStats, Slicing};
use super::variables::Origin;
use super::{Analysis, RuleRun};
use crate::capture::names::{english_names, english_path};
use crate::capture::path::{FoldedPath, PathPattern};
use crate::capture::{Capture, Series};
use crate::chart::range_stats::range_stats;
use crate::chart::svg::chart_svg;
use crate::chart::{Band, ChartSeries, ThresholdMark, View};
use crate::units::Measure;
use crate::words::duration;
use crate::words::{number, value};
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;color:#1d1d22;max-width:1100px;padding:0 1em}\
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}\
h3{font-size:1.1em;margin-top:1.6em}h4{font-size:1em;margin:1.2em 0 .3em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}\
th{background:#f4f4f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
.critical{color:#a3360a;font-weight:600}.warning{color:#7a4f00;font-weight:600}.ok{color:#1f6f43;font-weight:600}\
.muted{color:#5f5f68}.default{background:#fff3cd;padding:0 .3em;border-radius:3px}\
.verdict{font-size:1.15em;padding:.6em .9em;border-left:6px solid #888;background:#f6f6f8}\
.verdict.critical{border-color:#d55e00}.verdict.warning{border-color:#e69f00}.verdict.none{border-color:#5f5f68}\
figure{margin:1em 0}figcaption{font-weight:600;word-break:break-all}figure svg{max-width:100%;height:auto;display:block}\
code,.path{word-break:break-all}dl.head{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.5em 0}\
dl.head dt{color:#5f5f68}dl.head dd{margin:0}\
#story{font-size:1.1em}#story ol{padding-left:1.4em}#story li{margin:.5em 0}#story .next{display:block;color:#5f5f68}\
@media print{#summary{break-before:page}body{margin:0;max-width:none;font-size:11px}h2{break-before:auto;break-after:avoid}h3,h4{break-after:avoid}\
figure,tr,.verdict{break-inside:avoid}a{color:inherit;text-decoration:none}a[href]::after{content:\" (\" attr(href) \")\";font-size:.85em;color:#5f5f68}}";

/// The story (`story`): its headline, a line per card with its next step, and how many more cards the
/// detail holds.
fn write_story(h: &mut String, story: &super::story::Story) {
    h.push_str("<section id=\"story\">\n");
    let _ = writeln!(
        h,
        "<p class=\"verdict {}\">{}</p>",
        story_class(story),
        esc(&story.headline)
    );
    if !story.lines.is_empty() {
        h.push_str("<ol>");
        for l in &story.lines {
            let sev = match l.severity {
                Severity::Critical => "critical",
                Severity::Warning => "warning",
            };
            let _ =
                write!(
                h,
                "<li><span class=\"{sev}\">{}:</span> {}<span class=\"next\">Next: {}</span></li>",
                if sev == "critical" { "Critical" } else { "Warning" },
                esc(&l.text),
                esc(&l.next)
            );
        }
        h.push_str("</ol>\n");
    }
    if story.more > 0 {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{} more card{} below.</p>",
            story.more,
            if story.more == 1 { "" } else { "s" }
        );
    }
    h.push_str("</section>\n");
}

fn story_class(story: &super::story::Story) -> &'static str {
    match story.lines.iter().map(|l| l.severity).max() {
        Some(Severity::Critical) => "critical",
        Some(Severity::Warning) => "warning",
        None if story.ran == 0 => "none",
        None => "ok",
    }
}

/// Charts per rule at most (the others are in its table); alert grid rows at most.
const CHARTS_PER_RULE: usize = 12;
const ALERT_ROWS: usize = 1000;
const CHART_SIZE: (u32, u32) = (960, 260);

/// Escapes text for HTML content and attribute values.
/// A rule's description as HTML: plain text as one paragraph; PAL's blocks as paragraphs and lists,
/// every text escaped, strong text as `<strong>`, links only to http(s) addresses (others stay text).
fn description_html(text: &Text) -> String {
    let inline = |out: &mut String, items: &[Inline]| {
        for item in items {
            match item {
                Inline::Text(t) => out.push_str(&esc(t)),
                Inline::Strong { strong } => {
                    let _ = write!(out, "<strong>{}</strong>", esc(strong));
                }
                Inline::Link { link, text } => {
                    let url = link.trim();
                    if url.starts_with("https://") || url.starts_with("http://") {
                        let _ = write!(out, "<a href=\"{}\">{}</a>", esc(url), esc(text));
                    } else {
                        out.push_str(&esc(text));
                    }
                }
            }
        }
    };
    let mut out = String::from("<div class=\"description\">");
    match text {
        Text::Plain(s) => {
            let _ = write!(out, "<p>{}</p>", esc(s));
        }
        Text::Rich(blocks) => {
            for block in blocks {
                match block {
                    Block::Paragraph(items) => {
                        out.push_str("<p>");
                        inline(&mut out, items);
                        out.push_str("</p>");
                    }
                    Block::List(entries) => {
                        out.push_str("<ul>");
                        for items in entries {
                            out.push_str("<li>");
                            inline(&mut out, items);
                            out.push_str("</li>");
                        }
                        out.push_str("</ul>");
                    }
                }
            }
        }
    }
    out.push_str("</div>\n");
    out
}

/// Text for HTML: `&`, `<`, `>`, `"` and `'` as entities, so it is text in an element and in a quoted
/// attribute alike (the report's and the CLI's index page's one escaper).
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

/// The series a report shows: the capture's, and after them the derived series its findings name
/// (`Finding::derived`, computed again from the capture: series `s` past the capture's count).
struct Src<'a> {
    capture: &'a Capture,
    derived: BTreeMap<usize, (Series, DerivedRef)>,
}

impl<'a> Src<'a> {
    fn new(capture: &'a Capture, analysis: &Analysis) -> Src<'a> {
        let mut derived = BTreeMap::new();
        for f in &analysis.findings {
            let Some(d) = &f.derived else { continue };
            if f.series_index < capture.series.len() || derived.contains_key(&f.series_index) {
                continue;
            }
            // A definition that does not compute any more (an analysis of another capture) has no chart.
            if let Ok(values) = derived_values(capture, d) {
                derived.insert(
                    f.series_index,
                    (Series::new(f.path.clone(), values), d.clone()),
                );
            }
        }
        Src { capture, derived }
    }

    fn series(&self, s: usize) -> Option<&Series> {
        self.capture
            .series
            .get(s)
            .or_else(|| self.derived.get(&s).map(|(x, _)| x))
    }

    /// How the report names series `s` (else `path`): its path (the machine in it), and the English
    /// path beside a localized one.
    fn name(&self, s: usize, path: &str) -> String {
        match self.series(s).and_then(|x| english_path(&x.parsed)) {
            Some(en) if en != path => format!("{path} — {en}"),
            _ => path.to_string(),
        }
    }
}

/// The unit of series `s`: from its counter type and English counter name (a derived series: from
/// its name, as the finding's message).
fn measure(src: &Src<'_>, s: usize) -> Measure {
    src.series(s).map_or_else(Measure::default, |sr| {
        let counter = english_names(&sr.parsed).map_or(sr.parsed.counter.as_str(), |(_, c)| c);
        super::findings::message_measure(sr.counter_type, counter)
    })
}

/// A value of series `s` in its unit: `97.3%`, `1.6 GB`, `25 ms`, `3 MB/s`.
fn in_unit(m: Measure, v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    value(v, m)
}

/// "above", "below", ...: the words of an operator.
fn words(op: Operator) -> &'static str {
    op.words()
}

/// The rule run of a finding group.
fn run_of<'a>(analysis: &'a Analysis, pack: &str, rule: &str) -> Option<&'a RuleRun> {
    analysis
        .rules
        .iter()
        .find(|r| r.pack == pack && r.rule == rule)
}

/// The thresholds to draw for a rule: its own and those of its group (its warning and critical), as the
/// analysis evaluated them; none for trend rules (their threshold is a slope).
fn thresholds_of(analysis: &Analysis, pack: &str, rule: &str) -> Vec<(f64, Severity, Operator)> {
    let Some(me) = run_of(analysis, pack, rule) else {
        return Vec::new();
    };
    if me.trend {
        return Vec::new();
    }
    let mut out = Vec::new();
    for r in analysis.rules.iter().filter(|r| {
        r.pack == pack
            && !r.trend
            && (r.rule == rule
                || (me.group.is_some() && r.group == me.group && r.counter == me.counter))
    }) {
        let op = analysis
            .findings
            .iter()
            .find(|f| f.pack == r.pack && f.rule == r.rule)
            .map(|f| f.operator)
            .or(r.operator);
        if let (Some(t), Some(op)) = (r.threshold, op) {
            out.push((t, r.severity, op));
        }
    }
    out
}

fn band(op: Operator) -> Band {
    match op {
        Operator::Gt | Operator::Ge => Band::Above,
        Operator::Lt | Operator::Le => Band::Below,
        Operator::Eq | Operator::Ne => Band::None,
    }
}

/// One chart (SVG) of `series` over the analysed range, with thresholds (on the first series' axis) and
/// shaded ranges.
fn chart(
    src: &Src<'_>,
    series: &[usize],
    (x0, x1): (f64, f64),
    thresholds: &[(f64, Severity, Operator)],
    ranges: &[(f64, f64)],
    clock_offset: i32,
) -> String {
    let lines: Vec<ChartSeries<'_>> = series
        .iter()
        .enumerate()
        .filter_map(|(k, &s)| {
            let sr = src.series(s)?;
            Some(ChartSeries {
                label: src.name(s, &sr.path),
                values: &sr.values,
                color_index: k,
                measure: measure(src, s),
                ..Default::default()
            })
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let view = View {
        x_range: (x1 > x0).then_some((x0, x1)),
        offset_minutes: clock_offset,
        legend: lines.len() > 1,
        thresholds: thresholds
            .iter()
            .map(|&(value, sev, op)| ThresholdMark {
                series: 0,
                value,
                critical: sev == Severity::Critical,
                band: band(op),
            })
            .collect(),
        ranges: ranges.to_vec(),
        ..Default::default()
    };
    match chart_svg(CHART_SIZE, &src.capture.timestamps, &lines, &view) {
        Ok((svg, _)) => svg,
        Err(e) => format!("<p class=\"muted\">No chart: {}</p>", esc(&e.to_string())),
    }
}

/// The slicing of an analysis again, from its slices (the sample range of each).
fn slicing_of(timestamps: &[f64], slices: &[Slice]) -> Slicing {
    let n = slices.len();
    let ranges = slices
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let a = timestamps.partition_point(|&t| t < s.start);
            let b = if i + 1 == n {
                timestamps.partition_point(|&t| t <= s.end)
            } else {
                timestamps.partition_point(|&t| t < s.end)
            };
            (a, b.max(a))
        })
        .collect();
    Slicing {
        slices: slices.to_vec(),
        ranges,
    }
}

/// The key counters a report always charts, by area, as Perfmon wildcard paths (instances other than
/// `_Total` for disks and network only when there is no `_Total`).
const KEY_COUNTERS: [(&str, &[&str]); 4] = [
    (
        "Processor",
        &[
            r"\Processor(_Total)\% Processor Time",
            r"\Processor Information(_Total)\% Processor Time",
        ],
    ),
    (
        "Memory",
        &[r"\Memory\Available MBytes", r"\Memory\Available Bytes"],
    ),
    (
        "Disk latency",
        &[
            r"\LogicalDisk(*)\Avg. Disk sec/Read",
            r"\LogicalDisk(*)\Avg. Disk sec/Write",
            r"\PhysicalDisk(*)\Avg. Disk sec/Read",
            r"\PhysicalDisk(*)\Avg. Disk sec/Write",
        ],
    ),
    ("Network", &[r"\Network Interface(*)\Bytes Total/sec"]),
];

/// The series of a key area: the first pattern that matches anything, `_Total` preferred where present,
/// at most six.
fn key_series(paths: &[FoldedPath], patterns: &[&str]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for p in patterns {
        let Ok(pattern) = PathPattern::parse(p) else {
            continue;
        };
        let matched: Vec<usize> = (0..paths.len())
            .filter(|&i| pattern.matches_folded(&paths[i]))
            .collect();
        let total: Vec<usize> = matched
            .iter()
            .copied()
            .filter(|&i| paths[i].instance.as_deref() == Some("_total"))
            .collect();
        out.extend(if total.is_empty() { matched } else { total });
    }
    out.dedup();
    out.truncate(6);
    out
}

/// The report of `analysis` (made by [`super::analyze`] on `capture`).
pub fn analysis_report(capture: &Capture, analysis: &Analysis, title: Option<&str>) -> String {
    let title = title.unwrap_or("Performance analysis");
    let src = Src::new(capture, analysis);
    let clock = Clock::of(capture, &analysis.slices);
    let offset = capture.time_zone.as_ref().map_or(0, |z| -z.bias_minutes);
    let log = &analysis.log;
    let (x0, x1) = (
        analysis.slices.first().map_or(0.0, |s| s.start),
        analysis.slices.last().map_or(0.0, |s| s.end),
    );
    let when = |a: f64, b: f64| {
        format!(
            "{} – {}{}",
            clock.date_time(a),
            clock.time(b),
            clock.suffix()
        )
    };
    let mut h = String::with_capacity(256 * 1024);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    );

    // ---- the story: the page a manager reads ----
    write_story(&mut h, &analysis.story);

    // ---- header ----
    h.push_str("<dl class=\"head\" id=\"header\">");
    let mut head = |k: &str, v: String| {
        let _ = write!(h, "<dt>{k}</dt><dd>{v}</dd>");
    };
    head(
        if log.machines.len() == 1 {
            "Machine"
        } else {
            "Machines"
        },
        if log.machines.is_empty() {
            "not named in the counter paths".into()
        } else {
            esc(&log.machines.join(", "))
        },
    );
    head(
        "OS",
        log.os
            .as_deref()
            .map_or("not recorded in this log".into(), esc),
    );
    head(
        "Time zone",
        match &capture.time_zone {
            Some(z) => format!(
                "{} (UTC{}{:02}:{:02}); times below are the log's own clock",
                esc(if z.name.is_empty() {
                    "unnamed"
                } else {
                    &z.name
                }),
                if z.bias_minutes <= 0 { '+' } else { '-' },
                z.bias_minutes.abs() / 60,
                z.bias_minutes.abs() % 60
            ),
            None => "not recorded: times are UTC".into(),
        },
    );
    head(
        "First sample",
        log.first.map_or("–".into(), |t| {
            format!("{}{}", clock.date_time(t), clock.suffix())
        }),
    );
    head(
        "Last sample",
        log.last.map_or("–".into(), |t| {
            format!("{}{}", clock.date_time(t), clock.suffix())
        }),
    );
    head(
        "Duration",
        match (log.first, log.last) {
            (Some(a), Some(b)) => duration(b - a),
            _ => "–".into(),
        },
    );
    head("Interval", log.interval_ms.map_or("–".into(), duration));
    head(
        "Samples",
        format!(
            "{} samples of {} series ({}), analysed in {} slices of {}",
            log.samples,
            log.series,
            esc(capture.format_name()),
            analysis.slices.len(),
            analysis
                .slices
                .first()
                .map_or("–".into(), |s| duration(s.end - s.start))
        ),
    );
    if let Some(n) = log.logical_processors {
        head("Logical processors", n.to_string());
    }
    if let Some(m) = log.link_speed_mbps {
        head("Network link", format!("{} Mbit/s", number(m)));
    }
    h.push_str("</dl>\n");

    // ---- summary ----
    h.push_str("<h2 id=\"summary\">Summary</h2>\n");
    let ran: Vec<&RuleRun> = analysis
        .rules
        .iter()
        .filter(|r| r.skipped.is_none())
        .collect();
    let crit = analysis
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Critical)
        .count();
    let warn = analysis.findings.len() - crit;
    if ran.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"verdict none\">Not analysed: no rule applies to these counters ({} series). \
This is not a clean result: add counters the packs know (processor, memory, disk, network) or a pack of your own.</p>",
            log.series
        );
    } else if analysis.findings.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"verdict ok\">No rule broke: {} rules ran on this log; {} did not (listed at the end).</p>",
            ran.len(),
            analysis.rules.len() - ran.len()
        );
    } else {
        let _ = writeln!(
            h,
            "<p class=\"verdict {}\">{} finding{} ({} critical, {} warning) from {} rule{} that ran; {} did not run.</p>",
            if crit > 0 { "critical" } else { "warning" },
            analysis.findings.len(),
            if analysis.findings.len() == 1 { "" } else { "s" },
            crit,
            warn,
            ran.len(),
            if ran.len() == 1 { "" } else { "s" },
            analysis.rules.len() - ran.len()
        );
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
        h.push_str("</table>\n<p>The worst:</p>\n<ol>");
        for g in analysis.groups.iter().take(3) {
            let _ = write!(
                h,
                "<li><a href=\"#g-{}-{}\">{}</a></li>",
                esc(&g.pack),
                esc(&g.rule),
                esc(&group_sentence(&src, analysis, g, &clock))
            );
        }
        h.push_str("</ol>\n");
    }

    // ---- per category and rule ----
    if !analysis.groups.is_empty() {
        h.push_str("<h2 id=\"findings\">Findings by category and rule</h2>\n");
        let mut by_cat: BTreeMap<String, Vec<&FindingGroup>> = BTreeMap::new();
        for g in &analysis.groups {
            let f = &analysis.findings[g.worst];
            let c = if f.category.is_empty() {
                "Other".to_string()
            } else {
                f.category.clone()
            };
            by_cat.entry(c).or_default().push(g);
        }
        let mut seen_ids = std::collections::HashSet::new();
        for (cat, groups) in &by_cat {
            let _ = writeln!(h, "<h3>{}</h3>", esc(cat));
            for g in groups {
                write_group(
                    &mut h,
                    &src,
                    analysis,
                    g,
                    &clock,
                    (x0, x1),
                    offset,
                    seen_ids.insert((g.pack.as_str(), g.rule.as_str())),
                    &when,
                );
            }
        }
    }

    // ---- statistics ----
    let paths: Vec<FoldedPath> = capture
        .series
        .iter()
        .map(|s| FoldedPath::new(&s.parsed))
        .collect();
    let mut stat_series: Vec<usize> = Vec::new();
    for f in &analysis.findings {
        if !stat_series.contains(&f.series_index) {
            stat_series.push(f.series_index);
        }
    }
    let keys: Vec<(&str, Vec<usize>)> = KEY_COUNTERS
        .iter()
        .map(|(name, patterns)| (*name, key_series(&paths, patterns)))
        .collect();
    for (_, s) in &keys {
        for &i in s {
            if !stat_series.contains(&i) {
                stat_series.push(i);
            }
        }
    }
    h.push_str("<h2 id=\"statistics\">Statistics</h2>\n");
    if stat_series.is_empty() {
        h.push_str("<p>No series with findings and no key counter in this log.</p>\n");
    } else {
        h.push_str(
            "<p class=\"muted\">Over the analysed range: the series with findings, then the key counters. \
Trend per hour (samples): the least-squares slope of every sample against time.</p>\n\
<table><tr><th>Series</th><th>Min</th><th>Avg</th><th>Max</th><th>95th pct</th><th>Trend per hour (samples)</th></tr>\n",
        );
        for &i in &stat_series {
            let Some(sr) = src.series(i) else {
                continue;
            };
            let st = range_stats(&capture.timestamps, &sr.values, Some(x0), Some(x1));
            let m = measure(&src, i);
            let _ = writeln!(
                h,
                "<tr><td class=\"path\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                esc(&src.name(i, &sr.path)),
                in_unit(m, st.min),
                in_unit(m, st.mean),
                in_unit(m, st.max),
                in_unit(m, st.p95),
                if st.trend_per_hour.is_finite() {
                    format!("{}/h", in_unit(m, st.trend_per_hour))
                } else {
                    "–".into()
                }
            );
        }
        h.push_str("</table>\n");
    }

    // ---- PAL's chronological alert grid ----
    h.push_str("<h2 id=\"alerts\">Alerts in time order</h2>\n");
    if analysis.findings.is_empty() {
        h.push_str("<p>None.</p>\n");
    } else {
        write_alerts(&mut h, &src, analysis, &clock);
    }

    // ---- key counters ----
    h.push_str("<h2 id=\"key-counters\">Key counters</h2>\n");
    let mut any = false;
    for (name, series) in &keys {
        if series.is_empty() {
            continue;
        }
        any = true;
        let _ = writeln!(h, "<figure><figcaption>{}</figcaption>", esc(name));
        h.push_str(&chart(&src, series, (x0, x1), &[], &[], offset));
        h.push_str("</figure>\n");
    }
    if !any {
        h.push_str("<p>This log has none of the key counters (processor time, available memory, disk latency, network bytes).</p>\n");
    }

    // ---- variables ----
    h.push_str("<h2 id=\"variables\">Answers and variables used</h2>\n");
    if analysis.variables.is_empty() {
        h.push_str("<p>None.</p>\n");
    } else {
        h.push_str("<table><tr><th>Name</th><th>Value</th><th>From</th></tr>\n");
        for (name, value) in &analysis.variables {
            let from = match analysis.variable_sources.get(name) {
                Some(Origin::User) => "answered by the user",
                Some(Origin::Capture) => "from the log",
                Some(Origin::Bound) => {
                    "at least this, from the log (the most memory it shows free)"
                }
                Some(Origin::Pack) => {
                    "<span class=\"default\">the pack's default: an answer to confirm</span>"
                }
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

    // ---- rules skipped ----
    h.push_str("<h2 id=\"skipped\">Rules that did not run</h2>\n");
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
                esc(if r.title.is_empty() {
                    &r.rule
                } else {
                    &r.title
                }),
                esc(why)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("<p class=\"muted\">Made by counterlens.</p>\n</body></html>\n");
    h
}

/// A group in words: "Processor busy more than 80% of the time on 11 of 20 series, 13:46 – 13:47,
/// worst 35.9% (above 20%)".
fn group_sentence(src: &Src<'_>, analysis: &Analysis, g: &FindingGroup, clock: &Clock) -> String {
    // The card's own sentence (the episode, its share and mean, the processes that did it) where the
    // analysis wrote one: the report says what the verdict says.
    if !g.summary.is_empty() {
        return format!("{}: {}", severity_word(g.severity), g.summary);
    }
    let f = &analysis.findings[g.worst];
    let m = measure(src, f.series_index);
    let run = run_of(analysis, &g.pack, &g.rule);
    let title = run
        .map(|r| r.title.as_str())
        .filter(|t| !t.is_empty())
        .unwrap_or(f.title.as_str());
    let trend = run.is_some_and(|r| r.trend);
    let fmt = |v: f64| {
        if trend {
            format!("{}/h", amount_in(m, v))
        } else {
            amount_in(m, v)
        }
    };
    let on = if g.series == 1 {
        src.name(f.series_index, &f.path)
    } else {
        format!("{} series", g.series)
    };
    format!(
        "{}: {} on {on}, {} – {}{}, worst {} ({} {})",
        severity_word(g.severity),
        title,
        clock.time(g.start),
        clock.time(g.end),
        clock.suffix(),
        fmt(f.worst),
        words(f.operator),
        fmt(f.threshold)
    )
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Warning => "Warning",
        Severity::Critical => "Critical",
    }
}

/// A value in the series' unit, sizes and times as people read them.
fn amount_in(m: Measure, v: f64) -> String {
    if !v.is_finite() {
        return number(v);
    }
    value(v, m)
}

#[allow(clippy::too_many_arguments)]
fn write_group(
    h: &mut String,
    src: &Src<'_>,
    analysis: &Analysis,
    g: &FindingGroup,
    clock: &Clock,
    range: (f64, f64),
    offset: i32,
    first_of_rule: bool,
    when: &dyn Fn(f64, f64) -> String,
) {
    let f = &analysis.findings[g.worst];
    let run = run_of(analysis, &g.pack, &g.rule);
    let id = if first_of_rule {
        format!(" id=\"g-{}-{}\"", esc(&g.pack), esc(&g.rule))
    } else {
        String::new()
    };
    let _ = writeln!(
        h,
        "<section class=\"group\"{id}><h4><span class=\"{sev}\">{Sev}</span> {}</h4>\n<p>{}</p>",
        esc(run
            .map(|r| r.title.as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or(f.title.as_str())),
        esc(&group_sentence(src, analysis, g, clock)),
        sev = severity(g.severity),
        Sev = severity_word(g.severity),
    );
    if let Some(r) = run {
        if !r.description.is_empty() {
            h.push_str(&description_html(&r.description));
        }
        if !r.references.is_empty() {
            h.push_str("<p class=\"references\">References: ");
            for (k, reference) in r.references.iter().enumerate() {
                let url = reference.url.trim();
                let safe = url.starts_with("https://") || url.starts_with("http://");
                if k > 0 {
                    h.push_str("; ");
                }
                if safe {
                    let _ = write!(h, "<a href=\"{}\">{}</a>", esc(url), esc(&reference.title));
                } else {
                    let _ = write!(h, "{} ({})", esc(&reference.title), esc(url));
                }
            }
            h.push_str("</p>\n");
        }
    }
    if !f.variables.is_empty() {
        h.push_str("<p class=\"answers\">Rests on: ");
        for (k, v) in f.variables.iter().enumerate() {
            if k > 0 {
                h.push_str(", ");
            }
            let _ = write!(
                h,
                "<code>{}</code> = {}",
                esc(&v.name),
                esc(&v.value.to_string())
            );
            match v.origin {
                Origin::Pack => h.push_str(
                    " <span class=\"default\">(the pack's default: an answer to confirm)</span>",
                ),
                Origin::Capture => h.push_str(" (from the log)"),
                Origin::Bound => h.push_str(" (at least this: from the log)"),
                Origin::User => h.push_str(" (answered)"),
            }
        }
        h.push_str("</p>\n");
    }
    h.push_str("<table><tr><th>When</th><th>Series</th><th>Worst</th><th>Threshold</th></tr>\n");
    let mut series: Vec<usize> = Vec::new();
    for &i in &g.findings {
        let x = &analysis.findings[i];
        let m = measure(src, x.series_index);
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"path\">{}</td><td class=\"num\">{} ({})</td><td class=\"num\">{} {}</td></tr>",
            esc(&when(x.start, x.end)),
            esc(&src.name(x.series_index, &x.path)),
            esc(&amount_in(m, x.worst)),
            x.broke.last().map_or("", |s| s.name()),
            words(x.operator),
            esc(&amount_in(m, x.threshold)),
        );
        if !series.contains(&x.series_index) {
            series.push(x.series_index);
        }
    }
    h.push_str("</table>\n");
    let thresholds = thresholds_of(analysis, &g.pack, &g.rule);
    for &s in series.iter().take(CHARTS_PER_RULE) {
        let ranges: Vec<(f64, f64)> = g
            .findings
            .iter()
            .map(|&i| &analysis.findings[i])
            .filter(|x| x.series_index == s)
            .map(|x| (x.start, x.end))
            .collect();
        let path = src.series(s).map_or("", |x| x.path.as_str());
        let _ = writeln!(
            h,
            "<figure><figcaption>{}</figcaption>",
            esc(&src.name(s, path))
        );
        h.push_str(&chart(src, &[s], range, &thresholds, &ranges, offset));
        // A derived series: its definition, and its inputs charted as context.
        if let Some((_, d)) = src.derived.get(&s) {
            write_definition(h, d);
            let inputs: Vec<usize> = d.inputs.iter().map(|i| i.series_index).collect();
            h.push_str(&chart(src, &inputs, range, &[], &ranges, offset));
        }
        h.push_str("</figure>\n");
    }
    if series.len() > CHARTS_PER_RULE {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{} more series, in the table above.</p>",
            series.len() - CHARTS_PER_RULE
        );
    }
    h.push_str("</section>\n");
}

/// A derived series' definition under its chart: the expression, what each name stands for, the
/// pack variables it reads.
fn write_definition(h: &mut String, d: &DerivedRef) {
    let _ = write!(
        h,
        "<p class=\"definition\">Derived series, computed sample by sample by pack {} ({}): <code>{}</code>, where ",
        esc(&d.pack),
        esc(&d.id),
        esc(&d.expression)
    );
    for (k, i) in d.inputs.iter().enumerate() {
        if k > 0 {
            h.push_str(", ");
        }
        let _ = write!(
            h,
            "<code>{}</code> is <span class=\"path\">{}</span>",
            esc(&i.name),
            esc(&i.path)
        );
    }
    for (name, v) in &d.variables {
        let _ = write!(h, ", <code>{}</code> = {}", esc(name), esc(&v.to_string()));
    }
    h.push_str(". Its inputs are charted below it.</p>\n");
}

/// PAL's chronological alert grid: per broken slice of each finding, in time order, the condition, the
/// counter and its min, avg, max and slice trend per hour (PAL's: the slope of the slice averages from
/// the first slice to this one) in that slice.
fn write_alerts(h: &mut String, src: &Src<'_>, analysis: &Analysis, clock: &Clock) {
    let slicing = slicing_of(&src.capture.timestamps, &analysis.slices);
    let mut stats: BTreeMap<usize, SliceStats> = BTreeMap::new();
    // (slice, severity desc, finding)
    let mut rows: Vec<(usize, usize)> = Vec::new();
    for (k, f) in analysis.findings.iter().enumerate() {
        let Some(sr) = src.series(f.series_index) else {
            continue;
        };
        let st = stats
            .entry(f.series_index)
            .or_insert_with(|| SliceStats::compute(&sr.values, &slicing));
        for (i, s) in analysis.slices.iter().enumerate() {
            if s.start >= f.start && s.end <= f.end && st.count.get(i).is_some_and(|&n| n > 0) {
                rows.push((i, k));
            }
        }
    }
    rows.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(
                analysis.findings[b.1]
                    .severity
                    .cmp(&analysis.findings[a.1].severity),
            )
            .then(a.1.cmp(&b.1))
    });
    h.push_str("<p class=\"muted\">Slice trend per hour (PAL's): the least-squares slope of the slice averages from the first slice to this one; not the trend of the samples in the statistics above.</p>\n");
    h.push_str("<table><tr><th>Time slice</th><th>Condition</th><th>Counter</th><th>Min</th><th>Avg</th><th>Max</th><th>Slice trend per hour</th></tr>\n");
    for &(i, k) in rows.iter().take(ALERT_ROWS) {
        let f = &analysis.findings[k];
        let st = &stats[&f.series_index];
        let m = measure(src, f.series_index);
        let s = &analysis.slices[i];
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"{sev}\">{}</td><td class=\"path\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&format!("{} – {}{}", clock.date_time(s.start), clock.time(s.end), clock.suffix())),
            esc(&f.title),
            esc(&src.name(f.series_index, &f.path)),
            in_unit(m, st.min[i]),
            in_unit(m, st.avg[i]),
            in_unit(m, st.max[i]),
            if st.trend[i].is_finite() {
                format!("{}/h", in_unit(m, st.trend[i]))
            } else {
                "–".into()
            },
            sev = severity(f.severity),
        );
    }
    h.push_str("</table>\n");
    if rows.len() > ALERT_ROWS {
        let _ = writeln!(
            h,
            "<p class=\"muted\">The first {ALERT_ROWS} of {} rows.</p>",
            rows.len()
        );
    }
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
            format: Some(crate::capture::Format::PdhCsv),
            encoding: Some(crate::capture::CaptureEncoding::Text(
                crate::capture::text::Encoding::UTF_8,
            )),
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
            "polyline",
            "polygon",
            "circle",
            "dl",
            "dt",
            "dd",
            "h3",
            "h4",
            "ol",
            "section",
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
            "<h2 id=\"summary\">Summary</h2>",
            "<h2 id=\"findings\">Findings by category and rule</h2>",
            "<h2 id=\"statistics\">Statistics</h2>",
            "<h2 id=\"alerts\">Alerts in time order</h2>",
            "<h2 id=\"key-counters\">Key counters</h2>",
            "<h2 id=\"variables\">Answers and variables used</h2>",
            "<h2 id=\"skipped\">Rules that did not run</h2>",
            "@media print",
        ] {
            assert!(html.contains(part), "{part}");
        }
        // The header: the machine, the first and last sample with their dates (1.7e12 ms is
        // 2023-11-14 22:13:20 UTC; + 60 min = 23:13:20), duration and interval.
        assert!(html.contains("<dt>Machine</dt><dd>SRV</dd>"), "{html}");
        assert!(html.contains("<dt>First sample</dt><dd>2023-11-14 22:13:20 UTC</dd>"));
        assert!(html.contains("<dt>Last sample</dt><dd>2023-11-14 23:13:20 UTC</dd>"));
        // Durations in the core's one rule (words::duration): 3600 s is below 7200 s, so minutes;
        // 60 s is below 120 s, so seconds.
        assert!(html.contains("<dt>Duration</dt><dd>60 min</dd>"));
        assert!(html.contains("<dt>Interval</dt><dd>60 s</dd>"));
        assert!(html.contains("<dt>Time zone</dt><dd>not recorded: times are UTC</dd>"));
        // Two charts: the finding's series, and the same series as the key processor counter.
        assert_eq!(html.matches("<svg").count(), 2);
        // The threshold drawn on the chart, labelled in the counter's unit.
        assert!(html.contains("critical 80%"));
        // The worst finding in words: 97.3 above 80, formatted as percent.
        assert!(html.contains("worst 97.3% (above 80%)"), "{html}");
        // Statistics: 61 values, 10 at 97.3 and 51 at 20: min 20%, max 97.3%, mean (10 * 97.3 + 51 * 20) / 61
        // = 1993 / 61 = 32.67%.
        assert!(html.contains("<td class=\"num\">20%</td><td class=\"num\">32.7%</td><td class=\"num\">97.3%</td>"), "{html}");
        // The alert grid: the slices of minutes 40-49 at 97.3 (auto slices of 2 min: 20 .. 24, five rows; a
        // slice straddling 39/40 or 49/50 averages above 80 too).
        let alerts =
            &html[html.find("id=\"alerts\"").unwrap()..html.find("id=\"key-counters\"").unwrap()];
        let rows = alerts.matches("<tr><td>").count();
        assert!((5..=7).contains(&rows), "{rows} rows: {alerts}");
        // The rule that matched nothing, with its reason.
        assert!(html.contains(r"no series in the capture matches \Nothing\Here"));
        // The summary: Processor, 1 critical.
        assert!(html.contains("<tr><td>Processor</td><td class=\"critical\">1</td>"));
    }

    #[test]
    fn a_log_no_rule_applies_to_never_reads_as_clean() {
        let c = capture(r"\\SRV\Custom App\Widgets");
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(pack("Processor"))]),
                ..Default::default()
            },
        );
        // The pack's "\*(*)\*" rule matches anything; a pack whose only rule matches nothing:
        let never = RulePack::from_json(
            r#"{ "id": "n", "title": "N", "rules": [ { "id": "never", "title": "x", "counter": "\\Nothing\\Here",
                 "kind": "static", "severity": "warning", "operator": "gt", "threshold": 1 } ] }"#,
        )
        .unwrap();
        assert!(a.is_ok());
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(never)]),
                ..Default::default()
            },
        )
        .unwrap();
        let html = analysis_report(&c, &a, None);
        assert!(html.contains("Not analysed: no rule applies to these counters"));
        assert!(!html.contains("No rule broke"));
    }

    #[test]
    fn descriptions_references_and_default_answers() {
        let c = capture(r"\\SRV\Processor(_Total)\% Processor Time");
        let pack = |refs: &str| {
            RulePack::from_json(&format!(
                r#"{{ "id": "t", "title": "T", "variables": [ {{ "name": "Limit", "default": 80 }} ], "rules": [
                  {{ "id": "cpu", "title": "CPU", "category": "Processor", "description": "Find the busy process.",
                    "references": [ {refs} ],
                    "counter": "\\Processor(*)\\% Processor Time", "kind": "static", "severity": "warning",
                    "operator": "gt", "threshold": "Limit" }} ] }}"#
            ))
        };
        // A reference that is not http(s) never reaches a report: the pack is refused where it says so.
        let bad = pack(r#"{ "title": "Bad", "url": "javascript:alert(1)" }"#).unwrap_err();
        assert!(
            bad.to_string().contains("/rules/0/references/0/url"),
            "{bad}"
        );
        let p = pack(r#"{ "title": "Tuning", "url": "https://example.com/tuning" }"#).unwrap();
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(p)]),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(a.findings.len(), 1);
        let html = analysis_report(&c, &a, None);
        assert!(html.contains("<div class=\"description\"><p>Find the busy process.</p></div>"));
        assert!(html.contains("<a href=\"https://example.com/tuning\">Tuning</a>"));
        assert!(html.contains("<code>Limit</code> = 80 <span class=\"default\">(the pack's default: an answer to confirm)</span>"));
    }

    #[test]
    fn rich_descriptions_keep_paragraphs_lists_and_safe_links_only() {
        use super::{Block, Inline, Text};
        let text = Text::Rich(vec![
            Block::Paragraph(vec![
                Inline::Text("Paged pool <b>low</b>; see ".into()),
                Inline::Link {
                    link: "https://learn.microsoft.com/pool".into(),
                    text: "the pool".into(),
                },
            ]),
            Block::List(vec![
                vec![Inline::Strong {
                    strong: "Check".into(),
                }],
                vec![Inline::Link {
                    link: "javascript:alert(1)".into(),
                    text: "not a link".into(),
                }],
            ]),
        ]);
        let html = description_html(&text);
        assert_eq!(
            html,
            "<div class=\"description\"><p>Paged pool &lt;b&gt;low&lt;/b&gt;; see \
             <a href=\"https://learn.microsoft.com/pool\">the pool</a></p><ul><li><strong>Check</strong></li>\
             <li>not a link</li></ul></div>\n"
        );
    }

    /// A capture of `paths`, each with its values, at the report tests' times (a minute apart).
    fn capture_of(series: &[(&str, Vec<f64>)]) -> Capture {
        let mut c = capture(series[0].0);
        let n = series[0].1.len();
        c.timestamps = (0..n).map(|i| 1.7e12 + i as f64 * 60_000.0).collect();
        c.series = series
            .iter()
            .map(|(p, v)| Series::new(p.to_string(), v.clone()))
            .collect();
        c
    }

    #[test]
    fn a_derived_series_is_charted_with_its_definition_and_inputs() {
        // Compilations / batch requests * 100 per SQL instance: INST1 10/40 = 25%, then 30/50 = 60%
        // (above 50: the finding); INST2 5/50 = 10% throughout (none).
        let c = capture_of(&[
            (
                r"\\SQL1\MSSQL$INST1:SQL Statistics\SQL Compilations/sec",
                vec![10.0, 30.0, 30.0],
            ),
            (
                r"\\SQL1\MSSQL$INST1:SQL Statistics\Batch Requests/sec",
                vec![40.0, 50.0, 50.0],
            ),
            (
                r"\\SQL1\MSSQL$INST2:SQL Statistics\SQL Compilations/sec",
                vec![5.0, 5.0, 5.0],
            ),
            (
                r"\\SQL1\MSSQL$INST2:SQL Statistics\Batch Requests/sec",
                vec![50.0, 50.0, 50.0],
            ),
        ]);
        let pack = RulePack::from_json(
            r#"{ "id": "sql", "title": "SQL", "derived": [ { "id": "ratio",
              "counter": "\\SQL Generated(*)\\Compilations to Batch Requests",
              "inputs": [ { "name": "c", "counter": "\\*:SQL Statistics\\SQL Compilations/sec" },
                          { "name": "b", "counter": "\\*:SQL Statistics\\Batch Requests/sec" } ],
              "pairBy": "sqlInstance", "expression": "c / b * 100" } ],
              "rules": [ { "id": "r", "title": "Compilations high", "category": "SQL Server",
                "counter": "\\SQL Generated(*)\\Compilations to Batch Requests", "kind": "static",
                "stats": ["max"], "severity": "warning", "operator": "gt", "threshold": 50 } ] }"#,
        )
        .unwrap();
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(pack)]),
                slice: crate::analysis::SliceLength::Ms(180_000.0),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(a.findings.len(), 1);
        let html = analysis_report(&c, &a, None);
        let path = r"\\SQL1\SQL Generated(INST1)\Compilations to Batch Requests";
        // Its figure: the caption, a chart of it (with the warning threshold at 50), the definition,
        // and a chart of its inputs.
        let fig = &html[html
            .find(&format!("<figure><figcaption>{path}"))
            .expect("figure")..];
        let fig = &fig[..fig.find("</figure>").unwrap()];
        assert_eq!(fig.matches("<svg").count(), 2, "{fig}");
        assert!(fig.contains("Derived series, computed sample by sample by pack sql (ratio): <code>c / b * 100</code>, where <code>c</code> is <span class=\"path\">\\\\SQL1\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec</span>, <code>b</code> is"), "{fig}");
        assert!(fig.contains("MSSQL$INST1:SQL Statistics\\Batch Requests/sec"));
        // Its statistics: min 25, max 60, mean (25 + 60 + 60) / 3 = 48.33, written 48.3.
        let row = &html[html
            .find(&format!("<tr><td class=\"path\">{path}</td>"))
            .expect("stats row")..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(
            row.contains(">25<") && row.contains(">60<") && row.contains(">48.3<"),
            "{row}"
        );
        // And its alert row.
        let alerts = &html[html.find("id=\"alerts\"").unwrap()..];
        assert!(alerts.contains(path));
    }

    #[test]
    fn several_machines_are_named_and_localized_names_have_their_english_beside() {
        let high = |_: ()| {
            (0..=60)
                .map(|m| if (40..=49).contains(&m) { 97.3 } else { 20.0 })
                .collect::<Vec<f64>>()
        };
        let c = capture_of(&[
            (
                r"\\WEB01\Procesador(_Total)\% de tiempo de procesador",
                high(()),
            ),
            (
                r"\\WEB02\Procesador(_Total)\% de tiempo de procesador",
                high(()),
            ),
        ]);
        let a = analyze(
            &c,
            &AnalyzeOptions {
                packs: Some(vec![PackRef::Pack(pack("Processor"))]),
                ..Default::default()
            },
        )
        .unwrap();
        let html = analysis_report(&c, &a, None);
        let findings =
            &html[html.find("id=\"findings\"").unwrap()..html.find("id=\"statistics\"").unwrap()];
        for m in ["WEB01", "WEB02"] {
            let named = format!(
                r"\\{m}\Procesador(_Total)\% de tiempo de procesador — \\{m}\Processor(_Total)\% Processor Time"
            );
            assert!(findings.contains(&named), "{named} in {findings}");
        }
        // The two trends are named apart: the samples' in the statistics, the slices' in the alert grid.
        let stats =
            &html[html.find("id=\"statistics\"").unwrap()..html.find("id=\"alerts\"").unwrap()];
        assert!(
            stats.contains("<th>Trend per hour (samples)</th>"),
            "{stats}"
        );
        let alerts = &html[html.find("id=\"alerts\"").unwrap()..];
        assert!(alerts.contains("<th>Slice trend per hour</th>"), "{alerts}");
        assert!(!html.contains("Hourly trend"));
    }
}
