// No function of the viewer (js/viewer/*.js) is longer than MAX_LINES lines: a handler that grows past it
// is a concern of its own (a module of js/viewer/). The files are parsed with acorn (a devDependency), so
// every kind of function counts: declarations, expressions, arrows, methods, getters; a function's lines
// run from its first line to its last, nested functions included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const MAX_LINES = 150;
const viewer = fileURLToPath(new URL('../../js/viewer/', import.meta.url));

/** Every function in `source`: `{ name, line, lines }`, named by its declaration, the variable, property
 *  or method it is assigned to, or `(anonymous)`. */
export function functionsOf(source, file = 'source') {
  const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true, sourceFile: file });
  const found = [];
  const nameOf = (node, parent) => {
    if (node.id?.name) return node.id.name;
    if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
    if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') && parent.value === node) {
      return parent.key.name ?? String(parent.key.value);
    }
    if (parent?.type === 'AssignmentExpression' && parent.right === node) return source.slice(parent.left.start, parent.left.end);
    return '(anonymous)';
  };
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (/Function/.test(node.type)) {
      found.push({ name: nameOf(node, parent), line: node.loc.start.line, lines: node.loc.end.line - node.loc.start.line + 1 });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc') continue;
      if (Array.isArray(value)) for (const v of value) visit(v, node);
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(ast, null);
  return found;
}

test('the reader finds each kind of function with its name and length', () => {
  const src = [
    'export function a() {', // 1
    '  const b = () => 1;', // 2
    '  const o = { c() {', // 3
    '    return 2;', // 4
    '  }, d: function () {} };', // 5: c is lines 3-5 (3 lines)
    '}', // 6: a is lines 1-6 (6 lines)
    'class K { m() {} }',
    'x.y = async function () {};',
  ].join('\n');
  const got = functionsOf(src).map((f) => `${f.name}:${f.line}:${f.lines}`);
  assert.deepEqual(got, ['a:1:6', 'b:2:1', 'c:3:3', 'd:5:1', 'm:7:1', 'x.y:8:1']);
});

test(`no function in js/viewer/ is longer than ${MAX_LINES} lines`, () => {
  const files = readdirSync(viewer).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes('index.js') && files.length > 10, 'the viewer\'s modules are read');
  const long = [];
  for (const f of files) {
    for (const fn of functionsOf(readFileSync(join(viewer, f), 'utf8'), f)) {
      if (fn.lines > MAX_LINES) long.push(`js/viewer/${f}:${fn.line} ${fn.name}: ${fn.lines} lines`);
    }
  }
  assert.deepEqual(long, [], `functions over ${MAX_LINES} lines (split them by concern):\n${long.join('\n')}`);
});
