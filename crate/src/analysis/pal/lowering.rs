//! Lowering: what the snippet reader finds, as the pack's terms. Threshold expressions are built as
//! [`Expr`] trees directly (folded as PAL writes them: `.Count - 1`, constants, branches never taken),
//! an If/Else or switch becomes `c * A + (1 - c) * B` over its 1/0 conditions (or a clamp, `max`/`min`),
//! a snippet's StaticThreshold calls become the parts of rules, a Generated data source a derived series,
//! and every refusal a [`Reason`] with its code.

use super::lexer::{lex, Tok};
use super::parser::{Parser, State, StringTest};
use super::xml::{counter_name, slug};
use super::{generated, ChartBand, Reason, ReasonCode, Untranslated, NETWORK_BANDWIDTH};
use crate::analysis::expr::{Cmp, Expr, Op, TextTest, MAX_DEPTH};
use crate::analysis::pack::{Derived, DerivedInput, Operator, Rule, Threshold, Variable};
use std::collections::{HashMap, HashSet};

/// Nodes of an expression the importer builds (QuickSystemOverview.xml's Pool Paged thresholds have
/// about 600: 3,882 characters printed).
const MAX_NODES: usize = 4096;

pub(super) struct Question {
    /// The name PAL's CODE uses (`$PhysicalMemory`); `variable.name` is the pack's
    /// (`PhysicalMemoryGB`, the built-in packs' name for the same answer).
    pub(super) pal_name: String,
    pub(super) variable: Variable,
    pub(super) pal_default: String,
    pub(super) used: bool,
}

#[derive(Clone)]
pub(super) struct DataSource {
    pub(super) generated: bool,
    pub(super) path: String,
    pub(super) exclude: Vec<String>,
    /// A Generated "% Network Utilization" PAL computes as bytes/sec * 8 / Current Bandwidth * 100:
    /// the bytes/sec counter it divides (the rule compares it with the `NetworkBandwidth` variable).
    pub(super) utilization_of: Option<String>,
    /// A Generated data source's CODE (read by `generated::translate` when a rule uses it).
    pub(super) code: Option<String>,
}

#[derive(Default)]
pub(super) struct Importer {
    pub(super) questions: Vec<Question>,
    pub(super) uses_logical_processors: bool,
    /// A % Network Utilization series was derived: the pack asks for `NetworkBandwidth`.
    pub(super) uses_bandwidth: bool,
    pub(super) rules: Vec<Rule>,
    /// The Generated data sources translated into derived series.
    pub(super) derived: Vec<Derived>,
    pub(super) rule_ids: HashSet<String>,
    pub(super) analysis_ids: HashMap<String, String>,
    pub(super) translated: usize,
    pub(super) total: usize,
    pub(super) untranslated: Vec<Untranslated>,
    pub(super) bands: Vec<ChartBand>,
    /// Inherited files that were not given.
    pub(super) missing: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Static,
    Chart,
}

#[derive(Clone, Debug)]
pub(super) struct Call {
    pub(super) command: Command,
    pub(super) collection: String,
    pub(super) operator: Operator,
    /// StaticThreshold: -Threshold; StaticChartThreshold: -MaxThreshold.
    pub(super) threshold: Expr,
    /// StaticChartThreshold: -MinThreshold.
    pub(super) band_min: Expr,
    pub(super) trend: bool,
}

pub(super) struct Part {
    pub(super) source: DataSource,
    pub(super) operator: Operator,
    pub(super) threshold: Expr,
    pub(super) band_min: Expr,
    pub(super) trend: bool,
}

