//! The reader of PAL's CODE snippets (PowerShell), symbolically, never run: statements (assignments,
//! `If`/`ElseIf`/`Else`, `switch` with literal cases, StaticThreshold and StaticChartThreshold calls)
//! and arithmetic over QUESTION answers, with the state each branch leaves (combined after an If/Else
//! or switch by `combine`); what it reads is built into [`Expr`] trees as it goes (`fold.rs`). The
//! arithmetic is `grammar.rs`'s (shared with the Generated loops); this file is its [`Dialect`] for
//! threshold snippets: `$x` a QUESTION's answer. Nesting is bounded by the expression model's
//! `MAX_DEPTH` (in the grammar) and branches by MAX_BRANCHES, so hostile input cannot exhaust the
//! stack or the memory.

use super::fold::{bin, bounded, choose, clamp, cmp};
use super::grammar::{comparison, numeric_cast, Cast, Dialect};
use super::importer::{Call, Command, DataSource, Importer};
use super::lexer::{fmt_num, Tok};
use super::names::counter_object;
use super::{Reason, ReasonCode, LOGICAL_PROCESSORS};
use crate::analysis::expr::{Cmp, Expr, Op};
use crate::analysis::pack::{Operator, VariableType};
use std::collections::HashMap;

/// A reason of a code and a message: `reason!(Form, "a cast to [{c}]")`.
macro_rules! reason {
    ($code:ident, $($message:tt)*) => {
        Reason::new(ReasonCode::$code, format!($($message)*))
    };
}

/// If statements and switch cases per snippet. Each branch can duplicate an expression (an If/Else
/// repeats its condition; a switch its subject, once per case), so they are bounded; the lowering's
/// MAX_NODES bounds what they build. QuickSystemOverview.xml's Pool Paged snippets need the most: 13 If
/// statements (the guard, the clamps and the /3GB tests of the 32-bit OS cases) and 13 + 2 * 33 switch
/// cases (the OS cases with default, and in the 64-bit XP and 2003 cases a switch on the RAM with 32
/// cases and a default): 92. 128 leaves room for a file a little larger, not for an exponential one.
const MAX_BRANCHES: usize = 128;

/// The reason for a `[Math]` use the importer does not translate.
const MATH_FORMS: &str = "uses [Math] other than Round(x) or Round(x, digits 0 to 15)";

#[derive(Clone, Default)]
pub(super) struct State {
    /// Local PowerShell variables (lower case) -> their value as an expression, or why not.
    pub(super) env: HashMap<String, Result<Expr, Reason>>,
    /// Locals that hold a string answer or a part of it (`$SixtyFourBit = $OS.substring(0,2)`):
    /// local -> (question, substring(start, length)).
    pub(super) aliases: HashMap<String, (String, Option<(usize, usize)>)>,
    pub(super) calls: Vec<Call>,
}

/// A string answer, or the part of it `substring(start, length)` takes: (question, substring).
pub(super) type TextSubject = (String, Option<(usize, usize)>);

pub(super) struct StringTest {
    pub(super) question: String,
    pub(super) substring: Option<(usize, usize)>,
    pub(super) literal: String,
    pub(super) negated: bool,
}

pub(super) struct Parser<'t, 'm> {
    pub(super) toks: &'t [Tok],
    pub(super) i: usize,
    /// Nesting of parentheses, unary operators and If blocks, bounded by MAX_DEPTH.
    pub(super) depth: usize,
    /// If statements and switch cases read, bounded by MAX_BRANCHES.
    pub(super) branches: usize,
    pub(super) imp: &'m mut Importer,
    pub(super) sources: &'m HashMap<String, DataSource>,
}

impl Parser<'_, '_> {
    /// Statements until the end (or `}` when `braced`).
    pub(super) fn block(&mut self, st: &mut State, braced: bool) -> Result<(), Reason> {
        loop {
            self.skip_seps();
            match self.peek() {
                None if braced => {
                    return Err(Reason::new(ReasonCode::Syntax, "a `{` block without `}`"))
                }
                None => return Ok(()),
                Some(Tok::Punct('}')) if braced => return Ok(()),
                _ => self.statement(st)?,
            }
        }
    }

