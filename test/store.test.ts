import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreWriterUntilKilled } from './helpers/killed-store-writer.ts';
import { describe, expect, it } from 'vitest';
import { CrawlStore, StoreError, type PageRecord } from '../indexer/store/crawl-store.ts';

const page = (url: string, extra: Partial<PageRecord> = {}): PageRecord => ({
  url,
  host: new URL(url).host,
  role: 'local',
  state: 'fetched',
  status: 200,
  fetchedAt: 1,
  depth: 0,
  visits: 1,
  changes: 0,
  ...extra,
});

const freshDir = () => mkdtempSync(join(tmpdir(), 'lse-store-'));

describe('CrawlStore', () => {
  it('keeps URL ids, pages, links, frontier, hosts and history across a reopen', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    const batch = store.batch();
    const a = batch.idFor('http://a.example/');
    const b = batch.idFor('http://a.example/b');
    expect(batch.idFor('http://a.example/')).toBe(a);
    batch.putPage(a, page('http://a.example/', { title: 'A' })).putLinks(a, [{ to: b, anchor: 'to b' }]).addToFrontier(b, { depth: 1, discoveredAt: 5, role: 'local', referrer: a });
    batch.putHost('a.example', { nextFetchAt: 10 }).appendHistory(a, { at: 2, changed: false, status: 200 }).appendHistory(a, { at: 1, changed: true, status: 200 });
    batch.putMeta('settings', { scope: ['host:a.example'] });
    await batch.commit();
    await store.close();

    store = await CrawlStore.open(dir);
    expect(store.urlCount).toBe(2);
    expect(store.idOf('http://a.example/b')).toBe(b);
    expect(store.urlOf(a)).toBe('http://a.example/');
    expect((await store.getPage(a))?.title).toBe('A');
    expect(await store.getPage(b)).toBeUndefined();
    expect(await store.getLinks(a)).toEqual([{ to: b, anchor: 'to b' }]);
    const frontier = [];
    for await (const entry of store.frontier()) frontier.push(entry);
    expect(frontier).toEqual([[b, { depth: 1, discoveredAt: 5, role: 'local', referrer: a }]]);
    expect(await store.getHost('a.example')).toEqual({ nextFetchAt: 10 });
    expect((await store.history(a)).map((h) => h.at)).toEqual([1, 2]);
    expect(await store.getMeta('settings')).toEqual({ scope: ['host:a.example'] });

    const next = store.batch();
    next.removeFromFrontier(b).putPage(b, page('http://a.example/b'));
    expect(next.idFor('http://a.example/c')).toBe(2);
    await next.commit();
    const ids = [];
    for await (const [id] of store.pages()) ids.push(id);
    expect(ids).toEqual([a, b]);
    await store.close();
  });

  it('stores rank vectors as versions and returns the newest', async () => {
    const store = await CrawlStore.open(freshDir());
    expect(await store.latestRanks('estimate')).toBeUndefined();
    for (const version of [1, 2, 10]) {
      await store
        .batch()
        .putRanks({ name: 'estimate', version, ids: Int32Array.from([3, 1]), values: Float64Array.from([0.25 * version, 1 / 3]), info: { selector: 'sc' } })
        .commit();
    }
    const latest = await store.latestRanks('estimate');
    expect(latest?.version).toBe(10);
    expect(Array.from(latest!.ids)).toEqual([3, 1]);
    expect(Array.from(latest!.values)).toEqual([2.5, 1 / 3]);
    expect((await store.rankHistory('estimate')).map((r) => r.version)).toEqual([1, 2, 10]);
    expect(await store.latestRanks('est')).toBeUndefined();
    await store.close();
  });

  it('refuses a data directory that another process holds', async () => {
    const dir = freshDir();
    const store = await CrawlStore.open(dir);
    await expect(CrawlStore.open(dir)).rejects.toThrow(StoreError);
    await store.close();
  });

  it('loses no acknowledged batch when the writing process is killed with SIGKILL', async () => {
    const dir = freshDir();
    const acknowledged = await runStoreWriterUntilKilled(dir, 150);
    expect(acknowledged).toBeGreaterThanOrEqual(150);
    const store = await CrawlStore.open(dir);
    for (let n = 0; n <= acknowledged; n++) {
      const id = store.idOf(`http://site.example/page/${n}`);
      expect(id).toBe(n);
      expect((await store.getPage(id!))?.fetchedAt).toBe(n);
      expect(await store.getLinks(id!)).toEqual([{ to: n, anchor: `link ${n}` }]);
    }
    await store.close();
  });
});

describe('the page journal', () => {
  it('lists the pages written after a sequence, survives reopening, and is refused once pruned past it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-journal-'));
    let store = await CrawlStore.open(dir);
    const page = (n: number): PageRecord => ({ url: `http://j.test/${n}`, host: 'j.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0 });
    expect(store.pageWriteSequence).toBe(0);
    let batch = store.batch();
    batch.putPage(batch.idFor('http://j.test/0'), page(0)).putPage(batch.idFor('http://j.test/1'), page(1));
    await batch.commit();
    // A commit without pages does not move the sequence.
    await store.batch().putMeta('x', { a: 1 }).commit();
    expect(store.pageWriteSequence).toBe(1);
    batch = store.batch();
    batch.putPage(batch.idFor('http://j.test/2'), page(2)).putPage(store.idOf('http://j.test/0')!, page(0));
    await batch.commit();
    await store.close();
    store = await CrawlStore.open(dir);
    try {
      expect(store.pageWriteSequence).toBe(2);
      expect(await store.pageJournalSince(0)).toEqual([0, 1, 2]);
      expect(await store.pageJournalSince(1)).toEqual([0, 2]);
      expect(await store.pageJournalSince(2)).toEqual([]);
      await store.prunePageJournal(1);
      expect(await store.pageJournalSince(0)).toBeUndefined();
      expect(await store.pageJournalSince(1)).toEqual([0, 2]);
    } finally {
      await store.close();
    }
  });
});
