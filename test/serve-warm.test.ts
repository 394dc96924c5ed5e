/**
 * `lse serve` reads the longest postings lists before it listens, until index.warmUntilMs after
 * its start (the process's; here, the call to serveStore): on a site whose common words have
 * lists past the warming's threshold, the server starts with them read; with the setting at 0,
 * or a start that has spent it already, it starts cold.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { LONG_LIST } from '../indexer/text-index/block-bounds.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { main } from '../server/cli/main.ts';
import { serveStore } from '../server/cli/serve-command.ts';

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

async function servedWith(dataDir: string, warmUntilMs?: number, startedAt?: number) {
  const warm = vi.spyOn(TextIndex.prototype, 'warmLongestLists');
  const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, ...(warmUntilMs === undefined ? {} : { index: { warmUntilMs } }) } });
  const store = await CrawlStore.open(dataDir);
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'serve-warm-token-0123456789', startedAt });
  try {
    const answer = (await (await fetch(`${serving.url}/api/search?q=manual`)).json()) as { total: number };
    return { calls: warm.mock.calls, results: await Promise.all(warm.mock.results.map((r) => r.value)), total: answer.total };
  } finally {
    warm.mockRestore();
    await serving.close();
    await store.close();
  }
}

describe('lse serve warming its index', () => {
  it('reads the long lists before it answers, until 7 s after its start', async () => {
    const dataDir = await importedSite();
    const { calls, results, total } = await servedWith(dataDir);
    // What opening left of the 7 s.
    expect(calls).toHaveLength(1);
    expect(calls[0][0]).toBeGreaterThan(0);
    expect(calls[0][0]).toBeLessThan(7_000);
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
      expect(cold.total).toBe(LONG_LIST + 100);
    }
  }, 60_000);
});
