// The package's module graph (js/**/*.js): no import cycle; Node's entry and the Workers load no module
// of the viewer (which builds DOM); the viewer reaches the wasm through the core (js/core.js), never
// through an entry. Read from the sources, so a new file or import is checked without listing it here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../../js/', import.meta.url));

/** Every .js file under js/, as a path relative to js/ ("viewer/index.js"). */
function files(dir = js) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name))
    : d.name.endsWith('.js') ? [relative(js, join(dir, d.name)).split('\\').join('/')] : []));
}

/** The relative specifiers a module loads when it runs: static `import`/`export ... from` declarations
 *  (one or several lines) and `import('...')` outside comments. Bare names (node:fs) are not files. */
export function importsOf(source) {
  const specs = [];
  for (const m of source.matchAll(/^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const line of source.split('\n')) {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    for (const m of line.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  }
  return specs.filter((s) => s.startsWith('.'));
}

/** module -> the modules of js/ it imports; imports leaving js/ (pkg/) are kept as written ("../pkg/..."). */
const graph = new Map(files().map((f) => [f, importsOf(readFileSync(join(js, f), 'utf8'))
  .map((s) => posix.normalize(posix.join(posix.dirname(f), s)))]));

/** Everything `from` loads, directly or not (itself included). */
function closure(from) {
  const seen = new Set();
  const visit = (f) => { if (seen.has(f)) return; seen.add(f); for (const g of graph.get(f) ?? []) visit(g); };
  visit(from);
  return seen;
}

/** The first import cycle found (a path that comes back to its start), or null. */
function findCycle() {
  const state = new Map(); // module -> 'open' while on the path, 'done' after
  const path = [];
  const visit = (f) => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of graph.get(f) ?? []) {
      const c = visit(g);
      if (c) return c;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of graph.keys()) {
    const c = visit(f);
    if (c) return c;
  }
  return null;
}

test('the reader of imports sees each form the package uses', () => {
  const src = [
    "import init, { a } from '../core.js';",
    "import {\n  b,\n  c,\n} from './two.js';",
    "export { d } from './three.js';",
    "export * from './four.js';",
    "import './five.js';",
    "const m = await import('./six.js');",
    " * @param {import('./in-a-comment.js').T} t",
    "import { readFileSync } from 'node:fs';",
    "const u = new URL('./worker.js', import.meta.url);",
  ].join('\n');
  assert.deepEqual(importsOf(src), ['../core.js', './two.js', './three.js', './four.js', './five.js', './six.js']);
});

test('the graph is read from the files (each entry, the core and the viewer are in it)', () => {
  for (const f of ['api.js', 'browser.js', 'node.js', 'core.js', 'viewer.js', 'viewer/index.js', 'viewer/worker.js', 'parallel-worker.js']) {
    assert.ok(graph.has(f), f);
  }
  assert.ok(graph.get('api.js').includes('core.js') && graph.get('api.js').includes('viewer.js'));
  // Every import of a file in js/ names a file that exists.
  for (const [f, deps] of graph) for (const d of deps) if (!d.startsWith('../')) assert.ok(graph.has(d), `${f} imports ${d}, not a file of js/`);
});

test('no import cycle in js/', () => {
  const cycle = findCycle();
  assert.equal(cycle, null, `import cycle: ${cycle?.join(' -> ')}`);
});

test('the cycle finder finds a cycle when there is one', () => {
  graph.set('a-test.js', ['b-test.js']);
  graph.set('b-test.js', ['a-test.js']);
  try {
    assert.deepEqual(findCycle(), ['a-test.js', 'b-test.js', 'a-test.js']);
  } finally {
    graph.delete('a-test.js');
    graph.delete('b-test.js');
  }
});

test("Node's entry and the Workers load no module of the viewer", () => {
  for (const from of ['node.js', 'core.js', 'viewer/worker.js', 'parallel-worker.js']) {
    const viewer = [...closure(from)].filter((f) => f.startsWith('viewer/') && f !== from);
    assert.deepEqual(viewer, [], `${from} loads ${viewer.join(', ')}`);
    for (const entry of ['api.js', 'browser.js', 'node.js', 'viewer.js']) {
      if (entry !== from) assert.ok(!closure(from).has(entry), `${from} loads the entry ${entry}`);
    }
  }
});

test('the viewer reaches the wasm through the core, never through an entry nor the glue directly', () => {
  for (const [f, deps] of graph) {
    if (!f.startsWith('viewer/')) continue;
    for (const d of deps) {
      assert.ok(!['api.js', 'browser.js', 'node.js', 'viewer.js'].includes(d), `${f} imports the entry ${d}`);
      assert.ok(!d.startsWith('../pkg/'), `${f} imports the wasm glue ${d}: the viewer imports core.js`);
    }
  }
});

test("the Node entry's names: the core's, with mountViewer and defineViewerElement that need a browser", async () => {
  const node = await import('../../js/node.js');
  const core = await import('../../js/core.js');
  const names = (m) => Object.keys(m).filter((k) => k !== 'default').sort();
  assert.deepEqual(names(node), [...names(core), 'defineViewerElement', 'mountViewer'].sort());
  assert.throws(() => node.mountViewer({}), (e) => e instanceof TypeError && /needs a browser page/.test(e.message));
  assert.throws(() => node.defineViewerElement(), (e) => e instanceof TypeError && /needs a browser page/.test(e.message));
  // The subpath holds the viewer itself (its modules load in Node; building one needs a page).
  const viewer = await import('counterlens/viewer');
  assert.deepEqual(Object.keys(viewer).sort(), ['defineViewerElement', 'mountViewer']);
  assert.throws(() => viewer.mountViewer({}), (e) => e instanceof TypeError && /needs a browser page/.test(e.message));
});
