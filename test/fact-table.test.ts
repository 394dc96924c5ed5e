/**
 * The page facts as columns: every fact reads back as given, groups of copies and translations
 * come out of union–find as one flat list per group, and a table refreshed with changes equals
 * one built from the changed facts — without a fact object kept per page.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadPageFacts, PageFacts, refreshPageFacts, savePageFacts, type PageFact } from '../indexer/ranking/page-facts.ts';
import { PageFactsBuilder } from '../indexer/ranking/fact-builder.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { runStepsYielding } from '../indexer/stepwise.ts';
import { StringColumn } from '../indexer/text-index/string-column.ts';

const fact = (n: number, fields: Partial<PageFact> = {}): PageFact => ({
  url: `http://site.test/${n % 3 === 0 ? 'de' : 'en'}/s${n % 4}/p${n}`,
  host: n % 5 === 0 ? 'www.site.test' : 'site.test',
  lang: n % 3 === 0 ? 'de' : 'en',
  type: n % 7 === 0 ? 'pdf' : 'html',
  section: `s${n % 4}`,
  date: n % 2 === 0 ? 1_700_000_000_000 + n : NaN,
  indexed: n % 6 !== 5,
  related: [],
  copies: [],
  ...fields,
});

function table(): Map<number, PageFact> {
  const facts = new Map<number, PageFact>();
  for (let n = 0; n < 60; n++) facts.set(n * 2, fact(n));
  // Page 10 is a copy of 4 (same text); 12 translates 10; 30 names 4 as its canonical.
  facts.set(20, fact(10, { related: [fact(2).url, fact(6).url], copies: [fact(2).url] }));
  facts.set(24, fact(12, { related: [fact(10).url] }));
  facts.set(60, fact(30, { related: [fact(2).url], copies: [fact(2).url] }));
  return facts;
}

describe('the page facts table', () => {
  it('reads back every fact, and groups copies and translations', () => {
    const given = table();
    const facts = new PageFacts(given);
    expect(facts.size).toBe(60);
    for (const [id, original] of given) {
      const row = facts.rowOf(id);
      expect(facts.factOf(row)).toEqual({ ...original, copies: original.copies ?? [] });
      expect(facts.urlOf(row)).toBe(original.url);
      expect(facts.langOf(row)).toBe(original.lang);
      expect(facts.isIndexed(row)).toBe(original.indexed);
      expect(facts.idOfUrl(original.url)).toBe(id);
    }
    const group = facts.group[facts.rowOf(4)];
    expect([...facts.membersOf(group)].map((row) => facts.ids[row])).toEqual([4, 12, 20, 24, 60]);
    // Copies alone: 4, 20 (copy of 4) and 60 (canonical 4); 12 and 24 are translations.
    const copyClass = facts.copyClass[facts.rowOf(4)];
    expect([4, 20, 60].map((id) => facts.copyClass[facts.rowOf(id)])).toEqual([copyClass, copyClass, copyClass]);
    expect(facts.copyClass[facts.rowOf(24)]).not.toBe(copyClass);
    // Every row is in exactly one group.
    const seen = [...facts.groups()].flatMap((g) => [...facts.membersOf(g)]);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, row) => row));
    expect(facts.indexedValues('type')).toEqual(['html', 'pdf']);
  });

  it('refreshed with changes, equals a table built from the changed facts', () => {
    const given = table();
    const changes: Array<[number, PageFact | undefined]> = [
      [24, undefined],
      [8, fact(4, { lang: 'fr', section: 'news' })],
      [200, fact(100, { related: [fact(0).url] })],
    ];
    const refreshed = new PageFacts(given).withChanges(changes);
    for (const [id, changed] of changes) {
      if (changed) given.set(id, changed);
      else given.delete(id);
    }
    const built = new PageFacts(given);
    expect(refreshed.size).toBe(built.size);
    expect([...refreshed.ids]).toEqual([...built.ids]);
    for (let row = 0; row < built.size; row++) expect(refreshed.factOf(row)).toEqual(built.factOf(row));
    expect([...refreshed.group]).toEqual([...built.group]);
    expect([...refreshed.copyClass]).toEqual([...built.copyClass]);
    expect(refreshed.columns.lang.values).toEqual(built.columns.lang.values);
    expect(refreshed.rowOf(24)).toBe(-1);
    expect(refreshed.langOf(refreshed.rowOf(8))).toBe('fr');
    expect(refreshed.group[refreshed.rowOf(200)]).toBe(refreshed.group[refreshed.rowOf(0)]);
  });

  it('refreshed in steps, by ids, past a value no row keeps and over many steps, equals a table built from scratch', async () => {
    const urlOf = (id: number) => `http://site.test/p${id}`;
    const big = new Map<number, PageFact>();
    for (let id = 0; id < 40_000; id++) {
      const related = id % 97 === 5 ? [urlOf(id - 5)] : id % 89 === 3 ? [urlOf(id + 1), urlOf(10_000_000)] : [];
      big.set(id * 3, { ...fact(id), url: urlOf(id * 3), section: id % 1000 === 7 ? 'rare' : `s${id % 4}`, related: related.map((u) => u.replace(/\d+$/, (n) => String(Number(n) * 3))), copies: id % 2 === 0 ? related.slice(0, 1).map((u) => u.replace(/\d+$/, (n) => String(Number(n) * 3))) : [] });
    }
    const changes: Array<[number, PageFact | undefined]> = [];
    // Every page of the rare section goes (its value with it), some pages change language, new ones come.
    for (const [id, f] of big) if (f.section === 'rare') changes.push([id, undefined]);
    for (let id = 1; id < 30_000; id += 7) changes.push([id * 3, { ...fact(id), url: urlOf(id * 3), lang: 'ja', section: 'new', related: [urlOf(0)] }]);
    changes.push([200_001, { ...fact(1), url: urlOf(200_001), related: [urlOf(3)], copies: [urlOf(3)] }]);
    const idOf = new Map<string, number>([...big.keys(), 200_001].map((id) => [urlOf(id), id]));
    let turns = 0;
    const turning = setInterval(() => turns++, 0);
    const refreshed = await runStepsYielding(new PageFacts(big).changedSteps(changes, (url) => idOf.get(url)));
    clearInterval(turning);
    for (const [id, changed] of changes) {
      if (changed) big.set(id, changed);
      else big.delete(id);
    }
    const built = new PageFacts(big);
    expect(turns).toBeGreaterThan(0);
    // Steps of at most 1,024 rows copied: a first refresh in a busy server runs before its code
    // is compiled, and steps of 8,192 rows then held the loop 70-90 ms each at a million rows.
    let yields = 0;
    const refreshing = new PageFacts(big).changedSteps(changes, (url) => idOf.get(url));
    while (!refreshing.next().done) yields++;
    expect(yields).toBeGreaterThanOrEqual(Math.floor(big.size / 1024));
    expect(refreshed.toColumns()).toEqual(built.toColumns());
    expect(refreshed.columns.section.values).toEqual(built.columns.section.values);
    for (let row = 0; row < built.size; row += 97) {
      expect(refreshed.urlOf(row)).toBe(built.urlOf(row));
      expect(refreshed.idOfUrl(built.urlOf(row))).toBe(built.ids[row]);
    }
    expect(refreshed.idOfUrl(urlOf(10_000_000))).toBeUndefined();
    expect(refreshed.columns.section.values).not.toContain('rare');
    expect(refreshed.facetTuples).toEqual(built.facetTuples);
    // Made from saved columns in steps (check, derived rows, combinations), it equals the table made at once.
    let steps = 0;
    const making = PageFacts.steps({ columns: built.toColumns(), urls: StringColumn.fromStrings([...built.toColumns().ids].map(urlOf)) });
    let made = making.next();
    for (; !made.done; made = making.next()) steps++;
    expect(steps).toBeGreaterThanOrEqual(5);
    expect(made.value.toColumns()).toEqual(built.toColumns());
    expect(made.value.facetTuples).toEqual(built.facetTuples);
    expect(made.value.membersOf(made.value.group[made.value.rowOf(200_001)])).toEqual(built.membersOf(built.group[built.rowOf(200_001)]));
  });

  it('makes room for a table it copies a column a step, none at once, then copies it as it was', () => {
    const facts = new Map<number, PageFact>();
    for (let n = 0; n < 50_000; n++) facts.set(n, fact(n));
    const built = new PageFacts(facts);
    const columns = built.toColumns();
    const urls = StringColumn.fromStrings([...columns.ids].map((id) => fact(id).url));
    const buffers = () => process.memoryUsage().arrayBuffers;
    const builder = new PageFactsBuilder({ columns, facets: built.columns, urls });
    // The largest single column's room: the URLs (their bytes with a margin, and their offsets), or 8 bytes a row.
    const rows = columns.ids.length + 4096;
    const largest = Math.max(urls.bytes.length + (urls.bytes.length >> 5) + 262_144 + 4 * (rows + 1), 8 * rows);
    const grown: number[] = [];
    const steps = builder.roomSteps();
    for (let before = buffers(); !steps.next().done; before = buffers()) grown.push(buffers() - before);
    // Eleven columns, one a step: at a million rows, tens of megabytes zero-filled at once held the loop.
    expect(grown.length).toBe(11);
    expect(Math.max(...grown)).toBeLessThanOrEqual(largest);
    expect(grown.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(largest);
    for (let row = 0; row < columns.ids.length; row++) builder.copyRow(row);
    expect(builder.done().columns).toEqual(columns);
  });

  it('is saved with the store and loaded as it was, until a page is written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-facts-'));
    const store = await CrawlStore.open(dataDir);
    try {
      const page = (url: string, fields: Partial<PageRecord> = {}): PageRecord => ({ url, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 0, visits: 1, changes: 0, title: url, text: `About ${url}.`, lang: 'en', ...fields });
      let batch = store.batch();
      const en = batch.idFor('http://site.test/en/guide/a');
      batch.putPage(en, page('http://site.test/en/guide/a', { alternates: [{ url: 'http://site.test/de/guide/a', lang: 'de' }], lastModified: 'Tue, 03 Nov 2026 10:00:00 GMT' }));
      batch.putPage(batch.idFor('http://site.test/de/guide/a'), page('http://site.test/de/guide/a', { lang: 'de', type: 'pdf' }));
      batch.putPage(batch.idFor('http://site.test/en/guide/copy'), page('http://site.test/en/guide/copy', { duplicateOf: en }));
      batch.putPage(batch.idFor('http://site.test/news/x'), page('http://site.test/news/x', { role: 'global' }));
      await batch.commit();
      const built = await savePageFacts(store);
      const loaded = await loadPageFacts(store);
      expect(loaded.size).toBe(3);
      expect([...loaded.ids]).toEqual([...built.ids]);
      for (let row = 0; row < built.size; row++) expect(loaded.factOf(row)).toEqual(built.factOf(row));
      expect([...loaded.group]).toEqual([...built.group]);
      expect([...loaded.copyClass]).toEqual([...built.copyClass]);
      expect([...loaded.urlLanguage]).toEqual([...built.urlLanguage]);
      expect(loaded.group[0]).toBe(loaded.group[1]);
      // Pages written since (one new, one now in German, one no longer local): those the store's
      // journal lists are read again, not every page, and the table saved again.
      batch = store.batch();
      batch.putPage(batch.idFor('http://site.test/en/guide/b'), page('http://site.test/en/guide/b'));
      batch.putPage(batch.idFor('http://site.test/en/guide/copy'), page('http://site.test/en/guide/copy', { lang: 'de' }));
      batch.putPage(batch.idFor('http://site.test/de/guide/a'), page('http://site.test/de/guide/a', { role: 'global' }));
      await batch.commit();
      const everyPage = vi.spyOn(store, 'pages');
      const fromJournal = await loadPageFacts(store);
      expect(everyPage).not.toHaveBeenCalled();
      everyPage.mockRestore();
      const fromPages = await savePageFacts(store);
      expect(fromJournal.size).toBe(3);
      expect(fromJournal.toColumns()).toEqual(fromPages.toColumns());
      expect(fromJournal.facetTuples).toEqual(fromPages.facetTuples);
      const again = vi.spyOn(store, 'pages');
      expect((await loadPageFacts(store)).toColumns()).toEqual(fromPages.toColumns());
      expect(again).not.toHaveBeenCalled();
      again.mockRestore();
      // A refresh of some pages (a job's) reads every page written since the table's sequence
      // too, and saves the table: a start after the journal is pruned loads it without a full read.
      batch = store.batch();
      batch.putPage(batch.idFor('http://site.test/en/guide/b'), page('http://site.test/en/guide/b', { type: 'pdf' }));
      const elsewhere = batch.idFor('http://site.test/en/guide/d');
      batch.putPage(elsewhere, page('http://site.test/en/guide/d'));
      await batch.commit();
      rmSync(join(dataDir, 'facts', 'page-facts.bin'));
      const refreshed = await refreshPageFacts(fromJournal, store, [store.idOf('http://site.test/en/guide/b')!]);
      expect(refreshed.rowOf(elsewhere)).toBeGreaterThanOrEqual(0);
      await store.prunePageJournal(store.pageWriteSequence);
      const afterJob = vi.spyOn(store, 'pages');
      expect((await loadPageFacts(store)).toColumns()).toEqual(refreshed.toColumns());
      expect(afterJob).not.toHaveBeenCalled();
      afterJob.mockRestore();
      expect(refreshed.toColumns()).toEqual((await savePageFacts(store)).toColumns());
      // Once the journal no longer reaches back to the saved table, every page is read.
      batch = store.batch();
      batch.putPage(batch.idFor('http://site.test/de/guide/a'), page('http://site.test/de/guide/a', { lang: 'de' }));
      batch.putPage(batch.idFor('http://site.test/en/guide/c'), page('http://site.test/en/guide/c'));
      await batch.commit();
      await store.prunePageJournal(store.pageWriteSequence);
      const afterPruning = vi.spyOn(store, 'pages');
      const reread = await loadPageFacts(store);
      expect(afterPruning).toHaveBeenCalled();
      afterPruning.mockRestore();
      expect(reread.size).toBe(6);
      expect(reread.toColumns()).toEqual((await savePageFacts(store)).toColumns());
      // A damaged file is read from the pages as well.
      const file = join(dataDir, 'facts', 'page-facts.bin');
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.byteLength - 3));
      expect((await loadPageFacts(store)).size).toBe(6);
    } finally {
      await store.close();
    }
  });
});
