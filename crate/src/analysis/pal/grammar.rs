//! The one PowerShell grammar of PAL's CODE snippets, shared by the two readers of it: the threshold
//! snippets (`parser.rs`) and the Generated data sources' loops (`generated.rs`). It is the token
//! cursor (separators, expected tokens, nesting bounded by the expression model's [`MAX_DEPTH`]) and
//! the arithmetic: `+ - * /` over unary minus, `[casts]`, `[math]::Method(...)`, numbers, numeric
//! strings, `$( ... )` and parentheses, built and bounded with `fold.rs`, and the comparison operators
//! (`-gt`, `-ige`, ...). What an operand means is the reader's, the [`Dialect`]: a threshold snippet's
//! `$x` is a QUESTION's answer and `[Int]` keeps it as given; a Generated loop's `$a.Value[$v]` is a
//! sample of a series and `[int]` rounds it.

use super::fold::{bin, bounded, neg};
use super::lexer::{parse_number, Tok};
use super::{Reason, ReasonCode};
use crate::analysis::expr::{Cmp, Expr, Op, MAX_DEPTH};

/// What a `[cast] x` makes of x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Cast {
    /// The number as it is (`[double]`; and `[Int]` of a threshold snippet's answer: docs/rule-packs.md).
    Keep,
    /// Rounded to the nearest whole number, halves to even (`[int]` of a sample).
    Round,
}

/// The casts PowerShell snippets of PAL's use on numbers: the integer ones and the others.
pub(super) fn numeric_cast(c: &str) -> Option<bool> {
    match c {
        "int" | "int32" | "int64" | "long" => Some(true),
        "double" | "decimal" | "float" | "single" => Some(false),
        _ => None,
    }
}

/// The comparison a `-op` token names: `-gt`, and the case-insensitive spellings `-igt` PowerShell
/// also accepts (the same on numbers).
pub(super) fn comparison(t: Option<&Tok>) -> Option<Cmp> {
    let Some(Tok::Dash(d)) = t else {
        return None;
    };
    let d = d.strip_prefix('i').filter(|r| r.len() == 2).unwrap_or(d);
    Cmp::ALL.iter().find(|(_, n)| *n == d).map(|(c, _)| *c)
}

/// A reader of PAL's PowerShell: its tokens and position, what its operands mean, and (provided) the
/// grammar over them.
pub(super) trait Dialect: Sized {
    /// What the statements read so far have set (locals), which an operand may use.
    type State;

    fn toks(&self) -> &[Tok];
    fn pos(&mut self) -> &mut usize;
    fn depth(&mut self) -> &mut usize;

