//! The story: the verdict in a few plain sentences a manager can read (`docs/analysis.md`, "The
//! story"). Built from the cards and nothing else: for each of the first cards, what was wrong (in
//! words for the built-in concerns, the rule's title for the others), when, how badly (the episode's
//! mean and worst, a leak's growth), the likely cause (the card's first contributors, where the log
//! names them) and the next step; then how many cards the detail holds beyond these.

use super::baseline;
use super::cards::{amount_in, Context, FindingGroup};
use super::findings::{percent_of_time, Finding};
use super::pack::Severity;
use super::variables::Origin;
use crate::words::duration;
use serde::{Deserialize, Serialize};

/// The verdict in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Story {
    /// One sentence: how many cards and machines, or that nothing broke.
    pub headline: String,
    /// One line per card, at most [`LINES`], in the cards' rank.
    pub lines: Vec<StoryLine>,
    /// The cards beyond these lines.
    pub more: usize,
    /// How many rules ran: 0 is "not analysed", not a clean bill.
    pub ran: usize,
}

/// One card told: what, when, how badly, the likely cause; then the next step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoryLine {
    /// Index into `Analysis::groups`.
    pub group: usize,
    pub severity: Severity,
    pub text: String,
    /// What to do next, from the card's concern and its contributors.
    pub next: String,
}

/// The most cards told; the rest are counted.
pub const LINES: usize = 3;

/// The share of a card's resource from which its first contributor is named as the one to look at.
pub const STANDS_OUT: f64 = 0.25;

/// The rules that ran: how many, and the least stretch of log the quickest of them needs before it
/// judges anything (its episode window, ...; 0 for a rule on slices).
#[derive(Clone, Copy, Debug)]
pub struct Ran {
    pub rules: usize,
    pub shortest_ms: Option<f64>,
}

/// The story of `groups` (ranked cards over `findings`); `ran` the rules that ran, `span_ms` the log's
/// length.
pub fn story(
    groups: &[FindingGroup],
    findings: &[Finding],
    ctx: &Context<'_>,
    ran: Ran,
    span_ms: Option<f64>,
) -> Story {
    let over = span_ms.map_or(String::new(), |s| format!(" in {} of log", duration(s)));
    let n = ran.rules;
    if groups.is_empty() {
        let headline = match (ran.rules, span_ms, ran.shortest_ms) {
            (0, ..) => "Not analysed: no rule applies to the counters of this log, so this is no clean bill of health.".to_string(),
            // A log shorter than every rule's window: nothing was judged, whatever its values.
            (_, Some(span), Some(need)) if span < need => format!(
                "Not judged: {} of log is shorter than the {} the quickest of the {n} rules that ran needs to judge, so this is no clean bill of health.",
                duration(span),
                duration(need)
            ),
            _ => format!("Nothing was wrong{over}: none of the {n} rules that ran found trouble."),
        };
        return Story {
            headline,
            lines: Vec::new(),
            more: 0,
            ran: n,
        };
    }
    let critical = groups
        .iter()
        .filter(|g| g.severity == Severity::Critical)
        .count();
    let mut machines: Vec<&str> = groups
        .iter()
        .map(|g| g.machine.as_str())
        .filter(|m| !m.is_empty())
        .collect();
    machines.sort_unstable_by_key(|m| m.to_ascii_lowercase());
    machines.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    let problems = match groups.len() {
        1 => "One problem".to_string(),
        n => format!("{n} problems"),
    };
    let on = match (machines.len(), ctx.machines) {
        (k, m) if m > 1 => format!(" on {k} of {m} machines"),
        _ => String::new(),
    };
    let severe = match (critical, groups.len()) {
        (0, _) => String::new(),
        (c, n) if c == n && n == 1 => ", critical".to_string(),
        (c, n) if c == n => ", all critical".to_string(),
        (c, _) => format!(", {c} critical"),
    };
    let order = if groups.len() > 1 {
        "; the worst first"
    } else {
        ""
    };
    let headline = format!("{problems}{on}{over}{severe}{order}.");
    let lines = groups
        .iter()
        .enumerate()
        .take(LINES)
        .map(|(i, g)| line(i, g, findings, ctx))
        .collect();
    Story {
        headline,
        lines,
        more: groups.len().saturating_sub(LINES),
        ran: n,
    }
}

