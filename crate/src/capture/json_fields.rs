//! The number-or-string fields of the two JSON capture formats (Get-Counter's RawValue and
//! CounterType, the raw capture's 64-bit values), each read by one small serde visitor.
//!
//! serde's `#[serde(untagged)]` would buffer every such value and try each variant in turn: code per
//! field type in the wasm module, and a copy per value in the reader's inner loop. A visitor takes the
//! value as the JSON reader hands it, once.

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Any JSON value; `Some` for a non-negative integer that fits 64 bits (read exactly, never through a
/// double), `None` for anything else (a negative or fractional number, a string, an array, ...).
pub(crate) struct AnyU64(pub Option<u64>);

/// A non-negative 64-bit integer or a string; anything else is an error.
pub(crate) enum NumberOrText {
    Number(u64),
    Text(String),
}

struct AnyU64Visitor;

impl<'de> Visitor<'de> for AnyU64Visitor {
    type Value = AnyU64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_u64<E>(self, v: u64) -> Result<AnyU64, E> {
        Ok(AnyU64(Some(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<AnyU64, E> {
        Ok(AnyU64(u64::try_from(v).ok()))
    }
    fn visit_f64<E>(self, _: f64) -> Result<AnyU64, E> {
        Ok(AnyU64(None))
    }
    fn visit_bool<E>(self, _: bool) -> Result<AnyU64, E> {
        Ok(AnyU64(None))
    }
    fn visit_str<E>(self, _: &str) -> Result<AnyU64, E> {
        Ok(AnyU64(None))
    }
    fn visit_unit<E>(self) -> Result<AnyU64, E> {
        Ok(AnyU64(None))
    }
    fn visit_none<E>(self) -> Result<AnyU64, E> {
        Ok(AnyU64(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyU64, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(AnyU64(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyU64, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(AnyU64(None))
    }
}

impl<'de> Deserialize<'de> for AnyU64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyU64Visitor)
    }
}

struct NumberOrTextVisitor;

impl Visitor<'_> for NumberOrTextVisitor {
    type Value = NumberOrText;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-negative integer or a string")
    }
    fn visit_u64<E>(self, v: u64) -> Result<NumberOrText, E> {
        Ok(NumberOrText::Number(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<NumberOrText, E> {
        u64::try_from(v)
            .map(NumberOrText::Number)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }
    fn visit_str<E>(self, v: &str) -> Result<NumberOrText, E> {
        Ok(NumberOrText::Text(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<NumberOrText, E> {
        Ok(NumberOrText::Text(v))
    }
}

impl<'de> Deserialize<'de> for NumberOrText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumberOrTextVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any(json: &str) -> Option<u64> {
        serde_json::from_str::<AnyU64>(json).unwrap().0
    }

    #[test]
    fn any_u64_keeps_exact_unsigned_integers_only() {
        // 2^64 - 1 and 2^53 + 1 exactly (a double would read 2^53 + 1 as 2^53).
        assert_eq!(any("18446744073709551615"), Some(u64::MAX));
        assert_eq!(any("9007199254740993"), Some(9_007_199_254_740_993));
        assert_eq!(any("0"), Some(0));
        for other in [
            "-1",
            "1.5",
            "5.0",
            "1e3",
            "\"5\"",
            "true",
            "null",
            "[1, [2, {\"a\": 3}]]",
            "{\"a\": [1], \"b\": {}}",
            "\"<script>alert(1)</script>\"",
            "18446744073709551616",
        ] {
            assert_eq!(any(other), None, "{other}");
        }
        // Still JSON: a damaged value inside is an error, not a panic.
        assert!(serde_json::from_str::<AnyU64>("[1, }").is_err());
    }

    #[test]
    fn number_or_text() {
        let read = |json: &str| serde_json::from_str::<NumberOrText>(json);
        assert!(matches!(
            read("18446744073709551615"),
            Ok(NumberOrText::Number(u64::MAX))
        ));
        assert!(matches!(read("\" 42 \""), Ok(NumberOrText::Text(t)) if t == " 42 "));
        for bad in ["-1", "1.5", "true", "null", "[]", "{}"] {
            let e = read(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(
                e.contains("expected a non-negative integer or a string"),
                "{bad}: {e}"
            );
        }
    }
}
