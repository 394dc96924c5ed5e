/**
 * A scan of every stored page reads many pages per call into LevelDB, so that a job's scan waits
 * behind few searches: while a job runs, a search takes each turn of the event loop, and each
 * call into LevelDB ends in a turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';

describe('a scan of the store', () => {
  it('reads 3,000 pages of 2 KB in a few turns of the event loop, not one per 16 KB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-scan-'));
    const store = await CrawlStore.open(dir);
    try {
      const batch = store.batch();
      for (let n = 0; n < 3_000; n++) {
        const url = `http://site.test/${n}`;
        const page: PageRecord = { url, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 1, visits: 1, changes: 0, title: `Page ${n}`, text: `${n} ${"otters ".repeat(300)}`.slice(0, 2_000) };
        batch.putPage(batch.idFor(url), page);
      }
      await batch.commit();
      // A 2-ms "search" at each turn of the event loop, as searches take turns with a job.
      let turns = 0;
      let scanning = true;
      const counting = (async () => {
        while (scanning) {
          await new Promise((resolve) => setImmediate(resolve));
          const end = performance.now() + 2;
          while (performance.now() < end);
          turns++;
        }
      })();
      let pages = 0;
      for await (const [, page] of store.pages()) if (page.text?.length === 2_000) pages++;
      scanning = false;
      await counting;
      expect(pages).toBe(3_000);
      // 6 MB of pages: about 370 calls at 16 KB a call, each waiting for a search; two at 4 MB.
      expect(turns).toBeLessThan(100);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
