//! PAL's Generated data sources as derived series: the PowerShell loop PAL runs to compute a series from
//! others (SQL Compilations/sec to Batch Requests/sec per SQL instance, Target - Total Server Memory, a
//! disk's Read Write Ratio, Disk Overwhelmed) read symbolically, never run.
//!
//! The shape every such loop of PAL's has: an outer `For` over one collection (the first input), inner
//! `For` loops that find the matching series of the other collections (by `CounterInstance`, or by the
//! SQL instance `ExtractSqlNamedInstanceFromCounterObjectPath` reads from the object name), then a
//! `For ($v ...)` over the samples whose body computes one value per sample with `If`/`ElseIf`/`Else`,
//! assignments, arithmetic, `[int]` (rounding, halves to even), `[math]::abs`, `IsGreaterThanZero`,
//! comparisons joined by `-and`/`-or`, and adds it with `.Add(...)`. That body becomes one expression
//! over the inputs (`if(c, x, y)` for each branch), built as an [`Expr`] tree directly. Anything else
//! (hash tables, `ForEach`, a question's answer) is reported with the reason. The arithmetic is
//! `grammar.rs`'s, the threshold snippets' too; this file says what a loop's operands are (its
//! [`Dialect`]) and reads its statements.

use super::grammar::{comparison, numeric_cast, Cast, Dialect};
use super::lexer::{lex, Tok};
use super::{Reason, ReasonCode};
use crate::analysis::expr::{Cmp, Expr, Op};
use crate::analysis::pack::PairBy;
use std::collections::HashMap;

/// A Generated data source read: its inputs (collection variable names, lower case, in order: the
/// outer loop's first), how they pair, and the per-sample expression over `a`, `b`, `c`, ...
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    pub inputs: Vec<String>,
    pub pair_by: PairBy,
    pub expression: Expr,
}

/// A body longer than this many tokens is not one of PAL's; nesting is bounded by the expression
/// model's MAX_DEPTH, as every expression of the crate.
const MAX_TOKENS: usize = 20_000;

/// The snippet is not PowerShell this reader follows: a token out of place.
fn syntax(message: impl Into<String>) -> Reason {
    Reason::new(ReasonCode::Syntax, message)
}

/// A PowerShell form not translated: a cast, a method, an operator, a statement.
fn form(message: impl Into<String>) -> Reason {
    Reason::new(ReasonCode::Form, message)
}

/// A loop whose shape is not the one PAL's Generated data sources have (one value per sample of
/// paired series).
fn shape(message: impl Into<String>) -> Reason {
    Reason::new(ReasonCode::Generated, message)
}

/// Beyond the bounds: tokens or nesting.
fn too_large(message: impl Into<String>) -> Reason {
    Reason::new(ReasonCode::TooLarge, message)
}

/// Input names in the expression: the first input is `a`, then `b`, ...
pub fn input_name(i: usize) -> String {
    char::from(b'a' + (i.min(25)) as u8).to_string()
}

