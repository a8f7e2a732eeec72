//! `analyze`: the core's analysis (docs/analysis.md) over logs, PAL in batch. One analysis per log, each
//! with its own slices; logs of one machine that follow each other in time (a Data Collector Set's
//! daily files) are one analysis; `--merge` merges everything into one. With several analyses, `--html
//! DIR` and `--json DIR` write one report per analysis, an index (per analysis: critical and warning
//! counts by category, time range, a link) and the fleet (`fleet.rs`: machines ranked worst first, as
//! `fleet.json` and as the page `index.html`). `--baseline` adds the cards "worse than its normal".
//! `--fail-on` turns findings into an exit code.

use super::{input_names, report_failures, report_losses, strict_summary};
use crate::args::{self, PackSpec};
use crate::error::CliError;
use crate::index::{self, Entry};
use crate::input::{self, Loaded};
use crate::naming;
use crate::normals::{Normals, Pick};
use crate::progress::Progress;
use crate::time::iso;
use clap::ValueEnum;
use counterlens::analysis::{self, fleet, AnalyzeOptions, Severity, SliceLength, Value};
use counterlens::capture::Capture;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Warning,
    Critical,
}

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Logs, in every format the core reads (gzip too). Each is analysed alone (with its own slices);
    /// logs of one machine that follow each other in time are analysed together. A folder stands for the logs under it (names ending .blg, .csv, .tsv, .json or .txt, gzip too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A built-in pack id (system-overview, sql-server, ...), a pack JSON file or a PAL threshold XML
    /// file; repeatable. Default: every built-in pack whose counters the log has.
    #[arg(long, value_parser = args::pack)]
    pack: Vec<PackSpec>,
    /// A pack variable, NAME=VALUE (PAL's questions: totalMemoryMB=16384); repeatable.
    #[arg(long = "var", value_parser = args::var)]
    vars: Vec<(String, Value)>,
    /// Slice length: auto (the duration / 30, as PAL) or a duration such as 5m, 30s, 1h.
    #[arg(long, default_value = "auto", value_parser = args::slice)]
    slice: SliceLength,
    /// The HTML report: a file for one analysis; a directory (DIR/) for one report per analysis and an
    /// index.html.
    #[arg(long)]
    html: Option<PathBuf>,
    /// The findings as JSON: a file for one analysis; a directory (DIR/) for one per analysis and an
    /// index.json.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Exit 3 when a finding of this severity or worse exists.
    #[arg(long = "fail-on", value_enum)]
    fail_on: Option<FailOn>,
    /// One analysis of all the logs merged (as convert merges them), across machines.
    #[arg(long)]
    merge: bool,
    /// Exit 1 when a log lost data (truncated, cut short, unreadable rows); the notes are printed anyway.
    #[arg(long)]
    strict: bool,
    /// A machine's normal (`counterlens baseline`): adds cards "worse than its normal" (pack
    /// "baseline"). One file: a log of another machine is an error. Repeatable, or a folder of
    /// MACHINE.baseline.json (`counterlens baseline LOGS -o DIR/`): each log is judged against its own
    /// machine's normal, and a machine without one by the rules alone (said in its summary).
    #[arg(long)]
    baseline: Vec<PathBuf>,
}

/// One analysis: of one log, or of logs merged.
struct Job {
    /// The first log's name below the inputs' common folder; its reports are named after it.
    name: String,
    title: String,
    inputs: Vec<String>,
    capture: Capture,
}

/// Whether `next` continues `prev`: the same machines, starting after `prev` ends, within ten of
/// `prev`'s sampling intervals (at least a minute) of its last sample.
fn follows(prev: &Capture, next: &Capture) -> bool {
    let (Some(&end), Some(&start)) = (prev.timestamps.last(), next.timestamps.first()) else {
        return false;
    };
    let machines = crate::select::machines(prev);
    let interval_ms = super::info::median_interval(&prev.timestamps).unwrap_or(0.0) * 1000.0;
    !machines.is_empty()
        && machines == crate::select::machines(next)
        && start > end
        && start - end <= (10.0 * interval_ms).max(60_000.0)
}

