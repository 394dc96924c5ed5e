import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import { buildLunrSegment } from '../indexer/text-index/lunr-segment.ts';
import { SegmentBuilderPool } from '../indexer/text-index/segment-builder-pool.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { MANIFEST_FORMAT, manifestParts } from '../indexer/text-index/manifest.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import type { SearchResult } from '../indexer/text-index/search.ts';
import { QuerySyntaxError } from '../indexer/text-index/errors.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { indexableDocuments } from '../indexer/text-index/store-adapter.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';
import { countTurns } from './helpers/event-loop-turns.ts';
import { queryExactName } from '../indexer/text-index/exact-name.ts';

const { tempDir, openIndex } = tempIndexes('lse-text-index-');

const corpus = syntheticCorpus({ count: 300, seed: 7, wordsPerPage: 120, vocabularySize: 1_500 });
const docs = corpus.documents;
const [w0, w1, w2] = corpus.topicWords[3];
const common = corpus.vocabulary[5];
const QUERIES = [w0, `${w0} ${w1}`, `${w1} ${w2} ${common}`, `+${w0} ${w2}`, `${w0} -${w1}`, `title:${w0} ${w2}`, `${corpus.vocabulary[40]} ${corpus.vocabulary[90]}`];

/** Every hit with its score, for one query (all pages). */
/** Without typo tolerance and prefixes: then scores are exactly lunr's. */
function allHits(index: TextIndex, query: string, mode: 'all' | 'any' = 'any'): Array<[number, number]> {
  return index.search(query, { limit: 1_000, mode, tolerance: false }).hits.map((hit) => [hit.id, hit.score]);
}

/**
 * A query of plain words is also a name, whose title and heading tiers (exact-name.ts) add to
 * the text score; a boost of 1 on its last word, a no-op for lunr, leaves the text score alone.
 */
function textOnly(query: string): string {
  return queryExactName(query) === undefined ? query : query.replace(/(\S+)$/, '$1^1');
}

function expectSameHits(actual: Array<[number, number]>, expected: Array<[number, number]>) {
  expect(actual.length).toBe(expected.length);
  const expectedScores = new Map(expected);
  for (const [id, score] of actual) {
    expect(expectedScores.has(id), `page ${id} is not an expected hit`).toBe(true);
    expect(score).toBeCloseTo(expectedScores.get(id)!, 9);
  }
  // Same order, up to ties.
  for (let i = 1; i < actual.length; i++) expect(actual[i - 1][1]).toBeGreaterThanOrEqual(actual[i][1] - 1e-12);
}

