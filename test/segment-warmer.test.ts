/**
 * A commit warms the segments it brings in: the postings and block summaries of the terms
 * queries asked of the segments before are read from the new ones before they become visible,
 * so the same queries after a merge read nothing from the files; and the index's other warmers
 * see the new segments before any search can.
 */
import { describe, expect, it, vi } from 'vitest';
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
  const read = vi.spyOn(PostingsFile.prototype, 'read');
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
