//! The subcommands, one file each, and what they share: the closing summary of failed inputs, the
//! lost-data notes (`--strict`), and `--json` documents on stdout.

pub mod analyze;
pub mod baseline;
pub mod check;
pub mod convert;
pub mod info;
pub mod template;

use crate::error::CliError;
use crate::input::Loaded;
use crate::progress::Progress;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Prints the failures of a run and says which inputs failed.
pub fn report_failures(failed: &[(PathBuf, String)], total: usize) {
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

/// Prints the notes of a log that mean lost data (always, `-q` or not); returns how many there were.
pub fn report_losses(l: &Loaded, progress: &Progress) -> usize {
    report_lost_notes(&l.source, &l.capture.notes, progress)
}

/// `report_losses` for a log's notes (a streamed log's come at its end).
pub fn report_lost_notes(
    source: &str,
    notes: &[counterlens::capture::Note],
    progress: &Progress,
) -> usize {
    let mut n = 0;
    for note in crate::input::losses(notes) {
        progress.println(format!(
            "counterlens: warning: {source}: data lost: [{}] {}",
            note.code, note.message
        ));
        n += 1;
    }
    n
}

/// The closing line about lost data: with `--strict` the run fails.
pub fn strict_summary(inputs_with_losses: usize, strict: bool) -> bool {
    if inputs_with_losses > 0 && strict {
        say!("counterlens: --strict: {inputs_with_losses} inputs lost data (the notes above)");
        return true;
    }
    false
}

#[derive(Serialize)]
struct Failed {
    file: String,
    error: String,
}

/// A file that could not be read: listed for the closing summary, and as a `{file, error}` entry of
/// the `--json` output when there is one.
pub fn record_failure(
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
pub fn write_json_docs(out: &mut impl Write, docs: &[serde_json::Value]) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, docs).map_err(|e| CliError::Io {
        file: "stdout".into(),
        source: e.into(),
    })?;
    writeln!(out).map_err(CliError::io("stdout"))
}

/// The names of the inputs (`naming::relative_names`); the same file given twice is a usage error.
pub fn input_names(files: &[PathBuf]) -> Result<Vec<String>, CliError> {
    let names = crate::naming::relative_names(files);
    if let Some(n) = crate::naming::repeated(&names) {
        return Err(CliError::Usage(format!("the input {n} is given twice")));
    }
    Ok(names)
}
