//! counterlens: Windows performance-counter analysis that runs wherever a browser does.
//!
//! This crate is a pure Rust core with one thin binding layer:
//!
//! | module | what it holds |
//! |---|---|
//! | [`types`] | the counter type table, bit-field decoding, parsing of every type spelling |
//! | [`cook`] | the calculation of one cooked value from raw samples: formulas, statuses, options |
//! | [`explain`] | the formula with a sample's numbers substituted, step by step |
//! | [`format`] | the text a user sees for a value (suffixes, hex, grouping, attributes) |
//! | [`series`] | columnar cooking of whole series, and statistics over a range |
//! | [`chart`] | plotters charts over any `DrawingBackend`, with M4 decimation and time axes |
//! | [`registration`] | counter-set registration: the model, binary/hex/JSON/manifest readers, every rule |
//! | [`analysis`] | rule packs, slice statistics, findings and the HTML report (PAL-compatible) |
//! | [`capture`] | the columnar capture model and the readers of the logs users have |
//! | [`civil`] | civil dates and epoch days, both ways |
//! | [`units`] | a counter's unit (percent, per second, bytes, ...) and values written in it, for charts and analysis |
//! | `wasm` | the wasm-bindgen layer (wasm32 only): converts JS values, delegates, converts back |
//!
//! The core modules use no wasm type; `wasm` is compiled only for `wasm32` so that rule is enforced by
//! the compiler. `docs/architecture.md` describes the layers, `docs/counter-types.md` the contract.

pub mod analysis;
pub mod capture;
pub mod chart;
pub mod civil;
pub mod cook;
pub mod explain;
pub mod format;
pub mod registration;
pub mod series;
pub mod types;
pub mod units;
pub mod words;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use cook::{cook, CookError, CookOptions, Cooked, RawSample, Status};
pub use explain::{explain, Explanation};
pub use format::format_value;
pub use series::{cook_series, stats, Frequency, RawColumns, Stats, StatusCounts};
pub use types::{counter_types, describe, parse_type, CounterType, TypeInfo, TypeParseError};
