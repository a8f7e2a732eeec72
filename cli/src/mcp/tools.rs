//! The tools: each one's name, description (written for a model: what it answers, when to call it,
//! what it costs) and JSON schema, and its handler. Arguments are checked here (a mistake is a tool
//! error with the reason); the numbers are the core's (reading, `range_stats`, `analyze`, `explain_at`).
//! Results are sized for a model: summaries first, each list bounded, with what was cut said.

use super::error::McpError;
use super::figures::{self, east, when};
use super::reading::{self, Bounds, Catalogues, Deadline, Part};
use super::roots::{LogFile, Roots};
use crate::time::{self, TimeSpec};
use counterlens::analysis::{self, AnalyzeOptions, Origin, PackRef, Value as PackValue};
use counterlens::capture::{Capture, PathPattern};
use counterlens::chart::range_stats::range_stats;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The server's state shared by the tools.
pub struct Ctx {
    pub roots: Roots,
    pub bounds: Bounds,
    pub catalogues: Catalogues,
}

/// What a tool returns: JSON for `structuredContent`, and the text a model reads (the JSON itself, or
/// words for `summary`).
pub struct Output {
    pub json: Value,
    pub text: Option<String>,
}

impl From<Value> for Output {
    fn from(json: Value) -> Output {
        Output { json, text: None }
    }
}

const LOG: &str = "The log: its path relative to a root as list_logs gives it (e.g. \"web01/day1.blg\"), or its resource URI counterlens://log/<root>/<path>.";
const COUNTERS: &str = "A Perfmon counter path with wildcards, as relog -c takes it: \\\\MACHINE\\Object(Instance)\\Counter; the machine may be left out and * stands for any part, e.g. \\Processor(*)\\% Processor Time, \\Memory\\*, \\PhysicalDisk(_Total)\\Avg. Disk sec/Read. Names match case-insensitively; a localized log matches by its English names too.";
const TIME: &str = "ISO 8601 (2026-11-21T12:00:00, with a zone such as Z or +01:00, or without: the log's own local time) or relog's M/d/yyyy H:mm:ss.";

fn schema_log() -> Value {
    json!({"type": "string", "description": LOG})
}
fn schema_time(which: &str) -> Value {
    json!({"type": "string", "description": format!("{which} of the time range (inclusive), {TIME} Default: the log's {}.", if which == "Start" {"first sample"} else {"last sample"})})
}
fn schema_limit(what: &str, default: u64, max: u64) -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": max, "default": default, "description": format!("The most {what} returned (default {default}, at most {max}); the result says how many were left out.")})
}
fn schema_packs() -> Value {
    let ids: Vec<&str> = analysis::builtin_packs()
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    json!({"type": "array", "items": {"type": "string", "enum": ids}, "description": "Built-in rule packs to run; default: every built-in pack whose counters the log has."})
}
fn schema_variables() -> Value {
    json!({"type": "object", "additionalProperties": {"type": ["number", "string"]}, "description": "Answers to the packs' questions (PAL's), e.g. {\"totalMemoryMB\": 16384}; a value not given is derived from the log or the pack's default (analyze lists those assumed)."})
}

fn tool(name: &str, title: &str, description: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required, "additionalProperties": false},
        "annotations": {"title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
    })
}

