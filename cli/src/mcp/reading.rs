//! Reading logs for the tools, within bounds: a time bound per call (checked after every chunk read, so
//! a slow read stops with an error that says so), a size bound on whole reads (a log over it must be
//! read in part: some series, a time range), a budget on the columns held (the core's `too-large`), and
//! a cache of catalogues (the counting pass that lists a log without its values) per file, kept while
//! the file's size and modification time stay the same.

use super::error::McpError;
use super::roots::LogFile;
use counterlens::capture::{
    Capture, CaptureError, CaptureErrorKind, CaptureReader, Catalogue, CatalogueReader, OpenOptions,
};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// Bytes read from the file per chunk (the time bound is checked between chunks).
const CHUNK: usize = 1 << 20;
/// Catalogues kept (a root of more logs starts the cache again).
const CACHED: usize = 512;

/// The bounds of the server, from its options.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub timeout: Duration,
    /// The largest file read whole (analyze, summary, a finding's explanation, a resource).
    pub max_log_bytes: u64,
    /// The most bytes of columns one read may hold (timestamps and one f64 per series and sample).
    pub max_column_bytes: usize,
}

/// A call's clock: started when the call comes in, checked where work can stop.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    limit: Duration,
}

impl Deadline {
    pub fn new(limit: Duration) -> Deadline {
        Deadline {
            start: Instant::now(),
            limit,
        }
    }

    pub fn seconds(&self) -> u64 {
        self.limit.as_secs()
    }

    pub fn over(&self) -> bool {
        self.start.elapsed() > self.limit
    }

    /// An error when the time is up, saying what was being done.
    pub fn check(&self, what: impl FnOnce() -> String) -> Result<(), McpError> {
        if self.over() {
            return Err(McpError::TimeBound {
                seconds: self.seconds(),
                what: what(),
            });
        }
        Ok(())
    }
}

/// The bytes of a file, gzip undone (recognised by its magic bytes, as `input` does).
fn source(path: &Path) -> Result<Box<dyn Read>, McpError> {
    let io = |source| McpError::Io {
        file: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut magic = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match file.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(e)),
        }
    }
    let head = std::io::Cursor::new(magic[..got].to_vec());
    Ok(if got == 2 && magic == [0x1f, 0x8b] {
        Box::new(flate2::read::MultiGzDecoder::new(head.chain(file)))
    } else {
        Box::new(head.chain(file))
    })
}

/// Pushes a file's bytes through `push` chunk by chunk, checking the deadline after each.
fn pump(
    log: &LogFile,
    deadline: &Deadline,
    push: &mut dyn FnMut(&[u8]) -> Result<(), CaptureError>,
) -> Result<(), McpError> {
    let mut stream = source(&log.path)?;
    let mut buf = vec![0u8; CHUNK];
    let mut read = 0u64;
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(McpError::Io {
                    file: PathBuf::from(&log.rel),
                    source,
                })
            }
        };
        read += n as u64;
        push(&buf[..n]).map_err(|source| McpError::Capture {
            file: PathBuf::from(&log.rel),
            source,
        })?;
        deadline.check(|| format!("reading {}: {read} of its {} bytes read", log.rel, log.size))?;
    }
}

/// What part of a log to read.
#[derive(Clone, Debug, Default)]
pub struct Part {
    /// Perfmon wildcard paths; None: every series (a whole read, refused over `max_log_bytes`).
    pub series: Option<Vec<counterlens::capture::PathPattern>>,
    /// ms UTC, inclusive.
    pub from_ms: Option<f64>,
    pub to_ms: Option<f64>,
    /// Keep the raw samples of the series read (to explain a point).
    pub keep_raw: bool,
}

