/**
 * Postings left in the segments' files and read a term at a time (paged-postings.ts): an opened
 * index holds none of them in memory, answers exactly as the same segments read whole, keeps what
 * it read within its cache budget, and a snapshot keeps reading files a later generation removed.
 */
import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextTurn } from '../indexer/stepwise.ts';
import { IndexCorruptError } from '../indexer/text-index/errors.ts';
import { MatchCollector } from '../indexer/text-index/match-collector.ts';
import { bodyPositions } from '../indexer/text-index/passage.ts';
import { PostingsCache, type ReadMemory } from '../indexer/text-index/postings-cache.ts';
import { searchSnapshot, type SearchOptions } from '../indexer/text-index/search.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { makeSegmentSet, type SegmentSet } from '../indexer/text-index/segment-set.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { pageQueries, realDocPages } from './helpers/real-doc-pages.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-paged-');

/** The same snapshot with every segment's postings read whole into memory (the reference). */
async function wholeSnapshot(index: TextIndex): Promise<SegmentSet> {
  const set = index.handle.current;
  const segments = await Promise.all(set.segments.map(async (segment) => ({ ...segment, stored: await readSegment(index.directory, segment.stored.postings.name) })));
  return makeSegmentSet(set.generation, segments);
}

function answer(set: SegmentSet, query: string, options: SearchOptions) {
  const collected = new MatchCollector();
  const result = searchSnapshot(set, query, { ...options, collect: collected });
  return { hits: result.hits.map((hit) => [hit.id, hit.score, hit.matchedTerms.join(' ')]), total: result.total, terms: result.terms, collected: [...collected.ids()].sort((a, b) => a - b) };
}

describe('paged postings', () => {
  it('answers every kind of query exactly as the segments read whole', async () => {
    const docs = realDocPages(300);
    expect(docs.length).toBe(300);
    const dir = await tempDir();
    const built = await openIndex(dir, { maxSegmentDocs: 80 });
    await built.rebuild(docs);
    await built.update({ remove: docs.filter((doc) => doc.id % 11 === 3).map((doc) => doc.id) });
    await built.close();
    // A small budget: lists are evicted and read again while the queries run, into reused memory.
    const index = await openIndex(dir, { maxSegmentDocs: 80, postingsCacheBytes: 64 * 1024 });
    for (const segment of index.handle.current.segments) {
      for (const field of segment.stored.postings.fields) {
        expect(field.paged).toBeDefined();
        expect(field.docs.length + field.tf.length + field.positions.length + field.positionOffsets.length).toBe(0);
      }
    }
    const whole = await wholeSnapshot(index);
    let compared = 0;
    for (const query of pageQueries(docs, 120)) {
      for (const options of [{ limit: 10 }, { limit: 5, mode: 'any' }, { limit: 10, exhaustive: true }] as SearchOptions[]) {
        const paged = answer(index.handle.current, query, options);
        expect({ query, ...paged }).toEqual({ query, ...answer(whole, query, options) });
        compared++;
        // The memory of lists evicted in this turn is reused in the next (postings-cache.ts).
        await nextTurn();
      }
      // Snippets find the terms' word positions in the body.
      const { hits } = index.search(query, { limit: 3 });
      for (const hit of hits) {
        const location = index.handle.current.locations.get(hit.id)!;
        const same = whole.segments[index.handle.current.segments.indexOf(location.segment)];
        expect(bodyPositions(location.segment.stored.postings, location.ordinal, hit.matchedTerms)).toEqual(bodyPositions(same.stored.postings, location.ordinal, hit.matchedTerms));
      }
    }
    expect(compared).toBe(360);
  }, 240_000);

  it('keeps what it read within its budget, least recently used out, as its memory and not its objects', () => {
    const cache = new PostingsCache(150);
    let reads = 0;
    const view = (memory: ReadMemory, n: number) => new Uint8Array(memory.buffer, memory.byteOffset, n);
    const read = (fill: number, bytes = 64) => () => {
      reads++;
      return { value: view(cache.memory(bytes), bytes).fill(fill), bytes, shape: bytes };
    };
    const first = cache.get(1, read(1), view);
    cache.get(2, read(2), view);
    const again = cache.get(1, read(1), view);
    expect(reads).toBe(2);
    // A new view of the same bytes: the cache holds no object of the read.
    expect(again).not.toBe(first);
    expect(again.buffer).toBe(first.buffer);
    expect(again.byteOffset).toBe(first.byteOffset);
    expect([...again]).toEqual(new Array(64).fill(1));
    cache.get(3, read(3), view);
    // 2 was the least recently used: 1 and 3 stay.
    expect(cache.size).toBe(128);
    expect(cache.count).toBe(2);
    expect([...cache.get(1, read(1), view)]).toEqual(new Array(64).fill(1));
    expect([...cache.get(3, read(3), view)]).toEqual(new Array(64).fill(3));
    expect(reads).toBe(3);
    cache.get(2, read(2), view);
    expect(reads).toBe(4);
    // What is larger than the whole budget is returned and not kept.
    expect([...cache.get(4, read(4, 400), view)]).toEqual(new Array(400).fill(4));
    cache.get(4, read(4, 400), view);
    expect(reads).toBe(6);
    expect(cache.size).toBeLessThanOrEqual(150);
    // Nor is a value read outside the cache's memory: nothing could make it again.
    const outside = () => (reads++, { value: new Uint8Array(8), bytes: 8, shape: 8 });
    cache.get(5, outside, view);
    cache.get(5, outside, view);
    expect(reads).toBe(8);
  });

  it('keeps answering from a snapshot whose files a later generation removed', async () => {
    const docs = realDocPages(120);
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 40, postingsCacheBytes: 0 });
    await index.rebuild(docs);
    const snapshot = index.handle.current;
    const before = answer(snapshot, 'template', { limit: 10 });
    const names = snapshot.segments.map((segment) => segment.stored.postings.name);
    await index.merge();
    await index.update({ remove: [docs[0].id] });
    await index.merge();
    const files = await readdir(join(dir, 'index'));
    expect(names.some((name) => files.includes(`${name}.postings.bin`))).toBe(false);
    // Nothing is cached (budget 0): these are read from the removed files, still open.
    expect(answer(snapshot, 'template', { limit: 10 })).toEqual(before);
    expect(before.total).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a postings file cut short or with damaged offsets, naming it', async () => {
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 1000 });
    await index.rebuild(realDocPages(20));
    const [segment] = index.handle.current.segments;
    await index.close();
    const path = join(dir, 'index', `${segment.stored.postings.name}.postings.bin`);
    const whole = await readFile(path);
    // Term offsets overwritten past the header: refused at open, not read from the wrong place.
    const damaged = Buffer.from(whole);
    const bodyStart = (8 + damaged.readUInt32LE(4) + 7) & ~7;
    const firstOffsets = bodyStart + ((segment.stored.postings.docIds.length * 4 + 7) & ~7);
    damaged.writeInt32LE(1_000_000, firstOffsets + 8);
    await writeFile(path, damaged);
    await expect(TextIndex.open(dir, { workers: 0 })).rejects.toThrow(/postings that do not fit its header/);
    await truncate(path, 4000);
    await expect(TextIndex.open(dir, { workers: 0 })).rejects.toThrow(IndexCorruptError);
    await expect(TextIndex.open(dir, { workers: 0 })).rejects.toThrow(/postings\.bin is truncated/);
  });
});
