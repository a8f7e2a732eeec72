// The 4 GiB wall for real: a PDH-CSV of 2,000 series streamed into CaptureReader with the default column
// budget (3 GiB in wasm) stops with a too-large CaptureError at the row that would pass it (2,000 series
// and the timestamps take 16,008 bytes a row: 3,221,225,472 / 16,008 = 201,225.98, so 201,225 rows fit), never with a trap;
// and the same module then reads the next log. About 0.8 GB of text is parsed and the module's memory
// grows past 3 GiB: 6 to 8 minutes on the shared 2-core machine (3.2 GB peak RSS), so it runs only when
// asked: `COUNTERLENS_WALL=1 node --test tests/node/wall.test.mjs`. The same error with a small budget is
// in parts.test.mjs and crate/tests/parts.rs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CaptureReader, openCapture } from 'counterlens';

const skip = !process.env.COUNTERLENS_WALL && 'about 6 minutes and 3 GB: set COUNTERLENS_WALL=1';
test('streaming past the true limit is a too-large error, and the module stays usable', { skip }, () => {
  const series = 2000;
  const enc = new TextEncoder();
  let head = '"(PDH-CSV 4.0) (UTC)(0)"';
  for (let k = 0; k < series; k++) head += `,"\\\\BIG\\Process(p${k})\\Working Set"`;
  // 1,000 rows one second apart, values unquoted (2 bytes a value, as little text per value as PDH-CSV
  // allows), pushed again and again (the times repeat: the reader takes them as they come).
  let block = '';
  for (let r = 0; r < 1000; r++) {
    const t = `${String(r / 60 | 0).padStart(2, '0')}:${String(r % 60).padStart(2, '0')}`;
    block += `"11/21/2026 00:${t}.000"${',7'.repeat(series)}\r\n`;
  }
  const chunk = enc.encode(block);
  const reader = new CaptureReader();
  reader.push(enc.encode(`${head}\r\n`));
  let error = null;
  let rows = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < 400; i++) {
      reader.push(chunk);
      rows += 1000;
    }
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  assert.ok(error, `no error after ${rows} rows`);
  assert.equal(error.name, 'CaptureError', `${error}`);
  assert.equal(error.code, 'too-large', error.message);
  // Row 201,226 does not fit: it is line 201,227 (the header is line 1).
  assert.equal(error.line, 201_227, error.message);
  assert.match(error.message, /2000 series x 201225 samples were read .* at most 201225 samples of 2000 series fit in 3\.00 GiB/);
  console.log(`# ${rows + 1000} rows of ${series} series pushed in ${(ms / 1000).toFixed(1)} s; ${error.message.slice(0, 160)}`);
  // The module is still usable: a small log reads.
  const small = openCapture(enc.encode('"(PDH-CSV 4.0)","\\\\PC\\Memory\\Available Bytes"\r\n"01/02/2026 03:04:05.678","3"\r\n'));
  assert.deepEqual([...small.values(0)], [3]);
});