describe('text index: building and querying', () => {
  it('finds pages by title, headings, body and URL words, title first', async () => {
    const index = await openIndex(await tempDir());
    await index.rebuild([
      { id: 1, url: 'https://astro.example.org/clubs/star-party', host: 'astro.example.org', title: 'Telescopes for beginners', headings: [], text: 'A guide.' },
      { id: 2, url: 'https://astro.example.org/b', host: 'astro.example.org', title: 'A guide', headings: [], text: 'We talk about telescopes and other things here.' },
      { id: 3, url: 'https://astro.example.org/c', host: 'astro.example.org', title: 'Other', headings: ['Choosing telescopes'], text: 'Nothing.' },
      { id: 4, url: 'https://astro.example.org/d', host: 'astro.example.org', title: 'Cooking', headings: [], text: 'Sourdough bread.' },
    ]);
    const result = index.search('telescope');
    expect(result.hits.map((h) => h.id)).toEqual([1, 3, 2]);
    expect(result.total).toBe(3);
    expect(result.hits[0].matchedTerms).toEqual(['telescop']);
    expect(index.search('star party').hits.map((h) => h.id)).toEqual([1]);
    expect(index.search('"star party"').hits.map((h) => h.id)).toEqual([1]);
    expect(index.search('bread -sourdough').total).toBe(0);
    expect(index.search('the telescopes').total).toBe(3);
  });

  it('matches phrases only where the words stand together, and supports wildcards, fuzzy terms and the OR fallback', async () => {
    const index = await openIndex(await tempDir());
    await index.rebuild([
      { id: 1, url: 'https://u.edu/1', host: 'u.edu', title: 'Visit', headings: [], text: 'The University of Chicago press office.' },
      { id: 2, url: 'https://u.edu/2', host: 'u.edu', title: 'Visit', headings: [], text: 'Chicago has a university, of course.' },
      { id: 3, url: 'https://u.edu/3', host: 'u.edu', title: 'Optics', headings: [], text: 'Telescopes and telegraphs.' },
    ]);
    expect(index.search('"university of chicago"').hits.map((h) => h.id)).toEqual([1]);
    expect(index.search('university chicago').hits.map((h) => h.id).sort()).toEqual([1, 2]);
    expect(index.search('university -"university of chicago"').hits.map((h) => h.id)).toEqual([2]);
    expect(index.search('tele*').hits[0].matchedTerms).toEqual(['telegraph', 'telescop']);
    expect(index.search('chicgo~1').hits.map((h) => h.id).sort()).toEqual([1, 2]);
    const fallback = index.search('telescopes chicago');
    expect(fallback.matchMode).toBe('any');
    expect(fallback.total).toBe(3);
    expect(index.search('telescopes optics').matchMode).toBe('all');
    // An unknown field is text (`foo:bar` is an identifier); only an empty query is an error.
    expect(index.search('foo:bar').total).toBe(0);
    expect(() => index.search('  ')).toThrow('empty query');
  });

  it('gives exactly the scores of one lunr index over the same pages when split into many segments', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 37 });
    await index.rebuild(docs);
    expect(index.info().segments.length).toBe(Math.ceil(docs.length / 37));
    const single = lunr.Index.load(buildLunrSegment(docs).lunr as unknown as object);
    for (const query of QUERIES.map(textOnly)) {
      const oracle = single.search(query).map((r) => [Number(r.ref), r.score] as [number, number]);
      expect(oracle.length, query).toBeGreaterThan(0);
      expectSameHits(allHits(index, query), oracle);
    }
    // "all" mode is lunr with every word required.
    expectSameHits(
      allHits(index, textOnly(`${w0} ${w2}`), 'all'),
      single.search(`+${w0} +${w2}`).map((r) => [Number(r.ref), r.score]),
    );
  });

  it('ranks the same with one segment and with many (global statistics)', async () => {
    const one = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    const many = await openIndex(await tempDir(), { maxSegmentDocs: 23 });
    await one.rebuild(docs);
    await many.rebuild(docs);
    for (const query of QUERIES) expect(many.search(query, { limit: 50 }).hits).toEqual(one.search(query, { limit: 50 }).hits);
  });

  it('paginates: pages are slices of the full ranking and the total does not change', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 50 });
    await index.rebuild(docs);
    const full = index.search(common, { limit: 1_000, mode: 'any' });
    expect(full.total).toBeGreaterThan(40);
    for (const [offset, limit] of [[0, 10], [10, 10], [35, 7], [full.total - 3, 10], [full.total + 5, 10]]) {
      const page = index.search(common, { offset, limit, mode: 'any' });
      expect(page.total).toBe(full.total);
      expect(page.hits).toEqual(full.hits.slice(offset, offset + limit));
    }
    expect(index.search(common, { limit: 0 }).hits).toEqual([]);
  });
});

