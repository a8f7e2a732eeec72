// The public API of counterlens: the contract. Hand-written (not generated) so that it says what
// the functions promise; tests/node checks the package's exports against it, tests/types/usage.ts compiles
// against it, and crate/tests/js_types.rs checks its unions (formats, encodings, units, statuses, every
// error code) against the Rust lists. See docs/architecture.md.

/** Browsers: fetch and compile the wasm once, before any other call. Node: already done, a no-op. */
export default function init(input?: unknown): Promise<unknown>;
export function initSync(input: { module: BufferSource | WebAssembly.Module }): unknown;

export function version(): string;

// ---- Counter types ---------------------------------------------------------------------------------

/** Any type spelling: 0x10410400, "0x10410400", "PERF_COUNTER_COUNTER", "perf_counter_counter"
 *  (manifest), "RateOfCountsPerSecond32" (.NET PerformanceCounterType). */
export type CounterTypeSpec = number | string;

export type Display = "per-second" | "percent" | "seconds" | "none" | "decimal" | "hex" | "text" | "hidden";

export interface CounterTypeInfo {
  value: number;
  /** null for a value the table does not know (it is still decoded by bit fields). */
  name: string | null;
  /** 0: not displayable. */
  samples: 0 | 1 | 2;
  display: Display;
  /** e.g. "100 * (1 - dN / dD)" */
  formula: string;
  fields: {
    size: string; type: string; subtype: string; timer: string;
    delta: boolean; deltaBase: boolean; inverse: boolean; multi: boolean; suffix: string;
  };
}

/** Every named type of the table, in table order. */
export function counterTypes(): CounterTypeInfo[];
/** Throws CounterTypeError (code "invalid-type") for a name no table knows or a value beyond 32 bits. */
export function describeCounterType(type: CounterTypeSpec): CounterTypeInfo;

// ---- Calculation -----------------------------------------------------------------------------------

/** Integers up to 2^64-1: bigint, an integral number, or a decimal string. */
export type RawInteger = bigint | number | string;

export interface RawSample {
  /** N: PDH FirstValue, Get-Counter RawValue. */
  value: RawInteger;
  /** D or B: time stamp or base (PDH SecondValue). */
  second?: RawInteger;
  /** F: time base / PerfFreq. */
  frequency?: RawInteger;
  /** M: multi count. */
  multi?: RawInteger;
}

export interface CookOptions {
  /** Clamp percent results to [0, 100], as PDH does without PDH_FMT_NOCAP100. Default true. */
  cap100?: boolean;
  /** Multiply by 10^scale (DefaultScale, -10..10). Default null: no scaling, as Get-Counter. */
  scale?: number | null;
  /** Multiply by 1000 (PDH_FMT_1000). Default false. */
  x1000?: boolean;
  /** Two-sample DWORD types: read a decrease as one 2^32 wrap. Default false. */
  wrap32?: boolean;
}

export type CookStatus =
  | "ok" | "needs-two-samples" | "negative-value" | "negative-denominator" | "zero-denominator"
  | "not-displayable" | "unknown-type";

export interface CookResult {
  /** null (never undefined) whenever status is not "ok". */
  value: number | null;
  status: CookStatus;
}

/** The cooked value of `newer` (against `older` for two-sample types; null for one-sample types).
 *  Throws CounterTypeError naming the field when a field the formula needs is missing, or a raw value is
 *  negative, fractional or not a number. */
export function cook(type: CounterTypeSpec, older: RawSample | null, newer: RawSample, options?: CookOptions): CookResult;

export interface Explanation {
  /** The formula as documented, e.g. "dN / (dD / F)". */
  formula: string;
  /** The formula with the samples' numbers, the options applied, and the result. */
  substituted: string;
  result: CookResult;
}
export function explain(type: CounterTypeSpec, older: RawSample | null, newer: RawSample, options?: CookOptions): Explanation;

/** The text a user sees: suffixes (/sec, %, s), hex display, group separators, and the
 *  PERF_COUNTER_REG_INFO attributes (0x2 no-display, 0x4 no-group-separator, 0x8 display-as-real,
 *  0x10 display-as-hex). NaN (no value) is "". */
export function formatValue(value: number, type: CounterTypeSpec, attrib?: RawInteger): string;

// ---- Series ----------------------------------------------------------------------------------------

export interface RawColumns {
  value: BigUint64Array;
  second?: BigUint64Array;
  /** One frequency for the series, or one per sample. */
  frequency?: RawInteger | BigUint64Array;
  multi?: BigUint64Array;
}

/** Cooks a whole series in one call: value i from samples i-1 and i (two-sample types) or i alone.
 *  NaN where there is no value (first sample of a two-sample type, any status other than ok). */
export function cookSeries(type: CounterTypeSpec, columns: RawColumns, options?: CookOptions): Float64Array;

export interface SeriesStats {
  count: number; min: number; max: number; mean: number; last: number;
  /** Population standard deviation. */
  stddev: number;
  /** 95th percentile, nearest rank. */
  p95: number;
}
/** Statistics of values[start..end), NaN excluded; every figure NaN when count is 0. */
export function seriesStats(values: Float64Array, start?: number, end?: number): SeriesStats;

/** Status names in the order of their numeric codes. */
export function statusNames(): CookStatus[];

// ---- Registration ----------------------------------------------------------------------------------

export interface Diagnostic {
  /** Stable, documented in docs/registration-rules.md, e.g. "duplicate-counter-id". */
  code: string;
  severity: "error" | "warning" | "info";
  /** The counter set's GUID in registry form: lower case, no braces. */
  counterSet?: string;
  /** The counter's id. Absent when the diagnostic is about no one counter, or about a counter with no valid
   *  id (a manifest counter without `id`, or `id="abc"`): the message then names it by name and position. */
  counterId?: number;
  /** The struct field as perflib.h and [MS-PCQ] spell it ("CounterId", "Type", "Attrib", ...), or a manifest attribute. */
  field?: string;
  /** Manifest and JSON text: 1-based line and column of what the diagnostic is about. */
  line?: number; column?: number;
  /** Byte offset in the input; for binary input, of the field itself. */
  offset: number;
  message: string;
  /** e.g. "MS-PCQ 2.2.4.2" */
  source: string;
}

export interface CounterSummary {
  /** Absent for a counter with no valid id. */
  counterId?: number; name: string | null; type: number; typeName: string | null;
  /** BaseCounterId, PerfTimeId, PerfFreqId, MultiId resolved to the named counter (null: none). */
  base: string | null; perfTime: string | null; perfFreq: string | null; multi: string | null;
}

