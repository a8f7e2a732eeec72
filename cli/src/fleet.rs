//! `analyze`'s fleet over many logs: the core's summary (`counterlens::analysis::fleet`: machines
//! ranked worst first, their key figures and runs over time) written as `fleet.json` and as the index
//! page of `--html DIR/`: the heatmap of machines by time (drawn by the core's chart), the ranked
//! machine table with sparklines and top card, each machine's runs over time, and the logs' table.
//! One file, no script; every string from a log or a pack is escaped.

use crate::index::{self, escape, Entry};
use counterlens::analysis::fleet::{Figures, Fleet, Machine};
use counterlens::analysis::Severity;
use counterlens::chart::heatmap::LEVEL_COLORS;
use counterlens::chart::spark::sparkline_svg;
use counterlens::units::{Measure, Unit};
use counterlens::words::{self, duration};

/// Columns of the heatmap.
const COLUMNS: usize = 120;

/// `fleet.json`: `{ "machines": [...] }`, ranked worst first.
pub fn json(fleet: &Fleet) -> serde_json::Result<String> {
    serde_json::to_string_pretty(fleet).map(|t| t + "\n")
}

fn severity(s: Option<Severity>) -> String {
    match s {
        Some(Severity::Critical) => "<span class=\"crit\">critical</span>".into(),
        Some(Severity::Warning) => "<span class=\"warn\">warning</span>".into(),
        None => "<span class=\"calm\">calm</span>".into(),
    }
}

/// A key figure as the core writes values (`crate::words`: `11.5%`, `956 GB`, `9 ms`, as the viewer's
/// fleet table and the cards), a dash where the log has none.
fn figure(v: Option<f64>, unit: Unit) -> String {
    let multiplier = match unit {
        Unit::Bytes => 1_048_576.0, // the figures' MB
        Unit::Seconds => 1e-3,      // and ms
        _ => 1.0,
    };
    v.map_or_else(
        || "–".into(),
        |v| words::value(v, Measure { unit, multiplier }),
    )
}

fn when(ms: Option<f64>) -> String {
    ms.map_or_else(String::new, |t| crate::time::iso(t, 0))
}

/// The figures of a machine's runs as sparklines, oldest first (x: the run's first sample).
fn figure_line(m: &Machine, f: impl Fn(&Figures) -> Option<f64>) -> String {
    let pts: Vec<[f64; 2]> = m
        .runs
        .iter()
        .filter_map(|r| Some([r.first?, f(&r.figures)?]))
        .collect();
    if pts.len() < 2 {
        return String::new();
    }
    sparkline_svg(&pts, (80, 18), None)
}