/// Reads the part of a log asked for, within the bounds. A pattern that matches no series is
/// `NoMatch`; a window without samples is an argument error.
pub fn read(
    log: &LogFile,
    part: &Part,
    bounds: &Bounds,
    deadline: &Deadline,
) -> Result<Capture, McpError> {
    if part.series.is_none() && log.size > bounds.max_log_bytes {
        return Err(McpError::TooLarge {
            log: log.rel.clone(),
            size: log.size,
            bound: bounds.max_log_bytes,
        });
    }
    let options = OpenOptions {
        series: part.series.clone(),
        from_ms: part.from_ms,
        to_ms: part.to_ms,
        keep_raw: if part.keep_raw {
            counterlens::capture::KeepRaw::All
        } else {
            counterlens::capture::KeepRaw::None
        },
        max_column_bytes: Some(bounds.max_column_bytes),
        ..OpenOptions::default()
    };
    let wrap = |source| McpError::Capture {
        file: PathBuf::from(&log.rel),
        source,
    };
    let mut reader = CaptureReader::new(&options).map_err(wrap)?;
    let pumped = pump(log, deadline, &mut |chunk| reader.push(chunk));
    let capture = pumped.and_then(|()| reader.finish().map_err(wrap));
    match capture {
        Err(McpError::Capture { source: e, .. }) if e.kind == CaptureErrorKind::InvalidOption => {
            match e.field {
                Some("series") => Err(McpError::NoMatch {
                    log: log.rel.clone(),
                    pattern: part
                        .series
                        .iter()
                        .flatten()
                        .map(|p| p.as_str().to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                }),
                _ => Err(McpError::argument(format!(
                    "from/to: no sample of {} is in the time range asked for ({})",
                    log.rel, e.message
                ))),
            }
        }
        r => r,
    }
}

/// Catalogues read during the session, by file.
#[derive(Default)]
pub struct Catalogues {
    cache: HashMap<PathBuf, (u64, Option<SystemTime>, Catalogue)>,
}

impl Catalogues {
    /// The catalogue of a log: from the cache while the file is unchanged, else read (a counting pass
    /// over the whole file: its memory is the series' names, whatever the log's length).
    pub fn get(&mut self, log: &LogFile, deadline: &Deadline) -> Result<&Catalogue, McpError> {
        let mtime = std::fs::metadata(&log.path)
            .ok()
            .and_then(|m| m.modified().ok());
        let fresh = self
            .cache
            .get(&log.path)
            .is_some_and(|(size, t, _)| *size == log.size && *t == mtime);
        if !fresh {
            let wrap = |source| McpError::Capture {
                file: PathBuf::from(&log.rel),
                source,
            };
            let mut reader = CatalogueReader::new(&OpenOptions::default()).map_err(wrap)?;
            pump(log, deadline, &mut |chunk| reader.push(chunk))?;
            let catalogue = reader.finish().map_err(wrap)?;
            if self.cache.len() >= CACHED {
                self.cache.clear();
            }
            self.cache
                .insert(log.path.clone(), (log.size, mtime, catalogue));
        }
        Ok(&self.cache[&log.path].2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_past_its_time_bound_stops_and_says_so() {
        let log = LogFile {
            root: 0,
            rel: "pal.blg".into(),
            path: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/vectors/captures/PAL_SampleLog.blg"),
            size: 458_752,
        };
        let bounds = Bounds {
            timeout: Duration::ZERO,
            max_log_bytes: u64::MAX,
            max_column_bytes: usize::MAX,
        };
        let late = Deadline::new(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        let e = read(&log, &Part::default(), &bounds, &late).unwrap_err();
        assert!(matches!(e, McpError::TimeBound { .. }), "{e}");
        assert!(
            e.to_string().contains("reading pal.blg: ") && e.to_string().contains("--timeout"),
            "{e}"
        );
        let e = Catalogues::default()
            .get(&log, &late)
            .map(|_| ())
            .unwrap_err();
        assert!(matches!(e, McpError::TimeBound { .. }));
        // In time: read whole.
        let c = read(
            &log,
            &Part::default(),
            &bounds,
            &Deadline::new(Duration::from_secs(60)),
        )
        .unwrap();
        assert_eq!(c.timestamps.len(), 11);
    }
}
