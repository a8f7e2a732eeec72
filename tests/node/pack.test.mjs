// What users get from the registry is what we test: `npm pack`, install the tarball into a fresh
// project outside the repository, and import it there with plain Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

test('the packed tarball installs and imports outside the repository', () => {
  const dir = mkdtempSync(join(tmpdir(), 'counterlens-pack-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' });
    const [{ filename, files }] = JSON.parse(out);
    const paths = files.map((f) => f.path).sort();
    for (const need of ['js/browser.js', 'js/node.js', 'js/api.js', 'js/core.js', 'js/viewer.js', 'js/index.d.ts', 'js/viewer.d.ts', 'pkg/counterlens.js', 'pkg/counterlens_bg.wasm', 'package.json', 'README.md', 'NOTICE']) {
      assert.ok(paths.includes(need), `${need} missing from the tarball: ${paths.join(', ')}`);
    }
    assert.ok(!paths.some((p) => p.startsWith('crate/') || p.startsWith('tests/') || p.startsWith('web/')), paths.join(', '));
    const project = join(dir, 'app');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(dir, filename)], { cwd: project, encoding: 'utf8' });
    writeFileSync(join(project, 'main.mjs'), `
      import { describeCounterType, cook } from 'counterlens';
      import { mountViewer } from 'counterlens/viewer';
      const d = describeCounterType('RateOfCountsPerSecond32');
      const r = cook(d.value, { value: 1000n, second: 10000000n, frequency: 10000000n }, { value: 1500n, second: 30000000n, frequency: 10000000n });
      console.log(JSON.stringify({ name: d.name, value: r.value, viewer: typeof mountViewer }));
    `);
    const printed = execFileSync('node', ['main.mjs'], { cwd: project, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(printed), { name: 'PERF_COUNTER_COUNTER', value: 250, viewer: 'function' });
    assert.ok(readdirSync(join(project, 'node_modules', 'counterlens', 'pkg')).includes('counterlens_bg.wasm'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
