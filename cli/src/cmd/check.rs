//! `check`: counter-set registrations (manifest, binary block, JSON) validated by the core's rules, for
//! a provider's CI; exit 1 on any error. A performance log given by mistake is said to be one, once,
//! rather than validated as a registration.

use super::{record_failure, report_failures, write_json_docs};
use crate::error::CliError;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// One JSON document (an array, one report per file) on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Checked {
    file: String,
    #[serde(flatten)]
    report: counterlens::registration::Report,
}

fn check_one(f: &Path) -> Result<counterlens::registration::Report, CliError> {
    if let Some(format) = crate::input::log_format(f) {
        return Err(CliError::Usage(format!(
            "{}: this is a performance log ({format}), not a registration (a manifest, a binary counter-set block or registration JSON); `counterlens info` describes logs",
            f.display()
        )));
    }
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
}

pub fn run(args: &Args, _quiet: bool) -> Result<ExitCode, CliError> {
    use rayon::prelude::*;
    let results: Vec<Result<counterlens::registration::Report, CliError>> =
        args.files.par_iter().map(|f| check_one(f)).collect();
    let mut errors = 0usize;
    let mut failed = Vec::new();
    let mut docs = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (f, r) in args.files.iter().zip(results) {
        match r {
            Ok(report) => {
                errors += report.errors;
                if args.json {
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
            Err(e) => record_failure(args.json.then_some(&mut docs), &mut failed, f, &e),
        }
    }
    if args.json {
        write_json_docs(&mut out, &docs)?;
    }
    report_failures(&failed, args.files.len());
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
