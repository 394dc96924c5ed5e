/** Whether the store holds private pages is remembered until a page is written. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
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

  it('reads only the pages written since, when none was private', async () => {
    const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-private-journal-')));
    try {
      const page = (n: number, fields: Partial<PageRecord> = {}): PageRecord => ({ url: `http://intra.test/${n}`, host: 'intra.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, ...fields });
      const write = async (from: number, to: number, fields: Partial<PageRecord> = {}) => {
        const batch = store.batch();
        for (let n = from; n < to; n++) batch.putPage(batch.idFor(`http://intra.test/${n}`), page(n, fields));
        await batch.commit();
      };
      await write(0, 50);
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(false);
      const scans = vi.spyOn(store, 'pages');
      const reads = vi.spyOn(store, 'pagesOf');
      await write(50, 60);
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(false);
      expect(reads.mock.calls.at(-1)?.[0]).toEqual(Array.from({ length: 10 }, (_, i) => store.idOf(`http://intra.test/${50 + i}`)));
      // A page written private is found among the pages written since.
      await write(60, 61, { private: true });
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(true);
      expect(scans).not.toHaveBeenCalled();
      // Once a page was private, only a pass over every page can tell that none is any more.
      await write(60, 61);
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(false);
      expect(scans).toHaveBeenCalledTimes(1);
      // A journal pruned past the saved answer: every page is read again.
      await write(10, 11, { private: true });
      await store.prunePageJournal(store.pageWriteSequence);
      expect(await storeHoldsPrivatePagesSaved(store)).toBe(true);
      expect(scans).toHaveBeenCalledTimes(2);
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
