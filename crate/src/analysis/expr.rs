//! Threshold expressions: `PhysicalMemoryGB * 1024 * 0.10`, `max(logicalProcessors * 2, 4)`, `100MB`,
//! `is(OS, 'Windows XP 32-bit') * 128MB + (1 - is(OS, 'Windows XP 32-bit')) * 2GB`.
//!
//! Numbers (with the size suffixes KB, MB, GB, TB, PB, 1024-based as PAL and PowerShell read them), variables,
//! `+ - * /`, parentheses, unary minus, `min(a, b)` and `max(a, b)`; comparisons that give 1 or 0:
//! `gt(a, b)`, `ge`, `lt`, `le`, `eq`, `ne`; and tests of a text variable that give 1 or 0, ignoring case
//! as PowerShell's `-eq` does: `is(v, 'text')`, `startsWith(v, 'text')`, `at(v, start, 'text')` (the
//! characters of v from `start`, counted from 0, are `text`: PowerShell's `$v.substring(start, n) -eq
//! 'text'`; 0 when v is shorter). Text is quoted with `'` or `"`, the quote doubled inside. An If/Else of
//! PAL's is `c * A + (1 - c) * B` with such a c. Parsed once into a tree, evaluated per analysis; parsing
//! never panics (nesting and the tree's depth are bounded) and every error says where and what was
//! expected.

use super::error::AnalysisError;
use super::pack::Value;

/// How deep parentheses, unary minus and function calls may nest, and how deep the tree may be (a chain
/// `a + b + c` is as deep as it has operators): far beyond any threshold, and bounded so a hostile
/// expression cannot exhaust the stack when it is parsed, evaluated or dropped (a panic in wasm kills
/// the page). The one limit of every expression: the PAL translator bounds the PowerShell it reads and
/// the trees it builds by it too, so what it writes into a pack always parses back.
pub const MAX_DEPTH: usize = 64;

/// The size suffixes, 1024-based as PAL and PowerShell read them (`100MB` is 104,857,600): the one
/// table of both the expression parser and the PAL translator's PowerShell numbers.
pub const SIZES: [(&str, f64); 5] = [
    ("KB", 1024.0),
    ("MB", 1_048_576.0),
    ("GB", 1_073_741_824.0),
    ("TB", 1_099_511_627_776.0),
    ("PB", 1_125_899_906_842_624.0),
];