/// The tools as `tools/list` gives them.
pub fn list(bounds: &Bounds) -> Vec<Value> {
    let t = bounds.timeout.as_secs();
    vec![
        tool("list_logs", "List the logs",
            &format!("Lists the performance-counter logs (.blg, PDH-CSV/TSV, Get-Counter JSON; gzip too) under the server's roots: for each its path (the `log` argument of the other tools), format, machines, first and last sample (in the log's time zone and in UTC), mean interval, size, series and sample counts. Read by a counting pass that keeps no values (cached afterwards). Call it first. Time bound {t} s per call: logs not listed in time are named without their details."),
            json!({"under": {"type": "string", "description": "Only logs whose path (relative to its root) starts with this, e.g. \"web01/\"."}, "limit": schema_limit("logs", 50, 200)}), &[]),
        tool("catalogue", "A log's series",
            "The series of one log whose path matches a counter pattern (all when none is given), each with its sample count and counter type, without reading values. Use it to find the exact counter paths before statistics or values.",
            json!({"log": schema_log(), "counters": {"type": "string", "description": COUNTERS}, "limit": schema_limit("series", 100, 1000)}), &["log"]),
        tool("statistics", "Statistics of counters",
            "For each series matching a counter pattern over an optional time range: count, min, mean, max, p95 (nearest rank), last, and the trend per hour (least-squares slope of value against time). Reads only the matching series, so it works on logs of any size. Values are in the counter's own unit (% for % counters, per second for rates, MBytes for Available MBytes).",
            json!({"log": schema_log(), "counters": {"type": "string", "description": COUNTERS}, "from": schema_time("Start"), "to": schema_time("End"), "limit": schema_limit("series", 25, 200)}), &["log", "counters"]),
        tool("values", "One counter's values",
            "The values of one series over a time range, decimated to at most `points` points by min-max per bucket (each bucket of consecutive samples gives its minimum and its maximum, so no spike or dip is lost). The counter pattern must match exactly one series (the error lists those it matched). Times are ISO 8601 in the log's zone (with its offset).",
            json!({"log": schema_log(), "counter": {"type": "string", "description": COUNTERS}, "from": schema_time("Start"), "to": schema_time("End"), "points": {"type": "integer", "minimum": 2, "maximum": 2000, "default": 200, "description": "The most points returned (default 200, at most 2000)."}}), &["log", "counter"]),
        tool("analyze", "The verdict",
            "Analyses a log with the built-in rule packs (PAL-compatible thresholds on processor, memory, disk, network, ...): the verdict sentence, then the cards (one concern over one stretch of time, worst first: severity, summary, when in the log's zone and in UTC, its findings' messages with their indices for explain), then counts, the packs run and the variables assumed from defaults. Reads the whole log (refused over the server's size bound).",
            json!({"log": schema_log(), "packs": schema_packs(), "variables": schema_variables(), "limit": schema_limit("cards", 10, 50)}), &["log"]),
        tool("explain", "Explain a finding or a value",
            "Explains a finding of analyze (give `finding`, its index in analyze's output, with the same packs and variables): its rule, the statistics compared, the operator and threshold as written and as evaluated, the variables it rests on with their values and where they came from, the worst value and its message. And/or explains one value (give `counter` matching one series and `time`): the sample nearest that time, its value, and for a .blg or Get-Counter log the counter type's formula with the raw numbers.",
            json!({"log": schema_log(), "finding": {"type": "integer", "minimum": 0, "description": "A finding's index (`finding` in analyze's cards)."}, "packs": schema_packs(), "variables": schema_variables(), "counter": {"type": "string", "description": COUNTERS}, "time": {"type": "string", "description": format!("The time of the value to explain, {TIME}")}}), &["log"]),
        tool("compare", "Compare two logs",
            "The change table of two logs (two runs, two servers): for each counter matching the pattern in log A with a match in log B (matched by path without the machine), mean, p95 and max of A and of B, the difference B - A and the change in % of A. Largest change of the mean first. Reads only the matching series.",
            json!({"a": {"type": "string", "description": format!("Log A (the baseline). {LOG}")}, "b": {"type": "string", "description": format!("Log B. {LOG}")}, "counters": {"type": "string", "description": COUNTERS}, "limit": schema_limit("rows", 50, 500)}), &["a", "b", "counters"]),
        tool("summary", "The summary in words",
            "The report's first page as text: the log's machines, OS, time range (in its zone and in UTC), interval, sample and series counts, the verdict sentence and the three worst cards. The quickest overview of one log.",
            json!({"log": schema_log()}), &["log"]),
    ]
}

/// Runs a tool; `None` when there is no tool of that name.
pub fn call(
    ctx: &mut Ctx,
    name: &str,
    args: &Value,
    deadline: &Deadline,
) -> Option<Result<Output, McpError>> {
    Some(match name {
        "list_logs" => list_logs(ctx, parse(args), deadline),
        "catalogue" => catalogue(ctx, parse(args), deadline),
        "statistics" => statistics(ctx, parse(args), deadline),
        "values" => values(ctx, parse(args), deadline),
        "analyze" => analyze_tool(ctx, parse(args), deadline),
        "explain" => explain(ctx, parse(args), deadline),
        "compare" => compare(ctx, parse(args), deadline),
        "summary" => summary(ctx, parse(args), deadline),
        _ => return None,
    })
}

