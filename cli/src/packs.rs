//! `--pack`: built-in ids, rule-pack JSON files and PAL threshold XML files (imported together, so
//! `<INHERITANCE>` between the given files resolves). A file that is neither (a log given as a pack, say)
//! is a usage error that says what the file is.

use crate::args::PackSpec;
use crate::error::CliError;
use counterlens::analysis::{pal::import_pal, PackRef, RulePack};
use std::path::Path;

/// The packs to run: None for the core's default (every built-in pack whose counters the capture has).
/// PAL notes (thresholds left out, missing inherited files) go to `notes`.
pub fn packs(
    specs: &[PackSpec],
    notes: &mut Vec<String>,
) -> Result<Option<Vec<PackRef>>, CliError> {
    if specs.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut pal: Vec<(String, String)> = Vec::new();
    for spec in specs {
        let path = match spec {
            PackSpec::Builtin(id) => {
                out.push(PackRef::Builtin(id.clone()));
                continue;
            }
            PackSpec::File(p) => p,
        };
        if let Some(format) = crate::input::log_format(path) {
            return Err(CliError::Usage(format!(
                "--pack {}: this is a performance log ({format}), not a rule pack (pack JSON) or a PAL threshold file (XML); give it as an input",
                path.display()
            )));
        }
        let bytes = std::fs::read(path)
            .map_err(|e| CliError::Usage(format!("--pack {}: {e}", path.display())))?;
        // PAL's files are UTF-8 or UTF-16 with a BOM: decoded by the core's text detection.
        let text = decode(&bytes);
        let body = text.trim_start_matches('\u{feff}').trim_start();
        if body.starts_with('<') {
            pal.push((name_of(path), text));
        } else if body.starts_with('{') {
            out.push(PackRef::Pack(RulePack::from_json(&text).map_err(|e| {
                CliError::Usage(format!("--pack {}: {e}", path.display()))
            })?));
        } else {
            return Err(CliError::Usage(format!(
                "--pack {}: not a rule pack (pack JSON, starting with {{) or a PAL threshold file (XML, starting with <)",
                path.display()
            )));
        }
    }
    if !pal.is_empty() {
        let names: Vec<String> = pal.iter().map(|(n, _)| n.clone()).collect();
        let imported = import_pal(&pal)
            .map_err(|e| CliError::Usage(format!("--pack {}: {e}", names.join(", "))))?;
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

fn name_of(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Bytes to text with the core's detection (BOM, UTF-8, else the Windows code page chardetng guesses).
pub fn decode(bytes: &[u8]) -> String {
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
