//! Progress on stderr (a terminal only) that tells the truth about the whole pipeline: each input's bytes
//! count half when read from disk and half as its rows are written (or its analysis is done), so the
//! bar does not race to the end while reading and then freeze while encoding. It shows files done of
//! the total, bytes, the rate and the ETA, and stays on screen at 100% at the end.
//!
//! Messages printed while it runs go through `println`, above the bar.

use indicatif::{ProgressBar, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

pub struct Progress {
    bar: ProgressBar,
    /// Input bytes in total, and half-bytes through the pipeline (read + written).
    total: u64,
    halves: AtomicU64,
    files: usize,
    done: AtomicUsize,
}

impl Progress {
    /// Over `files` (their sizes on disk); hidden when `quiet` or stderr is not a terminal.
    pub fn new(files: &[PathBuf], quiet: bool) -> Progress {
        let total = files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum();
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {percent:>3}%  {msg}  {bytes}/{total_bytes}  {bytes_per_sec}  ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        };
        let p = Progress {
            bar,
            total,
            halves: AtomicU64::new(0),
            files: files.len(),
            done: AtomicUsize::new(0),
        };
        p.draw();
        p
    }

    /// Input bytes through the whole pipeline so far.
    pub fn position(&self) -> u64 {
        (self.halves.load(Ordering::Relaxed) / 2).min(self.total)
    }

    pub fn files_done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    fn add(&self, halves: u64) {
        self.halves.fetch_add(halves, Ordering::Relaxed);
        self.draw();
    }

    fn draw(&self) {
        self.bar.set_position(self.position());
        self.bar
            .set_message(format!("{}/{} files", self.files_done(), self.files));
    }

    /// One input's share, for the thread that reads and writes it.
    pub fn file(&self, size: u64) -> FileProgress<'_> {
        FileProgress {
            p: self,
            size,
            read: Cell::new(0),
            written: Cell::new(0),
            detached: Cell::new(false),
        }
    }

    /// The share of an input whose `read` bytes were counted by a `FileProgress` since detached (read
    /// on one thread, written on another).
    pub fn file_resumed(&self, size: u64, read: u64) -> FileProgress<'_> {
        let f = self.file(size);
        f.read.set(read.min(size));
        f
    }

    /// A line above the bar (or on stderr when there is none).
    pub fn println(&self, line: String) {
        if self.bar.is_hidden() {
            say!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Every input is through: 100%, left on screen.
    pub fn finish(&self) {
        self.bar.set_position(self.total);
        self.bar
            .set_message(format!("{}/{} files", self.files_done(), self.files));
        self.bar.finish();
    }
}

/// One input's progress: bytes read, then the share of its rows written. When dropped (done, or failed)
/// whatever it has not counted is counted, so the whole reaches 100% exactly.
pub struct FileProgress<'a> {
    p: &'a Progress,
    size: u64,
    read: Cell<u64>,
    written: Cell<u64>,
    detached: Cell<bool>,
}

impl FileProgress<'_> {
    /// Stops here without counting the input done (`Progress::file_resumed` carries on); returns the
    /// bytes read.
    pub fn detach(self) -> u64 {
        self.detached.set(true);
        self.read.get()
    }

    /// Bytes read from disk (never more than the file's size as it was when the run began).
    pub fn read(&self, n: u64) {
        let add = n.min(self.size - self.read.get());
        self.read.set(self.read.get() + add);
        self.p.add(add);
    }

    /// Streaming: the rows of every byte read so far are written.
    pub fn written_as_read(&self) {
        self.written(self.read.get(), self.size);
    }

    /// `done` of `total` rows written: that share of the input's bytes is through.
    pub fn written(&self, done: u64, total: u64) {
        let target = if total == 0 {
            self.size
        } else {
            (u128::from(self.size) * u128::from(done.min(total)) / u128::from(total)) as u64
        };
        if target > self.written.get() {
            self.p.add(target - self.written.get());
            self.written.set(target);
        }
    }
}

impl Drop for FileProgress<'_> {
    fn drop(&mut self) {
        if self.detached.get() {
            return;
        }
        let rest = 2 * self.size - self.read.get() - self.written.get();
        self.p.done.fetch_add(1, Ordering::Relaxed);
        self.p.add(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pipeline_counts_reading_and_writing_and_ends_at_100_percent() {
        let dir = std::env::temp_dir().join(format!("counterlens-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, vec![0u8; 1000]).unwrap();
        std::fs::write(&b, vec![0u8; 3000]).unwrap();
        let p = Progress::new(&[a, b], true);
        {
            let f = p.file(1000);
            f.read(1000);
            // Read but nothing written: half of its 1000 bytes are through.
            assert_eq!(p.position(), 500);
            f.written(1, 4);
            // A quarter of its rows: 250 more half-bytes, 1250 / 2 = 625.
            assert_eq!(p.position(), 625);
            f.written(4, 4);
            assert_eq!(p.position(), 1000);
            assert_eq!(p.files_done(), 0);
        }
        assert_eq!(p.files_done(), 1);
        {
            // A file that fails after 100 bytes still counts whole when it is done.
            let f = p.file(3000);
            f.read(100);
            // (2000 + 100) / 2
            assert_eq!(p.position(), 1050);
        }
        assert_eq!((p.position(), p.files_done()), (4000, 2));
        // Read on one thread, written on another: counted once.
        let p = Progress::new(&[dir.join("a")], true);
        let read = {
            let f = p.file(1000);
            f.read(1000);
            f.detach()
        };
        assert_eq!((p.position(), p.files_done(), read), (500, 0, 1000));
        let f = p.file_resumed(1000, read);
        f.written(1, 2);
        assert_eq!(p.position(), 750);
        drop(f);
        assert_eq!((p.position(), p.files_done()), (1000, 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
