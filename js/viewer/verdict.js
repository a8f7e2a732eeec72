// The verdict: the first thing the viewer shows of an analysis, at the top of the page. Counts by
// severity and category, the worst findings first (each one Show away from its chart), the log's
// machine(s), time range with its date, and interval; while the analysis runs, that it runs; on a log no
// rule could run on, that it was not analysed (never a clean-looking result); an error as an error.
// Everything from the file or a pack is written with textContent.
import { el } from './dom.js';

/** `2026-07-04 00:30` (seconds when not zero) of ms since the epoch, `offset` minutes east of UTC, to the
 *  nearest second as the core writes times in findings' messages (a slice edge at 00:29:59.5 is 00:30 in
 *  both; 23:59:59.5 is the next day's 00:00). */
export function dateTime(ms, offset) {
  const s = new Date(Math.round((ms + offset * 60_000) / 1000) * 1000).toISOString();
  return s.slice(0, 10) + ' ' + (s.slice(17, 19) === '00' ? s.slice(11, 16) : s.slice(11, 19));
}

/** `00:30` or `00:30:15`; with the date when `withDate`. */
export function clockTime(ms, offset, withDate = false) {
  const t = dateTime(ms, offset);
  return withDate ? t : t.slice(11);
}

/** A duration in words: `2 h 05 min`, `45 min`, `1 min 30 s`, `15 s`. */
export function duration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s >= 86_400) return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  if (s >= 60) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  return `${s} s`;
}

/** The log's machines, time range (with date) and interval, in one line. */
export function logLine(log, offset, zoneName) {
  const parts = [];
  parts.push(log.machines.length ? (log.machines.length === 1 ? log.machines[0] : `${log.machines.length} machines: ${log.machines.join(', ')}`) : 'machine not named in the log');
  if (log.os) parts.push(log.os);
  if (log.first !== undefined && log.last !== undefined) {
    const sameDay = dateTime(log.first, offset).slice(0, 10) === dateTime(log.last, offset).slice(0, 10);
    parts.push(`${dateTime(log.first, offset)} – ${sameDay ? clockTime(log.last, offset) : dateTime(log.last, offset)} ${zoneName} (${duration(log.last - log.first)})`);
  }
  if (log.intervalMs !== undefined) parts.push(`every ${duration(log.intervalMs)}`);
  parts.push(`${log.samples.toLocaleString('en-US')} samples of ${log.series.toLocaleString('en-US')} series`);
  return parts.join(' · ');
}

/** The objects of a log, for "no rule applies to these counters: ...": the most common first. */
function objectsOf(info, max = 6) {
  const counts = new Map();
  for (const s of info) counts.set(s.object, (counts.get(s.object) ?? 0) + 1);
  const names = [...counts].sort((a, b) => b[1] - a[1]).map(([o]) => o);
  return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more objects` : names.join(', ');
}

/**
 * @param {HTMLElement} root  the verdict region (layout.js part "verdict")
 * @param {{ show(group: number): void, cards(): void }} hooks  Show a card's findings in context; go to the cards
 */
export function createVerdict(root, hooks) {
  root.setAttribute('aria-live', 'polite');
  root.hidden = true;
  const on = (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.group !== undefined) hooks.show(Number(b.dataset.group));
    else if (b.dataset.action === 'cards') hooks.cards();
  };
  root.addEventListener('click', on);

  function set(state, ...children) {
    root.hidden = false;
    root.dataset.state = state;
    root.replaceChildren(...children);
  }

  return {
    running(text) {
      set('running', el('p', text, { class: 'verdict-head', 'data-part': 'verdict-head' }));
    },
    error(text) {
      set('error', el('p', `The analysis failed: ${text}`, { class: 'verdict-head', 'data-part': 'verdict-head' }));
    },
    clear() {
      root.hidden = true;
      root.replaceChildren();
      delete root.dataset.state;
    },
    /**
     * @param {object} analysis  analyze()'s result
     * @param {{ info: object[], offset: number, zoneName: string, sentence(g): string, took: number }} ctx
     */
    show(analysis, ctx) {
      const { findings, groups, rules, log } = analysis;
      const ran = rules.filter((r) => !r.skipped);
      const line = el('p', logLine(log, ctx.offset, ctx.zoneName), { class: 'verdict-log muted', 'data-part': 'verdict-log' });
      if (!ran.length) {
        const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
        head.append(el('strong', 'Not analysed.'), ` No built-in rule applies to these counters: ${objectsOf(ctx.info)}. This is not a clean result: nothing was checked. Add a pack of your own or PAL threshold files below.`);
        set('none', head, line);
        return;
      }
      if (!findings.length) {
        const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
        const packs = new Set(ran.map((r) => r.pack)).size;
        head.append(el('strong', 'No rule broke.'), ` ${ran.length} rule${ran.length === 1 ? '' : 's'} of ${packs} pack${packs === 1 ? '' : 's'} ran on this log; ${rules.length - ran.length} could not run (their counters are not in it).`);
        set('clean', head, line);
        return;
      }
      const crit = findings.filter((f) => f.severity === 'critical').length;
      const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
      const counts = el('span', null, { class: 'verdict-counts' });
      if (crit) counts.append(el('span', `${crit} critical`, { class: 'badge critical' }), ' ');
      if (findings.length - crit) counts.append(el('span', `${findings.length - crit} warning`, { class: 'badge warning' }), ' ');
      head.append(counts, el('span', `${findings.length} finding${findings.length === 1 ? '' : 's'} in ${groups.length} card${groups.length === 1 ? '' : 's'}`));
      const cats = new Map();
      for (const f of findings) {
        const c = f.category || 'Other';
        const n = cats.get(c) ?? { critical: 0, warning: 0 };
        n[f.severity]++;
        cats.set(c, n);
      }
      const catLine = el('p', null, { class: 'verdict-categories', 'data-part': 'verdict-categories' });
      for (const [c, n] of [...cats].sort((a, b) => b[1].critical - a[1].critical || b[1].warning - a[1].warning)) {
        catLine.append(el('span', `${c}: ${[n.critical && `${n.critical} critical`, n.warning && `${n.warning} warning`].filter(Boolean).join(', ')}`, { class: 'chip' }), ' ');
      }
      const worst = el('ol', null, { class: 'verdict-worst', 'data-part': 'verdict-worst' });
      for (const [k, g] of groups.slice(0, 3).entries()) {
        const li = el('li', null, { class: g.severity });
        li.append(el('span', ctx.sentence(g)), ' ', el('button', 'Show', { type: 'button', 'data-group': String(k), class: 'verdict-show', title: 'Chart these series around this time, with the thresholds' }));
        worst.append(li);
      }
      const more = el('p', null, { class: 'verdict-more' });
      more.append(el('button', groups.length > 3 ? `All ${groups.length} cards, with why each matters and what to check` : 'The cards, with why each matters and what to check', { type: 'button', 'data-action': 'cards' }));
      set(crit ? 'critical' : 'warning', head, catLine, worst, more, line);
    },
  };
}