export interface ValidationReport {
  /** The form that was read. */
  format: "binary" | "hex" | "json" | "manifest";
  counterSets: { guid: string; name?: string | null; counters: number; instanceType: number; detailLevel: number;
                 counterList: CounterSummary[] }[];
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
}

/** Checks counter-set registration against every rule of docs/registration-rules.md. Input: a Uint8Array
 *  (binary PERF_COUNTERSET_REG_INFO blocks), a string (manifest XML, JSON text, or hex of the blocks), or
 *  an object in the JSON form. Unreadable input is reported as diagnostics, not thrown; only an argument
 *  of the wrong kind throws (RegistrationError). */
export function validateRegistration(input: Uint8Array | string | object,
                                     options?: { format?: "binary" | "hex" | "json" | "manifest" }): ValidationReport;

// ---- Captures ------------------------------------------------------------------------------------

/** The formats a capture can be read from (the core's `capture::Format`). */
export type CaptureFormat = "pdh-csv" | "pdh-tsv" | "get-counter-json" | "counterlens-json" | "blg";

/** The encoding a capture's bytes were read in: a WHATWG Encoding Standard name as the core spells it
 *  (`capture::text::Encoding`), or "binary" for a .blg. */
export type CaptureEncoding =
  | "UTF-8" | "UTF-16LE" | "UTF-16BE" | "IBM866" | "ISO-8859-2" | "ISO-8859-3" | "ISO-8859-4" | "ISO-8859-5"
  | "ISO-8859-6" | "ISO-8859-7" | "ISO-8859-8" | "ISO-8859-8-I" | "ISO-8859-10" | "ISO-8859-13" | "ISO-8859-14"
  | "ISO-8859-15" | "ISO-8859-16" | "KOI8-R" | "KOI8-U" | "macintosh" | "windows-874" | "windows-1250"
  | "windows-1251" | "windows-1252" | "windows-1253" | "windows-1254" | "windows-1255" | "windows-1256"
  | "windows-1257" | "windows-1258" | "x-mac-cyrillic" | "GBK" | "gb18030" | "Big5" | "EUC-JP" | "ISO-2022-JP"
  | "Shift_JIS" | "EUC-KR" | "x-user-defined"
  | "binary";

/** A log's time zone: UTC = local + biasMinutes. */
export interface TimeZone { name: string; biasMinutes: number }

/** A time range: [fromMs, toMs], ms since the Unix epoch, UTC. */
export type TimeRange = [number, number];

export interface OpenOptions {
  /** Display name of the input (a file name); never used to guess the format. */
  name?: string;
  /** The format instead of sniffing the bytes. */
  format?: CaptureFormat;
  /** An encoding label ("utf-8", "utf-16le", "windows-1251", ...) instead of detection. */
  encoding?: string;
  /** CaptureReader: the input's total size in bytes (a File's size), so columns are reserved once. */
  size?: number;
  /** Which series of a .blg keep the raw samples their values were cooked from, so `explainAt` can explain
   *  their points: `true` every series, an array of counter paths or Perfmon wildcard paths
   *  (`"\\\\*\\Processor(*)\\% Processor Time"`, names compared case-insensitively) the series they
   *  match, `false` or absent none (the default: raw samples take 33 bytes per value beside the cooked 8).
   *  Get-Counter captures keep theirs whatever this says. A pattern that is not a counter path throws
   *  CaptureError `invalid-option`. */
  keepRaw?: boolean | string[];
  /** Read only the series whose path matches one of these counter paths or Perfmon wildcard paths (the
   *  CLI's `-c` matcher: `"\\*\Process(sql*)\*"`, names compared case-insensitively, a localized path
   *  also by its English names). The others are skipped as they are read, never stored; a `part` note
   *  says what was read. A pattern that is not a counter path, or patterns that match no series of the
   *  log, throw CaptureError `invalid-option` (field "series"). Absent: every series. */
  series?: string[];
  /** Read only the samples at or after this time (ms since 1970, UTC). */
  from?: number;
  /** Read only the samples at or before this time (ms since 1970, UTC). `to < from`, a time that is not a
   *  finite number, or a window that holds no sample of the log: CaptureError `invalid-option`. */
  to?: number;
  /** Read every Nth sample of those in the window, from the first (a .blg cooks each against the sample
   *  just before it, read or not): a whole number >= 1; absent or 1: every sample. */
  every?: number;
  /** The most bytes the columns may take (timestamps and one f64 per series and sample read). Past it,
   *  reading stops with CaptureError `too-large` saying how many series and samples were read, how many
   *  fit, and how to read less (series, from/to, every); the module stays usable. Default: 3 GiB in
   *  WebAssembly (its memory ends at 4 GiB). */
  maxColumnBytes?: number;
}

export interface SeriesInfo {
  index: number;
  /** As written in the file. */
  path: string;
  /** Without the leading "\\". */
  machine: string;
  object: string;
  /** Parent and instance split at the first "/"; the instance keeps a "#n" suffix. */
  parent?: string;
  instance?: string;
  counter: string;
  counterType?: number;
  /** The counter's DefaultScale where the file gives it (.blg, raw capture): Perfmon's graph shows value x 10^scale;
   *  values() are unscaled, as relog writes them. */
  defaultScale?: number;
  /** For a path written in another language (`\Procesador(_Total)\% de tiempo de procesador`): the English
   *  object and counter names and path, when counterlens' name map (from PAL's CounterLang.xml, common
   *  objects, 12 languages) knows both names. Absent for English paths and unknown names. */
  englishObject?: string;
  englishCounter?: string;
  englishPath?: string;
}

export interface CaptureNote { code: string; message: string; line?: number }

/** Reads a capture from its bytes, the format sniffed from the bytes. Throws CaptureError. */
export function openCapture(bytes: Uint8Array, options?: OpenOptions): Capture;

export interface ParallelOptions extends OpenOptions {
  /** Workers reading pieces side by side: 1 to 64; default the machine's cores, at most 8. */
  workers?: number;
  /** Inputs smaller than this many bytes are read by openCapture (default 8 MiB). */
  minBytes?: number;
  /** Told the fraction of pieces read, as each is. */
  onProgress?: (fraction: number) => void;
}

/** openCapture's result (the same timestamps and values bit for bit, series, notes, format, encoding; or
 *  the same CaptureError at the same line) for a big PDH-CSV/TSV read by workers side by side
 *  (worker_threads in Node, Web Workers in browsers): cut at line ends after the header, each piece read
 *  in its own wasm instance, the columns transferred back and joined. A Blob (a File, Node's
 *  fs.openAsBlob) is read slice by slice, never whole on the calling thread. A .blg, JSON, UTF-16 text, a
 *  small input or one worker is read by openCapture. Rejects with CaptureError. */
