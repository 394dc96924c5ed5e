/**
 * Searches rehearsed on a copy of the index whose segments have a deleted page (what a server's
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
  it('searches a copy in which each segment has one deleted page, and leaves the index as it was', async () => {
    const set = snapshot();
    expect(set.segments.length).toBeGreaterThanOrEqual(3);
    expect(set.segments.every((segment) => segment.deleted === null)).toBe(true);
    const copy = rehearsalSnapshot(set)!;
    expect(copy.segments.map((segment) => segment.deletedCount)).toEqual(set.segments.map(() => 1));
    expect(copy.segments.map((segment) => segment.stored)).toEqual(set.segments.map((segment) => segment.stored));
    expect(copy.documentCount).toBe(set.documentCount - set.segments.length);
    // The copy answers as an index without those pages would: none of them is found.
    const deleted = new Set(copy.segments.map((segment) => segment.stored.postings.docIds[segment.stored.postings.docIds.length >> 1]));
    for (const id of deleted) expect(copy.locations.has(id)).toBe(false);

    const before = answers();
    expect(before.some((hits) => hits.some(([id]) => deleted.has(id as number)))).toBe(true);
    const rehearsed = await index.rehearseDeletions(queries, performance.now() + 60_000);
    expect(rehearsed).toEqual({ searches: queries.length, segments: set.segments.length });
    expect(snapshot()).toBe(set);
    expect(set.segments.every((segment) => segment.deleted === null && segment.liveFrequencies === undefined)).toBe(true);
    expect(answers()).toEqual(before);
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