    fn braced(&mut self, st: &mut State) -> Result<(), Reason> {
        self.skip_seps();
        self.expect(Tok::Punct('{'))?;
        self.block(st, true)?;
        self.expect(Tok::Punct('}'))
    }

    fn statement(&mut self, st: &mut State) -> Result<(), Reason> {
        let Some(t) = self.peek().cloned() else {
            return Ok(());
        };
        match t {
            Tok::Word(w) => {
                let lw = w.to_ascii_lowercase();
                match lw.as_str() {
                    "if" => self.if_statement(st),
                    "staticthreshold" => self.command(st, Command::Static),
                    "staticchartthreshold" => self.command(st, Command::Chart),
                    "for" | "foreach" | "while" | "do" | "foreach-object" => {
                        Err(reason!(Loop, "loops over instances or values (`{w}`)"))
                    }
                    "switch" => self.switch_statement(st),
                    _ => Err(reason!(Form, "calls `{w}`, which is not StaticThreshold")),
                }
            }
            Tok::Cast(_) | Tok::Var(..) => {
                // [Int] $x = expr
                let save = self.i;
                if matches!(t, Tok::Cast(_)) {
                    self.i += 1;
                }
                match (self.toks.get(self.i).cloned(), self.toks.get(self.i + 1)) {
                    (Some(Tok::Var(name, None)), Some(Tok::Punct('='))) => {
                        self.i += 2;
                        let rhs = self.i;
                        // `$SixtyFourBit = $OS.substring(0,2)`, `$OS = [string] $OS.ToUpper()`: a string
                        // answer (or part of it) kept as an alias, for an If or a switch that compares it
                        // with literals (ignoring case, so ToUpper and ToLower change nothing).
                        if self.peek() == Some(&Tok::Cast("string".into())) {
                            self.i += 1;
                        }
                        if let (Some(Tok::Var(q, member)), true) = (
                            self.peek().cloned(),
                            matches!(
                                self.toks.get(self.i + 1),
                                None | Some(Tok::Sep) | Some(Tok::Punct('}'))
                            ),
                        ) {
                            // A string answer, or a variable no file given defines (a question of a
                            // missing inherited file): the If that uses it says which.
                            let qkey = q.to_ascii_lowercase();
                            let case = member.as_ref().is_some_and(|(m, a)| {
                                (m == "toupper" || m == "tolower") && a.is_empty()
                            });
                            let alias = st.aliases.get(&qkey).cloned();
                            let is_string_question = match self.imp.question(&q) {
                                _ if alias.is_some() => member.is_none() || case,
                                Some(x) => x.variable.kind == VariableType::String,
                                None => {
                                    !st.env.contains_key(&qkey)
                                        && !self.sources.contains_key(&qkey)
                                        && member.as_ref().is_some_and(|(m, _)| m == "substring")
                                        || case
                                }
                            };
                            let target = match (&member, alias) {
                                (_, Some(a)) => Some(a),
                                (None, None) => Some((q.clone(), None)),
                                (Some((m, a)), None) if m == "substring" && a.len() == 2 => {
                                    Some((q.clone(), Some((a[0] as usize, a[1] as usize))))
                                }
                                _ if case => Some((q.clone(), None)),
                                _ => None,
                            };
                            if let (true, Some(target)) = (is_string_question, target) {
                                self.i += 1;
                                let key = name.to_ascii_lowercase();
                                st.env.remove(&key);
                                st.aliases.insert(key, target);
                                return self.end_of_statement();
                            }
                        }
                        self.i = rhs;
                        let v = self.expr(st);
                        // A value that does not translate is kept as its reason: it only matters if used.
                        let v = match v {
                            Ok(e) => Ok(e),
                            Err(r) => {
                                self.skip_to_end();
                                Err(r)
                            }
                        };
                        st.env.insert(name.to_ascii_lowercase(), v);
                        self.end_of_statement()
                    }
                    _ => {
                        self.i = save;
                        Err(reason!(
                            Syntax,
                            "a statement starting with {} is not an assignment",
                            t.show()
                        ))
                    }
                }
            }
            other => Err(reason!(
                Syntax,
                "a statement starting with {}",
                other.show()
            )),
        }
    }