describe('text index: persistence', () => {
  it('reloads the saved segments on open instead of rebuilding', async () => {
    const dir = await tempDir();
    const first = await openIndex(dir, { maxSegmentDocs: 64 });
    await first.rebuild(docs);
    await first.update({ remove: [docs[0].id, docs[100].id] });
    const before = QUERIES.map((q) => first.search(q, { limit: 20 }));
    const info = first.info();
    await first.close();
    const files = await readdir(join(dir, 'index'));
    expect(files).toContain('manifest.json');
    expect(files.filter((f) => f.endsWith('.postings.bin'))).toHaveLength(info.segments.length);
    expect(files.filter((f) => f.endsWith('.lunr.json'))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(dir, 'index', 'manifest.json'), 'utf8'));
    expect(manifest.generation).toBe(info.generation);

    const second = await openIndex(dir, { maxSegmentDocs: 64 });
    expect(second.info()).toEqual(info);
    expect(QUERIES.map((q) => second.search(q, { limit: 20 }))).toEqual(before);
    const stored = await second.documents([docs[5].id, docs[0].id]);
    expect(stored.get(docs[5].id)).toEqual(docs[5]);
    expect(stored.has(docs[0].id)).toBe(false);
  });

  it("writes a segment's ids and versions once, and its deletions at every commit", async () => {
    let fixedCalls = 0;
    const stored = {};
    const part = (deletedIds: number[]) => ({ key: stored, deletedIds, fixed: () => (fixedCalls++, { name: 'seg-000001', docIds: [1, 2, 3], versionsJson: new TextEncoder().encode('["a","b","c"]') }) });
    const header = { format: MANIFEST_FORMAT, generation: 1, nextSegmentNumber: 2, maxTextChars: 100 } as const;
    const manifestText = (...args: Parameters<typeof manifestParts>) => Buffer.concat(manifestParts(...args)).toString('utf8');
    expect(JSON.parse(manifestText(header, [part([])])).segments).toEqual([{ name: 'seg-000001', docIds: [1, 2, 3], versions: ['a', 'b', 'c'], deletedIds: [] }]);
    expect(JSON.parse(manifestText({ ...header, generation: 2 }, [part([2])])).segments[0]).toMatchObject({ docIds: [1, 2, 3], versions: ['a', 'b', 'c'], deletedIds: [2] });
    expect(fixedCalls).toBe(1);

    // Through the index: pages removed from a segment are recorded, the others keep their versions.
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 1_000 });
    await index.rebuild(docs.slice(0, 30));
    await index.update({ remove: [docs[3].id] });
    await index.update({ remove: [docs[7].id], upsert: [{ ...docs[9], text: `${docs[9].text} changed` }] });
    const manifest = JSON.parse(await readFile(join(dir, 'index', 'manifest.json'), 'utf8'));
    const first = manifest.segments[0];
    expect(first.deletedIds.sort((a: number, b: number) => a - b)).toEqual([docs[3].id, docs[7].id, docs[9].id]);
    // Written when the segment was made: a deleted page keeps its version there (open skips it).
    expect(first.versions.filter((v: string) => v !== '')).toHaveLength(30);
    await index.close();
    const reopened = await openIndex(dir, { maxSegmentDocs: 1_000 });
    expect(reopened.info().documentCount).toBe(28);
    expect(reopened.holdsVersion(docs[10])).toBe(true);
    expect(reopened.holdsVersion({ ...docs[9], text: `${docs[9].text} changed` })).toBe(true);
  });

  it('removes the lunr JSON that earlier versions wrote with a segment, when the segment goes', async () => {
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 1_000 });
    await index.rebuild(docs.slice(0, 30));
    const name = index.info().segments[0].name;
    const legacy = join(dir, 'index', `${name}.lunr.json`);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(legacy, JSON.stringify({ format: 'lse-text-segment/1', name, docIds: [], lunr: buildLunrSegment(docs.slice(0, 30)).lunr }));
    await index.rebuild(docs.slice(0, 20));
    await index.rebuild(docs.slice(0, 25));
    expect(await readdir(join(dir, 'index'))).not.toContain(`${name}.lunr.json`);
    expect(index.search(docs[0].title.split(' ')[1]).total).toBeGreaterThan(0);
  });

  it('starts empty without a manifest and refuses a corrupt one', async () => {
    const dir = await tempDir();
    const empty = await openIndex(dir);
    expect(empty.info()).toEqual({ generation: 0, documentCount: 0, segments: [] });
    expect(empty.search('anything').total).toBe(0);
    await empty.close();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'index', 'manifest.json'), '{"format":"lse-text-manifest/1"}');
    await expect(TextIndex.open(dir, { workers: 0 })).rejects.toThrow(/not a valid manifest/);
  });
});