/// The logs grouped into analyses, in the order given.
fn group(loaded: Vec<Loaded>, merge: bool) -> Vec<Vec<Loaded>> {
    let mut groups: Vec<Vec<Loaded>> = Vec::new();
    for l in loaded {
        match groups.last_mut() {
            Some(g) if merge || g.last().is_some_and(|p| follows(&p.capture, &l.capture)) => {
                g.push(l)
            }
            _ => groups.push(vec![l]),
        }
    }
    groups
}

fn job(mut logs: Vec<Loaded>, progress: &Progress) -> Job {
    let inputs: Vec<String> = logs.iter().map(|l| l.path.display().to_string()).collect();
    let name = logs[0].source.clone();
    if logs.len() == 1 {
        let l = logs.pop().expect("one log");
        return Job {
            title: name.clone(),
            name,
            inputs,
            capture: l.capture,
        };
    }
    let title = format!("{name} and {} more", logs.len() - 1);
    let (capture, messages) =
        crate::select::merge(logs.into_iter().map(|l| (l.source, l.capture)).collect());
    for m in messages {
        progress.println(format!("counterlens: {m}"));
    }
    Job {
        name,
        title,
        inputs,
        capture,
    }
}

/// What an analysis runs with: the options, the machines' normals, where its reports go.
type Setup<'a> = (&'a AnalyzeOptions, &'a Normals, &'a Dest, &'a Dest);

/// Reads the logs a few at a time (at most two per thread ahead of the one being grouped, each read
/// on the pool) and groups them in the order given as they arrive; each analysis runs on the pool as
/// soon as its logs are grouped, at most one per thread at once (the reading waits for them), so
/// memory holds a few logs and analyses, whatever the count. Returns each analysis' inputs and
/// result, in order; read failures and logs that lost data go to `failed` and `lost`.
fn pipeline(
    args: &Args,
    names: &[String],
    (options, normals, html, json): Setup<'_>,
    progress: &Progress,
    (failed, lost): (&mut Vec<(PathBuf, String)>, &mut usize),
) -> (Vec<String>, Vec<Result<Analysed, CliError>>) {
    use std::sync::mpsc::channel;
    let threads = rayon::current_num_threads();
    let ahead = 2 * threads;
    let files = &args.files;
    let (rtx, rrx) = channel::<(usize, Result<Loaded, CliError>)>();
    let (atx, arx) = channel::<(usize, Result<Analysed, CliError>)>();
    let mut inputs: Vec<String> = Vec::new();
    let mut results: Vec<(usize, Result<Analysed, CliError>)> = Vec::new();
    rayon::in_place_scope(|scope| {
        // Readers are spawned as the ones before them are taken, never all at once: no task waits
        // on another, and an analysis always finds a thread.
        let spawn_read = |i: usize| {
            let rtx = rtx.clone();
            let (f, name) = (&files[i], &names[i]);
            scope.spawn(move |_| {
                let r = input::read(f, name, &progress.file(input::size(f)), &Default::default());
                let _ = rtx.send((i, r));
            });
        };
        let mut spawned = files.len().min(ahead);
        for i in 0..spawned {
            spawn_read(i);
        }
        let mut in_flight = 0usize;
        let dispatch = |g: Vec<Loaded>, in_flight: &mut usize, inputs: &mut Vec<String>| {
            let j = job(g, progress);
            let k = inputs.len();
            inputs.push(j.inputs.join(", "));
            *in_flight += 1;
            let atx = atx.clone();
            scope.spawn(move |_| {
                let _ = atx.send((k, analyse(&j, (options, normals, html, json))));
            });
        };
        let mut pending = std::collections::BTreeMap::new();
        let mut group: Vec<Loaded> = Vec::new();
        let mut next = 0;
        while next < files.len() {
            let Ok((i, r)) = rrx.recv() else { break };
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next) {
                match r {
                    Ok(l) => {
                        *lost += usize::from(report_losses(&l, progress) > 0);
                        if !group
                            .last()
                            .is_some_and(|p| follows(&p.capture, &l.capture))
                            && !group.is_empty()
                        {
                            dispatch(std::mem::take(&mut group), &mut in_flight, &mut inputs);
                        }
                        group.push(l);
                    }
                    Err(e) => failed.push((files[next].clone(), e.to_string())),
                }
                next += 1;
                if spawned < files.len() {
                    spawn_read(spawned);
                    spawned += 1;
                }
                // One analysis per thread at once: the next waits for one to end.
                while in_flight >= threads {
                    match arx.recv() {
                        Ok(r) => results.push(r),
                        Err(_) => break,
                    }
                    in_flight -= 1;
                }
            }
        }
        if !group.is_empty() {
            dispatch(group, &mut in_flight, &mut inputs);
        }
        for _ in 0..in_flight {
            if let Ok(r) = arx.recv() {
                results.push(r);
            }
        }
    });
    results.sort_by_key(|r| r.0);
    (inputs, results.into_iter().map(|r| r.1).collect())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Output<'a> {
    inputs: &'a [String],
    #[serde(flatten)]
    analysis: &'a analysis::Analysis,
}

