// What real logs from other machines taught, through the npm package: localized paths with their English
// beside (SeriesInfo.englishPath, Capture.englishPath), a truncated .blg read with a note, and registration
// diagnostics about a counter without a valid id, which carry no counterId.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture, Capture, validateRegistration } from 'counterlens';

test('localized paths: kept as written, English beside', () => {
  const csv = '"(PDH-CSV 4.0) (Hora de verano romance)(-120)","\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador","\\\\SRV\\Processor(_Total)\\% Processor Time"\r\n'
    + '"07/04/2026 10:00:00.000","12.5","13"\r\n';
  const c = openCapture(new TextEncoder().encode(csv));
  const [es, en] = c.series();
  assert.equal(es.path, '\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador');
  assert.equal(es.englishPath, '\\\\SRV\\Processor(_Total)\\% Processor Time');
  assert.deepEqual([es.englishObject, es.englishCounter], ['Processor', '% Processor Time']);
  assert.equal(c.englishPath(0), es.englishPath);
  // An English path has no other English: absent, not an empty string or null.
  assert.ok(!('englishPath' in en));
  assert.equal(c.englishPath(1), undefined);
  // Through a Worker's hand-over the same.
  assert.equal(Capture.fromParts(c.toParts()).englishPath(0), es.englishPath);
  assert.throws(() => c.englishPath(2), (e) => e.name === 'CaptureError' && e.code === 'invalid-argument');
});

test('a .blg cut short reads its complete samples, with a note', () => {
  const b = new Uint8Array(readFileSync(new URL('../vectors/captures/BasicPerfCounters.blg', import.meta.url)));
  const c = openCapture(b.subarray(0, 0x2_1234));
  const note = c.notes().find((n) => n.code === 'truncated');
  assert.ok(note && note.message.includes('truncated at byte 135732'), JSON.stringify(c.notes()));
  assert.ok(c.sampleCount > 100 && c.sampleCount < 601);
});

test('registration: a counter without a valid id has no counterId', () => {
  const manifest = `<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation>
<counters xmlns="http://schemas.microsoft.com/win/2005/12/counters" schemaVersion="1.1">
<provider providerName="P" providerGuid="{11111111-2222-3333-4444-555555555555}" symbol="P" applicationIdentity="p.exe">
<counterSet guid="{ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}" uri="U" name="N" description="D" symbol="S" instances="single">
<counter id="0" name="Zero" uri="U.0" type="perf_counter_rawcount" detailLevel="standard" struct="S" field="f"/>
<counter id="abc" name="Bytes/sec" uri="U.1" type="perf_counter_rawcount" detailLevel="standard" struct="S" field="f"/>
</counterSet></provider></counters></instrumentation></instrumentationManifest>`;
  const r = validateRegistration(manifest);
  assert.equal(r.diagnostics.length, 1, JSON.stringify(r.diagnostics));
  const [d] = r.diagnostics;
  assert.ok(!('counterId' in d), JSON.stringify(d));
  assert.ok(d.message.startsWith('counter "Bytes/sec" (the 2nd in its set, with no valid id)'), d.message);
  assert.deepEqual(r.counterSets[0].counterList.map((c) => c.counterId), [0, undefined]);
});
