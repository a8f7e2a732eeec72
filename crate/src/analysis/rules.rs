//! Rules made ready to run: the threshold evaluated with the analysis' variables (and clamped), the series
//! the counter path and instance filter select, or why the rule cannot run.

use super::error::AnalysisError;
use super::expr::{EvalErrorKind, Expr};
use super::pack::{Rule, RulePack, Threshold};
use super::variables::Variables;
use crate::capture::names::fold;
use crate::capture::path::{wildcard, FoldedPath, PathPattern};

/// A rule of a pack with what the analysis needs to run it.
#[derive(Clone, Debug)]
pub struct Prepared<'p> {
    pub pack: &'p RulePack,
    pub rule: &'p Rule,
    /// NaN when skipped.
    pub threshold: f64,
    /// Indices of the capture's series the rule runs on.
    pub series: Vec<usize>,
    pub skipped: Option<String>,
}

/// The threshold of `rule`: a number or an evaluated expression, then clamped by thresholdMin/Max.
pub fn threshold(rule: &Rule, vars: &Variables) -> Result<f64, AnalysisError> {
    let t = match &rule.threshold {
        Threshold::Number(n) => *n,
        Threshold::Expression(text) => {
            let e = Expr::parse(text)?;
            // The first variable it cannot use is an error naming it: unknown, text used as a number,
            // or a number given to a text test (is, startsWith, at).
            e.evaluate(&|n| vars.values.get(n).cloned())
                .map_err(|err| match err.kind {
                    EvalErrorKind::Unknown => AnalysisError::UnknownVariable {
                        name: err.name,
                        rule: rule.id.clone(),
                        expression: text.clone(),
                    },
                    EvalErrorKind::NotANumber(value) => AnalysisError::NonNumericVariable {
                        name: err.name,
                        value,
                    },
                    EvalErrorKind::NotText(value) => AnalysisError::NonTextVariable {
                        name: err.name,
                        value,
                        offset: err.offset,
                        rule: rule.id.clone(),
                        expression: text.clone(),
                    },
                })?
        }
    };
    let t = rule.threshold_min.map_or(t, |m| t.max(m));
    Ok(rule.threshold_max.map_or(t, |m| t.min(m)))
}

/// The series `rule` selects among `paths` (the capture's series, folded), in index order, or why it
/// selects none.
pub fn select(rule: &Rule, paths: &[FoldedPath]) -> Result<Vec<usize>, String> {
    let pattern = PathPattern::parse(&rule.counter).map_err(|e| e.to_string())?;
    let matched: Vec<usize> = (0..paths.len())
        .filter(|&i| pattern.matches_folded(&paths[i]))
        .collect();
    if matched.is_empty() {
        return Err(format!("no series in the capture matches {}", rule.counter));
    }
    let Some(filter) = &rule.instances else {
        return Ok(matched);
    };
    let include: Vec<String> = filter.include.iter().map(|s| fold(s)).collect();
    let exclude: Vec<String> = filter.exclude.iter().map(|s| fold(s)).collect();
    let kept: Vec<usize> = matched
        .iter()
        .copied()
        .filter(|&i| {
            let inst = paths[i].instance.as_deref().unwrap_or("");
            (include.is_empty() || include.iter().any(|p| wildcard(p, inst)))
                && !exclude.iter().any(|p| wildcard(p, inst))
        })
        .collect();
    if kept.is_empty() {
        return Err(format!(
            "{} series match {} but the instance filter leaves none",
            matched.len(),
            rule.counter
        ));
    }
    Ok(kept)
}

/// Prepares every rule of `pack`. Errors are the pack's (an expression that does not parse, a variable
/// unknown or not a number); a rule that selects no series is kept with the reason it is skipped.
pub fn prepare<'p>(
    pack: &'p RulePack,
    vars: &Variables,
    paths: &[FoldedPath],
) -> Result<Vec<Prepared<'p>>, AnalysisError> {
    pack.rules
        .iter()
        .map(|rule| {
            let t = threshold(rule, vars)?;
            let (series, skipped) = if !t.is_finite() {
                (
                    Vec::new(),
                    Some(format!(
                        "its threshold evaluates to {t}, not a finite number"
                    )),
                )
            } else {
                match select(rule, paths) {
                    Ok(s) => (s, None),
                    Err(reason) => (Vec::new(), Some(reason)),
                }
            };
            Ok(Prepared {
                pack,
                rule,
                threshold: if skipped.is_some() { f64::NAN } else { t },
                series,
                skipped,
            })
        })
        .collect()
}
