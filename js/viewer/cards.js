// Finding cards: one per episode of trouble (analyze's `groups`), in the order the core gives them (ranked
// by impact). Each card: severity, its concern (category) and scope (the machine, or one processor or
// process) when the core says, when (date and time in the log's zone, duration), the series (the
// machine-level lead series first, named as the legend names it: with the machine when the log has
// several, the English name beside a localized one; a derived series by its path), the episode (how much
// of it was past the threshold, its mean) when the core measured it, the worst value and the
// threshold(s) in the counter's unit, the rule's description (why it matters, what to check next) and its
// references as links, the answers its threshold rests on (a default marked as an answer to confirm),
// its findings one click away (by rule when it holds several), and Show (the chart in context). A card
// "worse than its normal" (pack "baseline": the log judged against its machine's normal) is marked as
// such and names the normal it was judged against.
// Everything from the file or a pack is written with textContent; a reference becomes a link only when
// it is http(s).
import { el } from './dom.js';
import { formatInUnit, counterTemplate, pathWithoutMachine } from '../core.js';
import { download } from './export.js';
import { clockTime, dateTime, duration } from './verdict.js';
import { displayName } from './legend.js';
import { counterKey } from './pack-scope.js';

/** The rule run (analysis.rules) of a group or finding. */
export const runOf = (analysis, x) => analysis.rules.find((r) => r.pack === x.pack && r.rule === x.rule);

/** A value of series `s` (state.info) as its unit writes it: 97.3%, 1.6 GB, 25 ms, 3 MB/s; per hour for a
 *  trend. */
export function inUnit(s, v, trend = false) {
  if (!Number.isFinite(v)) return String(v);
  const text = formatInUnit(v * (s?.multiplier ?? 1), s?.unit ?? 'count');
  return trend ? `${text}/h` : text;
}

const OPERATOR = { gt: 'above', ge: 'at or above', lt: 'below', le: 'at or below', eq: 'equal to', ne: 'not equal to' };
const ORIGIN = { user: 'answered', capture: 'from the log', pack: "the pack's default: an answer to confirm" };

/** How a card names finding `f`'s series: as the legend does (`displayName`: the machine first when the log
 *  has several, the English name beside a localized one); a derived series (not in `info`) by its path, the
 *  machine left out when the log has one. */
export function seriesName(analysis, f, info) {
  const multi = (analysis.log?.machines?.length ?? 0) > 1;
  const s = info?.[f.seriesIndex];
  if (s && s.path === f.path) return displayName(s, multi);
  return multi ? f.path : pathWithoutMachine(f.path);
}

/** What a card's instances are called: "processors", "processes", "disks", "adapters", or "series". */
export function instanceNoun(object, n = 2) {
  const o = String(object ?? '').toLowerCase();
  const [one, many] = o === 'processor' || o === 'processor information' ? ['processor', 'processors']
    : o === 'process' ? ['process', 'processes']
      : o === 'logicaldisk' || o === 'physicaldisk' ? ['disk', 'disks']
        : o === 'network interface' || o === 'network adapter' ? ['adapter', 'adapters']
          : ['series', 'series'];
  return n === 1 ? one : many;
}

