//! `counterlens`: the core on the command line, for many logs at once (relog and PAL in batch), as a
//! library: `main.rs` parses the arguments and dispatches; each subcommand is one file under `cmd/`. The
//! Python binding (`python/`) is the library's other user: it writes the same Parquet long layout
//! (`parquet_out`) and reads files the same way (`input`), so neither is written twice.
//!
//! | file | concept |
//! |---|---|
//! | `cmd/info.rs`, `cmd/convert.rs`, `cmd/analyze.rs`, `cmd/baseline.rs`, `cmd/check.rs`, `cmd/template.rs` | the subcommands, their options |
//! | `cmd/mod.rs` | what they share: failures, lost-data notes, JSON on stdout |
//! | `args.rs` | option values parsed by clap's value parsers (a bad value is a usage error, exit 2) |
//! | `input.rs` | reading files (gzip too) into captures, in parallel; lost-data notes; is this a log? |
//! | `naming.rs` | output names from the inputs' paths, directories, hive partitions, no silent overwrite |
//! | `normals.rs` | `analyze --baseline`: the machines' normals given (files, folders), the one a log is judged against |
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
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod args;
pub mod cmd;
pub mod error;
pub mod fleet;
pub mod index;
pub mod input;
pub mod json_out;
pub mod mcp;
pub mod naming;
pub mod normals;
pub mod packs;
pub mod parquet_out;
pub mod progress;
pub mod select;
pub mod time;
