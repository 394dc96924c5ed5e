/** Whether the store holds private pages is remembered until a page is written. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { loadSettings } from '../config/load-settings.ts';
import { buildIndex } from '../server/cli/serve-command.ts';
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

  it('is saved by an index build, so that the first start after it reads no page for it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-private-build-'));
    const store = await CrawlStore.open(dataDir);
    try {
      const page = (n: number, fields: Partial<PageRecord> = {}): PageRecord => ({ url: `http://intra.test/${n}`, host: 'intra.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, lang: 'en', title: `Page ${n}`, text: `Page ${n} about otters.`, ...fields });
      const batch = store.batch();
      for (let n = 0; n < 5; n++) batch.putPage(batch.idFor(`http://intra.test/${n}`), page(n, n === 3 ? { private: true } : {}));
      await batch.commit();
      const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' } } });
      const { index } = await buildIndex(store, settings);
      await index.close();
      expect(await store.getMeta('private-pages')).toEqual({ sequence: store.pageWriteSequence, holds: true });
    } finally {
      await store.close();
    }
  });
});
