// Which rules analyse the open log, and what the next log inherits (analysis-panel.js keeps one of these,
// verdict.js says it). A PAL threshold file applies to the log it was imported on: when another log
// opens it is set aside (the built-in packs analyse that log, and the verdict says the file stayed with
// the previous one, with a way to use it there too) unless the user ticked "Keep for the next logs".
// Also, in words: the packs that produced an analysis (analysis.packs, or its rules' pack ids and this
// state), and the counters on which the built-in rules and an imported PAL file disagree (the built-in
// analysis is run beside the PAL one in the Worker). No DOM: plain data and text.
import { rulePack, pathWithoutMachine } from '../core.js';

/**
 * The packs given by the user (pack files and PAL imports) and where each stands:
 * `{ label, pack, kind: 'json'|'pal', keep, from: 'this'|'previous', off: null|'previous-log'|'built-in'|'earlier' }`;
 * `off` is why a PAL import is set aside (not in the analysis): another log opened, the user chose the
 * built-in rules, or both longer ago.
 */
export function createPackScope() {
  const entries = [];
  const pal = () => entries.filter((e) => e.kind === 'pal' && !e.off);
  return {
    entries,
    /** The entries in the analysis. */
    active: () => entries.filter((e) => !e.off),
    /** The PAL imports in the analysis. */
    pal,
    /** The PAL import set aside on this log, that the verdict offers again: the latest. */
    aside: () => entries.findLast((e) => e.kind === 'pal' && (e.off === 'previous-log' || e.off === 'built-in')) ?? null,
    /** Whether the PAL imports in play go on to the next log. */
    kept: () => pal().some((e) => e.keep),
    add(entry) {
      // A new PAL import takes the place of those set aside (the verdict offers one way back, not a list).
      if (entry.kind === 'pal') for (let k = entries.length - 1; k >= 0; k--) if (entries[k].kind === 'pal' && entries[k].off) entries.splice(k, 1);
      entries.push({ keep: false, from: 'this', off: null, ...entry });
    },
    remove(k) { entries.splice(k, 1); },
    /** "Use the built-in rules": the PAL imports set aside on this log. */
    useBuiltin() { for (const e of pal()) e.off = 'built-in'; },
    /** "Use it here": the PAL import set aside (or entry `k`) back in the analysis of this log. */
    reapply(k) {
      const e = k === undefined ? this.aside() : entries[k];
      if (!e) return false;
      e.off = null;
      e.from = 'this';
      return true;
    },
    /** "Keep for the next logs", ticked or not. */
    keep(on) { for (const e of pal()) e.keep = on; },
    /** Another log is open: kept PAL imports (and pack files) go on to it, the others are set aside. */
    nextLog() {
      for (const e of entries) {
        if (e.off) e.off = 'earlier';
        else if (e.kind === 'pal' && !e.keep) e.off = 'previous-log';
        else e.from = 'previous';
      }
    },
  };
}

/** The packs of an analysis, in order: `analysis.packs` when the core gives it, otherwise the pack ids of
 *  its rules (`builtins`: rulePacks(), for their titles). */
export function packsOf(analysis, builtins = []) {
  if (Array.isArray(analysis?.packs)) return analysis.packs;
  const ids = [...new Set((analysis?.rules ?? []).map((r) => r.pack))];
  return ids.map((id) => {
    const b = builtins.find((p) => p.id === id);
    return { id, title: b?.title ?? id, source: b?.source ?? '', builtin: Boolean(b) };
  });
}