/** The English object and counter of finding `f`'s series (its path's, for a derived series). */
function objectOf(f, info) {
  const s = info?.[f.seriesIndex];
  if (s && s.path === f.path) return { object: s.englishObject ?? s.object, counter: s.englishCounter ?? s.counter };
  const m = /\\([^\\(]+)(?:\(.*\))?\\([^\\]+)$/.exec(f.path ?? '');
  return m ? { object: m[1], counter: m[2] } : { object: '', counter: '' };
}

/** The distinct series of a card, each as its first finding, in the card's order. */
function seriesOfCard(analysis, g) {
  const seen = new Set();
  return g.findings.map((i) => analysis.findings[i]).filter((f) => f && !seen.has(f.seriesIndex) && seen.add(f.seriesIndex));
}

/**
 * Where a card's series are, in words: the lead series first when the core names one
 * ("Processor(_Total)\% Processor Time and 7 of 8 processors"); otherwise the name of one, "11 of 20
 * series" of several.
 */
export function where(analysis, g, info) {
  const lead = Number.isInteger(g.lead) ? analysis.findings[g.lead] : null;
  if (lead) {
    const others = seriesOfCard(analysis, g).filter((f) => f.seriesIndex !== lead.seriesIndex);
    const name = seriesName(analysis, lead, info);
    if (!others.length) return name;
    const mine = objectOf(lead, info);
    const same = others.every((f) => { const o = objectOf(f, info); return o.object === mine.object && o.counter === mine.counter; });
    if (!same) return `${name} and ${others.length} other series`;
    // The rule ran on the lead (an instance such as _Total) and the instances: "of" counts the instances.
    const ran = runOf(analysis, others[0])?.series;
    const of = ran ? ran - 1 : 0;
    return `${name} and ${others.length}${of >= others.length ? ` of ${of}` : ''} ${instanceNoun(mine.object, of >= others.length ? of : others.length)}`;
  }
  const f = analysis.findings[g.worst];
  if (g.series === 1) return seriesName(analysis, f, info);
  const of = runOf(analysis, g)?.series;
  return `${g.series}${of ? ` of ${of}` : ''} series`;
}

/** A card's concern and scope: "Processor · the whole machine", "Process · one process", with the machine
 *  when the log has several (the category is its worst finding's when the core gives the card none). */
export function concern(analysis, g, info) {
  const parts = [];
  const category = g.category || analysis.findings[g.worst]?.category;
  if (category) parts.push(category);
  if ((analysis.log?.machines?.length ?? 0) > 1 && g.machine) parts.push(g.machine);
  if (g.scope === 'machine') parts.push('the whole machine');
  else if (g.scope === 'instance') {
    const lead = analysis.findings[Number.isInteger(g.lead) ? g.lead : g.worst];
    const noun = instanceNoun(lead ? objectOf(lead, info).object : '', 1);
    parts.push(`one ${noun === 'series' ? 'instance' : noun}`);
  }
  return parts.length ? parts.join(' · ') : null;
}

/** A share 0..1 as a whole percentage: "88%". */
const percent = (x) => `${Math.round(x * 100)}%`;

/** The episode on the lead series, when the core measured it: "88% of the time above 80%, mean 87%". */
export function episode(analysis, g, info) {
  const lead = analysis.findings[Number.isInteger(g.lead) ? g.lead : g.worst];
  if (!lead || (!Number.isFinite(g.share) && !Number.isFinite(g.mean))) return null;
  const s = info?.[lead.seriesIndex];
  const parts = [];
  if (Number.isFinite(g.share)) parts.push(`${percent(g.share)} of the time ${OPERATOR[lead.operator] ?? lead.operator} ${inUnit(s, lead.threshold)}`);
  if (Number.isFinite(g.mean)) parts.push(`mean ${inUnit(s, g.mean)}`);
  return parts.join(', ');
}

/**
 * The thresholds Show in context draws for card `g`, as the analysis evaluated them: on the worst
 * finding's counter (in English), one per severity: its own rule's first, then a rule with findings in
 * the card, then its rules' group partners (the warning beside a critical), a rule over every instance
 * before one over a single instance. None for a trend rule (its threshold is a slope).
 * `counterOf(pack, rule)` gives a rule's counter pattern.
 */
export function cardThresholds(analysis, g, info, counterOf) {
  const worst = analysis.findings[g.worst];
  const me = runOf(analysis, g);
  if (!worst || !me || me.trend) return [];
  const id = (x) => `${x.pack}\u0000${x.rule}`;
  const english = (o) => o && `${o.object}\\${o.counter}`.toLowerCase();
  const want = english(objectOf(worst, info));
  const found = new Map();
  for (const i of [g.worst, ...g.findings]) if (!found.has(id(analysis.findings[i]))) found.set(id(analysis.findings[i]), analysis.findings[i]);
  const groups = new Set([...found.values()].map((f) => runOf(analysis, f)?.group).filter(Boolean));
  const chosen = new Map();
  analysis.rules
    .filter((r) => r.pack === g.pack && !r.trend && !r.skipped && Number.isFinite(r.threshold) && (found.has(id(r)) || (r.group && groups.has(r.group))))
    .map((r) => {
      const f = found.get(id(r));
      const pattern = f ? null : counterOf?.(r.pack, r.rule);
      const rank = r.rule === worst.rule ? 0 : f ? 1 : /\(\*\)/.test(pattern ?? '') ? 2 : 3;
      return { r, f, rank, on: f ? english(objectOf(f, info)) : english(counterKey(pattern)) };
    })
    .filter((c) => c.on === want)
    .sort((a, b) => a.rank - b.rank)
    .forEach((c) => { if (!chosen.has(c.r.severity)) chosen.set(c.r.severity, c); });
  return [...chosen.values()].map(({ r, f }) => ({ severity: r.severity, operator: r.operator ?? (f ?? worst).operator, value: r.threshold }));
}

/** How long a card lasted: the episode's duration when the core gives it, its range's otherwise. */
const lasted = (g) => (Number.isFinite(g.durationMs) ? g.durationMs : g.end - g.start);

/**
 * A card in one sentence: "Critical: Processor busy more than 95% of the time on 4 of 4 series,
 * 2026-07-04 00:28 – 01:00, worst 97% (above 95%)".
 */
export function sentence(analysis, g, ctx) {
  const f = analysis.findings[g.worst];
  const run = runOf(analysis, g);
  const s = ctx.info[f.seriesIndex];
  const trend = Boolean(run?.trend);
  return `${g.severity === 'critical' ? 'Critical' : 'Warning'}: ${run?.title || f.title} on ${where(analysis, g, ctx.info)}, ` +
    `${dateTime(g.start, ctx.offset)} – ${clockTime(g.end, ctx.offset)}, worst ${inUnit(s, f.worst, trend)} (${OPERATOR[f.operator] ?? f.operator} ${inUnit(s, f.threshold, trend)})`;
}

/**
 * A card as the verdict lists it: the core's summary when it gives one, `sentence` otherwise. The summary
 * gets its start ("Critical: Processor busy more than 80% of the time: above 80% for 2 h 49 min, ...,
 * from 2026-07-04 00:30") unless it says its times itself; then its date only when the log spans days,
 * both in the log's clock, whose zone is named when the page shows times in another (`ctx.storyZone`).
 */
export function headline(analysis, g, ctx) {
  if (!g.summary) return sentence(analysis, g, ctx);
  const machine = (analysis.log?.machines?.length ?? 0) > 1 && g.machine ? ` on ${g.machine}` : '';
  const text = g.summary.replace(/\.$/, '');
  const severity = g.severity === 'critical' ? 'Critical' : 'Warning';
  if (!/\b\d{1,2}:\d\d\b/.test(text)) return `${severity}${machine}: ${text}, from ${dateTime(g.start, ctx.offset)}`;
  // The summary's times are the log's clock: its date too, and the zone named where the page shows another.
  const off = ctx.storyZone ? ctx.logOffset : ctx.offset;
  const { first, last } = analysis.log ?? {};
  const days = Number.isFinite(first) && Number.isFinite(last) && dateTime(first, off).slice(0, 10) !== dateTime(last, off).slice(0, 10);
  return `${severity}${machine}${days ? ` (${dateTime(g.start, off).slice(0, 10)})` : ''}: ${text}${ctx.storyZone ? ` (${ctx.storyZone})` : ''}`;
}

/** A link's element when it goes to an http(s) address; its text otherwise. */
function link(href, text) {
  let url = null;
  try { url = new URL(href); } catch { /* not a URL: text */ }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) {
    return el('a', text || href, { href: url.href, target: '_blank', rel: 'noopener noreferrer' });
  }
  return document.createTextNode(text || href);
}

