//! Expression builders for what the importer reads: `a op b` and comparisons folded as PAL's snippets
//! need (constants computed, `x * 1` is x, ...), the size bound of a built expression, If/Else and
//! switch as 1/0 choices, clamps split from a threshold. A leaf: the parser and the lowering both build
//! with it.

use super::{Reason, ReasonCode};
use crate::analysis::expr::{Cmp, Expr, Op, MAX_DEPTH};
use crate::analysis::pack::Threshold;

/// Nodes of an expression the importer builds (QuickSystemOverview.xml's Pool Paged thresholds have
/// about 600: 3,882 characters printed).
const MAX_NODES: usize = 4096;

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
