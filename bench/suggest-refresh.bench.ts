/**
 * What the suggestions' refresh costs a server after an update or a rank change: a store of N
 * fetched local pages (~200 words of Zipf vocabulary from real text), then, while a 1-ms interval
 * timer records the longest gap between its callbacks (the longest a search would wait):
 *   - the rebuild as before, reading and tokenising every page (SuggestIndexBuilder in one piece);
 *   - the full read in steps, as when no page contributions are saved (it saves them);
 *   - a rank change: the index computed from the saved contributions, no page read;
 *   - an update of 1 % of the pages (written before the timer starts): those pages read again;
 *   - the page facts refreshed for the same 1 % (facets, copies and translations; a server's job
 *     does it beside the suggestions): the table copied in steps, the pages' rows changed;
 *   - an idle stretch: the machine's own scheduling noise.
 * Also the size of the saved contributions file beside the suggestion index.
 *
 *   npm run bench -- suggest-refresh                               100k pages
 *   LSE_BENCH_SUGGEST_REFRESH_SIZES=1000000 LSE_BENCH_SUGGEST_REFRESH_BEFORE=0 npm run bench -- suggest-refresh
 *                                                                   (without the rebuild as before)
 */
import { measurePauses } from './event-loop-pauses.ts';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPageFacts, refreshPageFacts } from '../indexer/ranking/page-facts.ts';
import { buildSuggestions } from '../indexer/ranking/search-data.ts';
import { rankSnapshot, type RankSnapshot } from '../indexer/ranking/search-engine.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { SuggestIndexBuilder } from '../indexer/suggest/suggest-index.ts';
import { indexableDocuments } from '../indexer/text-index/store-adapter.ts';
import type { BenchContext } from './run.ts';
import { drawWord, realWordTable, scaleUrl, writeScaleStore, type WordTable } from './scale-corpus.ts';

export async function suggestRefreshBenchmarks(bench: BenchContext): Promise<void> {
  const sizes = (process.env.LSE_BENCH_SUGGEST_REFRESH_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const table = realWordTable();
  bench.heading('suggestions (and page facts) refreshed after an update or a rank change: total time, longest event-loop pause (1-ms timer), RSS');
  const rows: Array<Array<string | number>> = [['pages', 'refresh', 'total s', 'longest pause ms', 'pauses > 50 ms', 'most CPU ms in a pause', 'RSS MB', 'load avg']];
  const withBefore = process.env.LSE_BENCH_SUGGEST_REFRESH_BEFORE !== '0';
  for (const count of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'lse-bench-suggest-refresh-'));
    try {
      await writeScaleStore(dir, table, count, { seed: 11, words: (random) => 150 + Math.floor(random() * 100), targets: () => [] });
      const store = await CrawlStore.open(dir);
      try {
        const ranks = await ranksOf(store, 1);
        const otherRanks = await ranksOf(store, 2);
        const modes: Array<[string, () => Promise<unknown>, (() => Promise<unknown>)?]> = [
          ...(withBefore ? [['before: every page read, in one piece', () => suggestionsAsBefore(store, ranks)] as [string, () => Promise<unknown>]] : []),
          ['every page read, in steps (no saved contributions)', () => buildSuggestions(store, ranks), () => Promise.resolve(rmSync(join(dir, 'suggest', 'contributions.bin'), { force: true }))],
          ['ranks changed: from the contributions, no page read', () => buildSuggestions(store, otherRanks)],
          ['1 % of the pages updated: those read again', () => buildSuggestions(store, ranks), () => updatePages(store, table, count)],
        ];
        for (const [mode, run, prepare] of modes) {
          await prepare?.();
          globalThis.gc?.();
          const measured = await measurePauses(run);
          rows.push([count, mode, measured.seconds.toFixed(1), measured.longest.toFixed(0), measured.over50, measured.busiest.toFixed(0), (process.memoryUsage().rss / 2 ** 20).toFixed(0), loadavg()[0].toFixed(1)]);
        }
        // The page facts of the same update: loaded first (a server holds them), then refreshed.
        const facts = await loadPageFacts(store);
        const updated = updatedUrls(count).map((url) => store.idOf(url)!);
        globalThis.gc?.();
        const refreshed = await measurePauses(() => refreshPageFacts(facts, store, updated));
        rows.push([count, 'page facts of the 1 % updated: the table copied in steps', refreshed.seconds.toFixed(1), refreshed.longest.toFixed(0), refreshed.over50, refreshed.busiest.toFixed(0), (process.memoryUsage().rss / 2 ** 20).toFixed(0), loadavg()[0].toFixed(1)]);
        const idle = await measurePauses(() => new Promise((resolve) => setTimeout(resolve, 3000)));
        rows.push([count, 'idle 3 s (machine noise)', idle.seconds.toFixed(1), idle.longest.toFixed(0), idle.over50, idle.busiest.toFixed(0), '', loadavg()[0].toFixed(1)]);
        const size = (name: string) => (statSync(join(dir, 'suggest', name)).size / 2 ** 20).toFixed(1);
        rows.push([count, `files: contributions.bin ${size('contributions.bin')} MB, suggestions.bin ${size('suggestions.bin')} MB`, '', '', '', '', '', '']);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  bench.table(rows);
}

/** Ranks for every page (a tenth without one), drawn from a seed. */
async function ranksOf(store: CrawlStore, seed: number): Promise<RankSnapshot> {
  const random = seededRandom(seed);
  const ids: number[] = [];
  for await (const [id] of store.pages()) ids.push(id);
  const values = ids.map(() => (random() < 0.1 ? 0 : random() ** 3));
  return rankSnapshot(seed, ids, values, values);
}

/** The URLs {@link updatePages} rewrites: 1 % of the pages, spread over the ids. */
const updatedUrls = (count: number) => Array.from({ length: Math.ceil(count / 100) }, (_, k) => scaleUrl(k * 100));

/** Rewrites 1 % of the pages (spread over the ids) with other words and titles. */
async function updatePages(store: CrawlStore, table: WordTable, count: number): Promise<void> {
  const random = seededRandom(99);
  let batch = store.batch();
  for (const [k, url] of updatedUrls(count).entries()) {
    const words = Array.from({ length: 150 + Math.floor(random() * 100) }, () => drawWord(table, random));
    batch.putPage(batch.idFor(url), { url, host: 'big.example.org', role: 'local', state: 'fetched', status: 200, fetchedAt: 2, depth: 1, title: `updated ${words.slice(0, 5).join(' ')}`, text: words.join(' '), fingerprint: `u${k * 100}`, visits: 2, changes: 1 });
    if (batch.size >= 2000) {
      await batch.commit({ sync: false });
      batch = store.batch();
    }
  }
  await batch.commit();
}

/** What the rebuild of the suggestions did before: every page read and tokenised, then finished in one piece. */
async function suggestionsAsBefore(store: CrawlStore, ranks: RankSnapshot): Promise<void> {
  const builder = new SuggestIndexBuilder((id) => ranks.global.get(id) ?? 0, ranks.globalScale);
  for await (const document of indexableDocuments(store)) builder.add(document);
  builder.done();
}