/// The multiplier of a size suffix written in any case (`mb` is `MB`), None for anything else.
pub fn size_multiplier(suffix: &str) -> Option<f64> {
    SIZES
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(suffix))
        .map(|(_, m)| *m)
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(f64),
    /// A variable and the byte offset where it is written (errors name both).
    Variable(String, usize),
    Neg(Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    Min(Box<Expr>, Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
    /// `gt(a, b)` ...: 1 when the comparison holds, else 0.
    Compare(Cmp, Box<Expr>, Box<Expr>),
    /// `is`, `startsWith`, `at`: a test of a text variable (name, offset), 1 or 0.
    Text(TextTest, String, usize),
    /// `if(c, x, y)`: x where c is a number other than 0 (NaN is not), else y; only the branch taken
    /// is evaluated, so a guard keeps a division by zero out (derived series).
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `round(x)`: the nearest whole number, halves to even (PowerShell's `[int]`).
    Round(Box<Expr>),
    /// `abs(x)`.
    Abs(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// The comparisons of `gt(a, b)` ...: a rule's operators (PowerShell's `-gt` ...), one enum for both, so a
/// function and an operator of one name compare alike (NaN satisfies none, `ne` included).
pub use super::pack::Operator as Cmp;

/// A test of a text variable's value, ignoring case.
#[derive(Clone, Debug, PartialEq)]
pub enum TextTest {
    /// `is(v, 'text')`: the whole value.
    Is(String),
    /// `startsWith(v, 'text')`.
    StartsWith(String),
    /// `at(v, start, 'text')`: the characters from `start` (counted from 0).
    At(usize, String),
}

impl TextTest {
    /// Whether `value` passes: compared ignoring case (Unicode lower case, character by character).
    pub fn holds(&self, value: &str) -> bool {
        let (start, text) = match self {
            TextTest::Is(t) => return lower(value) == lower(t),
            TextTest::StartsWith(t) => (0, t),
            TextTest::At(s, t) => (*s, t),
        };
        // PowerShell's substring(start, n) needs start + n characters.
        let n = text.chars().count();
        if value.chars().count() < start.saturating_add(n) {
            return false;
        }
        let part: String = value.chars().skip(start).take(n).collect();
        lower(&part) == lower(text)
    }
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Why an expression could not be evaluated: a variable (name, byte offset) that is unknown, text where a
/// number is needed, or a number where a text test needs text.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub name: String,
    pub offset: usize,
    pub kind: EvalErrorKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EvalErrorKind {
    Unknown,
    /// The text value used as a number.
    NotANumber(String),
    /// The number given to a text test.
    NotText(f64),
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, at) = (&self.name, self.offset);
        match &self.kind {
            EvalErrorKind::Unknown => write!(f, "unknown variable {name:?} at byte {at}"),
            EvalErrorKind::NotANumber(v) => {
                write!(f, "variable {name:?} at byte {at} is {v:?}, not a number")
            }
            EvalErrorKind::NotText(n) => write!(
                f,
                "variable {name:?} at byte {at} is the number {n}, where a text test (is, startsWith, at) needs text"
            ),
        }
    }
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
        let (e, _) = p.sum()?;
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
                Expr::Variable(v, _) | Expr::Text(_, v, _) => {
                    if !out.contains(&v.as_str()) {
                        out.push(v)
                    }
                }
                Expr::Neg(a) | Expr::Round(a) | Expr::Abs(a) => walk(a, out),
                Expr::If(c, a, b) => {
                    walk(c, out);
                    walk(a, out);
                    walk(b, out)
                }
                Expr::Binary(_, a, b)
                | Expr::Min(a, b)
                | Expr::Max(a, b)
                | Expr::Compare(_, a, b) => {
                    walk(a, out);
                    walk(b, out)
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Evaluates with `lookup` giving each variable's number (no text: a text test's variable is then
    /// an error, `NotText` with NaN). Errors name the first variable it cannot use.
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> Result<f64, EvalError> {
        self.evaluate(&|n| lookup(n).map(Value::Number))
    }

    /// Evaluates with `lookup` giving each variable's value: numbers for arithmetic (text that reads as
    /// a number counts), text for the text tests. Errors name the first variable it cannot use and where
    /// it is written.
    pub fn evaluate(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<f64, EvalError> {
        let fail = |name: &str, offset: usize, kind| EvalError {
            name: name.to_string(),
            offset,
            kind,
        };
        Ok(match self {
            Expr::Number(n) => *n,
            Expr::Variable(v, at) => {
                let value = lookup(v).ok_or_else(|| fail(v, *at, EvalErrorKind::Unknown))?;
                value
                    .as_number()
                    .map_err(|t| fail(v, *at, EvalErrorKind::NotANumber(t.to_string())))?
            }
            Expr::Text(test, v, at) => match lookup(v) {
                None => return Err(fail(v, *at, EvalErrorKind::Unknown)),
                Some(Value::Number(n)) => return Err(fail(v, *at, EvalErrorKind::NotText(n))),
                Some(Value::Text(t)) => f64::from(u8::from(test.holds(&t))),
            },
            Expr::Neg(a) => -a.evaluate(lookup)?,
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.evaluate(lookup)?, b.evaluate(lookup)?);
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                }
            }
            Expr::Min(a, b) => a.evaluate(lookup)?.min(b.evaluate(lookup)?),
            Expr::Max(a, b) => a.evaluate(lookup)?.max(b.evaluate(lookup)?),
            Expr::Compare(c, a, b) => {
                f64::from(u8::from(c.holds(a.evaluate(lookup)?, b.evaluate(lookup)?)))
            }
            Expr::If(c, a, b) => {
                let c = c.evaluate(lookup)?;
                if c != 0.0 && !c.is_nan() {
                    a.evaluate(lookup)?
                } else {
                    b.evaluate(lookup)?
                }
            }
            Expr::Round(a) => round_half_even(a.evaluate(lookup)?),
            Expr::Abs(a) => a.evaluate(lookup)?.abs(),
        })
    }
}

/// The nearest whole number, halves to the even one, as .NET's `Math.Round` and PowerShell's `[int]`
/// (`[int]2.5` is 2, `[int]3.5` is 4).
pub fn round_half_even(x: f64) -> f64 {
    x.round_ties_even()
}

/// The expression as text that [`Expr::parse`] reads back as the same tree (offsets aside): numbers in
/// Rust's shortest round-trip form, parentheses where precedence needs them, a negative number as
/// `(-x)`, text quoted with `'` doubled. A number that is not finite has no text form and prints as
/// `(0/0)` (NaN) or `(1/0)` / `(-1/0)`, which evaluate to it.
impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn prec(e: &Expr) -> u8 {
            match e {
                Expr::Binary(Op::Add | Op::Sub, ..) => 1,
                Expr::Binary(Op::Mul | Op::Div, ..) => 2,
                Expr::Neg(_) => 3,
                Expr::Number(n) if *n < 0.0 || !n.is_finite() => 3,
                _ => 4,
            }
        }
        fn quote(t: &str) -> String {
            format!("'{}'", t.replace('\'', "''"))
        }
        match self {
            Expr::Number(n) if n.is_nan() => f.write_str("(0/0)"),
            Expr::Number(n) if n.is_infinite() => {
                f.write_str(if *n > 0.0 { "(1/0)" } else { "(-1/0)" })
            }
            Expr::Number(n) if *n < 0.0 || (*n == 0.0 && n.is_sign_negative()) => {
                write!(f, "(-{})", -n)
            }
            Expr::Number(n) => write!(f, "{n}"),
            Expr::Variable(v, _) => f.write_str(v),
            // `--x` reads as Neg(Neg(x)): parentheses only around a sum or a product, so the text
            // nests no deeper than the tree.
            // A negated number in parentheses: `-5` reads as the number -5.
            Expr::Neg(a) if matches!(**a, Expr::Number(n) if n.is_finite() && !(n < 0.0 || (n == 0.0 && n.is_sign_negative()))) =>
            {
                write!(f, "-({a})")
            }
            Expr::Neg(a) if prec(a) >= 3 => write!(f, "-{a}"),
            Expr::Neg(a) => write!(f, "-({a})"),
            Expr::Binary(op, a, b) => {
                let p = prec(self);
                let sym = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div => "/",
                };
                // Left-associative: the left side needs parentheses below this precedence, the right
                // side at or below it (`a - (b + c)`, and `a + (b + c)` so the tree reads back as it is).
                if prec(a) < p {
                    write!(f, "({a})")?;
                } else {
                    write!(f, "{a}")?;
                }
                write!(f, " {sym} ")?;
                if prec(b) <= p {
                    write!(f, "({b})")
                } else {
                    write!(f, "{b}")
                }
            }
            Expr::Min(a, b) => write!(f, "min({a}, {b})"),
            Expr::Max(a, b) => write!(f, "max({a}, {b})"),
            Expr::Compare(c, a, b) => write!(f, "{}({a}, {b})", c.name()),
            Expr::Text(TextTest::Is(t), v, _) => write!(f, "is({v}, {})", quote(t)),
            Expr::Text(TextTest::StartsWith(t), v, _) => {
                write!(f, "startsWith({v}, {})", quote(t))
            }
            Expr::Text(TextTest::At(s, t), v, _) => write!(f, "at({v}, {s}, {})", quote(t)),
            Expr::If(c, a, b) => write!(f, "if({c}, {a}, {b})"),
            Expr::Round(a) => write!(f, "round({a})"),
            Expr::Abs(a) => write!(f, "abs({a})"),
        }
    }
}

