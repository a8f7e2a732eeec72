//! `analyze`: the core's analysis (docs/analysis.md) over logs, PAL in batch. Packs are built-in ids,
//! rule-pack JSON files or PAL threshold XML files (imported together, so `<INHERITANCE>` between the
//! given files resolves); one report for all inputs (merged as `convert` merges them), or one per input
//! when the output given is a directory. `--fail-on` turns findings into an exit code.

use crate::error::CliError;
use crate::input::Loaded;
use crate::time::iso;
use counterlens::analysis::{
    self, pal::import_pal, AnalyzeOptions, PackRef, RulePack, Severity, SliceLength, Value,
};
use counterlens::capture::Capture;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Parses `auto` or a duration: a number and a unit (`250ms`, `30s`, `5m` or `5min`, `1h`, `1d`).
pub fn parse_slice(text: &str) -> Option<SliceLength> {
    let t = text.trim().to_ascii_lowercase();
    if t == "auto" {
        return Some(SliceLength::Auto);
    }
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (n, unit) = t.split_at(split);
    let n: f64 = n.parse().ok()?;
    let ms = match unit.trim() {
        "ms" => 1.0,
        "s" | "sec" => 1000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        _ => return None,
    };
    (n > 0.0 && n.is_finite()).then_some(SliceLength::Ms(n * ms))
}

/// `NAME=VALUE`: a number where VALUE reads as one, text otherwise.
pub fn parse_var(text: &str) -> Option<(String, Value)> {
    let (name, value) = text.split_once('=')?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let v = match value.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Value::Number(n),
        _ => Value::Text(value.to_string()),
    };
    Some((name.to_string(), v))
}

fn analysis_error(what: impl Into<PathBuf>) -> impl FnOnce(analysis::AnalysisError) -> CliError {
    let file = what.into();
    move |source| CliError::Analysis { file, source }
}

/// The packs to run: None for the core's default (every built-in pack whose counters the capture has).
/// PAL notes (thresholds left out, missing inherited files) go to `notes`.
pub fn packs(specs: &[String], notes: &mut Vec<String>) -> Result<Option<Vec<PackRef>>, CliError> {
    if specs.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut pal: Vec<(String, String)> = Vec::new();
    for spec in specs {
        let path = Path::new(spec);
        if !path.is_file() {
            if analysis::builtin_packs().iter().any(|p| &p.id == spec) {
                out.push(PackRef::Builtin(spec.clone()));
                continue;
            }
            let ids: Vec<&str> = analysis::builtin_packs()
                .iter()
                .map(|p| p.id.as_str())
                .collect();
            return Err(CliError::Usage(format!(
                "--pack {spec:?}: neither a file nor a built-in pack ({})",
                ids.join(", ")
            )));
        }
        let bytes = std::fs::read(path).map_err(CliError::io(path))?;
        // PAL's files are UTF-8 or UTF-16 with a BOM: decoded by the core's text detection.
        let text = decode(&bytes);
        if text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('<')
        {
            pal.push((source_of(path), text));
        } else {
            out.push(PackRef::Pack(
                RulePack::from_json(&text).map_err(analysis_error(path))?,
            ));
        }
    }
    if !pal.is_empty() {
        let names: Vec<String> = pal.iter().map(|(n, _)| n.clone()).collect();
        let imported = import_pal(&pal).map_err(analysis_error(names.join(", ")))?;
        notes.push(format!(
            "{}: {} of {} PAL thresholds translated into pack {:?}",
            names.join(", "),
            imported.translated,
            imported.total,
            imported.pack.id
        ));
        for u in &imported.untranslated {
            notes.push(format!(
                "PAL {} / {}: left out: {}",
                u.analysis, u.threshold, u.reason
            ));
        }
        for m in &imported.missing_files {
            notes.push(format!("PAL inherits {m}, which was not given"));
        }
        notes.extend(imported.notes.iter().cloned());
        out.push(PackRef::Pack(imported.pack));
    }
    Ok(Some(out))
}

