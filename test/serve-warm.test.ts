/**
 * `lse serve` reads the longest postings lists before it listens, until index.warmUntilMs after
 * its start (the process's; here, the call to serveStore), less the last index.warmSearchesMs: on
 * a site whose common words have lists past the warming's threshold, the server starts with them
 * read; with the setting at 0, or a start that has spent it already, it starts cold. Then it runs
 * warming searches until that deadline: the site's popular queries, then its frequent words, none
 * of them recorded as a visitor's search.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { SearchEngine } from '../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { LONG_LIST } from '../indexer/text-index/block-bounds.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { main } from '../server/cli/main.ts';
import { serveStore } from '../server/cli/serve-command.ts';
import { SearchAnalytics } from '../server/search-admin/analytics.ts';
import { REHEARSED_SEARCHES } from '../server/warming-searches.ts';

const root = mkdtempSync(join(tmpdir(), 'lse-serve-warm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A data directory of imported pages that all hold the words "manual" and "page". */
async function importedSite(): Promise<string> {
  const dataDir = join(root, `data-${Math.random().toString(36).slice(2)}`);
  const file = `${dataDir}.jsonl`;
  const pages = Array.from({ length: LONG_LIST + 100 }, (_, i) =>
    JSON.stringify({ url: `https://docs.example.org/p${i}`, title: `Manual page ${i}`, body: `This manual page ${i} explains option ${i % 37} of the tool.` }),
  );
  writeFileSync(file, `${pages.join('\n')}\n`);
  // One segment holds every page (the default size would cut them under the threshold).
  const config = `${dataDir}.json`;
  writeFileSync(config, JSON.stringify({ dataDir, index: { segmentSize: 2 * LONG_LIST } }));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await main(['import', '--config', config, file])).toBe(0);
  } finally {
    vi.restoreAllMocks();
  }
  return dataDir;
}

async function servedWith(dataDir: string, warmUntilMs?: number, startedAt?: number, warmSearchesMs?: number) {
  const warm = vi.spyOn(TextIndex.prototype, 'warmLongestLists');
  const search = vi.spyOn(SearchEngine.prototype, 'search');
  const rehearse = vi.spyOn(TextIndex.prototype, 'rehearseDeletions');
  const index = { ...(warmUntilMs === undefined ? {} : { warmUntilMs }), ...(warmSearchesMs === undefined ? {} : { warmSearchesMs }) };
  const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, index } });
  const store = await CrawlStore.open(dataDir);
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'serve-warm-token-0123456789', startedAt });
  try {
    const warmingSearches = search.mock.calls.map(([query]) => query.q);
    const answer = (await (await fetch(`${serving.url}/api/search?q=manual`)).json()) as { total: number };
    const rehearsed = { queries: rehearse.mock.calls.map(([queries]) => queries), results: await Promise.all(rehearse.mock.results.map((r) => r.value)) };
    return { calls: warm.mock.calls, results: await Promise.all(warm.mock.results.map((r) => r.value)), total: answer.total, warmingSearches, rehearsed };
  } finally {
    warm.mockRestore();
    search.mockRestore();
    rehearse.mockRestore();
    await serving.close();
    await store.close();
  }
}

describe('lse serve warming its index', () => {
  it('reads the long lists before it answers, until 6 s after its start (the last second is the searches\')', async () => {
    const dataDir = await importedSite();
    const { calls, results, total } = await servedWith(dataDir);
    // What opening left of the 6 s.
    expect(calls).toHaveLength(1);
    expect(calls[0][0]).toBeGreaterThan(0);
    expect(calls[0][0]).toBeLessThan(6_000);
    // The words every page holds ("manual" and "page" in the title and the body, the body's
    // other words, the host in the URL): each a list of every page, all read.
    const { lists } = results[0] as { lists: number };
    expect(lists).toBeGreaterThanOrEqual(4);
    expect(results[0]).toEqual({ lists, bytes: lists * (LONG_LIST + 100) * 6, stoppedAtBudget: false });
    expect(total).toBe(LONG_LIST + 100);
    // Off, spent by opening, and spent before serving began: no warming, the same answers.
    for (const [warmUntilMs, startedAt] of [[0], [1], [undefined, performance.now() - 7_000]]) {
      const cold = await servedWith(dataDir, warmUntilMs, startedAt);
      expect(cold.calls).toEqual([]);
      expect(cold.warmingSearches).toEqual([]);
      expect(cold.total).toBe(LONG_LIST + 100);
    }
  }, 60_000);

  it('searches the popular queries, then the frequent words, before it answers, recording none', async () => {
    const dataDir = await importedSite();
    const options = { retentionDays: 90, maxRecordsPerDay: 1_000 };
    const seeded = await SearchAnalytics.open(dataDir, options);
    for (const query of ['tool option', 'tool option', 'tool option', 'manual', 'manual', 'once only']) seeded.recordSearch(query, undefined, 3);
    await seeded.flush();

    const { warmingSearches, total, rehearsed } = await servedWith(dataDir);
    expect(total).toBe(LONG_LIST + 100);
    // The first of them also ran first on a copy of the index with deleted pages in each segment.
    expect(rehearsed.queries).toEqual([warmingSearches.slice(0, REHEARSED_SEARCHES)]);
    expect(rehearsed.results).toEqual([{ searches: Math.min(warmingSearches.length, REHEARSED_SEARCHES), segments: 1, liveCounts: expect.any(Number) }]);
    expect(rehearsed.results[0].liveCounts).toBeGreaterThan(0);
    // A query searched once is not a popular one.
    expect(warmingSearches.slice(0, 2)).toEqual(['tool option', 'manual']);
    const rest = warmingSearches.slice(2);
    expect(rest.length).toBeGreaterThan(3);
    // The words every page's body holds: their stems.
    expect(new Set(rest.flatMap((q) => q.split(' ')))).toEqual(new Set(['explain', 'manual', 'option', 'page', 'tool']));
    const after = await SearchAnalytics.open(dataDir, options);
    expect(after.summary(1).searches).toBe(6 + 1);

    // Off: the lists only.
    const listsOnly = await servedWith(dataDir, undefined, undefined, 0);
    expect(listsOnly.warmingSearches).toEqual([]);
    expect(listsOnly.rehearsed.queries).toEqual([]);
    expect(listsOnly.calls).toHaveLength(1);
  }, 60_000);
});