/** "A, B and C". */
export function listed(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** An entry of the scope by its file(s): "PAL file QuickSystemOverview.xml", "pack file mine.json". */
export function fileName(e) {
  return e.kind === 'pal' ? `PAL file${e.label.includes(', ') ? 's' : ''} ${e.label}` : `pack file ${e.label}`;
}

/** An entry of the scope in play: "PAL file QuickSystemOverview.xml (imported for this log)". */
export function entryName(e) {
  const when = e.from === 'previous' ? 'kept from the previous log' : e.kind === 'pal' ? 'imported for this log' : 'added for this log';
  return `${fileName(e)} (${when})`;
}

/**
 * What produced `analysis`, for the verdict: `{ files, builtin, other, text }`: the user's files in play
 * (scope entries), the built-in packs' titles, other packs' titles, and the sentence "Analysed with the
 * built-in rules (System overview, SQL Server)" / "Analysed with PAL file X (imported for this log)".
 */
export function describePacks(analysis, scope, builtins = []) {
  const packs = packsOf(analysis, builtins);
  const active = scope?.active() ?? [];
  const files = [];
  const builtin = [];
  const other = [];
  for (const p of packs) {
    const e = active.find((x) => x.pack?.id === p.id);
    if (e) { if (!files.includes(e)) files.push(e); } else if (p.builtin) builtin.push(p.title);
    else other.push(p.title || p.id);
  }
  const parts = [...files.map(entryName), ...(builtin.length ? [`the built-in rules (${builtin.join(', ')})`] : []), ...other];
  const text = parts.length ? `Analysed with ${listed(parts)}` : '';
  return { files, builtin, other, text };
}

const RANK = { critical: 2, warning: 1 };

/** The object and counter of a counter pattern or path (the machine left out; `instances`: it names
 *  some), or null for a wildcard object or counter. */
export function counterKey(path) {
  const p = pathWithoutMachine(String(path ?? ''));
  const cut = p.lastIndexOf('\\');
  if (!p.startsWith('\\') || cut <= 0) return null;
  const objectPart = p.slice(1, cut);
  const counter = p.slice(cut + 1);
  const object = objectPart.replace(/\(.*\)$/, '');
  if (!object || !counter || counter.includes('*') || object.includes('*')) return null;
  return { object, counter, instances: objectPart !== object };
}
/** A finding's counter in English (the series' English names when the log is localized). */
function findingKey(f, info) {
  const s = info?.[f.seriesIndex];
  if (s && s.path === f.path) return { object: s.englishObject ?? s.object, counter: s.englishCounter ?? s.counter, instances: s.instance !== undefined };
  return counterKey(f.path);
}
const keyText = (k) => `\\${k.object}${k.instances ? '(*)' : ''}\\${k.counter}`;
const keyId = (k) => `${k.object}\\${k.counter}`.toLowerCase();

/**
 * The counters on which two analyses of one log disagree: `pal` (the analysis with the imported packs
 * `palIds`) and `builtin` (the built-in packs' run beside it: its `findings` and `rules`). Only counters
 * both sides have a rule that ran on are compared; they disagree when one raises a card and the other
 * does not, or their worst severities differ. `counterOf(pack, rule)` gives a rule's counter pattern.
 * @returns {{ counter: string, pal: string|null, builtin: string|null }[]}  the biggest differences first
 */
export function disagreements(pal, builtin, { info, palIds, counterOf }) {
  if (!pal || !builtin) return [];
  const covered = (rules, keep) => {
    const ids = new Map();
    for (const r of rules ?? []) {
      if (r.skipped || !r.series || !keep(r.pack)) continue;
      const k = counterKey(counterOf(r.pack, r.rule));
      if (k) ids.set(keyId(k), k);
    }
    return ids;
  };
  const worst = (findings, keep) => {
    const out = new Map();
    for (const f of findings ?? []) {
      if (!keep(f.pack)) continue;
      const k = findingKey(f, info);
      if (!k) continue;
      const id = keyId(k);
      if ((RANK[f.severity] ?? 0) > (RANK[out.get(id)] ?? 0)) out.set(id, f.severity);
    }
    return out;
  };
  const isPal = (p) => palIds.includes(p);
  const palCovered = covered(pal.rules, isPal);
  const builtinCovered = covered(builtin.rules, (p) => !isPal(p));
  const palWorst = worst(pal.findings, isPal);
  const builtinWorst = worst(builtin.findings, (p) => !isPal(p));
  const out = [];
  for (const [id, k] of palCovered) {
    if (!builtinCovered.has(id)) continue;
    const a = palWorst.get(id) ?? null;
    const b = builtinWorst.get(id) ?? null;
    if (a !== b) out.push({ counter: keyText(k), pal: a, builtin: b, gap: Math.abs((RANK[a] ?? 0) - (RANK[b] ?? 0)) });
  }
  return out.sort((x, y) => y.gap - x.gap).map(({ gap, ...d }) => d);
}

/** The verdict's one line on disagreements: at most three counters named, then why the two differ. */
export function disagreementText(list) {
  if (!list.length) return '';
  const said = (s) => s ?? 'no card';
  const named = list.slice(0, 3).map((d) => `${d.counter} (PAL: ${said(d.pal)}, built-in: ${said(d.builtin)})`);
  const which = list.length > 3 ? `${named.join(', ')} and ${list.length - 3} more` : listed(named);
  return `The built-in rules differ on ${list.length === 1 ? 'one counter' : `${list.length} counters`}: ${which}. ` +
    "PAL's file judges each time slice by its worst sample (a single spike counts); the built-in rules need an episode: mostly past the threshold for the rule's window.";
}

/**
 * The verdict's line on the rules (verdict.js draws it): what produced `analysis` (the rules in play while
 * it runs, when null), whether a PAL import is in play (with its way back) and whether it is kept, or the
 * PAL import set aside on this log (with a way to use it here).
 * @returns {{ text: string, pal: boolean, kept: boolean, aside: string|null, asideWhy?: string }}
 */
export function rulesLine(scope, analysis, builtins) {
  const pal = scope.pal().length > 0;
  const aside = pal ? null : scope.aside();
  const text = analysis ? describePacks(analysis, scope, builtins).text : pal ? `With ${listed(scope.active().map(entryName))}` : '';
  return { text, pal, kept: scope.kept(), aside: aside && fileName(aside), asideWhy: aside?.off };
}

/** Built-in packs whole (rulePack), for their rules' counters; read once each. */
const builtinPacks = new Map();

/** The counter pattern of rule `rule` of pack `pack`: a pack of the scope's (a file, a PAL import) or a
 *  built-in one; null when neither has it. */
export function ruleCounter(scope, pack, rule) {
  const own = scope.entries.find((e) => e.pack?.id === pack)?.pack;
  if (!own && !builtinPacks.has(pack)) {
    let whole = null;
    try { whole = rulePack(pack); } catch { /* not a built-in pack */ }
    builtinPacks.set(pack, whole);
  }
  return (own ?? builtinPacks.get(pack))?.rules?.find((r) => r.id === rule)?.counter ?? null;
}

/** Where the built-in rules (`builtin`: their run beside the analysis) judge otherwise than the PAL
 *  import in play, in one line; '' when they agree or no PAL import is in play. */
export function disagreeLine(scope, analysis, builtin, info) {
  const pal = scope.pal();
  if (!builtin || !pal.length) return '';
  const palIds = pal.map((e) => e.pack.id);
  const counterOf = (pack, rule) => ruleCounter(scope, pack, rule);
  return disagreementText(disagreements(analysis, builtin, { info, palIds, counterOf }));
}
