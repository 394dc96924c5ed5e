/**
 * Searches rehearsed on a copy of the index whose segments have deleted pages (what a server's
 * warm-up runs so that its first update finds the search compiled for deletions): on real
 * documentation pages, the copy is what it says and the index is left as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rehearsalSnapshot } from '../indexer/text-index/deletion-rehearsal.ts';
import type { SegmentSet } from '../indexer/text-index/segment-set.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { pageQueries, realDocPages } from './helpers/real-doc-pages.ts';

const pages = realDocPages(600);
const queries = pageQueries(pages, 40);
let dir: string;
let index: TextIndex;

const snapshot = () => (index as unknown as { handle: { current: SegmentSet } }).handle.current;
const answers = () => queries.map((q) => index.search(q).hits.map((hit) => [hit.id, hit.score]));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lse-deletion-rehearsal-'));
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 200 });
  await index.rebuild(pages);
}, 120_000);

afterAll(async () => {
  await index.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(pages.length < 300)('rehearsing deletions', () => {
  it('searches a copy in which one page in 64 of each segment is deleted, and leaves the index as it was', async () => {
    const set = snapshot();
    expect(set.segments.length).toBeGreaterThanOrEqual(3);
    expect(set.segments.every((segment) => segment.deleted === null)).toBe(true);
    const copy = rehearsalSnapshot(set)!;
    // One page in 64 of each segment, the 64th, 128th, …
    const sizes = set.segments.map((segment) => segment.stored.postings.docIds.length);
    expect(copy.segments.map((segment) => segment.deletedCount)).toEqual(sizes.map((n) => Math.floor(n / 64)));
    expect(copy.segments.map((segment) => segment.stored)).toEqual(set.segments.map((segment) => segment.stored));
    const deleted = new Set(set.segments.flatMap(({ stored: { postings } }) => [...postings.docIds].filter((_, ordinal) => ordinal % 64 === 63)));
    expect(copy.documentCount).toBe(set.documentCount - deleted.size);
    // The copy answers as an index without those pages would: none of them is found.
    for (const id of deleted) expect(copy.locations.has(id)).toBe(false);
    expect(copy.locations.has(set.segments[0].stored.postings.docIds[0])).toBe(true);

    const before = answers();
    expect(before.some((hits) => hits.some(([id]) => deleted.has(id as number)))).toBe(true);
    const rehearsed = await index.rehearseDeletions(queries, performance.now() + 60_000);
    expect(rehearsed).toEqual({ searches: queries.length, segments: set.segments.length });
    expect(snapshot()).toBe(set);
    expect(set.segments.every((segment) => segment.deleted === null && segment.liveFrequencies === undefined)).toBe(true);
    expect(answers()).toEqual(before);
  });

  it('deletes the middle page of a segment of fewer than 64, and none of a segment of one', async () => {
    const [first, second] = snapshot().segments;
    const small = (count: number) => ({ ...first, stored: { ...first.stored, postings: { ...first.stored.postings, docIds: first.stored.postings.docIds.subarray(0, count) } } });
    const copy = rehearsalSnapshot({ ...snapshot(), segments: [small(9), small(1), second] })!;
    expect(copy.segments.map((segment) => segment.deletedCount)).toEqual([1, 0, Math.floor(second.stored.postings.docIds.length / 64)]);
    expect(copy.segments[0].deleted![4]).toBe(1);
  });

  it('stops at its deadline, and has nothing to rehearse once every segment has deletions', async () => {
    expect(await index.rehearseDeletions(queries, performance.now() - 1)).toEqual({ searches: 0, segments: snapshot().segments.length });
    const set = snapshot();
    await index.update({ remove: set.segments.map((segment) => segment.stored.postings.docIds[0]) });
    expect(snapshot().segments.every((segment) => segment.deleted !== null)).toBe(true);
    expect(rehearsalSnapshot(snapshot())).toBeNull();
    expect(await index.rehearseDeletions(queries, performance.now() + 60_000)).toEqual({ searches: 0, segments: 0 });
  });
});