    fn skip_to_end(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Sep if depth <= 0 => return,
                Tok::Punct('}') if depth <= 0 => return,
                Tok::Punct('(' | '{') | Tok::SubExpr => depth += 1,
                Tok::Punct(')' | '}') => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
    }

    /// One more If statement or switch case: an error past MAX_BRANCHES.
    fn branch(&mut self, what: &str) -> Result<(), Reason> {
        self.branches += 1;
        if self.branches > MAX_BRANCHES {
            return Err(reason!(
                TooLarge,
                "more than {MAX_BRANCHES} If statements and switch cases ({what})"
            ));
        }
        Ok(())
    }

    fn if_statement(&mut self, st: &mut State) -> Result<(), Reason> {
        self.branch("an If")?;
        self.enter()?;
        let r = self.if_statement_inner(st);
        self.depth -= 1;
        r
    }

    /// The string answer (question, substring) a `$name` or `$name.substring(s, n)` stands for, if it
    /// is one: a string QUESTION, a local alias of one, or (`Err`) a name no file read defines.
    fn text_subject(
        &mut self,
        st: &State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Option<Result<TextSubject, String>> {
        // Err(name): the answer it stands for is no QUESTION of the files read.
        let key = name.to_ascii_lowercase();
        let substring = match member {
            None => None,
            Some((m, args)) if m == "substring" && args.len() == 2 => {
                Some((args[0] as usize, args[1] as usize))
            }
            Some(_) => return None,
        };
        let (question, substring) = match st.aliases.get(&key) {
            Some(a) if member.is_none() => a.clone(),
            Some(_) => return None,
            None if st.env.contains_key(&key) || self.sources.contains_key(&key) => return None,
            None => (name.to_string(), substring),
        };
        match self.imp.question(&question).map(|x| x.variable.kind) {
            Some(VariableType::String) => Some(Ok((question, substring))),
            Some(VariableType::Number) => None,
            None => Some(Err(question)),
        }
    }

    fn if_statement_inner(&mut self, st: &mut State) -> Result<(), Reason> {
        self.i += 1; // If (or ElseIf)
        self.expect(Tok::Punct('('))?;
        let cond_start = self.i;
        // A string answer compared with a literal: `If ($SixtyFourBit -eq '32')`; `$($OLTPvsOLAP)` is
        // `$OLTPvsOLAP`, and `$True` / `$False` compared with a string answer are the text PowerShell
        // turns them into, "True" / "False" (SQL Server files: `If ($($OLTPvsOLAP) -eq $True)`).
        let subject = match (
            self.peek().cloned(),
            self.toks.get(self.i + 1).cloned(),
            self.toks.get(self.i + 2),
        ) {
            (Some(Tok::SubExpr), Some(Tok::Var(q, m)), Some(Tok::Punct(')'))) => Some((3, q, m)),
            (Some(Tok::Var(q, m)), ..) => Some((1, q, m)),
            _ => None,
        };
        let compared = subject.and_then(|(n, q, member)| {
            let op = match self.toks.get(self.i + n) {
                Some(Tok::Dash(op)) => op.clone(),
                _ => return None,
            };
            let literal = match self.toks.get(self.i + n + 1) {
                Some(Tok::Str(s)) => s.clone(),
                Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("true") => "True".into(),
                Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("false") => "False".into(),
                _ => return None,
            };
            Some((n, q, member, op, literal))
        });
        if let Some((n, q, member, op, literal)) = compared {
            if matches!(op.as_str(), "ceq" | "cne") {
                return Err(reason!(
                    Form,
                    "a case-sensitive comparison (-{op}): the translated tests ignore case, as -eq does"
                ));
            }
            if matches!(op.as_str(), "eq" | "ieq" | "ne" | "ine") {
                match self.text_subject(st, &q, member.as_ref()) {
                    Some(Err(q)) => {
                        return Err(reason!(
                            Question,
                            "compares ${q} with '{literal}', but ${q} is not a QUESTION of the files read{}",
                            self.imp.missing_hint()
                        ))
                    }
                    Some(Ok((question, substring))) => {
                        self.i += n + 2;
                        self.expect(Tok::Punct(')'))?;
                        let test = self.imp.text_test(&StringTest {
                            question,
                            substring,
                            literal,
                            negated: op.ends_with("ne"),
                        })?;
                        return self.branches_of(st, test, None);
                    }
                    None => {}
                }
            }
        }
        // Numbers: `If ($UserVa -gt 2048)`, `If ($iKernelVa -lt $iMemPoolMax)`, `If ($n -eq 0)`.
        let left = self.expr(st)?;
        let Some(comparison) = comparison(self.peek()) else {
            return Err(self.condition_error(cond_start));
        };
        self.i += 1;
        let right = self.expr(st)?;
        if self.peek() != Some(&Tok::Punct(')')) {
            return Err(self.condition_error(cond_start));
        }
        self.i += 1;
        let cond = cmp(comparison, left.clone(), right.clone());
        self.branches_of(st, cond, Some((comparison, left, right)))
    }

    /// The blocks of an If whose condition (1 or 0) is `cond`: `{ ... }`, then `Else { ... }` or
    /// `ElseIf (...) { ... }` if they follow; the state after them is `cond * yes + (1 - cond) * no`.
    fn branches_of(
        &mut self,
        st: &mut State,
        cond: Expr,
        compared: Option<(Cmp, Expr, Expr)>,
    ) -> Result<(), Reason> {
        let mut yes = st.clone();
        self.braced(&mut yes)?;
        let mut no = st.clone();
        if self.else_follows() {
            self.skip_seps();
            let elseif =
                matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case("elseif"));
            if elseif {
                // ElseIf (...) { ... } is Else { If (...) { ... } }.
                self.if_statement(&mut no)?;
            } else {
                self.i += 1; // Else
                self.braced(&mut no)?;
            }
        }
        let mut cases = vec![yes];
        self.answers_before(&mut cases, &mut no);
        combine(st, &[cond], cases, no, compared.as_ref())
    }

