// A worker of openCaptureParallel (parallel.js), in Node's worker_threads or a browser's Worker: holds
// one piece of a text capture per job in its own wasm instance, counts the piece's line ends, reads it
// once told the line it starts at, and sends the columns back in one transferred buffer.
import init, { CapturePiece } from '../pkg/counterlens.js';
import { errorToData } from './errors.js';

const port = typeof WorkerGlobalScope !== 'undefined'
  ? { post: (m, t) => self.postMessage(m, t), listen: (f) => { self.onmessage = (e) => f(e.data); } }
  : await import('node:worker_threads').then(({ parentPort }) => ({
    post: (m, t) => parentPort.postMessage(m, t),
    listen: (f) => parentPort.on('message', f),
  }));

let ready = null;
const pieces = new Map(); // job id -> CapturePiece

port.listen(async (m) => {
  if (m.op === 'init') {
    // Node passes the page's compiled module (no fetch of file: URLs); a browser fetches the wasm file.
    ready = m.module ? init({ module_or_path: m.module }) : init();
    return;
  }
  await ready;
  const { id } = m;
  try {
    if (m.op === 'load') {
      // A Blob (a File's slice) is read here, off the page's thread; bytes come transferred.
      const body = m.body instanceof Uint8Array ? m.body : new Uint8Array(await m.body.arrayBuffer());
      const piece = new CapturePiece(m.header, body, m.plan, m.last);
      pieces.set(id, piece);
      port.post({ id, lineEnds: piece.lineEnds() }, []);
    } else if (m.op === 'read') {
      const piece = pieces.get(id);
      pieces.delete(id);
      try {
        const result = piece.read(m.firstLine);
        port.post({ id, piece: result }, [result.local.buffer, result.lines.buffer, result.values.buffer]);
      } finally {
        piece.free();
      }
    } else if (m.op === 'drop') {
      pieces.get(id)?.free();
      pieces.delete(id);
    }
  } catch (e) {
    port.post({ id, error: errorToData(e) }, []);
  }
});