/// Reads the CODE of a Generated data source whose output collection is `output` (lower case).
pub fn translate(code: &str, output: &str) -> Result<Generated, Reason> {
    // `.Add(` takes an expression, which the lexer's method calls (numbers only) do not.
    let code = replace_ignore_case(code, ".add(", " ___add(");
    let toks = lex(&code)?;
    if toks.len() > MAX_TOKENS {
        return Err(too_large(format!(
            "a loop of more than {MAX_TOKENS} tokens"
        )));
    }
    for t in &toks {
        if let Tok::Word(w) = t {
            let lw = w.to_ascii_lowercase();
            if matches!(lw.as_str(), "foreach" | "while" | "foreach-object") {
                return Err(Reason::new(
                    ReasonCode::Loop,
                    format!(
                        "walks other data with `{w}` (not one value per sample of paired series)"
                    ),
                ));
            }
        }
    }
    let pair_by = if toks.iter().any(|t| matches!(t, Tok::Word(w) if w.eq_ignore_ascii_case("ExtractSqlNamedInstanceFromCounterObjectPath"))) {
        PairBy::SqlInstance
    } else if toks.iter().any(|t| matches!(t, Tok::Word(w) if w.eq_ignore_ascii_case("CounterInstance"))) {
        PairBy::Instance
    } else {
        PairBy::Machine
    };
    // Loops: `For ($i=0;$i -lt $X.Count;$i++)` (a collection) and the sample loop (`.Value.Count`).
    let mut loop_of: HashMap<String, String> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut sample_body: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < toks.len() {
        if matches!(&toks[k], Tok::Word(w) if w.eq_ignore_ascii_case("for")) {
            let open = k + 1;
            let close =
                matching(&toks, open, '(', ')').ok_or_else(|| syntax("a `For` without its `)`"))?;
            let header = &toks[open + 1..close];
            let var = header.iter().find_map(|t| match t {
                Tok::Var(n, None) => Some(n.to_ascii_lowercase()),
                _ => None,
            });
            let counted = header.iter().find_map(|t| match t {
                Tok::Var(n, Some((m, _))) if m == "count" => Some(n.to_ascii_lowercase()),
                _ => None,
            });
            let sample = header.iter().any(|t| {
                matches!(t, Tok::Var(_, Some((m, _))) if m == "value")
                    || matches!(t, Tok::Word(w) if w.eq_ignore_ascii_case("value"))
            });
            let body_open = close + 1 + skip_seps(&toks[close + 1..]);
            let body_close = matching(&toks, body_open, '{', '}')
                .ok_or_else(|| syntax("a `For` without its block"))?;
            if sample {
                if sample_body.is_some() {
                    return Err(shape("two loops over the samples"));
                }
                sample_body = Some((body_open + 1, body_close));
                k = body_close + 1;
                continue;
            }
            if let (Some(v), Some(c)) = (var, counted) {
                if c == output {
                    return Err(shape("loops over its own output"));
                }
                loop_of.insert(v, c.clone());
                if !order.contains(&c) {
                    order.push(c);
                }
            }
            k = close + 1;
            continue;
        }
        k += 1;
    }
    let (b0, b1) = sample_body.ok_or_else(|| shape("no loop over the samples (`.Value.Count`)"))?;
    // Aliases: `$m = $b` (b a loop over X: m is X's match), `$InstanceOfY = $X[$a]`.
    let mut alias: HashMap<String, String> = loop_of.clone();
    for w in toks.windows(3) {
        if let (Tok::Var(n, None), Tok::Punct('='), Tok::Var(src, None)) = (&w[0], &w[1], &w[2]) {
            if let Some(c) = loop_of.get(&src.to_ascii_lowercase()) {
                alias.insert(n.to_ascii_lowercase(), c.clone());
            }
        }
    }
    for w in toks.windows(4) {
        if let (Tok::Var(n, None), Tok::Punct('='), Tok::Var(src, None), idx) =
            (&w[0], &w[1], &w[2], &w[3])
        {
            if !is_index(idx) {
                continue;
            }
            let src = src.to_ascii_lowercase();
            if order.contains(&src) {
                alias.insert(n.to_ascii_lowercase(), src);
            }
        }
    }
    if order.is_empty() {
        return Err(shape("no loop over a collection of series"));
    }
    let mut run = Run {
        toks: &toks[b0..b1],
        i: 0,
        depth: 0,
        alias: &alias,
        inputs: vec![order[0].clone()],
    };
    let mut st = State::default();
    run.block(&mut st)?;
    let out = st.out.ok_or_else(|| shape("adds no value per sample"))?;
    if matches!(out, Expr::Number(n) if n.is_nan()) {
        return Err(shape("adds a value only on some paths"));
    }
    Ok(Generated {
        inputs: run.inputs,
        pair_by,
        expression: out,
    })
}

fn replace_ignore_case(text: &str, from: &str, to: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (i, _) in lower.match_indices(from) {
        out.push_str(&text[last..i]);
        out.push_str(to);
        last = i + from.len();
    }
    out.push_str(&text[last..]);
    out
}

fn skip_seps(t: &[Tok]) -> usize {
    t.iter().take_while(|t| matches!(t, Tok::Sep)).count()
}

