//! Inputs: a folder given as an input becomes the logs under it (`logs_in`); files read in chunks into
//! the core's `CaptureReader` (gzip undone on the way, recognised by its magic bytes, not the name), many
//! files at once on rayon's pool; what the reader says about lost data; and telling a log from other
//! files (`--pack junk.blg`, `check` on a log).

use crate::error::CliError;
use crate::progress::{FileProgress, Progress};
use counterlens::capture::{Capture, CaptureErrorKind, CaptureReader, Format, Note, OpenOptions};
use rayon::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One capture read from one file.
pub struct Loaded {
    pub path: PathBuf,
    /// The input's name below the inputs' common folder (`naming::relative_names`), as the Parquet
    /// `source` column gives it.
    pub source: String,
    pub capture: Capture,
}

const CHUNK: usize = 1 << 20;

/// Folder levels walked below a folder given as an input (and below an MCP root).
pub const MAX_DEPTH: usize = 12;

/// Whether a file's name says it is a log: `.blg`, `.csv`, `.tsv`, `.json` or `.txt` (what Perfmon,
/// relog, typeperf and Get-Counter write), gzip-compressed or not. Only folders are filtered by it: a
/// file named on the command line is read whatever its name.
pub fn looks_like_log(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let n = n.strip_suffix(".gz").unwrap_or(&n);
    [".blg", ".csv", ".tsv", ".json", ".txt"]
        .iter()
        .any(|e| n.ends_with(e))
}

/// The inputs with each folder replaced by the logs under it (`logs_in_folder`), in the order given;
/// files stay as named. A text file found in a folder (`.csv`, `.tsv`, `.json`, `.txt`) whose start is
/// no log's (a spreadsheet's CSV, a report's JSON) is left out with a warning on stderr saying why;
/// a file named on the command line is always read, and a `.blg` always taken (a damaged one is read
/// for what it holds). `outputs` are the command's own output paths: a folder among them is not
/// walked and a file among them not taken, so that a second run of `analyze logs/ --json logs/out/`
/// or `convert logs/ -o logs/all.csv` does not read the first run's output as a log. A folder with no
/// log under it is a usage error that says what was looked for.
pub fn logs_in(inputs: &[PathBuf], outputs: &[&Path]) -> Result<Vec<PathBuf>, CliError> {
    let skip: Vec<PathBuf> = outputs
        .iter()
        .filter_map(|o| o.canonicalize().ok())
        .collect();
    let mut files = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            files.push(input.clone());
            continue;
        }
        let before = files.len();
        let mut seen = std::collections::HashSet::new();
        let mut found = Vec::new();
        logs_in_folder(input, 0, &skip, &mut seen, &mut found);
        // Each text file's start read on the pool (the order kept): a few KiB each.
        let checked: Vec<Result<Format, String>> = found
            .par_iter()
            .map(|f| {
                let name = f
                    .file_name()
                    .map(|n| n.to_string_lossy().to_ascii_lowercase());
                match name {
                    Some(n) if n.ends_with(".blg") || n.ends_with(".blg.gz") => Ok(Format::Blg),
                    _ => format_or_why(f),
                }
            })
            .collect();
        for (f, check) in found.into_iter().zip(checked) {
            match check {
                Ok(_) => files.push(f),
                Err(why) => {
                    crate::say!("counterlens: warning: left out, it does not read as a log: {why}")
                }
            }
        }
        if files.len() == before {
            return Err(CliError::Usage(format!(
                "{}: no log in this folder or below it (names ending .blg, .csv, .tsv, .json or \
                 .txt, gzip-compressed too; {MAX_DEPTH} levels deep at most)",
                input.display()
            )));
        }
    }
    Ok(files)
}

/// The logs under `dir`, sorted by name level by level, so that a run over a folder is the same run
/// every time. Hidden entries (a leading `.`) are skipped; a folder reached twice (through a link) is
/// walked once.
fn logs_in_folder(
    dir: &Path,
    depth: usize,
    skip: &[PathBuf],
    seen: &mut std::collections::HashSet<PathBuf>,
    files: &mut Vec<PathBuf>,
) {
    let Ok(canonical) = dir.canonicalize() else {
        return;
    };
    if depth > MAX_DEPTH || skip.contains(&canonical) || !seen.insert(canonical) {
        return;
    }
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some(name) = name.filter(|n| !n.starts_with('.')) else {
            continue;
        };
        if p.is_dir() {
            logs_in_folder(&p, depth + 1, skip, seen, files);
        } else if p.is_file()
            && looks_like_log(&name)
            && !p.canonicalize().is_ok_and(|c| skip.contains(&c))
        {
            files.push(p);
        }
    }
}

