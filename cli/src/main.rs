//! `counterlens`: the core on the command line, for many logs at once (relog and PAL in batch).
//! This file only parses the arguments and dispatches; each subcommand is one file under `cmd/`.
//!
//! | file | concept |
//! |---|---|
//! | `cmd/info.rs`, `cmd/convert.rs`, `cmd/analyze.rs`, `cmd/baseline.rs`, `cmd/check.rs` | the subcommands, their options |
//! | `cmd/mod.rs` | what they share: failures, lost-data notes, JSON on stdout |
//! | `args.rs` | option values parsed by clap's value parsers (a bad value is a usage error, exit 2) |
//! | `input.rs` | reading files (gzip too) into captures, in parallel; lost-data notes; is this a log? |
//! | `naming.rs` | output names from the inputs' paths, directories, hive partitions, no silent overwrite |
//! | `progress.rs` | progress through the whole pipeline, on a terminal |
//! | `time.rs` | `--begin`/`--end`: ISO 8601 and relog's `M/d/yyyy H:mm:ss` |
//! | `select.rs` | counter filters, time window, every Nth sample; merging inputs |
//! | `parquet_out.rs` | the Parquet long layout |
//! | `json_out.rs` | Get-Counter-shaped JSON |
//! | `packs.rs` | `--pack`: built-in ids, pack JSON, PAL threshold XML |
//! | `index.rs` | `analyze`'s index of many reports (HTML and JSON) and the page's frame |
//! | `fleet.rs` | `analyze`'s fleet: `fleet.json` and the fleet page (`index.html`) from the core's summary |
//! | `error.rs` | the errors, each naming its file, and their exit codes |
//! | `mcp/` | `mcp`: the Model Context Protocol server over stdio (its own table in `mcp/mod.rs`) |
//!
//! Exit codes (the README's table, each row checked by `cli/tests/cli.rs`): 0 done; 1 an input failed
//! (the others are still done), lost data with `--strict`, an output exists without `--overwrite`,
//! nothing was written, or `check` found an error; 2 a usage error; 3 `analyze --fail-on` found findings
//! of that severity or worse.

/// A line on stderr; a closed stderr (`2>&1 | head`) is not worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod cmd;
mod error;
mod fleet;
mod index;
mod input;
mod json_out;
mod mcp;
mod naming;
mod packs;
mod parquet_out;
mod progress;
mod select;
mod time;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "counterlens",
    version,
    about = "Windows performance-counter logs on the command line: info, convert (CSV, TSV, JSON, Parquet), analyze, baseline, check, and an MCP server (mcp)",
    long_about = None
)]
struct Cli {
    /// Threads reading inputs (default: one per core).
    #[arg(long, global = true, value_parser = args::threads)]
    threads: Option<usize>,
    /// No progress bar and no notes on stderr (errors, warnings and lost-data notes are still printed).
    #[arg(short, long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Format, machines, first/last time, interval, samples, series, time zone and notes of each log (relog -q).
    Info(cmd::info::Args),
    /// Filter counters, cut a time window, keep every Nth sample; one output for all inputs or one per input (relog -c -cf -b -e -t -f).
    ///
    /// Logs are streamed: read a few MiB at a time and written row group by row group (Parquet) or row by
    /// row (CSV/TSV), so a log bigger than the machine's memory converts in bounded memory. A .blg to
    /// CSV/TSV is read twice (its series are listed first, for the header). Several inputs into one
    /// CSV/TSV/JSON file, and --to json, read each input whole (a note names each input of 1 GB or more);
    /// several into one Parquet file are encoded side by side and written in the order given.
    Convert(cmd::convert::Args),
    /// Analyse logs with rule packs (built-in, pack JSON, PAL threshold XML): one analysis per log, reports, JSON (PAL).
    Analyze(cmd::analyze::Args),
    /// A machine's normal from its earlier logs (quantiles by hour of day, weekdays and weekends apart), for analyze --baseline.
    Baseline(cmd::baseline::Args),
    /// Validate counter-set registrations (manifest, binary or JSON); exit 1 on any error.
    Check(cmd::check::Args),
    /// The counters to collect for packs (default: every built-in pack) and the breakdowns that name a
    /// card's cause, one path per line: a file for `logman create counter NAME -cf FILE`.
    Template(cmd::template::Args),
    /// A read-only Model Context Protocol server over stdio serving the logs under the roots (docs/mcp.md).
    Mcp(mcp::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        // Only fails when a pool already exists, which it cannot here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    let result = match cli.command {
        Command::Info(a) => cmd::info::run(&a, cli.quiet),
        Command::Convert(a) => cmd::convert::run(&a, cli.quiet),
        Command::Analyze(a) => cmd::analyze::run(&a, cli.quiet),
        Command::Baseline(a) => cmd::baseline::run(&a, cli.quiet),
        Command::Check(a) => cmd::check::run(&a, cli.quiet),
        Command::Template(a) => cmd::template::run(&a, cli.quiet),
        Command::Mcp(a) => mcp::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            say!("counterlens: error: {e}");
            if e.exit_code() == 2 {
                say!("\nFor more information, try '--help'.");
            }
            ExitCode::from(e.exit_code())
        }
    }
}
