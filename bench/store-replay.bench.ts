/**
 * Resuming a crawl of a large store without HTTP: a store of N fetched local pages (~250 words
 * each) with 5 links a page on average, half of them to URLs not fetched yet (the frontier), is
 * written once; then, as `lse crawl` does when it starts again, the store is opened (its URL table
 * loaded), the known pages and links are read (`loadKnownPages`: the first resume of a store written
 * without near-duplicate sketches computes and saves them, "known s, first"; a resume after that
 * reads them, "known s") and the frontier is replayed into the ordering. Time and memory of each phase.
 * "open s" opens with the URL table snapshot the writer's close left; "open s, no snapshot" opens
 * again once it is deleted (the table rebuilt from every `urls` entry). "open heap MB" is the heap
 * the open store keeps: exact only with `node --expose-gc bin/run-ts.js bench/run.ts store-replay`.
 *
 *   npm run bench -- store-replay                          100k pages
 *   LSE_BENCH_REPLAY_SIZES=1000000 npm run bench -- store-replay
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlRecorder } from '../crawler/crawl-recorder.ts';
import { loadKnownPages, replayFrontier } from '../crawler/crawl-resume.ts';
import { createOrdering } from '../crawler/ordering.ts';
import { urlRules } from '../crawler/url.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import type { BenchContext } from './run.ts';
import { realWordTable, writeScaleStore, type WordTable } from './scale-corpus.ts';

export async function storeReplayBenchmarks(bench: BenchContext): Promise<void> {
  const sizes = (process.env.LSE_BENCH_REPLAY_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const table = realWordTable();
  bench.heading('resuming a crawl: open the store, read the known pages and links, replay the frontier (no HTTP)');
  const rows: Array<Array<string | number>> = [['pages', 'links', 'URLs', 'write s', 'open s', 'open heap MB', 'open s, no snapshot', 'known s, first', 'known s', 'replay s', 'heap after MB', 'RSS after MB']];
  for (const count of sizes) rows.push(await replayCase(table, count));
  bench.table(rows);
}

async function replayCase(table: WordTable, count: number): Promise<Array<string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-replay-'));
  try {
    let started = performance.now();
    const { links, urls } = await writeStore(dir, table, count);
    const writeSeconds = (performance.now() - started) / 1000;
    globalThis.gc?.();
    const heapBeforeOpen = process.memoryUsage().heapUsed;
    started = performance.now();
    const store = await CrawlStore.open(dir);
    const openSeconds = (performance.now() - started) / 1000;
    let row: Array<string | number>;
    globalThis.gc?.();
    // What the open store keeps on the heap (its URL table): run with --expose-gc for this to be exact.
    const openHeap = (process.memoryUsage().heapUsed - heapBeforeOpen) / 1e6;
    try {
      const rules = urlRules();
      started = performance.now();
      await loadKnownPages(store, new CrawlRecorder(store, { urlRules: rules, roleOf: () => 'local' }));
      const firstKnownSeconds = (performance.now() - started) / 1000;
      globalThis.gc?.();
      const recorder = new CrawlRecorder(store, { urlRules: rules, roleOf: () => 'local' });
      started = performance.now();
      const { known } = await loadKnownPages(store, recorder);
      const knownSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const ordering = createOrdering('bfs', {});
      await replayFrontier(store, ordering, [], known);
      const replaySeconds = (performance.now() - started) / 1000;
      globalThis.gc?.();
      const memory = process.memoryUsage();
      row = [count, links, urls, writeSeconds.toFixed(1), openSeconds.toFixed(1), openHeap.toFixed(0), firstKnownSeconds.toFixed(1), knownSeconds.toFixed(1), replaySeconds.toFixed(1), (memory.heapUsed / 1e6).toFixed(0), (memory.rss / 1e6).toFixed(0)];
    } finally {
      await store.close();
    }
    row.splice(6, 0, await openWithoutSnapshot(dir));
    return row;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Open seconds once the URL table snapshot is gone (rebuilt from the urls sublevel), or '-' for a store without one. */
async function openWithoutSnapshot(dir: string): Promise<string> {
  const snapshot = join(dir, 'url-table.bin');
  if (!existsSync(snapshot)) return '-';
  rmSync(snapshot);
  const started = performance.now();
  const store = await CrawlStore.open(dir);
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return seconds.toFixed(1);
}

/** N fetched local pages with their links; each page links to 5 URLs on average, half not fetched. */
function writeStore(dir: string, table: WordTable, count: number): Promise<{ links: number; urls: number }> {
  return writeScaleStore(dir, table, count, {
    seed: 5,
    words: (random) => 200 + Math.floor(random() * 100),
    targets: (random) => Array.from({ length: 1 + Math.floor(random() * 9) }, () => Math.floor(random() * count * 2)),
  });
}