impl Importer {
    /// Runs a CODE snippet symbolically; the StaticThreshold / StaticChartThreshold calls it makes.
    pub(super) fn run(
        &mut self,
        code: &str,
        sources: &HashMap<String, DataSource>,
    ) -> Result<Vec<Call>, Reason> {
        let toks = lex(code).map_err(|m| Reason::new(ReasonCode::Syntax, m))?;
        // Hand-written rules that walk the instances and time slices themselves say so first.
        for t in &toks {
            if let Tok::Word(w) = t {
                let lw = w.to_ascii_lowercase();
                if matches!(lw.as_str(), "for" | "foreach" | "while" | "foreach-object") {
                    return Err(Reason::new(ReasonCode::Loop, format!(
                        "loops over instances or time slices (`{w}`): a hand-written rule that PAL runs as PowerShell"
                    )));
                }
                if lw == "createalert" {
                    return Err(Reason::new(
                        ReasonCode::Alert,
                        "raises its own alerts (CreateAlert) from several counters",
                    ));
                }
            }
        }
        let mut st = State::default();
        let mut p = Parser {
            toks: &toks,
            i: 0,
            depth: 0,
            branches: 0,
            imp: self,
            sources,
        };
        p.block(&mut st, false)?;
        if p.i < toks.len() {
            return Err(Reason::new(
                ReasonCode::Syntax,
                format!("unexpected {} in the snippet", toks[p.i].show()),
            ));
        }
        Ok(st.calls)
    }

    pub(super) fn rules_of(
        &mut self,
        calls: &[Call],
        sources: &HashMap<String, DataSource>,
        want: Command,
    ) -> Result<Vec<Part>, Reason> {
        let calls: Vec<&Call> = calls.iter().filter(|c| c.command == want).collect();
        if calls.is_empty() {
            return Err(Reason::new(
                ReasonCode::NoThresholdCall,
                match want {
                    Command::Static => "the snippet makes no StaticThreshold call",
                    Command::Chart => "the snippet makes no StaticChartThreshold call",
                },
            ));
        }
        let mut out = Vec::new();
        for c in calls {
            let Some(src) = sources.get(&c.collection.to_ascii_lowercase()) else {
                return Err(Reason::new(
                    ReasonCode::Collection,
                    format!(
                        "${} is not a DATASOURCE collection of the file",
                        c.collection
                    ),
                ));
            };
            if let (true, Some(bytes)) = (src.generated, &src.utilization_of) {
                // utilization% = bytes/s * 8 / bandwidth * 100 > T  <=>  bytes/s > T * bandwidth / 800,
                // with the bandwidth in bit/s = LinkSpeedMbps * 1e6: bytes/s > T * LinkSpeedMbps * 1250.
                self.uses_bandwidth = true;
                let scale = |e: &Expr| {
                    // (T * LinkSpeedMbps) * 1250, as docs/rule-packs.md writes it.
                    bin(
                        Op::Mul,
                        bin(Op::Mul, e.clone(), Expr::var(NETWORK_BANDWIDTH)),
                        Expr::Number(1250.0),
                    )
                };
                out.push(Part {
                    source: DataSource {
                        generated: false,
                        path: bytes.clone(),
                        exclude: src.exclude.clone(),
                        utilization_of: None,
                        code: None,
                    },
                    operator: c.operator,
                    threshold: scale(&c.threshold),
                    band_min: scale(&c.band_min),
                    trend: c.trend,
                });
                continue;
            }
            if src.generated {
                let source = self.derive(src, sources).map_err(|why| {
                    Reason::new(ReasonCode::Generated, format!(
                        "Generated data source {}: PAL computes it in PowerShell, in a form not translated: {why}",
                        src.path
                    ))
                })?;
                out.push(Part {
                    source,
                    operator: c.operator,
                    threshold: c.threshold.clone(),
                    band_min: c.band_min.clone(),
                    trend: c.trend,
                });
                continue;
            }
            out.push(Part {
                source: src.clone(),
                operator: c.operator,
                threshold: c.threshold.clone(),
                band_min: c.band_min.clone(),
                trend: c.trend,
            });
        }
        Ok(out)
    }

