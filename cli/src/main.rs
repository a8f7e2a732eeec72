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
//! | `analyze.rs` | `analyze`: packs (built-in, JSON, PAL XML), variables, slices, reports, `--fail-on` |
//! | `error.rs` | the errors, each naming its file |
//!
//! Exit codes: 0 all inputs done; 1 an input failed (the others are still done) or `check` found an
//! error; 2 a usage error (clap's message); 3 `analyze --fail-on` found findings of that severity or worse.

/// A line on stderr; a closed stderr (`2>&1 | head`) is not worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod analyze;
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
    about = "Windows performance-counter logs on the command line: info, convert (CSV, TSV, JSON, Parquet), analyze, check",
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
    /// Analyse logs with rule packs (built-in, pack JSON, PAL threshold XML): findings, HTML report, JSON (PAL).
    Analyze(AnalyzeArgs),
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
enum FailOn {
    Warning,
    Critical,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// Logs, in every format the core reads (gzip too). Several: one analysis of them merged, or one per
    /// input when --html/--json name a directory.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A built-in pack id (system-overview, sql-server, ...), a pack JSON file or a PAL threshold XML
    /// file; repeatable. Default: every built-in pack whose counters the log has.
    #[arg(long)]
    pack: Vec<String>,
    /// A pack variable, NAME=VALUE (PAL's questions: totalMemoryMB=16384); repeatable.
    #[arg(long = "var")]
    vars: Vec<String>,
    /// Slice length: auto (the duration / 30, as PAL) or a duration such as 5m, 30s, 1h.
    #[arg(long, default_value = "auto")]
    slice: String,
    /// The HTML report (a file, or a directory for one report per input).
    #[arg(long)]
    html: Option<PathBuf>,
    /// The findings as JSON (a file, or a directory for one per input).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Exit 3 when a finding of this severity or worse exists.
    #[arg(long = "fail-on", value_enum)]
    fail_on: Option<FailOn>,
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
    /// The output file; with --to parquet, an existing directory gets one Parquet file per input,
    /// written in parallel.
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
        Command::Analyze(args) => analyze_cmd(&args, cli.quiet),
        Command::Check { files, json } => check(&files, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            say!("counterlens: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the failures of a run and says which inputs failed.
fn report_failures(failed: &[(PathBuf, String)], total: usize) {
    for (_, message) in failed {
        say!("counterlens: {message}");
    }
    if !failed.is_empty() {
        let names: Vec<String> = failed
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        say!(
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

/// A file that could not be read: listed for the closing summary, and as a `{file, error}` entry of
/// the `--json` output when there is one.
fn record_failure(
    docs: Option<&mut Vec<serde_json::Value>>,
    failed: &mut Vec<(PathBuf, String)>,
    file: &Path,
    e: &dyn std::fmt::Display,
) {
    if let Some(docs) = docs {
        let entry = Failed {
            file: file.display().to_string(),
            error: e.to_string(),
        };
        docs.push(serde_json::to_value(entry).unwrap_or_default());
    }
    failed.push((file.to_path_buf(), e.to_string()));
}

/// The `--json` output of `info` and `check`: one array, pretty-printed, on stdout.
fn write_json_docs(out: &mut impl Write, docs: &[serde_json::Value]) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, docs).map_err(|e| CliError::Io {
        file: "stdout".into(),
        source: e.into(),
    })?;
    writeln!(out).map_err(CliError::io("stdout"))
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
            Err(e) => record_failure(json.then_some(&mut docs), &mut failed, path, &e),
        }
    }
    if json {
        write_json_docs(&mut out, &docs)?;
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

/// The file names a directory output gets: each input's name plus `.parquet`, with `-2`, `-3`... before
/// it where that name is taken (logs of one name from several servers' folders).
fn parquet_names(files: &[PathBuf]) -> Vec<String> {
    let mut used = std::collections::HashSet::new();
    files
        .iter()
        .map(|f| {
            let base = input::source_name(f);
            let mut name = format!("{base}.parquet");
            let mut n = 1;
            while !used.insert(name.to_ascii_lowercase()) {
                n += 1;
                name = format!("{base}-{n}.parquet");
            }
            name
        })
        .collect()
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
        patterns.push(counterlens::capture::PathPattern::parse(c)?);
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
            say!("counterlens: {m}");
        }
    };
    let rows;
    if format == OutFormat::Parquet && args.output.is_dir() {
        // A directory: one Parquet file per input, each read and written on its own thread, so several
        // inputs convert in parallel end to end (one output file has one writer, and encoding is most of
        // the work). Engines read the directory as one table (`SELECT ... FROM 'dir/*.parquet'`).
        use rayon::prelude::*;
        let names = parquet_names(&args.files);
        let bar = input::progress(input::total_size(&args.files), quiet);
        let results: Vec<Result<u64, CliError>> = args
            .files
            .par_iter()
            .zip(&names)
            .map(|(f, name)| {
                let l = input::read(f, &bar)?;
                let c = sel.apply(&l.capture);
                let mut writer = parquet_out::LongWriter::create(&args.output.join(name))?;
                writer.write(&l.source, &c)?;
                writer.close()
            })
            .collect();
        bar.finish_and_clear();
        let mut written = 0;
        rows = results
            .into_iter()
            .zip(&args.files)
            .filter_map(|(r, f)| match r {
                Ok(n) => {
                    written += 1;
                    Some(n)
                }
                Err(e) => {
                    failed.push((f.clone(), e.to_string()));
                    None
                }
            })
            .sum::<u64>();
        note(format!(
            "{}: {rows} rows in {written} Parquet files",
            args.output.display()
        ));
    } else if format == OutFormat::Parquet {
        // Inputs are read on the pool and written here as each one completes, in any order (the source
        // column tells them apart), so reading the next overlaps writing the last.
        let mut writer = parquet_out::LongWriter::create(&args.output)?;
        let bar = input::progress(input::total_size(&args.files), quiet);
        // Bounded: when writing falls behind, readers wait instead of piling captures up in memory.
        let (tx, rx) = std::sync::mpsc::sync_channel(rayon::current_num_threads());
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
            Err(e) => record_failure(json.then_some(&mut docs), &mut failed, f, &e),
        }
    }
    if json {
        write_json_docs(&mut out, &docs)?;
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

fn analyze_cmd(args: &AnalyzeArgs, quiet: bool) -> Result<ExitCode, CliError> {
    let slice = analyze::parse_slice(&args.slice).ok_or_else(|| {
        CliError::Usage(format!(
            "--slice {:?}: expected auto or a duration such as 5m, 30s, 1h",
            args.slice
        ))
    })?;
    let mut notes = Vec::new();
    let options = counterlens::analysis::AnalyzeOptions {
        packs: analyze::packs(&args.pack, &mut notes)?,
        variables: analyze::variables(&args.vars)?,
        slice,
        from: None,
        to: None,
        ..Default::default()
    };
    if !quiet {
        for n in &notes {
            say!("counterlens: {n}");
        }
    }
    let results = input::read_all(&args.files, quiet);
    let mut failed = Vec::new();
    let mut loaded = Vec::new();
    for (path, r) in args.files.iter().zip(results) {
        match r {
            Ok(l) => loaded.push(l),
            Err(e) => failed.push((path.clone(), e.to_string())),
        }
    }
    let is_dir = |p: &Option<PathBuf>| p.as_ref().is_some_and(|p| p.is_dir());
    let each = is_dir(&args.html) || is_dir(&args.json);
    let mut jobs = Vec::new();
    if each {
        for l in loaded {
            jobs.push(analyze::Job {
                title: l.source.clone(),
                inputs: vec![l.path.display().to_string()],
                html: args
                    .html
                    .as_ref()
                    .map(|d| analyze::per_input(d, &l.path, "html")),
                json: args
                    .json
                    .as_ref()
                    .map(|d| analyze::per_input(d, &l.path, "json")),
                capture: l.capture,
            });
        }
    } else if !loaded.is_empty() {
        let title = analyze::merged_title(&loaded);
        let inputs = loaded
            .iter()
            .map(|l| l.path.display().to_string())
            .collect();
        let (capture, messages) =
            select::merge(loaded.into_iter().map(|l| (l.source, l.capture)).collect());
        if !quiet {
            for m in messages {
                say!("counterlens: {m}");
            }
        }
        jobs.push(analyze::Job {
            title,
            inputs,
            capture,
            html: args.html.clone(),
            json: args.json.clone(),
        });
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut worst = None;
    for job in &jobs {
        match analyze::run(job, &options, &mut out) {
            Ok(w) => worst = worst.max(w),
            // A pack that does not fit (an unknown variable, say) fails every job alike: stop.
            Err(e @ CliError::Analysis { .. }) if jobs.len() == 1 => return Err(e),
            Err(e) => failed.push((job.inputs.join(", ").into(), e.to_string())),
        }
    }
    report_failures(&failed, args.files.len());
    use counterlens::analysis::Severity;
    let threshold = args.fail_on.map(|f| match f {
        FailOn::Warning => Severity::Warning,
        FailOn::Critical => Severity::Critical,
    });
    Ok(if !failed.is_empty() || jobs.is_empty() {
        ExitCode::FAILURE
    } else if threshold.is_some_and(|t| worst.is_some_and(|w| w >= t)) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
