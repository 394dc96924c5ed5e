/**
 * The pause a server shows while it recomputes the local PageRank after an update: a store of N
 * fetched local pages (~200 words each) with 5–15 links a page among them is written once, then
 * `storeLocalPageRank` runs while a 1-ms interval timer records the longest gap between its
 * callbacks (the longest time a search request would wait) and the gaps over 50 ms. Modes: as
 * before (the pages' URLs into a Supergraph, PageRank on the main thread), the typed-array read
 * with the PageRank on the main thread (`workers: 0`), and in a worker thread (the product). Then
 * what the update's job does after it: the ranks loaded again, and the suggestions rebuilt from
 * every page, in one piece as before and served in steps (the product). An idle row measures the
 * machine's own scheduling noise over the same time.
 *
 *   node --expose-gc bin/run-ts.js bench/run.ts local-pagerank       100k pages (gc between modes)
 *   LSE_BENCH_LOCAL_PAGERANK_SIZES=1000000 npm run bench -- local-pagerank
 */
import { measurePauses } from './event-loop-pauses.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Supergraph } from '../indexer/estimation/supergraph.ts';
import { restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { loadLocalDomain } from '../server/jobs/estimation-round.ts';
import { storeLocalPageRank } from '../server/jobs/local-pagerank.ts';
import { buildSuggestions } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, type RankSnapshot } from '../indexer/ranking/search-engine.ts';
import { SuggestIndexBuilder } from '../indexer/suggest/suggest-index.ts';
import { indexableDocuments } from '../indexer/text-index/store-adapter.ts';
import type { BenchContext } from './run.ts';
import { realWordTable, writeScaleStore, type WordTable } from './scale-corpus.ts';

const ALPHA = 0.85;
const TOLERANCE = 1e-6;

export async function localPageRankBenchmarks(bench: BenchContext): Promise<void> {
  const sizes = (process.env.LSE_BENCH_LOCAL_PAGERANK_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const table = realWordTable();
  bench.heading('work after an update (local PageRank, ranks, suggestions): longest event-loop pause (1-ms timer) and total time');
  const rows: Array<Array<string | number>> = [['pages', 'links', 'mode', 'total s', 'longest pause ms', 'pauses > 50 ms', 'load avg']];
  for (const count of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'lse-bench-local-pagerank-'));
    try {
      const links = await writeStore(dir, table, count);
      const store = await CrawlStore.open(dir);
      try {
        const modes: Array<[string, () => Promise<unknown>]> = [
          ['before: URLs, Supergraph, main thread', () => storeAsBefore(store)],
          ['typed arrays, main thread (workers: 0)', () => storeLocalPageRank(store, ALPHA, TOLERANCE, { workers: 0 })],
          ['typed arrays, worker thread', () => storeLocalPageRank(store, ALPHA, TOLERANCE)],
          // What the update's job does next: the ranks loaded again, then the suggestions rebuilt from every page.
          ['ranks loaded', () => loadRankSnapshot(store)],
          ['suggestions, before: in one piece', async () => suggestionsAsBefore(store, await loadRankSnapshot(store))],
          ['suggestions, served in steps', async () => buildSuggestions(store, await loadRankSnapshot(store))],
        ];
        let longestSeconds = 0;
        for (const [mode, run] of modes) {
          globalThis.gc?.();
          const measured = await measurePauses(run);
          longestSeconds = Math.max(longestSeconds, measured.seconds);
          rows.push([count, links, mode, measured.seconds.toFixed(1), measured.longest.toFixed(0), measured.over50, loadavg()[0].toFixed(1)]);
        }
        const idle = await measurePauses(() => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, longestSeconds * 1000))));
        rows.push([count, links, 'idle (machine noise)', idle.seconds.toFixed(1), idle.longest.toFixed(0), idle.over50, loadavg()[0].toFixed(1)]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  bench.table(rows);
}

/** What `storeLocalPageRank` did before it read typed arrays and used a worker. */
async function storeAsBefore(store: CrawlStore): Promise<void> {
  const domain = await loadLocalDomain(store);
  const graph = new Supergraph(domain.pages).graph();
  const rank = restrictAndNormalise(pageRank(graph, { alpha: ALPHA, tolerance: TOLERANCE }).rank, Int32Array.from({ length: domain.pages.length }, (_, i) => i));
  await store.batch().putRanks({ name: 'local-current', version: 0, ids: domain.ids, values: rank, info: { kind: 'local-pagerank' } }).commit();
}

/** What the rebuild of the suggestions did before it served the event loop between its steps. */
async function suggestionsAsBefore(store: CrawlStore, ranks: RankSnapshot): Promise<void> {
  const builder = new SuggestIndexBuilder((id) => ranks.global.get(id) ?? 0, ranks.globalScale);
  for await (const document of indexableDocuments(store)) builder.add(document);
  builder.done();
}

/** N fetched local pages (~200 words), each linking to 5–15 of them. */
async function writeStore(dir: string, table: WordTable, count: number): Promise<number> {
  const { links } = await writeScaleStore(dir, table, count, {
    seed: 11,
    words: (random) => 150 + Math.floor(random() * 100),
    targets: (random) => Array.from({ length: 5 + Math.floor(random() * 11) }, () => Math.floor(random() * count)),
  });
  return links;
}
