/**
 * The suggestions a server refreshes after an update read only the pages written since the page
 * contributions were saved, and equal, column for column, a full build over the store's pages;
 * a missing, damaged or out-of-reach saved copy reads every page again, never answers wrong.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSuggestions, SearchDataPass } from '../indexer/ranking/search-data.ts';
import { rankSnapshot, type RankSnapshot } from '../indexer/ranking/search-engine.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { SuggestIndex } from '../indexer/suggest/suggest-index.ts';
import { currentContributions, savedStart, suggestSourceOf, writtenSources } from '../indexer/suggest/suggest-refresh.ts';
import { refreshSuggestionsInWorker, suggestRefreshThreadId, SuggestRefreshWorkerError } from '../indexer/suggest/suggest-refresh-thread.ts';
import { loadSuggestIndex } from '../indexer/suggest/suggest-file.ts';
import { readContributionsSequence } from '../indexer/suggest/suggest-contributions-file.ts';
import { indexableDocuments } from '../indexer/text-index/store-adapter.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';
import { createHash } from 'node:crypto';
import { runSteps } from '../indexer/stepwise.ts';
import type { SuggestContributions } from '../indexer/suggest/suggest-contributions.ts';
import { decodeContributionsSteps } from '../indexer/suggest/suggest-contributions-file.ts';

const record = (doc: TextDocument): PageRecord => ({ url: doc.url, host: 'docs.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 1, visits: 1, changes: 0, lang: 'en', title: doc.title, headings: doc.headings, text: doc.text });

/** Runs `test` on a store in a directory of its own, closed and removed afterwards. */
async function inTemporaryStore(test: (store: CrawlStore, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-suggest-refresh-'));
  const store = await CrawlStore.open(dir);
  try {
    await test(store, dir);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What is written to standard error from now on (the warnings of a refresh). */
function captureWarnings(): string[] {
  const warnings: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => (warnings.push(String(text)), true));
  return warnings;
}

async function writePages(store: CrawlStore, pages: Array<[number, PageRecord]>): Promise<void> {
  const batch = store.batch();
  for (const [n, page] of pages) batch.putPage(batch.idFor(`http://docs.test/page/${n}`), page);
  await batch.commit();
}

/** Ranks for every id the store gave, from a formula (0 for some: pages without a rank). */
async function ranksOf(store: CrawlStore, formula: (id: number) => number): Promise<RankSnapshot> {
  const ids: number[] = [];
  for await (const [id] of store.pages()) ids.push(id);
  return rankSnapshot(1, ids, ids.map(formula), ids.map(() => 0.1));
}

async function fullBuild(store: CrawlStore, ranks: RankSnapshot): Promise<SuggestIndex> {
  return SuggestIndex.build(indexableDocuments(store), (id) => ranks.global.get(id) ?? 0, ranks.globalScale);
}

describe('suggestions refreshed after an update', () => {
  const docs = realDocPages(360);
  afterEach(() => vi.restoreAllMocks());

  it('read only the written pages and equal a full build, after updates, removals and rank changes', async () => {
    expect(docs.length).toBeGreaterThan(300);
    await inTemporaryStore(async (store) => {
      await writePages(store, docs.slice(0, 300).map((doc, n) => [n, record(doc)]));
      let ranks = await ranksOf(store, (id) => (id % 7 === 0 ? 0 : ((id * 7919) % 1000) / 1e5));
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      // An update: 60 new pages, 20 changed (other text, other titles), 10 noindex, 5 fetched as errors.
      const update: Array<[number, PageRecord]> = docs.slice(300).map((doc, i) => [300 + i, record(doc)]);
      for (let n = 1; n < 300; n += 15) update.push([n, { ...record(docs[(n * 37) % 360]), url: `http://docs.test/page/${n}`, title: `${docs[n].title} Renamed-${n}` }]);
      for (let n = 2; n < 300; n += 30) update.push([n, { ...record(docs[n]), noindex: true }]);
      for (let n = 4; n < 300; n += 60) update.push([n, { ...record(docs[n]), state: 'error' }]);
      await writePages(store, update);
      ranks = await ranksOf(store, (id) => ((id * 104729) % 997) / 1e4);
      const refreshed = await currentContributions(store, store.pageWriteSequence);
      expect(refreshed.full).toBe(false);
      expect(refreshed.pagesRead).toBe(new Set(update.map(([n]) => n)).size);
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      // A rank change alone: no page read.
      ranks = await ranksOf(store, (id) => (id % 3 === 0 ? 0.5 : 1e-6 * (id + 1)));
      expect((await currentContributions(store, store.pageWriteSequence)).pagesRead).toBe(0);
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
    });
  });

  it('start from the contributions the index build saves from its own pass', async () => {
    await inTemporaryStore(async (store) => {
      await writePages(store, docs.slice(0, 50).map((doc, n) => [n, record(doc)]));
      const pass = await SearchDataPass.start(store);
      for await (const [id, page] of store.pages()) pass.add(id, page, suggestSourceOf(id, page));
      await pass.save();
      await writePages(store, [[7, { ...record(docs[60]), url: 'http://docs.test/page/7' }]]);
      const refreshed = await currentContributions(store, store.pageWriteSequence);
      expect([refreshed.full, refreshed.pagesRead]).toEqual([false, 1]);
      const ranks = await ranksOf(store, (id) => 1 / (id + 2));
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
    });
  });

  it('read a saved copy of the first format, and keep titles with lone surrogates as they are', async () => {
    await inTemporaryStore(async (store, dir) => {
      const warnings = captureWarnings();
      await writePages(store, docs.slice(0, 40).map((doc, n) => [n, record(doc)]));
      const ranks = await ranksOf(store, (id) => (id + 1) / 100);
      await buildSuggestions(store, ranks);
      const file = join(dir, 'suggest', 'contributions.bin');
      const saved = runSteps(decodeContributionsSteps(readFileSync(file)));
      writeFileSync(file, firstFormatFile(saved.contributions, saved.pageSequence));
      await writePages(store, [[41, { ...record(docs[41]), title: 'Lone \ud800 surrogate \u{1f52d} telescope' }]]);
      warnings.length = 0;
      const refreshed = await currentContributions(store, store.pageWriteSequence);
      expect(refreshed).toMatchObject({ full: false, pagesRead: 1 });
      expect(refreshed.contributions.titles.toArray()).toContain('Lone \ud800 surrogate \u{1f52d} telescope');
      // Saved again (in the current format): the lone surrogate does not stop it, and it comes back.
      expect(warnings.join('')).not.toMatch(/not saved/);
      const again = await currentContributions(store, store.pageWriteSequence);
      expect(again).toMatchObject({ full: false, pagesRead: 0 });
      expect(again.contributions.titles.toArray()).toEqual(refreshed.contributions.titles.toArray());
      expect(again.contributions.urls.toArray()).toEqual(refreshed.contributions.urls.toArray());
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
    });
  });

  it('reads every page again, with a warning, when the saved copy is damaged, missing its journal or of another store', async () => {
    await inTemporaryStore(async (store, dir) => {
      const warnings = captureWarnings();
      await writePages(store, docs.slice(0, 80).map((doc, n) => [n, record(doc)]));
      const ranks = await ranksOf(store, (id) => (id + 1) / 100);
      await buildSuggestions(store, ranks);
      const file = join(dir, 'suggest', 'contributions.bin');
      const good = readFileSync(file);
      // Damaged: cut short, bytes overwritten, one letter of a title changed (the columns still agree).
      const title = good.indexOf(Buffer.from(docs[40].title));
      expect(title).toBeGreaterThan(0);
      const damages = [
        (b: Buffer) => b.subarray(0, b.byteLength - 100),
        (b: Buffer) => Buffer.concat([b.subarray(0, b.byteLength - 3000), Buffer.alloc(3000, 0xff)]),
        (b: Buffer) => (b[title] ^= 0x20, b),
      ];
      for (const damage of damages) {
        writeFileSync(file, damage(Buffer.from(good)));
        await writePages(store, [[3, { ...record(docs[90]), url: 'http://docs.test/page/3' }]]);
        warnings.length = 0;
        const refreshed = await currentContributions(store, store.pageWriteSequence);
        expect(refreshed.full).toBe(true);
        expect(warnings.join('')).toMatch(/reading every page \(the saved page contributions: cannot read it/);
        expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      }
      // The journal pruned past the saved copy.
      await writePages(store, [[5, { ...record(docs[91]), url: 'http://docs.test/page/5' }]]);
      await store.prunePageJournal(store.pageWriteSequence);
      await writePages(store, [[6, { ...record(docs[92]), url: 'http://docs.test/page/6' }]]);
      warnings.length = 0;
      expect((await currentContributions(store, store.pageWriteSequence)).reason).toBe('the page journal no longer reaches back to it');
      expect(warnings.join('')).toMatch(/reading every page/);
      expect((await buildSuggestions(store, ranks)).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      // Saved for a store further on than this one.
      expect((await currentContributions(store, store.pageWriteSequence - 1)).full).toBe(true);
    });
  });
});

describe('suggestions refreshed in a worker thread', () => {
  const docs = realDocPages(360);
  afterEach(() => vi.restoreAllMocks());

  it('equal a full build, in the arrays sent back and in both files saved', async () => {
    await inTemporaryStore(async (store, dir) => {
      await writePages(store, docs.slice(0, 300).map((doc, n) => [n, record(doc)]));
      const before = await ranksOf(store, (id) => 1 / (id + 3));
      await buildSuggestions(store, before);
      const savedSequence = store.pageWriteSequence;
      expect((await readContributionsSequence(dir)).pageSequence).toBe(savedSequence);
      // More pages written than a message carries: 270 renamed, 60 new, some noindex.
      const update: Array<[number, PageRecord]> = docs.slice(300).map((doc, i) => [300 + i, record(doc)]);
      for (let n = 0; n < 270; n++) update.push([n, { ...record(docs[n]), title: `${docs[n].title} Moved-${n}`, noindex: n % 50 === 7 }]);
      // Text that crosses to the worker as it is: a lone surrogate, Japanese and German.
      update[0][1] = { ...update[0][1], title: 'Lone \ud800 surrogate 日本語の概要 Übersicht', text: `Die Übersicht der Pakete. パッケージの一覧。 ${update[0][1].text}` };
      await writePages(store, update);
      const ranks = await ranksOf(store, (id) => ((id * 104729) % 997) / 1e4);
      const start = await savedStart(store, store.pageWriteSequence);
      expect(start?.savedSequence).toBe(savedSequence);
      expect(start?.written.length).toBe(330);
      const key = { pageSequence: store.pageWriteSequence, rankDigest: 'worker-test' };
      const job = { dataDir: dir, savedSequence, sequence: store.pageWriteSequence, key, scale: ranks.globalScale };
      const refreshed = await refreshSuggestionsInWorker(job, ranks.global, writtenSources(store, start!.written));
      const expected = (await fullBuild(store, ranks)).toColumns();
      expect(refreshed.toColumns()).toStrictEqual(expected);
      expect(refreshed.suggest('mov', 3).length).toBeGreaterThan(0);
      expect(refreshed.toColumns().titles.toArray()).toContain('Lone \ud800 surrogate 日本語の概要 Übersicht');
      // The worker saved the index under its key and the contributions as of the new sequence.
      expect((await loadSuggestIndex(dir, key)).index?.toColumns()).toStrictEqual(expected);
      expect(await currentContributions(store, store.pageWriteSequence)).toMatchObject({ full: false, pagesRead: 0 });
      // A server's refresh takes the same path, without a warning, on the same thread.
      const thread = suggestRefreshThreadId();
      expect(thread).toBeGreaterThan(0);
      const warnings = captureWarnings();
      await writePages(store, [[3, { ...record(docs[90]), url: 'http://docs.test/page/3' }]]);
      expect((await buildSuggestions(store, ranks, { worker: true })).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      expect(warnings.join('')).toBe('');
      expect(suggestRefreshThreadId()).toBe(thread);
    });
  });

  it('refuses a saved copy of another sequence or a damaged one, and a server then refreshes on its own thread', async () => {
    await inTemporaryStore(async (store, dir) => {
      await writePages(store, docs.slice(0, 60).map((doc, n) => [n, record(doc)]));
      const ranks = await ranksOf(store, (id) => (id + 1) / 100);
      await buildSuggestions(store, ranks);
      await writePages(store, [[2, { ...record(docs[70]), url: 'http://docs.test/page/2' }]]);
      const start = (await savedStart(store, store.pageWriteSequence))!;
      const key = { pageSequence: store.pageWriteSequence, rankDigest: 'x' };
      const job = { dataDir: dir, savedSequence: start.savedSequence - 1, sequence: store.pageWriteSequence, key, scale: ranks.globalScale };
      const wrong = refreshSuggestionsInWorker(job, ranks.global, writtenSources(store, start.written));
      await expect(wrong).rejects.toThrow(SuggestRefreshWorkerError);
      await expect(wrong).rejects.toThrow(/of page write \d+, not \d+/);
      // A refresh the worker refused leaves it ready for the next: the same thread answers it.
      const thread = suggestRefreshThreadId();
      const right = await refreshSuggestionsInWorker({ ...job, savedSequence: start.savedSequence }, ranks.global, writtenSources(store, start.written));
      expect(right.toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      expect(suggestRefreshThreadId()).toBe(thread);
      // Bytes overwritten past the header: the worker refuses them, the refresh reads every page here.
      const file = join(dir, 'suggest', 'contributions.bin');
      const good = readFileSync(file);
      writeFileSync(file, Buffer.concat([good.subarray(0, good.byteLength - 500), Buffer.alloc(500, 0xff)]));
      const warnings = captureWarnings();
      expect((await buildSuggestions(store, ranks, { worker: true })).toColumns()).toStrictEqual((await fullBuild(store, ranks)).toColumns());
      expect(warnings.join('')).toMatch(/suggestions: refreshed on the main thread \(the saved page contributions: cannot read them: its digest does not match: damaged\)/);
      expect(warnings.join('')).toMatch(/reading every page/);
      // A header that is not one: nothing to start from.
      writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0x7f]), good.subarray(4)]));
      expect((await readContributionsSequence(dir)).reason).toMatch(/^cannot read it: a header of \d+ bytes$/);
      writeFileSync(file, Buffer.concat([good.subarray(0, 4), Buffer.from('{"format":"lse-suggest-contributions/2"}'.padEnd(good.readUInt32LE(0), ' '))]));
      expect((await readContributionsSequence(dir)).reason).toBe('cannot read it: no page sequence');
      expect(await savedStart(store, store.pageWriteSequence)).toBeUndefined();
      // No saved copy at all: nothing to start from, no worker.
      rmSync(file);
      expect(await savedStart(store, store.pageWriteSequence)).toBeUndefined();
      expect((await readContributionsSequence(dir)).reason).toBe('none saved');
    });
  });
});

/** The contributions as format 1 saved them: every string column as UTF-8 byte lengths and bytes, sections padded to 8 bytes. */
function firstFormatFile(c: SuggestContributions, pageSequence: number): Buffer {
  const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
  const sections: Array<[string, Uint8Array]> = [];
  for (const [name, list] of [['vocabulary', c.vocabulary], ['titles', c.titles.toArray()], ['urls', c.urls.toArray()]] as const) {
    sections.push([`${name}.lengths`, new Uint8Array(Uint32Array.from(list, (text) => Buffer.byteLength(text)).buffer)], [name, Buffer.from(list.join(''))]);
  }
  for (const name of ['sortedWords', 'stopWords', 'pageIds', 'wordStarts', 'wordBytes', 'titleWordStarts', 'titleWordIds'] as const) sections.push([name, new Uint8Array(c[name].buffer, c[name].byteOffset, c[name].byteLength)]);
  const body = Buffer.concat(sections.flatMap(([, bytes]) => [bytes, pad(bytes.byteLength)]));
  const header = Buffer.from(JSON.stringify({ format: 'lse-suggest-contributions/1', pageSequence, digest: createHash('sha1').update(body).digest('hex'), sections: sections.map(([name, bytes]) => [name, bytes.byteLength]) }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.byteLength);
  return Buffer.concat([length, header, pad(4 + header.byteLength), body]);
}
