// tests/vectors/words.json through the built package: the same cases crate/tests/words.rs checks in Rust,
// so what the viewer reads (formatDuration) is what the core writes in cards, messages and the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatDuration } from '../../js/node.js';

const words = JSON.parse(readFileSync(new URL('../vectors/words.json', import.meta.url), 'utf8'));

test('durations read as the vectors say', () => {
  assert.ok(words.durations.length >= 10);
  for (const c of words.durations) {
    assert.equal(formatDuration(c.ms ?? NaN), c.text, JSON.stringify(c));
  }
});