impl Expr {
    /// A variable not written in a text (offset 0): the trees the PAL translator builds.
    pub fn var(name: &str) -> Expr {
        Expr::Variable(name.to_string(), 0)
    }

    /// The number, when the tree is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Expr::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The subtrees, left to right.
    fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Number(_) | Expr::Variable(..) | Expr::Text(..) => Vec::new(),
            Expr::Neg(a) | Expr::Round(a) | Expr::Abs(a) => vec![a],
            Expr::Binary(_, a, b) | Expr::Min(a, b) | Expr::Max(a, b) | Expr::Compare(_, a, b) => {
                vec![a, b]
            }
            Expr::If(c, a, b) => vec![c, a, b],
        }
    }

    /// Whether the tree is deeper than `n` levels (a leaf is one); recursion goes no deeper than `n`.
    pub fn deeper_than(&self, n: usize) -> bool {
        n == 0 || self.children().iter().any(|c| c.deeper_than(n - 1))
    }

    /// Whether the tree has more than `*budget` nodes; counts no further than that.
    pub fn larger_than(&self, budget: &mut usize) -> bool {
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        self.children().iter().any(|c| c.larger_than(budget))
    }

    /// Whether the value depends on a variable (a number or a text test's).
    pub fn has_variables(&self) -> bool {
        matches!(self, Expr::Variable(..) | Expr::Text(..))
            || self.children().iter().any(|c| c.has_variables())
    }

    /// The tree with every variable's offset set to 0: what two trees of the same meaning share.
    pub fn without_offsets(&self) -> Expr {
        let b = |e: &Expr| Box::new(e.without_offsets());
        match self {
            Expr::Number(n) => Expr::Number(*n),
            Expr::Variable(v, _) => Expr::Variable(v.clone(), 0),
            Expr::Text(t, v, _) => Expr::Text(t.clone(), v.clone(), 0),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Round(a) => Expr::Round(b(a)),
            Expr::Abs(a) => Expr::Abs(b(a)),
            Expr::Binary(op, x, y) => Expr::Binary(*op, b(x), b(y)),
            Expr::Min(x, y) => Expr::Min(b(x), b(y)),
            Expr::Max(x, y) => Expr::Max(b(x), b(y)),
            Expr::Compare(c, x, y) => Expr::Compare(*c, b(x), b(y)),
            Expr::If(c, x, y) => Expr::If(b(c), b(x), b(y)),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

/// A parsed subtree and its depth.
type Node = (Expr, usize);

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

    /// A node over subtrees of depth `d`: an error past MAX_DEPTH (a long chain of operators too).
    fn node(&self, e: Expr, d: usize) -> Result<Node, AnalysisError> {
        if d + 1 > MAX_DEPTH {
            return Err(self.error(&format!("an expression deeper than {MAX_DEPTH} levels")));
        }
        Ok((e, d + 1))
    }

    fn sum(&mut self) -> Result<Node, AnalysisError> {
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
            let d = left.1.max(right.1);
            left = self.node(Expr::Binary(op, Box::new(left.0), Box::new(right.0)), d)?;
        }
    }

    fn product(&mut self) -> Result<Node, AnalysisError> {
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
            let d = left.1.max(right.1);
            left = self.node(Expr::Binary(op, Box::new(left.0), Box::new(right.0)), d)?;
        }
    }

    fn unary(&mut self) -> Result<Node, AnalysisError> {
        if self.eat(b'-') {
            // `-5` is the number -5 (what `Display` writes for it, in parentheses), so that a tree with
            // negative numbers reads back as it is; `-(5)` is the negation of 5.
            self.skip_space();
            if self
                .bytes
                .get(self.pos)
                .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
            {
                return Ok((Expr::Number(-self.number()?), 1));
            }
            self.enter()?;
            let (e, d) = self.unary()?;
            self.depth -= 1;
            return self.node(Expr::Neg(Box::new(e)), d);
        }
        if self.eat(b'+') {
            self.enter()?;
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(e);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Node, AnalysisError> {
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
            Some(b) if b.is_ascii_digit() || *b == b'.' => Ok((Expr::Number(self.number()?), 1)),
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                let name = self.word();
                let f = name.to_ascii_lowercase();
                let known = matches!(
                    f.as_str(),
                    "min" | "max" | "is" | "startswith" | "at" | "if" | "round" | "abs"
                ) || Cmp::ALL.iter().any(|(_, n)| *n == f);
                if known && self.eat(b'(') {
                    self.enter()?;
                    let e = self.call(&f)?;
                    if !self.eat(b')') {
                        return Err(self.error("expected ')'"));
                    }
                    self.depth -= 1;
                    return Ok(e);
                }
                Ok((Expr::Variable(name.to_string(), start), 1))
            }
            _ => Err(self.error("expected a number, a variable, '(' or '-'")),
        }
    }

    /// The arguments of function `f` (lower case), after its `(`.
    fn call(&mut self, f: &str) -> Result<Node, AnalysisError> {
        if matches!(f, "is" | "startswith" | "at") {
            // The first argument is the text variable.
            self.skip_space();
            let at = self.pos;
            let name = self.word();
            if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
                self.pos = at;
                return Err(self.error(&format!(
                    "expected the name of a text variable as the first argument of {f}()"
                )));
            }
            self.comma()?;
            let test = if f == "at" {
                self.skip_space();
                let s = self.pos;
                let n = match self.bytes.get(self.pos) {
                    Some(b) if b.is_ascii_digit() => self.number()?,
                    _ => f64::NAN,
                };
                if !(n.fract() == 0.0 && (0.0..=1e9).contains(&n)) {
                    self.pos = s;
                    return Err(
                        self.error("expected the start, a whole number of characters from 0")
                    );
                }
                self.comma()?;
                TextTest::At(n as usize, self.quoted()?)
            } else if f == "is" {
                TextTest::Is(self.quoted()?)
            } else {
                TextTest::StartsWith(self.quoted()?)
            };
            return Ok((Expr::Text(test, name.to_string(), at), 1));
        }
        let (a, da) = self.sum()?;
        if matches!(f, "round" | "abs") {
            let a = Box::new(a);
            return self.node(
                if f == "round" {
                    Expr::Round(a)
                } else {
                    Expr::Abs(a)
                },
                da,
            );
        }
        self.comma()?;
        let (b, db) = self.sum()?;
        if f == "if" {
            self.comma()?;
            let (c, dc) = self.sum()?;
            return self.node(
                Expr::If(Box::new(a), Box::new(b), Box::new(c)),
                da.max(db).max(dc),
            );
        }
        let (a, b) = (Box::new(a), Box::new(b));
        let e = match f {
            "min" => Expr::Min(a, b),
            "max" => Expr::Max(a, b),
            _ => {
                let c = Cmp::ALL
                    .iter()
                    .find(|(_, n)| *n == f)
                    .map_or(Cmp::Eq, |(c, _)| *c);
                Expr::Compare(c, a, b)
            }
        };
        self.node(e, da.max(db))
    }

    fn comma(&mut self) -> Result<(), AnalysisError> {
        if self.eat(b',') {
            Ok(())
        } else {
            Err(self.error("expected ',' between the arguments"))
        }
    }

    /// `'text'` or `"text"`, the quote doubled inside.
    fn quoted(&mut self) -> Result<String, AnalysisError> {
        self.skip_space();
        let q = match self.bytes.get(self.pos) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => return Err(self.error("expected text in quotes ('...')")),
        };
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.pos..];
            match rest.find(q as char) {
                None => {
                    self.pos = open;
                    return Err(self.error("expected the closing quote of this text"));
                }
                Some(i) => {
                    out.push_str(&rest[..i]);
                    self.pos += i + 1;
                    if self.bytes.get(self.pos) == Some(&q) {
                        out.push(q as char);
                        self.pos += 1;
                    } else {
                        return Ok(out);
                    }
                }
            }
        }
    }

    /// A number at the position, with its size suffix.
    fn number(&mut self) -> Result<f64, AnalysisError> {
        let start = self.pos;
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
        let scale = match (word, size_multiplier(word)) {
            ("", _) => 1.0,
            (_, Some(m)) => m,
            (_, None) => {
                self.pos -= word.len();
                return Err(self.error("expected a size suffix KB, MB, GB, TB or PB"));
            }
        };
        // A number past the largest double would be infinity, which no threshold means and which has no
        // text to print back as the same tree (the fuzz target `expression` found `1` and 400 zeros).
        let v = n * scale;
        if !v.is_finite() {
            self.pos = start;
            return Err(self.error("expected a number below 1.8e308 (with its size suffix)"));
        }
        Ok(v)
    }

    /// `[A-Za-z0-9_]*` at the position (possibly empty).
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
            .map_err(|e| match e.kind {
                EvalErrorKind::Unknown => format!("unknown {}", e.name),
                _ => e.to_string(),
            })
    }

    /// Evaluates with text and number variables.
    fn eval_v(text: &str, vars: &[(&str, Value)]) -> Result<f64, EvalError> {
        Expr::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .evaluate(&|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone()))
    }

    fn text(s: &str) -> Value {
        Value::Text(s.into())
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
        // 1PB = 1024^5 = 1125899906842624; -2KB = -2048.
        assert_eq!(eval("1pb", &[]), Ok(1_125_899_906_842_624.0));
        assert_eq!(eval("-2KB", &[]), Ok(-2048.0));
        assert_eq!(size_multiplier("Mb"), Some(1_048_576.0));
        assert_eq!(size_multiplier("XB"), None);
        // `-5` is the number, `-(5)` its negation: both -5; printed as written, read back as built.
        assert_eq!(Expr::parse("-5").unwrap(), Expr::Number(-5.0));
        let neg = Expr::Neg(Box::new(Expr::Number(5.0)));
        assert_eq!(Expr::parse("-(5)").unwrap(), neg);
        assert_eq!(neg.to_string(), "-(5)");
        assert_eq!(Expr::Number(-5.0).to_string(), "(-5)");
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
    fn comparisons_give_one_or_zero() {
        let v = [("UserVa", 3072.0), ("m", 2.0)];
        // 3072 > 2048 -> 1; 3072 >= 3072 -> 1; 3072 < 2048 -> 0; 3072 <= 3071 -> 0.
        assert_eq!(eval("gt(UserVa, 2048)", &v), Ok(1.0));
        assert_eq!(eval("ge(UserVa, 3072)", &v), Ok(1.0));
        assert_eq!(eval("lt(UserVa, 2048)", &v), Ok(0.0));
        assert_eq!(eval("LE(UserVa, 3071)", &v), Ok(0.0));
        // eq(2, 1 + 1) = 1; ne(2, 2) = 0; eq(2 * 1GB, 2GB) = 1.
        assert_eq!(eval("eq(m, 1 + 1)", &v), Ok(1.0));
        assert_eq!(eval("ne(m, 2)", &v), Ok(0.0));
        assert_eq!(eval("eq(m * 1GB, 2GB)", &v), Ok(1.0));
        // An If/Else as c * A + (1 - c) * B: UserVa 3072 > 2048 picks 128MB = 134217728;
        // UserVa 2048 picks 256MB = 268435456.
        let ifelse = "gt(UserVa, 2048) * 128MB + (1 - gt(UserVa, 2048)) * 256MB";
        assert_eq!(eval(ifelse, &v), Ok(134_217_728.0));
        assert_eq!(eval(ifelse, &[("UserVa", 2048.0)]), Ok(268_435_456.0));
        // A variable named like a function, without `(`, is a variable.
        assert_eq!(eval("gt + 1", &[("gt", 1.0)]), Ok(2.0));
    }

    #[test]
    fn text_tests_ignore_case() {
        let os = [("OS", text("Windows XP 32-bit")), ("n", Value::Number(2.0))];
        // is: the whole answer, any case.
        assert_eq!(eval_v("is(OS, 'WINDOWS XP 32-BIT')", &os), Ok(1.0));
        assert_eq!(eval_v("is(OS, 'windows xp 32-bit')", &os), Ok(1.0));
        assert_eq!(eval_v("is(OS, 'Windows XP')", &os), Ok(0.0));
        // startsWith: "Windows XP 32-bit" starts with "win", not with "32".
        assert_eq!(eval_v("startsWith(OS, 'win')", &os), Ok(1.0));
        assert_eq!(eval_v("STARTSWITH(OS, \"32\")", &os), Ok(0.0));
        // at: characters 11 and 12 (from 0) of "Windows XP 32-bit" are "32"; 0 past the end.
        assert_eq!(eval_v("at(OS, 11, '32')", &os), Ok(1.0));
        assert_eq!(eval_v("at(OS, 10, '32')", &os), Ok(0.0));
        assert_eq!(eval_v("at(OS, 16, 'T')", &os), Ok(1.0));
        assert_eq!(eval_v("at(OS, 16, 'tx')", &os), Ok(0.0));
        assert_eq!(eval_v("at(OS, 1000, 'x')", &os), Ok(0.0));
        // A quote doubled inside the text; the other quote as is.
        let q = [("Q", text("it's \"x\""))];
        assert_eq!(eval_v("is(Q, 'it''s \"x\"')", &q), Ok(1.0));
        // Non-ASCII text: characters, not bytes. "Système" has 'è' at 4 and 'm' at 5 (from 0; 'è' is
        // two bytes, so 'm' is byte 6).
        let s = [("S", text("Système"))];
        assert_eq!(eval_v("at(S, 4, 'È')", &s), Ok(1.0));
        assert_eq!(eval_v("at(S, 5, 'M')", &s), Ok(1.0));
        assert_eq!(eval_v("is(S, 'SYSTÈME')", &s), Ok(1.0));
        // In arithmetic: 2 * 1 + 3 = 5.
        assert_eq!(eval_v("n * is(OS, 'windows xp 32-bit') + 3", &os), Ok(5.0));
        assert_eq!(
            Expr::parse("is(OS, 'a') + startsWith(T, 'b') * at(OS, 1, 'c')")
                .unwrap()
                .variables(),
            vec!["OS", "T"]
        );
    }

    #[test]
    fn text_and_numbers_in_the_wrong_place_name_the_variable_and_where() {
        let os = [("OS", text("Windows Server")), ("n", Value::Number(2.0))];
        // OS is text used as a number: named, at byte 4 ("1 + OS").
        let e = eval_v("1 + OS", &os).unwrap_err();
        assert_eq!(
            e,
            EvalError {
                name: "OS".into(),
                offset: 4,
                kind: EvalErrorKind::NotANumber("Windows Server".into())
            }
        );
        assert!(e.to_string().contains("\"OS\" at byte 4"), "{e}");
        // A number given to a text test: named, at byte 3 ("is(n, ...)").
        let e = eval_v("is(n, '2')", &os).unwrap_err();
        assert_eq!((e.name.as_str(), e.offset), ("n", 3));
        assert_eq!(e.kind, EvalErrorKind::NotText(2.0));
        assert!(e.to_string().contains("text test"), "{e}");
        // Unknown, in a text test: "startsWith(OS, 'W')" is 19 bytes, " + at(" 6 more: x at byte 25.
        let e = eval_v("startsWith(OS, 'W') + at(x, 0, 'a')", &os).unwrap_err();
        assert_eq!((e.name.as_str(), e.offset), ("x", 25));
        assert_eq!(e.kind, EvalErrorKind::Unknown);
        // Text that reads as a number is a number: "64" * 2 = 128.
        assert_eq!(eval_v("v * 2", &[("v", text(" 64 "))]), Ok(128.0));
        // The numeric-only eval: a text test's variable given as a number is NotText.
        let e = Expr::parse("is(OS, 'x')")
            .unwrap()
            .eval(&|_| Some(1.0))
            .unwrap_err();
        assert_eq!(e.kind, EvalErrorKind::NotText(1.0));
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
        // Past the largest double (about 1.8e308): an error at the number, never infinity.
        let huge = format!("2 * 1{}", "0".repeat(309));
        let e = Expr::parse(&huge).unwrap_err();
        assert!(
            matches!(&e, AnalysisError::Expression { offset: 4, message, .. } if message.contains("below 1.8e308")),
            "{e:?}"
        );
        // 10^300 fits; times 1 PB (2^50, about 1.1e15) it does not.
        let big = format!("1{}", "0".repeat(300));
        assert_eq!(Expr::parse(&big).unwrap().number(), Some(1e300));
        assert!(Expr::parse(&format!("{big}PB")).is_err());
        assert!(Expr::parse("1 2").is_err());
        assert!(Expr::parse("max(1)").is_err());
        assert!(Expr::parse("1..2").is_err());
        assert!(Expr::parse("").is_err());
        assert!(Expr::parse(&"(".repeat(10_000)).is_err());
        assert!(Expr::parse(&"-".repeat(10_000)).is_err());
        let at = |text: &str| match Expr::parse(text) {
            Err(AnalysisError::Expression {
                offset, message, ..
            }) => (offset, message),
            other => panic!("{text}: {other:?}"),
        };
        // The text tests: a variable first (byte 3), quoted text (byte 7), the closing quote (byte 7),
        // a whole start from 0 (byte 7), two arguments for gt (byte 7).
        assert!(at("is(1, 'a')").1.contains("name of a text variable"));
        assert_eq!(at("is(1, 'a')").0, 3);
        let (o, m) = at("is(OS, a)");
        assert_eq!(o, 7);
        assert!(m.contains("text in quotes"), "{m}");
        let (o, m) = at("is(OS, 'a)");
        assert_eq!(o, 7);
        assert!(m.contains("closing quote"), "{m}");
        let (o, m) = at("at(OS, 1.5, 'a')");
        assert_eq!(o, 7);
        assert!(m.contains("whole number"), "{m}");
        assert!(at("at(OS, -1, 'a')").1.contains("whole number"));
        let (o, m) = at("gt(1)");
        assert_eq!(o, 4);
        assert!(m.contains("','"), "{m}");
        assert!(at("is(OS, 'a', 'b')").1.contains("')'"));
        // Text is only an argument of a text test.
        assert!(Expr::parse("'a' + 1").is_err());
    }

    #[test]
    fn trees_are_bounded_so_nothing_overflows_the_stack() {
        // A chain of 64 operators is 65 levels deep: an error, not a tree that evaluating or dropping
        // would recurse through; 60 is fine (1 * 61 = 61).
        let long = format!("1{}", " + 1".repeat(64));
        let e = Expr::parse(&long).unwrap_err();
        assert!(e.to_string().contains("deeper than 64"), "{e}");
        assert!(Expr::parse(&format!("1{}", " + 1".repeat(200_000))).is_err());
        assert_eq!(eval(&format!("1{}", " + 1".repeat(60)), &[]), Ok(61.0));
        assert!(Expr::parse(&format!("{}1{}", "gt(".repeat(100), ", 0)".repeat(100))).is_err());
    }

    /// A random expression of the whole grammar, as a tree (negative numbers too: the parser reads `-5`
    /// as the number, `-(5)` as a negation).
    fn arb_expr() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![
            (-5000i32..5000, 0u32..4)
                .prop_map(|(n, d)| Expr::Number(f64::from(n) / f64::from(10u32.pow(d)))),
            prop_oneof![Just("a"), Just("b"), Just("PhysicalMemoryGB"), Just("_x1")]
                .prop_map(|v| Expr::Variable(v.to_string(), 0)),
            ("[a-z' ]{0,6}", 0usize..4).prop_map(|(t, k)| Expr::Text(
                match k {
                    0 => TextTest::Is(t),
                    1 => TextTest::StartsWith(t),
                    _ => TextTest::At(k, t),
                },
                "OS".to_string(),
                0
            )),
        ];
        leaf.prop_recursive(6, 48, 3, |inner| {
            let b = |e: Expr| Box::new(e);
            prop_oneof![
                inner.clone().prop_map(move |a| Expr::Neg(b(a))),
                inner.clone().prop_map(move |a| Expr::Round(b(a))),
                inner.clone().prop_map(move |a| Expr::Abs(b(a))),
                (0usize..4, inner.clone(), inner.clone()).prop_map(move |(k, x, y)| Expr::Binary(
                    [Op::Add, Op::Sub, Op::Mul, Op::Div][k],
                    b(x),
                    b(y)
                )),
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Expr::Min(b(x), b(y))),
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Expr::Max(b(x), b(y))),
                (0usize..6, inner.clone(), inner.clone()).prop_map(move |(k, x, y)| Expr::Compare(
                    Cmp::ALL[k].0,
                    b(x),
                    b(y)
                )),
                (inner.clone(), inner.clone(), inner).prop_map(move |(c, x, y)| Expr::If(
                    b(c),
                    b(x),
                    b(y)
                )),
            ]
        })
    }

    proptest! {
        /// Printing then parsing gives the same tree: the text a pack stores (the PAL importer's
        /// derived series, built as trees) means what the tree meant.
        #[test]
        fn printing_then_parsing_gives_the_same_tree(e in arb_expr()) {
            let text = e.to_string();
            let again = Expr::parse(&text).map_err(|err| TestCaseError::fail(format!("{text:?}: {err}")))?;
            prop_assert_eq!(again.without_offsets(), e.without_offsets(), "{}", text);
        }

        #[test]
        fn never_panics(s in "\\PC{0,40}") {
            if let Ok(e) = Expr::parse(&s) { let _ = e.eval(&|_| Some(1.0)); }
        }

        #[test]
        fn never_panics_on_expression_alphabet(s in "[0-9a-zA-Z_ .+*/()-,]{0,60}") {
            if let Ok(e) = Expr::parse(&s) {
                let _ = e.eval(&|_| Some(2.0));
                // And what parses prints as text that parses to the same tree.
                let again = Expr::parse(&e.to_string()).unwrap();
                prop_assert_eq!(again.without_offsets(), e.without_offsets());
            }
        }

        #[test]
        fn never_panics_on_functions_and_text(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("is(".to_string()), Just("startsWith(".to_string()), Just("at(".to_string()),
                    Just("gt(".to_string()), Just("eq(".to_string()), Just("min(".to_string()),
                    Just("OS".to_string()), Just("n".to_string()), Just(", ".to_string()),
                    Just(")".to_string()), Just("'".to_string()), Just("\"".to_string()),
                    Just(" + ".to_string()), Just(" * ".to_string()), Just("1".to_string()),
                    Just("é".to_string()), Just("''".to_string()), Just("-".to_string()),
                    "\\PC{0,3}",
                ],
                0..24,
            ),
            text_os in any::<bool>(),
        ) {
            let s = parts.concat();
            if let Ok(e) = Expr::parse(&s) {
                let os = if text_os { Value::Text("32-bit É".into()) } else { Value::Number(3.0) };
                let _ = e.evaluate(&|name| match name {
                    "OS" => Some(os.clone()),
                    "n" => Some(Value::Text("x".into())),
                    _ => None,
                });
            }
        }

        #[test]
        fn text_tests_agree_with_lower_case_comparison(value in "[a-zA-Z0-9 ]{0,12}", lit in "[a-zA-Z0-9]{0,4}", start in 0usize..14) {
            // is = equal lower case; startsWith = lower-case prefix; at = lower-case slice from start.
            let v = [("v", Value::Text(value.clone()))];
            let quoted = format!("'{lit}'");
            let (lv, ll) = (value.to_lowercase(), lit.to_lowercase());
            prop_assert_eq!(eval_v(&format!("is(v, {quoted})"), &v), Ok(f64::from(u8::from(lv == ll))));
            prop_assert_eq!(eval_v(&format!("startsWith(v, {quoted})"), &v), Ok(f64::from(u8::from(lv.starts_with(&ll)))));
            let at = lv.get(start..).is_some_and(|r| r.starts_with(&ll));
            prop_assert_eq!(eval_v(&format!("at(v, {start}, {quoted})"), &v), Ok(f64::from(u8::from(at))));
        }

        #[test]
        fn comparisons_agree_with_rust(a in -1000i32..1000, b in -1000i32..1000) {
            let (x, y) = (f64::from(a), f64::from(b));
            for (c, name) in Cmp::ALL {
                let text = format!("{name}({a}, {b})");
                prop_assert_eq!(eval(&text, &[]), Ok(f64::from(u8::from(c.holds(x, y)))));
            }
            prop_assert_eq!(eval(&format!("gt({a}, {b})"), &[]), Ok(f64::from(u8::from(a > b))));
            prop_assert_eq!(eval(&format!("le({a}, {b})"), &[]), Ok(f64::from(u8::from(a <= b))));
        }

        #[test]
        fn integers_sum_as_written(a in -1000i32..1000, b in -1000i32..1000) {
            let text = format!("{a} + {b}");
            prop_assert_eq!(eval(&text, &[]), Ok(f64::from(a) + f64::from(b)));
        }
    }
}