    /// A Generated data source as a derived series of the pack (added once): the source a rule on it
    /// selects.
    pub(super) fn derive(
        &mut self,
        src: &DataSource,
        sources: &HashMap<String, DataSource>,
    ) -> Result<DataSource, String> {
        let code = src.code.as_deref().unwrap_or("");
        let output = sources
            .iter()
            .find(|(_, s)| s.generated && s.path == src.path)
            .map(|(k, _)| k.clone())
            .unwrap_or_default();
        let g = generated::translate(code, &output)?;
        let expression = bounded(g.expression).map_err(|r| r.message)?;
        let mut inputs = Vec::new();
        for (k, coll) in g.inputs.iter().enumerate() {
            let input = sources
                .get(coll)
                .filter(|s| !s.generated)
                .ok_or_else(|| format!("${coll} is not a DATASOURCE of counters"))?;
            inputs.push(DerivedInput {
                name: generated::input_name(k),
                counter: input.path.clone(),
            });
        }
        let id = slug(counter_name(&src.path));
        let d = Derived {
            id: id.clone(),
            counter: src.path.clone(),
            inputs,
            pair_by: g.pair_by,
            expression: expression.to_string(),
        };
        match self.derived.iter().find(|x| x.id == id) {
            Some(x) if *x != d => {
                return Err(format!(
                    "two Generated series named {:?} are computed differently",
                    counter_name(&src.path)
                ))
            }
            Some(_) => {}
            None => self.derived.push(d),
        }
        Ok(DataSource {
            generated: false,
            path: src.path.clone(),
            exclude: src.exclude.clone(),
            utilization_of: None,
            code: None,
        })
    }

    /// Said after an unknown variable when an inherited file is missing: it may be asked there.
    pub(super) fn missing_hint(&self) -> String {
        match self.missing.as_slice() {
            [] => String::new(),
            m => format!(
                " (it may be asked by {}, inherited but not given)",
                m.join(", ")
            ),
        }
    }

    pub(super) fn question(&mut self, name: &str) -> Option<&mut Question> {
        self.questions
            .iter_mut()
            .find(|q| q.pal_name.eq_ignore_ascii_case(name))
    }

    /// The test of a string answer (`$OS.substring(0,2) -eq '32'`) as a 1/0 expression over the answer
    /// itself: `is(OS, '...')`, `startsWith(OS, '32')`, `at(OS, 4, 'x')`, or 1 minus it for `-ne`.
    pub(super) fn text_test(&mut self, test: &StringTest) -> Result<Expr, Reason> {
        let q = self.question(&test.question).ok_or_else(|| {
            Reason::new(
                ReasonCode::Question,
                format!("${} is not a QUESTION", test.question),
            )
        })?;
        q.used = true;
        let name = q.variable.name.clone();
        let lit = test.literal.clone();
        let t = match test.substring {
            None => Some(TextTest::Is(lit)),
            // substring(start, len) has len characters: never equal to a literal of another length.
            Some((_, len)) if len != lit.chars().count() => None,
            Some((0, _)) => Some(TextTest::StartsWith(lit)),
            Some((start, _)) => Some(TextTest::At(start, lit)),
        };
        let t = t.map_or(Expr::Number(0.0), |t| Expr::Text(t, name, 0));
        Ok(if test.negated {
            sub(Expr::Number(1.0), t)
        } else {
            t
        })
    }
}

// ------------------------------------------------------------------------------------------ expressions

/// `a op b`, folded as PAL's snippets need: constants computed (when the result is finite), `(x + c) - c`
/// (PAL's `.Count - 1` after the `+ 1` of the logical processors) is x, `x * 1`, `x / 1`, `x + 0`,
/// `x - 0`, `1 * x` and `0 + x` are x, and a branch multiplied by 0 is 0.
pub(super) fn bin(op: Op, a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Number(x), Expr::Number(y)) => {
            let v = match op {
                Op::Add => x + y,
                Op::Sub => x - y,
                Op::Mul => x * y,
                Op::Div => x / y,
            };
            if v.is_finite() {
                return Expr::Number(v);
            }
        }
        (Expr::Binary(Op::Add, l, r), Expr::Number(y)) if op == Op::Sub => {
            if let Expr::Number(x) = **r {
                return if x == *y {
                    (**l).clone()
                } else {
                    bin(Op::Add, (**l).clone(), Expr::Number(x - y))
                };
            }
        }
        (_, Expr::Number(y))
            if (*y == 1.0 && matches!(op, Op::Mul | Op::Div))
                || (*y == 0.0 && matches!(op, Op::Add | Op::Sub)) =>
        {
            return a;
        }
        (Expr::Number(x), _) if (*x == 1.0 && op == Op::Mul) || (*x == 0.0 && op == Op::Add) => {
            return b
        }
        // A branch that is never taken: (1 - c) * 0 is 0.
        (Expr::Number(z), _) | (_, Expr::Number(z)) if *z == 0.0 && op == Op::Mul => {
            return Expr::Number(0.0)
        }
        _ => {}
    }
    Expr::Binary(op, Box::new(a), Box::new(b))
}