/// The reader's notes that mean data was lost: the file ends early (`truncated`, a `cut-short` last
/// line or record), the trailer counts other samples than the log holds, or rows or raw values were
/// unreadable and became gaps. Printed by `convert` and `analyze` always; `--strict` exits 1. A log
/// that was only `not-closed` (no trailer, every buffer whole: BasicPerfCounters) lost nothing: where
/// a log without a trailer was also cut, the cut has its own note.
pub const LOSS: [&str; 5] = [
    "truncated",
    "cut-short",
    "sample-count",
    "bad-rows",
    "unreadable-raw",
];

pub fn losses(notes: &[Note]) -> impl Iterator<Item = &Note> {
    notes.iter().filter(|n| LOSS.contains(&n.code))
}

/// What a file is when it reads as a perfmon log (its format), from its first 256 KiB; None otherwise.
pub fn log_format(path: &Path) -> Option<&'static str> {
    let mut head = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(256 << 10).read_to_end(&mut head).ok()?;
    counterlens::capture::open_capture(&head, &OpenOptions::default())
        .ok()
        .map(|c| c.format_name())
}

/// Reads the part of one file that `part` asks for (its `series`, `from_ms`, `to_ms`: the core's
/// reader skips the rest without storing it; `OpenOptions::default()` for all of it) as `source`;
/// `progress` counts the bytes read from disk.
pub fn read(
    path: &Path,
    source: &str,
    progress: &FileProgress<'_>,
    part: &OpenOptions,
) -> Result<Loaded, CliError> {
    match read_options(path, source, progress, part) {
        // Nothing of this file is in the part (no series matches, no sample in the window): read it
        // whole, as before the core could skip, and the selection leaves it empty (with its warning).
        Err(CliError::Capture { source: e, .. }) if e.kind == CaptureErrorKind::InvalidOption => {
            read_options(path, source, progress, &OpenOptions::default())
        }
        r => r,
    }
}

fn read_options(
    path: &Path,
    source: &str,
    progress: &FileProgress<'_>,
    part: &OpenOptions,
) -> Result<Loaded, CliError> {
    let (reader, _) = pump(path, progress, part, true, CHUNK, &mut |_, _| Ok(()))?;
    let capture = reader.finish().map_err(|source| CliError::Capture {
        file: path.to_path_buf(),
        source,
    })?;
    Ok(Loaded {
        path: path.to_path_buf(),
        source: source.to_string(),
        capture,
    })
}

/// Bytes read between two takes of rows when streaming (`stream`): about 8 MiB of input's rows held.
const TAKE: u64 = 8 << 20;

/// The bytes read between takes: `TAKE`, or `COUNTERLENS_STREAM_BYTES` (a test's and benchmark's
/// knob: 0 takes the rows only at the end, as one piece: the whole capture).
fn take_every() -> u64 {
    std::env::var("COUNTERLENS_STREAM_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(TAKE)
}

/// What `stream` hands each take of rows to: the rows, and the order of the series met.
pub type Each<'a> = dyn FnMut(Capture, &[usize]) -> Result<(), CliError> + 'a;

/// Streams one file: every few MiB of input, the rows read so far are taken out of the reader
/// (`CaptureReader::take_rows`) and handed to `each` with the order of the series met
/// (`series_order`); the last rows come with the log's notes, which are returned. Memory holds the rows
/// of a few MiB of input, not the log.
pub fn stream(
    path: &Path,
    progress: &FileProgress<'_>,
    part: &OpenOptions,
    each: &mut Each<'_>,
) -> Result<Vec<Note>, CliError> {
    let every = take_every();
    let mut since = 0u64;
    let mut take = |reader: &mut CaptureReader, n: u64| -> Result<(), CliError> {
        since += n;
        if every == 0 || since < every {
            return Ok(());
        }
        since = 0;
        match reader.take_rows() {
            Some(c) => each(c, &reader.series_order()),
            None => Ok(()),
        }
    };
    let options = OpenOptions {
        size_hint: None, // the columns hold a few MiB of rows at a time: nothing to reserve
        ..part.clone()
    };
    // Chunks no longer than a take, so a take holds what the knob says.
    let chunk = if every == 0 {
        CHUNK
    } else {
        CHUNK.min(every as usize)
    };
    let (reader, _) = pump(path, progress, &options, false, chunk, &mut take)?;
    let (mut last, order) = reader.finish_rows().map_err(|source| CliError::Capture {
        file: path.to_path_buf(),
        source,
    })?;
    let notes = std::mem::take(&mut last.notes);
    each(last, &order)?;
    Ok(notes)
}

/// The format of a file, from its start (gzip undone); None when it does not read as a log.
pub fn format_of(path: &Path) -> Option<Format> {
    format_or_why(path).ok()
}

/// The format of a file from its start (read 16 KiB at a time until the reader knows; gzip undone), or
/// why it is no log's (the reader's message, with its line and column).
fn format_or_why(path: &Path) -> Result<Format, String> {
    let progress = Progress::new(&[], true);
    let fp = progress.file(0);
    let mut format = None;
    let mut peek = |r: &mut CaptureReader, _: u64| {
        format = r.format();
        // Stop reading once the format is known (a made-up error, never shown).
        if format.is_some() {
            return Err(CliError::Usage(String::new()));
        }
        Ok(())
    };
    let read = pump(
        path,
        &fp,
        &OpenOptions::default(),
        false,
        16 << 10,
        &mut peek,
    );
    match (format, read) {
        (Some(f), _) => Ok(f),
        (None, Err(e)) => Err(e.to_string()),
        // The whole file was read and the reader waits for its end to decide (a small file).
        (None, Ok((reader, _))) => match reader.finish() {
            Ok(c) => c
                .format
                .ok_or_else(|| format!("{}: no perfmon log in it", path.display())),
            Err(source) => Err(CliError::Capture {
                file: path.to_path_buf(),
                source,
            }
            .to_string()),
        },
    }
}

/// Reads a capture from bytes in memory (gzip undone, recognised by its magic bytes, as for files);
/// `name` names it in errors.
pub fn read_bytes(bytes: &[u8], name: &str, part: &OpenOptions) -> Result<Capture, CliError> {
    let gzip = bytes.starts_with(&[0x1f, 0x8b]);
    let capture_error = |source| CliError::Capture {
        file: name.into(),
        source,
    };
    let options = OpenOptions {
        size_hint: (!gzip).then_some(bytes.len()),
        ..part.clone()
    };
    let mut reader = CaptureReader::new(&options).map_err(capture_error)?;
    if gzip {
        let mut stream = flate2::read::MultiGzDecoder::new(bytes);
        let mut buf = vec![0u8; CHUNK];
        loop {
            let n = match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(CliError::Io {
                        file: name.into(),
                        source: std::io::Error::new(
                            e.kind(),
                            format!("byte {} of the gzip data: {e}", reader.bytes()),
                        ),
                    })
                }
            };
            reader.push(&buf[..n]).map_err(capture_error)?;
        }
    } else {
        for chunk in bytes.chunks(CHUNK) {
            reader.push(chunk).map_err(capture_error)?;
        }
    }
    reader.finish().map_err(capture_error)
}

