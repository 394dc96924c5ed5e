/**
 * The text index at 10k / 50k / 100k synthetic pages (300 words, Zipf vocabulary of 4,000 words,
 * titles, headings, URL words) against one lunr index over the same pages. Each case runs in its
 * own process so that peak RSS is the case's own. Figures per case: build seconds and CPU seconds
 * of all threads (segments are built by 2 worker threads and written to disk), peak RSS, index size on disk, reload seconds,
 * query latency p50/p99 over 200 queries ("all" = every word required, with the OR fallback;
 * "any" = OR), and, at 10k, precision@10 of the two query mappings on three kinds of topic query.
 *
 *   npm run bench -- text-index                     (once registered in bench/run.ts)
 *   node bin/run-ts.js bench/text-index.bench.ts    (standalone; add sizes: 10000 50000)
 *   LSE_BENCH_SEGMENT_DOCS=10000 …                  (pages per segment of the segmented case; default 1,000)
 *
 * The segmented build includes the tiered merges that follow it (merge-policy.ts). Cases
 * `merge-N` (N ≥ 50k) build without merging, then merge in the background while the main thread
 * searches: merge time, the longest event-loop pause, and query latency before and after.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import lunr from 'lunr';
import { buildLunrSegment } from '../indexer/text-index/lunr-segment.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { syntheticCorpus, syntheticGenerator, zipfSampler } from '../indexer/text-index/synthetic-documents.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import type { BenchContext } from './run.ts';
import { compareCjkSegmentation } from './cjk-segmentation.ts';
import { debianCorpus } from './multilingual-recall.ts';

const CASE_FLAG = '--text-index-case';
const SEED = 2024;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface CaseResult {
  kind: 'segmented' | 'single';
  pages: number;
  buildSeconds: number;
  /** CPU seconds of all threads during the build (wall time depends on what else runs). */
  buildCpuSeconds: number;
  peakRssMb: number;
  diskMb?: number;
  reloadSeconds?: number;
  segments?: number;
  allP50?: number;
  allP99?: number;
  anyP50: number;
  anyP99: number;
  precision?: Array<{ kind: string; all: number; any: number }>;
}

export function* pages(count: number): Generator<TextDocument> {
  const generator = syntheticGenerator({ seed: SEED });
  for (let i = 0; i < count; i++) yield generator.next().document;
}

/** 200 queries of the kinds people type: topic words, a topic word and a common word, single words. */
export function benchmarkQueries(): string[] {
  const { vocabulary, topicWords } = syntheticGenerator({ seed: SEED });
  const random = seededRandom(99);
  const zipf = zipfSampler(vocabulary.length, random);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  return Array.from({ length: 200 }, (_, i) => {
    const topic = pick(topicWords);
    switch (i % 10) {
      case 0: case 1: case 2: case 3: return `${pick(topic)} ${pick(topic)}`;
      case 4: case 5: case 6: return `${pick(topic)} ${vocabulary[50 + Math.floor(random() * 950)]}`;
      case 7: case 8: return vocabulary[Math.min(vocabulary.length - 1, 20 + zipf())];
      default: return `${pick(topic)} ${pick(topic)} ${vocabulary[zipf()]}`;
    }
  });
}

function percentiles(millis: number[]): { p50: number; p99: number } {
  const sorted = [...millis].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] };
}

function latency(queries: readonly string[], run: (query: string) => unknown): { p50: number; p99: number } {
  for (const query of queries.slice(0, 20)) run(query);
  return percentiles(
    queries.map((query) => {
      const started = performance.now();
      run(query);
      return performance.now() - started;
    }),
  );
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

function directoryMb(dir: string): number {
  return readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0) / 1e6;
}