    /// A numeric answer set in some branches only (`If ($PhysicalMemory -eq 0) {$PhysicalMemory = 1}`)
    /// keeps the answer in the others.
    fn answers_before(&mut self, cases: &mut [State], default: &mut State) {
        // Distinct without sorting: a sort of strings costs the wasm module about 13 KB.
        let mut keys: Vec<String> = Vec::new();
        for k in cases
            .iter()
            .chain(std::iter::once(&*default))
            .flat_map(|s| s.env.keys())
        {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        for k in keys {
            let Some(q) = self
                .imp
                .question(&k)
                .filter(|q| q.variable.kind == VariableType::Number)
            else {
                continue;
            };
            let answer = Expr::var(&q.variable.name);
            for s in cases.iter_mut().chain(std::iter::once(&mut *default)) {
                s.env.entry(k.clone()).or_insert_with(|| Ok(answer.clone()));
            }
        }
    }

    /// `switch (<subject>) { <literal> { ... } ... default { ... } }` on a string answer (text cases) or
    /// a number (number cases). PowerShell runs every case whose literal equals the subject (`-eq`,
    /// ignoring case), and `default` when none does; with distinct literals at most one case runs, so
    /// the switch is a chain of If/ElseIf. Duplicate literals, script-block or variable cases and
    /// switch options (-regex, -wildcard, ...) are reported.
    fn switch_statement(&mut self, st: &mut State) -> Result<(), Reason> {
        self.enter()?;
        let r = self.switch_inner(st);
        self.depth -= 1;
        r
    }

    fn switch_inner(&mut self, st: &mut State) -> Result<(), Reason> {
        self.i += 1; // switch
        if let Some(Tok::Dash(o)) = self.peek() {
            return Err(reason!(
                Form,
                "a `switch -{o}`: only a switch comparing a value with literal cases is translated"
            ));
        }
        self.expect(Tok::Punct('('))?;
        let text = match (self.peek().cloned(), self.toks.get(self.i + 1)) {
            (Some(Tok::Var(q, member)), Some(Tok::Punct(')'))) => {
                match self.text_subject(st, &q, member.as_ref()) {
                    Some(Err(q)) => {
                        return Err(reason!(
                            Question,
                            "a switch on ${q}, but ${q} is not a QUESTION of the files read{}",
                            self.imp.missing_hint()
                        ))
                    }
                    Some(Ok(subject)) => {
                        self.i += 1;
                        Some(subject)
                    }
                    None => None,
                }
            }
            _ => None,
        };
        let number = match text {
            Some(_) => None,
            None => Some(self.expr(st)?),
        };
        self.expect(Tok::Punct(')'))?;
        self.skip_seps();
        self.expect(Tok::Punct('{'))?;
        let mut conds = Vec::new();
        let mut cases = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut default = None;
        loop {
            self.skip_seps();
            let case = match self.peek().cloned() {
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    break;
                }
                None => return Err(Reason::new(ReasonCode::Syntax, "a `switch` without `}`")),
                Some(Tok::Word(w)) if w.eq_ignore_ascii_case("default") => {
                    if default.is_some() {
                        return Err("a switch with two `default` cases".into());
                    }
                    self.i += 1;
                    None
                }
                Some(Tok::Str(lit)) if text.is_some() => {
                    self.i += 1;
                    Some((lit.to_lowercase(), format!("'{lit}'"), Err(lit)))
                }
                Some(Tok::Num(n)) if number.is_some() => {
                    self.i += 1;
                    Some((fmt_num(n), fmt_num(n), Ok(n)))
                }
                Some(Tok::Punct('-')) if number.is_some() => match self.toks.get(self.i + 1) {
                    Some(&Tok::Num(n)) => {
                        self.i += 2;
                        Some((fmt_num(-n), fmt_num(-n), Ok(-n)))
                    }
                    _ => return Err(self.case_error()),
                },
                Some(_) => return Err(self.case_error()),
            };
            self.branch("a switch case")?;
            let mut state = st.clone();
            self.braced(&mut state)?;
            let Some((key, shown, lit)) = case else {
                default = Some(state);
                continue;
            };
            if seen.contains(&key) {
                return Err(reason!(
                    Form,
                    "a switch with the case {shown} twice (PowerShell runs both)"
                ));
            }
            seen.push(key);
            let cond = match (lit, &text, &number) {
                (Ok(n), _, Some(x)) => cmp(Cmp::Eq, x.clone(), Expr::Number(n)),
                (Err(literal), Some((question, substring)), _) => {
                    self.imp.text_test(&StringTest {
                        question: question.clone(),
                        substring: *substring,
                        literal,
                        negated: false,
                    })?
                }
                _ => return Err(self.case_error()),
            };
            conds.push(cond);
            cases.push(state);
        }
        let mut default = default.unwrap_or_else(|| st.clone());
        self.answers_before(&mut cases, &mut default);
        combine(st, &conds, cases, default, None)
    }

