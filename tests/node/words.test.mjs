// tests/vectors/words.json through the built package and the viewer's own functions: the same cases
// crate/tests/words.rs checks in Rust, so what the viewer reads (its legend's, crosshair's and statistics'
// values, its clock text, its filter, its processor count) is what the core writes in cards, messages,
// the report and the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  formatDuration, formatInUnit, formatClock, pathMachine, pathWithoutMachine, PathMatcher, openCapture,
} from '../../js/node.js';
import { formatSeriesValue } from '../../js/viewer/state.js';
import { dateTime, clockTime } from '../../js/viewer/verdict.js';
import { pathFilter, seriesFilter } from '../../js/viewer/series-tree.js';
import { counterKey } from '../../js/viewer/compare.js';

const words = JSON.parse(readFileSync(new URL('../vectors/words.json', import.meta.url), 'utf8'));

test('durations read as the vectors say', () => {
  assert.ok(words.durations.length >= 10);
  for (const c of words.durations) {
    assert.equal(formatDuration(c.ms ?? NaN), c.text, JSON.stringify(c));
  }
});

test('values read as the vectors say, in the package and in the viewer', () => {
  assert.ok(words.values.length >= 20);
  for (const c of words.values) {
    const v = c.value ?? NaN;
    const m = c.multiplier ?? 1;
    assert.equal(formatInUnit(v * m, c.unit), c.text, JSON.stringify(c));
    // The legend, the crosshair's box, the statistics table and the comparison write a series' value so.
    assert.equal(formatSeriesValue({ unit: c.unit, multiplier: m, counterType: 0x10410400 }, v), c.text, JSON.stringify(c));
  }
});

test('times read as the vectors say, in the package and in the verdict', () => {
  assert.ok(words.clock.length >= 6);
  for (const c of words.clock) {
    const ms = c.ms ?? NaN;
    assert.equal(formatClock(ms, c.offsetMinutes, c.withDate), c.text, JSON.stringify(c));
    assert.equal(clockTime(ms, c.offsetMinutes, c.withDate), c.text, JSON.stringify(c));
    if (c.withDate) assert.equal(dateTime(ms, c.offsetMinutes), c.text, JSON.stringify(c));
  }
});

test("a path's machine and the path without it as the vectors say", () => {
  for (const c of words.identity) {
    assert.equal(pathMachine(c.path), c.machine, JSON.stringify(c));
    assert.equal(pathWithoutMachine(c.path), c.withoutMachine, JSON.stringify(c));
    assert.equal(counterKey(c.path), c.withoutMachine.toLowerCase(), JSON.stringify(c));
  }
});

test("the viewer's filter selects the vectors' series of a localized log, as the CLI's -c does", () => {
  const m = words.matching;
  const capture = openCapture(readFileSync(new URL(`../vectors/captures/${m.capture}`, import.meta.url)));
  const info = capture.series();
  assert.equal(info.length, 5);
  assert.ok(m.cases.some((c) => c.pattern.includes('?')) && m.cases.some((c) => c.pattern.includes('*')));
  for (const c of m.cases) {
    // The tree's filter (series-tree.js), over the series as the viewer lists them.
    assert.deepEqual(info.filter(pathFilter(c.pattern)).map((s) => s.index), c.series, JSON.stringify(c));
    assert.deepEqual(info.filter((s) => seriesFilter(c.pattern)(s.path)).map((s) => s.index), c.series, JSON.stringify(c));
    let matcher = null;
    try {
      matcher = new PathMatcher(c.pattern);
    } catch (e) {
      assert.equal(e.code, 'invalid-argument', JSON.stringify(c));
    }
    if (matcher) assert.deepEqual([...capture.matching(matcher)], c.series, JSON.stringify(c));
    else assert.deepEqual(c.series, []);
  }
});

test('processors counted as the vectors say', () => {
  for (const c of words.processors) {
    const csv = `"(PDH-CSV 4.0) (Coordinated Universal Time)(0)",${c.paths.map((p) => `"${p}"`).join(',')}\r\n`
      + `"11/22/2026 00:00:00.000",${c.paths.map(() => '"1"').join(',')}\r\n`;
    const capture = openCapture(new TextEncoder().encode(csv));
    assert.equal(capture.logicalProcessors() ?? null, c.count, JSON.stringify(c));
  }
});
