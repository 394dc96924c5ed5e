/**
 * What an import reads back from the store: nothing for URLs that got their id in this very
 * import (no page can be stored under them), the stored page for every other one — also a page
 * this import wrote in an earlier batch, and any page once someone else writes pages beside it.
 * And the links of one import are checked as every line alone checks them.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import type { NumberedLine } from '../server/import/jsonl-lines.ts';
import { importPages } from '../server/import/page-import.ts';
import { ImportUrls, parsePageLine } from '../server/import/page-line.ts';
import { countTurns } from './helpers/event-loop-turns.ts';

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openStore(): Promise<CrawlStore> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-import-reads-'));
  dirs.push(dir);
  return CrawlStore.open(dir);
}

const url = (i: number) => `https://docs.example.org/p${i}`;
const page = (i: number, body = `Page ${i} text.`) => JSON.stringify({ url: url(i), title: `Page ${i}`, body, links: [url(i + 1), url(0)] });

async function* lines(texts: string[], between?: (line: number) => Promise<void>): AsyncGenerator<NumberedLine> {
  for (const [i, text] of texts.entries()) {
    await between?.(i + 1);
    yield { line: i + 1, text };
  }
}

/** Counts the ids the store is asked for. */
function countReads(): { ids: number } {
  const reads = { ids: 0 };
  const getPages = CrawlStore.prototype.getPages;
  vi.spyOn(CrawlStore.prototype, 'getPages').mockImplementation(function (this: CrawlStore, ids: readonly number[]) {
    reads.ids += ids.length;
    return getPages.call(this, ids);
  });
  return reads;
}

describe('an import', () => {
  it('reads no stored page for URLs new to the store, and every page it may hold', async () => {
    const store = await openStore();
    try {
      const reads = countReads();
      // p0 (a link target of every page, given its id by the first batch) comes last: it was never written.
      const first = await importPages(store, lines([1, 2, 3, 4, 5, 6, 0].map((i) => page(i))), { batchPages: 2 });
      expect(first).toMatchObject({ added: 7, updated: 0, unchanged: 0 });
      expect(reads.ids).toBe(0);
      // Again in one import: p3 twice, the second in a later batch (an update of what the first wrote).
      const second = await importPages(store, lines([page(3, 'Changed.'), page(9), page(3, 'Changed again.'), page(4)]), { batchPages: 1 });
      expect(second).toMatchObject({ added: 1, updated: 2, unchanged: 1 });
      // p3, p4 and p3 again were stored before or by this import; p9 is new.
      expect(reads.ids).toBe(3);
      expect((await store.getPage(store.idOf(url(3))!))?.text).toBe('Changed again.');
    } finally {
      await store.close();
    }
  });

  it('reads every page again once someone else writes pages beside it', async () => {
    const store = await openStore();
    try {
      const reads = countReads();
      // A crawl beside the push stores p5, a URL the import gave its id (p4 links to it) but has not written.
      const beside = async (line: number) => {
        if (line !== 3) return;
        const batch = store.batch();
        const id = batch.idFor(url(5));
        batch.putPage(id, { url: url(5), host: 'docs.example.org', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, text: 'crawled' });
        await batch.commit();
      };
      const summary = await importPages(store, lines([page(4), page(6), page(5)], beside), { batchPages: 1 });
      expect(summary).toMatchObject({ added: 2, updated: 1 });
      expect(reads.ids).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('the links of an import', () => {
  it('are checked with the lines of one import sharing what they learnt, as each line alone is', () => {
    const urls = new ImportUrls(3);
    const hrefs = ['https://Docs.Example.org/a/../b#top', 'https://docs.example.org/b', '/c?utm_source=x', 'HTTPS://docs.example.org:443/d', 'https://docs.example.org/e', 'https://docs.example.org/b', 'http:relative'];
    for (let n = 0; n < 3; n++) {
      for (const base of ['https://docs.example.org/x/y', 'http://other.example.net/']) {
        const text = JSON.stringify({ url: base, title: 't', body: 'b', links: hrefs });
        expect(parsePageLine(text, 1, urls)).toEqual(parsePageLine(text, 1));
      }
    }
  });

  it('gives the event loop turns while it parses and writes a batch', async () => {
    const store = await openStore();
    // Lines that come at once (read ahead): 300 pages of 200 links each, one batch.
    const texts = Array.from({ length: 300 }, (_, i) => JSON.stringify({ url: url(i), title: `Page ${i}`, body: 'word '.repeat(500), links: Array.from({ length: 200 }, (_, k) => url(300 + i * 200 + k)) }));
    const turns = countTurns();
    let turnsBeforeCommit = -1;
    const makeBatch = store.batch.bind(store);
    vi.spyOn(store, 'batch').mockImplementation(() => {
      const batch = makeBatch();
      const commit = batch.commit.bind(batch);
      batch.commit = () => {
        if (turnsBeforeCommit < 0) turnsBeforeCommit = turns.count;
        return commit();
      };
      return batch;
    });
    const summary = await importPages(store, lines(texts), { batchPages: 1_000 });
    turns.stop();
    expect(summary.added).toBe(300);
    expect(turnsBeforeCommit).toBeGreaterThan(1);
    await store.close();
  });
});
