// Type-checks the hand-written contract (js/index.d.ts) the way a TypeScript user meets it: imported by the
// package's name, strict mode. Compiled (not run) by tests/node/types.test.mjs.
import init, {
  counterTypes, describeCounterType, cook, explain, formatValue, cookSeries, seriesStats, statusNames,
  validateRegistration, openCapture, openCaptureParallel, CaptureReader, Capture, readCatalogue, CatalogueReader,
  type Catalogue, type CatalogueSeries, renderChart, renderSeriesChart,
  CaptureError, CounterTypeError, RegistrationError,
  rulePacks, rulePack, analyze, analysisReport, importPalThresholds, AnalysisError, derivedSeries, explainDerived,
  type DerivedExplanation,
  type RulePack, type Analysis, type Finding, type PalImport,
  type CounterTypeInfo, type CookResult, type CookStatus, type ValidationReport, type SeriesInfo, type ChartLayout,
  type CaptureFormat, type CaptureEncoding, type CaptureErrorCode, type CaptureParts, type TimeZone, type TimeRange,
  type ChartUnit, type CounterUnit, formatInUnit, formatDuration, counterUnit,
  fleetRuns, rankFleet, fleetHeatmapSvg, sparklineSvg, type FleetRun, type Fleet, type FleetMachine,
} from 'counterlens';
import { mountViewer as mountFromSubpath, defineViewerElement as defineFromSubpath, type Viewer, type ViewerOptions } from 'counterlens/viewer';

export async function example(canvas: HTMLCanvasElement, bytes: Uint8Array): Promise<number> {
  await init();
  const all: CounterTypeInfo[] = counterTypes();
  const t = describeCounterType('Timer100NsInverse');
  const name: string | null = t.name;
  const r: CookResult = cook(t.value, { value: 1n, second: '10' }, { value: 2, second: 20n }, { cap100: false, scale: null });
  const status: CookStatus = r.status;
  const v: number | null = r.value;
  const e = explain('PERF_COUNTER_COUNTER', null, { value: 1, second: 1, frequency: 1 });
  const text: string = formatValue(e.result.value ?? NaN, 'PERF_COUNTER_COUNTER', 0x10n);
  const series: Float64Array = cookSeries(0x10410400, { value: new BigUint64Array(2), second: new BigUint64Array(2), frequency: 10n });
  const st = seriesStats(series, 0, 2);
  const report: ValidationReport = validateRegistration('<x/>', { format: 'manifest' });
  const firstLine: number | undefined = report.diagnostics[0]?.line;
  const capture: Capture = openCapture(bytes, { encoding: 'windows-1252' });
  const info: SeriesInfo[] = capture.series();
  const reader = new CaptureReader({ size: bytes.length });
  const pushed: number = reader.push(bytes).bytes;
  const again = Capture.fromParts(reader.finish().toParts());
  const catalogue: Catalogue = readCatalogue(bytes, { format: 'blg' });
  const listing = new CatalogueReader({ encoding: 'utf-8' });
  listing.push(bytes);
  const listed: CatalogueSeries[] = listing.finish().series;
  const part: Capture = openCapture(bytes, { series: listed.slice(0, 2).map((s) => s.path), from: catalogue.firstMs });
  void part; void (catalogue.columnBytes + (listed[0]?.samples ?? 0));
  const big: Capture = await openCaptureParallel(bytes, { workers: 4, minBytes: 0, encoding: 'utf-8' });
  const fromFile: Capture = await openCaptureParallel(new Blob([bytes.slice()]), { onProgress: (f: number) => void f });
  const layout: ChartLayout = renderChart(canvas, again, [0], { offsetMinutes: -(capture.timeZone?.biasMinutes ?? 0), colors: [0] });
  renderSeriesChart(canvas, capture.timestamps(), [{ label: 'x', values: capture.values(0) }]);
  const names: CookStatus[] = statusNames();
  // The model's names are unions: a capture's format and encoding, its zone, a unit.
  const format: CaptureFormat | 'unknown' = capture.format;
  const encoding: CaptureEncoding | 'unknown' = capture.encoding;
  const zone: TimeZone | null = capture.timeZone;
  const parts: CaptureParts = capture.toParts();
  const partsZone: TimeZone | null = parts.timeZone;
  const unit: CounterUnit = counterUnit(0x10410400, 'Interrupts/sec');
  const lasted: string = formatDuration(13_485_000);
  const u: ChartUnit = unit.unit;
  const range: TimeRange = [0, 1];
  void format; void encoding; void zone; void partsZone; void range; void formatInUnit(1, u);
  return all.length + (name?.length ?? 0) + status.length + (v ?? 0) + text.length + st.count + (firstLine ?? 0) + info.length
    + pushed + big.sampleCount + fromFile.seriesCount + layout.plotWidth + names.length + capture.stats(0, 0).p95;
}