describe('text index: updates, deletions and merges', () => {
  async function fresh(pages: TextDocument[]): Promise<TextIndex> {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 40 });
    await index.rebuild(pages);
    return index;
  }

  it('re-indexes changed pages into a new small segment and filters deleted ones', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 40 });
    await index.rebuild(docs);
    const segmentsBefore = index.info().segments.map((s) => s.name);
    const changed = { ...docs[10], title: 'Zyzzyva observatory', text: `${docs[10].text} zyzzyva` };
    const removed = [docs[20].id, docs[21].id];
    await index.update({ upsert: [changed], remove: removed });
    const info = index.info();
    expect(info.segments.slice(0, segmentsBefore.length).map((s) => s.name)).toEqual(segmentsBefore);
    expect(info.segments.at(-1)!.docCount).toBe(1);
    expect(info.documentCount).toBe(docs.length - 2);
    expect(index.search('zyzzyva').hits.map((h) => h.id)).toEqual([docs[10].id]);

    // Same scores as an index built from scratch over the live pages.
    const live = docs.filter((d) => !removed.includes(d.id)).map((d) => (d.id === changed.id ? changed : d));
    const rebuilt = await fresh(live);
    for (const query of [...QUERIES, 'zyzzyva observatory']) expectSameHits(allHits(index, query), allHits(rebuilt, query));
  });

  it('merges small segments, drops deleted pages and keeps the ranking', async () => {
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 40 });
    await index.rebuild(docs.slice(0, 100));
    for (let i = 100; i < 160; i += 10) await index.update({ upsert: docs.slice(i, i + 10), remove: [docs[i - 50].id] });
    const before = index.info();
    expect(before.segments.length).toBe(3 + 6);
    const ranking = QUERIES.map((q) => allHits(index, q));
    const report = await index.merge();
    const after = index.info();
    expect(report.merged.length).toBeGreaterThan(0);
    expect(after.segments.length).toBeLessThan(before.segments.length);
    expect(after.segments.every((s) => s.docCount === s.liveCount)).toBe(true);
    expect(after.documentCount).toBe(before.documentCount);
    QUERIES.forEach((q, i) => expectSameHits(allHits(index, q), ranking[i]));
    // The merged-away segments' files go once no generation in use refers to them.
    await index.update({ remove: [docs[1].id] });
    const files = await readdir(join(dir, 'index'));
    const names = new Set(files.filter((f) => f.endsWith('.postings.bin')).map((f) => f.replace('.postings.bin', '')));
    expect(names.size).toBeLessThanOrEqual(after.segments.length + 1);
  });

  it('merges automatically when small segments pile up', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 40, autoMerge: true, mergePolicy: { segmentsPerTier: 3 } });
    for (let i = 0; i < 60; i += 10) await index.update({ upsert: docs.slice(i, i + 10) });
    await index.mergesSettled();
    expect(index.info().segments.length).toBeLessThanOrEqual(3);
    expect(index.info().documentCount).toBe(60);
  });

  it('lets the event loop turn while it prepares a large update, before any segment is built', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 5_000 });
    await index.rebuild(docs.slice(0, 10));
    // Pages long enough that normalising and hashing them all takes many of the update's slices.
    const text = docs[0].text.repeat(Math.ceil(19_000 / docs[0].text.length)).slice(0, 19_000);
    const upserts = Array.from({ length: 2_000 }, (_, i) => ({ ...docs[i % docs.length], id: 10_000 + i, url: `https://x.test/${i}`, text }));
    const pool = (index as unknown as { pool: { build: (...args: unknown[]) => Promise<unknown> } }).pool;
    const build = pool.build.bind(pool);
    const turns = countTurns();
    let turnsBeforeBuild = -1;
    pool.build = (...args) => {
      if (turnsBeforeBuild < 0) turnsBeforeBuild = turns.count;
      return build(...args);
    };
    const turnsAtStart = turns.count;
    await index.update({ upsert: upserts });
    turns.stop();
    expect(turnsBeforeBuild - turnsAtStart).toBeGreaterThan(2);
    expect(index.search(docs[0].title).total).toBeGreaterThan(0);
  });

  it('a duplicate id in a rebuild keeps the last version', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 3 });
    const later = { ...docs[0], title: 'quokka' };
    await index.rebuild([...docs.slice(0, 5), later]);
    expect(index.info().documentCount).toBe(5);
    expect(index.search('quokka').hits.map((h) => h.id)).toEqual([docs[0].id]);
    expect(index.search(docs[0].title).hits.map((h) => h.id)).not.toContain(-1);
  });
});

