// The view in the URL hash, so a link reopens it: `#series=0,5,9&from=...&to=...`.
import { selection } from './state.js';

/** The hash of the current view (written by hand: URLSearchParams would escape the commas, and the link
 *  should stay readable). */
export function encodeView(state) {
  let hash = `series=${selection(state).join(',')}`;
  if (state.range) hash += `&from=${Math.round(state.range[0])}&to=${Math.round(state.range[1])}`;
  return hash;
}

/** The view a hash names, for a capture of `seriesCount` series; null when it names none. */
export function decodeView(hash, seriesCount) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  if (!p.has('series')) return null;
  const series = p.get('series').split(',').filter(Boolean).map(Number).filter((i) => Number.isInteger(i) && i >= 0 && i < seriesCount);
  const from = Number(p.get('from')), to = Number(p.get('to'));
  return { series, range: p.has('from') && p.has('to') && Number.isFinite(from) && Number.isFinite(to) ? [from, to] : null };
}

export function writeHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}#${hash}`);
}
