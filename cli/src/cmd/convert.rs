//! `convert`: relog's `-c -cf -b -e -t -f` over many inputs. One output file for all inputs (Parquet
//! keeps every input's rows, told apart by `source`; CSV/TSV/JSON merge series on time), or, with a
//! directory as the output, one file per input named by its path (`naming`), optionally in hive-style
//! `machine=`/`date=` folders. Outputs are never overwritten without `--overwrite`; a file appears only
//! when complete, and none when nothing was written.
//!
//! Streamed (`stream_to`): each input is read a few MiB at a time (`input::stream`), cut to the selection
//! (`select::Cut`) and written as it goes (Parquet row group by row group, `parquet_out::Stream`; CSV/TSV
//! rows), so a log bigger than memory converts; what is written is what the whole read writes. Read
//! whole: several inputs into one file, and JSON output (`docs/fleet.md`, "Logs bigger than memory").

use super::{input_names, report_failures, report_losses, report_lost_notes, strict_summary};
use crate::args::{self, Partition};
use crate::error::CliError;
use crate::input::{self, Loaded};
use crate::naming::{self, Staged};
use crate::parquet_out::{Encoded, LongWriter, ParallelFile, RowGroups, Stream};
use crate::progress::FileProgress;
use crate::progress::Progress;
use crate::select::{self, Cut, Piece, Selection};
use crate::time::TimeSpec;
use clap::ValueEnum;
use counterlens::capture::{Capture, CaptureErrorKind, Format, OpenOptions, PathPattern, Series};
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

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Logs: .blg, PDH-CSV/TSV, Get-Counter JSON, counterlens raw JSON; each may be gzip-compressed.
    /// A folder stands for the logs under it (names ending .blg, .csv, .tsv, .json or .txt, gzip too).
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
    /// Exit 1 when an input lost data (truncated, cut short, unreadable rows); the notes are printed anyway.
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