/// The index of the token closing the bracket opened at `open` (which must be `o`).
fn matching(toks: &[Tok], open: usize, o: char, c: char) -> Option<usize> {
    let opens = matches!(toks.get(open), Some(Tok::Punct(p)) if *p == o)
        || (o == '(' && matches!(toks.get(open), Some(Tok::SubExpr)));
    if !opens {
        return None;
    }
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct(p) if *p == o => depth += 1,
            Tok::SubExpr if o == '(' => depth += 1,
            Tok::Punct(p) if *p == c => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Locals (their expression, and whether `[int]` constrains them) and the value added.
#[derive(Clone, Default)]
struct State {
    locals: HashMap<String, (Expr, bool)>,
    out: Option<Expr>,
}

struct Run<'t> {
    toks: &'t [Tok],
    i: usize,
    depth: usize,
    alias: &'t HashMap<String, String>,
    /// Collections used, in order of first use (the outer loop's first).
    inputs: Vec<String>,
}

fn nan() -> Expr {
    Expr::Number(f64::NAN)
}

/// `[$a]`: the lexer reads a bracket as a cast, `Cast("$a")`.
fn is_index(t: &Tok) -> bool {
    matches!(t, Tok::Cast(c) if c.starts_with('$') && c.len() > 1)
}

fn is_word(t: Option<&Tok>, w: &str) -> bool {
    matches!(t, Some(Tok::Word(x)) if x.eq_ignore_ascii_case(w))
}

