// Two builds of the package's wasm side by side on bench/analysis.mjs's capture (3.5 M values): `analyze`
// with every built-in pack, and with the derived-series pack too, the builds' runs interleaved (A, B, A,
// B, ...) so that a busy machine slows both alike. Each argument is a wasm-bindgen --target web build
// (counterlens.js + counterlens_bg.wasm), e.g. main's pkg/ built elsewhere and this branch's pkg/.
//   node bench/analysis-ab.mjs /tmp/base/pkg pkg [rounds] [--semantics-changed]
// The builds must find the same things (a change for speed only), unless --semantics-changed says the
// change is meant to find other things (then each build's findings and cards are counted beside its time).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analysisParts, derivedPack } from './analysis-data.mjs';

const changed = process.argv.includes('--semantics-changed');
const [dirA, dirB, roundsArg] = process.argv.slice(2).filter((a) => a !== '--semantics-changed');
if (!dirA || !dirB) {
  console.error('usage: node bench/analysis-ab.mjs <build A dir> <build B dir> [rounds]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 15);

async function load(dir) {
  const glue = await import(pathToFileURL(resolve(dir, 'counterlens.js')).href);
  glue.initSync({ module: readFileSync(resolve(dir, 'counterlens_bg.wasm')) });
  return glue;
}
const builds = { A: await load(dirA), B: await load(dirB) };
const parts = analysisParts(builds.A);
const jobs = [];
for (const [name, b] of Object.entries(builds)) {
  const capture = b.Capture.fromParts(parts);
  const packs = [...b.rulePacks().map((p) => p.id), derivedPack];
  jobs.push({ name: `${name} every built-in pack`, fn: () => b.analyze(capture) });
  jobs.push({ name: `${name} + derived series`, fn: () => b.analyze(capture, { packs }) });
}
for (const j of jobs) { j.fn(); j.fn(); j.times = []; }
for (let r = 0; r < rounds; r++) {
  for (const j of jobs) {
    const t = performance.now();
    j.out = j.fn();
    j.times.push(performance.now() - t);
  }
}
// The same findings from both builds (the change is for speed only).
const strip = (a) => JSON.stringify(a.findings.map((f) => [f.pack, f.rule, f.seriesIndex, f.start, f.end, f.worst, f.message]));
if (!changed && strip(jobs[0].out) !== strip(jobs[2].out)) throw new Error('the builds found different things (every built-in pack)');
if (!changed && strip(jobs[1].out) !== strip(jobs[3].out)) throw new Error('the builds found different things (derived series)');
for (const j of jobs) {
  j.times.sort((x, y) => x - y);
  console.log(`${j.name.padEnd(28)} median ${j.times[rounds >> 1].toFixed(1).padStart(6)} ms, fastest ${j.times[0].toFixed(1).padStart(6)} ms (${j.out.findings.length} findings, ${j.out.groups?.length ?? 0} cards)`);
}
