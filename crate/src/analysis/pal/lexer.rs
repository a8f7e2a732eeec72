//! The PowerShell lexer of PAL's CODE snippets: statement separators (new line, `;`), `$variables` with a
//! member and its numeric arguments (`$x.Count`, `$OS.substring(0,2)`), `$(`, numbers with size
//! suffixes, quoted strings (the quote doubled inside), `-Parameters` and operators, words, `[casts]`
//! and punctuation; comments and line continuations dropped. Errors are messages (the caller gives them
//! their code).

use super::{Reason, ReasonCode};
use crate::analysis::expr::size_multiplier;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// Statement separator: a new line or `;`.
    Sep,
    /// `$name`, with an optional `.member` and its numeric arguments (`.Count`, `.substring(0,2)`).
    Var(String, Option<(String, Vec<f64>)>),
    /// `$(`
    SubExpr,
    Num(f64),
    Str(String),
    /// `-Word`: a parameter or an operator (`-Operator`, `-lt`).
    Dash(String),
    Word(String),
    Cast(String),
    Punct(char),
}

impl Tok {
    pub(super) fn show(&self) -> String {
        match self {
            Tok::Sep => "end of line".into(),
            Tok::Var(n, None) => format!("${n}"),
            Tok::Var(n, Some((m, _))) => format!("${n}.{m}"),
            Tok::SubExpr => "$(".into(),
            Tok::Num(n) => fmt_num(*n),
            Tok::Str(s) => format!("'{s}'"),
            Tok::Dash(w) => format!("-{w}"),
            Tok::Word(w) => format!("`{w}`"),
            Tok::Cast(c) => format!("[{c}]"),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

/// The tokens of a snippet; a `$` without a name or a string without its closing quote is a `Syntax`
/// reason.
pub(super) fn lex(code: &str) -> Result<Vec<Tok>, Reason> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        match ch {
            '\n' | ';' => {
                out.push(Tok::Sep);
                i += 1;
            }
            '`' if i + 1 < c.len() && (c[i + 1] == '\n' || c[i + 1] == '\r') => i += 2,
            c0 if c0.is_whitespace() => i += 1,
            '#' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '$' => {
                if c.get(i + 1) == Some(&'(') {
                    out.push(Tok::SubExpr);
                    i += 2;
                    continue;
                }
                let s = i + 1;
                i = s;
                // PAL substitutes a DATASOURCE's COLLECTIONVARNAME as written, so a collection name
                // carries what a PowerShell variable would not (Exchange2013.xml:
                // `$CollectionOfMSExchangeDatabase==>InstancesIOLogWritesAverageLatency`; `#`, `&`):
                // `==>`, `#` and `&` go on the name when a name character follows.
                loop {
                    let odd = if c[i..].starts_with(&['=', '=', '>']) {
                        3
                    } else {
                        usize::from(matches!(c.get(i), Some('#' | '&')))
                    };
                    if odd > 0 && i > s && c.get(i + odd).is_some_and(|&x| word_char(x)) {
                        i += odd;
                    } else if i < c.len() && (word_char(c[i]) || c[i] == ':') {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let name: String = c[s..i].iter().collect();
                if name.is_empty() {
                    return Err(Reason::new(
                        ReasonCode::Syntax,
                        "a `$` without a variable name",
                    ));
                }
                let mut member = None;
                if c.get(i) == Some(&'.') && c.get(i + 1).is_some_and(|x| x.is_alphabetic()) {
                    let ms = i + 1;
                    i = ms;
                    while i < c.len() && word_char(c[i]) {
                        i += 1;
                    }
                    let m: String = c[ms..i].iter().collect();
                    let mut args = Vec::new();
                    if c.get(i) == Some(&'(') {
                        let close = c[i..]
                            .iter()
                            .position(|&x| x == ')')
                            .ok_or("a method call without `)`")?;
                        let inner: String = c[i + 1..i + close].iter().collect();
                        for a in inner.split(',').filter(|a| !a.trim().is_empty()) {
                            args.push(parse_number(a.trim()).ok_or_else(|| {
                                format!("calls .{m}() with {:?}, not a number", a.trim())
                            })?);
                        }
                        i += close + 1;
                    }
                    member = Some((m.to_ascii_lowercase(), args));
                }
                out.push(Tok::Var(name, member));
            }
            '[' => {
                let close = c[i..]
                    .iter()
                    .position(|&x| x == ']')
                    .ok_or("a `[` without `]`")?;
                out.push(Tok::Cast(
                    c[i + 1..i + close]
                        .iter()
                        .collect::<String>()
                        .to_ascii_lowercase(),
                ));
                i += close + 1;
            }
            '\'' | '"' => {
                let mut s = String::new();
                i += 1;
                loop {
                    match c.get(i) {
                        None => {
                            return Err(Reason::new(
                                ReasonCode::Syntax,
                                "a string without its closing quote",
                            ))
                        }
                        Some(&q) if q == ch => {
                            if c.get(i + 1) == Some(&ch) {
                                s.push(ch);
                                i += 2;
                            } else {
                                i += 1;
                                break;
                            }
                        }
                        Some(&x) => {
                            s.push(x);
                            i += 1;
                        }
                    }
                }
                out.push(Tok::Str(s));
            }
            '-' if c.get(i + 1).is_some_and(|x| x.is_alphabetic()) => {
                let s = i + 1;
                i = s;
                while i < c.len() && word_char(c[i]) {
                    i += 1;
                }
                out.push(Tok::Dash(
                    c[s..i].iter().collect::<String>().to_ascii_lowercase(),
                ));
            }
            d if d.is_ascii_digit()
                || (d == '.' && c.get(i + 1).is_some_and(|x| x.is_ascii_digit())) =>
            {
                let s = i;
                while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '.') {
                    i += 1;
                }
                let t: String = c[s..i].iter().collect();
                out.push(Tok::Num(
                    parse_number(&t).ok_or_else(|| format!("{t:?} is not a number"))?,
                ));
            }
            w if w.is_alphabetic() || w == '_' => {
                let s = i;
                while i < c.len() && (word_char(c[i]) || c[i] == '-') {
                    i += 1;
                }
                out.push(Tok::Word(c[s..i].iter().collect()));
            }
            p => {
                out.push(Tok::Punct(p));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// A PowerShell number: `80`, `0.10`, `1e3`, sizes `100MB` (1024-based: KB MB GB TB PB, the expression
/// parser's table).
pub(super) fn parse_number(t: &str) -> Option<f64> {
    let (digits, mult) = match t
        .len()
        .checked_sub(2)
        .and_then(|i| t.get(i..).map(|s| (i, s)))
    {
        Some((i, suffix)) => match size_multiplier(suffix) {
            Some(m) => (&t[..i], m),
            None => (t, 1.0),
        },
        None => (t, 1.0),
    };
    if digits.is_empty()
        || !digits.bytes().all(|b| {
            b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E' || b == b'-' || b == b'+'
        })
    {
        return None;
    }
    let n: f64 = digits.parse().ok()?;
    n.is_finite().then_some(n * mult)
}

/// A number as PowerShell would write it back in a message: `-5`, `0.1`.
pub(super) fn fmt_num(n: f64) -> String {
    if n < 0.0 {
        format!("-{}", fmt_num(-n))
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sizes() {
        assert_eq!(parse_number("80"), Some(80.0));
        assert_eq!(parse_number("0.10"), Some(0.1));
        // 100MB = 100 * 1024 * 1024 = 104857600
        assert_eq!(parse_number("100MB"), Some(104_857_600.0));
        // 1GB = 1073741824; 8TB = 8 * 1024^4 = 8796093022208
        assert_eq!(parse_number("1gb"), Some(1_073_741_824.0));
        assert_eq!(parse_number("8TB"), Some(8_796_093_022_208.0));
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number("MB"), None);
        // 2PB = 2 * 1024^5 = 2251799813685248; 1e3 = 1000; 1.5kb = 1536.
        assert_eq!(parse_number("2PB"), Some(2_251_799_813_685_248.0));
        assert_eq!(parse_number("1e3"), Some(1000.0));
        assert_eq!(parse_number("1.5kb"), Some(1536.0));
        assert_eq!(parse_number("5é"), None);
    }
}
