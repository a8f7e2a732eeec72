//! `counterlens`: the core on the command line, for many logs at once (relog and PAL in batch).
//!
//! | file | concept |
//! |---|---|
//! | `main.rs` | the arguments (clap), the subcommands, exit codes |
//! | `input.rs` | reading files (gzip too) into captures, in parallel, with progress on a terminal |
//! | `time.rs` | `--begin`/`--end`: ISO 8601 and relog's `M/d/yyyy H:mm:ss` |
//! | `select.rs` | counter filters, time window, every Nth sample; merging inputs |
//! | `parquet_out.rs` | the Parquet long layout |
//! | `json_out.rs` | Get-Counter-shaped JSON |
//! | `error.rs` | the errors, each naming its file |
//!
//! Exit codes: 0 all inputs done; 1 an input failed (the others are still done) or `check` found an
//! error; 2 a usage error (clap's message).

mod error;
mod input;
mod json_out;
mod parquet_out;
mod select;
mod time;

use clap::{Parser, Subcommand, ValueEnum};
use error::CliError;
use select::Selection;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "counterlens",
    version,
    about = "Windows performance-counter logs on the command line: info, convert (CSV, TSV, JSON, Parquet), check",
    long_about = None
)]
struct Cli {
    /// Threads reading inputs (default: one per core).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// No progress bar and no notes on stderr (errors are still printed).
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Format, machines, first/last time, interval, samples, series, time zone and notes of each log (relog -q).
    Info {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON document (an array, one entry per file) on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Filter counters, cut a time window, keep every Nth sample, merge inputs into one output (relog -c -cf -b -e -t -f).
    Convert(ConvertArgs),
    /// Validate counter-set registrations (manifest, binary or JSON); exit 1 on any error.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON document (an array, one report per file) on stdout.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutFormat {
    Csv,
    Tsv,
    Json,
    Parquet,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// Logs: .blg, PDH-CSV/TSV, Get-Counter JSON, counterlens raw JSON; each may be gzip-compressed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The output file.
    #[arg(short, long)]
    output: PathBuf,
    /// Output format (default: from the output's extension, else csv).
    #[arg(long = "to", short = 'f', value_enum)]
    to: Option<OutFormat>,
    /// A counter path to keep, Perfmon wildcards allowed (\Processor(*)\% Processor Time); repeatable.
    #[arg(short = 'c', long = "counter")]
    counters: Vec<String>,
    /// A file of counter paths to keep, one per line (relog -cf).
    #[arg(long = "cf")]
    counter_files: Vec<PathBuf>,
    /// First time kept: ISO 8601 (with or without zone; without: the log's own) or M/d/yyyy H:mm:ss.
    #[arg(short = 'b', long)]
    begin: Option<String>,
    /// Last time kept, as --begin.
    #[arg(short = 'e', long)]
    end: Option<String>,
    /// Keep every Nth sample (relog -t).
    #[arg(short = 't', long, value_parser = clap::value_parser!(u64).range(1..))]
    every: Option<u64>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        // Only fails when a pool already exists, which it cannot here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global();
    }
    let result = match cli.command {
        Command::Info { files, json } => info(&files, json, cli.quiet),
        Command::Convert(args) => convert(&args, cli.quiet),
        Command::Check { files, json } => check(&files, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("counterlens: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the failures of a run and says which inputs failed.
fn report_failures(failed: &[(PathBuf, String)], total: usize) {
    for (_, message) in failed {
        eprintln!("counterlens: {message}");
    }
    if !failed.is_empty() {
        let names: Vec<String> = failed
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        eprintln!(
            "counterlens: {} of {total} inputs failed: {}",
            failed.len(),
            names.join(", ")
        );
    }
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

#[derive(Serialize)]
struct Failed {
    file: String,
    error: String,
}

fn median_interval(ts: &[f64]) -> Option<f64> {
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
        format: c.format,
        encoding: c.encoding,
        machines: select::machines(c),
        first: c.timestamps.first().map(|&t| time::iso(t, east)),
        last: c.timestamps.last().map(|&t| time::iso(t, east)),
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

fn info(files: &[PathBuf], json: bool, quiet: bool) -> Result<ExitCode, CliError> {
    let results = input::read_all(files, quiet);
    let mut failed = Vec::new();
    let mut docs: Vec<serde_json::Value> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (path, r) in files.iter().zip(results) {
        match r {
            Ok(l) => {
                let i = info_of(&l);
                if json {
                    docs.push(serde_json::to_value(&i).unwrap_or_default());
                } else {
                    print_info(&mut out, &i).map_err(CliError::io("stdout"))?;
                }
            }
            Err(e) => {
                if json {
                    docs.push(
                        serde_json::to_value(Failed {
                            file: path.display().to_string(),
                            error: e.to_string(),
                        })
                        .unwrap_or_default(),
                    );
                }
                failed.push((path.clone(), e.to_string()));
            }
        }
    }
    if json {
        serde_json::to_writer_pretty(&mut out, &docs).map_err(|e| CliError::Io {
            file: "stdout".into(),
            source: e.into(),
        })?;
        writeln!(out).map_err(CliError::io("stdout"))?;
    }
    report_failures(&failed, files.len());
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

fn out_format(args: &ConvertArgs) -> OutFormat {
    args.to.unwrap_or_else(|| {
        match args
            .output
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("parquet") => OutFormat::Parquet,
            Some("tsv") => OutFormat::Tsv,
            Some("json") => OutFormat::Json,
            _ => OutFormat::Csv,
        }
    })
}

fn selection(args: &ConvertArgs) -> Result<Selection, CliError> {
    let mut patterns = Vec::new();
    for c in &args.counters {
        patterns.push(
            counterlens::capture::PathPattern::parse(c)
                .map_err(|_| CliError::Pattern(c.clone()))?,
        );
    }
    for f in &args.counter_files {
        patterns.extend(select::read_pattern_file(f)?);
    }
    let time = |option: &'static str, v: &Option<String>| -> Result<_, CliError> {
        v.as_ref()
            .map(|s| {
                time::parse(s).ok_or_else(|| CliError::Time {
                    option,
                    value: s.clone(),
                })
            })
            .transpose()
    };
    Ok(Selection {
        patterns,
        begin: time("begin", &args.begin)?,
        end: time("end", &args.end)?,
        every: args.every.unwrap_or(1) as usize,
    })
}

fn convert(args: &ConvertArgs, quiet: bool) -> Result<ExitCode, CliError> {
    let sel = selection(args)?;
    let format = out_format(args);
    if args.files.iter().any(|f| f == &args.output) {
        return Err(CliError::Usage(format!(
            "{}: the output is also an input",
            args.output.display()
        )));
    }
    let mut failed: Vec<(PathBuf, String)> = Vec::new();
    let note = |m: String| {
        if !quiet {
            eprintln!("counterlens: {m}");
        }
    };
    let rows;
    if format == OutFormat::Parquet {
        // Inputs are read on the pool and written here as each one completes, in any order (the source
        // column tells them apart), so reading the next overlaps writing the last.
        let mut writer = parquet_out::LongWriter::create(&args.output)?;
        let bar = input::progress(input::total_size(&args.files), quiet);
        let (tx, rx) = std::sync::mpsc::channel();
        let files = &args.files;
        let mut write_error = None;
        rayon::in_place_scope(|scope| {
            for (i, f) in files.iter().enumerate() {
                let tx = tx.clone();
                let bar = &bar;
                let sel = &sel;
                scope.spawn(move |_| {
                    let r = input::read(f, bar).map(|l| {
                        let c = sel.apply(&l.capture);
                        (l.source, c)
                    });
                    let _ = tx.send((i, r));
                });
            }
            drop(tx);
            for (i, r) in rx {
                match r {
                    Ok((source, c)) => {
                        if write_error.is_none() {
                            if let Err(e) = writer.write(&source, &c) {
                                write_error = Some(e);
                            }
                        }
                    }
                    Err(e) => failed.push((files[i].clone(), e.to_string())),
                }
            }
        });
        bar.finish_and_clear();
        if let Some(e) = write_error {
            return Err(e);
        }
        failed.sort_by(|a, b| a.0.cmp(&b.0));
        rows = writer.close()?;
        note(format!(
            "{}: {rows} rows from {} inputs",
            args.output.display(),
            args.files.len() - failed.len()
        ));
    } else {
        let results = input::read_all(&args.files, quiet);
        let mut kept = Vec::new();
        for (path, r) in args.files.iter().zip(results) {
            match r {
                Ok(l) => kept.push((l.source, sel.apply(&l.capture))),
                Err(e) => failed.push((path.clone(), e.to_string())),
            }
        }
        if kept.is_empty() {
            report_failures(&failed, args.files.len());
            return Ok(ExitCode::FAILURE);
        }
        let (merged, messages) = select::merge(kept);
        for m in messages {
            note(m);
        }
        write_table(&merged, format, &args.output)?;
        rows = merged.timestamps.len() as u64;
        note(format!(
            "{}: {rows} samples of {} series",
            args.output.display(),
            merged.series.len()
        ));
    }
    report_failures(&failed, args.files.len());
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn write_table(
    c: &counterlens::capture::Capture,
    format: OutFormat,
    path: &Path,
) -> Result<(), CliError> {
    let file = std::fs::File::create(path).map_err(CliError::io(path))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    match format {
        OutFormat::Csv => counterlens::capture::write_pdh(c, None, false, &mut w),
        OutFormat::Tsv => counterlens::capture::write_pdh(c, None, true, &mut w),
        OutFormat::Json => json_out::write(c, &mut w),
        OutFormat::Parquet => Ok(()),
    }
    .and_then(|_| w.flush())
    .map_err(CliError::io(path))
}

#[derive(Serialize)]
struct Checked {
    file: String,
    #[serde(flatten)]
    report: counterlens::registration::Report,
}

fn check(files: &[PathBuf], json: bool) -> Result<ExitCode, CliError> {
    use rayon::prelude::*;
    let results: Vec<Result<counterlens::registration::Report, CliError>> = files
        .par_iter()
        .map(|f| {
            let bytes = std::fs::read(f).map_err(CliError::io(f))?;
            // Printable ASCII is text (hex dumps, JSON, manifests), whose form the core sniffs; anything
            // else is a binary registration block.
            let input = match std::str::from_utf8(&bytes) {
                Ok(t)
                    if t.bytes()
                        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace()) =>
                {
                    counterlens::registration::Input::Text(t)
                }
                _ => counterlens::registration::Input::Bytes(&bytes),
            };
            Ok(counterlens::registration::validate_registration(
                input, None,
            ))
        })
        .collect();
    let mut errors = 0usize;
    let mut failed = Vec::new();
    let mut docs = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (f, r) in files.iter().zip(results) {
        match r {
            Ok(report) => {
                errors += report.errors;
                if json {
                    docs.push(
                        serde_json::to_value(Checked {
                            file: f.display().to_string(),
                            report,
                        })
                        .unwrap_or_default(),
                    );
                } else {
                    print_check(&mut out, f, &report).map_err(CliError::io("stdout"))?;
                }
            }
            Err(e) => {
                if json {
                    docs.push(
                        serde_json::to_value(Failed {
                            file: f.display().to_string(),
                            error: e.to_string(),
                        })
                        .unwrap_or_default(),
                    );
                }
                failed.push((f.clone(), e.to_string()));
            }
        }
    }
    if json {
        serde_json::to_writer_pretty(&mut out, &docs).map_err(|e| CliError::Io {
            file: "stdout".into(),
            source: e.into(),
        })?;
        writeln!(out).map_err(CliError::io("stdout"))?;
    }
    report_failures(&failed, files.len());
    Ok(if errors == 0 && failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn print_check(
    out: &mut impl Write,
    f: &Path,
    r: &counterlens::registration::Report,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} ({} counter sets): {} errors, {} warnings",
        f.display(),
        r.format,
        r.counter_sets.len(),
        r.errors,
        r.warnings
    )?;
    for d in &r.diagnostics {
        let place = match (d.line, d.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", f.display()),
            _ => format!("{}: byte {}", f.display(), d.offset),
        };
        let sev = match d.severity {
            counterlens::registration::Severity::Error => "error",
            counterlens::registration::Severity::Warning => "warning",
            counterlens::registration::Severity::Info => "info",
        };
        writeln!(out, "{place}: {sev} [{}] {}", d.code, d.message)?;
    }
    Ok(())
}
