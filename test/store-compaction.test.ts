/** Compacting the store drops what LevelDB keeps of pages written over until its own compactions run. */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { compactStore } from '../server/cli/store-compaction.ts';

/** Bytes of the database's tables and log. */
function tableBytes(dir: string): number {
  return readdirSync(dir).filter((f) => f.endsWith('.ldb') || f.endsWith('.log')).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

describe('store compaction', () => {
  it('leaves the pages as they were and the tables smaller after pages were written over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-compact-'));
    const store = await CrawlStore.open(dir);
    try {
      const page = (n: number, round: number): PageRecord => ({ url: `http://site.test/${n}`, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt: round, depth: 1, visits: round, changes: 0, title: `Page ${n}`, text: `Round ${round} of page ${n}: ${'words about otters and rivers '.repeat(20)}` });
      // Three rounds of the same 1,000 pages: LevelDB keeps the earlier versions until it compacts.
      // Together under its 4 MB write buffer, they stay in its log (no table is written, so no
      // compaction of its own can run first, however busy the machine).
      for (let round = 1; round <= 3; round++) {
        const batch = store.batch();
        for (let n = 0; n < 1_000; n++) batch.putPage(batch.idFor(`http://site.test/${n}`), page(n, round));
        await batch.commit();
      }
      const before = tableBytes(dir);
      const seconds = await compactStore(store);
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(tableBytes(dir)).toBeLessThan(before * 0.6);
      const [stored] = await store.getPages([store.idOf('http://site.test/7')!]);
      expect(stored?.visits).toBe(3);
      expect(stored?.text).toContain('Round 3 of page 7');
    } finally {
      await store.close();
    }
  });
});
