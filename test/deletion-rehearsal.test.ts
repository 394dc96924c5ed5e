/**
 * Searches rehearsed on a copy of the index whose segments have deleted pages (what a server's
 * warm-up runs so that its first update finds the search compiled for deletions): on real
 * documentation pages, the copy is what it says and the index is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { rehearsalSnapshot } from '../indexer/text-index/deletion-rehearsal.ts';
import type { SegmentSet } from '../indexer/text-index/segment-set.ts';
import type { TextIndex } from '../indexer/text-index/text-index.ts';
import { pageQueries, realDocPages } from './helpers/real-doc-pages.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-deletion-rehearsal-');
const pages = realDocPages(600);
const queries = pageQueries(pages, 40);

/** The pages in segments of 200, none deleted. */
async function builtIndex(): Promise<TextIndex> {
  const index = await openIndex(await tempDir(), { maxSegmentDocs: 200 });
  await index.rebuild(pages);
  return index;
}

/** The index's current snapshot (internal: the tests look at what is searched). */
const snapshotOf = (index: TextIndex) => (index as unknown as { handle: { current: SegmentSet } }).handle.current;

describe.skipIf(pages.length < 300)('rehearsing deletions', () => {
  it('searches a copy in which one page in 64 of each segment is deleted, and leaves the index as it was', async () => {
    const index = await builtIndex();
    const answers = () => queries.map((q) => index.search(q).hits.map((hit) => [hit.id, hit.score]));
    const set = snapshotOf(index);
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
    expect(rehearsed).toEqual({ searches: queries.length, segments: set.segments.length, liveCounts: expect.any(Number) });
    // The searches counted terms' live pages on the copy's segments: the paths of deletions ran.
    expect(rehearsed.liveCounts).toBeGreaterThan(queries.length);
    expect(snapshotOf(index)).toBe(set);
    expect(set.segments.every((segment) => segment.deleted === null && segment.liveFrequencies === undefined)).toBe(true);
    expect(answers()).toEqual(before);
  });

  it('deletes the middle page of a segment of fewer than 64, and none of a segment of one', async () => {
    const set = snapshotOf(await builtIndex());
    const [first, second] = set.segments;
    const small = (count: number) => ({ ...first, stored: { ...first.stored, postings: { ...first.stored.postings, docIds: first.stored.postings.docIds.subarray(0, count) } } });
    const copy = rehearsalSnapshot({ ...set, segments: [small(9), small(1), second] })!;
    expect(copy.segments.map((segment) => segment.deletedCount)).toEqual([1, 0, Math.floor(second.stored.postings.docIds.length / 64)]);
    expect(copy.segments[0].deleted![4]).toBe(1);
  });

  it('stops at its deadline, and has nothing to rehearse once every segment has deletions', async () => {
    const index = await builtIndex();
    const snapshot = () => snapshotOf(index);
    expect(await index.rehearseDeletions(queries, performance.now() - 1)).toEqual({ searches: 0, segments: snapshot().segments.length, liveCounts: 0 });
    const set = snapshot();
    await index.update({ remove: set.segments.map((segment) => segment.stored.postings.docIds[0]) });
    expect(snapshot().segments.every((segment) => segment.deleted !== null)).toBe(true);
    expect(rehearsalSnapshot(snapshot())).toBeNull();
    expect(await index.rehearseDeletions(queries, performance.now() + 60_000)).toEqual({ searches: 0, segments: 0, liveCounts: 0 });
  });
});
