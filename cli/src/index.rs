//! `analyze`'s index of many analyses: per analysis (a server's log, or its logs that follow each other)
//! the machines, the time range, critical and warning counts by category, and links to its report and
//! data. As JSON (`index.json`) and as the logs' table of the fleet page (`index.html`, `fleet.rs`), in
//! which every string from a log or a pack is escaped; the page's frame (no script, its CSS).

use counterlens::analysis::{Analysis, Severity};
use counterlens::capture::Capture;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub critical: usize,
    pub warning: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub title: String,
    pub inputs: Vec<String>,
    pub machines: Vec<String>,
    /// The first and last sample, in the log's own zone.
    pub first: Option<String>,
    pub last: Option<String>,
    pub critical: usize,
    pub warning: usize,
    pub categories: BTreeMap<String, Counts>,
    /// The HTML report and the JSON document, relative to the index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(skip)]
    pub worst: Option<Severity>,
}

pub fn entry(title: &str, inputs: &[String], c: &Capture, a: &Analysis, east: i32) -> Entry {
    let mut categories: BTreeMap<String, Counts> = BTreeMap::new();
    for f in &a.findings {
        let n = categories.entry(f.category.clone()).or_default();
        match f.severity {
            Severity::Critical => n.critical += 1,
            Severity::Warning => n.warning += 1,
        }
    }
    Entry {
        title: title.to_string(),
        inputs: inputs.to_vec(),
        machines: crate::select::machines(c),
        first: c.timestamps.first().map(|&t| crate::time::iso(t, east)),
        last: c.timestamps.last().map(|&t| crate::time::iso(t, east)),
        critical: categories.values().map(|n| n.critical).sum(),
        warning: categories.values().map(|n| n.warning).sum(),
        categories,
        report: None,
        data: None,
        worst: None,
    }
}

/// Text for HTML, as the core's report escapes it (`&`, `<`, `>`, `"` and `'` as entities), so it is
/// text in an element and in a quoted attribute alike.
pub use counterlens::analysis::report::esc as escape;

/// A relative link: each path segment percent-encoded where it is not plain (`%`, `#`, `?`, spaces and
/// the like), then escaped for the attribute.
fn href(rel: &str) -> String {
    let enc: Vec<String> = rel
        .split('/')
        .map(|seg| {
            seg.bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() || b"-_.~()".contains(&b) {
                        char::from(b).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect()
        })
        .collect();
    escape(&enc.join("/"))
}

/// The logs' table: one row per analysis, most critical findings first, with links to its report
/// and data.
pub fn table(entries: &[Entry]) -> String {
    let mut rows: Vec<&Entry> = entries.iter().collect();
    rows.sort_by(|a, b| {
        (b.critical, b.warning)
            .cmp(&(a.critical, a.warning))
            .then_with(|| a.title.cmp(&b.title))
    });
    let critical: usize = entries.iter().map(|e| e.critical).sum();
    let warning: usize = entries.iter().map(|e| e.warning).sum();
    let mut body = String::new();
    for e in rows {
        let cats: Vec<String> = e
            .categories
            .iter()
            .map(|(cat, n)| {
                let mut parts = Vec::new();
                if n.critical > 0 {
                    parts.push(format!(
                        "<span class=\"crit\">{} critical</span>",
                        n.critical
                    ));
                }
                if n.warning > 0 {
                    parts.push(format!("<span class=\"warn\">{} warning</span>", n.warning));
                }
                format!("{}: {}", escape(cat), parts.join(", "))
            })
            .collect();
        let title = match &e.report {
            Some(r) => format!("<a href=\"{}\">{}</a>", href(r), escape(&e.title)),
            None => escape(&e.title),
        };
        let data = match &e.data {
            Some(d) => format!(" <a class=\"data\" href=\"{}\">JSON</a>", href(d)),
            None => String::new(),
        };
        body.push_str(&format!(
            "<tr><td>{}</td><td>{title}{data}</td><td>{} to {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
            escape(&e.machines.join(", ")),
            escape(e.first.as_deref().unwrap_or("")),
            escape(e.last.as_deref().unwrap_or("")),
            e.critical,
            e.warning,
            if cats.is_empty() { "no findings".to_string() } else { cats.join("<br>") },
        ));
    }
    format!(
        r#"<h2>{n} analyses: {critical} critical and {warning} warning findings</h2>
<div class="wide"><table>
<thead><tr><th>Machines</th><th>Log</th><th>Time range</th><th>Critical</th><th>Warning</th><th>By category</th></tr></thead>
<tbody>
{body}</tbody>
</table></div>
"#,
        n = entries.len()
    )
}

/// A page without script: `title` (escaped here) and `body` (HTML whose strings are escaped already).
pub fn page(title: &str, body: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1f24; background: #fff; }}
table {{ border-collapse: collapse; width: 100%; }} .wide {{ overflow-x: auto; margin-bottom: 1.5rem; }}
th, td {{ border-bottom: 1px solid #d0d7de; padding: .4rem .6rem; text-align: left; vertical-align: top; }}
td.n {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
.crit {{ color: #b42318; }} .warn {{ color: #9a6700; }} .calm {{ color: #1a7f37; }} a.data {{ font-size: 12px; }}
svg.heatmap {{ max-width: 100%; height: auto; }} svg.spark {{ vertical-align: middle; color: #0969da; }}
.legend span {{ display: inline-block; width: .9em; height: .9em; margin: 0 .3em 0 1em; vertical-align: -1px; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #0d1117; color: #e6edf3; }} a {{ color: #58a6ff; }}
  th, td {{ border-color: #30363d; }} .crit {{ color: #ff7b72; }} .warn {{ color: #e3b341; }} .calm {{ color: #3fb950; }}
  svg.spark {{ color: #58a6ff; }} }}
</style>
</head>
<body>
{body}</body>
</html>
"#,
        title = escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(title: &str, critical: usize) -> Entry {
        let mut categories = BTreeMap::new();
        categories.insert(
            "<Disk>".to_string(),
            Counts {
                critical,
                warning: 1,
            },
        );
        Entry {
            title: title.into(),
            inputs: vec![title.into()],
            machines: vec!["WEB\"01".into()],
            first: Some("2026-11-16T00:00:00Z".into()),
            last: Some("2026-11-16T01:00:00Z".into()),
            critical,
            warning: 1,
            categories,
            report: Some(format!("{title}.html")),
            data: None,
            worst: None,
        }
    }

    #[test]
    fn the_index_escapes_every_string_and_lists_the_worst_first() {
        let page = page(
            "<i>",
            &table(&[
                entry("a/<script>alert(1)</script>.blg", 0),
                entry("b/x.blg", 2),
            ]),
        );
        assert!(page.contains("<title>&lt;i&gt;</title>"));
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("a/&lt;script&gt;alert(1)&lt;/script&gt;.blg"));
        assert!(page.contains("href=\"a/%3Cscript%3Ealert(1)%3C/script%3E.blg.html\""));
        assert!(
            page.contains("WEB&quot;01")
                && page.contains("&lt;Disk&gt;: <span class=\"crit\">2 critical</span>")
        );
        // Two analyses, 2 + 0 critical and 1 + 1 warning; b (2 critical) listed before a.
        assert!(page.contains("<h2>2 analyses: 2 critical and 2 warning findings</h2>"));
        assert!(page.find("b/x.blg").unwrap() < page.find("a/&lt;script").unwrap());
    }
}