pub(super) fn sub(a: Expr, b: Expr) -> Expr {
    bin(Op::Sub, a, b)
}

/// `-a`: a number negated in place.
pub(super) fn neg(a: Expr) -> Expr {
    match a {
        Expr::Number(n) => Expr::Number(-n),
        other => Expr::Neg(Box::new(other)),
    }
}

/// A comparison, 1 or 0; folded when both sides are numbers.
pub(super) fn cmp(c: Cmp, a: Expr, b: Expr) -> Expr {
    match (a.number(), b.number()) {
        (Some(x), Some(y)) => Expr::Number(f64::from(u8::from(c.holds(x, y)))),
        _ => Expr::Compare(c, Box::new(a), Box::new(b)),
    }
}

/// An expression no deeper than [`MAX_DEPTH`] (the expression parser's, so the text written into the
/// pack reads back) and of at most MAX_NODES nodes, or why not.
pub(super) fn bounded(e: Expr) -> Result<Expr, Reason> {
    if e.deeper_than(MAX_DEPTH) {
        Err(Reason::new(
            ReasonCode::TooLarge,
            format!("builds an expression deeper than {MAX_DEPTH} levels"),
        ))
    } else if e.larger_than(&mut { MAX_NODES }) {
        Err(Reason::new(
            ReasonCode::TooLarge,
            format!("builds an expression of more than {MAX_NODES} terms"),
        ))
    } else {
        Ok(e)
    }
}

/// Outer max(e, c) / min(e, c) with a constant c become the rule's thresholdMin / thresholdMax.
pub(super) fn split_clamps(e: Expr) -> (Expr, Option<f64>, Option<f64>) {
    let mut e = e;
    let (mut lo, mut hi) = (None, None);
    loop {
        match e {
            Expr::Max(a, b) if lo.is_none() && b.number().is_some() && a.has_variables() => {
                lo = b.number();
                e = *a;
            }
            Expr::Min(a, b) if hi.is_none() && b.number().is_some() && a.has_variables() => {
                hi = b.number();
                e = *a;
            }
            other => return (other, lo, hi),
        }
    }
}

/// A number, or the expression's text ([`Expr`]'s `Display`, which [`Expr::parse`] reads back as the
/// same tree).
pub(super) fn to_threshold(e: &Expr) -> Threshold {
    match e.number() {
        Some(n) => Threshold::Number(n),
        None => Threshold::Expression(e.to_string()),
    }
}

/// `c * a + (1 - c) * b` for a 1/0 condition c (just a when a and b are the same).
pub(super) fn pick(c: &Expr, a: &Expr, b: &Expr) -> Expr {
    if a == b {
        return a.clone();
    }
    bin(
        Op::Add,
        bin(Op::Mul, c.clone(), a.clone()),
        bin(Op::Mul, sub(Expr::Number(1.0), c.clone()), b.clone()),
    )
}

/// c1 + c2 + ... as a balanced tree (shallow however many cases share a value).
pub(super) fn any_of(cs: &[&Expr]) -> Expr {
    match cs {
        [] => Expr::Number(0.0),
        [c] => (*c).clone(),
        _ => {
            let (l, r) = cs.split_at(cs.len() / 2);
            bin(Op::Add, any_of(l), any_of(r))
        }
    }
}

/// The value of mutually exclusive branches (at most one condition is 1): branches whose value is the
/// default's drop out, branches with the same value share one condition (`(is(OS, 'A') + is(OS, 'B'))
/// * X + (1 - (...)) * rest`), the rest chain as If/ElseIf.
pub(super) fn choose(conds: &[Expr], values: &[&Expr], default: &Expr) -> Result<Expr, Reason> {
    let mut groups: Vec<(&Expr, Vec<&Expr>)> = Vec::new();
    for (c, v) in conds.iter().zip(values) {
        if *v == default {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| g == v) {
            Some(g) => g.1.push(c),
            None => groups.push((v, vec![c])),
        }
    }
    let mut rest = default.clone();
    for (v, cs) in groups.into_iter().rev() {
        rest = bounded(pick(&any_of(&cs), v, &rest))?;
    }
    Ok(rest)
}

