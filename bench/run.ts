/**
 * Benchmark runner (`npm run bench [-- FILTER…]`). Each suite is a `*.bench.ts` file exporting an
 * async function that takes a {@link BenchContext} and prints figures; nothing is asserted.
 *
 *   npm run bench                          every suite
 *   npm run bench -- pagerank              suites whose name contains "pagerank"
 *   npm run bench -- estimation/warm       only the cases of "estimation" whose name contains "warm"
 *   npm run bench -- --list                the suites and what they measure
 *
 * New suites (crawler, search, …) are added to {@link SUITES}.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../indexer/metrics.ts';

export interface Timing<T> {
  /** Median and fastest of the timed runs, seconds. */
  median: number;
  min: number;
  runs: number;
  /** What the last timed run returned. */
  result: T;
}

export interface BenchContext {
  /** `../shared/data` beside the clone, or undefined when it is absent. */
  readonly sharedDataDir: string | undefined;
  /** Whether a case of this suite was asked for (no case filter: every case). */
  wants(caseName: string): boolean;
  /** Runs `work` `warmup` times untimed, then `runs` times timed (awaiting promises). */
  time<T>(work: () => T | Promise<T>, options?: { runs?: number; warmup?: number }): Promise<Timing<T>>;
  /** Prints a heading for a case. */
  heading(title: string): void;
  /** Prints rows as aligned columns (first row = header). */
  table(rows: ReadonlyArray<ReadonlyArray<string | number>>): void;
  note(text: string): void;
}

type Suite = (bench: BenchContext) => Promise<void>;

interface SuiteEntry {
  load: () => Promise<Suite>;
  about: string;
}

