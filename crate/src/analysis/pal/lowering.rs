//! Lowering: what the snippet reader finds, as the pack's terms (an `impl Importer` block; the type is
//! declared in `importer.rs`). A snippet's CODE is run through the parser, whose threshold expressions
//! are [`Expr`] trees built with `fold.rs`; its StaticThreshold calls become the parts of rules, a
//! Generated data source a derived series (`generated.rs`), and every refusal a [`Reason`] with its code.

use super::fold::{bin, bounded, sub};
use super::importer::{Call, Command, DataSource, Importer, Part, Question};
use super::lexer::{lex, Tok};
use super::names::{counter_name, slug};
use super::parser::{Parser, State, StringTest};
use super::{generated, Reason, ReasonCode, NETWORK_BANDWIDTH};
use crate::analysis::expr::{Expr, Op, TextTest};
use crate::analysis::pack::{Derived, DerivedInput};
use std::collections::HashMap;

impl Importer {
    /// Runs a CODE snippet symbolically; the StaticThreshold / StaticChartThreshold calls it makes.
    pub(super) fn run(
        &mut self,
        code: &str,
        sources: &HashMap<String, DataSource>,
    ) -> Result<Vec<Call>, Reason> {
        let toks = lex(code)?;
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
                // Whatever the reader's own reason (its code is the syntax, form, shape or size at
                // fault), the threshold is refused as a Generated data source not translated.
                let source = self.derive(src, sources).map_err(|why| {
                    Reason::new(ReasonCode::Generated, format!(
                        "Generated data source {}: PAL computes it in PowerShell, in a form not translated: {}",
                        src.path, why.message
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
    ) -> Result<DataSource, Reason> {
        let code = src.code.as_deref().unwrap_or("");
        let output = sources
            .iter()
            .find(|(_, s)| s.generated && s.path == src.path)
            .map(|(k, _)| k.clone())
            .unwrap_or_default();
        let g = generated::translate(code, &output)?;
        let expression = bounded(g.expression)?;
        let mut inputs = Vec::new();
        for (k, coll) in g.inputs.iter().enumerate() {
            let input = sources.get(coll).filter(|s| !s.generated).ok_or_else(|| {
                Reason::new(
                    ReasonCode::Collection,
                    format!("${coll} is not a DATASOURCE of counters"),
                )
            })?;
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
            unless: None,
        };
        match self.derived.iter().find(|x| x.id == id) {
            Some(x) if *x != d => {
                return Err(Reason::new(
                    ReasonCode::Generated,
                    format!(
                        "two Generated series named {:?} are computed differently",
                        counter_name(&src.path)
                    ),
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
