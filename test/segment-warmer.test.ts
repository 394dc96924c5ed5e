/**
 * A commit warms the segments it brings in: the postings and block summaries of the terms
 * queries asked of the segments before are read from the new ones before they become visible,
 * so the same queries after a merge read nothing from the files; and the index's other warmers
 * see the new segments before any search can.
 */
import { describe, expect, it, vi } from 'vitest';
import { LONG_LIST } from '../indexer/text-index/block-bounds.ts';
import { termPostings } from '../indexer/text-index/compact-segment.ts';
import { PostingsFile } from '../indexer/text-index/paged-postings.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import type { TextIndex } from '../indexer/text-index/text-index.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-warm-');

const corpus = syntheticCorpus({ count: 240, seed: 5, wordsPerPage: 120, vocabularySize: 1_500 });
const [w0, w1, w2] = corpus.topicWords[1];
const QUERIES = [w0, `${w0} ${w1}`, `${w1} ${w2} ${corpus.vocabulary[4]}`, `+${w0} -${w2}`, `${corpus.vocabulary[40]} ${corpus.vocabulary[90]}`];

async function builtIndex(): Promise<TextIndex> {
  const index = await openIndex(await tempDir(), { maxSegmentDocs: 40 });
  await index.rebuild(corpus.documents);
  expect(index.info().segments.length).toBe(6);
  expect(index.currentSegments().every((segment) => segment.fields.every((field) => field.paged !== undefined))).toBe(true);
  return index;
}

/** Reads of the postings files while `work` runs. */
async function fileReads(work: () => unknown): Promise<number> {
  const read = vi.spyOn(PostingsFile.prototype, 'readInto');
  try {
    await work();
    return read.mock.calls.length;
  } finally {
    read.mockRestore();
  }
}

const runQueries = (index: TextIndex) => QUERIES.map((q) => index.search(q, { limit: 10 }).hits.map((hit) => [hit.id, hit.score]));

describe('warming new segments', () => {
  it('reads what queries asked of the merged segments before the merge is visible', async () => {
    const index = await builtIndex();
    const before = runQueries(index);
    expect(await fileReads(() => runQueries(index))).toBe(0);
    expect(await fileReads(() => index.merge({ force: true }))).toBeGreaterThan(0);
    expect(index.info().segments).toHaveLength(1);
    let after: unknown;
    expect(await fileReads(() => (after = runQueries(index)))).toBe(0);
    expect(after).toEqual(before);
  });

  it('leaves a merge nobody searched before cold (the queries read the files)', async () => {
    const index = await builtIndex();
    await index.merge({ force: true });
    expect(await fileReads(() => runQueries(index))).toBeGreaterThan(0);
  });

  it('runs the added warmers on the new segments before a search can reach them', async () => {
    const index = await builtIndex();
    const seen: Array<{ fresh: string[]; visible: string[] }> = [];
    index.addWarmer(async (segments) => {
      seen.push({ fresh: segments.map((s) => s.name), visible: index.currentSegments().map((s) => s.name) });
    });
    await index.update({ upsert: [{ ...corpus.documents[3], title: 'Changed title' }], remove: [] });
    await index.merge({ force: true });
    expect(seen).toHaveLength(2);
    for (const { fresh, visible } of seen) expect(fresh.some((name) => visible.includes(name))).toBe(false);
    expect(index.currentSegments().map((s) => s.name)).toEqual(seen[1].fresh);
  });
});

describe('warming an index just opened', () => {
  // Two segments of 1,300 pages: the commonest words have lists past LONG_LIST in each.
  const big = syntheticCorpus({ count: 2_600, seed: 11, wordsPerPage: 60, vocabularySize: 2_000 });

  async function openedIndex(postingsCacheBytes?: number): Promise<TextIndex> {
    const dir = await tempDir();
    const built = await openIndex(dir, { maxSegmentDocs: 1_300 });
    await built.rebuild(big.documents);
    await built.close();
    return openIndex(dir, { maxSegmentDocs: 1_300, postingsCacheBytes });
  }

  /** Every list of the current segments, with its length, longest first. */
  function listsOf(index: TextIndex) {
    const lists = index.currentSegments().flatMap((segment) =>
      segment.fields.flatMap((field) => Array.from({ length: field.offsets.length - 1 }, (_, t) => ({ field, t, length: field.offsets[t + 1] - field.offsets[t] }))),
    );
    return lists.sort((a, b) => b.length - a.length);
  }

  it('reads the long lists, longest first, and the searches then read none of them', async () => {
    const index = await openedIndex();
    const long = listsOf(index).filter((list) => list.length >= LONG_LIST);
    expect(long.length).toBeGreaterThan(3);
    const read = vi.spyOn(PostingsFile.prototype, 'readInto');
    let warmed;
    try {
      warmed = await index.warmLongestLists(60_000);
      // Documents then frequencies of each list: the lengths of the reads, in order.
      const lengths = read.mock.calls.filter((_, i) => i % 2 === 0).map((call) => call[2]);
      expect(lengths).toEqual(long.map((list) => list.length));
    } finally {
      read.mockRestore();
    }
    expect(warmed).toEqual({ lists: long.length, bytes: long.reduce((sum, list) => sum + list.length * 6, 0), stoppedAtBudget: false });
    expect(await fileReads(() => long.forEach(({ field, t }) => termPostings(field, t)))).toBe(0);
    // A list shorter than LONG_LIST is still read by the query that asks for it.
    const short = listsOf(index).find((list) => list.length > 0 && list.length < LONG_LIST)!;
    expect(await fileReads(() => termPostings(short.field, short.t))).toBe(2);
  });

  it('stops at three quarters of the postings cache, and at its time budget', async () => {
    const long = listsOf(await openedIndex()).filter((list) => list.length >= LONG_LIST);
    // Three quarters of the cache hold the three longest lists; the whole cache would hold one more.
    const room = (long[0].length + long[1].length + long[2].length) * 6;
    expect(Math.ceil(room / 0.75) - room).toBeGreaterThanOrEqual(long.at(-1)!.length * 6);
    const fitting = long.reduce((taken, list) => (taken.bytes + list.length * 6 <= room ? { bytes: taken.bytes + list.length * 6, lists: taken.lists + 1 } : taken), { bytes: 0, lists: 0 });
    expect(fitting.lists).toBeLessThan(long.length);
    const small = await openedIndex(Math.ceil(room / 0.75));
    expect(await small.warmLongestLists(60_000)).toEqual({ ...fitting, stoppedAtBudget: false });
    const again = await openedIndex();
    expect(await fileReads(async () => expect(await again.warmLongestLists(0)).toEqual({ lists: 0, bytes: 0, stoppedAtBudget: true }))).toBe(0);
  });
});