const SUITES: Record<string, SuiteEntry> = {
  pagerank: {
    load: async () => (await import('./pagerank.bench.ts')).pageRankBenchmarks,
    about: 'PageRank of notredame: power iteration vs pageRankFast (time, iterations, edges/s, error, RSS)',
  },
  estimation: {
    load: async () => (await import('./estimation.bench.ts')).estimationBenchmarks,
    about: 'FindGlobalPR warm vs cold starts, where its time goes, SC-Select alone, the cost of each final estimate, the four-selector experiment',
  },
  crawl: {
    load: async () => (await import('./crawl.bench.ts')).crawlBenchmarks,
    about: 'crawling the demo web and a 3,200-page documentation site on loopback (servers in their own processes): pages/s, CPU ms/page, peak RSS; a bare undici + cheerio floor',
  },
  rounds: {
    load: async () => (await import('./estimation-rounds.bench.ts')).estimationRoundsBenchmarks,
    about: 'rounds that continue: hollins offline (3 rounds of E vs one of 3E), five nightly rounds on the demo web (L1 to truth), live budgets on/off vs offline, a round at 10k/100k/1M pages in F',
  },
  scale: {
    load: async () => (await import('./scale.bench.ts')).scaleBenchmarks,
    about: 'the product at scale: lse import + index of 100k pages (LSE_BENCH_SCALE_SIZES for 300k, 1M), lse serve start-up, search and suggest over HTTP, a 1 % update under load',
  },
  startup: {
    load: async () => (await import('./startup.bench.ts')).startupBenchmarks,
    about: 'lse serve start-up by phase on 100k pushed pages (LSE_BENCH_STARTUP_SIZES): store, index, catch-up, ranks, page facts (heap), suggestions',
  },
  'local-pagerank': {
    load: async () => (await import('./local-pagerank.bench.ts')).localPageRankBenchmarks,
    about: 'the event-loop pause while the local PageRank is recomputed: 100k pages, ~1M links (LSE_BENCH_LOCAL_PAGERANK_SIZES for 1M), before and with the worker thread',
  },
  'suggest-refresh': {
    load: async () => (await import('./suggest-refresh.bench.ts')).suggestRefreshBenchmarks,
    about: 'the suggestions refreshed after a rank change and after an update of 1 % of 100k pages (LSE_BENCH_SUGGEST_REFRESH_SIZES), from saved page contributions vs reading every page, and the page facts of that update: time, longest event-loop pause, file size',
  },
  'store-replay': {
    load: async () => (await import('./store-replay.bench.ts')).storeReplayBenchmarks,
    about: 'resuming a crawl without HTTP: a store of 100k pages and ~500k links (LSE_BENCH_REPLAY_SIZES for 1M), open, known pages, frontier replay: time and memory',
  },
  'candidate-pool': {
    load: async () => (await import('./candidate-pool.bench.ts')).candidatePoolBenchmarks,
    about: 'the candidate pool on the Django documentation: same top 10 as the 500-by-text pool and as blending every match, time per query',
  },
  'top-k': {
    load: async () => (await import('./top-k.bench.ts')).topKBenchmarks,
    about: 'top-k with block-max pruning and the blend prior as a static rank vs scoring every match (latency, documents and weights scored), 100k scale pages (LSE_BENCH_TOPK_SIZES, LSE_BENCH_SEGMENT_DOCS)',
  },
  'text-index': {
    load: async () => (await import('./text-index.bench.ts')).textIndexBenchmarks,
    about: 'text index: segmented vs one lunr index at 10k/50k/100k pages (build time, RSS, query p50/p99)',
  },
  'job-load': {
    load: async () => (await import('./job-load.bench.ts')).jobLoadBenchmarks,
    about: 'a crawl and a re-crawl job of `lse serve` alone and under concurrent search load: job seconds, search p50/p99 while it runs',
  },
  'search-http': {
    load: async () => (await import('./search-http.bench.ts')).searchHttpBenchmarks,
    about: 'the search API over HTTP: 1,200 long multilingual pages (snippet cost, size 10) and 100k synthetic pages: requests/s and latency (autocannon)',
  },
  'whole-pages': {
    load: async () => (await import('./whole-pages.bench.ts')).wholePagesBenchmarks,
    about: 'whole pages: the 150 biggest HTML pages of the installed Rust/PostgreSQL/Django/Sphinx docs, 20,000-character cap vs whole (build, RSS, disk, search and passages p50/p99)',
  },
  multilingual: {
    load: async () => (await import('./multilingual.bench.ts')).multilingualBenchmarks,
    about: 'recall per language on the Debian documentation in 11 languages (sampled words, CJK included)',
  },
  'search-experience': {
    load: async () => (await import('./search-experience.bench.ts')).searchExperienceBenchmarks,
    about: 'suggestions and the cost of facets on /api/search over HTTP at 10k and 100k pages; search with facets, grouping and analytics at 1,000 long pages (cases 10k, 100k, long)',
  },
  freshness: {
    load: async () => (await import('./freshness.bench.ts')).freshnessBenchmarks,
    about: 're-crawl freshness on the demo web over 30 simulated days: revisits ∝ √λ̂ vs uniform, same budget',
  },
  'query-budget': {
    load: async () => (await import('./query-budget.bench.ts')).queryBudgetBenchmarks,
    about: 'hostile queries (foo~100, leading wildcards, long fuzzy words, 200 words) on 10k pages: time and work counters against the budget',
  },
  'sitemap-parse': {
    load: async () => (await import('./sitemap-parse.bench.ts')).sitemapParseBenchmarks,
    about: 'sitemap parsing at 4/16/64 MB: whitespace-only gzip, one-line text, blank and long-loc XML, 50k URLs (seconds, MB/s)',
  },
  ranking: {
    load: async () => (await import('./ranking.bench.ts')).rankingBenchmarks,
    about: 'choosing the blend: NDCG@10 of estimate- and local-PageRank rankings against the true global PageRank, per weight',
  },
  relevance: {
    load: async () => (await import('./relevance.bench.ts')).relevanceBenchmarks,
    about: 'judged known-item queries from the indexes of real documentation (Sphinx, Django, PostgreSQL, Rust std): MRR@10, success@1/@10 of lse blend and text, the site\'s own search and Pagefind; the blend sweep (case sweep)',
  },
  'body-compression': {
    load: async () => (await import('./body-compression.bench.ts')).bodyCompressionBenchmarks,
    about: 'stored bodies compressed in deflate blocks: scale pages raw vs stored bytes and encode CPU (case scale); the biggest documentation pages per block size, ratio and window read cost (case large)',
  },
  'copied-translations': {
    load: async () => (await import('./copied-translations.bench.ts')).copiedTranslationsBenchmarks,
    about: 'search over HTTP on a crawled docs site in 11 languages with body language bars and untranslated copies (~2,570 pages): p50/p99, CPU per search, hits in the visitor language',
  },
  tokenise: {
    load: async () => (await import('./tokenise.bench.ts')).tokeniseBenchmarks,
    about: "tokenising the Debian Reference in five languages: chunks found by the scanner vs the chunk expression alone, and forEachToken, ns per chunk and per token",
  },
  'term-dictionary': {
    load: async () => (await import('./term-dictionary.bench.ts')).termDictionaryBenchmarks,
    about: "a segment's terms as byte dictionaries vs strings in the postings header: open time, heap held, full GC, lookups and walks, one segment of 100k scale pages (LSE_BENCH_TERMDICT_PAGES)",
  },
};

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function findSharedData(): string | undefined {
  const dir = resolve(repoRoot, '..', 'shared', 'data');
  return existsSync(join(dir, 'graphs')) ? dir : undefined;
}

