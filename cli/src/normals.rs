//! `analyze --baseline`: the machines' normals it was given (files `counterlens baseline` wrote, or
//! folders of them, `MACHINE.baseline.json`), kept by machine, and the one an analysis is judged against.
//! One file alone is a pairing the user made: a log of another machine is then the core's error that says
//! so. Several, or a folder (a fleet's normals), judge each log against its own machine's, and a machine
//! with none is analysed without one, said in its summary.

use crate::error::CliError;
use counterlens::analysis::baseline::{self, Baseline};
use counterlens::capture::Capture;
use std::path::PathBuf;

/// The normals given, each with the file it came from.
#[derive(Default)]
pub struct Normals {
    list: Vec<(PathBuf, Baseline)>,
    /// One file was given (not a folder): it judges every log, whatever its machine.
    single: bool,
}

/// The normal an analysis is judged against, or why there is none.
pub enum Pick<'a> {
    None,
    Use(&'a Baseline),
    /// Normals were given, but none of this machine's.
    Missing(String),
}

impl Normals {
    /// Reads `paths`: each a baseline file, or a folder whose `*.baseline.json` files are read (sorted by
    /// name). A file that is no baseline, a folder with none, or two normals of one machine are usage
    /// errors that name the files.
    pub fn load(paths: &[PathBuf]) -> Result<Normals, CliError> {
        let mut files = Vec::new();
        for p in paths {
            if p.is_dir() {
                let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                    .map_err(CliError::io(p))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|f| {
                        f.is_file()
                            && f.file_name().is_some_and(|n| {
                                n.to_string_lossy()
                                    .to_ascii_lowercase()
                                    .ends_with(".baseline.json")
                            })
                    })
                    .collect();
                if found.is_empty() {
                    return Err(CliError::Usage(format!(
                        "--baseline {}: no MACHINE.baseline.json in this folder (counterlens baseline LOGS -o {}/ writes them)",
                        p.display(),
                        p.display()
                    )));
                }
                found.sort();
                files.extend(found);
            } else {
                files.push(p.clone());
            }
        }
        let mut list: Vec<(PathBuf, Baseline)> = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).map_err(CliError::io(&f))?;
            let b = Baseline::from_json(&text)
                .map_err(|e| CliError::Usage(format!("--baseline {}: {e}", f.display())))?;
            if let Some((other, _)) = list
                .iter()
                .find(|(_, o)| o.machine.eq_ignore_ascii_case(&b.machine))
            {
                return Err(CliError::Usage(format!(
                    "--baseline: {} and {} are both the normal of machine {}: give one",
                    other.display(),
                    f.display(),
                    b.machine
                )));
            }
            list.push((f, b));
        }
        let single = paths.len() == 1 && !paths[0].is_dir();
        Ok(Normals { list, single })
    }

    /// The normal `capture` is judged against: its machine's; with one file given, that one whatever
    /// the machine (the core refuses another machine's, saying so).
    pub fn pick(&self, capture: &Capture) -> Pick<'_> {
        if self.list.is_empty() {
            return Pick::None;
        }
        if self.single {
            return Pick::Use(&self.list[0].1);
        }
        // A normal is one machine's: an analysis of several (--merge) is judged by the rules alone.
        let Ok(machine) = baseline::machine_of(capture, "the analysis") else {
            return Pick::Missing(
                "the analysis spans several machines, and a normal is one machine's: judged by the rules alone"
                    .into(),
            );
        };
        match self
            .list
            .iter()
            .find(|(_, b)| b.machine.eq_ignore_ascii_case(&machine))
        {
            Some((_, b)) => Pick::Use(b),
            None => Pick::Missing(format!(
                "no normal of machine {} among the --baseline files: judged by the rules alone",
                if machine.is_empty() {
                    "(not named)"
                } else {
                    &machine
                }
            )),
        }
    }
}
