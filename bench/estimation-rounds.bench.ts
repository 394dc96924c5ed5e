/**
 * Estimation rounds that continue from the last one:
 * - hollins-offline: first round of E pages, three continuing rounds of E, one run of 3E (SC, offline);
 * - demo-nightly: five nightly rounds on the demo web over HTTP (the product's defaults: SC, a
 *   budget of n pages a night, per-domain budgets on), the L1 to the true global PageRank after each;
 * - live-budgets: a live round on hollins over HTTP with the per-domain budgets on and off, against
 *   the offline run on the same local pages;
 * - scale: one continuing round (10 iterations of 100 pages) on a synthetic web with 10k, 100k
 *   and 1M global pages already in F: time, CPU time and peak memory (cases scale-10k, scale-100k,
 *   scale-1m).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load-settings.ts';
import type { Settings } from '../config/schema.ts';
import { generateDemoWeb } from '../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../crawler/demo-web/server.ts';
import { parseScope } from '../crawler/scope.ts';
import { resolveDomain } from '../indexer/estimation/domain.ts';
import { knownGraphSource, pageOfGraph } from '../indexer/estimation/experiment.ts';
import { continuationOf, findGlobalPageRank, type PageSource, type SupergraphStart } from '../indexer/estimation/find-global-pagerank.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import type { FetchedPage, PageBatch } from '../indexer/estimation/supergraph.ts';
import type { LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph } from '../indexer/graph-files.ts';
import { l1Distance, median, restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { demoTruth } from '../server/cli/demo-command.ts';
import { runEstimationRound, type RoundParameters } from '../server/jobs/estimation-round.ts';
import { newJobId } from '../server/jobs/job-id.ts';
import { urlDomain } from '../server/jobs/local-domain.ts';
import { crawlableGraph, serveGraphWeb } from '../test/helpers/graph-web.ts';
import type { BenchContext } from './run.ts';

const ALPHA = 0.85;

export async function estimationRoundsBenchmarks(bench: BenchContext): Promise<void> {
  if (bench.wants('hollins-offline')) await hollinsOffline(bench);
  if (bench.wants('demo-nightly')) await demoNightly(bench);
  if (bench.wants('live-budgets')) await liveBudgets(bench);
  if (SCALE_SIZES.some(([label]) => bench.wants(`scale-${label}`))) await scale(bench);
}

/** SC rounds on a known graph: `rounds` of `extra` pages in `iterations` each, continuing; the L1 after each. */
async function offlineRounds(graph: LinkGraph, local: Int32Array, truth: Float64Array, rounds: number, iterations: number, extra: number): Promise<number[]> {
  const target = restrictAndNormalise(truth, local);
  let start: SupergraphStart<number> | undefined;
  const l1: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const run = await findGlobalPageRank({
      localPages: Array.from(local, (p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: createSelector('sc'),
      iterations,
      extraPages: extra,
      pageRank: { alpha: ALPHA, tolerance: 1e-6 },
      start,
    });
    start = continuationOf(run, (page) => pageOfGraph(graph, page));
    l1.push(l1Distance(run.estimate, target));
  }
  return l1;
}

async function hollinsOffline(bench: BenchContext): Promise<void> {
  if (!bench.sharedDataDir) return;
  const file = (kind: string) => join(bench.sharedDataDir!, 'graphs', `hollins.${kind}.tsv.gz`);
  const web = loadWebGraph({ edges: file('edges'), nodes: file('nodes') });
  const truth = pageRank(web.graph, { alpha: ALPHA, tolerance: 1e-10, maxIterations: 10_000 }).rank;
  bench.heading('hollins offline, SC, 50 iterations a round: three continuing rounds of E against one run of 3E');
  const rows: Array<Array<string | number>> = [['domain', 'n', 'E', 'local PR', 'round 1', 'round 2', 'round 3', 'one run of 3E (150 it.)']];
  // www1.hollins.edu (5,086 pages) is left out: the graph has under 1,000 pages outside it, which one round crawls out.
  for (const spec of ['host:www.hollins.edu']) {
    const local = resolveDomain(spec, web);
    for (const multiple of [0.1, 0.5, 2]) {
      const extra = Math.round(multiple * local.length);
      const rounds = await offlineRounds(web.graph, local, truth, 3, 50, extra);
      const [long] = await offlineRounds(web.graph, local, truth, 1, 150, 3 * extra);
      const [base] = await offlineRounds(web.graph, local, truth, 1, 0, 0);
      rows.push([spec, local.length, `${multiple}n`, base.toFixed(4), ...rounds.map((x) => x.toFixed(4)), long.toFixed(4)]);
    }
  }
  bench.table(rows);
  bench.note('Three rounds end where one run of three times the pages ends (the same pages, in the same order): the continuing state is exact.');
}

/** Opens a data directory and crawls its site with the settings' crawler: what `lse crawl` does. */
async function crawledSite(settings: Settings) {
  const store = await CrawlStore.open(settings.dataDir);
  const stack = createCrawlStack(store, settings.crawler);
  const scope = parseScope(settings.crawler.scope);
  const c = settings.crawler;
  await stack.crawler.crawl({ seeds: c.seeds, scope, ordering: c.ordering, maxPages: c.maxPages, maxDepth: c.maxDepth, hostPageBudget: c.hostPageBudget, concurrency: c.concurrency, nearDuplicateThreshold: c.nearDuplicateThreshold });
  const close = async () => {
    await stack.close();
    await store.close();
  };
  return { store, stack, scope, close };
}

async function demoNightly(bench: BenchContext): Promise<void> {
  const web = generateDemoWeb();
  const server = await startDemoWebServer(web, { logRequests: false, latencyScale: 0 });
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-bench-rounds-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: { seeds: [`http://${web.localHost}/`], scope: [`host:${web.localHost}`], resolve: demoWebResolvePins(server.port), allowPrivateNetworks: true, delaySeconds: 0, maxPages: 3000 },
    },
  });
  const { store, stack, scope, close } = await crawledSite(settings);
  try {
    const context = { store, stack, settings, scope, domain: urlDomain(scope), truthOf: demoTruth(web) };
    // What the nightly schedule submits: the settings' iterations and the per-night budget.
    const nightly: RoundParameters = { selector: 'sc', iterations: settings.estimation.iterations, extra: settings.schedules.estimateBudget };
    bench.heading(`demo web, five nightly rounds (SC, ${nightly.iterations} iterations, ${nightly.extra} pages a night, per-domain budgets on)`);
    const rows: Array<Array<string | number>> = [['night', 'local pages', 'global pages in F', 'new pages', '‖f_r − f_r−1‖₁', 'L1 to truth', 'seconds']];
    let first: number | undefined;
    for (let night = 1; night <= 5; night++) {
      const round = await runEstimationRound(context, newJobId('round'), nightly);
      if (round.state !== 'done') throw new Error(`round ${night}: ${round.state} ${round.error ?? ''}`);
      first ??= round.history[0].l1ToTruth;
      rows.push([night, round.localPages, round.crawled, round.crawled - (round.startPages ?? 0), round.roundChange?.toFixed(4) ?? '–', round.l1ToTruth!.toFixed(4), ((round.finishedAt! - round.startedAt) / 1000).toFixed(1)]);
    }
    const fresh = await runEstimationRound(context, newJobId('round'), { ...nightly, fresh: true });
    bench.table(rows);
    bench.note(`local PageRank alone: L1 ${first?.toFixed(4)}; a fresh round of the same budget after the five: ${fresh.l1ToTruth?.toFixed(4)}`);
  } finally {
    await close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function liveBudgets(bench: BenchContext): Promise<void> {
  if (!bench.sharedDataDir) return;
  const file = (kind: string) => join(bench.sharedDataDir!, 'graphs', `hollins.${kind}.tsv.gz`);
  const view = crawlableGraph(loadWebGraph({ edges: file('edges'), nodes: file('nodes') }));
  const truth = pageRank(view.graph, { alpha: ALPHA, tolerance: 1e-10, maxIterations: 10_000 }).rank;
  const server = await serveGraphWeb(view);
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-budgets-'));
  const rows: Array<Array<string | number>> = [['run', 'global pages', 'L1 to truth', 'vs offline']];
  try {
    let offline: number | undefined;
    for (const budgets of [false, true]) {
      const dataDir = join(dir, budgets ? 'on' : 'off');
      const settings = loadSettings({
        env: {},
        overrides: {
          dataDir,
          crawler: { seeds: ['http://www.hollins.edu/'], scope: ['host:www.hollins.edu'], resolve: { '*:80': `127.0.0.1:${server.port}` }, allowPrivateNetworks: true, delaySeconds: 0, maxPages: 5000 },
          estimation: { pldBudgets: budgets },
        },
      });
      const { store, stack, scope, close } = await crawledSite(settings);
      try {
        const context = { store, stack, settings, scope, domain: urlDomain(scope), truthOf: (urls: readonly string[]) => Float64Array.from(urls, (u) => truth[view.pageOf.get(u) ?? -1] ?? Number.NaN) };
        // L as the crawl stored it (the round stores the in-scope pages it fetches as local too).
        const local: number[] = [];
        for await (const [, page] of store.pages()) if (page.role === 'local' && page.state === 'fetched') local.push(view.pageOf.get(page.url)!);
        const round = await runEstimationRound(context, newJobId('round'), { selector: 'sc', estimator: 'supergraph', iterations: 50, extra: '2n' });
        if (offline === undefined) {
          const domain = Int32Array.from(local).sort();
          const run = await findGlobalPageRank({
            localPages: Array.from(domain, (p) => pageOfGraph(view.graph, p)),
            source: knownGraphSource(view.graph),
            selector: createSelector('sc'),
            iterations: 50,
            extraPages: 2 * domain.length,
            pageRank: { alpha: ALPHA, tolerance: 1e-6 },
          });
          offline = l1Distance(run.estimate, restrictAndNormalise(truth, domain));
          rows.push([`offline (${domain.length} local pages)`, run.supergraph.size - run.supergraph.localCount, offline.toFixed(4), '']);
        }
        rows.push([`live, budgets ${budgets ? 'on' : 'off'}`, round.crawled, round.l1ToTruth!.toFixed(4), `${(round.l1ToTruth! - offline).toExponential(2)}`]);
      } finally {
        await close();
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  bench.heading('hollins www.hollins.edu over HTTP: a live SC round (2n, 50 iterations) with per-domain budgets off and on, against offline');
  bench.table(rows);
}

/**
 * A synthetic web: page `p` links to 8 pages drawn by a hash of `p`, half near it (a site) and
 * half anywhere below `4·size` (the wider web), so F keeps a frontier to grow into. Written to
 * `out[at … at+8)`.
 */
function syntheticLinks(p: number, size: number, out: Int32Array, at: number): void {
  let h = Math.imul(p + 1, 0x9e3779b1);
  for (let l = 0; l < 8; l++) {
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    h ^= h >>> 13;
    const r = (h >>> 0) / 2 ** 32;
    out[at + l] = l < 4 ? Math.max(0, p - 50 + Math.floor(r * 100)) : Math.floor(r * 4 * size);
  }
}

function syntheticPage(p: number, size: number): FetchedPage<number> {
  const links = new Int32Array(8);
  syntheticLinks(p, size, links, 0);
  return { key: p, links };
}

/** Pages `first … first+count-1` of the synthetic web as one batch, as a round's start passes them (no object per page). */
function syntheticBatch(first: number, count: number, size: number): PageBatch<number> {
  const keys = new Int32Array(count);
  const links = new Int32Array(8 * count);
  for (let i = 0; i < count; i++) {
    keys[i] = first + i;
    syntheticLinks(first + i, size, links, 8 * i);
  }
  return { keys, linkOffsets: Int32Array.from({ length: count + 1 }, (_, i) => 8 * i), links };
}

/** The cases of `scale`: `rounds/scale` runs them all, `rounds/scale-100k` one. */
const SCALE_SIZES = [['10k', 10_000], ['100k', 100_000], ['1m', 1_000_000]] as const;

async function scale(bench: BenchContext): Promise<void> {
  bench.heading('one continuing round (SC, 10 iterations of 100 pages) with N global pages already in F (synthetic web, 1,000 local pages)');
  const rows: Array<Array<string | number>> = [['N in F', 'links in F', 'rebuild F + PageRank s', 'iterations s', 'iterations CPU s', 'median iteration s', 'peak RSS MB', 'heap MB']];
  for (const [label, size] of SCALE_SIZES) {
    if (!bench.wants(`scale-${label}`)) continue;
    const source: PageSource<number> = { fetchPages: async (keys) => keys.map((k) => syntheticPage(k, size)) };
    const local = Array.from({ length: 1000 }, (_, i) => syntheticPage(i, size));
    const globalPages = syntheticBatch(1000, size, size);
    let peak = process.memoryUsage().rss;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    let ready = 0;
    let readyCpu = process.cpuUsage();
    let edges = 0;
    const run = await findGlobalPageRank({
      localPages: local,
      source,
      selector: createSelector('sc'),
      iterations: 10,
      extraPages: 1000,
      pageRank: { alpha: ALPHA, tolerance: 1e-6 },
      start: { globalPages },
      onIteration: ({ record, supergraph }) => {
        if (record.iteration === 0) {
          ready = performance.now();
          readyCpu = process.cpuUsage();
          edges = supergraph.graph().edgeCount;
        }
        peak = Math.max(peak, process.memoryUsage().rss);
      },
    });
    clearInterval(sample);
    const done = performance.now();
    const cpu = process.cpuUsage(readyCpu);
    rows.push([size.toLocaleString('en'), edges.toLocaleString('en'), ((ready - started) / 1000).toFixed(1), ((done - ready) / 1000).toFixed(1), ((cpu.user + cpu.system) / 1e6).toFixed(1), (median(run.records.slice(1).map((r) => r.ms)) / 1000).toFixed(2), (peak / 2 ** 20).toFixed(0), (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)]);
  }
  bench.table(rows);
}
