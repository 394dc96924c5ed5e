/** Whether the store holds private pages is remembered until a page is written. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { storeHoldsPrivatePagesSaved } from '../server/search-access.ts';

describe('private pages, remembered', () => {
  it('reads the pages once, then answers from the store until a page is written', async () => {
    const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-private-')));
    try {
      const page = (n: number, fields: Partial<PageRecord> = {}): PageRecord => ({ url: `http://intra.test/${n}`, host: 'intra.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, ...fields });
      let batch = store.batch();
      batch.putPage(batch.idFor('http://intra.test/0'), page(0));
      await batch.commit();
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(false);
      expect(await store.getMeta('private-pages')).toEqual({ sequence: store.pageWriteSequence, holds: false });
      batch = store.batch();
      batch.putPage(batch.idFor('http://intra.test/1'), page(1, { private: true }));
      await batch.commit();
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(true);
      expect(await store.getMeta('private-pages')).toEqual({ sequence: store.pageWriteSequence, holds: true });
    } finally {
      await store.close();
    }
  });
});