fn parse<T: DeserializeOwned>(args: &Value) -> Result<T, McpError> {
    let args = if args.is_null() {
        json!({})
    } else {
        args.clone()
    };
    serde_json::from_value(args).map_err(|e| McpError::argument(e.to_string()))
}

fn limit(v: Option<u64>, name: &str, default: u64, min: u64, max: u64) -> Result<usize, McpError> {
    let n = v.unwrap_or(default);
    if n < min || n > max {
        return Err(McpError::argument(format!(
            "{name}: {n} is out of range ({min} to {max})"
        )));
    }
    Ok(n as usize)
}

fn pattern(text: &str, name: &str) -> Result<PathPattern, McpError> {
    PathPattern::parse(text.trim()).map_err(|_| {
        McpError::argument(format!(
            "{name}: '{text}' is {}",
            crate::args::NOT_A_PATTERN
        ))
    })
}

fn time_arg(text: Option<&str>, name: &str) -> Result<Option<TimeSpec>, McpError> {
    text.map(|t| {
        time::parse(t).ok_or_else(|| {
            McpError::argument(format!("{name}: '{t}' is not a time; expected {TIME}"))
        })
    })
    .transpose()
}

/// A time range: what to read (widened by a day where the zone is the log's own, unknown before its
/// header is read) and, once read, the exact range.
#[derive(Clone, Copy, Default)]
struct Range {
    from: Option<TimeSpec>,
    to: Option<TimeSpec>,
}

impl Range {
    fn new(from: Option<&str>, to: Option<&str>) -> Result<Range, McpError> {
        Ok(Range {
            from: time_arg(from, "from")?,
            to: time_arg(to, "to")?,
        })
    }

    fn widened(t: &TimeSpec, by: f64) -> f64 {
        match t.offset_minutes {
            Some(e) => t.local_ms - f64::from(e) * 60_000.0,
            None => t.local_ms + by,
        }
    }

    fn part(&self, series: Vec<PathPattern>) -> Part {
        const DAY: f64 = 86_400_000.0;
        Part {
            series: Some(series),
            from_ms: self.from.as_ref().map(|t| Range::widened(t, -DAY)),
            to_ms: self.to.as_ref().map(|t| Range::widened(t, DAY)),
            keep_raw: false,
        }
    }

    /// The exact range in ms UTC, and the sample indices inside it.
    fn exact(&self, c: &Capture) -> Result<(Option<f64>, Option<f64>, usize, usize), McpError> {
        let from = self.from.map(|t| t.utc_ms(c));
        let to = self.to.map(|t| t.utc_ms(c));
        if let (Some(f), Some(t)) = (from, to) {
            if t < f {
                return Err(McpError::argument("to: the range ends before it starts"));
            }
        }
        let ts = &c.timestamps;
        let lo = from.map_or(0, |f| ts.partition_point(|&t| t < f));
        let hi = to.map_or(ts.len(), |t| ts.partition_point(|&x| x <= t));
        if hi <= lo {
            return Err(McpError::argument(
                "from/to: no sample of the log is in the time range asked for; list_logs gives its first and last sample",
            ));
        }
        Ok((from, to, lo, hi))
    }
}

/// The log's time range read, in both zones.
fn span(c: &Capture, lo: usize, hi: usize) -> Value {
    let e = east(c);
    json!({"first": when(c.timestamps[lo], e), "last": when(c.timestamps[hi - 1], e), "timeZone": figures::zone_text(c)})
}

fn cut_note(left_out: usize, what: &str, bound: usize, how: &str) -> Option<String> {
    (left_out > 0).then(|| format!("{left_out} {what} left out (at most {bound} per call; {how})"))
}

// ---- list_logs ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    under: Option<String>,
    limit: Option<u64>,
}