export function openCaptureParallel(input: Uint8Array | Blob, options?: ParallelOptions): Promise<Capture>;

/** Reads a capture in chunks (a large file in slices, in a Worker): the same result as openCapture. */
export class CaptureReader {
  constructor(options?: OpenOptions);
  /** Returns the number of bytes pushed so far. Throws CaptureError; the reader is then spent. */
  push(chunk: Uint8Array): { bytes: number };
  finish(): Capture;
  free(): void;
}

/** Options of readCatalogue and CatalogueReader: the catalogue lists the whole log, so only the format
 *  and the encoding are taken from OpenOptions. */
export interface CatalogueOptions {
  format?: CaptureFormat;
  encoding?: string;
}

/** One series of a log, as its catalogue lists it. */
export interface CatalogueSeries {
  index: number;
  /** As written in the file (pass it in OpenOptions.series to read this series). */
  path: string;
  machine: string;
  object: string;
  parent?: string;
  instance?: string;
  counter: string;
  /** Where the file gives it (.blg, JSON). */
  counterType?: number;
  /** Samples holding a value of this series in the log: a CSV/TSV cell that is not blank, a .blg's or a
   *  JSON capture's raw value (a rate counter's first raw value has no cooked value: a whole read may show
   *  one value fewer). */
  samples: number;
}

/** What a log holds, without its values: its series in the order openCapture gives them, its rows and
 *  time range, and the notes a whole read gives. */
export interface Catalogue {
  format: CaptureFormat;
  encoding: CaptureEncoding;
  timeZone: TimeZone | null;
  /** Samples (rows) in the log: a whole read's sampleCount. */
  rows: number;
  /** The earliest and latest sample (ms since 1970, UTC); undefined without rows. */
  firstMs?: number;
  lastMs?: number;
  /** Bytes read. */
  bytes: number;
  /** Bytes a whole read's columns take: 8 x rows x (series + 1) (what OpenOptions.maxColumnBytes and the
   *  4 GiB of WebAssembly memory are compared with). */
  columnBytes: number;
  notes: CaptureNote[];
  series: CatalogueSeries[];
}

/** The catalogue of a log from its bytes: its series (path, names, sample count), rows and time range,
 *  read by the same readers as openCapture (the same errors) but with no value kept, so its memory does
 *  not grow with the log's length: list a log larger than memory, then read a part of it with
 *  OpenOptions.series / from / to. Throws CaptureError. */
export function readCatalogue(bytes: Uint8Array, options?: CatalogueOptions): Catalogue;

/** readCatalogue pushed in chunks (a large file in slices, in a Worker): the same result as on the whole. */
export class CatalogueReader {
  constructor(options?: CatalogueOptions);
  /** Returns the number of bytes pushed so far. Throws CaptureError; the reader is then spent. */
  push(chunk: Uint8Array): { bytes: number };
  finish(): Catalogue;
  free(): void;
}

export class Capture {
  /** "unknown" only for a capture put together by `fromParts` from parts that named no known format. */
  readonly format: CaptureFormat | "unknown";
  /** The text encoding the bytes were read in ("UTF-8", "UTF-16LE", "windows-1252", ...; "binary" for .blg;
   *  "unknown" only for a capture put together by `fromParts` from parts that named no known encoding). */
  readonly encoding: CaptureEncoding | "unknown";
  readonly sampleCount: number;
  readonly seriesCount: number;
  /** The log's zone. null when the log gives none (times read as UTC). */
  readonly timeZone: TimeZone | null;
  /** ms since the Unix epoch, UTC. */
  timestamps(): Float64Array;
  series(): SeriesInfo[];
  /** Series `index`'s path in English (machine and instance as written) when it is written in another
   *  language and the map knows its object and counter; undefined otherwise. See SeriesInfo.englishPath. */
  englishPath(index: number): string | undefined;
  /** Cooked values; NaN where there is none. */
  values(index: number): Float64Array;
  /** Get-Counter captures: PDH's own CookedValue; undefined for other formats. */
  reference(index: number): Float64Array | undefined;
  /** The sample nearest to `ms` (ms since the epoch, UTC; the earlier on a tie); -1 without samples. */
  sampleAt(ms: number): number;
  /** One value of series `index` (NaN where none), without copying the column out. */
  valueAt(index: number, sample: number): number;
  /** One PDH CookedValue (Get-Counter captures); NaN for other formats. */
  referenceAt(index: number, sample: number): number;
  /** How the value of series `index` at `sample` was cooked, with the raw numbers (as `explain` gives it);
   *  null where the series holds no raw samples (Get-Counter captures keep them; a .blg those `keepRaw` names). */
  explainAt(index: number, sample: number): Explanation | null;
  stats(index: number, fromMs?: number, toMs?: number): SeriesStats;
  /** The indices of the series `matcher` selects, in file order: the series the CLI's `-c` keeps. */
  matching(matcher: PathMatcher): Uint32Array;
  /** Logical processors the capture shows (`Processor(*)` instances but `_Total`, counted per machine by
   *  written or English names, the largest machine's count); undefined when it has none. */
  logicalProcessors(): number | undefined;
  /** The viewer's statistics of a range: `stats` plus the 99th percentile and the least-squares trend per hour. */
  rangeStats(index: number, fromMs?: number, toMs?: number): RangeStats;
  /** PDH-CSV (relog's dialect) of the cooked values; reading it back gives the same series and values. */
  toCsv(indices?: number[]): string;
  /** What the reader noted: a last line cut short (with its line), no time zone. */
  notes(): CaptureNote[];
  /** The capture as plain parts, columns as Float64Arrays that a Worker can transfer to the page. */
  toParts(): CaptureParts;
  /** A Capture from `toParts()`'s parts (notes are not carried: keep `parts.notes`). Throws CaptureError
   *  when a column's length differs from the timestamps'. */
  static fromParts(parts: CaptureParts): Capture;
  free(): void;
}

/** The viewer's statistics of a range: `SeriesStats` plus the 99th percentile and the least-squares trend per hour. */
export interface RangeStats extends SeriesStats { p99: number; trendPerHour: number }

/** A capture as plain parts (`Capture.toParts`, `Capture.fromParts`). `fromParts` also reads parts made
 *  elsewhere: an encoding label is read as its encoding, and a format or encoding it does not know gives a
 *  capture that says "unknown". */