/// One input's outcome: rows (or samples) written, output files, whether it lost data; the series
/// written (a CSV/TSV's columns).
#[derive(Default)]
struct Done {
    rows: u64,
    files: usize,
    lost: bool,
    series: usize,
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
    let args = &Args {
        files: input::logs_in(&args.files, &[&args.output])?,
        ..args.clone()
    };
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
    } else if args.files.len() == 1 && format != OutFormat::Json {
        single(args, &sel, &names[0], format, &progress, &mut failed)?
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
/// parallel end to end (one output file has one encoder, and encoding is most of the work). Parquet,
/// CSV and TSV stream (`stream_to`); JSON is written from the whole capture.
fn per_input(
    args: &Args,
    sel: &Selection,
    names: &[String],
    format: OutFormat,
    progress: &Progress,
) -> Vec<Result<Done, CliError>> {
    use rayon::prelude::*;
    if format == OutFormat::Json {
        whole_read_note(&args.files, "--to json", progress);
    }
    args.files
        .par_iter()
        .zip(names)
        .map(|(f, name)| {
            let fp = progress.file(input::size(f));
            let path = naming::per_input(&args.output, name, format.ext());
            if format == OutFormat::Json {
                let l = input::read(f, name, &fp, &sel.open_options())?;
                let lost = report_losses(&l, progress) > 0;
                let c = select_one(&l, sel, progress);
                if c.timestamps.is_empty() || c.series.is_empty() {
                    return Ok(Done {
                        lost,
                        ..Done::default()
                    });
                }
                write_table(&c, format, &path, args.overwrite)?;
                return Ok(Done {
                    rows: c.timestamps.len() as u64,
                    files: 1,
                    lost,
                    series: c.series.len(),
                });
            }
            let out = match (format, args.partition) {
                (OutFormat::Parquet, Some(p)) => {
                    Out::Partitioned(Partitioned::new(&args.output, name, p, args.overwrite))
                }
                (OutFormat::Parquet, None) => {
                    Out::Parquet(Box::new(OneParquet::create(&path, name, args.overwrite)?))
                }
                _ => Out::Table(Table::new(&path, format == OutFormat::Tsv, args.overwrite)),
            };
            stream_to(f, name, &fp, sel, progress, out)
        })
        .collect()
}

/// Where one input's rows go as they stream.
enum Out {
    /// One Parquet file of this input (boxed: the writer is large beside the others).
    Parquet(Box<OneParquet>),
    /// Hive-style folders: one Parquet file per machine and UTC day.
    Partitioned(Partitioned),
    /// One CSV or TSV file.
    Table(Table),
    /// Row groups encoded for a file of several inputs (`one_parquet`), appended there once complete.
    Encode(Box<(RowGroups, Stream)>),
}

impl Out {
    fn piece(&mut self, p: &Piece) -> Result<(), CliError> {
        match self {
            Out::Parquet(o) => o.piece(p),
            Out::Partitioned(o) => o.piece(p),
            Out::Table(o) => o.piece(p),
            Out::Encode(o) => {
                let (groups, stream) = &mut **o;
                stream.add(groups, p, 0..p.times.len(), None).map(|_| ())
            }
        }
    }

    /// Completes the output: rows written, files made (none when nothing was written), columns.
    fn end(self) -> Result<(u64, usize, usize), CliError> {
        match self {
            Out::Parquet(o) => (*o).end().map(|(r, f)| (r, f, 0)),
            Out::Partitioned(o) => o.end().map(|(r, f)| (r, f, 0)),
            Out::Table(o) => o.end(),
            Out::Encode(_) => Ok((0, 0, 0)),
        }
    }
}

/// One input streamed to `out` through the selection, in bounded memory: the rows of a few MiB of input
/// are read, cut to the selection and handed on at a time (`input::stream`), so a log bigger than the
/// machine's memory converts. What is written is what the whole read would give (`crate::select::Cut`;
/// `cli/tests/streaming.rs`). A .blg written to CSV/TSV is read twice: its series (process instances
/// appear late) are listed first, since the header names them all before the first row.
fn stream_to(
    f: &Path,
    name: &str,
    fp: &FileProgress<'_>,
    sel: &Selection,
    progress: &Progress,
    mut out: Out,
) -> Result<Done, CliError> {
    let lost = stream_into(f, name, fp, sel, progress, &mut out)?;
    let (rows, files, series) = out.end()?;
    Ok(Done {
        rows,
        files,
        lost,
        series,
    })
}

/// `stream_to` without completing the output: whether the log lost data.
fn stream_into(
    f: &Path,
    name: &str,
    fp: &FileProgress<'_>,
    sel: &Selection,
    progress: &Progress,
    out: &mut Out,
) -> Result<bool, CliError> {
    if let Out::Table(t) = out {
        if input::format_of(f) == Some(Format::Blg) {
            t.series = catalogue(f, fp, sel)?;
        }
    }
    let mut cut = Cut::new(sel);
    let mut zone = None;
    let mut each = |c: Capture, order: &[usize]| {
        zone = c.time_zone.clone().or(zone.take());
        let p = cut.piece(c, order);
        out.piece(&p)?;
        fp.written_as_read();
        Ok(())
    };
    let notes = match input::stream(f, fp, &sel.open_options(), &mut each) {
        // Nothing of this file is in the part (no series matches, no sample in the window): read it
        // again, keeping nothing, for the warning that says what the log holds.
        Err(CliError::Capture { source: e, .. }) if e.kind == CaptureErrorKind::InvalidOption => {
            cut = Cut::new(sel);
            let mut nothing = |c: Capture, order: &[usize]| {
                zone = c.time_zone.clone().or(zone.take());
                cut.piece(c, order);
                Ok(())
            };
            input::stream(f, fp, &OpenOptions::default(), &mut nothing)?
        }
        r => r?,
    };
    let lost = report_lost_notes(name, &notes, progress) > 0;
    selection_warnings(name, sel, &cut, zone.as_ref(), progress);
    Ok(lost)
}

/// Series listed in the capture's order: their indices among those met, and their paths.
type Listed = (Vec<usize>, Vec<String>);

/// The series a .blg's read keeps, in the capture's order (their indices among those met, and paths),
/// from a first read that keeps no value; None when the read fails (the second read says how).
fn catalogue(f: &Path, fp: &FileProgress<'_>, sel: &Selection) -> Result<Option<Listed>, CliError> {
    let mut cut = Cut::new(sel);
    let mut paths: Vec<Option<String>> = Vec::new();
    let mut order = Vec::new();
    let mut each = |c: Capture, o: &[usize]| {
        let p = cut.piece(c, o);
        for (id, s) in &p.series {
            if paths.len() <= *id {
                paths.resize(*id + 1, None);
            }
            paths[*id].get_or_insert_with(|| s.path.clone());
        }
        order = p.order;
        Ok(())
    };
    if input::stream(f, fp, &sel.open_options(), &mut each).is_err() {
        return Ok(None);
    }
    let names = order
        .iter()
        .map(|&id| paths.get(id).cloned().flatten().unwrap_or_default())
        .collect();
    Ok(Some((order, names)))
}

/// The warnings of `select_one` for a streamed log: a counter filter that keeps no series, a time
/// window that keeps no sample.
fn selection_warnings(
    source: &str,
    sel: &Selection,
    cut: &Cut<'_>,
    zone: Option<&counterlens::capture::TimeZone>,
    progress: &Progress,
) {
    if !sel.patterns.is_empty() && cut.series_kept() == 0 {
        progress.println(format!(
            "counterlens: warning: {source}: no series matches the counter filter (-c/--cf); nothing of it is written"
        ));
    } else if let (0, Some((first, last))) = (cut.rows_kept, cut.span) {
        let east = zone.map_or(0, |z| -z.bias_minutes);
        progress.println(format!(
            "counterlens: warning: {source}: no sample in the time window (the log runs from {} to {}); nothing of it is written",
            crate::time::iso(first, east),
            crate::time::iso(last, east)
        ));
    }
}

/// One Parquet file of one input, written row group by row group.
struct OneParquet {
    writer: LongWriter,
    stream: Stream,
}

impl OneParquet {
    fn create(path: &Path, source: &str, overwrite: bool) -> Result<OneParquet, CliError> {
        Ok(OneParquet {
            writer: LongWriter::create(path, overwrite)?,
            stream: Stream::new(source),
        })
    }

    fn piece(&mut self, p: &Piece) -> Result<(), CliError> {
        self.stream
            .add(&mut self.writer, p, 0..p.times.len(), None)?;
        Ok(())
    }

    fn end(mut self) -> Result<(u64, usize), CliError> {
        self.stream.flush(&mut self.writer)?;
        let rows = self.writer.rows;
        if rows == 0 {
            return Ok((0, 0)); // dropped: its temporary file is removed
        }
        self.writer.close()?;
        Ok((rows, 1))
    }
}

/// Hive-style folders: `machine=<m>/date=<UTC day>/<name with / as __>.parquet`, one file per machine
/// and day of the log, each written row group by row group. When the rows reach a later day, the
/// earlier days' files write what they hold (a log's rows come in time order, so those days are
/// complete); files are completed at the end.
struct Partitioned {
    dir: PathBuf,
    name: String,
    p: Partition,
    overwrite: bool,
    files: std::collections::BTreeMap<(String, String), OneParquet>,
    day: Option<String>,
}

impl Partitioned {
    fn new(dir: &Path, name: &str, p: Partition, overwrite: bool) -> Partitioned {
        Partitioned {
            dir: dir.to_path_buf(),
            name: name.to_string(),
            p,
            overwrite,
            files: Default::default(),
            day: None,
        }
    }

    fn piece(&mut self, piece: &Piece) -> Result<(), CliError> {
        use std::collections::BTreeMap;
        let mut by_machine: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (id, s) in &piece.series {
            let key = if self.p.machine {
                s.parsed.machine.as_str()
            } else {
                ""
            };
            by_machine.entry(key).or_default().push(*id);
        }
        let day = |t: f64| {
            if self.p.date {
                crate::time::iso_utc(t)[..10].to_string()
            } else {
                String::new()
            }
        };
        let n = piece.times.len();
        let mut k = 0;
        while k < n {
            let date = day(piece.times[k]);
            let mut end = k + 1;
            while end < n && day(piece.times[end]) == date {
                end += 1;
            }
            if self.day.as_ref().is_none_or(|d| *d < date) {
                for ((_, d), file) in self.files.iter_mut() {
                    if *d < date {
                        file.stream.flush(&mut file.writer)?;
                    }
                }
                self.day = Some(date.clone());
            }
            for (machine, ids) in &by_machine {
                let key = (machine.to_string(), date.clone());
                if !self.files.contains_key(&key) {
                    let mut path = self.dir.clone();
                    if self.p.machine {
                        path.push(format!("machine={}", naming::hive_value(machine)));
                    }
                    if self.p.date {
                        path.push(format!("date={}", naming::hive_value(&date)));
                    }
                    path.push(format!("{}.parquet", naming::flat(&self.name)));
                    let file = OneParquet::create(&path, &self.name, self.overwrite)?;
                    self.files.insert(key.clone(), file);
                }
                if let Some(file) = self.files.get_mut(&key) {
                    file.stream
                        .add(&mut file.writer, piece, k..end, Some(ids))?;
                }
            }
            k = end;
        }
        Ok(())
    }

    fn end(self) -> Result<(u64, usize), CliError> {
        let (mut rows, mut files) = (0, 0);
        for (_, file) in self.files {
            let (r, f) = file.end()?;
            rows += r;
            files += f;
        }
        Ok((rows, files))
    }
}

/// One CSV or TSV file (relog's dialect), its header written with the first row, rows as they come.
struct Table {
    path: PathBuf,
    tsv: bool,
    overwrite: bool,
    /// The series written, as indices among those met and paths, in the capture's order: from a first
    /// read of a .blg (`catalogue`), else from the first rows (a CSV/TSV's header names every series).
    series: Option<Listed>,
    /// By index among the series met: whether the header names it.
    written: Vec<bool>,
    out: Option<(Staged, std::io::BufWriter<std::fs::File>)>,
    rows: u64,
}

impl Table {
    fn new(path: &Path, tsv: bool, overwrite: bool) -> Table {
        Table {
            path: path.to_path_buf(),
            tsv,
            overwrite,
            series: None,
            written: Vec::new(),
            out: None,
            rows: 0,
        }
    }

    fn piece(&mut self, p: &Piece) -> Result<(), CliError> {
        if p.times.is_empty() {
            return Ok(());
        }
        let (ids, paths) = self.series.get_or_insert_with(|| {
            let paths = p
                .order
                .iter()
                .map(|&id| p.get(id).map_or_else(String::new, |s| s.path.clone()))
                .collect();
            (p.order.clone(), paths)
        });
        if ids.is_empty() {
            return Ok(());
        }
        if self.written.is_empty() {
            self.written = vec![false; ids.iter().max().map_or(0, |m| m + 1)];
            for &id in ids.iter() {
                self.written[id] = true;
            }
        }
        let known = &self.written;
        if let Some((id, s)) = p
            .series
            .iter()
            .find(|(id, _)| !known.get(*id).copied().unwrap_or(false))
        {
            // Never: a CSV/TSV's header names every series, a .blg's are listed first.
            return Err(CliError::Io {
                file: self.path.clone(),
                source: std::io::Error::other(format!(
                    "the series {} (number {id}) was met after the header was written",
                    s.path
                )),
            });
        }
        let io = |e| CliError::Io {
            file: self.path.clone(),
            source: e,
        };
        if self.out.is_none() {
            let (staged, file) = Staged::create(&self.path, self.overwrite)?;
            let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
            let header = Capture {
                format: None,
                encoding: None,
                time_zone: p.time_zone.clone(),
                timestamps: Vec::new(),
                series: paths
                    .iter()
                    .map(|path| Series::new(path.clone(), Vec::new()))
                    .collect(),
                notes: Vec::new(),
            };
            counterlens::capture::write_pdh_header(&header, None, self.tsv, &mut w).map_err(&io)?;
            self.out = Some((staged, w));
        }
        if let Some((_, w)) = &mut self.out {
            counterlens::capture::write_pdh_rows(&p.capture(ids), None, self.tsv, w).map_err(io)?;
        }
        self.rows += p.times.len() as u64;
        Ok(())
    }

    fn end(self) -> Result<(u64, usize, usize), CliError> {
        let Some((staged, mut w)) = self.out else {
            return Ok((0, 0, 0));
        };
        w.flush().map_err(CliError::io(&self.path))?;
        drop(w);
        staged.commit()?;
        let series = self.series.map_or(0, |(ids, _)| ids.len());
        Ok((self.rows, 1, series))
    }
}

/// Inputs read whole (several merged into one table or one Parquet file, JSON output): a note for
/// each that is big (1 GiB on disk, 128 MiB gzip-compressed), saying how to convert it in bounded memory.
fn whole_read_note(files: &[PathBuf], why: &str, progress: &Progress) {
    for f in files {
        let size = input::size(f);
        let gzip = std::fs::File::open(f)
            .and_then(|mut h| {
                let mut m = [0u8; 2];
                std::io::Read::read_exact(&mut h, &mut m).map(|_| m == [0x1f, 0x8b])
            })
            .unwrap_or(false);
        if size >= if gzip { 128 << 20 } else { 1 << 30 } {
            progress.println(format!(
                "counterlens: note: {}: read whole into memory ({:.1} GB{}), as {why} needs; a log bigger than memory converts in bounded memory one input at a time: to Parquet, CSV or TSV, with -o DIR/ or a single input",
                f.display(),
                size as f64 / 1e9,
                if gzip { " compressed" } else { "" }
            ));
        }
    }
}

/// One input to one Parquet, CSV or TSV file, streamed (`stream_to`). An error about the input (it
/// does not read) is a failed input, as with several; one about the output stops the run.
fn single(
    args: &Args,
    sel: &Selection,
    name: &str,
    format: OutFormat,
    progress: &Progress,
    failed: &mut Vec<(PathBuf, String)>,
) -> Result<(Done, String), CliError> {
    let f = &args.files[0];
    let out = if format == OutFormat::Parquet {
        Out::Parquet(Box::new(OneParquet::create(
            &args.output,
            name,
            args.overwrite,
        )?))
    } else {
        Out::Table(Table::new(
            &args.output,
            format == OutFormat::Tsv,
            args.overwrite,
        ))
    };
    let table = matches!(out, Out::Table(_));
    let fp = progress.file(input::size(f));
    let done = match stream_to(f, name, &fp, sel, progress, out) {
        Ok(d) => d,
        Err(e) if e.file() == Some(f.as_path()) => {
            failed.push((f.clone(), e.to_string()));
            Done::default()
        }
        Err(e) => return Err(e),
    };
    let summary = if table {
        format!(
            "{}: {} samples of {} series",
            args.output.display(),
            done.rows,
            done.series
        )
    } else {
        format!(
            "{}: {} rows from {} inputs",
            args.output.display(),
            done.rows,
            usize::from(done.rows > 0)
        )
    };
    let lost = strict_summary(usize::from(done.lost), args.strict);
    Ok((Done { lost, ..done }, summary))
}

/// One Parquet file for every input: each input is streamed and its row groups encoded on the pool
/// (`parquet_out::RowGroups`: dictionaries, encodings and zstd side by side), then appended to the file
/// in the order the inputs were given, so the file is the same whatever finishes first. An input's row
/// groups wait, encoded, until it is complete (a log that fails half-way adds no row) and its turn
/// comes; no input starts more than `2 x threads` places ahead of the one being written, so the
/// waiting is bounded.
fn one_parquet(
    args: &Args,
    sel: &Selection,
    names: &[String],
    progress: &Progress,
    failed: &mut Vec<(PathBuf, String)>,
) -> Result<(Done, String), CliError> {
    let mut file = ParallelFile::create(&args.output, args.overwrite)?;
    let (tx, rx) = std::sync::mpsc::channel();
    let files = &args.files;
    let ahead = 2 * rayon::current_num_threads();
    // How many inputs have been written (or failed), for the bound above.
    let turn = (std::sync::Mutex::new(0usize), std::sync::Condvar::new());
    let mut write_error = None;
    let mut lost = 0usize;
    let mut written = 0usize;
    let mut pending: std::collections::BTreeMap<usize, EncodedInput> = Default::default();
    let turn_ref = &turn;
    let encoders: Vec<RowGroups> = (0..files.len()).map(|_| file.encoder()).collect();
    rayon::in_place_scope(|scope| {
        for (i, ((f, name), groups)) in files.iter().zip(names).zip(encoders).enumerate() {
            let tx = tx.clone();
            scope.spawn(move |_| {
                {
                    let (m, c) = turn_ref;
                    let mut done = m.lock().unwrap_or_else(|e| e.into_inner());
                    while i >= *done + ahead {
                        done = c.wait(done).unwrap_or_else(|e| e.into_inner());
                    }
                }
                let fp = progress.file(input::size(f));
                let mut out = Out::Encode(Box::new((groups, Stream::new(name))));
                let r = stream_into(f, name, &fp, sel, progress, &mut out).and_then(|lost| {
                    let Out::Encode(o) = out else {
                        unreachable!("made above")
                    };
                    let (mut groups, mut stream) = *o;
                    stream.flush(&mut groups)?;
                    Ok((groups.groups, lost))
                });
                let _ = tx.send((i, r, fp.detach(), input::size(f)));
            });
        }
        drop(tx);
        let mut next = 0;
        for (i, r, read, size) in rx {
            pending.insert(i, (r, read, size));
            while let Some((r, read, size)) = pending.remove(&next) {
                let fp = progress.file_resumed(size, read);
                match r {
                    Ok((groups, l)) => {
                        lost += usize::from(l);
                        if write_error.is_none() {
                            let any = !groups.is_empty();
                            match file.append(groups) {
                                Ok(()) => written += usize::from(any),
                                Err(e) => write_error = Some(e),
                            }
                        }
                    }
                    Err(e) => failed.push((files[next].clone(), e.to_string())),
                }
                fp.written(1, 1);
                next += 1;
                let (m, c) = &turn;
                *m.lock().unwrap_or_else(|e| e.into_inner()) = next;
                c.notify_all();
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    let rows = file.rows;
    let files_made = if rows > 0 {
        file.close()?;
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
            series: 0,
        },
        summary,
    ))
}

/// One input of `one_parquet`: its row groups and whether it lost data, the bytes counted as read, its
/// size.
type EncodedInput = (Result<(Vec<Encoded>, bool), CliError>, u64, u64);

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
    whole_read_note(
        &args.files,
        if format == OutFormat::Json {
            "--to json"
        } else {
            "merging several inputs into one table"
        },
        progress,
    );
    let results: Vec<Result<ReadForMerge, CliError>> = args
        .files
        .par_iter()
        .zip(names)
        .map(|(f, name)| {
            let size = input::size(f);
            let fp = progress.file(size);
            let l = input::read(f, name, &fp, &sel.open_options())?;
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
            series: merged.series.len(),
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

/// One capture, whole, as a CSV, TSV or JSON file at `path` (Parquet: `parquet_out`).
pub fn write_table(
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