fn list_logs(
    ctx: &mut Ctx,
    args: Result<ListArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let limit = limit(args.limit, "limit", 50, 1, 200)?;
    let walk = ctx.roots.walk();
    let under = args.under.as_deref().map(|u| u.replace('\\', "/"));
    let found: Vec<&LogFile> = walk
        .logs
        .iter()
        .filter(|l| under.as_deref().is_none_or(|u| l.rel.starts_with(u)))
        .collect();
    let mut logs = Vec::new();
    let mut not_logs = Vec::new();
    let mut unread = Vec::new();
    for l in found.iter().take(limit) {
        // The name a tool takes: the relative path, unless an earlier root has a file of that name.
        let shadowed =
            (0..l.root).any(|r| ctx.roots.get(r).is_some_and(|p| p.join(&l.rel).exists()));
        let name = if shadowed { l.uri() } else { l.rel.clone() };
        if deadline.over() {
            unread.push(name);
            continue;
        }
        match ctx.catalogues.get(l, deadline) {
            Ok(c) => {
                let mut machines: Vec<&str> = Vec::new();
                for s in &c.series {
                    let m = s.parsed.machine.as_str();
                    if !m.is_empty() && !machines.iter().any(|x| x.eq_ignore_ascii_case(m)) {
                        machines.push(m);
                    }
                }
                let e = c.time_zone.as_ref().map_or(0, |z| -z.bias_minutes);
                let interval = match (c.first_ms, c.last_ms) {
                    (Some(f), Some(la)) if c.rows > 1 => {
                        Some((la - f) / (c.rows - 1) as f64 / 1000.0)
                    }
                    _ => None,
                };
                logs.push(json!({
                    "log": name,
                    "root": l.root,
                    "uri": l.uri(),
                    "format": c.format_name(),
                    "machines": machines,
                    "first": c.first_ms.map(|t| when(t, e)),
                    "last": c.last_ms.map(|t| when(t, e)),
                    "timeZone": c.time_zone,
                    "meanIntervalSeconds": interval,
                    "samples": c.rows,
                    "series": c.series.len(),
                    "bytes": l.size,
                }));
            }
            Err(McpError::TimeBound { .. }) => unread.push(name),
            Err(e) => not_logs.push(json!({"log": name, "error": e.to_string()})),
        }
    }
    let mut notes: Vec<String> = Vec::new();
    if let Some(n) = cut_note(
        found.len().saturating_sub(limit),
        "logs",
        limit,
        "narrow with `under`",
    ) {
        notes.push(n);
    }
    if !unread.is_empty() {
        notes.push(format!("{} logs were not read within the time bound of {} s: named in `notRead` without their details; call list_logs with `under` naming them", unread.len(), deadline.seconds()));
    }
    if walk.links_outside > 0 {
        notes.push(format!(
            "{} symbolic links lead out of the roots and were not followed",
            walk.links_outside
        ));
    }
    if walk.cut {
        notes.push("the walk stopped early (over 50 000 entries or 12 levels deep)".into());
    }
    Ok(json!({
        "roots": (0..ctx.roots.len()).map(|i| ctx.roots.get(i).map(|p| p.display().to_string())).collect::<Vec<_>>(),
        "found": found.len(),
        "logs": logs,
        "notLogs": not_logs,
        "notRead": unread,
        "notes": notes,
    })
    .into())
}

// ---- catalogue ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueArgs {
    log: String,
    counters: Option<String>,
    limit: Option<u64>,
}

fn catalogue(
    ctx: &mut Ctx,
    args: Result<CatalogueArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let limit = limit(args.limit, "limit", 100, 1, 1000)?;
    let p = args
        .counters
        .as_deref()
        .map(|c| pattern(c, "counters"))
        .transpose()?;
    let log = ctx.roots.resolve(&args.log)?;
    let c = ctx.catalogues.get(&log, deadline)?;
    let matched: Vec<_> = c
        .series
        .iter()
        .filter(|s| p.as_ref().is_none_or(|p| p.matches(&s.parsed)))
        .collect();
    let series: Vec<Value> = matched
        .iter()
        .take(limit)
        .map(|s| {
            json!({
                "path": s.path,
                "samples": s.samples,
                "type": s.counter_type.and_then(|t| counterlens::types::CounterType::from_value(t).name()),
            })
        })
        .collect();
    Ok(json!({
        "log": log.rel,
        "seriesInLog": c.series.len(),
        "matched": matched.len(),
        "listed": series.len(),
        "cut": cut_note(matched.len().saturating_sub(limit), "series", limit, "narrow the counters pattern"),
        "series": series,
    })
    .into())
}