/// `If (L op R) { $v = R }` where $v was L (and the mirrored forms) is max(L, R) or min(L, R): PAL's
/// clamps; `If ($n -eq 0) { $n = 1 }` on a count is max(n, 1) for the whole numbers a count takes.
pub(super) fn clamp(compared: &(Cmp, Expr, Expr), yes: &Expr, no: &Expr) -> Option<Expr> {
    let (c, l, r) = compared;
    let max = |a: &Expr, b: &Expr| Expr::Max(Box::new(a.clone()), Box::new(b.clone()));
    let min = |a: &Expr, b: &Expr| Expr::Min(Box::new(a.clone()), Box::new(b.clone()));
    match c {
        Cmp::Lt | Cmp::Le if yes == r && no == l => Some(max(l, r)),
        Cmp::Gt | Cmp::Ge if yes == r && no == l => Some(min(l, r)),
        Cmp::Lt | Cmp::Le if yes == l && no == r => Some(min(l, r)),
        Cmp::Gt | Cmp::Ge if yes == l && no == r => Some(max(l, r)),
        Cmp::Eq if *r == Expr::Number(0.0) && *yes == Expr::Number(1.0) && no == l => {
            Some(max(l, &Expr::Number(1.0)))
        }
        _ => None,
    }
}

/// After mutually exclusive branches (an If/Else: one condition; a switch: one per case) and the
/// default (the Else, or the state before when there is none): every variable and call is chosen by
/// the conditions. A variable set in some branches only keeps its earlier value in the others, or is
/// an error (used later, it fails the rule) if it had none.
pub(super) fn combine(
    st: &mut State,
    conds: &[Expr],
    cases: Vec<State>,
    default: State,
    compared: Option<&(Cmp, Expr, Expr)>,
) -> Result<(), Reason> {
    let all: Vec<&State> = cases.iter().chain(std::iter::once(&default)).collect();
    let mut keys: Vec<&String> = Vec::new();
    for k in all.iter().flat_map(|s| s.env.keys()) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut env = HashMap::new();
    for k in keys {
        let vals: Vec<Option<&Result<Expr, Reason>>> = all.iter().map(|s| s.env.get(k)).collect();
        let v = if vals.iter().all(|v| *v == vals[0]) {
            match vals[0] {
                Some(v) => v.clone(),
                None => continue,
            }
        } else if vals.iter().any(Option::is_none) {
            Err(Reason::new(
                ReasonCode::Branches,
                format!("${k} is set in only some branches of an If/Else or switch, and had no value before"),
            ))
        } else if let Some(Err(r)) = vals.iter().flatten().find(|v| v.is_err()) {
            Err(r.clone())
        } else {
            let vals: Vec<&Expr> = vals
                .iter()
                .flatten()
                .flat_map(|v| v.as_ref().ok())
                .collect();
            let (last, values) = vals.split_last().ok_or("no branch")?;
            match (compared, values) {
                (Some(c), [yes]) => match clamp(c, yes, last) {
                    Some(e) => bounded(e),
                    None => choose(conds, values, last),
                },
                _ => choose(conds, values, last),
            }
        };
        env.insert(k.clone(), v);
    }
    st.env = env;
    let before = st.calls.len();
    let n = default.calls.len();
    if n < before || all.iter().any(|s| s.calls.len() != n) {
        return Err(Reason::new(
            ReasonCode::Branches,
            "the branches of an If/Else or switch make a different number of threshold calls",
        ));
    }
    for i in before..n {
        let calls: Vec<&Call> = cases.iter().map(|s| &s.calls[i]).collect();
        let d = &default.calls[i];
        if calls.iter().any(|a| {
            a.command != d.command
                || !a.collection.eq_ignore_ascii_case(&d.collection)
                || a.operator != d.operator
                || a.trend != d.trend
        }) {
            return Err(Reason::new(
                ReasonCode::Branches,
                "the branches of an If/Else or switch call StaticThreshold on different collections or operators",
            ));
        }
        let mut c = d.clone();
        let thresholds: Vec<&Expr> = calls.iter().map(|a| &a.threshold).collect();
        c.threshold = choose(conds, &thresholds, &d.threshold)?;
        let mins: Vec<&Expr> = calls.iter().map(|a| &a.band_min).collect();
        c.band_min = choose(conds, &mins, &d.band_min)?;
        st.calls.push(c);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_fold_as_pal_writes_and_print_what_parses_back() {
        let v = Expr::var;
        let n = Expr::Number;
        let e = bin(
            Op::Mul,
            bin(Op::Mul, v("PhysicalMemory"), n(1024.0)),
            n(0.1),
        );
        assert_eq!(e.to_string(), "PhysicalMemory * 1024 * 0.1");
        let e = bin(Op::Sub, v("a"), bin(Op::Sub, v("b"), v("c")));
        assert_eq!(e.to_string(), "a - (b - c)");
        let e = bin(Op::Mul, bin(Op::Add, v("a"), n(1.0)), n(2.0));
        assert_eq!(e.to_string(), "(a + 1) * 2");
        // (logicalProcessors + 1) - 1 is logicalProcessors: PAL's `.Count - 1`; (lp + 3) - 1 = lp + 2.
        assert_eq!(sub(bin(Op::Add, v("lp"), n(1.0)), n(1.0)), v("lp"));
        assert_eq!(
            sub(bin(Op::Add, v("lp"), n(3.0)), n(1.0)),
            bin(Op::Add, v("lp"), n(2.0))
        );
        // Constants: 0.6 * 2 = 1.2; 1 / 0 is not finite, so it stays a tree; x * 1, 0 + x, 0 * x.
        assert_eq!(bin(Op::Mul, n(0.6), n(2.0)).number(), Some(1.2));
        assert!(matches!(
            bin(Op::Div, n(1.0), n(0.0)),
            Expr::Binary(Op::Div, ..)
        ));
        assert_eq!(bin(Op::Mul, v("x"), n(1.0)), v("x"));
        assert_eq!(bin(Op::Add, n(0.0), v("x")), v("x"));
        assert_eq!(bin(Op::Mul, n(0.0), v("x")), n(0.0));
        // -5 is the number; gt(3, 2) is 1, lt(3, 2) is 0; gt(x, 2) stays.
        assert_eq!(neg(n(5.0)), n(-5.0));
        assert_eq!(neg(v("x")), Expr::Neg(Box::new(v("x"))));
        assert_eq!(cmp(Cmp::Gt, n(3.0), n(2.0)), n(1.0));
        assert_eq!(cmp(Cmp::Lt, n(3.0), n(2.0)), n(0.0));
        // An If/Else: c * A + (1 - c) * B.
        let c = cmp(Cmp::Gt, v("UserVa"), n(2048.0));
        let p = pick(&c, &n(134_217_728.0), &n(268_435_456.0));
        assert_eq!(
            p.to_string(),
            "gt(UserVa, 2048) * 134217728 + (1 - gt(UserVa, 2048)) * 268435456"
        );
        // Each tree reads back from its text as itself (negative numbers too).
        let neg_tree = bin(Op::Sub, n(-5.0), bin(Op::Mul, v("a"), neg(v("b"))));
        assert_eq!(neg_tree.to_string(), "(-5) - a * -b");
        for e in [p, neg_tree, e] {
            assert_eq!(Expr::parse(&e.to_string()).unwrap().without_offsets(), e);
        }
        // max(x, 64) outside is thresholdMin 64.
        let clamped = Expr::Max(Box::new(v("x")), Box::new(n(64.0)));
        assert_eq!(split_clamps(clamped), (v("x"), Some(64.0), None));
    }

    #[test]
    fn built_trees_are_bounded_by_the_parsers_depth() {
        // A chain of 64 additions is 65 levels: refused with the code too-large; 63 (64 levels) kept,
        // and its text parses back.
        let chain = |k: usize| (0..k).fold(Expr::var("a"), |e, _| bin(Op::Add, e, Expr::var("b")));
        let r = bounded(chain(64)).unwrap_err();
        assert_eq!(r.code, ReasonCode::TooLarge);
        assert!(r.message.contains("deeper than 64"), "{r}");
        let ok = bounded(chain(63)).unwrap();
        assert_eq!(Expr::parse(&ok.to_string()).unwrap().without_offsets(), ok);
    }
}
