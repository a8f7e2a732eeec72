// The verdict evaluation's synthetic logs held to the goals (issue #36, point 7): on every synthetic log of
// tests/vectors/verdict/labels.json (made by bench/verdict-corpus.mjs, trouble known by construction),
// every labelled episode is found, by exactly one card, no card is false, and the worst episode's card
// comes first. The matching rule is bench/verdict-eval.mjs's (see its top). The real logs are a benchmark
// only (npm run eval:verdict), not asserted here. Also checks the corpus itself: well-formed labels and a
// deterministic generator writing relog's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'counterlens';
import { evaluateLog, loadLabels, pathPattern } from '../../bench/verdict-eval.mjs';
import { syntheticCsv, utcMs } from '../../bench/verdict-corpus.mjs';

const logs = loadLabels();
const synthetic = logs.filter((l) => l.source === 'synthetic');

test('the labels are well-formed: one worst episode where there are episodes, ranges inside synthetic logs', () => {
  assert.ok(synthetic.length >= 14);
  assert.equal(new Set(logs.map((l) => l.id)).size, logs.length, 'ids are unique');
  for (const log of logs) {
    assert.ok(Array.isArray(log.episodes), log.id);
    if (log.episodes.length) assert.equal(log.episodes.filter((e) => e.worst).length, 1, `${log.id}: one worst episode`);
    else assert.equal(typeof log.calm, 'string', `${log.id}: a calm log says why`);
    for (const e of log.episodes) {
      assert.equal(typeof e.arithmetic, 'string', `${log.id}: the arithmetic beside the label`);
      for (const c of [e.counter].flat()) pathPattern(c);
      assert.ok(utcMs(e.from) < utcMs(e.to), `${log.id}: ${e.from} < ${e.to}`);
      if (log.spec) assert.ok(utcMs(e.from) >= utcMs(log.spec.start) && utcMs(e.to) <= utcMs(log.spec.end) + 1000, `${log.id}: inside the log`);
    }
    if (log.source === 'real') assert.match(log.file, /^\.\.\/shared\/data\/real\//);
  }
});

test('the matcher: Perfmon wildcards, machine optional, instances as the rules match them', () => {
  const cpu = pathPattern('\\Processor(*)\\% Processor Time');
  assert.ok(cpu('\\\\APP01\\Processor(_Total)\\% Processor Time'));
  assert.ok(cpu('\\\\app01\\processor(3)\\% processor time'));
  assert.ok(!cpu('\\\\APP01\\Processor(3)\\% Privileged Time'));
  assert.ok(pathPattern('\\Processor(_Total)\\% Processor Time')('\\\\X\\Processor(_Total)\\% Processor Time'));
  assert.ok(!pathPattern('\\Processor(_Total)\\% Processor Time')('\\\\X\\Processor(0)\\% Processor Time'));
  assert.ok(pathPattern('\\Memory\\*')('\\\\X\\Memory\\Available MBytes'));
  assert.ok(!pathPattern('\\Memory\\*')('\\\\X\\Memory(0)\\Available MBytes'), 'no parentheses: only paths without an instance');
  assert.ok(pathPattern('\\Paging File(*)\\% Usage')('\\\\X\\Paging File(\\??\\C:\\pagefile.sys)\\% Usage'));
  assert.ok(pathPattern('\\\\APP0?\\System\\*')('\\\\APP01\\System\\Processor Queue Length'));
  assert.ok(!pathPattern('\\\\DB01\\System\\*')('\\\\APP01\\System\\Processor Queue Length'));
});

test('the generator is deterministic and writes relog-shaped PDH-CSV the package reads', () => {
  const log = synthetic.find((l) => l.id === 'cpu-92-dips-60s');
  const bytes = syntheticCsv(log.spec);
  assert.ok(bytes.equals(syntheticCsv(log.spec)), 'the same spec gives the same bytes');
  const text = bytes.toString('latin1');
  assert.ok(text.startsWith('"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\APP01\\Memory\\Available MBytes"'));
  assert.match(text, /\r\n"11\/23\/2026 06:01:00\.4\d\d","\d+","\d+\.\d{15,}"/);
  const capture = api.openCapture(new Uint8Array(bytes));
  try {
    // 4 processors: (_Total + 4) x 2 + queue + memory 3 + disk 2 + network 2 + paging 1 = 19 series.
    assert.equal(capture.seriesCount, 19);
    assert.equal(capture.sampleCount, 7 * 60 + 1);
    assert.equal(capture.timeZone.biasMinutes, 0);
  } finally {
    capture.free();
  }
});

for (const log of synthetic) {
  test(`goal on ${log.id}: every episode found by one card, no false card, the worst first`, () => {
    const r = evaluateLog(api, log);
    const got = {
      found: r.found,
      cardsPerEpisode: r.episodes.map((e) => e.cards),
      falseCards: r.falseCards,
      worstRank: r.worstRank,
    };
    const want = {
      found: log.episodes.length,
      cardsPerEpisode: log.episodes.map(() => 1),
      falseCards: 0,
      worstRank: log.episodes.length ? 1 : undefined,
    };
    const cards = r.cardList.map((c) => `${c.rank}. ${c.severity} ${c.rule} ${c.from}..${c.to} -> ${c.matches.length ? `episode ${c.matches}` : 'FALSE'}`);
    assert.deepEqual(got, want, `cards:\n${cards.join('\n') || '(none)'}`);
  });
}