/// Where the reports go: one file, or a directory with one per analysis and an index.
enum Dest {
    None,
    File(PathBuf),
    Dir(PathBuf),
}

fn dest(p: &Option<PathBuf>, option: &str, jobs: usize) -> Result<Dest, CliError> {
    let Some(p) = p else { return Ok(Dest::None) };
    if naming::is_dir_output(p) {
        return Ok(Dest::Dir(p.clone()));
    }
    if jobs > 1 {
        return Err(CliError::Usage(format!(
            "--{option} {}: the logs give {jobs} analyses (one per log, or per machine where its logs follow each other); name a directory (--{option} reports/) for a report each and an index, or give --merge for one analysis of them all",
            p.display()
        )));
    }
    Ok(Dest::File(p.clone()))
}

fn write_file(path: &Path, text: &str) -> Result<(), CliError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(CliError::io(parent))?;
    }
    std::fs::write(path, text).map_err(CliError::io(path))
}

/// What one analysis gives: its index entry, its machines' runs for the fleet, its summary for stdout.
type Analysed = (Entry, Vec<fleet::Run>, Vec<u8>);

/// Runs one analysis (against its machine's normal when one was given), writes its reports, returns
/// what it gives.
fn analyse(job: &Job, (options, normals, html, json): Setup<'_>) -> Result<Analysed, CliError> {
    let judged;
    let (options, missing) = match normals.pick(&job.capture) {
        Pick::Use(b) => {
            judged = AnalyzeOptions {
                baseline: Some(b.clone()),
                ..options.clone()
            };
            (&judged, None)
        }
        Pick::Missing(why) => (options, Some(why)),
        Pick::None => (options, None),
    };
    let a = analysis::analyze(&job.capture, options).map_err(|source| CliError::Analysis {
        file: job.title.clone().into(),
        source,
    })?;
    let runs = fleet::runs(&job.capture, &a, &job.inputs, &job.name);
    let east = job
        .capture
        .time_zone
        .as_ref()
        .map_or(0, |z| -z.bias_minutes);
    let mut entry = index::entry(&job.title, &job.inputs, &job.capture, &a, east);
    match html {
        Dest::File(p) => write_file(
            p,
            &analysis::analysis_report(&job.capture, &a, Some(&job.title)),
        )?,
        Dest::Dir(d) => {
            let rel = format!("{}.html", job.name);
            write_file(
                &d.join(&rel),
                &analysis::analysis_report(&job.capture, &a, Some(&job.title)),
            )?;
            entry.report = Some(rel);
        }
        Dest::None => {}
    }
    let doc = || {
        serde_json::to_string_pretty(&Output {
            inputs: &job.inputs,
            analysis: &a,
        })
        .map(|t| t + "\n")
        .map_err(|e| CliError::Io {
            file: job.title.clone().into(),
            source: e.into(),
        })
    };
    match json {
        Dest::File(p) => write_file(p, &doc()?)?,
        Dest::Dir(d) => {
            let rel = format!("{}.json", job.name);
            write_file(&d.join(&rel), &doc()?)?;
            entry.data = Some(rel);
        }
        Dest::None => {}
    }
    let mut out = Vec::new();
    let skipped = a.rules.iter().filter(|r| r.skipped.is_some()).count();
    let _ = writeln!(
        out,
        "{}: {} findings ({} critical, {} warning) from {} rules ({skipped} skipped: counters not in the log), {} slices",
        job.title,
        a.findings.len(),
        entry.critical,
        entry.warning,
        a.rules.len(),
        a.slices.len()
    );
    // The story first (what a reader takes in at once: the worst cards in words, with the next step),
    // then every finding.
    let _ = writeln!(out, "  {}", a.story.headline);
    if let Some(why) = missing {
        let _ = writeln!(out, "  ({why})");
    }
    for (k, l) in a.story.lines.iter().enumerate() {
        let sev = match l.severity {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "  {}. {sev}: {}\n     Next: {}", k + 1, l.text, l.next);
    }
    for f in &a.findings {
        let sev = match f.severity {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "  {sev:8} {} .. {}  {}  {}",
            iso(f.start, east),
            iso(f.end, east),
            f.path,
            f.message
        );
    }
    entry.worst = a.findings.iter().map(|f| f.severity).max();
    Ok((entry, runs, out))
}

