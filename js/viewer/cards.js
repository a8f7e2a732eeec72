// Finding cards: one per rule and time range (analyze's `groups`: a rule's findings whose ranges overlap,
// on any series), worst first. Each card: severity, when (date and time in the log's zone, duration), the
// series (named as the legend names it: with the machine when the log has several, the English name beside
// a localized one; a derived series by its path), the worst value and the threshold in the counter's
// unit, the rule's description (why it matters, what to check next) and its references as links, the
// answers its threshold rests on (a default marked as an answer to confirm), the instances one click
// away, and Show (the chart in context). Everything from the file or a pack is written with textContent;
// a reference becomes a link only when it is http(s).
import { el } from './dom.js';
import { formatInUnit } from '../core.js';
import { clockTime, dateTime, duration } from './verdict.js';
import { displayName } from './legend.js';

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
  return multi ? f.path : f.path.replace(/^\\\\[^\\]+/, '');
}

/** Where the series are, in words: the name of one, "11 of 20 series" of several. */
function where(analysis, g, info) {
  const f = analysis.findings[g.worst];
  if (g.series === 1) return seriesName(analysis, f, info);
  const of = runOf(analysis, g)?.series;
  return `${g.series}${of ? ` of ${of}` : ''} series`;
}

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

/** The links of a rule's references: http(s) only; anything else stays text. */
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

/**
 * Renders the cards of `analysis` into `list`.
 * @param {HTMLElement} list
 * @param {object} analysis
 * @param {{ info: object[], offset: number, zoneName: string }} ctx
 */
export function renderCards(list, analysis, ctx) {
  list.replaceChildren(...analysis.groups.map((g, k) => {
    const f = analysis.findings[g.worst];
    const run = runOf(analysis, g);
    const s = ctx.info[f.seriesIndex];
    const trend = Boolean(run?.trend);
    // No document ids: two viewers in one page must not collide.
    const card = el('article', null, { class: `card ${g.severity}`, 'data-part': 'card', 'data-group': String(k), 'aria-label': `${g.severity}: ${run?.title || f.title}` });
    const head = el('header');
    head.append(el('span', g.severity === 'critical' ? 'Critical' : 'Warning', { class: `badge ${g.severity}` }), ' ',
      el('h4', run?.title || f.title));
    card.append(head);
    const facts = el('dl', null, { class: 'card-facts' });
    const fact = (k2, v, part) => { facts.append(el('dt', k2), el('dd', v, part ? { 'data-part': part } : {})); };
    fact('When', `${dateTime(g.start, ctx.offset)} – ${clockTime(g.end, ctx.offset, dateTime(g.start, ctx.offset).slice(0, 10) !== dateTime(g.end, ctx.offset).slice(0, 10))} ${ctx.zoneName} (${duration(g.end - g.start)})`, 'card-when');
    fact('Where', where(analysis, g, ctx.info), 'card-where');
    fact('Worst', `${inUnit(s, f.worst, trend)} (${f.broke.includes('trend') ? 'trend' : f.broke.at(-1) ?? ''}${g.series > 1 ? ` on ${seriesName(analysis, f, ctx.info)}` : ''})`, 'card-worst');
    fact('Threshold', `${OPERATOR[f.operator] ?? f.operator} ${inUnit(s, f.threshold, trend)}`, 'card-threshold');
    card.append(facts);
    if (run?.description?.length) card.append(description(run.description));
    if (run?.references?.length) card.append(references(run.references));
    if (f.variables?.length) {
      const answers = el('p', 'Rests on: ', { class: 'card-answers', 'data-part': 'card-answers' });
      f.variables.forEach((v, j) => {
        if (j) answers.append(', ');
        const item = el('span', `${v.name} = ${v.value} (${ORIGIN[v.origin] ?? v.origin})`, { class: v.origin === 'pack' ? 'answer default' : 'answer', 'data-origin': v.origin });
        answers.append(item);
        if (v.origin === 'pack') answers.append(' ', el('button', 'Answer', { type: 'button', 'data-answer': v.name, class: 'card-answer' }));
      });
      card.append(answers);
    }
    const actions = el('p', null, { class: 'card-actions' });
    actions.append(el('button', 'Show in context', { type: 'button', 'data-show': String(k), class: 'card-show', 'data-part': 'card-show' }));
    card.append(actions);
    if (g.findings.length > 1) {
      const all = el('details', null, { class: 'card-list' });
      all.append(el('summary', `All ${g.findings.length} findings on ${g.series} series`));
      const ul = el('ul');
      for (const i of g.findings) {
        const x = analysis.findings[i];
        ul.append(el('li', `${seriesName(analysis, x, ctx.info)}: ${clockTime(x.start, ctx.offset)} – ${clockTime(x.end, ctx.offset)}, ${x.broke.at(-1) ?? ''} ${inUnit(ctx.info[x.seriesIndex], x.worst, trend)}`));
      }
      all.append(ul);
      card.append(all);
    }
    return card;
  }));
}