/**
 * A rule's description (the pack format's `Text`): a string as one paragraph, or PAL's blocks
 * (`{ paragraph: inline[] }`, `{ list: inline[][] }`, inline = string | { strong } | { link, text }) as
 * elements, every text as text.
 */
export function description(text) {
  const box = el('div', null, { class: 'card-description', 'data-part': 'card-description' });
  if (typeof text === 'string') { box.append(el('p', text)); return box; }
  const inline = (parent, items) => {
    for (const item of items ?? []) {
      if (typeof item === 'string') parent.append(item);
      else if (item && typeof item.strong === 'string') parent.append(el('strong', item.strong));
      else if (item && typeof item.link === 'string') parent.append(link(item.link, item.text));
    }
  };
  for (const block of Array.isArray(text) ? text : []) {
    if (block?.paragraph) { const p = el('p'); inline(p, block.paragraph); box.append(p); }
    else if (block?.list) {
      const ul = el('ul');
      for (const items of block.list) { const li = el('li'); inline(li, items); ul.append(li); }
      box.append(ul);
    }
  }
  return box;
}

function references(list) {
  const p = el('p', 'References: ', { class: 'card-references', 'data-part': 'card-references' });
  list.forEach((r, k) => {
    if (k) p.append('; ');
    let url = null;
    try { url = new URL(r.url); } catch { /* not a URL: text */ }
    if (url && (url.protocol === 'https:' || url.protocol === 'http:')) p.append(el('a', r.title || r.url, { href: url.href, target: '_blank', rel: 'noopener noreferrer' }));
    else p.append(`${r.title} (${r.url})`);
  });
  return p;
}

