//! The stable code of every registration diagnostic, one variant per rule or reading fault, each
//! documented in docs/registration-rules.md (a test checks it) and carried to JS as `code`.

use serde::Serialize;
use std::fmt;

/// A diagnostic's kind. `as_str()` is its stable code, documented in docs/registration-rules.md (a test
/// checks every one is) and carried by JS reports as `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiagnosticCode {
    // Reading the input
    ParseError,
    InputTooLarge,
    NestingTooDeep,
    MissingField,
    InvalidValue,
    UnknownField,
    MissingAttribute,
    DuplicateAttribute,
    NotAManifest,
    NoCounterSets,
    // The counter set
    GuidZero,
    InstanceTypeInvalid,
    InstanceTypeNotImplemented,
    DetailLevelInvalid,
    CountersetTypeReserved,
    NumCountersMismatch,
    NoCounters,
    TooManyCounters,
    // The counters
    DuplicateCounterId,
    CounterTypeInvalid,
    AttribUnknownBits,
    AttribConflict,
    DefaultScaleOutOfRange,
    BaseCounterRequired,
    BaseCounterWrongType,
    PerfTimeRequired,
    PerfFreqRequired,
    PerfTimeWrongType,
    PerfFreqWrongType,
    MultiRequired,
    MultiWrongType,
    ReferenceToSelf,
    ReferenceMissing,
    ReferenceUnused,
    AggregateFuncInvalid,
    AggregateUndefined,
    AggregateIgnored,
    ReservedNonzero,
}

impl DiagnosticCode {
    /// Every code, in the order docs/registration-rules.md lists them.
    pub const ALL: [DiagnosticCode; 38] = [
        DiagnosticCode::ParseError,
        DiagnosticCode::InputTooLarge,
        DiagnosticCode::NestingTooDeep,
        DiagnosticCode::MissingField,
        DiagnosticCode::InvalidValue,
        DiagnosticCode::UnknownField,
        DiagnosticCode::MissingAttribute,
        DiagnosticCode::DuplicateAttribute,
        DiagnosticCode::NotAManifest,
        DiagnosticCode::NoCounterSets,
        DiagnosticCode::GuidZero,
        DiagnosticCode::InstanceTypeInvalid,
        DiagnosticCode::InstanceTypeNotImplemented,
        DiagnosticCode::DetailLevelInvalid,
        DiagnosticCode::CountersetTypeReserved,
        DiagnosticCode::NumCountersMismatch,
        DiagnosticCode::NoCounters,
        DiagnosticCode::TooManyCounters,
        DiagnosticCode::DuplicateCounterId,
        DiagnosticCode::CounterTypeInvalid,
        DiagnosticCode::AttribUnknownBits,
        DiagnosticCode::AttribConflict,
        DiagnosticCode::DefaultScaleOutOfRange,
        DiagnosticCode::BaseCounterRequired,
        DiagnosticCode::BaseCounterWrongType,
        DiagnosticCode::PerfTimeRequired,
        DiagnosticCode::PerfFreqRequired,
        DiagnosticCode::PerfTimeWrongType,
        DiagnosticCode::PerfFreqWrongType,
        DiagnosticCode::MultiRequired,
        DiagnosticCode::MultiWrongType,
        DiagnosticCode::ReferenceToSelf,
        DiagnosticCode::ReferenceMissing,
        DiagnosticCode::ReferenceUnused,
        DiagnosticCode::AggregateFuncInvalid,
        DiagnosticCode::AggregateUndefined,
        DiagnosticCode::AggregateIgnored,
        DiagnosticCode::ReservedNonzero,
    ];

    /// The stable code.
    ///
    /// ```
    /// use counterlens::registration::DiagnosticCode;
    /// assert_eq!(DiagnosticCode::GuidZero.as_str(), "guid-zero");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::ParseError => "parse-error",
            DiagnosticCode::InputTooLarge => "input-too-large",
            DiagnosticCode::NestingTooDeep => "nesting-too-deep",
            DiagnosticCode::MissingField => "missing-field",
            DiagnosticCode::InvalidValue => "invalid-value",
            DiagnosticCode::UnknownField => "unknown-field",
            DiagnosticCode::MissingAttribute => "missing-attribute",
            DiagnosticCode::DuplicateAttribute => "duplicate-attribute",
            DiagnosticCode::NotAManifest => "not-a-manifest",
            DiagnosticCode::NoCounterSets => "no-counter-sets",
            DiagnosticCode::GuidZero => "guid-zero",
            DiagnosticCode::InstanceTypeInvalid => "instance-type-invalid",
            DiagnosticCode::InstanceTypeNotImplemented => "instance-type-not-implemented",
            DiagnosticCode::DetailLevelInvalid => "detail-level-invalid",
            DiagnosticCode::CountersetTypeReserved => "counterset-type-reserved",
            DiagnosticCode::NumCountersMismatch => "num-counters-mismatch",
            DiagnosticCode::NoCounters => "no-counters",
            DiagnosticCode::TooManyCounters => "too-many-counters",
            DiagnosticCode::DuplicateCounterId => "duplicate-counter-id",
            DiagnosticCode::CounterTypeInvalid => "counter-type-invalid",
            DiagnosticCode::AttribUnknownBits => "attrib-unknown-bits",
            DiagnosticCode::AttribConflict => "attrib-conflict",
            DiagnosticCode::DefaultScaleOutOfRange => "default-scale-out-of-range",
            DiagnosticCode::BaseCounterRequired => "base-counter-required",
            DiagnosticCode::BaseCounterWrongType => "base-counter-wrong-type",
            DiagnosticCode::PerfTimeRequired => "perf-time-required",
            DiagnosticCode::PerfFreqRequired => "perf-freq-required",
            DiagnosticCode::PerfTimeWrongType => "perf-time-wrong-type",
            DiagnosticCode::PerfFreqWrongType => "perf-freq-wrong-type",
            DiagnosticCode::MultiRequired => "multi-required",
            DiagnosticCode::MultiWrongType => "multi-wrong-type",
            DiagnosticCode::ReferenceToSelf => "reference-to-self",
            DiagnosticCode::ReferenceMissing => "reference-missing",
            DiagnosticCode::ReferenceUnused => "reference-unused",
            DiagnosticCode::AggregateFuncInvalid => "aggregate-func-invalid",
            DiagnosticCode::AggregateUndefined => "aggregate-undefined",
            DiagnosticCode::AggregateIgnored => "aggregate-ignored",
            DiagnosticCode::ReservedNonzero => "reserved-nonzero",
        }
    }
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for DiagnosticCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