    fn case_error(&self) -> Reason {
        reason!(
            Form,
            "a switch case {} that is not a literal of the subject's kind (text for a string answer, a number for a number); script-block and variable cases are not translated",
            self.peek().map_or("at the end".into(), Tok::show)
        )
    }

    fn else_follows(&self) -> bool {
        let mut j = self.i;
        while self.toks.get(j) == Some(&Tok::Sep) {
            j += 1;
        }
        match self.toks.get(j) {
            Some(Tok::Word(w)) => {
                w.eq_ignore_ascii_case("else") || w.eq_ignore_ascii_case("elseif")
            }
            _ => false,
        }
    }

    fn condition_error(&self, start: usize) -> Reason {
        let end = self.toks[start..]
            .iter()
            .position(|t| *t == Tok::Punct(')'))
            .map_or(self.toks.len(), |p| start + p);
        let text: Vec<String> = self.toks[start..end].iter().map(Tok::show).collect();
        reason!(
            Form,
            "the condition `{}` is not a translated form (two numbers compared with -lt -le -gt -ge -eq -ne, or a string answer compared with a literal)",
            text.join(" ")
        )
    }

    /// StaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold <expr> [-IsTrendOnly $True]
    /// StaticChartThreshold -CollectionOfCounterInstances $C -MinThreshold <expr> -MaxThreshold <expr> ...
    fn command(&mut self, st: &mut State, command: Command) -> Result<(), Reason> {
        self.i += 1;
        let mut collection = None;
        let mut operator = None;
        let mut threshold = None;
        let mut band_min = None;
        let mut trend = false;
        let mut greater = true;
        loop {
            match self.peek().cloned() {
                None | Some(Tok::Sep) | Some(Tok::Punct('}')) => break,
                Some(Tok::Dash(p)) => {
                    self.i += 1;
                    match p.as_str() {
                        "collectionofcounterinstances" => match self.peek().cloned() {
                            Some(Tok::Var(c, None)) => {
                                self.i += 1;
                                collection = Some(c);
                            }
                            t => {
                                return Err(reason!(
                                    Form,
                                    "-CollectionOfCounterInstances {}",
                                    t.map_or("".into(), |t| t.show())
                                ))
                            }
                        },
                        "operator" => {
                            let o = match self.peek().cloned() {
                                Some(Tok::Str(s)) | Some(Tok::Word(s)) => s,
                                t => {
                                    return Err(reason!(
                                        Form,
                                        "-Operator {}",
                                        t.map_or("".into(), |t| t.show())
                                    ))
                                }
                            };
                            self.i += 1;
                            operator = Some(match o.to_ascii_lowercase().as_str() {
                                "gt" => Operator::Gt,
                                "ge" => Operator::Ge,
                                "lt" => Operator::Lt,
                                "le" => Operator::Le,
                                "eq" => Operator::Eq,
                                "ne" => Operator::Ne,
                                other => {
                                    return Err(reason!(
                                        Form,
                                        "-Operator {other:?} is not gt, ge, lt, le, eq or ne"
                                    ))
                                }
                            });
                        }
                        "threshold" | "maxthreshold" => threshold = Some(self.expr(st)?),
                        "minthreshold" => band_min = Some(self.expr(st)?),
                        "istrendonly" => trend = self.boolean()?,
                        "isoperatorgreaterthan" => greater = self.boolean()?,
                        "usemaxvalue" => {
                            self.boolean()?;
                        }
                        other => {
                            return Err(reason!(Form, "the parameter -{other} is not translated"))
                        }
                    }
                }
                Some(t) => {
                    return Err(reason!(
                        Syntax,
                        "unexpected {} in a threshold call",
                        t.show()
                    ))
                }
            }
        }
        let collection =
            collection.ok_or("a threshold call without -CollectionOfCounterInstances")?;
        let threshold = threshold.ok_or(match command {
            Command::Static => "a StaticThreshold call without -Threshold",
            Command::Chart => "a StaticChartThreshold call without -MaxThreshold",
        })?;
        let operator = match command {
            Command::Static => operator.ok_or("a StaticThreshold call without -Operator")?,
            Command::Chart => {
                if greater {
                    Operator::Gt
                } else {
                    Operator::Lt
                }
            }
        };
        if command == Command::Chart && band_min.is_none() {
            return Err("a StaticChartThreshold call without -MinThreshold".into());
        }
        st.calls.push(Call {
            command,
            collection,
            operator,
            threshold,
            band_min: band_min.unwrap_or(Expr::Number(0.0)),
            trend,
        });
        Ok(())
    }