    /// A `$name` or `$name.member(args)` operand, its token already read.
    fn variable(
        &mut self,
        st: &Self::State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Result<Expr, Reason>;

    /// What `[c] x` makes of x, or the reason a cast is not read.
    fn cast(&self, c: &str) -> Result<Cast, Reason>;

    /// `[math]::method(args)`: its expression, or the reason. `method` is `None` (and `args` empty)
    /// where `[math]` is not followed by `::Method(`.
    fn math(&self, method: Option<&str>, args: Vec<Expr>) -> Result<Expr, Reason>;

    /// What a parenthesised group holds (after `(`, or `$(` when `sub` is true), up to its `)`: an
    /// expression, unless the dialect reads more there (conditions in a Generated loop).
    fn group(&mut self, st: &Self::State, sub: bool) -> Result<Expr, Reason> {
        let _ = sub;
        self.expr(st)
    }

    /// The position, read without borrowing mutably.
    fn at(&self) -> usize;

    fn peek(&self) -> Option<&Tok> {
        self.toks().get(self.at())
    }

    fn advance(&mut self, n: usize) {
        *self.pos() += n;
    }

    fn skip_seps(&mut self) {
        while self.peek() == Some(&Tok::Sep) {
            self.advance(1);
        }
    }

    fn expect(&mut self, t: Tok) -> Result<(), Reason> {
        match self.peek() {
            Some(x) if *x == t => {
                self.advance(1);
                Ok(())
            }
            Some(x) => Err(Reason::new(
                ReasonCode::Syntax,
                format!("expected {}, found {}", t.show(), x.show()),
            )),
            None => Err(Reason::new(
                ReasonCode::Syntax,
                format!("expected {}, found the end of the snippet", t.show()),
            )),
        }
    }

    /// The end of a statement: a separator, a `}` or the end.
    fn end_of_statement(&mut self) -> Result<(), Reason> {
        match self.peek() {
            None | Some(Tok::Sep) | Some(Tok::Punct('}')) => Ok(()),
            Some(t) => Err(Reason::new(
                ReasonCode::Syntax,
                format!("unexpected {} after a statement", t.show()),
            )),
        }
    }

    /// Nesting one level deeper (parentheses, unary operators, If blocks): an error past MAX_DEPTH, so
    /// that a hostile snippet cannot exhaust the stack. [`Dialect::leave`] undoes it.
    fn enter(&mut self) -> Result<(), Reason> {
        let d = self.depth();
        *d += 1;
        if *d > MAX_DEPTH {
            *d -= 1;
            return Err(Reason::new(
                ReasonCode::TooLarge,
                format!("nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        *self.depth() -= 1;
    }

    /// `f` one level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Reason>) -> Result<T, Reason> {
        self.enter()?;
        let r = f(self);
        self.leave();
        r
    }

    /// `term (+|- term)*`.
    fn expr(&mut self, st: &Self::State) -> Result<Expr, Reason> {
        let mut a = self.term(st)?;
        while let Some(Tok::Punct(op @ ('+' | '-'))) = self.peek().cloned() {
            self.advance(1);
            let b = self.term(st)?;
            let op = if op == '+' { Op::Add } else { Op::Sub };
            a = bounded(bin(op, a, b))?;
        }
        Ok(a)
    }

    /// `unary (*|/ unary)*`; a division by the number 0 is refused.
    fn term(&mut self, st: &Self::State) -> Result<Expr, Reason> {
        let mut a = self.unary(st)?;
        while let Some(Tok::Punct(op @ ('*' | '/'))) = self.peek().cloned() {
            self.advance(1);
            let b = self.unary(st)?;
            if op == '/' && b == Expr::Number(0.0) {
                return Err("divides by zero".into());
            }
            let op = if op == '*' { Op::Mul } else { Op::Div };
            a = bounded(bin(op, a, b))?;
        }
        Ok(a)
    }

    /// `-unary`, `[cast] unary`, `[math]::...`, or a primary.
    fn unary(&mut self, st: &Self::State) -> Result<Expr, Reason> {
        match self.peek().cloned() {
            Some(Tok::Punct('-')) => {
                self.advance(1);
                let a = self.nested(|p| p.unary(st))?;
                bounded(neg(a))
            }
            Some(Tok::Cast(c)) if c == "math" => self.math_call(st),
            Some(Tok::Cast(c)) => {
                let cast = self.cast(&c)?;
                self.advance(1);
                let a = self.nested(|p| p.unary(st))?;
                match cast {
                    Cast::Keep => Ok(a),
                    Cast::Round => bounded(Expr::Round(Box::new(a))),
                }
            }
            _ => self.primary(st),
        }
    }

    /// `[math]::Method(a, b, ...)`, the dialect saying what it means.
    fn math_call(&mut self, st: &Self::State) -> Result<Expr, Reason> {
        let at = self.at();
        let toks = self.toks();
        let method = match (
            toks.get(at + 1),
            toks.get(at + 2),
            toks.get(at + 3),
            toks.get(at + 4),
        ) {
            (
                Some(Tok::Punct(':')),
                Some(Tok::Punct(':')),
                Some(Tok::Word(w)),
                Some(Tok::Punct('(')),
            ) => w.to_ascii_lowercase(),
            _ => return self.math(None, Vec::new()),
        };
        self.advance(5);
        let args = self.nested(|p| {
            let mut args = Vec::new();
            loop {
                p.skip_seps();
                args.push(p.expr(st)?);
                p.skip_seps();
                if p.peek() != Some(&Tok::Punct(',')) {
                    break;
                }
                p.advance(1);
            }
            p.expect(Tok::Punct(')'))?;
            Ok(args)
        })?;
        self.math(Some(&method), args)
    }

    /// A number, a numeric string, a `$variable`, or a parenthesised group.
    fn primary(&mut self, st: &Self::State) -> Result<Expr, Reason> {
        let Some(t) = self.peek().cloned() else {
            return Err(Reason::new(
                ReasonCode::Syntax,
                "an expression ends too early",
            ));
        };
        self.advance(1);
        match t {
            Tok::Num(n) => Ok(Expr::Number(n)),
            Tok::SubExpr | Tok::Punct('(') => self.nested(|p| {
                p.skip_seps();
                let e = p.group(st, t == Tok::SubExpr)?;
                p.skip_seps();
                p.expect(Tok::Punct(')'))?;
                Ok(e)
            }),
            Tok::Var(name, member) => self.variable(st, &name, member.as_ref()),
            Tok::Str(s) => match parse_number(s.trim()) {
                Some(n) => Ok(Expr::Number(n)),
                None => Err(Reason::new(
                    ReasonCode::Form,
                    format!("uses the string '{s}' as a number"),
                )),
            },
            other => Err(Reason::new(
                ReasonCode::Syntax,
                format!("{} where a number was expected", other.show()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    /// A dialect whose `$x` is the variable x, `[int]` rounds and `[math]::abs` is abs.
    struct Plain {
        toks: Vec<Tok>,
        i: usize,
        depth: usize,
    }

    impl Dialect for Plain {
        type State = ();
        fn toks(&self) -> &[Tok] {
            &self.toks
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
        fn variable(
            &mut self,
            _: &(),
            name: &str,
            _: Option<&(String, Vec<f64>)>,
        ) -> Result<Expr, Reason> {
            Ok(Expr::var(name))
        }
        fn cast(&self, c: &str) -> Result<Cast, Reason> {
            match numeric_cast(c) {
                Some(true) => Ok(Cast::Round),
                Some(false) => Ok(Cast::Keep),
                None => Err(Reason::new(ReasonCode::Form, format!("a cast to [{c}]"))),
            }
        }
        fn math(&self, method: Option<&str>, mut args: Vec<Expr>) -> Result<Expr, Reason> {
            match (method, args.len()) {
                (Some("abs"), 1) => Ok(Expr::Abs(Box::new(args.remove(0)))),
                _ => Err(Reason::new(ReasonCode::Form, "[math]")),
            }
        }
    }

    fn read(code: &str) -> Result<String, Reason> {
        let mut p = Plain {
            toks: lex(code)?,
            i: 0,
            depth: 0,
        };
        let e = p.expr(&())?;
        Ok(e.to_string())
    }

    #[test]
    fn precedence_casts_and_folding() {
        // * before +, left to right: 1 + 2 * $x - 3 is (1 + 2x) - 3.
        assert_eq!(read("1 + 2 * $x - 3").unwrap(), "1 + 2 * x - 3");
        // Constants folded: (2 + 3) * 4 = 20; $x * 1 is x.
        assert_eq!(read("(2 + 3) * 4").unwrap(), "20");
        assert_eq!(read("$x * 1").unwrap(), "x");
        // A numeric string is its number; `$( )` a group; [double] keeps, [int] rounds.
        assert_eq!(read("'1.5' * $(2)").unwrap(), "3");
        assert_eq!(read("[double] $x").unwrap(), "x");
        assert_eq!(read("[int] $x").unwrap(), "round(x)");
        assert_eq!(read("[math]::abs($x - $y)").unwrap(), "abs(x - y)");
        assert_eq!(read("-$x").unwrap(), "-x");
    }

    #[test]
    fn refusals_are_typed_and_positioned_in_words() {
        assert_eq!(read("$x / 0").unwrap_err().message, "divides by zero");
        assert_eq!(read("[string] $x").unwrap_err().code, ReasonCode::Form);
        assert_eq!(read("'abc' + 1").unwrap_err().code, ReasonCode::Form);
        let r = read("($x + 1").unwrap_err();
        assert_eq!(
            (r.code, r.message.as_str()),
            (
                ReasonCode::Syntax,
                "expected `)`, found the end of the snippet"
            )
        );
        // Nesting past MAX_DEPTH is refused, not a stack overflow.
        let deep = format!(
            "{}1{}",
            "(".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(read(&deep).unwrap_err().code, ReasonCode::TooLarge);
    }

    #[test]
    fn comparisons_ignore_a_leading_i() {
        let dash = |d: &str| comparison(Some(&Tok::Dash(d.into())));
        assert_eq!(dash("gt"), Some(Cmp::Gt));
        assert_eq!(dash("igt"), Some(Cmp::Gt));
        assert_eq!(dash("ieq"), Some(Cmp::Eq));
        assert_eq!(dash("and"), None);
        assert_eq!(dash("in"), None);
    }
}
