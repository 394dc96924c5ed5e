/**
 * The suggestion index saved with the data directory: loaded as it was built (same suggestions for
 * every prefix of real text), refused when the pages or the ranks moved on or the file is damaged,
 * and what a server starts with instead of reading every page.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSuggestions, loadSearchData, suggestKey } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, rankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { loadSuggestIndex, saveSuggestIndex } from '../indexer/suggest/suggest-file.ts';
import { SuggestIndex, type SuggestSource } from '../indexer/suggest/suggest-index.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const DOCS = '/usr/share/doc/debian-reference-common/docs';

/** Pages of 300 words cut from the English Debian Reference (or a generated text where it is missing). */
function realPages(): SuggestSource[] {
  const files = (() => {
    try {
      return readdirSync(DOCS).filter((f) => f.endsWith('.en.html'));
    } catch {
      return [];
    }
  })();
  const texts = files.length > 0 ? files.map((f) => readFileSync(join(DOCS, f), 'utf8').replace(/<[^>]+>/g, ' ').replace(/&[a-z]+;/g, ' ')) : [Array.from({ length: 20_000 }, (_, i) => `word${i % 977} gen_server:call/${i % 7} Telescope${i % 13}`).join(' ')];
  const pages: SuggestSource[] = [];
  texts.forEach((text, f) => {
    const words = text.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += 300) {
      const chunk = words.slice(i, i + 300);
      pages.push({ id: pages.length, url: `http://docs.test/${f}/${i}`, title: chunk.slice(0, 5).join(' '), headings: [chunk.slice(5, 9).join(' ')], text: chunk.join(' ') });
    }
  });
  return pages;
}

function prefixesOf(pages: readonly SuggestSource[]): string[] {
  const prefixes = new Set<string>();
  for (const page of pages) {
    for (const word of page.text.split(/\s+/).slice(0, 20)) for (let k = 1; k <= Math.min(5, word.length); k++) prefixes.add(word.slice(0, k));
    prefixes.add(`${page.title.split(' ').slice(0, 2).join(' ').slice(0, -1)}`);
  }
  return [...prefixes];
}

