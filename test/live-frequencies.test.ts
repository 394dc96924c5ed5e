/**
 * Live document frequencies of segments with deleted pages, counted ahead of a commit: on real
 * documentation pages, against a count page by page, and through an update of the index.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedTerms, hasPosting, termNumber } from '../indexer/text-index/compact-segment.ts';
import { liveDocumentFrequency, warmLiveFrequencies } from '../indexer/text-index/live-frequencies.ts';
import { deletedOrdinalsOf, withDeletions, type LiveSegment, type SegmentSet } from '../indexer/text-index/segment-set.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { pageQueries, realDocPages } from './helpers/real-doc-pages.ts';

const pages = realDocPages(600);
let dir: string;
let index: TextIndex;

/** The index's current snapshot (internal: the tests look at what a commit made visible). */
const snapshot = () => (index as unknown as { handle: { current: SegmentSet } }).handle.current;

/** Live pages holding the term, field by field, each page looked up on its own (not through the lists). */
function countedPageByPage(segment: LiveSegment, term: string): number {
  const postings = segment.stored.postings;
  const t = termNumber(postings, term);
  if (t < 0) return 0;
  let df = 0;
  for (const field of postings.fields) {
    for (let ordinal = 0; ordinal < postings.docIds.length; ordinal++) if (segment.deleted?.[ordinal] !== 1 && hasPosting(field, t, ordinal)) df++;
  }
  return df;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lse-live-frequencies-'));
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 200 });
  await index.rebuild(pages);
  // Searches make the terms the segments are asked for.
  for (const q of pageQueries(pages, 60)) index.search(q);
}, 120_000);

afterAll(async () => {
  await index.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(pages.length < 300)('live document frequencies', () => {
  it('are counted ahead for the asked terms of segments that lost pages, as a count page by page gives', async () => {
    const before = snapshot().segments;
    const changed = before.map((segment, i) => (i === 0 ? segment : withDeletions(segment.stored, segment.stored.postings.docIds.filter((id) => id % 5 === i % 5))));
    const asked = changed.map((segment) => askedTerms(segment.stored.postings));
    expect(asked.every((terms) => terms.length > 20)).toBe(true);
    const counted = await warmLiveFrequencies(changed, before);
    // The first segment kept its snapshot (nothing to count); the others are counted term by term.
    expect(changed[0].liveFrequencies).toBeUndefined();
    expect(counted).toBe(asked.slice(1).reduce((n, terms) => n + Math.min(terms.length, 4_096), 0));
    for (const [i, segment] of changed.entries()) {
      if (i === 0) continue;
      expect(segment.deleted).not.toBeNull();
      expect(segment.liveFrequencies?.size).toBe(asked[i].length);
      for (const term of asked[i]) expect(segment.liveFrequencies?.get(term), term).toBe(countedPageByPage(segment, term));
    }
    // Counted once: what is kept is what the searches read.
    for (const term of asked[1].slice(0, 50)) expect(liveDocumentFrequency(changed[1], term)).toBe(countedPageByPage(changed[1], term));
    // Snapshots already visible, or without deletions, are not counted again.
    expect(await warmLiveFrequencies(before, before)).toBe(0);
  });

  it('are kept in a field every live segment has from the start: all segments have one shape', () => {
    const [first] = snapshot().segments;
    const stored = first.stored;
    const plain = withDeletions(stored, []);
    const deleting = withDeletions(stored, [stored.postings.docIds[3]]);
    const keys = Object.keys(plain);
    expect(Object.keys(deleting)).toEqual(keys);
    // What is made on first use goes in fields that are there already (no property is added to a
    // segment the search code was compiled for).
    deletedOrdinalsOf(deleting);
    liveDocumentFrequency(deleting, askedTerms(stored.postings)[0]);
    expect(deleting.liveFrequencies?.size).toBe(1);
    expect(Object.keys(deleting)).toEqual(keys);
    for (const segment of snapshot().segments) expect(Object.keys(segment)).toEqual(keys);
  });

  it('of an update are counted before its commit makes the segments visible', async () => {
    const removed = pages.filter((page) => page.id % 11 === 4).map((page) => page.id);
    const before = new Set(snapshot().segments);
    await index.update({ remove: removed });
    const lost = snapshot().segments.filter((segment) => !before.has(segment));
    expect(lost.length).toBeGreaterThan(1);
    for (const segment of lost) {
      const terms = askedTerms(segment.stored.postings);
      // No search has run since the update: the counts were made by the commit.
      expect(segment.liveFrequencies?.size ?? 0).toBe(terms.length);
      for (const term of terms.slice(0, 40)) expect(segment.liveFrequencies?.get(term), term).toBe(countedPageByPage(segment, term));
    }
  });
});