/// The lead series' English counter, folded, and its instance as written.
fn lead_names<'c>(f: &Finding, ctx: &'c Context<'_>) -> (String, String, &'c str) {
    let p = ctx.paths.get(f.series_index);
    let (object, counter) = p.map_or(("", ""), |p| p.english_or_own());
    let instance = ctx
        .series
        .get(f.series_index)
        .and_then(|s| s.parsed.instance.as_deref())
        .unwrap_or("");
    (object.to_string(), counter.to_string(), instance)
}

/// What was wrong, in words, for the built-in concerns; the lead rule's title otherwise.
fn what(g: &FindingGroup, l: &Finding, ctx: &Context<'_>) -> String {
    let (object, counter, instance) = lead_names(l, ctx);
    let disk = if instance.is_empty() || instance.eq_ignore_ascii_case("_total") {
        "the disks".to_string()
    } else {
        format!("disk {instance}")
    };
    let adapter = if instance.is_empty() {
        "the network adapter".to_string()
    } else {
        format!("network adapter {instance}")
    };
    let critical = g.severity == Severity::Critical;
    if g.pack == baseline::PACK_ID {
        return match g.group.as_str() {
            "cpu-above-normal" => {
                "the processors worked far harder than their normal for those hours".into()
            }
            "memory-below-normal" => {
                "available memory fell far below its normal for those hours".into()
            }
            _ => format!("{disk} answered far slower than its normal for those hours"),
        };
    }
    match (g.group.as_str(), counter.as_str()) {
        ("processor", "% privileged time") => {
            "the processors spent too much of their time in the kernel".into()
        }
        ("processor", c) if c.contains("queue") => "threads queued for busy processors".into(),
        // Past the threshold for less than half of the episode: trouble in bursts, not a flat top.
        ("processor", _) if g.share.is_some_and(|s| s < 0.5) => {
            "the processors saturated in bursts".into()
        }
        ("processor", _) if critical => "the processors were saturated".into(),
        ("processor", _) => "the processors were busy".into(),
        ("memory", "% committed bytes in use") => "committed memory neared its limit".into(),
        ("memory", c) if c.starts_with("pages") || c.starts_with("page reads") => {
            "the server paged heavily while memory was low".into()
        }
        ("memory", _) if critical => "memory ran out".into(),
        ("memory", _) => "memory ran low".into(),
        ("paging-file", _) => "the paging file filled up".into(),
        ("disk", c) if c.contains("sec/read") => format!("reads on {disk} were slow"),
        ("disk", c) if c.contains("sec/write") => format!("writes on {disk} were slow"),
        ("disk", c) if c.contains("queue") => format!("requests queued on {disk}"),
        ("disk", _) => format!("{disk} had no idle time"),
        ("disk-free-space", _) => format!("{disk} ran out of free space"),
        ("network", c) if c.contains("queue") => {
            format!("{adapter} queued packets it could not send")
        }
        ("network", _) => format!("{adapter} neared its link's capacity"),
        ("leak", _) if object == "process" || object.starts_with(".net") => {
            let what = match counter.as_str() {
                "handle count" => "handles",
                "thread count" | "# of current physical threads" => "threads",
                "# bytes in all heaps" => "managed heap",
                _ => "private memory",
            };
            format!("the {what} of {instance} grew steadily")
        }
        ("leak", "pool nonpaged bytes") => "the kernel's nonpaged pool grew steadily".into(),
        ("leak", "pool paged bytes") => "the kernel's paged pool grew steadily".into(),
        _ => {
            let r = &l.title;
            format!("\"{r}\"")
        }
    }
}

