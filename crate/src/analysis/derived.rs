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
/// pair of the inputs' series, except on a machine that has a series `d.unless` matches. An input
/// counter that matches nothing gives none (the rules on them are then skipped as selecting nothing).
/// `vars` are the analysis' variable values.
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
    let pattern_at = |text: &str, pointer: &str| {
        PathPattern::parse(text).map_err(|e| AnalysisError::PackContent {
            pack: pack.to_string(),
            pointer: format!("/derived/{index}/{pointer}"),
            message: e.to_string(),
        })
    };
    // The machines that have the counter this series stands in for: none of theirs is computed.
    let covered: Vec<&str> = match &d.unless {
        None => Vec::new(),
        Some(u) => {
            let unless = pattern_at(u, "unless")?;
            let mut m: Vec<&str> = paths
                .iter()
                .filter(|fp| unless.matches_folded(fp))
                .map(|fp| fp.machine.as_str())
                .collect();
            m.sort_unstable();
            m.dedup();
            m
        }
    };
    // Per input: its series by key (the first one of a key, in the capture's order).
    let mut by_input: Vec<Vec<(String, Option<String>, usize)>> = Vec::new();
    for inp in &d.inputs {
        let pattern = pattern_at(&inp.counter, "inputs")?;
        let mut list: Vec<(String, Option<String>, usize)> = Vec::new();
        for (i, fp) in paths.iter().enumerate() {
            if !pattern.matches_folded(fp) || covered.binary_search(&fp.machine.as_str()).is_ok() {
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

/// The expression over aligned input columns: NaN where an input has no value. Evaluated column-wise
/// (the tree walked once per chunk of samples, [`Compiled`]); an expression whose variables do not all
/// resolve to numbers (an error, or one only a branch not taken would meet) falls back to
/// [`evaluate_per_sample`], which gives the same values and the same errors.
fn evaluate(
    expr: &Expr,
    inputs: &[super::pack::DerivedInput],
    columns: &[&[f64]],
    vars: &BTreeMap<String, Value>,
) -> Result<Vec<f64>, super::expr::EvalError> {
    match Compiled::of(expr, inputs, vars) {
        Some(c) => Ok(c.columns(columns)),
        None => evaluate_per_sample(expr, inputs, columns, vars),
    }
}

/// The expression sample by sample, through `Expr::evaluate`: the reference the column-wise path is
/// tested against (bit for bit), and the path for expressions it cannot compile.
pub(crate) fn evaluate_per_sample(
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

/// Samples per chunk of the column-wise evaluation: each node's values for a chunk stay in cache.
const CHUNK: usize = 1024;

/// An expression with its variables resolved: an input's column, or a constant (a pack variable, a
/// text test on one). Evaluated a chunk of samples at a time, node by node, with the same f64
/// operations in the same order as `Expr::evaluate` per sample (so the same bits); `if` computes both
/// branches and picks per sample, which is the same since evaluation has no side effect.
enum Compiled {
    Column(usize),
    Const(f64),
    Neg(Box<Compiled>),
    Binary(super::expr::Op, Box<Compiled>, Box<Compiled>),
    Min(Box<Compiled>, Box<Compiled>),
    Max(Box<Compiled>, Box<Compiled>),
    Compare(super::pack::Operator, Box<Compiled>, Box<Compiled>),
    If(Box<Compiled>, Box<Compiled>, Box<Compiled>),
    Round(Box<Compiled>),
    Abs(Box<Compiled>),
}

impl Compiled {
    /// None when a variable does not resolve to a number (or a text test's to text).
    fn of(
        e: &Expr,
        inputs: &[super::pack::DerivedInput],
        vars: &BTreeMap<String, Value>,
    ) -> Option<Compiled> {
        let b = |x: &Expr| Compiled::of(x, inputs, vars).map(Box::new);
        Some(match e {
            Expr::Number(n) => Compiled::Const(*n),
            Expr::Variable(name, _) => match inputs.iter().position(|i| i.name == *name) {
                Some(k) => Compiled::Column(k),
                None => Compiled::Const(vars.get(name)?.as_number().ok()?),
            },
            Expr::Text(test, name, _) => {
                if inputs.iter().any(|i| i.name == *name) {
                    return None;
                }
                match vars.get(name)? {
                    Value::Text(t) => Compiled::Const(f64::from(u8::from(test.holds(t)))),
                    Value::Number(_) => return None,
                }
            }
            Expr::Neg(a) => Compiled::Neg(b(a)?),
            Expr::Binary(op, x, y) => Compiled::Binary(*op, b(x)?, b(y)?),
            Expr::Min(x, y) => Compiled::Min(b(x)?, b(y)?),
            Expr::Max(x, y) => Compiled::Max(b(x)?, b(y)?),
            Expr::Compare(c, x, y) => Compiled::Compare(*c, b(x)?, b(y)?),
            Expr::If(c, x, y) => Compiled::If(b(c)?, b(x)?, b(y)?),
            Expr::Round(a) => Compiled::Round(b(a)?),
            Expr::Abs(a) => Compiled::Abs(b(a)?),
        })
    }

    /// The values over whole columns (the shortest's length), NaN where an input has none.
    fn columns(&self, columns: &[&[f64]]) -> Vec<f64> {
        let n = columns.iter().map(|c| c.len()).min().unwrap_or(0);
        let mut out = vec![0.0; n];
        let mut start = 0;
        while start < n {
            let end = (start + CHUNK).min(n);
            let chunk: Vec<&[f64]> = columns.iter().map(|c| &c[start..end]).collect();
            self.chunk(&chunk, &mut out[start..end]);
            start = end;
        }
        for c in columns {
            for (o, v) in out.iter_mut().zip(c.iter()) {
                if v.is_nan() {
                    *o = f64::NAN;
                }
            }
        }
        out
    }

    /// This node's values over one chunk of the columns, into `out` (as long as the chunk).
    fn chunk(&self, cols: &[&[f64]], out: &mut [f64]) {
        use super::expr::Op;
        /// Both sides over the chunk, then `f` element by element (generic, so it is inlined).
        fn two<F: Fn(f64, f64) -> f64>(
            x: &Compiled,
            y: &Compiled,
            cols: &[&[f64]],
            out: &mut [f64],
            f: F,
        ) {
            let mut rhs = vec![0.0; out.len()];
            x.chunk(cols, out);
            y.chunk(cols, &mut rhs);
            for (o, r) in out.iter_mut().zip(&rhs) {
                *o = f(*o, *r);
            }
        }
        match self {
            Compiled::Column(k) => out.copy_from_slice(cols[*k]),
            Compiled::Const(c) => out.fill(*c),
            Compiled::Neg(a) => {
                a.chunk(cols, out);
                out.iter_mut().for_each(|v| *v = -*v);
            }
            Compiled::Binary(op, x, y) => match op {
                Op::Add => two(x, y, cols, out, |a, b| a + b),
                Op::Sub => two(x, y, cols, out, |a, b| a - b),
                Op::Mul => two(x, y, cols, out, |a, b| a * b),
                Op::Div => two(x, y, cols, out, |a, b| a / b),
            },
            Compiled::Min(x, y) => two(x, y, cols, out, f64::min),
            Compiled::Max(x, y) => two(x, y, cols, out, f64::max),
            Compiled::Compare(c, x, y) => {
                two(x, y, cols, out, |a, b| f64::from(u8::from(c.holds(a, b))))
            }
            Compiled::If(c, x, y) => {
                let (mut a, mut b) = (vec![0.0; out.len()], vec![0.0; out.len()]);
                c.chunk(cols, out);
                x.chunk(cols, &mut a);
                y.chunk(cols, &mut b);
                for ((o, a), b) in out.iter_mut().zip(&a).zip(&b) {
                    *o = if *o != 0.0 && !o.is_nan() { *a } else { *b };
                }
            }
            Compiled::Round(a) => {
                a.chunk(cols, out);
                out.iter_mut()
                    .for_each(|v| *v = super::expr::round_half_even(*v));
            }
            Compiled::Abs(a) => {
                a.chunk(cols, out);
                out.iter_mut().for_each(|v| *v = v.abs());
            }
        }
    }
}

/// The expression, the inputs' columns and their names, for a finding's derived series over `capture`.
type Resolved<'c> = (Expr, Vec<&'c [f64]>, Vec<super::pack::DerivedInput>);

fn resolve<'c>(capture: &'c Capture, d: &DerivedRef) -> Result<Resolved<'c>, AnalysisError> {
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
    let inputs = d
        .inputs
        .iter()
        .map(|i| super::pack::DerivedInput {
            name: i.name.clone(),
            counter: i.path.clone(),
        })
        .collect();
    Ok((expr, columns, inputs))
}

/// The values of the derived series a finding names, computed from `capture` again (for a chart, or
/// to explain a point by its inputs' values). An input index past the capture, or an expression that
/// does not read, is an error.
pub fn derived_values(capture: &Capture, d: &DerivedRef) -> Result<Vec<f64>, AnalysisError> {
    let (expr, columns, inputs) = resolve(capture, d)?;
    evaluate(&expr, &inputs, &columns, &d.variables)
        .map_err(|e| AnalysisError::Options(format!("derived series {}: {e}", d.id)))
}

/// One point of a derived series explained: its inputs' values at the sample, and the arithmetic.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DerivedExplanation {
    pub sample: usize,
    /// ms since the epoch, UTC.
    pub time: f64,
    pub expression: String,
    pub inputs: Vec<DerivedInputValue>,
    /// The pack variables the expression uses, with their values.
    pub variables: BTreeMap<String, Value>,
    /// The expression with each input's and numeric variable's value in place of its name, then `=`
    /// and the result (`if(gt(250, 1) * gt(1000, 1), round(250 / 1000 * 100), 0) = 25`); None where
    /// an input has no value at the sample (the derived series has none there either).
    pub substituted: Option<String>,
    /// NaN where an input has no value.
    pub value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DerivedInputValue {
    pub name: String,
    pub series_index: usize,
    pub path: String,
    /// NaN where the series has no value at the sample.
    pub value: f64,
}

/// The tree with each variable `lookup` knows as a number written as that number.
fn substitute(e: &Expr, lookup: &dyn Fn(&str) -> Option<f64>) -> Expr {
    let b = |x: &Expr| Box::new(substitute(x, lookup));
    match e {
        Expr::Variable(name, at) => {
            lookup(name).map_or_else(|| Expr::Variable(name.clone(), *at), Expr::Number)
        }
        Expr::Number(_) | Expr::Text(..) => e.clone(),
        Expr::Neg(a) => Expr::Neg(b(a)),
        Expr::Binary(op, x, y) => Expr::Binary(*op, b(x), b(y)),
        Expr::Min(x, y) => Expr::Min(b(x), b(y)),
        Expr::Max(x, y) => Expr::Max(b(x), b(y)),
        Expr::Compare(c, x, y) => Expr::Compare(*c, b(x), b(y)),
        Expr::If(c, x, y) => Expr::If(b(c), b(x), b(y)),
        Expr::Round(a) => Expr::Round(b(a)),
        Expr::Abs(a) => Expr::Abs(b(a)),
    }
}

/// Explains sample `sample` of the derived series `d` names: each input's value there, the variables,
/// and the expression with those values written in. A sample past the capture is an error.
pub fn explain_derived(
    capture: &Capture,
    d: &DerivedRef,
    sample: usize,
) -> Result<DerivedExplanation, AnalysisError> {
    let (expr, columns, inputs) = resolve(capture, d)?;
    let time = *capture.timestamps.get(sample).ok_or_else(|| {
        AnalysisError::Options(format!(
            "sample {sample} is past the capture's {} samples",
            capture.timestamps.len()
        ))
    })?;
    let at = |c: &[f64]| c.get(sample).copied().unwrap_or(f64::NAN);
    let row: Vec<&[f64]> = columns
        .iter()
        .map(|c| c.get(sample..=sample).unwrap_or(&[f64::NAN]))
        .collect();
    let value = evaluate_per_sample(&expr, &inputs, &row, &d.variables)
        .map_err(|e| AnalysisError::Options(format!("derived series {}: {e}", d.id)))?
        .first()
        .copied()
        .unwrap_or(f64::NAN);
    let values: Vec<f64> = columns.iter().map(|c| at(c)).collect();
    let substituted = values.iter().all(|v| !v.is_nan()).then(|| {
        let lookup = |name: &str| match inputs.iter().position(|i| i.name == name) {
            Some(k) => Some(values[k]),
            None => d.variables.get(name).and_then(|v| v.as_number().ok()),
        };
        format!("{} = {value}", substitute(&expr, &lookup))
    });
    Ok(DerivedExplanation {
        sample,
        time,
        expression: d.expression.clone(),
        inputs: d
            .inputs
            .iter()
            .zip(&values)
            .map(|(i, &value)| DerivedInputValue {
                name: i.name.clone(),
                series_index: i.series_index,
                path: i.path.clone(),
                value,
            })
            .collect(),
        variables: d.variables.clone(),
        substituted,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::super::pack::DerivedInput;
    use super::*;
    use proptest::prelude::*;

    fn inputs(names: &[&str]) -> Vec<DerivedInput> {
        names
            .iter()
            .map(|n| DerivedInput {
                name: n.to_string(),
                counter: String::new(),
            })
            .collect()
    }

    /// Random expressions over inputs a, b, c and the variables k (a number) and os (text), with
    /// every node kind, guards and divisions by zero included.
    fn expr_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("a".to_string()),
            Just("b".to_string()),
            Just("c".to_string()),
            Just("k".to_string()),
            Just("is(os, 'Windows')".to_string()),
            (-5i32..50).prop_map(|n| n.to_string()),
            Just("0.5".to_string()),
        ];
        leaf.prop_recursive(5, 40, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone(), 0..4usize)
                    .prop_map(|(x, y, o)| format!("({x} {} {y})", ["+", "-", "*", "/"][o])),
                inner.clone().prop_map(|x| format!("-({x})")),
                (inner.clone(), inner.clone(), 0..8usize).prop_map(|(x, y, f)| format!(
                    "{}({x}, {y})",
                    ["min", "max", "gt", "ge", "lt", "le", "eq", "ne"][f]
                )),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, x, y)| format!("if({c}, {x}, {y})")),
                inner.clone().prop_map(|x| format!("round({x})")),
                inner.prop_map(|x| format!("abs({x})")),
            ]
        })
    }

    fn column(n: usize) -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(
            prop_oneof![
                3 => -100.0f64..100.0,
                1 => Just(0.0),
                1 => Just(f64::NAN),
                1 => (0i32..20).prop_map(|x| f64::from(x) / 2.0),
            ],
            n,
        )
    }

    proptest! {
        /// The column-wise path gives the per-sample reference's values bit for bit (NaN as NaN), on
        /// columns longer than a chunk.
        #[test]
        fn column_wise_is_the_per_sample_reference_bit_for_bit(
            text in expr_text(),
            (a, b, c) in (1usize..2500).prop_flat_map(|n| (column(n), column(n), column(n))),
            k in -10.0f64..10.0,
        ) {
            let e = Expr::parse(&text).unwrap();
            let ins = inputs(&["a", "b", "c"]);
            let vars: BTreeMap<String, Value> = [
                ("k".to_string(), Value::Number(k)),
                ("os".to_string(), Value::Text("windows".into())),
            ]
            .into();
            let cols: Vec<&[f64]> = vec![&a, &b, &c];
            let want = evaluate_per_sample(&e, &ins, &cols, &vars).unwrap();
            let got = Compiled::of(&e, &ins, &vars).expect("compiles").columns(&cols);
            let bits = |v: &[f64]| v.iter().map(|x| if x.is_nan() { u64::MAX } else { x.to_bits() }).collect::<Vec<_>>();
            prop_assert_eq!(bits(&got), bits(&want), "{}", text);
        }
    }

    #[test]
    fn a_variable_that_does_not_resolve_falls_back_to_the_reference() {
        // `u` is unknown: only the branch never taken reads it (a > 100 never holds), so there is no
        // error, as per sample.
        let e = Expr::parse("if(gt(a, 100), u, a * 2)").unwrap();
        let ins = inputs(&["a"]);
        assert!(Compiled::of(&e, &ins, &BTreeMap::new()).is_none());
        let a = [1.0, 2.0, f64::NAN];
        let v = evaluate(&e, &ins, &[&a], &BTreeMap::new()).unwrap();
        // 1 * 2 = 2, 2 * 2 = 4, no value.
        assert_eq!(&v[..2], &[2.0, 4.0]);
        assert!(v[2].is_nan());
        // Where the branch is taken, the error names it.
        let a = [200.0];
        assert!(evaluate(&e, &ins, &[&a], &BTreeMap::new()).is_err());
    }
}