    fn boolean(&mut self) -> Result<bool, Reason> {
        let b = match self.peek() {
            Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("true") => true,
            Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("false") => false,
            Some(Tok::Num(n)) => *n != 0.0,
            t => {
                return Err(reason!(
                    Form,
                    "expected $True or $False, found {}",
                    t.map_or("the end".into(), |t| t.show())
                ))
            }
        };
        self.i += 1;
        Ok(b)
    }
}

impl Dialect for Parser<'_, '_> {
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

    /// [Int], [Double], ... : numbers stay numbers ([Int] of an answer is the answer as given;
    /// docs/rule-packs.md says so).
    fn cast(&self, c: &str) -> Result<Cast, Reason> {
        match numeric_cast(c) {
            Some(_) => Ok(Cast::Keep),
            None => Err(reason!(Form, "a cast to [{c}]")),
        }
    }

    /// `[Math]::Round(x)` and `Round(x, digits)` (QuickSystemOverview.xml's pool snippets round the RAM
    /// answer with it) are read like `[Int] x`: the number as given, digits a whole number from 0 to 15,
    /// as .NET requires. Other [Math] methods (none in the PAL files measured) are reported, with one
    /// message for every form left out (each its own text cost the wasm module bytes).
    fn math(&self, method: Option<&str>, mut args: Vec<Expr>) -> Result<Expr, Reason> {
        let digits_ok =
            |d: &Expr| matches!(d, Expr::Number(d) if (0.0..=15.0).contains(d) && d.fract() == 0.0);
        match (method, args.len()) {
            (Some("round"), 1) => Ok(args.remove(0)),
            (Some("round"), 2) if digits_ok(&args[1]) => Ok(args.remove(0)),
            _ => Err(MATH_FORMS.into()),
        }
    }

