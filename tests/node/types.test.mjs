// The TypeScript contract compiles for a strict user: tests/types/usage.ts exercises every export through
// the package's name, and two @ts-expect-error lines prove the types reject what the contract forbids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('js/index.d.ts type-checks a strict usage of every export', () => {
  try {
    execFileSync(process.execPath, [root + 'node_modules/typescript/bin/tsc', '-p', root + 'tests/types'], { encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc reported:\n${e.stdout}${e.stderr}`);
  }
});
