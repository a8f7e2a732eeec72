// The verdict evaluation (issue #36, point 7): how well the analysis' cards (`analysis.groups`) say what
// an expert sees in a log, over the labelled corpus of tests/vectors/verdict/labels.json (synthetic logs
// made by bench/verdict-corpus.mjs, files of tests/vectors/, and the labelled real logs of
// ../shared/data/real/, skipped with a line saying so where that folder is absent). A benchmark, not a
// test: it prints and exits 0 whatever the figures (1 only when a log fails to read or analyse);
// tests/node/verdict-eval.test.mjs holds the synthetic logs to the goals.
//
//   npm run eval:verdict                 a Markdown table per log and in total
//   node bench/verdict-eval.mjs --json   the same as JSON, with every card and what it matched
//   node bench/verdict-eval.mjs --cards  the table, then each log's cards (rank, rule, range, match)
//   --only ID[,ID]  these logs;  --source synthetic|vectors|real  one part;
//   --package PATH  another build's entry (default js/node.js; e.g. a copy of js/ and pkg/ to compare)
//
// Matching. A card matches a labelled episode when (1) one of its findings' series matches the episode's
// counter pattern (or one of its patterns): the series' English path (Capture.englishPath, else the path
// as written; for a derived series its own path or one of its inputs'), compared with Perfmon wildcards,
// case-insensitively, the machine optional (the rules' matcher: `(*)` matches any instance and none,
// another instance pattern only paths with a matching instance, no parentheses only paths without one),
// and (2) the card's range [start, end] overlaps the episode's [from, to] (touching counts); the label's
// local times are read in the log's zone (UTC = local + the zone's bias; a log without a zone is UTC).
// A label with `normal` (the specs of the machine's earlier logs) is analysed against the baseline built
// from them, when the package has buildBaseline.
// Per log:
//   labelled       the labelled episodes;
//   found          the labelled episodes matched by at least one card;
//   cards/episode  the mean, over the found episodes, of the number of cards matching each;
//   false cards    cards that match no labelled episode (on a calm log, every card);
//   worst rank     the 1-based position in analysis.groups of the first card matching the episode
//                  labelled worst; '-' when no card matches it; 'n/a' on a calm log.
// Total: the sums, cards/episode over every found episode, and how many logs have their worst first.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { syntheticCsv, utcMs } from './verdict-corpus.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LABELS = new URL('../tests/vectors/verdict/labels.json', import.meta.url);

/** A Perfmon wildcard path as a matcher of paths: (path) => boolean. */
export function pathPattern(pattern) {
  const p = splitPath(pattern);
  if (!p) throw new Error(`not a counter path pattern: ${pattern}`);
  const glob = (g) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  const machine = p.machine === undefined ? null : glob(p.machine);
  const object = glob(p.object), counter = glob(p.counter);
  const instance = p.instance === undefined ? undefined : p.instance === '*' ? '*' : glob(p.instance);
  return (path) => {
    const s = splitPath(path);
    if (!s || !object.test(s.object) || !counter.test(s.counter)) return false;
    if (machine && !machine.test(s.machine ?? '')) return false;
    if (instance === '*') return true;
    if (instance === undefined) return s.instance === undefined;
    return s.instance !== undefined && instance.test(s.instance);
  };
}

/** `\\machine\object(instance)\counter` (machine optional) into its parts; the instance is everything
 *  between the object's first '(' and its last ')' (it may hold '\', as a paging file's does). */
function splitPath(path) {
  let rest = path;
  let machine;
  if (rest.startsWith('\\\\')) {
    const at = rest.indexOf('\\', 2);
    if (at < 0) return null;
    machine = rest.slice(2, at);
    rest = rest.slice(at);
  }
  if (!rest.startsWith('\\')) return null;
  const last = rest.lastIndexOf('\\');
  if (last <= 0) return null;
  const counter = rest.slice(last + 1);
  let object = rest.slice(1, last);
  let instance;
  const open = object.indexOf('(');
  if (open >= 0) {
    const close = object.lastIndexOf(')');
    if (close < open) return null;
    instance = object.slice(open + 1, close);
    object = object.slice(0, open);
  }
  return { machine, object, instance, counter };
}

/** The labelled corpus. */
export function loadLabels(url = LABELS) {
  return JSON.parse(readFileSync(url, 'utf8')).logs;
}

