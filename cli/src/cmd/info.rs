//! `info`: what each log holds (relog -q): format, machines, first and last time, interval, samples,
//! series, values, time zone and the reader's notes.

use super::{record_failure, report_failures, write_json_docs};
use crate::error::CliError;
use crate::input;
use crate::progress::Progress;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Logs, in every format the core reads (gzip too). A folder stands for the logs under it (names ending .blg, .csv, .tsv, .json or .txt, gzip too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// One JSON document (an array, one entry per file) on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Info {
    file: String,
    format: &'static str,
    encoding: &'static str,
    machines: Vec<String>,
    first: Option<String>,
    last: Option<String>,
    /// The median time between samples, in seconds.
    interval_seconds: Option<f64>,
    samples: usize,
    series: usize,
    /// Values that exist (one Parquet row each).
    values: usize,
    time_zone: Option<counterlens::capture::TimeZone>,
    notes: Vec<counterlens::capture::Note>,
}

/// The median time between samples, in seconds.
pub fn median_interval(ts: &[f64]) -> Option<f64> {
    let mut d: Vec<f64> = ts.windows(2).map(|w| w[1] - w[0]).collect();
    if d.is_empty() {
        return None;
    }
    d.sort_by(f64::total_cmp);
    let m = d.len() / 2;
    let ms = if d.len() % 2 == 1 {
        d[m]
    } else {
        (d[m - 1] + d[m]) / 2.0
    };
    Some(ms / 1000.0)
}

fn info_of(l: &input::Loaded) -> Info {
    let c = &l.capture;
    let east = c.time_zone.as_ref().map_or(0, |z| -z.bias_minutes);
    Info {
        file: l.path.display().to_string(),
        format: c.format_name(),
        encoding: c.encoding_name(),
        machines: crate::select::machines(c),
        first: c.timestamps.first().map(|&t| crate::time::iso(t, east)),
        last: c.timestamps.last().map(|&t| crate::time::iso(t, east)),
        interval_seconds: median_interval(&c.timestamps),
        samples: c.timestamps.len(),
        series: c.series.len(),
        values: c
            .series
            .iter()
            .map(|s| s.values.iter().filter(|v| !v.is_nan()).count())
            .sum(),
        time_zone: c.time_zone.clone(),
        notes: c.notes.clone(),
    }
}

pub fn run(args: &Args, quiet: bool) -> Result<ExitCode, CliError> {
    let args = &Args {
        files: input::logs_in(&args.files, &[])?,
        ..args.clone()
    };
    let names = super::input_names(&args.files)?;
    let progress = Progress::new(&args.files, quiet);
    let results = input::read_all(&args.files, &names, &progress);
    progress.finish();
    let mut failed = Vec::new();
    let mut docs: Vec<serde_json::Value> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (path, r) in args.files.iter().zip(results) {
        match r {
            Ok(l) => {
                let i = info_of(&l);
                if args.json {
                    docs.push(serde_json::to_value(&i).unwrap_or_default());
                } else {
                    print_info(&mut out, &i).map_err(CliError::io("stdout"))?;
                }
            }
            Err(e) => record_failure(args.json.then_some(&mut docs), &mut failed, path, &e),
        }
    }
    if args.json {
        write_json_docs(&mut out, &docs)?;
    }
    report_failures(&failed, args.files.len());
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn print_info(out: &mut impl Write, i: &Info) -> std::io::Result<()> {
    writeln!(out, "{}", i.file)?;
    writeln!(out, "  format:    {} ({})", i.format, i.encoding)?;
    writeln!(out, "  machines:  {}", i.machines.join(", "))?;
    writeln!(
        out,
        "  begin:     {}",
        i.first.as_deref().unwrap_or("(no samples)")
    )?;
    writeln!(
        out,
        "  end:       {}",
        i.last.as_deref().unwrap_or("(no samples)")
    )?;
    if let Some(s) = i.interval_seconds {
        writeln!(out, "  interval:  {s} s")?;
    }
    writeln!(out, "  samples:   {}", i.samples)?;
    writeln!(out, "  series:    {}", i.series)?;
    writeln!(out, "  values:    {}", i.values)?;
    match &i.time_zone {
        Some(z) => writeln!(out, "  time zone: {} (bias {} min)", z.name, z.bias_minutes)?,
        None => writeln!(out, "  time zone: (none given; times are UTC)")?,
    }
    for n in &i.notes {
        writeln!(out, "  note:      [{}] {}", n.code, n.message)?;
    }
    Ok(())
}