describe('text index: concurrency and workers', () => {
  it('keeps answering from a consistent generation while a rebuild runs, then swaps', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 30, workers: 2 });
    const a = docs.slice(0, 150);
    const b = docs.slice(150);
    await index.rebuild(a);
    const snapshot = index.handle.current;
    const query = common;
    const fromA = index.search(query, { limit: 1_000, mode: 'any' });
    const results: SearchResult[] = [];
    let done = false;
    const rebuilding = index.rebuild(b).then(() => (done = true));
    while (!done) {
      results.push(index.search(query, { limit: 1_000, mode: 'any' }));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await rebuilding;
    const fromB = index.search(query, { limit: 1_000, mode: 'any' });
    expect(fromB.generation).toBe(fromA.generation + 1);
    expect(results.length).toBeGreaterThan(1);
    for (const result of results) expect(result.hits).toEqual(result.generation === fromA.generation ? fromA.hits : fromB.hits);
    // A snapshot taken before the swap is untouched by it.
    expect(index.handle.current).not.toBe(snapshot);
    expect(snapshot.documentCount).toBe(150);
  });

  it('worker-built segments are byte for byte the main-thread ones', async () => {
    const [dirA, dirB] = [await tempDir(), await tempDir()];
    const workers = new SegmentBuilderPool(2);
    const inline = new SegmentBuilderPool(0);
    try {
      await Promise.all([workers.build(dirA, 'seg-000001', docs.slice(0, 60)), workers.build(dirA, 'seg-000002', docs.slice(60, 90))]);
      await inline.build(dirB, 'seg-000001', docs.slice(0, 60));
      // Nothing comes back from a build: the segments are what their files hold.
      expect(await readSegment(dirA, 'seg-000001')).toEqual(await readSegment(dirB, 'seg-000001'));
      for (const file of ['seg-000001.docs.jsonl', 'seg-000001.postings.bin']) {
        expect(await readFile(join(dirA, file), 'utf8')).toBe(await readFile(join(dirB, file), 'utf8'));
      }
    } finally {
      await workers.close();
      await inline.close();
    }
  });
});

describe('text index: store adapter', () => {
  it('indexes the indexable pages of a crawl store', async () => {
    const dir = await tempDir();
    const store = await CrawlStore.open(join(dir, 'store'));
    try {
      const page = (url: string, patch: Partial<PageRecord>): PageRecord => ({
        url, host: 'u.edu', role: 'local', state: 'fetched', status: 200, fetchedAt: 0, depth: 0, visits: 1, changes: 0, title: 'Comet watch', text: 'Comets tonight.', ...patch,
      });
      const batch = store.batch();
      const pages: Array<[string, Partial<PageRecord>]> = [
        ['https://u.edu/a', {}],
        ['https://u.edu/b', { noindex: true }],
        ['https://u.edu/c', { role: 'global' }],
        ['https://u.edu/d', { duplicateOf: 0 }],
        ['https://u.edu/e', { state: 'not-modified', title: 'Comet archive' }],
        ['https://u.edu/f', { state: 'gone' }],
      ];
      for (const [url, patch] of pages) batch.putPage(batch.idFor(url), page(url, patch));
      await batch.commit();
      const index = await openIndex(dir);
      await index.rebuild(indexableDocuments(store));
      const urls = index.search('comet').hits.map((hit) => store.urlOf(hit.id));
      expect(urls.sort()).toEqual(['https://u.edu/a', 'https://u.edu/e']);
    } finally {
      await store.close();
    }
  });
});
