// The verdict: the first thing the viewer shows of an analysis, at the top of the page. The cards counted
// by severity and category, the rules that produced it (the built-in packs, or a PAL file imported for
// this log, with the way back and the choice to keep it for the next logs), the first three cards in the
// core's order (each one Show away from its chart), where the built-in rules judge otherwise than an
// imported PAL file, on a log of several machines which are in trouble (ranked) and how many are calm,
// the log's machine(s), time range with its date, and interval; while the analysis
// runs, that it runs; on a log no rule could run on, that it was not analysed (never a clean-looking
// result); an error as an error. Everything from the file or a pack is written with textContent.
import { el } from './dom.js';
import { formatDuration, formatClock } from '../core.js';

/** `2026-07-04 00:30` (seconds when not zero) of ms since the epoch, `offset` minutes east of UTC: the
 *  core's clock text (`formatClock`), as findings' messages and the report write times. */
export const dateTime = (ms, offset) => formatClock(ms, offset, true);

/** `00:30` or `00:30:15`; with the date when `withDate` (`formatClock`). */
export const clockTime = (ms, offset, withDate = false) => formatClock(ms, offset, withDate);

/** A duration in the core's words (`formatDuration`: `82 s`, `20 min`, `3 h 45 min`, `2 d 3 h`), so the
 *  verdict, the cards and the report say the same; `?` for what is not a duration. */
export function duration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  return formatDuration(ms);
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

/** "2 critical and 1 warning cards", with the severities as badges; the findings' count after it. */
function countsHead(groups, findings) {
  const crit = groups.filter((g) => g.severity === 'critical').length;
  const warn = groups.length - crit;
  const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
  const counts = el('span', null, { class: 'verdict-counts', 'data-part': 'verdict-counts' });
  if (crit) counts.append(el('span', `${crit} critical`, { class: 'badge critical' }));
  if (crit && warn) counts.append(' and ');
  if (warn) counts.append(el('span', `${warn} warning`, { class: 'badge warning' }));
  counts.append(` card${groups.length === 1 ? '' : 's'}`);
  head.append(counts, ' ', el('span', `(${findings.length} finding${findings.length === 1 ? '' : 's'})`, { class: 'muted' }));
  return head;
}

/** On a log of several machines, which are in trouble (a card on them), in the cards' rank order, and the
 *  rest as a count: "3 of 26 machines in trouble: WEB05, DB01, WEB02; 23 calm". Null on one machine. */
export function machinesInTrouble(groups, machines) {
  if (!(machines?.length > 1)) return null;
  const known = new Map(machines.map((m) => [m.toLowerCase(), m]));
  const trouble = [...new Set(groups.map((g) => known.get(g.machine?.toLowerCase() ?? '')).filter(Boolean))];
  const calm = machines.length - trouble.length;
  const named = trouble.length ? `: ${trouble.join(', ')}` : '';
  return `${trouble.length} of ${machines.length} machines in trouble${named}; ${calm} calm`;
}

/** The cards by category ("Processor: 1 critical, 1 warning"): the card's own category, or its worst
 *  finding's. */
function categoriesLine(groups, findings) {
  const cats = new Map();
  for (const g of groups) {
    const c = g.category || findings[g.worst]?.category || 'Other';
    const n = cats.get(c) ?? { critical: 0, warning: 0 };
    n[g.severity === 'critical' ? 'critical' : 'warning']++;
    cats.set(c, n);
  }
  const line = el('p', null, { class: 'verdict-categories', 'data-part': 'verdict-categories' });
  for (const [c, n] of [...cats].sort((a, b) => b[1].critical - a[1].critical || b[1].warning - a[1].warning)) {
    line.append(el('span', `${c}: ${[n.critical && `${n.critical} critical`, n.warning && `${n.warning} warning`].filter(Boolean).join(', ')}`, { class: 'chip' }), ' ');
  }
  return line;
}

