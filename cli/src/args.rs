//! Option values parsed into typed values by clap's value parsers (ripgrep's approach): a value that does
//! not parse is a usage error, printed by clap with the value as written and exit code 2, before any
//! input is read.

use crate::time::TimeSpec;
use counterlens::analysis::{SliceLength, Value};
use counterlens::capture::PathPattern;
use std::path::PathBuf;

/// `--begin` / `--end`.
pub fn time(text: &str) -> Result<TimeSpec, String> {
    crate::time::parse(text).ok_or_else(|| {
        "expected ISO 8601 (2026-11-21T12:00:00, with or without a zone such as Z or +01:00) or relog's M/d/yyyy H:mm:ss".into()
    })
}

/// The message for a counter path pattern that is not one (the core's own message quotes the pattern
/// with Rust's escapes, doubling its backslashes; clap echoes the value as written instead).
pub const NOT_A_PATTERN: &str = r"not a counter path pattern: expected \\MACHINE\Object(Instance)\Counter, \Object(*)\Counter or \Object\Counter (machine optional, * allowed in each part)";

/// `-c`: a Perfmon wildcard path.
pub fn pattern(text: &str) -> Result<PathPattern, String> {
    PathPattern::parse(text).map_err(|_| NOT_A_PATTERN.to_string())
}

/// `--slice`: `auto` or a number and a unit (`250ms`, `30s`, `5m` or `5min`, `1h`, `1d`).
pub fn slice(text: &str) -> Result<SliceLength, String> {
    parse_slice(text).ok_or_else(|| "expected auto or a duration such as 5m, 30s, 1h".into())
}

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

/// `--var NAME=VALUE`: a number where VALUE reads as one, text otherwise.
pub fn var(text: &str) -> Result<(String, Value), String> {
    let err = || "expected NAME=VALUE".to_string();
    let (name, value) = text.split_once('=').ok_or_else(err)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(err());
    }
    let v = match value.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Value::Number(n),
        _ => Value::Text(value.to_string()),
    };
    Ok((name.to_string(), v))
}

/// `--pack`: a built-in id, or a file (read and checked later, with the other files, so PAL's
/// inheritance between them resolves).
#[derive(Clone, Debug, PartialEq)]
pub enum PackSpec {
    Builtin(String),
    File(PathBuf),
}

pub fn pack(text: &str) -> Result<PackSpec, String> {
    let path = PathBuf::from(text);
    if path.is_file() {
        return Ok(PackSpec::File(path));
    }
    let ids: Vec<&str> = counterlens::analysis::builtin_packs()
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    if ids.contains(&text) {
        return Ok(PackSpec::Builtin(text.to_string()));
    }
    Err(format!(
        "neither a file nor a built-in pack ({})",
        ids.join(", ")
    ))
}

/// `--partition machine[,date]`: hive-style folders (`machine=WEB01/date=2026-11-16/`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partition {
    pub machine: bool,
    pub date: bool,
}

pub fn partition(text: &str) -> Result<Partition, String> {
    let mut p = Partition::default();
    for key in text.split(',').map(str::trim) {
        match key {
            "machine" if !p.machine => p.machine = true,
            "date" if !p.date => p.date = true,
            _ => return Err("expected machine, date or machine,date".into()),
        }
    }
    Ok(p)
}

/// `--threads`: at least one.
pub fn threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a number of threads, 1 or more".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_and_variables() {
        assert_eq!(parse_slice("auto"), Some(SliceLength::Auto));
        assert_eq!(parse_slice("30s"), Some(SliceLength::Ms(30_000.0)));
        assert_eq!(parse_slice("5min"), Some(SliceLength::Ms(300_000.0)));
        // 1.5 h = 1.5 x 3 600 000 ms.
        assert_eq!(parse_slice("1.5h"), Some(SliceLength::Ms(5_400_000.0)));
        assert_eq!(parse_slice("250ms"), Some(SliceLength::Ms(250.0)));
        for bad in ["", "5", "0s", "-1m", "5 parsecs", "<script>"] {
            assert_eq!(parse_slice(bad), None, "{bad}");
        }
        assert_eq!(
            var("totalMemoryMB=16384"),
            Ok(("totalMemoryMB".into(), Value::Number(16384.0)))
        );
        assert_eq!(
            var("role=sql"),
            Ok(("role".into(), Value::Text("sql".into())))
        );
        assert!(var("novalue").is_err());
        assert!(var("=3").is_err());
    }

    #[test]
    fn partitions_and_threads() {
        assert_eq!(
            partition("machine"),
            Ok(Partition {
                machine: true,
                date: false
            })
        );
        assert_eq!(
            partition("machine,date"),
            Ok(Partition {
                machine: true,
                date: true
            })
        );
        for bad in ["", "host", "machine,machine", "machine,,date"] {
            assert!(partition(bad).is_err(), "{bad}");
        }
        assert_eq!(threads("2"), Ok(2));
        assert!(threads("0").is_err() && threads("two").is_err());
    }
}
