//! Inputs: files read in chunks into the core's `CaptureReader` (gzip undone on the way, recognised by
//! its magic bytes, not the name), many files at once on rayon's pool; what the reader says about lost
//! data; and telling a log from other files (`--pack junk.blg`, `check` on a log).

use crate::error::CliError;
use crate::progress::{FileProgress, Progress};
use counterlens::capture::{Capture, CaptureReader, Note, OpenOptions};
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

/// The reader's notes that mean data was lost: the file ends early (`truncated`, a `cut-short` last
/// line or record), the log was `not-closed` or its trailer counts other samples, or rows or raw values
/// were unreadable and became gaps. Printed by `convert` and `analyze` always; `--strict` exits 1.
pub const LOSS: [&str; 6] = [
    "truncated",
    "cut-short",
    "not-closed",
    "sample-count",
    "bad-rows",
    "unreadable-raw",
];

pub fn losses(c: &Capture) -> impl Iterator<Item = &Note> {
    c.notes.iter().filter(|n| LOSS.contains(&n.code))
}

/// What a file is when it reads as a perfmon log (its format), from its first 256 KiB; None otherwise.
pub fn log_format(path: &Path) -> Option<&'static str> {
    let mut head = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(256 << 10).read_to_end(&mut head).ok()?;
    counterlens::capture::open_capture(&head, &OpenOptions::default())
        .ok()
        .map(|c| c.format)
}

/// Reads one file as `source`; `progress` counts the bytes read from disk.
pub fn read(path: &Path, source: &str, progress: &FileProgress<'_>) -> Result<Loaded, CliError> {
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
        size_hint: (!gzip).then_some(size as usize),
        ..OpenOptions::default()
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
        source: source.to_string(),
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
        .map(|(f, name)| read(f, name, &progress.file(size(f))))
        .collect()
}