export interface CaptureParts {
  format: CaptureFormat | "unknown"; encoding: CaptureEncoding | "unknown"; timeZone: TimeZone | null; notes: CaptureNote[];
  timestamps: Float64Array;
  series: SeriesParts[];
}
/** One series of `CaptureParts`. */
export interface SeriesParts {
  path: string; counterType: number | null; defaultScale?: number | null; values: Float64Array; reference: Float64Array | null;
  /** The raw samples (Get-Counter captures; a .blg's series named by `keepRaw`). */
  raw?: RawSeries | null;
}
/** A series' raw samples as columns: N, D, F, M, and which of them each sample has (bits 1, 2, 4, 8). */
export interface RawSeries {
  value: BigUint64Array; second: BigUint64Array; frequency: BigUint64Array; multi: BigUint64Array; present: Uint8Array; cap100: boolean;
}

// ---- Analysis (docs/analysis.md; packs: docs/rule-packs.md, schema counterlens/rule-pack.schema.json) --

export type Severity = "warning" | "critical";
export type Operator = "gt" | "ge" | "lt" | "le" | "eq" | "ne";
/** "value": the samples themselves (a rule with `for`). */
export type SliceStat = "min" | "avg" | "max" | "trend" | "value";

/** Rich text (docs/rule-packs.md): plain, or blocks; never HTML. Render with textContent and
 *  `<a href>` for http(s) links only. */
export type RichText = string | TextBlock[];
export type TextBlock = { paragraph: TextInline[] } | { list: TextInline[][] };
export type TextInline = string | { strong: string } | { link: string; text: string };

/** A series a pack computes sample by sample from the capture's (PAL's Generated data sources). */
export interface DerivedSeries {
  id: string;
  /** The path the series get: "\\Object(*)\\Counter", the * being each pair's instance. */
  counter: string;
  inputs: { name: string; counter: string }[];
  pairBy: "instance" | "sqlInstance" | "machine";
  /** Over the inputs' names and the pack's variables; if(c, x, y), round(x), abs(x) besides the
   *  threshold functions. */
  expression: string;
  /** A counter path: the series is not computed for a machine whose log has a series it matches (a
   *  stand-in for a better counter, used only where the log lacks it). */
  unless?: string;
}
/** On a finding of a derived series: what it was computed from. */
export interface DerivedRef {
  pack: string; id: string; expression: string;
  inputs: { name: string; seriesIndex: number; path: string }[];
  /** The pack variables the expression uses, with their values. */
  variables?: Record<string, number | string>;
}

/** A rule pack: rules selecting series by Perfmon wildcard paths, with thresholds over variables. */
export interface RulePack {
  id: string;
  title: string;
  version?: string;
  source?: string;
  description?: RichText;
  variables?: PackVariable[];
  derived?: DerivedSeries[];
  rules: Rule[];
}
export interface PackVariable {
  name: string;
  question?: string;
  type?: "number" | "string";
  default: number | string;
  /** Derived from the capture where it can be: "logicalProcessors" = Processor(*) instances but _Total;
   *  "minPhysicalMemoryGb" = the most Available MBytes ever free, in GB, where above the default. */
  derive?: "logicalProcessors" | "linkSpeedMbps" | "os" | "minPhysicalMemoryGb";
}
export interface Rule {
  id: string;
  /** Rules of one group on one series get PAL's priority: a slice broken by both counts as critical. */
  group?: string;
  title: string;
  category?: string;
  description?: RichText;
  references?: { title: string; url: string }[];
  /** Perfmon wildcards, machine optional, case-insensitive: "\\Processor(*)\\% Processor Time". */
  counter: string;
  instances?: { include?: string[]; exclude?: string[] };
  kind: "static" | "trend";
  /** Static rules: which slice statistics are compared (default all three). */
  stats?: ("min" | "avg" | "max")[];
  severity: Severity;
  operator: Operator;
  /** A number, or an expression: numbers (KB MB GB TB, 1024-based), variables, + - * / ( ), min(), max(),
   *  gt() ge() lt() le() eq() ne() (1 or 0), is(v, 'text') startsWith(v, 'text') at(v, start, 'text')
   *  (tests of a string variable, ignoring case: 1 or 0). */
  threshold: number | string;
  thresholdMin?: number;
  thresholdMax?: number;
  /** Break only when at least this % of the slice's points satisfy the comparison. */
  minDurationPercent?: number;
  /** Seconds: break where the samples satisfy the comparison without interruption for at least this
   *  long (Prometheus' for:), whatever the slice length. */
  for?: number;
  /** Break over episodes (docs/analysis.md, "Episodes"): at each sample, the samples of the last
   *  `window` seconds (at least `samples`, default 5) hold when more than `share` of them (default 0.5)
   *  satisfy the comparison, or their mean does with a quarter of them; windows closer together than
   *  `window` are one episode. The built-in packs' static rules all use it. */
  episode?: { window: number; share?: number; samples?: number };
  /** Kind "trend" only: judge the whole range with one least-squares line (docs/analysis.md, "Growth"),
   *  breaking when its slope per hour satisfies the comparison over at least `hours` (default 2) and it
   *  explains at least `steadiness` (R², default 0.8) of the change. The built-in leak rules use it. */
  growth?: { hours?: number; steadiness?: number };
}

export interface RulePackInfo {
  id: string; title: string; rules: number; source: string;
  description: RichText;
  /** The questions the pack asks, with their defaults. */
  variables: PackVariable[];
}
/** The built-in packs. */
export function rulePacks(): RulePackInfo[];
/** A built-in pack whole, or null. */
export function rulePack(id: string): RulePack | null;
/** The counters to collect so that `packs` (every built-in pack when absent) can run and their cards name
 *  the process, processor or adapter that did it: one `\Object(*)\Counter` path per line (CRLF), the file
 *  `logman create counter NAME -cf FILE` reads (docs/analysis.md, "Counters to collect"). */
export function counterTemplate(options?: { packs?: (string | RulePack)[] }): string;

