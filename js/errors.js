// The errors counterlens throws, as Error subclasses so callers can write `e instanceof CaptureError`.
// The wasm module creates each error and gives it the prototype of the class registered here at start
// (js/node.js, js/browser.js). Each carries a stable `code` and where the input was wrong: `field` for
// arguments, `line`/`column` or `offset` for capture bytes. An error thrown in a Worker crosses to the page
// as plain data (errorToData) and is an instance of its class again there (errorFromData).

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

/** The fields that say what was wrong and where, kept when an error crosses from a Worker: `field` (an
 *  argument), `line`/`column`/`offset` (capture bytes), `pointer` (a pack's JSON), `variable`, `file` (PAL). */
const ERROR_FIELDS = ['code', 'field', 'pointer', 'line', 'column', 'offset', 'variable', 'file'];

/** An error (or anything thrown) as plain data a Worker can post: its name, message and the fields it has.
 *  postMessage copies an Error's name and message only, so every Worker path sends this instead. */
export function errorToData(e) {
  const data = { name: e?.name ?? 'Error', message: e?.message ?? String(e) };
  for (const k of ERROR_FIELDS) if (e?.[k] !== undefined && e[k] !== null) data[k] = e[k];
  return data;
}

/** errorToData's result as an error again: an instance of the package's class it names (Error otherwise),
 *  with the same message and fields, so the page's code sees what the core threw. */
export function errorFromData(data) {
  const Class = Object.hasOwn(errorClasses, data?.name) ? errorClasses[data.name] : Error;
  const e = new Class(data?.message ?? String(data));
  if (Class === Error && data?.name && data.name !== 'Error') e.name = data.name;
  for (const k of ERROR_FIELDS) if (data?.[k] !== undefined && data[k] !== null) e[k] = data[k];
  return e;
}