    fn variable(
        &mut self,
        st: &State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Result<Expr, Reason> {
        let key = name.to_ascii_lowercase();
        if let Some((m, _)) = member {
            if m == "count" {
                let src = self.sources.get(&key).ok_or_else(|| {
                    reason!(
                        Collection,
                        "${name}.Count: ${name} is not a DATASOURCE collection"
                    )
                })?;
                let object = counter_object(&src.path);
                if !object.eq_ignore_ascii_case("processor") {
                    return Err(reason!(
                        Form,
                        "counts the instances of {} (${name}.Count)",
                        src.path
                    ));
                }
                self.imp.uses_logical_processors = true;
                // PAL's idiom for the number of logical processors is `.Count - 1` (the instances
                // and _Total), whether or not the data source EXCLUDEs _Total from the analysis.
                let lp = Expr::var(LOGICAL_PROCESSORS);
                return Ok(bin(Op::Add, lp, Expr::Number(1.0)));
            }
            return Err(reason!(Form, "uses ${name}.{m}"));
        }
        if let Some(v) = st.env.get(&key) {
            return v.clone();
        }
        if key == "true" {
            return Ok(Expr::Number(1.0));
        }
        if key == "false" {
            return Ok(Expr::Number(0.0));
        }
        if let Some(q) = self.imp.question(name) {
            if q.variable.kind != VariableType::Number {
                return Err(reason!(
                    Question,
                    "uses the answer ${} (not a number: {:?}) in arithmetic",
                    q.variable.name,
                    q.pal_default
                ));
            }
            q.used = true;
            return Ok(Expr::var(&q.variable.name));
        }
        if self.sources.contains_key(&key) {
            return Err(reason!(
                Form,
                "uses the values of the collection ${name} in arithmetic"
            ));
        }
        Err(reason!(Question,
            "uses ${name}, which is neither a QUESTION of the files read nor set before in the snippet{}",
            self.imp.missing_hint()
        ))
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