pub fn run(args: &Args, quiet: bool) -> Result<ExitCode, CliError> {
    let outputs: Vec<&Path> = [&args.html, &args.json]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
    let args = &Args {
        files: input::logs_in(&args.files, &outputs)?,
        ..args.clone()
    };
    let names = input_names(&args.files)?;
    let mut notes = Vec::new();
    let normals = Normals::load(&args.baseline)?;
    let options = AnalyzeOptions {
        packs: crate::packs::packs(&args.pack, &mut notes)?,
        variables: args.vars.iter().cloned().collect(),
        slice: args.slice,
        from: None,
        to: None,
        ..Default::default()
    };
    if !quiet {
        for n in &notes {
            say!("counterlens: {n}");
        }
    }
    let progress = Progress::new(&args.files, quiet);
    let mut failed = Vec::new();
    let mut lost = 0;
    // With directories (or no report) and no --merge, logs are read a few at a time and each analysis
    // runs as soon as its logs are read (`pipeline`): memory holds a few logs, not all of them. A report
    // file needs the count of analyses first (one analysis only), so that case reads them all.
    let files_out = [&args.html, &args.json]
        .iter()
        .any(|p| p.as_ref().is_some_and(|p| !naming::is_dir_output(p)));
    let (jobs, results): (Vec<String>, Vec<Result<Analysed, CliError>>) = if args.merge || files_out
    {
        let results = input::read_all(&args.files, &names, &progress);
        progress.finish();
        let mut loaded = Vec::new();
        for (path, r) in args.files.iter().zip(results) {
            match r {
                Ok(l) => {
                    lost += usize::from(report_losses(&l, &progress) > 0);
                    loaded.push(l);
                }
                Err(e) => failed.push((path.clone(), e.to_string())),
            }
        }
        let jobs: Vec<Job> = group(loaded, args.merge)
            .into_iter()
            .map(|g| job(g, &progress))
            .collect();
        let html = dest(&args.html, "html", jobs.len())?;
        let json = dest(&args.json, "json", jobs.len())?;
        use rayon::prelude::*;
        let results = jobs
            .par_iter()
            .map(|j| analyse(j, (&options, &normals, &html, &json)))
            .collect();
        (jobs.iter().map(|j| j.inputs.join(", ")).collect(), results)
    } else {
        let html = dest(&args.html, "html", 1)?;
        let json = dest(&args.json, "json", 1)?;
        let r = pipeline(
            args,
            &names,
            (&options, &normals, &html, &json),
            &progress,
            (&mut failed, &mut lost),
        );
        progress.finish();
        r
    };
    let html = dest(&args.html, "html", 1)?;
    let json = dest(&args.json, "json", 1)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut entries = Vec::new();
    let mut runs = Vec::new();
    for (inputs, r) in jobs.iter().zip(results) {
        match r {
            Ok((entry, r, text)) => {
                out.write_all(&text).map_err(CliError::io("stdout"))?;
                entries.push(entry);
                runs.extend(r);
            }
            // A pack that does not fit (an unknown variable, say) fails every analysis alike: stop.
            Err(e @ CliError::Analysis { .. }) if jobs.len() == 1 => return Err(e),
            Err(e) => failed.push((inputs.into(), e.to_string())),
        }
    }
    let fleet = fleet::fleet(runs);
    if let Dest::Dir(d) = &html {
        write_file(&d.join("index.html"), &crate::fleet::page(&fleet, &entries))?;
    }
    if let Dest::Dir(d) = &json {
        let text = serde_json::to_string_pretty(&entries).map_err(|e| CliError::Io {
            file: d.join("index.json"),
            source: e.into(),
        })?;
        write_file(&d.join("index.json"), &(text + "\n"))?;
        let text = crate::fleet::json(&fleet).map_err(|e| CliError::Io {
            file: d.join("fleet.json"),
            source: e.into(),
        })?;
        write_file(&d.join("fleet.json"), &text)?;
    }
    if entries.len() > 1 {
        let critical: usize = entries.iter().map(|e| e.critical).sum();
        let warning: usize = entries.iter().map(|e| e.warning).sum();
        writeln!(
            out,
            "{} analyses: {critical} critical and {warning} warning findings in all",
            entries.len()
        )
        .map_err(CliError::io("stdout"))?;
    }
    report_failures(&failed, args.files.len());
    let lost = strict_summary(lost, args.strict);
    let threshold = args.fail_on.map(|f| match f {
        FailOn::Warning => Severity::Warning,
        FailOn::Critical => Severity::Critical,
    });
    let worst = entries.iter().filter_map(|e| e.worst).max();
    Ok(if !failed.is_empty() || entries.is_empty() || lost {
        ExitCode::FAILURE
    } else if threshold.is_some_and(|t| worst.is_some_and(|w| w >= t)) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use counterlens::capture::Series;

    fn log(machine: &str, times: &[f64]) -> Loaded {
        let path = format!("\\\\{machine}\\Memory\\Available MBytes");
        Loaded {
            path: PathBuf::from(format!("{machine}-{}.csv", times[0])),
            source: format!("{machine}-{}.csv", times[0]),
            capture: Capture {
                format: Some(counterlens::capture::Format::PdhCsv),
                encoding: Some(counterlens::capture::CaptureEncoding::Text(
                    counterlens::capture::text::Encoding::UTF_8,
                )),
                time_zone: None,
                timestamps: times.to_vec(),
                series: vec![Series::new(path, vec![1.0; times.len()])],
                notes: vec![],
            },
        }
    }

    #[test]
    fn logs_of_one_machine_that_follow_each_other_are_one_analysis() {
        let min = 60_000.0;
        let groups = group(
            vec![
                // WEB01 at one-minute samples, then its next file a minute after its last sample.
                log("WEB01", &[0.0, min, 2.0 * min]),
                log("WEB01", &[3.0 * min, 4.0 * min]),
                // WEB02 over the same time: another machine, another analysis.
                log("WEB02", &[0.0, min]),
                // WEB02 again, a day later: more than ten intervals (10 min) after: alone.
                log("WEB02", &[1440.0 * min, 1441.0 * min]),
                // WEB02 overlapping the last one: alone.
                log("WEB02", &[1440.5 * min, 1442.0 * min]),
            ],
            false,
        );
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        assert_eq!(sizes, [2, 1, 1, 1]);
        let merged = group(vec![log("A", &[0.0]), log("B", &[0.0])], true);
        assert_eq!(merged.len(), 1);
    }
}