export interface AnalyzeOptions {
  /** Ids of built-in packs, pack objects (or their JSON text); default: every built-in pack whose
   *  counters the capture has. */
  packs?: (string | RulePack)[];
  /** The user's answers; they win over values derived from the capture and the packs' defaults. */
  variables?: Record<string, number | string>;
  /** "auto" (duration / 30, PAL's AUTO) or a slice length in ms. */
  slice?: "auto" | number;
  /** ms since the epoch, UTC. */
  from?: number; to?: number;
  /** Where a built-in pack and a given pack (an imported PAL file) have rules on one series: whose
   *  run ("imported", the default), the other side's being listed as skipped; "both" runs both. */
  overlap?: "imported" | "builtin" | "both";
  /** The machine's normal (what BaselineBuilder.finish() or buildBaseline() gave, or the text of a
   *  `.baseline.json` file `counterlens baseline` wrote): adds the cards "worse than its normal"
   *  (`pack: "baseline"`), ranked and told in the story with the others. Throws AnalysisError
   *  ("baseline") when it is another machine's normal or no baseline. */
  baseline?: Baseline | string;
}
export interface Finding {
  pack: string; rule: string; title: string; category: string;
  severity: Severity;
  seriesIndex: number; path: string;
  /** ms since the epoch, UTC: the merged slices' range. */
  start: number; end: number;
  broke: SliceStat[];
  worst: number; threshold: number; operator: Operator;
  /** "\\SRV\Processor(_Total)\% Processor Time above 80 (max 97.3) from 10:40 to 11:10" */
  message: string;
  /** The variables its threshold read, their values and origin ("pack": a default, an answer to confirm). */
  variables?: { name: string; value: number | string; origin: "user" | "capture" | "bound" | "pack" }[];
  /** On a derived series (then seriesIndex is at or past the capture's series count): its definition. */
  derived?: DerivedRef;
  /** Over the finding's range (episode rules): the mean value, and the share 0..1 of its samples past
   *  the threshold. */
  mean?: number; share?: number;
  /** A growth rule's finding: the fitted line's slope per hour, its R² (0..1), its values at the first
   *  and last sample, and how many samples it rests on. */
  growth?: { perHour: number; steadiness: number; from: number; to: number; samples: number };
  /** "machine": _Total, memory, a disk, an adapter; "instance": one processor, one process. */
  scope?: "machine" | "instance";
}
/** A card of findings: one concern (its rules' group) over one stretch of time. A card may hold findings
 *  of several rules (a warning and a critical of one episode, the processor queue beside the processor
 *  time); `severity` is the worst of them. Per-instance findings (one processor) sit inside the machine's
 *  card they overlap (docs/analysis.md, "Cards"). */
export interface FindingGroup {
  pack: string; rule: string; severity: Severity;
  /** The union of its findings' ranges, ms since the epoch (UTC). */
  start: number; end: number;
  /** Indices into `findings`, in time order; `worst`: the one furthest past its threshold. */
  findings: number[]; worst: number;
  /** Distinct series hit. */
  series: number;
  /** Its concern: the rules' group ("processor", "memory", "disk"), or the rule when it has none. */
  group?: string;
  /** Its lead rule's category: "Processor", "Memory", "Disk", ... */
  category?: string;
  /** The machine, or "" when the log names none or the card spans machines. */
  machine?: string;
  /** "machine": machine-level (_Total, memory, each disk, each adapter); "instance": one processor, one
   *  process alone. */
  scope?: "machine" | "instance";
  /** Index into `findings` of the finding that leads the card: the machine-level series. */
  lead?: number;
  durationMs?: number;
  /** Over the episode on the lead series (episode rules only): the mean value, and the share 0..1 of its
   *  samples past the lead rule's threshold. */
  mean?: number; share?: number;
  /** The card in one sentence: "\\Processor(_Total)\\% Processor Time above 80% for 58 min from 10:30
   *  to 11:28 UTC, 92% of the time, mean 88.9%, worst 92%; also on Processor(0), Processor(1)". */
  summary?: string;
  /** A machine card's processes, largest first (at most five), from the log's breakdown over the card's
   *  range: processor time as a share of the machine's capacity, private bytes or I/O as a share of all
   *  processes'. Absent when the log has none. */
  contributors?: { seriesIndex: number; path: string; name: string; value: number; share: number; kind: "process" | "processor" | "adapter" }[];
  /** A machine card without contributors: the counter that would have named them
   *  (`\Process(*)\% Processor Time`); `counterTemplate` lists every such counter for the next collection. */
  missing?: string;
}
export interface RuleRun {
  pack: string; rule: string; title: string; category?: string; severity: Severity;
  /** Why it matters and what to check next; its references. */
  description?: RichText; references?: { title: string; url: string }[];
  group?: string; trend?: boolean; operator?: Operator;
  /** The variables its threshold expression reads. */
  variables?: string[];
  /** The counter path it selects; an episode rule's window and share. */
  counter?: string;
  episode?: { window: number; share?: number; samples?: number };
  growth?: { hours?: number; steadiness?: number };
  series: number;
  /** The value compared with (an expression evaluated with the variables, then clamped); absent when skipped. */
  threshold?: number;
  skipped?: string;
}
export interface Analysis {
  /** The packs that produced it, in order. */
  packs?: { id: string; title: string; source: string; builtin: boolean }[];
  slices: { start: number; end: number }[];
  /** Sorted by start time, then severity (critical first). */
  findings: Finding[];
  /** The findings as cards, ranked by impact: machine before part, critical before warning, then the
   *  longest first, then by start (docs/analysis.md, "Cards"). */
  groups: FindingGroup[];
  /** The cards in a few plain sentences (docs/analysis.md, "The story"): a headline, then for each of the
   *  first three cards (`group`: its index in `groups`) what was wrong, when, how badly and the likely
   *  cause, with the next step; `more` cards beyond them; `ran` rules ran (0: not analysed). */
  story: {
    headline: string;
    lines: { group: number; severity: Severity; text: string; next: string }[];
    more: number;
    ran: number;
  };
  /** What ran (on how many series), what did not and why. */
  rules: RuleRun[];
  /** The values used. */
  variables: Record<string, number | string>;
  /** Where each came from. */
  variableSources: Record<string, "user" | "capture" | "bound" | "pack">;
  /** What the log says of itself. */
  log: {
    machines: string[]; os?: string; logicalProcessors?: number; linkSpeedMbps?: number;
    samples: number; series: number; first?: number; last?: number; intervalMs?: number;
  };
}
/** Analyses a capture with rule packs. Throws AnalysisError for a bad pack, threshold or variable. */
export function analyze(capture: Capture, options?: AnalyzeOptions): Analysis;
/** One self-contained HTML document (no script; nothing loaded from outside; opens offline). */
export function analysisReport(capture: Capture, analysis: Analysis, options?: { title?: string }): string;

/** The values of the derived series a finding names (`finding.derived`), sample by sample over the
 *  capture's timestamps (NaN where an input has no value). Throws AnalysisError ("invalid-argument")
 *  when `derived` is not a finding's, ("invalid-option") when it names series the capture does not have. */
