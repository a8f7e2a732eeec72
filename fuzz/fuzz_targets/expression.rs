//! Threshold and derived-series expressions: parsing never panics; a tree printed and parsed again is
//! the same tree; evaluating it with any numbers never panics.
#![no_main]
use counterlens::analysis::expr::Expr;
use counterlens::analysis::Value;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(e) = Expr::parse(text) else { return };
    let printed = e.to_string();
    let again = Expr::parse(&printed).unwrap_or_else(|err| panic!("{printed:?} does not read back: {err}"));
    assert_eq!(again.without_offsets(), e.without_offsets(), "{printed}");
    let _ = e.evaluate(&|n| Some(if n.len() % 2 == 0 { Value::Number(n.len() as f64 - 3.0) } else { Value::Text(n.to_string()) }));
});