// ---- statistics ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatisticsArgs {
    log: String,
    counters: String,
    from: Option<String>,
    to: Option<String>,
    limit: Option<u64>,
}

fn statistics(
    ctx: &mut Ctx,
    args: Result<StatisticsArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let limit = limit(args.limit, "limit", 25, 1, 200)?;
    let p = pattern(&args.counters, "counters")?;
    let range = Range::new(args.from.as_deref(), args.to.as_deref())?;
    let log = ctx.roots.resolve(&args.log)?;
    let c = reading::read(&log, &range.part(vec![p]), &ctx.bounds, deadline)?;
    let (from, to, lo, hi) = range.exact(&c)?;
    let mut rows = Vec::new();
    for s in c.series.iter().take(limit) {
        deadline.check(|| format!("statistics of {}: {} series done", log.rel, rows.len()))?;
        let r = range_stats(&c.timestamps, &s.values, from, to);
        rows.push(json!({
            "path": s.path,
            "count": r.count,
            "min": r.min,
            "mean": r.mean,
            "max": r.max,
            "p95": r.p95,
            "last": r.last,
            "trendPerHour": r.trend_per_hour,
        }));
    }
    Ok(json!({
        "log": log.rel,
        "range": span(&c, lo, hi),
        "samples": hi - lo,
        "matched": c.series.len(),
        "listed": rows.len(),
        "cut": cut_note(c.series.len().saturating_sub(limit), "series", limit, "narrow the counters pattern"),
        "series": rows,
    })
    .into())
}

// ---- values ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValuesArgs {
    log: String,
    counter: String,
    from: Option<String>,
    to: Option<String>,
    points: Option<u64>,
}

/// Reads the one series a pattern matches (an error listing the matches when it is not one).
fn one_series(
    ctx: &Ctx,
    log: &LogFile,
    p: PathPattern,
    range: &Range,
    keep_raw: bool,
    deadline: &Deadline,
) -> Result<Capture, McpError> {
    let mut part = range.part(vec![p.clone()]);
    part.keep_raw = keep_raw;
    let c = reading::read(log, &part, &ctx.bounds, deadline)?;
    if c.series.len() > 1 {
        let names: Vec<&str> = c.series.iter().take(10).map(|s| s.path.as_str()).collect();
        return Err(McpError::argument(format!(
            "counter: {} matches {} series of {}, not one: {}{}; give one path",
            p.as_str(),
            c.series.len(),
            log.rel,
            names.join(", "),
            if c.series.len() > 10 { ", ..." } else { "" }
        )));
    }
    Ok(c)
}

fn values(
    ctx: &mut Ctx,
    args: Result<ValuesArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let points = limit(args.points, "points", 200, 2, 2000)?;
    let p = pattern(&args.counter, "counter")?;
    let range = Range::new(args.from.as_deref(), args.to.as_deref())?;
    let log = ctx.roots.resolve(&args.log)?;
    let c = one_series(ctx, &log, p, &range, false, deadline)?;
    let (from, to, lo, hi) = range.exact(&c)?;
    let s = &c.series[0];
    let e = east(&c);
    let d = figures::decimate(&c.timestamps, &s.values, lo, hi, points);
    let r = range_stats(&c.timestamps, &s.values, from, to);
    let decimated = r.count > d.len();
    Ok(json!({
        "log": log.rel,
        "path": s.path,
        "range": span(&c, lo, hi),
        "samples": hi - lo,
        "values": r.count,
        "min": r.min,
        "max": r.max,
        "returned": d.len(),
        "method": if decimated {
            format!("min-max per bucket: {} buckets of consecutive samples, each giving its minimum and maximum in time order (at most {points} points)", (points / 2).max(1))
        } else {
            "every value (no decimation needed)".to_string()
        },
        "points": d.iter().map(|&(t, v)| json!([time::iso(t, e), v])).collect::<Vec<_>>(),
    })
    .into())
}

// ---- analyze ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyzeArgs {
    log: String,
    packs: Option<Vec<String>>,
    variables: Option<BTreeMap<String, PackValue>>,
    limit: Option<u64>,
}