export function derivedSeries(capture: Capture, derived: DerivedRef): Float64Array;
/** One point of a derived series explained: its inputs' values at the sample and the arithmetic. */
export interface DerivedExplanation {
  sample: number;
  /** ms since the epoch, UTC. */
  time: number;
  expression: string;
  /** Each input's value at the sample (NaN where its series has none). */
  inputs: { name: string; seriesIndex: number; path: string; value: number }[];
  variables: Record<string, number | string>;
  /** The expression with the values in place of the names, "= result":
   *  "if(gt(10, 1) * gt(40, 1), round(10 / 40 * 100), 0) = 25"; absent where an input has no value. */
  substituted?: string;
  /** NaN where an input has no value. */
  value: number;
}
/** Explains sample `sample` (an index into the capture's timestamps) of the derived series a finding
 *  names. Throws AnalysisError as derivedSeries does, and ("invalid-option") for a sample past the capture. */
export function explainDerived(capture: Capture, derived: DerivedRef, sample: number): DerivedExplanation;

// ---- The fleet: many logs reduced per machine and ranked (docs/analysis.md, "The fleet") ----

/** A machine's key figures over a log (or over its logs); absent where it has no such counter. */
export interface FleetFigures {
  /** Processor(_Total)\% Processor Time: mean and 95th percentile, %. */
  cpuMean?: number; cpuP95?: number;
  /** The least Memory\Available MBytes, MB. */
  availableMbMin?: number;
  /** The worst disk's 95th percentile of Avg. Disk sec/Transfer (Read, Write), ms. */
  diskLatencyP95Ms?: number;
}
/** A card in brief: what the fleet table shows of it. start/end: ms since the epoch, UTC. */
export interface FleetCard {
  pack: string; group: string; category: string; severity: Severity; start: number; end: number; summary: string;
}
/** One machine in one analysed log: small whatever the log (a decimated CPU line of at most 96 points,
 *  a CPU histogram of at most 101 bins), so a caller keeps runs, not captures. */
export interface FleetRun {
  machine: string;
  logs: string[];
  /** First and last sample, ms since the epoch, UTC. */
  first?: number; last?: number;
  samples: number;
  figures: FleetFigures;
  cards: FleetCard[];
  /** CPU decimated: [ms, %] pairs (absent without a CPU counter). */
  cpu?: [number, number][];
  /** CPU in 1 % bins: [bin, count, least, greatest], so runs combine into a machine's percentiles. */
  cpuHistogram?: { bins: [number, number, number, number][] };
}
/** One run as the fleet lists it under its machine. */
export interface FleetRunFigures {
  logs: string[]; first?: number; last?: number; samples: number;
  worst?: Severity; cards: number; troubleMs: number; figures: FleetFigures;
}
/** One machine of the fleet: its runs joined in time order. */
export interface FleetMachine {
  machine: string;
  /** The worst severity of its cards; absent: calm. */
  worst?: Severity;
  /** Critical first, then the longest, then the earliest: cards[0] is its top card. */
  cards: FleetCard[];
  /** The union of its cards' ranges, ms. */
  troubleMs: number;
  logs: string[];
  first?: number; last?: number;
  figures: FleetFigures;
  runs: FleetRunFigures[];
  cpu: [number, number][];
}
/** The machines ranked worst first: severity, then time in trouble, then cards, then name. */
export interface Fleet { machines: FleetMachine[]; }
/** The runs of an analysed capture, one per machine it names (`name` stands for the machine of a log
 *  that names none; `logs` default `[name]`). Throws AnalysisError ("invalid-argument") when `analysis`
 *  is not what analyze() returned. */
export function fleetRuns(capture: Capture, analysis: Analysis, name: string, logs?: string[]): FleetRun[];
/** One hour of the day on weekdays or at weekends in a machine's normal: the samples it rests on and
 *  the quantiles of `Baseline.quantiles`, in the counter's unit. */
export interface BaselineCell { hour: number; weekend: boolean; samples: number; q: number[]; }
/** A machine's normal (schema/counterlens-baseline-v1.schema.json): per machine-level counter, robust
 *  quantiles by hour of day (the log's clock), weekdays and weekends apart. */
export interface Baseline {
  format: "counterlens-baseline"; version: 1;
  machine: string;
  /** The logs it rests on, as named when it was built. */
  logs: string[];
  /** ms since the epoch, UTC: its first and last sample. */
  first: number; last: number;
  samples: number;
  quantiles: number[];
  counters: { path: string; cells: BaselineCell[] }[];
}
/** A machine's normal from its logs, added one at a time (each capture can be freed after `add`). */
export class BaselineBuilder {
  constructor();
  /** Throws AnalysisError ("baseline") when the log is of another machine than the logs before it. */
  add(name: string, capture: Capture): void;
  /** Throws AnalysisError ("baseline") when the logs held nothing to learn from; once only. */
  finish(): Baseline;
  free(): void;
}
/** A machine's normal from its logs (`names[i]` names capture i in `logs`; default "log 1", ...): a
 *  BaselineBuilder over the array. */
export function buildBaseline(captures: Capture[], names?: string[]): Baseline;
/** The machines of any number of runs (fleetRuns' results, concatenated), ranked. */
export function rankFleet(runs: FleetRun[]): Fleet;
/** The fleet's heatmap (machines by time, each cell coloured no log / calm / warning / critical) as one
 *  `<svg>` element's text, drawn by the core's chart; labels escaped. Insert it parsed (DOMParser), not as
 *  HTML. Empty text when no log has a time. Defaults: width 960 px, 120 columns, offsetMinutes 0 (UTC). */
export function fleetHeatmapSvg(fleet: Fleet, options?: { width?: number; columns?: number; offsetMinutes?: number }): string;
/** A sparkline of [x, y] points as one `<svg>` element's text, in currentColor; y between `range`
 *  (default: the points' own). */
export function sparklineSvg(points: [number, number][], width: number, height: number, range?: [number, number] | null): string;

/** Why a PAL THRESHOLD was not translated (the Rust `ReasonCode` list, checked by crate/tests/js_types.rs). */
export type PalUntranslatedCode =
  | 'disabled'
  | 'condition'
  | 'loop'
  | 'alert'
  | 'no-threshold-call'
  | 'collection'
  | 'generated'
  | 'question'
  | 'syntax'
  | 'form'
  | 'branches'
  | 'too-large';