/** The card's rules (pack and rule) in the order their findings come, each with its findings. */
function rulesOfCard(analysis, g) {
  const by = new Map();
  for (const i of g.findings) {
    const f = analysis.findings[i];
    const key = `${f.pack}\u0000${f.rule}`;
    if (!by.has(key)) by.set(key, { pack: f.pack, rule: f.rule, first: f, findings: [] });
    by.get(key).findings.push(i);
  }
  return [...by.values()];
}

/** The threshold(s) in words: the worst finding's; with the card's other rules on the same counter (a
 *  warning and a critical of one episode), each with its severity. */
function thresholdText(analysis, g, info, trend) {
  const f = analysis.findings[g.worst];
  const s = info[f.seriesIndex];
  const mine = objectOf(f, info);
  const rules = rulesOfCard(analysis, g).filter((r) => { const o = objectOf(r.first, info); return o.object === mine.object && o.counter === mine.counter; });
  if (rules.length < 2) return `${OPERATOR[f.operator] ?? f.operator} ${inUnit(s, f.threshold, trend)}`;
  return rules.map((r) => `${OPERATOR[r.first.operator] ?? r.first.operator} ${inUnit(s, r.first.threshold, trend)} (${r.first.severity})`).join(', ');
}

/** When, where, the episode, worst and threshold. */
function facts(analysis, g, ctx, trend) {
  const f = analysis.findings[g.worst];
  const s = ctx.info[f.seriesIndex];
  const dl = el('dl', null, { class: 'card-facts' });
  const fact = (k, v, part) => { dl.append(el('dt', k), el('dd', v, part ? { 'data-part': part } : {})); };
  const otherDay = dateTime(g.start, ctx.offset).slice(0, 10) !== dateTime(g.end, ctx.offset).slice(0, 10);
  fact('When', `${dateTime(g.start, ctx.offset)} – ${clockTime(g.end, ctx.offset, otherDay)} ${ctx.zoneName} (${duration(lasted(g))})`, 'card-when');
  fact('Where', where(analysis, g, ctx.info), 'card-where');
  const ep = episode(analysis, g, ctx.info);
  if (ep) fact('Episode', ep, 'card-episode');
  fact('Worst', `${inUnit(s, f.worst, trend)} (${f.broke.includes('trend') ? 'trend' : f.broke.at(-1) ?? ''}${g.series > 1 ? ` on ${seriesName(analysis, f, ctx.info)}` : ''})`, 'card-worst');
  fact('Threshold', thresholdText(analysis, g, ctx.info, trend), 'card-threshold');
  if (g.pack === NORMAL_PACK && ctx.normal) fact('Its normal', ctx.normal, 'card-normal-of');
  if (g.contributors?.length) fact(BY[g.contributors[0].kind] ?? 'By process', contributorsText(g, ctx.info), 'card-contributors');
  else if (g.missing) {
    const dd = el('span', `not in this log: ${g.missing} would name it. `);
    const take = el('button', 'Counters to collect', { type: 'button', class: 'card-template', 'data-part': 'card-template',
      title: 'A counter list for logman create counter -cf: what the rules read and what names the cause' });
    take.addEventListener('click', () => downloadTemplate(analysis));
    const cause = el('dd', null, { 'data-part': 'card-missing' });
    cause.append(dd, take);
    dl.append(el('dt', 'Cause'), cause);
  }
  return dl;
}

const BY = { process: 'By process', processor: 'By processor', adapter: 'By adapter' };

/** The counter list of the built-in packs this analysis ran (all of them when it ran none), for
 *  `logman create counter NAME -cf counters.txt`. */
function downloadTemplate(analysis) {
  const packs = (analysis.packs ?? []).filter((p) => p.builtin).map((p) => p.id);
  const text = counterTemplate(packs.length ? { packs } : {});
  download(new Blob([text], { type: 'text/plain' }), 'counterlens-counters.txt');
}

/** A card's processes as its facts name them: "sqlservr 72% of the machine, w3wp 10%" (processor time,
 *  a share of the machine's capacity) or "sqlservr 11 GB (92%)" (private bytes or I/O, a share of all
 *  processes'), in the core's order, largest first. */
export function contributorsText(g, info) {
  return g.contributors.map((c, k) => {
    const s = info?.[c.seriesIndex];
    const share = `${Math.round(c.share * 100)}%`;
    return s?.unit === 'percent'
      ? `${c.name} ${share}${k === 0 ? ' of the machine' : ''}`
      : `${c.name} ${inUnit(s, c.value)} (${share})`;
  }).join(', ');
}