fn options(
    packs: Option<Vec<String>>,
    variables: Option<BTreeMap<String, PackValue>>,
) -> Result<AnalyzeOptions, McpError> {
    let ids: Vec<&str> = analysis::builtin_packs()
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    let packs = packs
        .map(|list| {
            list.into_iter()
                .map(|id| {
                    if ids.contains(&id.as_str()) {
                        Ok(PackRef::Builtin(id))
                    } else {
                        Err(McpError::argument(format!(
                            "packs: no built-in pack '{id}' (they are: {})",
                            ids.join(", ")
                        )))
                    }
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    Ok(AnalyzeOptions {
        packs,
        variables: variables.unwrap_or_default(),
        ..AnalyzeOptions::default()
    })
}

/// Reads a whole log and analyses it.
fn analysed(
    ctx: &Ctx,
    log: &LogFile,
    options: &AnalyzeOptions,
    deadline: &Deadline,
) -> Result<(Capture, analysis::Analysis), McpError> {
    let c = reading::read(log, &Part::default(), &ctx.bounds, deadline)?;
    deadline.check(|| format!("{} was read; the analysis did not start", log.rel))?;
    let a = analysis::analyze(&c, options).map_err(|source| McpError::Analysis {
        file: log.rel.clone().into(),
        source,
    })?;
    Ok((c, a))
}

const FINDINGS_PER_CARD: usize = 5;

fn analyze_tool(
    ctx: &mut Ctx,
    args: Result<AnalyzeArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let limit = limit(args.limit, "limit", 10, 1, 50)?;
    let options = options(args.packs, args.variables)?;
    let log = ctx.roots.resolve(&args.log)?;
    let (c, a) = analysed(ctx, &log, &options, deadline)?;
    let e = east(&c);
    let cards: Vec<Value> = a
        .groups
        .iter()
        .take(limit)
        .enumerate()
        .map(|(rank, g)| {
            let findings: Vec<Value> = g
                .findings
                .iter()
                .take(FINDINGS_PER_CARD)
                .map(|&i| {
                    let f = &a.findings[i];
                    json!({"finding": i, "severity": figures::severity(f.severity), "path": f.path, "message": f.message})
                })
                .collect();
            json!({
                "rank": rank + 1,
                "severity": figures::severity(g.severity),
                "summary": g.summary,
                "category": g.category,
                "machine": g.machine,
                "start": when(g.start, e),
                "end": when(g.end, e),
                "duration": counterlens::words::duration(g.duration_ms),
                "lead": g.lead,
                "findings": findings,
                "findingsLeftOut": g.findings.len().saturating_sub(FINDINGS_PER_CARD),
            })
        })
        .collect();
    let crit = a
        .findings
        .iter()
        .filter(|f| f.severity == analysis::Severity::Critical)
        .count();
    let ran = a.rules.iter().filter(|r| r.skipped.is_none()).count();
    let assumed: Vec<Value> = a
        .variable_sources
        .iter()
        .filter(|(_, o)| **o == Origin::Pack)
        .map(|(k, _)| json!({"name": k, "value": a.variables.get(k)}))
        .collect();
    Ok(json!({
        "log": log.rel,
        "verdict": figures::verdict(&a),
        "cards": cards,
        "cut": cut_note(a.groups.len().saturating_sub(limit), "cards", limit, "raise limit up to 50"),
        "counts": {
            "cards": a.groups.len(),
            "findings": a.findings.len(),
            "critical": crit,
            "warning": a.findings.len() - crit,
            "rulesRan": ran,
            "rulesSkipped": a.rules.len() - ran,
            "slices": a.slices.len(),
        },
        "packs": a.packs.iter().map(|p| &p.id).collect::<Vec<_>>(),
        "assumedVariables": assumed,
        "range": (!c.timestamps.is_empty()).then(|| span(&c, 0, c.timestamps.len())),
    })
    .into())
}

// ---- explain ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainArgs {
    log: String,
    finding: Option<u64>,
    packs: Option<Vec<String>>,
    variables: Option<BTreeMap<String, PackValue>>,
    counter: Option<String>,
    time: Option<String>,
}

fn explain(
    ctx: &mut Ctx,
    args: Result<ExplainArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    if args.finding.is_none() && args.counter.is_none() {
        return Err(McpError::argument(
            "give `finding` (an index from analyze) or `counter` and `time` (a value to explain), or both",
        ));
    }
    if args.counter.is_some() != args.time.is_some() {
        return Err(McpError::argument(
            "`counter` and `time` go together: the value of that series nearest that time",
        ));
    }
    let point_args = match (&args.counter, &args.time) {
        (Some(c), Some(t)) => Some((
            pattern(c, "counter")?,
            time_arg(Some(t), "time")?.unwrap_or(TimeSpec {
                local_ms: 0.0,
                offset_minutes: None,
            }),
        )),
        _ => None,
    };
    let options = options(args.packs, args.variables)?;
    let log = ctx.roots.resolve(&args.log)?;
    let mut out = serde_json::Map::new();
    out.insert("log".into(), json!(log.rel));
    if let Some(i) = args.finding {
        let (c, a) = analysed(ctx, &log, &options, deadline)?;
        let f = a.findings.get(i as usize).ok_or_else(|| {
            McpError::argument(format!(
                "finding: {i} is out of range: the analysis (with these packs and variables) has {} findings, numbered from 0",
                a.findings.len()
            ))
        })?;
        let rule = analysis::builtin_packs()
            .iter()
            .find(|p| p.id == f.pack)
            .and_then(|p| p.rules.iter().find(|r| r.id == f.rule));
        let e = east(&c);
        let variables: Vec<Value> = f
            .variables
            .iter()
            .map(|v| {
                json!({"name": v.name, "value": v.value, "origin": match v.origin {
                    Origin::User => "given by you",
                    Origin::Capture => "derived from the log",
                    Origin::Bound => "at least this, derived from the log (a lower bound)",
                    Origin::Pack => "the pack's default (an assumption to confirm)",
                }})
            })
            .collect();
        out.insert(
            "finding".into(),
            json!({
                "finding": i,
                "message": f.message,
                "pack": f.pack,
                "rule": f.rule,
                "title": f.title,
                "category": f.category,
                "severity": figures::severity(f.severity),
                "path": f.path,
                "start": when(f.start, e),
                "end": when(f.end, e),
                "operator": f.operator,
                "thresholdEvaluated": f.threshold,
                "thresholdAsWritten": rule.map(|r| &r.threshold),
                "thresholdClamp": rule.map(|r| json!({"min": r.threshold_min, "max": r.threshold_max})),
                "kind": rule.map(|r| &r.kind),
                // An episode rule judges the samples of each window, not a slice's statistics.
                "statisticsCompared": rule.filter(|r| r.episode.is_none()).map(|r| r.stats.clone().unwrap_or_else(|| vec![analysis::Stat::Min, analysis::Stat::Avg, analysis::Stat::Max])),
                "sustainedForSeconds": rule.and_then(|r| r.for_seconds),
                "episode": rule.and_then(|r| r.episode.as_ref()),
                "ruleCounter": rule.map(|r| &r.counter),
                "broke": f.broke,
                "worst": f.worst,
                "mean": f.mean,
                "share": f.share,
                "variables": variables,
                "derived": f.derived,
                "description": rule.map(|r| {
                    let t = r.description.plain();
                    if t.chars().count() > 1200 { t.chars().take(1200).collect::<String>() + " ..." } else { t }
                }),
            }),
        );
    }
    if let Some((p, t)) = point_args {
        let c = one_series(ctx, &log, p, &Range::default(), true, deadline)?;
        let ms = t.utc_ms(&c);
        let k = c
            .sample_at(ms)
            .ok_or_else(|| McpError::argument("time: the log has no samples"))?;
        let s = &c.series[0];
        let e = east(&c);
        let explained = match c.explain_at(0, k) {
            Some(Ok(x)) => {
                json!({"formula": x.formula, "withNumbers": x.substituted, "result": x.result})
            }
            Some(Err(err)) => json!({"error": err.to_string()}),
            None => {
                json!({"note": "this log keeps no raw samples for the series (a text log holds cooked values only), so the value is as the log gives it"})
            }
        };
        out.insert(
            "point".into(),
            json!({
                "path": s.path,
                "type": s.counter_type.and_then(|t| counterlens::types::CounterType::from_value(t).name()),
                "asked": when(ms, e),
                "sample": when(c.timestamps[k], e),
                "value": s.values[k],
                "explanation": explained,
            }),
        );
    }
    Ok(Value::Object(out).into())
}

// ---- compare ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareArgs {
    a: String,
    b: String,
    counters: String,
    limit: Option<u64>,
}

fn compare(
    ctx: &mut Ctx,
    args: Result<CompareArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let limit = limit(args.limit, "limit", 50, 1, 500)?;
    let p = pattern(&args.counters, "counters")?;
    let (la, lb) = (ctx.roots.resolve(&args.a)?, ctx.roots.resolve(&args.b)?);
    let part = Range::default().part(vec![p]);
    let a = reading::read(&la, &part, &ctx.bounds, deadline)?;
    let b = reading::read(&lb, &part, &ctx.bounds, deadline)?;
    let mut in_b: BTreeMap<String, usize> = BTreeMap::new();
    for (j, s) in b.series.iter().enumerate() {
        in_b.entry(figures::counter_key(&s.path)).or_insert(j);
    }
    let mut rows = Vec::new();
    let mut only_a = 0;
    let mut matched_b = std::collections::HashSet::new();
    for (i, s) in a.series.iter().enumerate() {
        deadline.check(|| format!("compare: {} rows done", rows.len()))?;
        let Some(&j) = in_b.get(&figures::counter_key(&s.path)) else {
            only_a += 1;
            continue;
        };
        matched_b.insert(j);
        let (sa, sb) = (
            a.stats(i, None, None).expect("series i exists"),
            b.stats(j, None, None).expect("series j exists"),
        );
        rows.push((
            figures::change(sa.mean, sb.mean),
            json!({
                "pathA": s.path,
                "pathB": b.series[j].path,
                "countA": sa.count,
                "countB": sb.count,
                "mean": figures::change(sa.mean, sb.mean),
                "p95": figures::change(sa.p95, sb.p95),
                "max": figures::change(sa.max, sb.max),
            }),
        ));
    }
    // Largest change of the mean first (in % of A; where A's mean is 0, by the difference after).
    rows.sort_by(|(x, _), (y, _)| {
        let key = |c: &figures::Change| {
            if c.percent.is_nan() {
                f64::NEG_INFINITY
            } else {
                c.percent.abs()
            }
        };
        key(y).total_cmp(&key(x))
    });
    let matched = rows.len();
    let e = (east(&a), east(&b));
    Ok(json!({
        "a": {"log": la.rel, "first": a.timestamps.first().map(|&t| when(t, e.0)), "last": a.timestamps.last().map(|&t| when(t, e.0))},
        "b": {"log": lb.rel, "first": b.timestamps.first().map(|&t| when(t, e.1)), "last": b.timestamps.last().map(|&t| when(t, e.1))},
        "matched": matched,
        "onlyInA": only_a,
        "onlyInB": b.series.len() - matched_b.len(),
        "order": "largest change of the mean (in % of A) first; percent is null where A is 0",
        "cut": cut_note(matched.saturating_sub(limit), "rows", limit, "narrow the counters pattern"),
        "rows": rows.into_iter().take(limit).map(|(_, r)| r).collect::<Vec<_>>(),
    })
    .into())
}

// ---- summary ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryArgs {
    log: String,
}

/// The summary in words of a log (the `summary` tool and each log's resource).
pub fn summary_of(ctx: &Ctx, log: &LogFile, deadline: &Deadline) -> Result<String, McpError> {
    let (c, a) = analysed(ctx, log, &AnalyzeOptions::default(), deadline)?;
    Ok(figures::summary_text(&log.rel, &c, &a))
}

fn summary(
    ctx: &mut Ctx,
    args: Result<SummaryArgs, McpError>,
    deadline: &Deadline,
) -> Result<Output, McpError> {
    let args = args?;
    let log = ctx.roots.resolve(&args.log)?;
    let text = summary_of(ctx, &log, deadline)?;
    Ok(Output {
        json: json!({"log": log.rel, "summary": text}),
        text: Some(text),
    })
}
