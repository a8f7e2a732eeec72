//! `convert`: relog's `-c -cf -b -e -t -f` over many inputs. One output file for all inputs (Parquet
//! keeps every input's rows, told apart by `source`; CSV/TSV/JSON merge series on time), or, with a
//! directory as the output, one file per input named by its path (`naming`), optionally in hive-style
//! `machine=`/`date=` folders. Outputs are never overwritten without `--overwrite`; a file appears only
//! when complete, and none when nothing was written.

use super::{input_names, report_failures, report_losses, strict_summary};
use crate::args::{self, Partition};
use crate::error::CliError;
use crate::input::{self, Loaded};
use crate::naming::{self, Staged};
use crate::parquet_out::{LongWriter, Part};
use crate::progress::Progress;
use crate::select::{self, Selection};
use crate::time::TimeSpec;
use clap::ValueEnum;
use counterlens::capture::{Capture, PathPattern};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    Csv,
    Tsv,
    Json,
    Parquet,
}

impl OutFormat {
    fn ext(self) -> &'static str {
        match self {
            OutFormat::Csv => "csv",
            OutFormat::Tsv => "tsv",
            OutFormat::Json => "json",
            OutFormat::Parquet => "parquet",
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Logs: .blg, PDH-CSV/TSV, Get-Counter JSON, counterlens raw JSON; each may be gzip-compressed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The output file; or a directory (one that exists, or a path ending in /) for one file per input,
    /// named by its path below the inputs' common folder (WEB01/fleet.blg.parquet), written in parallel.
    #[arg(short, long)]
    output: PathBuf,
    /// Output format (default: Parquet for a directory, else from the output's extension, else csv).
    #[arg(long = "to", short = 'f', value_enum)]
    to: Option<OutFormat>,
    /// A counter path to keep, Perfmon wildcards allowed (\Processor(*)\% Processor Time); repeatable.
    #[arg(short = 'c', long = "counter", value_parser = args::pattern)]
    counters: Vec<PathPattern>,
    /// A file of counter paths to keep, one per line (relog -cf).
    #[arg(long = "cf")]
    counter_files: Vec<PathBuf>,
    /// First time kept: ISO 8601 (with or without zone; without: the log's own) or M/d/yyyy H:mm:ss.
    #[arg(short = 'b', long, value_parser = args::time)]
    begin: Option<TimeSpec>,
    /// Last time kept, as --begin.
    #[arg(short = 'e', long, value_parser = args::time)]
    end: Option<TimeSpec>,
    /// Keep every Nth sample (relog -t).
    #[arg(short = 't', long, value_parser = clap::value_parser!(u64).range(1..))]
    every: Option<u64>,
    /// Replace output files that exist (relog -y); without it an existing output is an error.
    #[arg(short = 'y', long)]
    overwrite: bool,
    /// With a directory output in Parquet: hive-style folders, machine=WEB01/ and date=2026-11-16/ (UTC),
    /// which DuckDB and Spark prune on; machine, date or machine,date.
    #[arg(long, value_parser = args::partition)]
    partition: Option<Partition>,
    /// Exit 1 when an input lost data (truncated, not closed, unreadable rows); the notes are printed anyway.
    #[arg(long)]
    strict: bool,
}

fn format_of(args: &Args, dir: bool) -> OutFormat {
    args.to.unwrap_or_else(|| {
        if dir {
            return OutFormat::Parquet;
        }
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

fn selection(args: &Args) -> Result<Selection, CliError> {
    let mut patterns = args.counters.clone();
    for f in &args.counter_files {
        patterns.extend(select::read_pattern_file(f)?);
    }
    Ok(Selection {
        patterns,
        begin: args.begin,
        end: args.end,
        every: args.every.unwrap_or(1) as usize,
    })
}

/// One input's outcome: rows (or samples) written, output files, whether it lost data.
#[derive(Default)]
struct Done {
    rows: u64,
    files: usize,
    lost: bool,
}

/// The selection applied to a log, with a warning when it keeps nothing of it.
fn select_one(l: &Loaded, sel: &Selection, progress: &Progress) -> Capture {
    let c = sel.apply(&l.capture);
    if !sel.patterns.is_empty() && c.series.is_empty() {
        progress.println(format!(
            "counterlens: warning: {}: no series matches the counter filter (-c/--cf); nothing of it is written",
            l.source
        ));
    } else if c.timestamps.is_empty() && !l.capture.timestamps.is_empty() {
        let east = l.capture.time_zone.as_ref().map_or(0, |z| -z.bias_minutes);
        let t = |i: usize| crate::time::iso(l.capture.timestamps[i], east);
        progress.println(format!(
            "counterlens: warning: {}: no sample in the time window (the log runs from {} to {}); nothing of it is written",
            l.source,
            t(0),
            t(l.capture.timestamps.len() - 1)
        ));
    }
    c
}

pub fn run(args: &Args, quiet: bool) -> Result<ExitCode, CliError> {
    let sel = selection(args)?;
    let names = input_names(&args.files)?;
    let dir = naming::is_dir_output(&args.output);
    let format = format_of(args, dir);
    let out_abs = naming::absolute(&args.output);
    if args.files.iter().any(|f| naming::absolute(f) == out_abs) {
        return Err(CliError::Usage(format!(
            "{}: the output is also an input",
            args.output.display()
        )));
    }
    if args.partition.is_some() && !(dir && format == OutFormat::Parquet) {
        return Err(CliError::Usage(
            "--partition writes Parquet into a directory: give -o DIR/ (and no --to other than parquet)"
                .into(),
        ));
    }
    // Outputs known before reading are checked now, so a run that would overwrite stops at once.
    let planned: Vec<PathBuf> = if !dir {
        vec![args.output.clone()]
    } else if args.partition.is_none() {
        names
            .iter()
            .map(|n| naming::per_input(&args.output, n, format.ext()))
            .collect()
    } else {
        vec![]
    };
    if !args.overwrite {
        let existing = naming::existing(&planned);
        if !existing.is_empty() {
            for e in &existing {
                say!("counterlens: {}", CliError::Exists(e.clone()));
            }
            say!(
                "counterlens: {} outputs exist; nothing was read or written",
                existing.len()
            );
            return Ok(ExitCode::FAILURE);
        }
    }
    let progress = Progress::new(&args.files, quiet);
    let mut failed: Vec<(PathBuf, String)> = Vec::new();
    let (done, summary) = if dir {
        let results = per_input(args, &sel, &names, format, &progress);
        let mut done = Done::default();
        let mut lost = 0;
        for (r, f) in results.into_iter().zip(&args.files) {
            match r {
                Ok(d) => {
                    done.rows += d.rows;
                    done.files += d.files;
                    lost += usize::from(d.lost);
                }
                Err(e) => failed.push((f.clone(), e.to_string())),
            }
        }
        done.lost = strict_summary(lost, args.strict);
        let what = if format == OutFormat::Parquet {
            "rows"
        } else {
            "samples"
        };
        let summary = format!(
            "{}: {} {what} in {} {} files",
            args.output.display(),
            done.rows,
            done.files,
            format.ext()
        );
        (done, summary)
    } else if format == OutFormat::Parquet {
        one_parquet(args, &sel, &names, &progress, &mut failed)?
    } else {
        one_table(args, &sel, &names, format, &progress, &mut failed)?
    };
    progress.finish();
    if !quiet && done.files > 0 {
        say!("counterlens: {summary}");
    }
    failed.sort_by(|a, b| a.0.cmp(&b.0));
    report_failures(&failed, args.files.len());
    if done.files == 0 {
        say!("counterlens: nothing was written (no output file made)");
    }
    Ok(if !failed.is_empty() || done.lost || done.files == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A directory: one output per input, each read and written on its own thread, so inputs convert in
/// parallel end to end (one output file has one encoder, and encoding is most of the work).
fn per_input(
    args: &Args,
    sel: &Selection,
    names: &[String],
    format: OutFormat,
    progress: &Progress,
) -> Vec<Result<Done, CliError>> {
    use rayon::prelude::*;
    args.files
        .par_iter()
        .zip(names)
        .map(|(f, name)| {
            let fp = progress.file(input::size(f));
            let l = input::read(f, name, &fp)?;
            let lost = report_losses(&l, progress) > 0;
            let c = select_one(&l, sel, progress);
            let mut on_rows = |done: u64, total: u64| fp.written(done, total);
            let (rows, files) = match (format, args.partition) {
                (OutFormat::Parquet, Some(p)) => {
                    write_partitioned(&args.output, name, &c, p, args.overwrite, &mut on_rows)?
                }
                (OutFormat::Parquet, None) => {
                    let path = naming::per_input(&args.output, name, format.ext());
                    write_parquet(
                        &path,
                        name,
                        &c,
                        Part::default(),
                        args.overwrite,
                        &mut on_rows,
                    )?
                }
                _ => {
                    let path = naming::per_input(&args.output, name, format.ext());
                    if c.timestamps.is_empty() || c.series.is_empty() {
                        (0, 0)
                    } else {
                        write_table(&c, format, &path, args.overwrite)?;
                        (c.timestamps.len() as u64, 1)
                    }
                }
            };
            Ok(Done { rows, files, lost })
        })
        .collect()
}

/// One Parquet file of `part` of a capture; none (0 files) when it has no value.
fn write_parquet(
    path: &Path,
    source: &str,
    c: &Capture,
    part: Part<'_>,
    overwrite: bool,
    on_rows: &mut dyn FnMut(u64, u64),
) -> Result<(u64, usize), CliError> {
    let mut w = LongWriter::create(path, overwrite)?;
    let rows = w.write(source, c, part, on_rows)?;
    if rows == 0 {
        return Ok((0, 0)); // dropped: its temporary file is removed
    }
    w.close()?;
    Ok((rows, 1))
}

/// Hive-style folders: `machine=<m>/date=<UTC day>/<name with / as __>.parquet`, one file per machine
/// and day of the capture.
fn write_partitioned(
    dir: &Path,
    name: &str,
    c: &Capture,
    p: Partition,
    overwrite: bool,
    on_rows: &mut dyn FnMut(u64, u64),
) -> Result<(u64, usize), CliError> {
    use std::collections::BTreeMap;
    let mut by_machine: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, s) in c.series.iter().enumerate() {
        let key = if p.machine {
            s.parsed.machine.clone()
        } else {
            String::new()
        };
        by_machine.entry(key).or_default().push(i);
    }
    let mut by_date: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, &t) in c.timestamps.iter().enumerate() {
        let key = if p.date {
            crate::time::iso_utc(t)[..10].to_string()
        } else {
            String::new()
        };
        by_date.entry(key).or_default().push(k);
    }
    // Progress over the whole input: rows of the parts written so far plus the current part's.
    let total: u64 = c
        .series
        .iter()
        .map(|s| s.values.iter().filter(|v| !v.is_nan()).count() as u64)
        .sum();
    let (mut rows, mut files) = (0u64, 0usize);
    for (machine, series) in &by_machine {
        for (date, samples) in &by_date {
            let mut path = dir.to_path_buf();
            if p.machine {
                path.push(format!("machine={}", naming::hive_value(machine)));
            }
            if p.date {
                path.push(format!("date={}", naming::hive_value(date)));
            }
            path.push(format!("{}.parquet", naming::flat(name)));
            let part = Part {
                series: Some(series),
                samples: Some(samples),
            };
            let before = rows;
            let (n, f) = write_parquet(&path, name, c, part, overwrite, &mut |d: u64, _: u64| {
                on_rows(before + d, total)
            })?;
            rows += n;
            files += f;
        }
    }
    on_rows(total, total);
    Ok((rows, files))
}

/// One Parquet file for every input: inputs are read on the pool and written here as each completes, in
/// any order (the source column tells them apart), so reading the next overlaps writing the last.
fn one_parquet(
    args: &Args,
    sel: &Selection,
    names: &[String],
    progress: &Progress,
    failed: &mut Vec<(PathBuf, String)>,
) -> Result<(Done, String), CliError> {
    let mut writer = LongWriter::create(&args.output, args.overwrite)?;
    // Bounded: when writing falls behind, readers wait instead of piling captures up in memory.
    let (tx, rx) = std::sync::mpsc::sync_channel(rayon::current_num_threads());
    let files = &args.files;
    let mut write_error = None;
    let mut lost = 0usize;
    let mut written = 0usize;
    rayon::in_place_scope(|scope| {
        for (i, (f, name)) in files.iter().zip(names).enumerate() {
            let tx = tx.clone();
            scope.spawn(move |_| {
                let size = input::size(f);
                // The file's share is handed to the writer with its capture: it is done when written.
                let fp = progress.file(size);
                let r = input::read(f, name, &fp).map(|l| {
                    let lost = report_losses(&l, progress) > 0;
                    let c = select_one(&l, sel, progress);
                    (l.source, c, lost)
                });
                let read = fp.detach();
                let _ = tx.send((i, r, size, read));
            });
        }
        drop(tx);
        for (i, r, size, read) in rx {
            // This input's read half is counted; its written half counts as its rows go out.
            let fp = progress.file_resumed(size, read);
            match r {
                Ok((source, c, l)) => {
                    lost += usize::from(l);
                    if write_error.is_none() {
                        let mut on_rows = |d: u64, t: u64| fp.written(d, t);
                        match writer.write(&source, &c, Part::default(), &mut on_rows) {
                            Ok(n) => written += usize::from(n > 0),
                            Err(e) => write_error = Some(e),
                        }
                    }
                }
                Err(e) => failed.push((files[i].clone(), e.to_string())),
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    let rows = writer.rows;
    let files_made = if rows > 0 {
        writer.close()?;
        1
    } else {
        0 // nothing to write: the temporary file is removed, no empty Parquet file is left
    };
    let summary = format!(
        "{}: {rows} rows from {written} inputs",
        args.output.display()
    );
    Ok((
        Done {
            rows,
            files: files_made,
            lost: strict_summary(lost, args.strict),
        },
        summary,
    ))
}

/// One input read for a merge: the log, what the selection keeps of it, whether it lost data, its size
/// and the bytes counted as read.
type ReadForMerge = (Loaded, Capture, bool, u64, u64);

/// CSV, TSV or JSON: every input merged into one table, series by path, rows by time.
fn one_table(
    args: &Args,
    sel: &Selection,
    names: &[String],
    format: OutFormat,
    progress: &Progress,
    failed: &mut Vec<(PathBuf, String)>,
) -> Result<(Done, String), CliError> {
    use rayon::prelude::*;
    let results: Vec<Result<ReadForMerge, CliError>> = args
        .files
        .par_iter()
        .zip(names)
        .map(|(f, name)| {
            let size = input::size(f);
            let fp = progress.file(size);
            let l = input::read(f, name, &fp)?;
            let lost = report_losses(&l, progress) > 0;
            let c = select_one(&l, sel, progress);
            Ok((l, c, lost, size, fp.detach()))
        })
        .collect();
    let mut kept = Vec::new();
    let mut shares = Vec::new();
    let mut lost = 0;
    for (path, r) in args.files.iter().zip(results) {
        match r {
            Ok((l, c, was_lost, size, read)) => {
                lost += usize::from(was_lost);
                shares.push((size, read));
                if !c.series.is_empty() && !c.timestamps.is_empty() {
                    kept.push((l.source, c));
                }
            }
            Err(e) => failed.push((path.clone(), e.to_string())),
        }
    }
    let lost = strict_summary(lost, args.strict);
    if kept.is_empty() {
        return Ok((
            Done {
                lost,
                ..Done::default()
            },
            String::new(),
        ));
    }
    let inputs = kept.len();
    let (merged, messages) = select::merge(kept);
    for m in messages {
        progress.println(format!("counterlens: {m}"));
    }
    let cells = merged.series.len() * merged.timestamps.len();
    let values: usize = merged
        .series
        .iter()
        .map(|s| s.values.iter().filter(|v| !v.is_nan()).count())
        .sum();
    if let Some(w) = empty_cells_warning(inputs, merged.series.len(), cells, values) {
        progress.println(format!("counterlens: warning: {w}"));
    }
    write_table(&merged, format, &args.output, args.overwrite)?;
    for (size, read) in shares {
        drop(progress.file_resumed(size, read));
    }
    let rows = merged.timestamps.len() as u64;
    let summary = format!(
        "{}: {rows} samples of {} series",
        args.output.display(),
        merged.series.len()
    );
    Ok((
        Done {
            rows,
            files: 1,
            lost,
        },
        summary,
    ))
}

/// Inputs merged side by side (one column per series, one row per time of any input) leave empty the
/// cells of one input's series at the other inputs' times: 20 servers' logs make a table of 20 x their
/// columns, 95 % empty. Says so when more than half the cells of a merge of several inputs are empty.
pub fn empty_cells_warning(
    inputs: usize,
    columns: usize,
    cells: usize,
    values: usize,
) -> Option<String> {
    let empty = cells - values.min(cells);
    (inputs > 1 && empty * 2 > cells).then(|| {
        format!(
            "the merged table has {columns} columns and {cells} cells, {empty} of them ({}%) empty: the {inputs} inputs' series sit side by side, each empty at the others' times; for many logs, --to parquet (one row per value) or -o DIR/ (a file per input) fits better",
            empty * 100 / cells
        )
    })
}

fn write_table(
    c: &Capture,
    format: OutFormat,
    path: &Path,
    overwrite: bool,
) -> Result<(), CliError> {
    let (staged, file) = Staged::create(path, overwrite)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    match format {
        OutFormat::Csv => counterlens::capture::write_pdh(c, None, false, &mut w),
        OutFormat::Tsv => counterlens::capture::write_pdh(c, None, true, &mut w),
        OutFormat::Json => crate::json_out::write(c, &mut w),
        OutFormat::Parquet => Ok(()),
    }
    .and_then(|_| w.flush())
    .map_err(CliError::io(path))?;
    drop(w);
    staged.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_cells_warning_counts_cells() {
        // 20 inputs of 8 series and 100 samples each, at distinct times: 160 columns x 2000 rows =
        // 320 000 cells, 20 x 8 x 100 = 16 000 values, 304 000 (95 %) empty.
        let w = empty_cells_warning(20, 160, 320_000, 16_000).unwrap();
        assert!(
            w.starts_with(
                "the merged table has 160 columns and 320000 cells, 304000 of them (95%) empty"
            ),
            "{w}"
        );
        // Half empty exactly is not more than half; one input never warns.
        assert_eq!(empty_cells_warning(2, 2, 100, 50), None);
        assert!(empty_cells_warning(2, 2, 100, 49).is_some());
        assert_eq!(empty_cells_warning(1, 2, 100, 0), None);
    }
}
