//! `counterlens mcp`: a read-only Model Context Protocol server over stdio serving the logs under
//! `--root` directories to a model (docs/mcp.md): newline-delimited JSON-RPC 2.0, protocol 2025-06-18
//! (2025-03-26 and 2024-11-05 accepted), with tools (`tools.rs`), each log as a resource and a
//! `diagnose` prompt.
//!
//! Why a small synchronous loop and not the official SDK (`rmcp`): rmcp 3.x builds with this crate's
//! Rust, but it is async and pulls tokio, tokio-util, futures, schemars and its macros for a protocol
//! surface of nine methods, one client and one request at a time. The work behind each call (reading,
//! analysing) is synchronous CPU and file work on the core, bounded by its own time bound, so an async
//! runtime would add a thread pool, a second executor beside rayon and minutes of compile time, and buy
//! nothing. serde_json over stdin/stdout is all the transport needs.
//!
//! | file | concept |
//! |---|---|
//! | `mod.rs` | the options, the JSON-RPC loop, the protocol's methods, resources and the prompt |
//! | `tools.rs` | the tools: descriptions, schemas, argument checks, handlers |
//! | `roots.rs` | the roots: every path canonicalized and kept inside them; the walk; resource URIs |
//! | `reading.rs` | reading within bounds (time, size, columns); the catalogue cache |
//! | `figures.rs` | statistics, decimation, the change table, the verdict and the summary in words |
//! | `error.rs` | a tool call's errors (tool results with `isError`, never crashes) |

mod error;
mod figures;
mod reading;
mod roots;
mod tools;

use crate::error::CliError;
use reading::{Bounds, Catalogues, Deadline};
use roots::Roots;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// A directory whose logs are served (and everything below it); repeatable. Nothing outside the
    /// roots is opened, symbolic links included.
    #[arg(long = "root", required = true)]
    roots: Vec<PathBuf>,
    /// The time bound of one call, in seconds: a read past it stops with an error that says so.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// The largest log read whole (analyze, summary, a finding's explanation), in bytes; larger logs
    /// are read in part (statistics and values with a counters pattern).
    #[arg(long = "max-log-bytes", default_value_t = 512 << 20)]
    max_log_bytes: u64,
    /// The most memory one read's columns may hold, in MiB.
    #[arg(long = "max-column-mib", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    max_column_mib: u64,
}

/// The protocol versions understood, newest first (the first is offered to a client asking for another).
const VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/// The longest request line read (a longer one is a parse error, and skipped).
const MAX_LINE: usize = 4 << 20;

/// Resources listed per page of `resources/list`.
const PAGE: usize = 200;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const RESOURCE_NOT_FOUND: i64 = -32002;

struct Server {
    ctx: tools::Ctx,
    /// The version agreed at `initialize` (the newest until then).
    version: &'static str,
}

