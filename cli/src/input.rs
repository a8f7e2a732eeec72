//! Inputs: files read in chunks into the core's `CaptureReader` (gzip undone on the way, recognised by
//! its magic bytes, not the name), many files at once on rayon's pool, progress on a terminal only.

use crate::error::CliError;
use counterlens::capture::{Capture, CaptureErrorKind, CaptureReader, OpenOptions};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// One capture read from one file.
pub struct Loaded {
    pub path: PathBuf,
    /// The file name, as the Parquet `source` column gives it.
    pub source: String,
    pub capture: Capture,
}

const CHUNK: usize = 1 << 20;

/// A progress bar over `total` bytes on stderr when stderr is a terminal; hidden otherwise.
pub fn progress(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

pub fn source_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Reads the part of one file that `part` asks for (its `series`, `from_ms`, `to_ms`: the core's
/// reader skips the rest without storing it; `OpenOptions::default()` for all of it); `bar` advances by
/// the bytes read from disk.
pub fn read_part(path: &Path, bar: &ProgressBar, part: &OpenOptions) -> Result<Loaded, CliError> {
    match read_options(path, bar, part) {
        // Nothing of this file is in the part (no series matches, no sample in the window): read it
        // whole, as before the core could skip, and the selection leaves it empty.
        Err(CliError::Capture { source, .. }) if source.kind == CaptureErrorKind::InvalidOption => {
            read_options(path, bar, &OpenOptions::default())
        }
        r => r,
    }
}

fn read_options(path: &Path, bar: &ProgressBar, part: &OpenOptions) -> Result<Loaded, CliError> {
    let io = |e| CliError::Io {
        file: path.to_path_buf(),
        source: e,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let mut magic = [0u8; 2];
    let got = read_full(&mut file, &mut magic).map_err(io)?;
    let gzip = got == 2 && magic == [0x1f, 0x8b];
    bar.inc(got as u64);
    let counted = Counted { inner: file, bar };
    let head = std::io::Cursor::new(magic[..got].to_vec());
    let mut stream: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(head.chain(counted)))
    } else {
        Box::new(head.chain(counted))
    };
    let options = OpenOptions {
        // A gzip file's size says little about the text inside.
        size_hint: (!gzip).then_some(size as usize),
        ..part.clone()
    };
    let capture_error = |source| CliError::Capture {
        file: path.to_path_buf(),
        source,
    };
    let mut reader = CaptureReader::new(&options).map_err(capture_error)?;
    let mut buf = vec![0u8; CHUNK];
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
    }
    let capture = reader.finish().map_err(capture_error)?;
    Ok(Loaded {
        path: path.to_path_buf(),
        source: source_name(path),
        capture,
    })
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

/// A reader that advances the progress bar by what it reads.
struct Counted<'a, R> {
    inner: R,
    bar: &'a ProgressBar,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

/// Total size on disk of the files (0 for those that cannot be stat'ed; they fail when read).
pub fn total_size(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}

/// Reads every file on rayon's pool (one file per thread), results in the order given.
pub fn read_all(files: &[PathBuf], quiet: bool) -> Vec<Result<Loaded, CliError>> {
    read_all_part(files, quiet, &OpenOptions::default())
}

/// `read_all`, each file read as `read_part` reads it.
pub fn read_all_part(
    files: &[PathBuf],
    quiet: bool,
    part: &OpenOptions,
) -> Vec<Result<Loaded, CliError>> {
    let bar = progress(total_size(files), quiet);
    let out = files.par_iter().map(|f| read_part(f, &bar, part)).collect();
    bar.finish_and_clear();
    out
}