/// How badly: an episode's mean and worst, a leak's growth, else the worst against the threshold.
fn how_badly(g: &FindingGroup, l: &Finding, findings: &[Finding], ctx: &Context<'_>) -> String {
    if let Some(gr) = &l.growth {
        return format!(
            "{} an hour, from {} to {}",
            amount_in(l.series_index, gr.per_hour, ctx),
            amount_in(l.series_index, gr.from, ctx),
            amount_in(l.series_index, gr.to, ctx)
        );
    }
    let w = &findings[g.worst];
    let worst = amount_in(w.series_index, w.worst, ctx);
    // Against a normal the limit changes with the hour: say the rule (3 times its usual), not one limit.
    if let (true, Some(mean), Some(share)) = (g.pack == baseline::PACK_ID, g.mean, g.share) {
        let past = match l.operator {
            super::pack::Operator::Lt | super::pack::Operator::Le => {
                "less than a third of its usual for the hour".to_string()
            }
            _ => format!(
                "more than {} times its usual for the hour",
                baseline::FACTOR
            ),
        };
        let how_long = if share >= 1.0 {
            "throughout".to_string()
        } else {
            format!("for {} of it", percent_of_time(share))
        };
        return format!(
            "mean {}, worst {worst}, {past} {how_long}",
            amount_in(l.series_index, mean, ctx)
        );
    }
    match (g.mean, g.share) {
        (Some(mean), Some(share)) => {
            let past = format!(
                "{} {}",
                l.operator.words(),
                amount_in(l.series_index, l.threshold, ctx)
            );
            let how_long = if share >= 1.0 {
                format!("{past} throughout")
            } else {
                format!("{past} for {} of it", percent_of_time(share))
            };
            format!(
                "mean {}, worst {worst}, {how_long}",
                amount_in(l.series_index, mean, ctx)
            )
        }
        _ => format!(
            "worst {worst}, {} {}",
            w.operator.words(),
            amount_in(w.series_index, w.threshold, ctx)
        ),
    }
}

/// The likely cause: the card's first two contributors with their shares: `sqlservr used 72% of the
/// machine's processor time, w3wp 10%`; `backup read 180 MB/s (90% of the processes' reads), sqlservr
/// 20 MB/s (10%)`.
fn cause(g: &FindingGroup, ctx: &Context<'_>) -> String {
    let Some(first) = g.contributors.first() else {
        return String::new();
    };
    let counter = ctx
        .paths
        .get(first.series_index)
        .map_or("", |p| p.english_or_own().1);
    let (verb, of) = match counter {
        "% privileged time" if first.kind == "processor" => {
            ("spent", "of the machine's processor time in the kernel")
        }
        "% privileged time" => ("used", "of the machine's processor time in the kernel"),
        "page faults/sec" => ("caused", "of the processes' page faults"),
        "bytes total/sec" => ("carried", "of the adapters' traffic"),
        c if c.starts_with('%') => ("used", "of the machine's processor time"),
        "private bytes" => ("held", "of the processes' private memory"),
        "io read bytes/sec" => ("read", "of the processes' reads"),
        "io write bytes/sec" => ("wrote", "of the processes' writes"),
        _ => ("moved", "of the processes' I/O"),
    };
    let capacity = counter.starts_with('%');
    let mut out = String::new();
    for (k, c) in g.contributors.iter().take(2).enumerate() {
        let share = percent_of_time(c.share);
        let amount = amount_in(c.series_index, c.value, ctx);
        out.push_str(&match (k, capacity) {
            (0, true) => format!("; {} {verb} {share} {of}", c.name),
            (0, false) => format!("; {} {verb} {amount} ({share} {of})", c.name),
            (_, true) => format!(", {} {share}", c.name),
            (_, false) => format!(", {} {amount} ({share})", c.name),
        });
    }
    out
}