/** One log's bytes, or { skipped } when a real log's file is absent. */
function bytesOf(log) {
  if (log.source === 'synthetic') return { bytes: syntheticCsv(log.spec) };
  const file = new URL(log.file, pathToFileURL(ROOT)).pathname;
  if (!existsSync(file)) {
    if (log.source === 'real') {
      const folder = existsSync(new URL('.', pathToFileURL(file)));
      return { skipped: `skipped ${log.id}: ${log.file} is absent${folder ? '' : ' (its folder is not on this machine)'}` };
    }
    throw new Error(`${log.id}: ${log.file} is absent`);
  }
  return { bytes: readFileSync(file) };
}

/** The machine's normal from the label's `normal` specs (its earlier logs), or null: none given, or a
 *  package without buildBaseline (an older build compared with --package). */
function normalOf(api, log) {
  if (!log.normal || typeof api.buildBaseline !== 'function') return null;
  const captures = log.normal.map((spec) => api.openCapture(new Uint8Array(syntheticCsv(spec))));
  try {
    return api.buildBaseline(captures);
  } finally {
    captures.forEach((c) => c.free());
  }
}

const fmtLocal = (ms, biasMs) => new Date(ms - biasMs).toISOString().replace('T', ' ').slice(0, 19);

/** Evaluates one labelled log with the package `api` ({ openCapture, analyze }). */
export function evaluateLog(api, log) {
  const got = bytesOf(log);
  if (got.skipped) return { id: log.id, source: log.source, skipped: got.skipped };
  const baseline = normalOf(api, log);
  const capture = api.openCapture(new Uint8Array(got.bytes), { name: log.file ?? `${log.id}.csv` });
  try {
    const analysis = api.analyze(capture, baseline ? { baseline } : {});
    const biasMs = (capture.timeZone?.biasMinutes ?? 0) * 60_000;
    const count = capture.seriesCount;
    const english = (i) => (i < count ? capture.englishPath(i) ?? capture.series()[i]?.path : undefined);
    const seriesPaths = new Map();
    const pathsOf = (f) => {
      const out = [f.path];
      if (f.seriesIndex < count) {
        if (!seriesPaths.has(f.seriesIndex)) seriesPaths.set(f.seriesIndex, capture.englishPath(f.seriesIndex));
        const e = seriesPaths.get(f.seriesIndex);
        if (e) out.push(e);
      }
      for (const input of f.derived?.inputs ?? []) out.push(input.path, english(input.seriesIndex));
      return out.filter(Boolean);
    };
    const episodes = log.episodes.map((e, i) => ({
      index: i, what: e.what, worst: !!e.worst,
      matchers: [e.counter].flat().map(pathPattern),
      from: utcMs(e.from) + biasMs, to: utcMs(e.to) + biasMs,
    }));
    const cards = analysis.groups.map((g, rank) => {
      const paths = g.findings.flatMap((fi) => pathsOf(analysis.findings[fi]));
      const matches = episodes
        .filter((e) => g.start <= e.to && g.end >= e.from && paths.some((p) => e.matchers.some((m) => m(p))))
        .map((e) => e.index);
      const w = analysis.findings[g.worst];
      return {
        rank: rank + 1, severity: g.severity, pack: g.pack, rule: g.rule, series: g.series,
        from: fmtLocal(g.start, biasMs), to: fmtLocal(g.end, biasMs), worstPath: w?.path, worstValue: w?.worst, matches,
      };
    });
    const per = episodes.map((e) => {
      const hits = cards.filter((c) => c.matches.includes(e.index));
      return { what: e.what, worst: e.worst, cards: hits.length, firstRank: hits[0]?.rank ?? null };
    });
    const found = per.filter((e) => e.cards > 0);
    const worst = per.find((e) => e.worst);
    return {
      id: log.id, source: log.source,
      intervalMs: analysis.log.intervalMs, samples: analysis.log.samples,
      labelled: per.length,
      found: found.length,
      matchingCards: found.reduce((s, e) => s + e.cards, 0),
      cardsPerEpisode: found.length ? found.reduce((s, e) => s + e.cards, 0) / found.length : null,
      falseCards: cards.filter((c) => c.matches.length === 0).length,
      cards: cards.length,
      worstRank: worst ? worst.firstRank : undefined,
      episodes: per,
      cardList: cards,
    };
  } finally {
    capture.free();
  }
}

