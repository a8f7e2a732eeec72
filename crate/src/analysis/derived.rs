//! Derived series: series a pack computes sample by sample from series of the capture (PAL's
//! `DATASOURCE TYPE="Generated"`: SQL Compilations to Batch Requests, Target - Total Server Memory, ...),
//! paired per instance, per SQL Server instance or per machine. Rules select them by their path as if
//! they were in the capture; a finding on one carries its definition ([`DerivedRef`]) and
//! [`derived_values`] computes its values again for a chart or an explanation.

use super::error::AnalysisError;
use super::expr::Expr;
use super::pack::{Derived, PairBy, Value};
use crate::capture::names::fold;
use crate::capture::path::{FoldedPath, PathPattern};
use crate::capture::{Capture, Series};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a finding on a derived series says about it: the pack's definition and the capture's series
/// it was computed from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DerivedRef {
    /// The pack and the derived series' id in it.
    pub pack: String,
    pub id: String,
    /// The expression, per sample, over the inputs' names and the variables below.
    pub expression: String,
    pub inputs: Vec<DerivedInputRef>,
    /// The values of the pack variables the expression uses.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variables: BTreeMap<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DerivedInputRef {
    pub name: String,
    /// Index into the capture's series.
    pub series_index: usize,
    pub path: String,
}

/// One computed series: its definition and the series itself (path, values).
#[derive(Clone, Debug)]
pub struct Computed {
    pub reference: DerivedRef,
    pub series: Series,
}

/// The SQL Server instance of an object name, PAL's `ExtractSqlNamedInstanceFromCounterObjectPath`:
/// `MSSQL$INST1:Buffer Manager` is `INST1`, `SQLServer:Buffer Manager` (the default instance) is
/// `MSSQLSERVER`; other objects have none.
pub fn sql_instance(object: &str) -> Option<String> {
    let (head, _) = object.split_once(':')?;
    if let Some(name) = head
        .get(..6)
        .filter(|p| p.eq_ignore_ascii_case("MSSQL$"))
        .and_then(|_| head.get(6..))
    {
        return Some(name.to_string());
    }
    head.eq_ignore_ascii_case("SQLServer")
        .then(|| "MSSQLSERVER".to_string())
}

/// The key that pairs a series with the other inputs' series, and the instance name it gives the
/// derived series; None when the series cannot be paired that way.
fn key(p: &crate::capture::path::CounterPath, by: PairBy) -> Option<(String, Option<String>)> {
    let machine = fold(&p.machine);
    match by {
        PairBy::Machine => Some((machine, None)),
        PairBy::Instance => {
            let inst = match (&p.parent, &p.instance) {
                (Some(par), Some(i)) => Some(format!("{par}/{i}")),
                (None, Some(i)) => Some(i.clone()),
                _ => None,
            };
            Some((
                format!("{machine}\u{0}{}", fold(inst.as_deref().unwrap_or(""))),
                inst,
            ))
        }
        PairBy::SqlInstance => {
            let sql = sql_instance(&p.object)?;
            Some((format!("{machine}\u{0}{}", fold(&sql)), Some(sql)))
        }
    }
}

/// The path of one derived series: `d.counter` (`\Object(*)\Counter`) on `machine`, with the pair's
/// instance in place of `(*)` (or without an instance).
fn path_of(counter: &str, machine: &str, instance: Option<&str>) -> String {
    let body = counter.trim_start_matches('\\');
    let body = match body.find("(*)") {
        Some(i) => {
            let inst = instance.map_or(String::new(), |n| format!("({n})"));
            format!("{}{inst}{}", &body[..i], &body[i + 3..])
        }
        None => body.to_string(),
    };
    if machine.is_empty() {
        format!("\\{body}")
    } else {
        format!("\\\\{machine}\\{body}")
    }
}