/**
 * The line naming the rules that produced the analysis. With a PAL import in play it is a chip with the
 * way back ("Use the built-in rules") and the choice to keep the file for the next logs; with a PAL
 * import set aside on this log, a way to use it here.
 * @param {{ text: string, pal: boolean, kept: boolean, aside: string|null, asideWhy?: string }|undefined} rules
 */
function rulesLine(rules) {
  if (!rules?.text && !rules?.aside) return null;
  const line = el('p', null, { class: 'verdict-packs', 'data-part': 'verdict-packs' });
  if (rules.pal) {
    const chip = el('span', null, { class: 'chip verdict-pal', 'data-part': 'verdict-pal', role: 'group', 'aria-label': 'Rules of this analysis' });
    const keep = el('input', null, { type: 'checkbox', 'data-action': 'keep', 'data-part': 'verdict-keep' });
    keep.checked = rules.kept;
    const keepLabel = el('label', null, { class: 'verdict-keep' });
    keepLabel.append(keep, ' Keep for the next logs');
    chip.append(el('span', rules.text, { 'data-part': 'verdict-pal-text' }), ' ',
      el('button', 'Use the built-in rules', { type: 'button', 'data-action': 'builtin', 'data-part': 'verdict-builtin', title: 'Set the PAL file aside and analyse this log with the built-in rules' }), ' ', keepLabel);
    line.append(chip);
    return line;
  }
  if (rules.text) line.append(el('span', `${rules.text}.`, { 'data-part': 'verdict-packs-text' }));
  if (rules.aside) {
    const said = rules.asideWhy === 'built-in' ? `${rules.aside} set aside.` : `${rules.aside} stayed with the previous log.`;
    line.append(' ', el('span', said, { class: 'muted', 'data-part': 'verdict-aside' }), ' ',
      el('button', rules.asideWhy === 'built-in' ? 'Use it again' : 'Use it for this log', { type: 'button', 'data-action': 'reapply', 'data-part': 'verdict-reapply', title: `Analyse this log with ${rules.aside}` }));
  }
  return line;
}

/**
 * @param {HTMLElement} root  the verdict region (layout.js part "verdict")
 * @param {{ show(group: number): void, cards(): void, useBuiltin?(): void, reapply?(): void, keep?(on: boolean): void }} hooks
 *        Show a card's findings in context; go to the cards; set the PAL import aside; use it again; keep
 *        it for the next logs
 */
