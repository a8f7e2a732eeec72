//! Threshold expressions: `PhysicalMemoryGB * 1024 * 0.10`, `max(logicalProcessors * 2, 4)`, `100MB`.
//!
//! Numbers (with the size suffixes KB, MB, GB, TB, 1024-based as PAL and PowerShell read them), variables,
//! `+ - * /`, parentheses, unary minus, `min(a, b)` and `max(a, b)`. Parsed once into a tree, evaluated
//! per analysis; parsing never panics (nesting is bounded) and every error says where and what was
//! expected.

use super::error::AnalysisError;

/// How deep parentheses, unary minus and function calls may nest: far beyond any threshold, and bounded so
/// a hostile expression cannot exhaust the stack (a panic in wasm kills the page).
const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(f64),
    Variable(String),
    Neg(Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    Min(Box<Expr>, Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl Expr {
    /// Parses `text`; errors name the byte offset and what was expected.
    pub fn parse(text: &str) -> Result<Expr, AnalysisError> {
        let mut p = Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
        };
        let e = p.sum()?;
        p.skip_space();
        if p.pos < p.bytes.len() {
            return Err(p.error("expected an operator (+ - * /) or the end"));
        }
        Ok(e)
    }

    /// The variables the expression uses, each once, in order of first use.
    pub fn variables(&self) -> Vec<&str> {
        fn walk<'a>(e: &'a Expr, out: &mut Vec<&'a str>) {
            match e {
                Expr::Number(_) => {}
                Expr::Variable(v) => {
                    if !out.contains(&v.as_str()) {
                        out.push(v)
                    }
                }
                Expr::Neg(a) => walk(a, out),
                Expr::Binary(_, a, b) | Expr::Min(a, b) | Expr::Max(a, b) => {
                    walk(a, out);
                    walk(b, out)
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Evaluates with `lookup` giving each variable's number; `Err(name)` for the first variable it
    /// cannot give.
    pub fn eval<'a>(&'a self, lookup: &dyn Fn(&str) -> Option<f64>) -> Result<f64, &'a str> {
        Ok(match self {
            Expr::Number(n) => *n,
            Expr::Variable(v) => lookup(v).ok_or(v.as_str())?,
            Expr::Neg(a) => -a.eval(lookup)?,
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.eval(lookup)?, b.eval(lookup)?);
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                }
            }
            Expr::Min(a, b) => a.eval(lookup)?.min(b.eval(lookup)?),
            Expr::Max(a, b) => a.eval(lookup)?.max(b.eval(lookup)?),
        })
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, expected: &str) -> AnalysisError {
        let found = match self.text.get(self.pos..).and_then(|r| r.chars().next()) {
            Some(c) => format!("found {c:?}"),
            None => "found the end".to_string(),
        };
        AnalysisError::Expression {
            expression: self.text.to_string(),
            offset: self.pos,
            message: format!("{expected}, {found}"),
        }
    }

    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_space();
        if self.bytes.get(self.pos) == Some(&b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), AnalysisError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn sum(&mut self) -> Result<Expr, AnalysisError> {
        let mut left = self.product()?;
        loop {
            let op = if self.eat(b'+') {
                Op::Add
            } else if self.eat(b'-') {
                Op::Sub
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Expr, AnalysisError> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat(b'*') {
                Op::Mul
            } else if self.eat(b'/') {
                Op::Div
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expr, AnalysisError> {
        if self.eat(b'-') {
            self.enter()?;
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(e)));
        }
        if self.eat(b'+') {
            self.enter()?;
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(e);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, AnalysisError> {
        self.skip_space();
        let start = self.pos;
        match self.bytes.get(self.pos) {
            Some(b'(') => {
                self.pos += 1;
                self.enter()?;
                let e = self.sum()?;
                if !self.eat(b')') {
                    return Err(self.error("expected ')'"));
                }
                self.depth -= 1;
                Ok(e)
            }
            Some(b) if b.is_ascii_digit() || *b == b'.' => {
                while self
                    .bytes
                    .get(self.pos)
                    .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
                {
                    self.pos += 1;
                }
                let n: f64 = self.text[start..self.pos].parse().map_err(|_| {
                    self.pos = start;
                    self.error("expected a number")
                })?;
                // A size suffix written right after the number: 100MB.
                let word = self.word();
                let scale = match word.to_ascii_uppercase().as_str() {
                    "" => 1.0,
                    "KB" => 1024.0,
                    "MB" => 1024.0 * 1024.0,
                    "GB" => 1024.0 * 1024.0 * 1024.0,
                    "TB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
                    _ => {
                        self.pos -= word.len();
                        return Err(self.error("expected a size suffix KB, MB, GB or TB"));
                    }
                };
                Ok(Expr::Number(n * scale))
            }
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                let name = self.word();
                let func = name.eq_ignore_ascii_case("min") || name.eq_ignore_ascii_case("max");
                if func && self.eat(b'(') {
                    self.enter()?;
                    let a = self.sum()?;
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' between the two arguments"));
                    }
                    let b = self.sum()?;
                    if !self.eat(b')') {
                        return Err(self.error("expected ')'"));
                    }
                    self.depth -= 1;
                    let (a, b) = (Box::new(a), Box::new(b));
                    return Ok(if name.eq_ignore_ascii_case("min") {
                        Expr::Min(a, b)
                    } else {
                        Expr::Max(a, b)
                    });
                }
                Ok(Expr::Variable(name.to_string()))
            }
            _ => Err(self.error("expected a number, a variable, '(' or '-'")),
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*` at the position (possibly empty).
    fn word(&mut self) -> &'a str {
        let start = self.pos;
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn eval(text: &str, vars: &[(&str, f64)]) -> Result<f64, String> {
        let e = Expr::parse(text).map_err(|e| e.to_string())?;
        e.eval(&|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .map_err(|n| format!("unknown {n}"))
    }

    #[test]
    fn arithmetic_and_precedence() {
        // 2 + 3 * 4 = 2 + 12 = 14; (2 + 3) * 4 = 20; 10 - 4 - 3 = (10 - 4) - 3 = 3; 8 / 4 / 2 = 1.
        assert_eq!(eval("2 + 3 * 4", &[]), Ok(14.0));
        assert_eq!(eval("(2 + 3) * 4", &[]), Ok(20.0));
        assert_eq!(eval("10 - 4 - 3", &[]), Ok(3.0));
        assert_eq!(eval("8/4/2", &[]), Ok(1.0));
        // Unary minus binds tighter than *: -2 * -3 = 6; 5 - -1 = 6.
        assert_eq!(eval("-2 * -3", &[]), Ok(6.0));
        assert_eq!(eval("5 - -1", &[]), Ok(6.0));
        assert_eq!(eval("0.5", &[]), Ok(0.5));
    }

    #[test]
    fn sizes_variables_and_clamps() {
        // 100MB = 100 * 1024 * 1024 = 104857600; 1KB = 1024; 2GB = 2 * 1073741824 = 2147483648.
        assert_eq!(eval("100MB", &[]), Ok(104_857_600.0));
        assert_eq!(eval("1kb", &[]), Ok(1024.0));
        assert_eq!(eval("2GB", &[]), Ok(2_147_483_648.0));
        assert_eq!(eval("1TB", &[]), Ok(1_099_511_627_776.0));
        // PhysicalMemoryGB = 16: 16 * 1024 * 0.10 = 1638.4 (MB).
        let v = [("PhysicalMemoryGB", 16.0), ("logicalProcessors", 8.0)];
        let r = eval("PhysicalMemoryGB * 1024 * 0.10", &v).unwrap();
        assert!((r - 1638.4).abs() < 1e-9);
        // max(8 * 2, 4) = 16; min(8 * 2, 4) = 4; MAX and Min in any case.
        assert_eq!(eval("max(logicalProcessors * 2, 4)", &v), Ok(16.0));
        assert_eq!(eval("MIN(logicalProcessors * 2, 4)", &v), Ok(4.0));
        assert_eq!(eval("x + 1", &v), Err("unknown x".into()));
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = Expr::parse("2 * (3 + ").unwrap_err();
        assert!(
            matches!(&e, AnalysisError::Expression { offset: 9, message, .. }
                if message.contains("expected a number, a variable") && message.contains("the end")),
            "{e:?}"
        );
        let e = Expr::parse("100XB").unwrap_err();
        assert!(
            matches!(&e, AnalysisError::Expression { offset: 3, message, .. } if message.contains("size suffix")),
            "{e:?}"
        );
        assert!(Expr::parse("1 2").is_err());
        assert!(Expr::parse("max(1)").is_err());
        assert!(Expr::parse("1..2").is_err());
        assert!(Expr::parse("").is_err());
        assert!(Expr::parse(&"(".repeat(10_000)).is_err());
        assert!(Expr::parse(&"-".repeat(10_000)).is_err());
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,40}") {
            if let Ok(e) = Expr::parse(&s) { let _ = e.eval(&|_| Some(1.0)); }
        }

        #[test]
        fn never_panics_on_expression_alphabet(s in "[0-9a-zA-Z_ .+*/()-,]{0,60}") {
            if let Ok(e) = Expr::parse(&s) { let _ = e.eval(&|_| Some(2.0)); }
        }

        #[test]
        fn integers_sum_as_written(a in -1000i32..1000, b in -1000i32..1000) {
            let text = format!("{a} + {b}");
            prop_assert_eq!(eval(&text, &[]), Ok(f64::from(a) + f64::from(b)));
        }
    }
}