/// Bytes to text with the core's detection (BOM, UTF-8, else the Windows code page chardetng guesses).
fn decode(bytes: &[u8]) -> String {
    use counterlens::capture::text::{detect, TextDecoder};
    match detect(bytes, None, true) {
        Ok(enc) => match TextDecoder::new(enc) {
            Ok(mut d) => {
                let mut out = String::new();
                d.decode(bytes, &mut out, true);
                out
            }
            Err(_) => String::from_utf8_lossy(bytes).into_owned(),
        },
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn source_of(p: &Path) -> String {
    crate::input::source_name(p)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Output<'a> {
    inputs: Vec<String>,
    #[serde(flatten)]
    analysis: &'a analysis::Analysis,
}

/// One analysis: of `inputs` (merged when several), written where asked; returns its findings'
/// highest severity.
pub struct Job {
    pub title: String,
    pub inputs: Vec<String>,
    pub capture: Capture,
    pub html: Option<PathBuf>,
    pub json: Option<PathBuf>,
}

pub fn run(
    job: &Job,
    options: &AnalyzeOptions,
    out: &mut impl Write,
) -> Result<Option<Severity>, CliError> {
    let a = analysis::analyze(&job.capture, options).map_err(analysis_error(&job.title))?;
    if let Some(path) = &job.html {
        let html = analysis::analysis_report(&job.capture, &a, Some(&job.title));
        std::fs::write(path, html).map_err(CliError::io(path))?;
    }
    if let Some(path) = &job.json {
        let doc = Output {
            inputs: job.inputs.clone(),
            analysis: &a,
        };
        let text = serde_json::to_string_pretty(&doc).map_err(|e| CliError::Io {
            file: path.clone(),
            source: e.into(),
        })?;
        std::fs::write(path, text + "\n").map_err(CliError::io(path))?;
    }
    let east = job
        .capture
        .time_zone
        .as_ref()
        .map_or(0, |z| -z.bias_minutes);
    let critical = a
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Critical)
        .count();
    let skipped = a.rules.iter().filter(|r| r.skipped.is_some()).count();
    let w = |e| CliError::Io {
        file: "stdout".into(),
        source: e,
    };
    writeln!(
        out,
        "{}: {} findings ({critical} critical, {} warning) from {} rules ({skipped} skipped: counters not in the log), {} slices",
        job.title,
        a.findings.len(),
        a.findings.len() - critical,
        a.rules.len(),
        a.slices.len()
    )
    .map_err(w)?;
    for f in &a.findings {
        let sev = match f.severity {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
        };
        writeln!(
            out,
            "  {sev:8} {} .. {}  {}  {}",
            iso(f.start, east),
            iso(f.end, east),
            f.path,
            f.message
        )
        .map_err(w)?;
    }
    Ok(a.findings.iter().map(|f| f.severity).max())
}

/// Where a report of one input goes when the output given is a directory: `<dir>/<file name>.<ext>`.
pub fn per_input(dir: &Path, input: &Path, ext: &str) -> PathBuf {
    dir.join(format!("{}.{ext}", source_of(input)))
}

pub fn merged_title(loaded: &[Loaded]) -> String {
    match loaded {
        [one] => one.source.clone(),
        many => format!("{} logs", many.len()),
    }
}

pub fn variables(vars: &[String]) -> Result<BTreeMap<String, Value>, CliError> {
    vars.iter()
        .map(|v| {
            parse_var(v).ok_or_else(|| CliError::Usage(format!("--var {v:?}: expected NAME=VALUE")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_and_variables() {
        assert_eq!(parse_slice("auto"), Some(SliceLength::Auto));
        assert_eq!(parse_slice("30s"), Some(SliceLength::Ms(30_000.0)));
        assert_eq!(parse_slice("5min"), Some(SliceLength::Ms(300_000.0)));
        assert_eq!(parse_slice("1.5h"), Some(SliceLength::Ms(5_400_000.0)));
        assert_eq!(parse_slice("250ms"), Some(SliceLength::Ms(250.0)));
        for bad in ["", "5", "0s", "-1m", "5 parsecs", "<script>"] {
            assert_eq!(parse_slice(bad), None, "{bad}");
        }
        assert_eq!(
            parse_var("totalMemoryMB=16384"),
            Some(("totalMemoryMB".into(), Value::Number(16384.0)))
        );
        assert_eq!(
            parse_var("role=sql"),
            Some(("role".into(), Value::Text("sql".into())))
        );
        assert_eq!(parse_var("novalue"), None);
        assert_eq!(parse_var("=3"), None);
    }
}