export function createVerdict(root, hooks) {
  root.setAttribute('aria-live', 'polite');
  root.hidden = true;
  // The button the next verdict puts the focus on, when the one pressed went with the old verdict.
  let focusNext = null;
  const on = (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.group !== undefined) hooks.show(Number(b.dataset.group));
    else if (b.dataset.action === 'cards') hooks.cards();
    else if (b.dataset.action === 'builtin') { focusNext = 'verdict-reapply'; hooks.useBuiltin?.(); }
    else if (b.dataset.action === 'reapply') { focusNext = 'verdict-builtin'; hooks.reapply?.(); }
  };
  const changed = (e) => { if (e.target.dataset?.action === 'keep') hooks.keep?.(e.target.checked); };
  root.addEventListener('click', on);
  root.addEventListener('change', changed);

  function set(state, ...children) {
    root.hidden = false;
    root.dataset.state = state;
    const hadFocus = root.contains(document.activeElement);
    root.replaceChildren(...children.filter(Boolean));
    if (state === 'running' || !focusNext) return;
    const target = root.querySelector(`[data-part="${focusNext}"]`);
    if (target && (hadFocus || document.activeElement === document.body)) target.focus();
    focusNext = null;
  }

  return {
    /** @param {object} [rules]  the rules line (see rulesLine), so its way back stays while it runs */
    running(text, rules) {
      set('running', el('p', text, { class: 'verdict-head', 'data-part': 'verdict-head' }), rules?.pal ? rulesLine(rules) : null);
    },
    error(text, rules) {
      set('error', el('p', `The analysis failed: ${text}`, { class: 'verdict-head', 'data-part': 'verdict-head' }), rules?.pal ? rulesLine(rules) : null);
    },
    clear() {
      root.hidden = true;
      root.replaceChildren();
      delete root.dataset.state;
    },
    /**
     * @param {object} analysis  analyze()'s result
     * @param {{ info: object[], offset: number, zoneName: string, storyZone?: string|null, sentence(g): string,
     *           took: number, rules?: object, disagree?: string }} ctx
     *        `sentence`: a card in one sentence; `rules`: the rules line; `disagree`: where the built-in
     *        rules judge otherwise than an imported PAL file, in one line
     */
    show(analysis, ctx) {
      const { findings, groups, rules, log } = analysis;
      const ran = rules.filter((r) => !r.skipped);
      const line = el('p', logLine(log, ctx.offset, ctx.zoneName), { class: 'verdict-log muted', 'data-part': 'verdict-log' });
      const packs = rulesLine(ctx.rules);
      const disagree = ctx.disagree ? el('p', ctx.disagree, { class: 'verdict-disagree', 'data-part': 'verdict-disagree' }) : null;
      if (!ran.length) {
        const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
        head.append(el('strong', 'Not analysed.'), ` No ${ctx.rules?.pal ? '' : 'built-in '}rule applies to these counters: ${objectsOf(ctx.info)}. This is not a clean result: nothing was checked. Add a pack of your own or PAL threshold files below.`);
        set('none', head, packs, line);
        return;
      }
      if (!groups.length) {
        const head = el('p', null, { class: 'verdict-head', 'data-part': 'verdict-head' });
        const n = new Set(ran.map((r) => r.pack)).size;
        head.append(el('strong', 'No rule broke.'), ` ${ran.length} rule${ran.length === 1 ? '' : 's'} of ${n} pack${n === 1 ? '' : 's'} ran on this log; ${rules.length - ran.length} could not run (their counters are not in it).`);
        set('clean', head, packs, disagree, line);
        return;
      }
      // The core's story where it tells one (what, when, how badly, the likely cause, the next step: the
      // page a manager reads), else each card's sentence.
      const story = analysis.story?.lines?.length ? analysis.story : null;
      const worst = el('ol', null, { class: 'verdict-worst', 'data-part': 'verdict-worst' });
      const lines = story ? story.lines : groups.slice(0, 3).map((g, k) => ({ group: k }));
      for (const line of lines) {
        const g = groups[line.group];
        if (!g) continue;
        const li = el('li', null, { class: g.severity });
        const text = story ? `${g.severity === 'critical' ? 'Critical' : 'Warning'}: ${line.text}` : ctx.sentence(g);
        li.append(el('span', text), ' ', el('button', 'Show', { type: 'button', 'data-group': String(line.group), class: 'verdict-show', title: 'Chart these series around this time, with the thresholds' }));
        if (story && line.next) li.append(el('div', `Next: ${line.next}`, { class: 'verdict-next', 'data-part': 'verdict-next' }));
        worst.append(li);
      }

      // The story's times are the log's clock; said where the page shows another.
      const clock = story && ctx.storyZone ? el('p', `The sentences above give times in the log's zone, ${ctx.storyZone}; the rest of the page in UTC.`, { class: 'verdict-clock muted', 'data-part': 'verdict-clock' }) : null;
      const more = el('p', null, { class: 'verdict-more' });
      more.append(el('button', groups.length > 3 ? `All ${groups.length} cards, with why each matters and what to check` : 'The cards, with why each matters and what to check', { type: 'button', 'data-action': 'cards' }));
      const crit = groups.some((g) => g.severity === 'critical');
      const trouble = machinesInTrouble(groups, log.machines);
      const machines = trouble && el('p', trouble, { class: 'verdict-machines', 'data-part': 'verdict-machines' });
      set(crit ? 'critical' : 'warning', countsHead(groups, findings), machines, packs, categoriesLine(groups, findings), worst, clock, disagree, more, line);
    },
  };
}