/// The next step, from the card's concern and its first contributor (or the counters that would name
/// one).
fn next(g: &FindingGroup, l: &Finding, ctx: &Context<'_>) -> String {
    let (_, counter, instance) = lead_names(l, ctx);
    // A process is named as the one to look at only when it stands out: a quarter or more of the
    // resource. Below that the load is spread, and saying "why X holds so much" would not be so.
    let first = g.contributors.first();
    let top = first
        .filter(|c| c.share >= STANDS_OUT)
        .map(|c| c.name.as_str());
    if let (Some(c), None, "processor" | "memory" | "paging-file" | "disk") =
        (first, top, g.group.as_str())
    {
        return format!(
            "No process stands out (the largest, {}, has {}): the load is spread over many; look at the machine's capacity and the total load.",
            c.name,
            percent_of_time(c.share)
        );
    }
    if g.pack == baseline::PACK_ID {
        return match g.group.as_str() {
            "cpu-above-normal" => "Find what changed on this machine then (a release, a new job, more users): it does not usually work this hard at that hour.".into(),
            "memory-below-normal" => "Find what holds memory now that did not on its usual days (a release, a cache, a leak): compare with a log of a usual day.".into(),
            _ => "Find what loads the disk now that did not on its usual days (a new job, a backup moved to that hour), or whether the storage got slower.".into(),
        };
    }
    match (g.group.as_str(), top) {
        ("processor", _) if counter == "% privileged time" => {
            "Find the driver or process spending kernel time: a WPR CPU trace shows it.".into()
        }
        ("processor", Some(p)) => format!(
            "Look at what {p} was doing then (its requests, queries or jobs); if that load is normal, the server needs more processor."
        ),
        ("processor", None) => missing(g, "\\Process(*)\\% Processor Time", "which process it was"),
        ("memory" | "paging-file", Some(p)) => format!(
            "Find why {p} holds so much memory (a leak, a cache without a cap), or add memory."
        ),
        ("memory" | "paging-file", None) => missing(
            g,
            "\\Process(*)\\Private Bytes",
            "which process it was",
        ),
        ("disk", Some(p)) => format!(
            "See why {p} moved so much data then; if the disk is slow at low load, look at the storage."
        ),
        ("disk", None) => format!(
            "{} If it is slow at low load, look at the storage.",
            missing(g, "\\Process(*)\\IO Data Bytes/sec", "which process loaded the disk")
        ),
        ("disk-free-space", _) => "Free space on the disk or extend it before it fills.".into(),
        ("network", _) => {
            "Find what sends the traffic (Resource Monitor, a network trace), or give it a faster link."
                .into()
        }
        ("leak", _) if !instance.is_empty() && counter == "handle count" => format!(
            "Find the handle type {instance} never closes (Process Explorer's handle view, or !htrace)."
        ),
        ("leak", _) if !instance.is_empty() => format!(
            "Take two memory dumps of {instance} some time apart (ProcDump) and compare what grew."
        ),
        ("leak", _) => "Find the growing pool tag with poolmon.exe or a WPR pool trace.".into(),
        _ => "Read the card's advice below.".into(),
    }
}

/// "Log `counter` to learn `what`.": the card's own `missing` counter where it names one.
fn missing(g: &FindingGroup, counter: &str, what: &str) -> String {
    format!(
        "Log {} to learn {what}.",
        g.missing.as_deref().unwrap_or(counter)
    )
}

/// What the lead finding's threshold assumed rather than knew, inside the line's parenthesis: the pack's
/// defaults it used ("; PhysicalMemoryGB = 16 assumed"), so the line reads no surer than the log allows;
/// empty where every value came from the user or the log.
fn assumed(l: &Finding) -> String {
    let defaults: Vec<String> = l
        .variables
        .iter()
        .filter(|v| v.origin == Origin::Pack)
        .map(|v| format!("{} = {}", v.name, v.value))
        .collect();
    if defaults.is_empty() {
        String::new()
    } else {
        format!("; {} assumed", defaults.join(", "))
    }
}

fn line(i: usize, g: &FindingGroup, findings: &[Finding], ctx: &Context<'_>) -> StoryLine {
    let l = &findings[g.lead];
    let clock = ctx.clock;
    // The machine only where the log names several: one machine's name is in the log's facts already.
    let who = if g.machine.is_empty() || ctx.machines < 2 {
        String::new()
    } else {
        format!("On {}, ", g.machine)
    };
    let what = what(g, l, ctx);
    let what = if who.is_empty() {
        let mut c = what.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        what
    };
    let text = format!(
        "{who}{what} from {} to {}{} ({}; {}{}){}.",
        clock.time(g.start),
        clock.time(g.end),
        clock.suffix(),
        duration(g.duration_ms),
        how_badly(g, l, findings, ctx),
        assumed(l),
        cause(g, ctx),
    );
    StoryLine {
        group: i,
        severity: g.severity,
        text,
        next: next(g, l, ctx),
    }
}
