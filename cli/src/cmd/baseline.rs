//! `baseline`: a machine's normal from its earlier logs (`counterlens::analysis::baseline`): robust
//! quantiles of its machine-level counters by hour of day, weekdays and weekends apart, with the
//! samples each rests on, written as one small JSON file (`schema/counterlens-baseline-v1.schema.json`)
//! for `analyze --baseline`. Logs are read one at a time (each is dropped once learned from). Into a
//! file, logs of more than one machine are an error that names them; into a folder (`-o baselines/`),
//! each machine's logs make its own `MACHINE.baseline.json` (a fleet's normals in one run, which
//! `analyze --baseline baselines/` reads back by machine).

use super::{input_names, report_losses};
use crate::error::CliError;
use crate::input;
use crate::naming::{self, Staged};
use crate::progress::Progress;
use counterlens::analysis::baseline::{self, Baseline, Builder};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Clone)]
pub struct Args {
    /// The machine's earlier logs, in every format the core reads (gzip too). A folder stands for the
    /// logs under it (names ending .blg, .csv, .tsv, .json or .txt, gzip too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The baseline file to write (NAME.baseline.json); or a folder (one that exists, or a path ending
    /// in /) for one MACHINE.baseline.json per machine of the logs.
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output when it exists.
    #[arg(long)]
    overwrite: bool,
}

pub fn run(args: &Args, quiet: bool) -> Result<ExitCode, CliError> {
    let args = &Args {
        files: input::logs_in(&args.files, &[&args.output])?,
        ..args.clone()
    };
    let names = input_names(&args.files)?;
    let per_machine = naming::is_dir_output(&args.output);
    if !per_machine && !args.overwrite && args.output.exists() {
        return Err(CliError::Exists(args.output.clone()));
    }
    let progress = Progress::new(&args.files, quiet);
    // One builder per machine (its name folded), in the order machines are first met; into a file,
    // one builder for all, which refuses a second machine.
    let mut builders: Vec<(String, Builder, PathBuf)> = Vec::new();
    for (f, name) in args.files.iter().zip(&names) {
        let fp = progress.file(input::size(f));
        let l = input::read(f, name, &fp, &Default::default())?;
        report_losses(&l, &progress);
        // Its machine, folded (logs of one machine share a builder); a log of several is the
        // builder's own refusal, with its message.
        let key = if per_machine {
            baseline::machine_of(&l.capture, name)
                .map_err(|source| CliError::Baseline {
                    file: f.clone(),
                    source,
                })?
                .to_ascii_lowercase()
        } else {
            String::new()
        };
        let at = match builders.iter().position(|(k, ..)| *k == key) {
            Some(i) => i,
            None => {
                builders.push((key, Builder::new(), f.clone()));
                builders.len() - 1
            }
        };
        builders[at]
            .1
            .add(name, &l.capture)
            .map_err(|source| CliError::Baseline {
                file: f.clone(),
                source,
            })?;
        fp.written(1, 1);
    }
    progress.finish();
    let mut normals = Vec::new();
    for (_, builder, first) in builders {
        let b = builder.finish().map_err(|source| CliError::Baseline {
            file: first,
            source,
        })?;
        let path = if per_machine {
            // Two machines whose names make one file name (`WEB/01` and `WEB:01`): the second `-2`.
            let stem = naming::file_name_of(&b.machine);
            let mut path = args.output.join(format!("{stem}.baseline.json"));
            let mut n = 1;
            while normals.iter().any(|(p, _)| *p == path) {
                n += 1;
                path = args.output.join(format!("{stem}-{n}.baseline.json"));
            }
            path
        } else {
            args.output.clone()
        };
        normals.push((path, b));
    }
    if per_machine {
        std::fs::create_dir_all(&args.output).map_err(CliError::io(&args.output))?;
        if !args.overwrite {
            if let Some((p, _)) = normals.iter().find(|(p, _)| p.exists()) {
                return Err(CliError::Exists(p.clone()));
            }
        }
    }
    for (path, b) in &normals {
        write(path, b, args.overwrite, quiet)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes one baseline (complete or not at all) and says so unless `quiet`.
fn write(
    path: &std::path::Path,
    b: &Baseline,
    overwrite: bool,
    quiet: bool,
) -> Result<(), CliError> {
    let text = serde_json::to_string(b).map_err(|e| CliError::Io {
        file: path.to_path_buf(),
        source: e.into(),
    })? + "\n";
    let (staged, mut file) = Staged::create(path, overwrite)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(CliError::io(path))?;
    staged.commit()?;
    let cells: usize = b.counters.iter().map(|c| c.cells.len()).sum();
    if !quiet {
        say!(
            "counterlens: {}: the normal of {} from {} logs ({} samples): {} counters, {cells} hour cells, {} bytes",
            path.display(),
            if b.machine.is_empty() { "(no machine named)" } else { &b.machine },
            b.logs.len(),
            b.samples,
            b.counters.len(),
            text.len()
        );
    }
    Ok(())
}
