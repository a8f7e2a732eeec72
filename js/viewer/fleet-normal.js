// The fleet view's "Use each machine's other logs as its normal" (fleet.js): which logs a machine's
// opened log is judged against (its other logs in the fleet, their File handles; the analysis Worker
// reads them and learns the normal, analysis-normal.js), and what the bar over the opened log says of it.
import { period } from './analysis-normal.js';

/** The other logs of `machine` (rankFleet's) than `name`, as `[{ name, file }]` from `files` (the fleet's
 *  File handles by log name). */
export function otherLogs(machine, name, files) {
  return (machine.logs ?? []).filter((n) => n !== name && files.has(n)).map((n) => ({ name: n, file: files.get(n) }));
}

/** What the bar says while the normal is learnt: of `others` (otherLogs'), `machine`'s. */
export function learningText(machine, others) {
  // Not "judged by the rules alone": a baseline file opened in the Analysis panel may still apply, and
  // the panel's "Its normal" line says which.
  if (!others.length) return `no other log of ${machine} to learn its normal from`;
  return `judged against its normal: learning it from ${others.length} other log${others.length === 1 ? '' : 's'}…`;
}

/** What the bar says once the analysis has run: `info` is the normal learnt (`{ logs, first, last }`),
 *  `{ error }` when it could not be used, `{ replaced }` (a file's name) when a baseline file opened in
 *  the panel took its place, or null when it was removed in the panel. */
export function judgedText(info) {
  if (!info) return 'not judged against its other logs (removed in the Analysis panel)';
  if (info.replaced) return `judged against ${info.replaced} (opened in the Analysis panel), not its other logs`;
  if (info.error) return `its normal could not be used: ${info.error}`;
  const when = period(info);
  return `judged against its normal: ${info.logs} other log${info.logs === 1 ? '' : 's'}${when ? `, ${when}` : ''}`;
}
