//! `counterlens`, the command: parses the arguments and dispatches to the subcommands of the library
//! (`lib.rs` maps its modules).

use clap::{Parser, Subcommand};
use counterlens_cli::{args, cmd, mcp, say};
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