impl Run<'_> {
    /// Statements up to the end of the tokens or a `}`.
    fn block(&mut self, st: &mut State) -> Result<(), Reason> {
        loop {
            self.skip_seps();
            match self.peek() {
                None | Some(Tok::Punct('}')) => return Ok(()),
                _ => self.statement(st)?,
            }
        }
    }

    fn braced(&mut self, st: &mut State) -> Result<(), Reason> {
        self.skip_seps();
        self.expect(Tok::Punct('{'))?;
        self.nested(|p| p.block(st))?;
        self.expect(Tok::Punct('}'))
    }

    fn statement(&mut self, st: &mut State) -> Result<(), Reason> {
        if is_word(self.peek(), "if") {
            self.i += 1;
            return self.if_chain(st);
        }
        let mut int = false;
        if let Some(Tok::Cast(c)) = self.peek() {
            match (c.as_str(), numeric_cast(c)) {
                (_, Some(rounds)) => int = rounds,
                ("void", None) => {}
                (other, None) => return Err(form(format!("a [{other}] statement"))),
            }
            self.i += 1;
        }
        match self.peek().cloned() {
            Some(Tok::Var(name, None)) => {
                self.i += 1;
                if is_word(self.peek(), "___add") {
                    self.i += 1;
                    self.expect(Tok::Punct('('))?;
                    let e = self.expr(st)?;
                    self.expect(Tok::Punct(')'))?;
                    st.out = Some(e);
                    return self.end_of_statement();
                }
                self.expect(Tok::Punct('='))?;
                let name = name.to_ascii_lowercase();
                // An initialisation to '' (PAL: `[int] $i = ''`) is 0.
                let e = if matches!(self.peek(), Some(Tok::Str(s)) if s.is_empty()) {
                    self.i += 1;
                    Expr::Number(0.0)
                } else {
                    self.expr(st)?
                };
                let constrained = int || st.locals.get(&name).is_some_and(|l| l.1);
                let e = if constrained {
                    Expr::Round(Box::new(e))
                } else {
                    e
                };
                st.locals.insert(name, (e, constrained));
                self.end_of_statement()
            }
            other => Err(syntax(format!(
                "a statement starting with {}",
                other.map_or("the end".into(), |t| t.show())
            ))),
        }
    }

    /// After `If`: `(cond) { } [ElseIf (cond) { }]* [Else { }]`.
    fn if_chain(&mut self, st: &mut State) -> Result<(), Reason> {
        self.enter()?;
        self.expect(Tok::Punct('('))?;
        let c = self.condition(st)?;
        self.expect(Tok::Punct(')'))?;
        let mut yes = st.clone();
        self.braced(&mut yes)?;
        let save = self.i;
        self.skip_seps();
        let mut no = st.clone();
        if is_word(self.peek(), "elseif") {
            self.i += 1;
            self.if_chain(&mut no)?;
        } else if is_word(self.peek(), "else") {
            self.i += 1;
            self.braced(&mut no)?;
        } else {
            self.i = save;
        }
        self.depth -= 1;
        // Merge: each local and the value added, chosen by the condition.
        let mut names: Vec<&String> = yes.locals.keys().chain(no.locals.keys()).collect();
        names.sort();
        names.dedup();
        let mut locals = HashMap::new();
        for n in names {
            let a = yes.locals.get(n);
            let b = no.locals.get(n);
            let merged = match (a, b) {
                (Some(x), Some(y)) if x.0 == y.0 => x.clone(),
                (x, y) => (
                    Expr::If(
                        Box::new(c.clone()),
                        Box::new(x.map_or_else(nan, |v| v.0.clone())),
                        Box::new(y.map_or_else(nan, |v| v.0.clone())),
                    ),
                    x.is_some_and(|v| v.1) && y.is_some_and(|v| v.1),
                ),
            };
            locals.insert(n.clone(), merged);
        }
        st.locals = locals;
        st.out = match (yes.out, no.out) {
            (None, None) => None,
            (Some(x), Some(y)) if x == y => Some(x),
            (x, y) => Some(Expr::If(
                Box::new(c),
                Box::new(x.unwrap_or_else(nan)),
                Box::new(y.unwrap_or_else(nan)),
            )),
        };
        Ok(())
    }

    /// `a -and b`, `a -or b` over comparisons: 1 or 0.
    fn condition(&mut self, st: &State) -> Result<Expr, Reason> {
        let mut left = self.comparison(st)?;
        loop {
            match self.peek() {
                Some(Tok::Dash(d)) if d == "and" => {
                    self.i += 1;
                    let r = self.comparison(st)?;
                    left = Expr::Binary(Op::Mul, Box::new(left), Box::new(r));
                }
                Some(Tok::Dash(d)) if d == "or" => {
                    self.i += 1;
                    let r = self.comparison(st)?;
                    left = Expr::Compare(
                        Cmp::Gt,
                        Box::new(Expr::Binary(Op::Add, Box::new(left), Box::new(r))),
                        Box::new(Expr::Number(0.0)),
                    );
                }
                _ => return Ok(left),
            }
        }
    }

    fn comparison(&mut self, st: &State) -> Result<Expr, Reason> {
        let left = self.expr(st)?;
        match comparison(self.peek()) {
            Some(op) => {
                self.i += 1;
                let right = self.expr(st)?;
                Ok(Expr::Compare(op, Box::new(left), Box::new(right)))
            }
            None => match self.peek() {
                Some(Tok::Dash(d)) if d != "and" && d != "or" => {
                    Err(form(format!("the operator -{d}")))
                }
                // A bare value in a condition: true when not 0.
                _ => Ok(left),
            },
        }
    }

    /// `[$x]` (a `Cast("$x")` token).
    fn index(&mut self) -> Result<(), Reason> {
        match self.peek() {
            Some(t) if is_index(t) => {
                self.i += 1;
                Ok(())
            }
            other => Err(syntax(format!(
                "expected an index [$v], found {}",
                other.map_or("the end".into(), Tok::show)
            ))),
        }
    }

    /// The input variable for a collection: a, b, c in order of first use.
    fn input(&mut self, coll: &str) -> Expr {
        let k = match self.inputs.iter().position(|c| c == coll) {
            Some(k) => k,
            None => {
                self.inputs.push(coll.to_string());
                self.inputs.len() - 1
            }
        };
        Expr::Variable(input_name(k), 0)
    }
}