describe('the saved suggestion index', () => {
  it('gives the suggestions of the index it was saved from, for every prefix of real text', async () => {
    const pages = realPages();
    const rankOf = (id: number) => ((id * 7919) % 1000) / 1e5;
    const built = await SuggestIndex.build(pages, rankOf);
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-suggest-'));
    const key = { pageSequence: 3, rankDigest: 'r1' };
    await saveSuggestIndex(dataDir, built, key);
    const loaded = (await loadSuggestIndex(dataDir, key)).index!;
    expect(loaded.termCount).toBe(built.termCount);
    const prefixes = prefixesOf(pages);
    expect(prefixes.length).toBeGreaterThan(500);
    for (const typed of prefixes) expect(loaded.suggest(typed, 8)).toEqual(built.suggest(typed, 8));
    expect(built.suggest('pack', 8).length).toBeGreaterThan(0);
  });

  it('is refused when the pages or ranks moved on, or the file is damaged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-suggest-'));
    expect(await loadSuggestIndex(dataDir, { pageSequence: 1, rankDigest: 'r' })).toEqual({ reason: 'none saved' });
    const index = await SuggestIndex.build(realPages().slice(0, 20), () => 0.1);
    await saveSuggestIndex(dataDir, index, { pageSequence: 1, rankDigest: 'r' });
    expect((await loadSuggestIndex(dataDir, { pageSequence: 1, rankDigest: 'r' })).index).toBeDefined();
    expect(await loadSuggestIndex(dataDir, { pageSequence: 2, rankDigest: 'r' })).toEqual({ reason: 'pages or ranks changed since it was saved' });
    expect((await loadSuggestIndex(dataDir, { pageSequence: 1, rankDigest: 's' })).index).toBeUndefined();
    const file = join(dataDir, 'suggest', 'suggestions.bin');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.byteLength - 9));
    expect((await loadSuggestIndex(dataDir, { pageSequence: 1, rankDigest: 'r' })).reason).toMatch(/^cannot read it/);
  });

  it('holds its strings as bytes, refusing a damaged one, and still reads a file of the first format', async () => {
    const pages = realPages().slice(0, 60);
    pages.push({ id: 9999, url: 'http://docs.test/\u{1f52d}?q=\ud800', title: 'Télescope 望远镜 \u{1f52d} gen_server:call', headings: [], text: 'telescope 望远镜' });
    const built = await SuggestIndex.build(pages, (id) => (id % 17) / 1e4);
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-suggest-'));
    const key = { pageSequence: 4, rankDigest: 'r4' };
    await saveSuggestIndex(dataDir, built, key);
    const file = join(dataDir, 'suggest', 'suggestions.bin');
    const bytes = readFileSync(file);
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as { format: string; sections: Array<[string, number]> };
    expect(header.format).toBe('lse-suggest/2');
    const loaded = (await loadSuggestIndex(dataDir, key)).index!;
    expect(loaded.toColumns()).toStrictEqual(built.toColumns());
    for (const typed of ['tél', 'télescope 望', '望', 'gen_s', 'telescope ', 'deb']) expect(loaded.suggest(typed, 8)).toEqual(built.suggest(typed, 8));
    expect(loaded.suggest('望', 8).map((s) => s.url)).toContain('http://docs.test/\u{1f52d}?q=\ud800');
    // A byte of the titles that is no text: refused, with the column named.
    let at = 4 + headerLength;
    for (const [name, length] of header.sections) {
      if (name === 'titles.bytes') {
        const damaged = Buffer.from(bytes);
        damaged[at + length - 1] = 0xff;
        writeFileSync(file, damaged);
      }
      at += length;
    }
    expect((await loadSuggestIndex(dataDir, key)).reason).toMatch(/^cannot read it: titles: entry \d+ that is not text/);
    // The first word made to sort after the second: refused too (prefix ranges need the order).
    at = 4 + headerLength;
    for (const [name, length] of header.sections) {
      if (name === 'terms.bytes') {
        const damaged = Buffer.from(bytes);
        damaged[at] = 0x7f;
        writeFileSync(file, damaged);
      }
      at += length;
    }
    expect((await loadSuggestIndex(dataDir, key)).reason).toMatch(/^cannot read it: terms: entry 1 out of order/);
    // The first format: string columns as JSON arrays.
    writeFileSync(file, firstFormatFile(built, key));
    const old = await loadSuggestIndex(dataDir, key);
    expect(old.reason).toBe('saved');
    expect(old.index!.toColumns()).toStrictEqual(built.toColumns());
  });

  it('is what a server starts with, until a page or the ranks change', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-suggest-store-'));
    const store = await CrawlStore.open(dataDir);
    const index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    try {
      const page = (n: number, title: string): PageRecord => ({ url: `http://site.test/${n}`, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, lang: 'en', title, text: `${title} and more text.` });
      let batch = store.batch();
      batch.putPage(batch.idFor('http://site.test/1'), page(1, 'Quokka habitats'));
      await batch.commit();
      await buildSuggestions(store);
      const ranks = await loadRankSnapshot(store);
      expect((await loadSuggestIndex(dataDir, suggestKey(store, ranks))).index).toBeDefined();
      // A copy saved under the store's key, built from other pages: a server that reads the saved
      // index answers from it, one that builds from the pages does not.
      await saveSuggestIndex(dataDir, await SuggestIndex.build([{ id: 9, url: 'http://site.test/9', title: 'Quolls of the bush', headings: [], text: 'quolls' }], () => 0), suggestKey(store, ranks));
      const engine = new SearchEngine(index, ranks, { blend: 'log-linear', weight: 0.3 });
      await loadSearchData(engine, store);
      expect(engine.suggest('quo').map((s) => s.text)).toContain('Quolls of the bush');
      // A page written since: built from the pages again (and saved).
      batch = store.batch();
      batch.putPage(batch.idFor('http://site.test/2'), page(2, 'Quokka diets'));
      await batch.commit();
      await loadSearchData(engine, store);
      expect(engine.suggest('quo').map((s) => s.text)).toEqual(expect.arrayContaining(['Quokka habitats', 'Quokka diets']));
      expect(engine.suggest('quo').map((s) => s.text)).not.toContain('Quolls of the bush');
      expect((await loadSuggestIndex(dataDir, suggestKey(store, ranks))).index).toBeDefined();
      // Other ranks: another key.
      expect(suggestKey(store, rankSnapshot(1, [0, 1], [0.2, 0.8], [0.5, 0.5]))).not.toEqual(suggestKey(store, ranks));
    } finally {
      await index.close();
      await store.close();
    }
  });
});

/** The file as the first format wrote it: the string columns as UTF-8 JSON arrays, then the number columns. */
function firstFormatFile(index: SuggestIndex, key: { pageSequence: number; rankDigest: string }): Buffer {
  const c = index.toColumns();
  const sections: Array<[string, Uint8Array]> = [];
  for (const name of ['terms', 'titleWords'] as const) sections.push([name, Buffer.from(JSON.stringify(c[name].toArray()))]);
  for (const name of ['titles', 'titleUrls'] as const) sections.push([name, Buffer.from(JSON.stringify(c[name].toArray()))]);
  for (const name of ['termScores', 'titlePostingStarts', 'titlePostings', 'titleWordStarts', 'titleWordIds'] as const) sections.push([name, new Uint8Array(c[name].buffer, c[name].byteOffset, c[name].byteLength)]);
  const header = Buffer.from(JSON.stringify({ format: 'lse-suggest/1', key, sections: sections.map(([name, bytes]) => [name, bytes.byteLength]) }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.byteLength);
  return Buffer.concat([length, header, ...sections.map(([, bytes]) => bytes)]);
}