const INSTRUCTIONS: &str = "counterlens serves Windows performance-counter logs (.blg, relog CSV/TSV, Get-Counter JSON) read-only. Start with list_logs; for one log, summary gives the overview and analyze the verdict (cards, worst first); statistics and values read any counters (Perfmon wildcard paths such as \\Processor(*)\\% Processor Time); explain shows why a finding or a value is what it is; compare sets two logs side by side. Times are given in the log's own zone and in UTC.";

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let roots = Roots::new(&args.roots).map_err(CliError::Usage)?;
    let mut server = Server {
        ctx: tools::Ctx {
            roots,
            bounds: Bounds {
                timeout: Duration::from_secs(args.timeout),
                max_log_bytes: args.max_log_bytes,
                max_column_bytes: usize::try_from(args.max_column_mib.saturating_mul(1 << 20))
                    .unwrap_or(usize::MAX),
            },
            catalogues: Catalogues::default(),
        },
        version: VERSIONS[0],
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = std::io::Read::take(&mut input, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(CliError::io("stdin"))?;
        if n == 0 {
            return Ok(ExitCode::SUCCESS);
        }
        let reply = if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            skip_line(&mut input).map_err(CliError::io("stdin"))?;
            Some(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: a line longer than {MAX_LINE} bytes"),
            ))
        } else if line.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            server.handle_line(&line)
        };
        if let Some(r) = reply {
            let mut text = serde_json::to_vec(&r).unwrap_or_default();
            text.push(b'\n');
            // A closed stdout: the client is gone.
            if out.write_all(&text).and_then(|()| out.flush()).is_err() {
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
}

/// Reads and drops the rest of an overlong line.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A JSON-RPC error of a method.
struct RpcError(i64, String);

impl Server {
    /// The reply to one line: None for a notification.
    fn handle_line(&mut self, line: &[u8]) -> Option<Value> {
        let msg: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                return Some(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    &format!("Parse error: {e}"),
                ))
            }
        };
        let Some(obj) = msg.as_object() else {
            return Some(error_reply(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: expected one JSON-RPC 2.0 object per line (batches are not part of this protocol version)",
            ));
        };
        let id = obj.get("id").cloned();
        let valid_id = id.as_ref().is_none_or(|i| i.is_string() || i.is_number());
        let method = obj.get("method").and_then(Value::as_str);
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !valid_id {
            return Some(error_reply(
                id.filter(|_| valid_id).unwrap_or(Value::Null),
                INVALID_REQUEST,
                "Invalid Request: expected \"jsonrpc\": \"2.0\" and an id that is a string or a number",
            ));
        }
        let Some(method) = method else {
            // A response from the client (we send no requests), or junk with an id.
            return id
                .filter(|_| !obj.contains_key("result") && !obj.contains_key("error"))
                .map(|id| error_reply(id, INVALID_REQUEST, "Invalid Request: no method"));
        };
        let params = obj.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = id else {
            // Notifications (initialized, cancelled, ...) need no answer; a call runs to its time bound.
            return None;
        };
        Some(match self.method(method, &params) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(RpcError(code, message)) => error_reply(id, code, &message),
        })
    }

    fn method(&mut self, method: &str, params: &Value) -> Result<Value, RpcError> {
        match method {
            "initialize" => Ok(self.initialize(params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({"tools": tools::list(&self.ctx.bounds)})),
            "tools/call" => self.call_tool(params),
            "resources/list" => self.resources(params),
            "resources/templates/list" => Ok(json!({"resourceTemplates": [{
                "uriTemplate": format!("{}{{root}}/{{path}}", roots::URI_PREFIX),
                "name": "log",
                "title": "A log's summary",
                "description": "The summary in words of the log at <path> below root <root> (list_logs gives both).",
                "mimeType": "text/plain"
            }]})),
            "resources/read" => self.read_resource(params),
            "prompts/list" => Ok(json!({"prompts": [prompt_descriptor()]})),
            "prompts/get" => prompt(params),
            _ => Err(RpcError(
                METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        }
    }

    fn initialize(&mut self, params: &Value) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        self.version = VERSIONS
            .iter()
            .find(|v| Some(**v) == asked)
            .copied()
            .unwrap_or(VERSIONS[0]);
        json!({
            "protocolVersion": self.version,
            "capabilities": {
                "tools": {"listChanged": false},
                "resources": {"listChanged": false, "subscribe": false},
                "prompts": {"listChanged": false}
            },
            "serverInfo": {"name": "counterlens", "title": "counterlens: Windows performance-counter logs", "version": env!("CARGO_PKG_VERSION")},
            "instructions": INSTRUCTIONS
        })
    }

    fn call_tool(&mut self, params: &Value) -> Result<Value, RpcError> {
        let name = params.get("name").and_then(Value::as_str).ok_or_else(|| {
            RpcError(
                INVALID_PARAMS,
                "Invalid params: tools/call needs a tool `name`".into(),
            )
        })?;
        let args = params.get("arguments").cloned().unwrap_or(Value::Null);
        let deadline = Deadline::new(self.ctx.bounds.timeout);
        let result = if args.is_null() || args.is_object() {
            tools::call(&mut self.ctx, name, &args, &deadline)
        } else {
            tools::list(&self.ctx.bounds)
                .iter()
                .any(|t| t["name"] == name)
                .then(|| Err(error::McpError::argument("arguments: expected an object")))
        };
        let Some(result) = result else {
            return Err(RpcError(
                INVALID_PARAMS,
                format!("Unknown tool: {name} (tools/list gives the tools)"),
            ));
        };
        Ok(match result {
            Ok(out) => {
                let text = out
                    .text
                    .unwrap_or_else(|| serde_json::to_string(&out.json).unwrap_or_default());
                let mut r = json!({"content": [{"type": "text", "text": text}], "isError": false});
                if self.version == VERSIONS[0] {
                    r["structuredContent"] = out.json;
                }
                r
            }
            Err(e) => {
                json!({"content": [{"type": "text", "text": e.to_string()}], "isError": true})
            }
        })
    }

    fn resources(&mut self, params: &Value) -> Result<Value, RpcError> {
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(c) => c
                .as_str()
                .and_then(|c| c.parse::<usize>().ok())
                .ok_or_else(|| RpcError(INVALID_PARAMS, "Invalid params: unknown cursor".into()))?,
        };
        let walk = self.ctx.roots.walk();
        let list: Vec<Value> = walk
            .logs
            .iter()
            .skip(start)
            .take(PAGE)
            .map(|l| {
                json!({
                    "uri": l.uri(),
                    "name": l.rel,
                    "title": format!("{} (root {})", l.rel, l.root),
                    "description": "The log's summary in words: machines, time range, interval, the verdict and the worst cards.",
                    "mimeType": "text/plain",
                    "size": l.size,
                })
            })
            .collect();
        let mut r = json!({"resources": list});
        if start + PAGE < walk.logs.len() {
            r["nextCursor"] = json!((start + PAGE).to_string());
        }
        Ok(r)
    }

    fn read_resource(&mut self, params: &Value) -> Result<Value, RpcError> {
        let uri = params.get("uri").and_then(Value::as_str).ok_or_else(|| {
            RpcError(
                INVALID_PARAMS,
                "Invalid params: resources/read needs a `uri`".into(),
            )
        })?;
        if !uri.starts_with(roots::URI_PREFIX) {
            return Err(RpcError(
                RESOURCE_NOT_FOUND,
                format!(
                    "Resource not found: {uri} (resources are {}<root>/<path>)",
                    roots::URI_PREFIX
                ),
            ));
        }
        let deadline = Deadline::new(self.ctx.bounds.timeout);
        let text = self
            .ctx
            .roots
            .resolve(uri)
            .and_then(|log| tools::summary_of(&self.ctx, &log, &deadline))
            .map_err(|e| match e {
                error::McpError::NotFound { .. } | error::McpError::Outside { .. } => {
                    RpcError(RESOURCE_NOT_FOUND, format!("Resource not found: {e}"))
                }
                e => RpcError(INVALID_PARAMS, format!("{uri}: {e}")),
            })?;
        Ok(json!({"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}))
    }
}

fn prompt_descriptor() -> Value {
    json!({
        "name": "diagnose",
        "title": "Diagnose a log",
        "description": "Find what was wrong on the machine a performance-counter log was recorded on, when and how badly, with the numbers behind it.",
        "arguments": [{"name": "log", "description": "The log to diagnose: its path as list_logs gives it (or a counterlens://log/ URI).", "required": true}]
    })
}

fn prompt(params: &Value) -> Result<Value, RpcError> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    if name != "diagnose" {
        return Err(RpcError(
            INVALID_PARAMS,
            format!("Invalid params: no prompt '{name}' (prompts/list gives: diagnose)"),
        ));
    }
    let log = params
        .pointer("/arguments/log")
        .and_then(Value::as_str)
        .filter(|l| !l.trim().is_empty())
        .ok_or_else(|| {
            RpcError(
                INVALID_PARAMS,
                "Invalid params: the prompt diagnose needs the argument `log`".into(),
            )
        })?;
    let text = format!(
        "Diagnose the Windows performance-counter log \"{log}\" with the counterlens tools.\n\
1. Call list_logs and find \"{log}\": its machines, time range and interval.\n\
2. Call summary for it, then analyze: the verdict and the cards, worst first.\n\
3. For each of the top cards, call statistics on the counters its findings name (the card's path, and the related counters of its category: for processor, \\Processor(_Total)\\% Processor Time and \\System\\Processor Queue Length; for memory, \\Memory\\Available MBytes and \\Memory\\Pages/sec; for disk, \\PhysicalDisk(*)\\Avg. Disk sec/Read and \\PhysicalDisk(*)\\Current Disk Queue Length) over the card's time range, and values where the shape over time matters.\n\
4. Where a finding rests on variables the packs assumed (analyze's assumedVariables), say so, and call explain on the finding to show its threshold.\n\
Then write the diagnosis: what was wrong, when (in the log's own time zone, with UTC), how bad (the numbers), what was not a problem, and what to check next."
    );
    Ok(json!({
        "description": format!("Diagnose {log}"),
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}]
    }))
}
