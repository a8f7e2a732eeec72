// Serves the viewer as static files: web/ at /, and the package's js/ and pkg/ beside it, with the
// page's Content-Security-Policy also sent as a header. PORT (default 8080) and HOST (default
// localhost) from the environment. Prints the URL once listening.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Content-Security-Policy of web/index.html's <meta>: the one place the policy is written. The
 *  header sends it unchanged (tests/node/csp.test.mjs checks both agree). */
function pagePolicy(html) {
  const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i);
  if (!meta) throw new Error('web/index.html has no Content-Security-Policy <meta>');
  return meta[1];
}
const csp = pagePolicy(readFileSync(root + 'web/index.html', 'utf8'));
const opts = { dev: true, etag: true };
const mounts = [
  ['/js/', sirv(root + 'js', opts)],
  ['/pkg/', sirv(root + 'pkg', opts)],
  ['/examples/', sirv(root + 'examples', opts)],
  // The docs, as text: the registration panel links each diagnostic to its rule here.
  ['/docs/', sirv(root + 'docs', { ...opts, setHeaders: (res) => res.setHeader('Content-Type', 'text/plain; charset=utf-8') })],
  ['/', sirv(root + 'web', opts)],
];

const server = http.createServer((req, res) => {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // frame-ancestors has no effect in a <meta> policy, so framing is limited by this header instead.
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  const [prefix, handler] = mounts.find(([p]) => req.url.startsWith(p));
  if (prefix !== '/') req.url = req.url.slice(prefix.length - 1);
  handler(req, res, () => { res.statusCode = 404; res.end('not found'); });
});

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? 'localhost';
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`counterlens viewer: http://${host}:${actual}/`);
});