/** The answers the card's thresholds rest on (the worst finding's first), a default with a button to its
 *  question. */
function answersOf(analysis, g) {
  const seen = new Map();
  for (const i of [g.worst, ...g.findings]) for (const v of analysis.findings[i].variables ?? []) if (!seen.has(v.name)) seen.set(v.name, v);
  if (!seen.size) return null;
  const answers = el('p', 'Rests on: ', { class: 'card-answers', 'data-part': 'card-answers' });
  [...seen.values()].forEach((v, j) => {
    if (j) answers.append(', ');
    const said = v.origin === 'bound' ? `${v.name} = at least ${v.value} (from the log)` : `${v.name} = ${v.value} (${ORIGIN[v.origin] ?? v.origin})`;
    answers.append(el('span', said, { class: v.origin === 'pack' ? 'answer default' : 'answer', 'data-origin': v.origin }));
    if (v.origin === 'pack') answers.append(' ', el('button', 'Answer', { type: 'button', 'data-answer': v.name, class: 'card-answer' }));
  });
  return answers;
}

/** Every finding of the card, one click away; by rule when the card holds several. */
function findingsList(analysis, g, ctx, trend) {
  const rules = rulesOfCard(analysis, g);
  const all = el('details', null, { class: 'card-list', 'data-part': 'card-list' });
  all.append(el('summary', `All ${g.findings.length} findings on ${g.series} series${rules.length > 1 ? `, by rule (${rules.length})` : ''}`));
  for (const r of rules) {
    if (rules.length > 1) {
      const title = runOf(analysis, r)?.title || r.first.title;
      all.append(el('p', `${title} (${r.first.severity}): ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`, { class: 'card-list-rule', 'data-part': 'card-list-rule' }));
    }
    const ul = el('ul');
    for (const i of r.findings) {
      const x = analysis.findings[i];
      ul.append(el('li', `${seriesName(analysis, x, ctx.info)}: ${clockTime(x.start, ctx.offset)} – ${clockTime(x.end, ctx.offset)}, ${x.broke.at(-1) ?? ''} ${inUnit(ctx.info[x.seriesIndex], x.worst, trend)}`));
    }
    all.append(ul);
  }
  return all;
}

/** The pack of the cards "worse than its normal" (the core's `baseline::PACK_ID`). */
export const NORMAL_PACK = 'baseline';

/** Card `k` of the analysis. */
function card(analysis, g, k, ctx) {
  const f = analysis.findings[g.worst];
  const run = runOf(analysis, g);
  const trend = Boolean(run?.trend);
  // No document ids: two viewers in one page must not collide.
  const normal = g.pack === NORMAL_PACK;
  const box = el('article', null, { class: `card ${g.severity}${normal ? ' from-normal' : ''}`, 'data-part': 'card', 'data-group': String(k), 'data-pack': g.pack ?? '',
    'aria-label': `${g.severity}${normal ? ', worse than its normal' : ''}: ${run?.title || f.title}` });
  const head = el('header');
  head.append(el('span', g.severity === 'critical' ? 'Critical' : 'Warning', { class: `badge ${g.severity}` }), ' ');
  if (normal) head.append(el('span', 'Worse than its normal', { class: 'chip card-normal', 'data-part': 'card-normal' }), ' ');
  head.append(el('h4', run?.title || f.title));
  const about = concern(analysis, g, ctx.info);
  if (about) head.append(el('span', about, { class: 'card-concern muted', 'data-part': 'card-concern' }));
  box.append(head, facts(analysis, g, ctx, trend));
  if (run?.description?.length) box.append(description(run.description));
  if (run?.references?.length) box.append(references(run.references));
  const answers = answersOf(analysis, g);
  if (answers) box.append(answers);
  const actions = el('p', null, { class: 'card-actions' });
  actions.append(el('button', 'Show in context', { type: 'button', 'data-show': String(k), class: 'card-show', 'data-part': 'card-show' }));
  box.append(actions);
  if (g.findings.length > 1) box.append(findingsList(analysis, g, ctx, trend));
  return box;
}

/**
 * Renders the cards of `analysis` into `list`, in the order the core gives them.
 * @param {HTMLElement} list
 * @param {object} analysis
 * @param {{ info: object[], offset: number, zoneName: string }} ctx
 */
export function renderCards(list, analysis, ctx) {
  list.replaceChildren(...analysis.groups.map((g, k) => card(analysis, g, k, ctx)));
}