export interface PalImport {
  /** Usable in analyze({ packs: [pack] }). */
  pack: RulePack;
  /** THRESHOLD elements translated, and read. */
  translated: number; total: number;
  /** Each THRESHOLD left out: `code` says what kind of reason (stable, for programs), `reason` says it for people. */
  untranslated: { analysis: string; threshold: string; code: PalUntranslatedCode; reason: string }[];
  variables: { name: string; default: string; question: string }[];
  /** Inherited files that were not given (the rest imported). */
  missingFiles: string[];
  bands: { analysis: string; counter: string; severity: Severity; min: number | string; max: number | string }[];
  notes: string[];
}
/** PAL threshold XML into a pack: one file's text, or several by file name so <INHERITANCE> resolves.
 *  PowerShell is never evaluated. Throws AnalysisError for XML that is not well formed. */
export function importPalThresholds(files: string | Record<string, string>): PalImport;

// ---- Charts (browser) ------------------------------------------------------------------------------

export interface ChartView {
  /** Default: all data. */
  xRange?: TimeRange;
  yRange?: [number, number];
  /** Minutes east of UTC for the time labels; default 0 (UTC). */
  offsetMinutes?: number;
  unit?: string;
  dark?: boolean;
  legend?: boolean;
  /** renderChart: also draw each series' reference (PDH's CookedValue of a Get-Counter capture), dashed. */
  references?: boolean;
  /** The position (in `indices` or `series`) of a series to draw thicker, the others faded. */
  highlight?: number;
  /** renderChart: the palette slot of each series, aligned with `indices` (default: their order). */
  colors?: number[];
  /** "units" (default: an axis per unit, left and right), "perfmon" (one 0-100 axis, each series times
   *  the power of ten that makes it span it), "log" (a log axis per unit). */
  yScale?: YScale;
  /** Room for at least this many value axes left and right (stacked charts reserve the same so their
   *  plots line up). */
  axesLeft?: number;
  axesRight?: number;
  /** Thresholds drawn as dashed lines with the band beyond shaded, always inside the value range; `series`
   *  is a position in `indices` / `series` (its axis). */
  thresholds?: { series: number; value: number; severity: Severity; operator: Operator }[];
  /** Time ranges shaded, [from, to] in ms (a finding's). */
  ranges?: [number, number][];
}
/** How a chart's value axes are drawn (ChartView.yScale). */
export type YScale = 'units' | 'perfmon' | 'log';
/** What a counter's values measure: an axis of its own in a chart of mixed series (the core's `units::Unit`). */
export type ChartUnit = 'percent' | 'per-second' | 'bytes-per-second' | 'bytes' | 'seconds' | 'count';
/** A counter's unit and the factor from its values to the unit's base (Available MBytes: 1048576, to bytes). */
export interface CounterUnit { unit: ChartUnit; multiplier: number }
export interface ChartAxis {
  unit: ChartUnit; title: string; side: 'left' | 'right'; slot: number;
  /** Its range, in the unit's base (bytes, seconds, ...). */
  lo: number; hi: number; log: boolean;
}
export interface ChartLayout {
  /** The plot rectangle in CSS pixels of the canvas. */
  plotLeft: number; plotTop: number; plotWidth: number; plotHeight: number;
  x0: number; x1: number; y0: number; y1: number;
  pointsDrawn: number;
  axes: ChartAxis[];
  /** Per series passed (aligned with `indices` / `series`): its axis (index in `axes`) and the factor it
   *  was drawn with (perfmon scale; 1 otherwise). */
  series: { axis: number; factor: number }[];
  /** Where the thresholds and ranges went (canvas pixels): a threshold's y in `a` (and `b`), a range's
   *  left and right in `a` and `b`. */
  marks: { kind: "warning" | "critical" | "range"; value: number; a: number; b: number }[];
}
/** Draws series `indices` of a capture on a canvas, straight from its columns, decimated to the canvas's
 *  pixels. `view.colors` keeps each series' colour slot stable while the selection changes. */
export function renderChart(canvas: HTMLCanvasElement, capture: Capture, indices: number[], view?: ChartView): ChartLayout;

// ---- The viewer (browser) ------------------------------------------------------------------------

/** The viewer's theme: the system's ("auto"), light or dark. */
export type Theme = 'auto' | 'light' | 'dark';
export interface ViewerOptions {
  /** A capture to open at once: bytes or a Blob (a File). A .blg's is kept to be read again, in the Worker,
   *  for the raw samples of a clicked point's series (a .blg is read without them). */
  capture?: Uint8Array | ArrayBuffer | Blob;
  /** Or a same-origin URL to fetch and open (the viewer sends data nowhere and reads from nowhere else); a
   *  .blg's is fetched again for the raw samples of a clicked point, and the box says so if that fails. */
  url?: string;
  /** The capture's display name. */
  name?: string;
  /** Only the chart, its toolbar and statistics: no file picker, no series tree. */
  chartOnly?: boolean;
  /** The series shown on open: words or a perfmon wildcard path ("\\*\Processor(*)\% Processor Time"). */
  series?: string;
  /** Keep the selection and range in the URL hash (one viewer per page). */
  hash?: boolean;
  /** Give the viewer's parts document ids (#chart, #series-list, ...; one viewer per page). */
  ids?: boolean;
  /** Take files dropped anywhere on the page, not only on the element. */
  dropAnywhere?: boolean;
  /** Link js/viewer/viewer.css (default true; set false to style it yourself). */
  stylesheet?: boolean;
  /** The theme: the system's (default), light or dark. */
  theme?: Theme;
  /** An element that takes the viewer's theme too (the class `theme-light` or `theme-dark`, whose design
   *  tokens viewer.css defines for :root as well): the counterlens page passes `document.documentElement`
   *  so the whole page follows the viewer's Theme choice. */
  themeRoot?: HTMLElement;
  /** Told when the selected series change (their paths, in file order). */
  onSelection?: (e: { series: string[] }) => void;
  /** Told when the time range changes (null: the whole capture). */
  onZoom?: (e: { range: TimeRange | null }) => void;
  /** Bytes of columns (8 per value and timestamp) the viewer reads whole. Default: an eighth of
   *  `navigator.deviceMemory`, from 256 MiB to 1 GiB; 512 MiB where the browser does not say. A log whose
   *  columns would take more is listed first (readCatalogue) and read in part: the series the built-in
   *  analysis packs look at, as many as fit; a note says what was left out, with a picker to load others. */
  columnBudget?: number;
}
export interface Viewer {
  /** Settles when the capture given in the options is open (or could not be read: see the status line). */
  ready: Promise<void>;
  /** Opens a capture (read in a Web Worker); errors are shown in the viewer's status line. */
  open(input: Uint8Array | ArrayBuffer | Blob, name?: string): Promise<void>;
  openUrl(url: string, name?: string): Promise<void>;
  /** The open capture (owned by the viewer: do not free it). */
  capture(): Capture | null;
  /** Shows a time range, or the whole capture for null. */
  setRange(range: TimeRange | null): void;
  redraw(): void;
  /** Selects exactly the series a filter matches (words or a perfmon wildcard path). */
  selectSeries(filter: string): void;
  setTheme(theme: Theme): void;
  /** The file a shared link (the URL hash, with `hash: true`) names and waits for, or null. */
  sharedFile(): { name: string; size: number; hash: string } | null;
  /** Removes the viewer and frees its capture. */
  destroy(): void;
}
/** Mounts the capture viewer (or just a chart) in `element`: browsers only, after `await init()`. */
export function mountViewer(element: HTMLElement, options?: ViewerOptions): Viewer;
/** Defines the `<counterlens-viewer>` element (attributes src, series, range, theme, chart-only; events
 *  `selection` and `zoom`), after `await init()`. */