/// Computes every derived series of `d` over `capture` (whose series are folded in `paths`): one per
/// pair of the inputs' series. An input counter that matches nothing gives none (the rules on them are
/// then skipped as selecting nothing). `vars` are the analysis' variable values.
pub fn compute(
    pack: &str,
    index: usize,
    d: &Derived,
    capture: &Capture,
    paths: &[FoldedPath],
    vars: &BTreeMap<String, Value>,
) -> Result<Vec<Computed>, AnalysisError> {
    let expr = Expr::parse(&d.expression)?;
    let used: BTreeMap<String, Value> = expr
        .variables()
        .into_iter()
        .filter(|n| !d.inputs.iter().any(|i| i.name == *n))
        .filter_map(|n| vars.get(n).map(|v| (n.to_string(), v.clone())))
        .collect();
    // Per input: its series by key (the first one of a key, in the capture's order).
    let mut by_input: Vec<Vec<(String, Option<String>, usize)>> = Vec::new();
    for inp in &d.inputs {
        let pattern = PathPattern::parse(&inp.counter).map_err(|e| AnalysisError::PackContent {
            pack: pack.to_string(),
            pointer: format!("/derived/{index}/inputs"),
            message: e.to_string(),
        })?;
        let mut list: Vec<(String, Option<String>, usize)> = Vec::new();
        for (i, fp) in paths.iter().enumerate() {
            if !pattern.matches_folded(fp) {
                continue;
            }
            if let Some((k, inst)) = key(&capture.series[i].parsed, d.pair_by) {
                if !list.iter().any(|(x, _, _)| *x == k) {
                    list.push((k, inst, i));
                }
            }
        }
        by_input.push(list);
    }
    let Some((first, rest)) = by_input.split_first() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (k, inst, s0) in first {
        let mut members = vec![*s0];
        for other in rest {
            match other.iter().find(|(x, _, _)| x == k) {
                Some((_, _, s)) => members.push(*s),
                None => break,
            }
        }
        if members.len() != d.inputs.len() {
            continue;
        }
        let columns: Vec<&[f64]> = members
            .iter()
            .map(|&s| capture.series[s].values.as_slice())
            .collect();
        let values = evaluate(&expr, &d.inputs, &columns, &used).map_err(|e| {
            AnalysisError::PackContent {
                pack: pack.to_string(),
                pointer: format!("/derived/{index}/expression"),
                message: e.to_string(),
            }
        })?;
        let machine = &capture.series[*s0].parsed.machine;
        let path = path_of(&d.counter, machine, inst.as_deref());
        out.push(Computed {
            reference: DerivedRef {
                pack: pack.to_string(),
                id: d.id.clone(),
                expression: d.expression.clone(),
                inputs: d
                    .inputs
                    .iter()
                    .zip(&members)
                    .map(|(i, &s)| DerivedInputRef {
                        name: i.name.clone(),
                        series_index: s,
                        path: capture.series[s].path.clone(),
                    })
                    .collect(),
                variables: used.clone(),
            },
            series: Series::new(path, values),
        });
    }
    Ok(out)
}

/// The expression per sample over aligned input columns: NaN where an input has no value.
fn evaluate(
    expr: &Expr,
    inputs: &[super::pack::DerivedInput],
    columns: &[&[f64]],
    vars: &BTreeMap<String, Value>,
) -> Result<Vec<f64>, super::expr::EvalError> {
    let n = columns.iter().map(|c| c.len()).min().unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    let mut row = vec![0.0f64; columns.len()];
    for j in 0..n {
        let mut missing = false;
        for (k, c) in columns.iter().enumerate() {
            row[k] = c[j];
            missing |= c[j].is_nan();
        }
        if missing {
            out.push(f64::NAN);
            continue;
        }
        let v = expr.evaluate(&|name| match inputs.iter().position(|i| i.name == name) {
            Some(k) => Some(Value::Number(row[k])),
            None => vars.get(name).cloned(),
        });
        out.push(v?);
    }
    Ok(out)
}

/// The values of the derived series a finding names, computed from `capture` again (for a chart, or
/// to explain a point by its inputs' values). An input index past the capture, or an expression that
/// does not read, is an error.
pub fn derived_values(capture: &Capture, d: &DerivedRef) -> Result<Vec<f64>, AnalysisError> {
    let expr = Expr::parse(&d.expression)?;
    let mut columns = Vec::new();
    for i in &d.inputs {
        let s = capture.series.get(i.series_index).ok_or_else(|| {
            AnalysisError::Options(format!(
                "input {} names series {}, past the capture's {}",
                i.name,
                i.series_index,
                capture.series.len()
            ))
        })?;
        columns.push(s.values.as_slice());
    }
    let inputs: Vec<super::pack::DerivedInput> = d
        .inputs
        .iter()
        .map(|i| super::pack::DerivedInput {
            name: i.name.clone(),
            counter: i.path.clone(),
        })
        .collect();
    evaluate(&expr, &inputs, &columns, &d.variables)
        .map_err(|e| AnalysisError::Options(format!("derived series {}: {e}", d.id)))
}