impl Dialect for Run<'_> {
    type State = State;

    fn toks(&self) -> &[Tok] {
        self.toks
    }
    fn pos(&mut self) -> &mut usize {
        &mut self.i
    }
    fn at(&self) -> usize {
        self.i
    }
    fn depth(&mut self) -> &mut usize {
        &mut self.depth
    }

    /// `[int]` rounds a sample's value (halves to even, as PowerShell does); `[double]` keeps it.
    fn cast(&self, c: &str) -> Result<Cast, Reason> {
        match numeric_cast(c) {
            Some(true) => Ok(Cast::Round),
            Some(false) => Ok(Cast::Keep),
            None => Err(form(format!("a cast to [{c}]"))),
        }
    }

    /// `[math]::abs(x)` and `[math]::round(x)`.
    fn math(&self, method: Option<&str>, mut args: Vec<Expr>) -> Result<Expr, Reason> {
        match (method, args.len()) {
            (Some("abs"), 1) => Ok(Expr::Abs(Box::new(args.remove(0)))),
            (Some("round"), 1) => Ok(Expr::Round(Box::new(args.remove(0)))),
            (None, _) => Err(form("[math] without a method")),
            (Some(other), _) => Err(form(format!("[math]::{other}"))),
        }
    }

    /// A parenthesised group of a loop holds a condition (`(IsGreaterThanZero x)`, comparisons joined
    /// by `-and`/`-or`: 1 or 0) or an expression; `$( ... )` an expression.
    fn group(&mut self, st: &State, sub: bool) -> Result<Expr, Reason> {
        if sub {
            return self.expr(st);
        }
        if is_word(self.peek(), "IsGreaterThanZero") {
            self.i += 1;
            let x = self.expr(st)?;
            return Ok(Expr::Compare(
                Cmp::Gt,
                Box::new(x),
                Box::new(Expr::Number(0.0)),
            ));
        }
        self.condition(st)
    }

    /// `$ALIAS.Value[$v]` and `$X[$a].Value[$v]`: a sample of an input series; `$local`: what the loop
    /// computed before.
    fn variable(
        &mut self,
        st: &State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Result<Expr, Reason> {
        let lname = name.to_ascii_lowercase();
        if let Some((m, args)) = member {
            if (m == "value" || m == "quantizedavg") && args.is_empty() {
                let coll = self
                    .alias
                    .get(&lname)
                    .ok_or_else(|| form(format!("${name}.{m} is not a series of a loop")))?
                    .clone();
                self.index()?;
                return Ok(self.input(&coll));
            }
            return Err(form(format!("${name}.{m}")));
        }
        if self.peek().is_some_and(is_index) {
            self.index()?;
            self.expect(Tok::Punct('.'))?;
            match self.peek() {
                Some(Tok::Word(w))
                    if w.eq_ignore_ascii_case("value")
                        || w.eq_ignore_ascii_case("quantizedavg") =>
                {
                    self.i += 1
                }
                other => {
                    return Err(form(format!(
                        "${name}[…].{}",
                        other.map_or("?".into(), Tok::show)
                    )))
                }
            }
            self.index()?;
            return Ok(self.input(&lname));
        }
        match st.locals.get(&lname) {
            Some((Expr::Number(n), _)) if n.is_nan() => {
                Err(shape(format!("${name} is set on some paths only")))
            }
            Some((e, _)) => Ok(e.clone()),
            None => Err(shape(format!(
                "uses ${name}, which is not computed in the loop"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(code: &str) -> ReasonCode {
        translate(code, "out").unwrap_err().code
    }

    #[test]
    fn refusals_are_typed_reasons() {
        // Walking other data: a loop PAL's Generated sources never have.
        assert_eq!(code_of("ForEach ($x in $y) { }"), ReasonCode::Loop);
        // Tokens out of place, from the lexer or the loop reader.
        assert_eq!(code_of("$"), ReasonCode::Syntax);
        assert_eq!(code_of("For ($i = 0"), ReasonCode::Syntax);
        // Beyond the bounds: 20 001 tokens, one more than MAX_TOKENS.
        assert_eq!(code_of(&"1 ".repeat(MAX_TOKENS + 1)), ReasonCode::TooLarge);
        // PowerShell that reads, in a shape that is not a Generated loop: no loop over the samples.
        let r = translate("$a = 1", "out").unwrap_err();
        assert_eq!(
            (r.code, r.message.as_str()),
            (
                ReasonCode::Generated,
                "no loop over the samples (`.Value.Count`)"
            )
        );
    }
}
