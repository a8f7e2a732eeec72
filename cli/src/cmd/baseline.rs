//! `baseline`: a machine's normal from its earlier logs (`counterlens::analysis::baseline`): robust
//! quantiles of its machine-level counters by hour of day, weekdays and weekends apart, with the
//! samples each rests on, written as one small JSON file (`schema/counterlens-baseline-v1.schema.json`)
//! for `analyze --baseline`. Logs are read one at a time (each is dropped once learned from); logs of
//! more than one machine are an error that names them.

use super::{input_names, report_losses};
use crate::error::CliError;
use crate::input;
use crate::naming::Staged;
use crate::progress::Progress;
use counterlens::analysis::baseline::Builder;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Clone)]
pub struct Args {
    /// The machine's earlier logs, in every format the core reads (gzip too). A folder stands for the logs under it (names ending .blg, .csv, .tsv, .json or .txt, gzip too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The baseline file to write (NAME.baseline.json).
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
    if !args.overwrite && args.output.exists() {
        return Err(CliError::Exists(args.output.clone()));
    }
    let progress = Progress::new(&args.files, quiet);
    let mut builder = Builder::new();
    for (f, name) in args.files.iter().zip(&names) {
        let fp = progress.file(input::size(f));
        let l = input::read(f, name, &fp, &Default::default())?;
        report_losses(&l, &progress);
        builder
            .add(name, &l.capture)
            .map_err(|source| CliError::Baseline {
                file: f.clone(),
                source,
            })?;
        fp.written(1, 1);
    }
    progress.finish();
    let b = builder.finish().map_err(|source| CliError::Baseline {
        file: args.files[0].clone(),
        source,
    })?;
    let text = serde_json::to_string(&b).map_err(|e| CliError::Io {
        file: args.output.clone(),
        source: e.into(),
    })? + "\n";
    let (staged, mut file) = Staged::create(&args.output, args.overwrite)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(CliError::io(&args.output))?;
    staged.commit()?;
    let cells: usize = b.counters.iter().map(|c| c.cells.len()).sum();
    if !quiet {
        say!(
            "counterlens: {}: the normal of {} from {} logs ({} samples): {} counters, {cells} hour cells, {} bytes",
            args.output.display(),
            if b.machine.is_empty() { "(no machine named)" } else { &b.machine },
            b.logs.len(),
            b.samples,
            b.counters.len(),
            text.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