/** Formats a number for a table: integers with separators, others to 4 significant digits. */
function formatFigure(value: string | number): string {
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e7)) return value.toExponential(3);
  return value.toPrecision(4);
}

function context(sharedDataDir: string | undefined, caseFilters: readonly string[]): BenchContext {
  return {
    sharedDataDir,
    wants: (caseName) => caseFilters.length === 0 || caseFilters.some((filter) => caseName.includes(filter)),
    async time(work, options = {}) {
      const runs = options.runs ?? 5;
      for (let w = 0; w < (options.warmup ?? 1); w++) await work();
      const seconds: number[] = [];
      let result!: Awaited<ReturnType<typeof work>>;
      for (let r = 0; r < runs; r++) {
        const started = performance.now();
        result = await work();
        seconds.push((performance.now() - started) / 1000);
      }
      return { median: median(seconds), min: Math.min(...seconds), runs, result };
    },
    heading(title) {
      console.log(`\n## ${title}`);
    },
    table(rows) {
      const cells = rows.map((row) => row.map(formatFigure));
      const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
      for (const row of cells) console.log('  ' + row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
    },
    note(text) {
      console.log(`  ${text}`);
    },
  };
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--list') || argv.includes('--help')) {
    for (const [name, entry] of Object.entries(SUITES)) console.log(`${name.padEnd(12)} ${entry.about}`);
    return;
  }
  const filters = argv.filter((arg) => !arg.startsWith('--'));
  const chosen = Object.keys(SUITES).filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter.split('/')[0])));
  if (chosen.length === 0) {
    console.error(`no suite matches ${filters.join(' ')}; suites: ${Object.keys(SUITES).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const sharedDataDir = findSharedData();
  console.log(`# benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  if (!sharedDataDir) console.log(`shared data not found at ${resolve(repoRoot, '..', 'shared', 'data')}: suites that need it print nothing`);
  for (const name of chosen) {
    const caseFilters = filters.filter((filter) => filter.startsWith(`${name}/`)).map((filter) => filter.slice(name.length + 1));
    console.log(`\n# ${name}`);
    const started = performance.now();
    const suite = await SUITES[name].load();
    await suite(context(sharedDataDir, caseFilters));
    console.log(`\n(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

await main(process.argv.slice(2));