/** Precision@10 of topic queries: share of the top 10 that are about the query's topic. */
async function queryMappingPrecision(): Promise<Array<{ kind: string; all: number; any: number }>> {
  const corpus = syntheticCorpus({ count: 10_000, seed: SEED + 1 });
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-precision-'));
  const index = await TextIndex.open(dir, { workers: 2 });
  try {
    await index.rebuild(corpus.documents);
    const random = seededRandom(7);
    const kinds: Array<{ kind: string; query: (words: string[]) => string }> = [
      { kind: 'two topic words', query: (words) => `${words[Math.floor(random() * 12)]} ${words[Math.floor(random() * 12)]}` },
      { kind: 'topic word + common word', query: (words) => `${words[Math.floor(random() * 12)]} ${corpus.vocabulary[Math.floor(random() * 30)]}` },
      { kind: 'topic word + unrelated word', query: (words) => `${words[Math.floor(random() * 12)]} ${corpus.vocabulary[300 + Math.floor(random() * 3000)]}` },
    ];
    return kinds.map(({ kind, query }) => {
      const scores = { all: 0, any: 0 };
      const n = 100;
      for (let q = 0; q < n; q++) {
        const topic = Math.floor(random() * corpus.topicWords.length);
        const text = query(corpus.topicWords[topic]);
        for (const mode of ['all', 'any'] as const) {
          const hits = index.search(text, { mode, limit: 10 }).hits;
          scores[mode] += hits.filter((hit) => corpus.topicOf[hit.id] === topic).length / 10;
        }
      }
      return { kind, all: scores.all / n, any: scores.any / n };
    });
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function segmentedCase(count: number): Promise<CaseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-text-'));
  try {
    const segmentDocs = Number(process.env.LSE_BENCH_SEGMENT_DOCS ?? 1000);
    const index = await TextIndex.open(dir, { workers: 2, maxSegmentDocs: segmentDocs });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await index.rebuild(pages(count));
    const buildSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await index.close();
    const reloadStarted = performance.now();
    const reloaded = await TextIndex.open(dir, { workers: 2, maxSegmentDocs: segmentDocs });
    const reloadSeconds = (performance.now() - reloadStarted) / 1000;
    const queries = benchmarkQueries();
    const all = latency(queries, (query) => reloaded.search(query, { mode: 'all' }));
    const any = latency(queries, (query) => reloaded.search(query, { mode: 'any' }));
    const segments = reloaded.info().segments.length;
    await reloaded.close();
    const precision = count === 10_000 ? await queryMappingPrecision() : undefined;
    return {
      kind: 'segmented',
      pages: count,
      buildSeconds,
      buildCpuSeconds: (cpu.user + cpu.system) / 1e6,
      peakRssMb: peakRssMb(),
      diskMb: directoryMb(join(dir, 'index')),
      reloadSeconds,
      segments,
      allP50: all.p50,
      allP99: all.p99,
      anyP50: any.p50,
      anyP99: any.p99,
      precision,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface MergeCaseResult {
  pages: number;
  segmentsBefore: number;
  segmentsAfter: number;
  mergeSeconds: number;
  mergeCpuSeconds: number;
  /** Searches run on the main thread while the merge ran, their p99 and the longest event-loop pause. */
  searchesDuring: number;
  duringP99: number;
  maxPauseMs: number;
  beforeAll: { p50: number; p99: number };
  afterAll: { p50: number; p99: number };
  peakRssMb: number;
  diskMbAfter: number;
}

/**
 * Case `merge-N`: N pages built in segments of 1,000 without merging, then merged by the tiered
 * policy in the background (2 workers) while the main thread searches: how long the merge takes,
 * the longest pause of the event loop meanwhile, and query latency before and after.
 */
async function mergeCase(count: number): Promise<MergeCaseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-merge-'));
  try {
    const segmentDocs = Number(process.env.LSE_BENCH_SEGMENT_DOCS ?? 1000);
    const index = await TextIndex.open(dir, { workers: 2, maxSegmentDocs: segmentDocs, autoMerge: false });
    await index.rebuild(pages(count));
    const queries = benchmarkQueries();
    const segmentsBefore = index.info().segments.length;
    const beforeAll = latency(queries, (query) => index.search(query, { mode: 'all' }));
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let done = false;
    const merging = index.merge({ force: false }).finally(() => (done = true));
    const during: number[] = [];
    let maxGap = 0;
    let last = performance.now();
    delay.enable();
    for (let i = 0; !done; i++) {
      const at = performance.now();
      maxGap = Math.max(maxGap, at - last);
      index.search(queries[i % queries.length], { mode: 'all' });
      during.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 1));
      last = performance.now();
    }
    delay.disable();
    await merging;
    const mergeSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const afterAll = latency(queries, (query) => index.search(query, { mode: 'all' }));
    const segmentsAfter = index.info().segments.length;
    await index.close();
    return {
      pages: count, segmentsBefore, segmentsAfter, mergeSeconds, mergeCpuSeconds: (cpu.user + cpu.system) / 1e6,
      searchesDuring: during.length, duringP99: percentiles(during).p99, maxPauseMs: Math.max(maxGap, delay.max / 1e6),
      beforeAll, afterAll, peakRssMb: peakRssMb(), diskMbAfter: directoryMb(join(dir, 'index')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function singleCase(count: number): CaseResult {
  const documents = [...pages(count)];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const index = lunr.Index.load(buildLunrSegment(documents).lunr as unknown as object);
  const buildSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const any = latency(benchmarkQueries(), (query) => index.search(query));
  return { kind: 'single', pages: count, buildSeconds, buildCpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb: peakRssMb(), anyP50: any.p50, anyP99: any.p99 };
}

/** Runs one case in a child process (fresh heap, own peak RSS) and returns its figures. */
function runCase(kind: 'segmented' | 'single', count: number): CaseResult | string;
function runCase(kind: 'merge', count: number): MergeCaseResult | string;
function runCase(kind: 'segmented' | 'single' | 'merge', count: number): CaseResult | MergeCaseResult | string {
  const child = spawnSync(
    process.execPath,
    ['--max-old-space-size=6144', join(repoRoot, 'bin', 'run-ts.js'), fileURLToPath(import.meta.url), CASE_FLAG, kind, String(count)],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 20 * 60_000 },
  );
  const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
  if (child.status !== 0 || !line) return `failed (${child.status ?? child.signal}): ${child.stderr.trim().split('\n').slice(-3).join(' / ')}`;
  return JSON.parse(line) as CaseResult | MergeCaseResult;
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? '' : value.toFixed(digits));

export async function textIndexBenchmarks(bench: BenchContext, sizes: readonly number[] = [10_000, 50_000, 100_000]): Promise<void> {
  bench.heading('text index: segmented (1,000 pages per segment, 2 workers, global BM25) vs one lunr index');
  const rows: Array<Array<string | number>> = [
    ['case', 'pages', 'build s', 'build CPU s', 'peak RSS MB', 'disk MB', 'reload s', 'segments', 'all p50 ms', 'all p99 ms', 'any p50 ms', 'any p99 ms'],
  ];
  const notes: string[] = [];
  for (const count of sizes) {
    for (const kind of ['segmented', 'single'] as const) {
      if (!bench.wants(`${kind}-${count}`)) continue;
      // One lunr index over 100k pages would need well over 3 GB: skipped.
      if (kind === 'single' && count > 50_000) {
        notes.push(`single lunr index at ${count} pages skipped (heap would exceed ~3 GB)`);
        continue;
      }
      const result = runCase(kind, count);
      if (typeof result === 'string') {
        rows.push([kind, count, result]);
        continue;
      }
      rows.push([
        kind, count, fixed(result.buildSeconds), fixed(result.buildCpuSeconds), result.peakRssMb, fixed(result.diskMb), fixed(result.reloadSeconds), result.segments ?? '',
        fixed(result.allP50, 2), fixed(result.allP99, 2), fixed(result.anyP50, 2), fixed(result.anyP99, 2),
      ]);
      for (const p of result.precision ?? []) {
        notes.push(`query mapping at 10k pages, 100 queries "${p.kind}": precision@10 all = ${p.all.toFixed(3)}, any = ${p.any.toFixed(3)}`);
      }
    }
  }
  bench.table(rows.map((row) => row.map((cell) => (cell === undefined ? '' : cell))));
  for (const note of notes) bench.note(note);
  mergeCases(bench, sizes);
  if (bench.wants('cjk')) cjkSegmentationCase(bench);
  bench.note('single = lunr.Index#search (lunr syntax, OR); its build is one thread, no disk. Peak RSS includes the generated pages.');
  bench.note(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (other processes share the cores)`);
}

/** The merge cases (50k pages and more; `text-index/merge` runs them alone). */
function mergeCases(bench: BenchContext, sizes: readonly number[]): void {
  const wanted = sizes.filter((count) => count >= 50_000 && bench.wants(`merge-${count}`));
  if (wanted.length === 0) return;
  bench.heading('text index: tiered merge of segments of 1,000 pages, in the background while the main thread searches');
  const rows: Array<Array<string | number>> = [
    ['pages', 'segments', 'merge s', 'merge CPU s', 'searches during', 'p99 during ms', 'max pause ms', 'all p50/p99 before ms', 'all p50/p99 after ms', 'peak RSS MB', 'disk MB after'],
  ];
  for (const count of wanted) {
    const r = runCase('merge', count);
    if (typeof r === 'string') {
      rows.push([count, r]);
      continue;
    }
    rows.push([
      count, `${r.segmentsBefore} → ${r.segmentsAfter}`, fixed(r.mergeSeconds), fixed(r.mergeCpuSeconds), r.searchesDuring, fixed(r.duringP99, 2), fixed(r.maxPauseMs, 1),
      `${fixed(r.beforeAll.p50, 2)} / ${fixed(r.beforeAll.p99, 2)}`, `${fixed(r.afterAll.p50, 2)} / ${fixed(r.afterAll.p99, 2)}`, r.peakRssMb, fixed(r.diskMbAfter),
    ]);
  }
  bench.table(rows);
}

/** Standalone use and the per-case child process. */
async function main(argv: readonly string[]): Promise<void> {
  const at = argv.indexOf(CASE_FLAG);
  if (at >= 0) {
    const kind = argv[at + 1];
    const count = Number(argv[at + 2]);
    const result = kind === 'single' ? singleCase(count) : kind === 'merge' ? await mergeCase(count) : await segmentedCase(count);
    console.log(JSON.stringify(result));
    return;
  }
  const sizes = argv.map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const table = (rows: ReadonlyArray<ReadonlyArray<string | number>>) => {
    const cells = rows.map((row) => row.map(String));
    const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
    for (const row of cells) console.log('  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
  };
  const standalone: BenchContext = {
    sharedDataDir: undefined,
    wants: () => true,
    time: async (work) => ({ median: 0, min: 0, runs: 1, result: await work() }),
    heading: (title) => console.log(`\n## ${title}`),
    table,
    note: (text) => console.log(`  ${text}`),
  };
  await textIndexBenchmarks(standalone, sizes.length > 0 ? sizes : undefined);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));

/** Case `cjk`: character bigrams against Intl.Segmenter words on the Debian documentation. */
function cjkSegmentationCase(bench: BenchContext): void {
  const { docs } = debianCorpus();
  if (docs.length === 0) {
    bench.note('cjk: the Debian documentation is not installed (.ci/run installs it); skipped');
    return;
  }
  bench.heading('CJK segmentation on the Debian documentation: character bigrams vs Intl.Segmenter words');
  const rows: Array<Array<string | number>> = [['lang', 'method', 'queries', 'pages', 'recall', 'precision@10', 'terms', 'postings', 'positions']];
  for (const f of compareCjkSegmentation(docs)) {
    rows.push([f.lang, f.method, `${f.queries} ${f.kind}`, f.pages, `${(f.recall * 100).toFixed(1)} %`, f.precisionAt10.toFixed(3), f.terms, f.postings, f.positions]);
  }
  bench.table(rows);
}
