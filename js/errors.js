// The errors counterlens throws, as Error subclasses so callers can write `e instanceof CaptureError`.
// The wasm module creates each error and gives it the prototype of the class registered here at start
// (js/node.js, js/browser.js). Each carries a stable `code` and where the input was wrong: `field` for
// arguments, `line`/`column` or `offset` for capture bytes.

/** A counter type, raw value or option the calculation cannot take. */
export class CounterTypeError extends Error {}
CounterTypeError.prototype.name = 'CounterTypeError';

/** An argument of the wrong kind to validateRegistration (never bad registration data: that is a report). */
export class RegistrationError extends Error {}
RegistrationError.prototype.name = 'RegistrationError';

/** A capture the readers cannot read: what was expected, and where. */
export class CaptureError extends Error {}
CaptureError.prototype.name = 'CaptureError';

/** A rule pack, threshold, variable or PAL file the analysis cannot take: what was expected, and where
 *  (`pointer`/`line`/`column` in a pack, `variable`, `file`/`line`/`column` in PAL XML). */
export class AnalysisError extends Error {}
AnalysisError.prototype.name = 'AnalysisError';

export const errorClasses = { CounterTypeError, RegistrationError, CaptureError, AnalysisError };
