//! `template`: the counters to collect so that packs can run and their cards name the process,
//! processor or adapter that did it, as a file for `logman create counter NAME -cf FILE` (one path per
//! line). The list is the core's (`analysis::template`), the same as the viewer's "Counters to collect".

use crate::args::{self, PackSpec};
use crate::error::CliError;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A built-in pack id, a pack JSON file or a PAL threshold XML file; repeatable. Default: every
    /// built-in pack.
    #[arg(long, value_parser = args::pack)]
    pack: Vec<PackSpec>,
    /// Write the list here instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(args: &Args, quiet: bool) -> Result<ExitCode, CliError> {
    let mut notes = Vec::new();
    let packs = crate::packs::packs(&args.pack, &mut notes)?;
    if !quiet {
        for n in &notes {
            eprintln!("{n}");
        }
    }
    let text =
        counterlens::analysis::template::counter_list(packs.as_deref()).map_err(|source| {
            CliError::Analysis {
                file: PathBuf::from("--pack"),
                source,
            }
        })?;
    match &args.output {
        Some(path) => std::fs::write(path, text.as_bytes()).map_err(CliError::io(path))?,
        None => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            out.write_all(text.as_bytes())
                .map_err(CliError::io("stdout"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