// @ts-expect-error: the contract says a type is a number or a string
describeCounterType({});
// @ts-expect-error: a raw sample needs its value
cook('PERF_COUNTER_RAWCOUNT', null, { second: 1 });
// @ts-expect-error: a format is one the readers know
openCapture(new Uint8Array(), { format: 'xlsx' });
// @ts-expect-error: a unit is one of ChartUnit's
formatInUnit(1, 'furlongs');

// Errors are classes: narrowing with instanceof gives their fields.
try {
  openCapture(new Uint8Array());
} catch (e) {
  if (e instanceof CaptureError) {
    const where: number | undefined = e.offset ?? e.line;
    const code: CaptureErrorCode = e.code;
    const empty: boolean = e.code === 'empty' || e.code === 'bad-json' || e.code === 'registration-invalid';
    void where; void code; void empty;
    // @ts-expect-error: the codes are a union, not any string
    void (e.code === 'no-such-code');
  } else if (e instanceof CounterTypeError || e instanceof RegistrationError) {
    const field: string | undefined = e.field;
    void field;
  }
}

// The analysis: packs by id or as objects, findings typed, the report a string.
export function analysis(capture: Capture, palXml: string): string {
  const ids: string[] = rulePacks().map((p) => p.id);
  const mine: RulePack = {
    id: 'mine', title: 'Mine',
    rules: [{ id: 'cpu', title: 'CPU', counter: '\\Processor(*)\\% Processor Time', kind: 'static',
              severity: 'warning', operator: 'gt', threshold: 'logicalProcessors * 10', instances: { exclude: ['_Total'] } }],
  };
  const full: RulePack | null = rulePack(ids[0] ?? 'system-overview');
  const imported: PalImport = importPalThresholds({ 'SystemOverview.xml': palXml });
  const a: Analysis = analyze(capture, { packs: [...ids, mine, imported.pack], variables: { PhysicalMemoryGB: 16 }, slice: 'auto' });
  const first: Finding | undefined = a.findings[0];
  const sev: 'warning' | 'critical' | undefined = first?.severity;
  const skipped: (string | undefined)[] = a.rules.map((r) => r.skipped);
  try {
    analyze(capture, { packs: ['x'], slice: 60_000, from: 0, to: 1 });
  } catch (e) {
    if (e instanceof AnalysisError) {
      const where: string | undefined = e.pointer ?? e.variable ?? e.field;
      void where;
    }
  }
  // A derived series' values and one point explained.
  const d = a.findings.find((f) => f.derived)?.derived;
  if (d) {
    const values: Float64Array = derivedSeries(capture, d);
    const why: DerivedExplanation = explainDerived(capture, d, 0);
    const arithmetic: string | undefined = why.substituted;
    void values; void arithmetic; void why.inputs[0]?.value;
  }
  // The fleet: runs of this log, ranked with others, its heatmap and a machine's CPU line.
  const runs: FleetRun[] = [...fleetRuns(capture, a, 'web01.blg'), ...fleetRuns(capture, a, 'x', ['a.blg', 'b.blg'])];
  const fleet: Fleet = rankFleet(runs);
  const worst: FleetMachine | undefined = fleet.machines[0];
  const heat: string = fleetHeatmapSvg(fleet, { width: 800, columns: 96, offsetMinutes: 60 });
  const line: string = sparklineSvg(worst?.cpu ?? [], 120, 24, [0, 100]);
  const mean: number | undefined = worst?.figures.cpuMean;
  void heat; void line; void mean; void worst?.troubleMs;
  void full; void sev; void skipped;
  return analysisReport(capture, a, { title: 'x' });
}
// @ts-expect-error: a rule needs a kind
const noKind: RulePack = { id: 'x', title: 'x', rules: [{ id: 'r', title: 'r', counter: '\\A\\B', severity: 'warning', operator: 'gt', threshold: 1 }] };
void noKind;

// The viewer subpath: the same functions and types as the root's.
export function embed(element: HTMLElement): Viewer {
  const options: ViewerOptions = { chartOnly: true, theme: 'dark' };
  defineFromSubpath('my-viewer');
  return mountFromSubpath(element, options);
}