/// Pushes a file's bytes (gzip undone) through a new reader, calling `after(reader, bytes)` after each
/// chunk; returns the reader and whether the file was gzip.
fn pump(
    path: &Path,
    progress: &FileProgress<'_>,
    part: &OpenOptions,
    size_hint: bool,
    chunk: usize,
    after: &mut dyn FnMut(&mut CaptureReader, u64) -> Result<(), CliError>,
) -> Result<(CaptureReader, bool), CliError> {
    let io = |e| CliError::Io {
        file: path.to_path_buf(),
        source: e,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let mut magic = [0u8; 2];
    let got = read_full(&mut file, &mut magic).map_err(io)?;
    let gzip = got == 2 && magic == [0x1f, 0x8b];
    progress.read(got as u64);
    let counted = Counted {
        inner: file,
        progress,
    };
    let head = std::io::Cursor::new(magic[..got].to_vec());
    let mut stream: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(head.chain(counted)))
    } else {
        Box::new(head.chain(counted))
    };
    let options = OpenOptions {
        // A gzip file's size says little about the text inside.
        size_hint: (size_hint && !gzip).then_some(size as usize),
        ..part.clone()
    };
    let capture_error = |source| CliError::Capture {
        file: path.to_path_buf(),
        source,
    };
    let mut reader = CaptureReader::new(&options).map_err(capture_error)?;
    let mut buf = vec![0u8; chunk.max(1)];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let what = if gzip {
                    std::io::Error::new(
                        e.kind(),
                        format!("byte {} of the gzip data: {e}", reader.bytes()),
                    )
                } else {
                    e
                };
                return Err(io(what));
            }
        };
        reader.push(&buf[..n]).map_err(capture_error)?;
        after(&mut reader, n as u64)?;
    }
    Ok((reader, gzip))
}

fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A reader that counts what it reads.
struct Counted<'a, 'p, R> {
    inner: R,
    progress: &'a FileProgress<'p>,
}

impl<R: Read> Read for Counted<'_, '_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.read(n as u64);
        Ok(n)
    }
}

/// The size of a file on disk (0 when it cannot be stat'ed; it fails when read).
pub fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Reads every file on rayon's pool (one file per thread), results in the order given; each input is
/// done for `progress` once read (for commands whose work after reading is small).
pub fn read_all(
    files: &[PathBuf],
    names: &[String],
    progress: &Progress,
) -> Vec<Result<Loaded, CliError>> {
    files
        .par_iter()
        .zip(names)
        .map(|(f, name)| read(f, name, &progress.file(size(f)), &OpenOptions::default()))
        .collect()
}