/** Evaluates the corpus (or the logs `only` names, or one `source`); `api` is the package. */
export function evaluate(api, { logs = loadLabels(), only = null, source = null } = {}) {
  const chosen = logs.filter((l) => (!only || only.includes(l.id)) && (!source || l.source === source));
  const results = chosen.map((log) => {
    try {
      return evaluateLog(api, log);
    } catch (e) {
      throw new Error(`${log.id}: ${e.code ? `${e.code}: ` : ''}${e.message}`, { cause: e });
    }
  });
  const done = results.filter((r) => !r.skipped);
  const found = done.reduce((s, r) => s + r.found, 0);
  const withWorst = done.filter((r) => r.worstRank !== undefined);
  const total = {
    logs: done.length,
    skipped: results.length - done.length,
    labelled: done.reduce((s, r) => s + r.labelled, 0),
    found,
    cardsPerEpisode: found ? done.reduce((s, r) => s + r.matchingCards, 0) / found : null,
    falseCards: done.reduce((s, r) => s + r.falseCards, 0),
    cards: done.reduce((s, r) => s + r.cards, 0),
    worstFirst: withWorst.filter((r) => r.worstRank === 1).length,
    withWorst: withWorst.length,
  };
  return { results, total };
}

const interval = (ms) => (ms === undefined ? '' : ms < 1500 ? '1 s' : ms < 90_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);
const rankText = (r) => (r.worstRank === undefined ? 'n/a' : r.worstRank === null ? '-' : String(r.worstRank));

/** The evaluation as a Markdown table (and each log's cards with `cards`). */
export function markdown({ results, total }, { cards = false } = {}) {
  const lines = ['| log | source | interval | labelled | found | cards/episode | false cards | worst rank |', '|---|---|---|---:|---:|---:|---:|---:|'];
  for (const r of results.filter((r) => !r.skipped)) {
    lines.push(`| ${r.id} | ${r.source} | ${interval(r.intervalMs)} | ${r.labelled} | ${r.found} | ${r.cardsPerEpisode === null ? '-' : r.cardsPerEpisode.toFixed(1)} | ${r.falseCards} | ${rankText(r)} |`);
  }
  lines.push(`| **total** (${total.logs} logs) | | | ${total.labelled} | ${total.found} | ${total.cardsPerEpisode === null ? '-' : total.cardsPerEpisode.toFixed(2)} | ${total.falseCards} | first in ${total.worstFirst} of ${total.withWorst} |`);
  for (const r of results.filter((r) => r.skipped)) lines.push('', r.skipped);
  if (cards) {
    for (const r of results.filter((r) => !r.skipped)) {
      lines.push('', `### ${r.id}`, '');
      r.episodes.forEach((e, i) => lines.push(`- episode ${i}${e.worst ? ' (worst)' : ''}: ${e.what}: ${e.cards} card(s)${e.firstRank ? `, first at rank ${e.firstRank}` : ''}`));
      if (!r.cardList.length) lines.push('- no card');
      for (const c of r.cardList) {
        lines.push(`- ${c.rank}. ${c.severity} ${c.pack}/${c.rule} ${c.from} to ${c.to} (${c.series} series; worst ${c.worstPath} ${Number(c.worstValue).toPrecision(4)}): ${c.matches.length ? `episode ${c.matches.join(', ')}` : 'FALSE'}`);
      }
    }
  }
  return lines.join('\n');
}

function crateCommit() {
  try {
    const commit = execFileSync('git', ['log', '-1', '--format=%h', '--', 'crate/'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'crate/'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return `${commit}${dirty ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

async function main(argv) {
  const arg = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const entry = arg('--package') ? pathToFileURL(arg('--package')).href : new URL('../js/node.js', import.meta.url).href;
  const api = await import(entry);
  const only = arg('--only')?.split(',') ?? null;
  let out;
  try {
    out = evaluate(api, { only, source: arg('--source') ?? null });
  } catch (e) {
    console.error(`verdict-eval: ${e.message}`);
    process.exitCode = 1;
    return;
  }
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ package: fileURLToPath(entry), crate: crateCommit(), ...out }, null, 2));
  } else {
    console.log(`Verdict evaluation: ${fileURLToPath(entry)} (crate/ at ${crateCommit()} in this checkout), tests/vectors/verdict/labels.json\n`);
    console.log(markdown(out, { cards: argv.includes('--cards') }));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