/// The fleet page: `entries` are the analyses (the logs' table, with links to their reports).
pub fn page(fleet: &Fleet, entries: &[Entry]) -> String {
    let n = fleet.machines.len();
    let critical = fleet
        .machines
        .iter()
        .filter(|m| m.worst == Some(Severity::Critical))
        .count();
    let warning = fleet
        .machines
        .iter()
        .filter(|m| m.worst == Some(Severity::Warning))
        .count();
    let mut body = format!(
        "<h1>{} of {n} machines in trouble ({critical} critical, {warning} warning); {} calm</h1>\n",
        critical + warning,
        n - critical - warning
    );
    if let Ok(Some(svg)) = fleet.heatmap_svg(960, COLUMNS, 0) {
        let legend: String = ["no log", "calm", "warning", "critical"]
            .iter()
            .zip(LEVEL_COLORS)
            .map(|(l, (r, g, b))| format!("<span style=\"background:rgb({r},{g},{b})\"></span>{l}"))
            .collect();
        body.push_str(&format!(
            "<h2>When each machine was in trouble (UTC)</h2>\n<p class=\"legend\">{legend}</p>\n{}\n",
            svg.replacen("<svg ", "<svg class=\"heatmap\" ", 1)
        ));
    }
    body.push_str(
        "<h2>Machines, worst first</h2>\n<div class=\"wide\"><table>\n<thead><tr><th>#</th><th>Machine</th><th>Worst</th><th>In trouble</th><th>Cards</th><th>Top card</th><th>CPU</th><th>CPU mean</th><th>CPU p95</th><th>Least available memory</th><th>Disk latency p95</th><th>Logs</th></tr></thead>\n<tbody>\n",
    );
    for (i, m) in fleet.machines.iter().enumerate() {
        let top = m.cards.first().map_or_else(String::new, |c| {
            format!("{}: {}", escape(&c.category), escape(&c.summary))
        });
        body.push_str(&format!(
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{top}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
            i + 1,
            escape(&m.machine),
            severity(m.worst),
            if m.trouble_ms > 0.0 { duration(m.trouble_ms) } else { "–".into() },
            m.cards.len(),
            sparkline_svg(&m.cpu, (120, 24), Some((0.0, 100.0))),
            figure(m.figures.cpu_mean, Unit::Percent),
            figure(m.figures.cpu_p95, Unit::Percent),
            figure(m.figures.available_mb_min, Unit::Bytes),
            figure(m.figures.disk_latency_p95_ms, Unit::Seconds),
            m.logs.len(),
        ));
    }
    body.push_str("</tbody>\n</table></div>\n");
    body.push_str("<h2>Runs over time</h2>\n<p>Each machine's logs in time order (logs that follow each other are one run); the sparklines are each figure across its runs.</p>\n<div class=\"wide\"><table>\n<thead><tr><th>Machine</th><th>From</th><th>To</th><th>Worst</th><th>Cards</th><th>In trouble</th><th>CPU mean</th><th>CPU p95</th><th>Least available memory</th><th>Disk latency p95</th><th>Logs</th></tr></thead>\n<tbody>\n");
    for m in &fleet.machines {
        if m.runs.len() > 1 {
            body.push_str(&format!(
                "<tr><td>{}</td><td colspan=\"5\">{} runs</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td></td></tr>\n",
                escape(&m.machine),
                m.runs.len(),
                figure_line(m, |f| f.cpu_mean),
                figure_line(m, |f| f.cpu_p95),
                figure_line(m, |f| f.available_mb_min),
                figure_line(m, |f| f.disk_latency_p95_ms),
            ));
        }
        for r in &m.runs {
            body.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
                escape(&m.machine),
                escape(&when(r.first)),
                escape(&when(r.last)),
                severity(r.worst),
                r.cards,
                if r.trouble_ms > 0.0 { duration(r.trouble_ms) } else { "–".into() },
                figure(r.figures.cpu_mean, Unit::Percent),
                figure(r.figures.cpu_p95, Unit::Percent),
                figure(r.figures.available_mb_min, Unit::Bytes),
                figure(r.figures.disk_latency_p95_ms, Unit::Seconds),
                escape(&r.logs.join(", ")),
            ));
        }
    }
    body.push_str("</tbody>\n</table></div>\n");
    body.push_str(&index::table(entries));
    index::page(&format!("counterlens: {n} machines"), &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use counterlens::analysis::fleet::{fleet, Card, Histogram, Run};

    #[test]
    fn key_figures_are_written_as_the_core_writes_values() {
        // 979,152 MB = 979,152 / 1024 = 956.2 GB: three significant digits, "956 GB" (the page wrote
        // "979152.0 MB"); 9 ms; 11.5%; 0.3 ms = 300 µs; none: a dash.
        assert_eq!(figure(Some(979_152.0), Unit::Bytes), "956 GB");
        assert_eq!(figure(Some(9.0), Unit::Seconds), "9 ms");
        assert_eq!(figure(Some(11.5), Unit::Percent), "11.5%");
        assert_eq!(figure(Some(0.3), Unit::Seconds), "300 µs");
        assert_eq!(figure(None, Unit::Percent), "–");
    }

    #[test]
    fn the_fleet_page_escapes_names_and_ranks_the_worst_first() {
        let run = |m: &str, sev: Option<Severity>| Run {
            machine: m.into(),
            logs: vec![format!("{m}.blg")],
            first: Some(0.0),
            last: Some(3_600_000.0),
            samples: 60,
            figures: Figures {
                cpu_mean: Some(12.5),
                ..Figures::default()
            },
            cards: sev
                .map(|severity| Card {
                    pack: "p".into(),
                    group: "g".into(),
                    category: "<Processor>".into(),
                    severity,
                    start: 0.0,
                    end: 600_000.0,
                    summary: "a <b>".into(),
                })
                .into_iter()
                .collect(),
            cpu: vec![[0.0, 10.0], [3_600_000.0, 20.0]],
            cpu_histogram: Histogram::default(),
        };
        let f = fleet(vec![
            run("calm<1>", None),
            run("WEB\"2", Some(Severity::Critical)),
        ]);
        let p = page(&f, &[]);
        assert!(!p.contains("<script") && !p.contains("calm<1>") && !p.contains("a <b>"));
        assert!(p.contains("<h1>1 of 2 machines in trouble (1 critical, 0 warning); 1 calm</h1>"));
        // The critical machine's row before the calm one's; its top card and figures.
        let (crit, calm) = (
            p.find("<td>WEB&quot;2</td>").unwrap(),
            p.find("<td>calm&lt;1&gt;</td>").unwrap(),
        );
        assert!(crit < calm);
        assert!(p.contains("&lt;Processor&gt;: a &lt;b&gt;") && p.contains("12.5%"));
        assert!(p.contains("class=\"heatmap\"") && p.contains("10 min"));
    }
}