export function defineViewerElement(name?: string): void;

// ---- What users read (crate/src/words.rs: one rule each, as the core's cards, messages and report write) ----
/** A value (in the unit's base: bytes, seconds) as users read it: three significant digits, integer digits
 *  never dropped, trailing zeros trimmed; `%`, `/s`, binary prefixes, µs/ms/s. `formatInUnit(8388608000,
 *  'bytes')` is "7.81 GB", `formatInUnit(1638.4, 'count')` "1638", `formatInUnit(12.5, 'percent')` "12.5%";
 *  NaN is "". */
export function formatInUnit(value: number, unit: ChartUnit): string;
/** A time (ms since the epoch, UTC) in a zone `offsetMinutes` ahead of UTC: "10:40", seconds when they are
 *  not zero ("10:40:05"), after the date when `withDate` ("2026-11-20 10:40"); "?" for what is no time. */
export function formatClock(ms: number, offsetMinutes: number, withDate?: boolean): string;
/** The machine of a counter path as written (`\\\\WEB01\\...` -> "WEB01"); "" for a path without one. */
export function pathMachine(path: string): string;
/** A counter path without its machine: `\\WEB01\Memory\Available MBytes` is `\Memory\Available MBytes`. */
export function pathWithoutMachine(path: string): string;
/** A Perfmon wildcard path pattern matched as the CLI's `-c` matches (`*` any run, `?` one character,
 *  case-insensitive, localized paths also by their English names, no machine: every machine). The
 *  constructor throws a CaptureError (`invalid-argument`) for text that is no path pattern. */
export class PathMatcher {
  constructor(pattern: string);
  /** Whether a path as written matches. */
  matches(path: string): boolean;
  free(): void;
}
/** A duration (ms) in the analysis' words, as cards, messages and the report write it: `formatDuration(82000)`
 *  is "82 s", 1,185,000 "20 min", 13,485,000 "3 h 45 min", two days and three hours "2 d 3 h". */
export function formatDuration(ms: number): string;
/** The unit of a counter, from its type where known and its name; `multiplier` takes values to the base. */
export function counterUnit(counterType: number | null | undefined, counter: string): CounterUnit;

/** The CSS colour ("#rrggbb") of a palette slot as the charts draw it (for legends outside the canvas). */
export function seriesColor(slot: number): string;

/** Draws series aligned with `timestamps` (ms since the epoch, UTC) on a canvas, decimated to its pixels. */
export function renderSeriesChart(
  canvas: HTMLCanvasElement,
  timestamps: Float64Array,
  series: { label: string; values: Float64Array; color?: number }[],
  view?: ChartView,
): ChartLayout;

// ---- Errors (js/errors.js) -------------------------------------------------------------------------
// Every error the package throws is an instance of one of these classes (and of Error), with a stable
// `code` (the unions below list every one, checked against the Rust lists by crate/tests/js_types.rs)
// and, where one applies, where the input was wrong.

/** The codes of CounterTypeError: the calculation functions' (and charts') argument checks. */
export type CounterTypeErrorCode =
  | "invalid-type" | "invalid-raw-value" | "missing-field" | "invalid-option" | "invalid-argument"
  | "column-length" | "canvas" | "internal";
/** The codes of RegistrationError: an argument of the wrong kind to validateRegistration. */
export type RegistrationErrorCode = "invalid-argument" | "invalid-option";
/** The codes of CaptureError: the readers' (docs/captures.md; the core's `CaptureErrorKind`), and the
 *  capture functions' argument checks ("invalid-argument", "invalid-option", "finished": a reader used
 *  after `finish` or a failure). */
export type CaptureErrorCode =
  | "not-a-capture" | "bad-header" | "wrong-cell-count" | "bad-number" | "bad-time" | "bad-quote"
  | "unsupported" | "bad-encoding" | "empty" | "no-rows" | "too-large" | "bad-json" | "bad-raw-capture"
  | "registration-invalid" | "bad-blg"
  | "invalid-argument" | "invalid-option" | "finished";
/** The codes of AnalysisError (the core's `AnalysisError::code`), and "invalid-argument" for an argument
 *  of the wrong kind. */
export type AnalysisErrorCode =
  | "bad-pack" | "unknown-pack" | "bad-expression" | "unknown-variable" | "non-numeric-variable"
  | "non-text-variable" | "invalid-option" | "bad-pal-xml" | "baseline"
  | "invalid-argument";

/** Thrown by the calculation functions (and charts' argument checks), with the field at fault. */
export class CounterTypeError extends Error {
  name: "CounterTypeError";
  code: CounterTypeErrorCode;
  field?: string;
}
/** Thrown by validateRegistration for an argument of the wrong kind (never for bad registration data). */
export class RegistrationError extends Error {
  name: "RegistrationError";
  code: RegistrationErrorCode;
  field?: string;
}
/** Thrown by the capture readers: what was expected, and where (`line`/`column` in text, `offset` in a
 *  .blg); `field` for an argument or option. */
export class CaptureError extends Error {
  name: "CaptureError";
  code: CaptureErrorCode;
  field?: string;
  line?: number; column?: number; offset?: number;
}
/** Thrown by the analysis: "bad-pack" with `pointer` (and `line`, `column` for JSON that does not read),
 *  "unknown-variable" / "non-numeric-variable" / "non-text-variable" with `variable`, "bad-pal-xml" with
 *  `file`, `line`, `column`; `field` for the argument at fault. */
export class AnalysisError extends Error {
  name: "AnalysisError";
  code: AnalysisErrorCode;
  field?: string;
  pointer?: string;
  line?: number; column?: number;
  variable?: string;
  file?: string;
}
