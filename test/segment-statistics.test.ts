/**
 * The collection statistics of a snapshot (live documents, field length sums, languages in the
 * order of their first live document) after deletions equal a direct count over the live
 * documents, whether a segment's statistics come from a count of all its documents minus the
 * deleted ones or from scratch.
 */
import { describe, expect, it } from 'vitest';
import { makeSegmentSet, withDeletions, type SegmentSet } from '../indexer/text-index/segment-set.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { termNumber, termPostings } from '../indexer/text-index/compact-segment.ts';
import { QueryBudget } from '../indexer/text-index/query-budget.ts';
import { CollectionTerms } from '../indexer/text-index/scorer.ts';
import { languageAt } from '../indexer/text-index/language-column.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-statistics-');

function directCount(set: SegmentSet) {
  let live = 0;
  const sums = new Float64Array(set.fieldLengthSums.length);
  const languages = new Map<string, number>();
  for (const segment of set.segments) {
    const { docIds, fields, docLangs } = segment.stored.postings;
    for (let ordinal = 0; ordinal < docIds.length; ordinal++) {
      if (segment.deleted?.[ordinal]) continue;
      live++;
      languages.set(languageAt(docLangs, ordinal), (languages.get(languageAt(docLangs, ordinal)) ?? 0) + 1);
      for (let f = 0; f < fields.length; f++) sums[f] += fields[f].lengths[ordinal];
    }
  }
  return { live, sums: [...sums], languages: [...languages] };
}

describe('collection statistics', () => {
  it('count the live documents after deletions, languages in the order of their first live page', async () => {
    // Real pages, each segment's first in French, the next in English: deleting the first puts English first.
    const docs: TextDocument[] = realDocPages(240).map((doc, i) => ({ ...doc, lang: i % 60 === 30 ? 'de' : i % 7 === 0 ? 'fr' : 'en' }));
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 60 });
    await index.rebuild(docs);
    const before = index.handle.current;
    const at = (set: SegmentSet) => ({ live: set.documentCount, sums: [...set.fieldLengthSums], languages: [...set.languages] });
    expect(at(before)).toEqual(directCount(before));
    for (const deleted of [[0, 60, 120, 180].map((i) => docs[i].id), docs.filter((doc) => doc.id % 5 === 1).map((doc) => doc.id), docs.filter((doc) => doc.lang === 'de').map((doc) => doc.id)]) {
      const set = makeSegmentSet(before.generation + 1, before.segments.map((segment) => withDeletions(segment.stored, deleted, segment.deleted)));
      expect(at(set)).toEqual(directCount(set));
    }
    await index.close();
  });

  it('counts the live documents of each term after deletions, few or many', async () => {
    const docs = realDocPages(240);
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 60 });
    await index.rebuild(docs);
    const before = index.handle.current;
    const terms = [...new Set(before.segments.flatMap((segment) => segment.stored.postings.terms.toArray().filter((_, t) => t % 7 === 0)))];
    expect(terms.length).toBeGreaterThan(500);
    const directFrequency = (set: SegmentSet, term: string) => {
      let df = 0;
      for (const segment of set.segments) {
        const t = termNumber(segment.stored.postings, term);
        if (t < 0) continue;
        for (const field of segment.stored.postings.fields) for (const d of termPostings(field, t).docs) if (!segment.deleted?.[d]) df++;
      }
      return df;
    };
    // A few pages per segment (looked up in the postings), a fifth of them (flags walked), then both on top.
    const few = [0, 60, 120, 181, 239].map((i) => docs[i].id);
    const many = docs.filter((doc) => doc.id % 5 === 1).map((doc) => doc.id);
    let set = before;
    for (const deleted of [few, many]) {
      set = makeSegmentSet(set.generation + 1, set.segments.map((segment) => withDeletions(segment.stored, deleted, segment.deleted)));
      const stats = new CollectionTerms(set, new QueryBudget());
      const differing = terms.filter((term) => stats.documentFrequency(term) !== directFrequency(set, term));
      expect(differing).toEqual([]);
    }
    expect(terms.some((term) => directFrequency(set, term) !== directFrequency(before, term))).toBe(true);
    await index.close();
  });
});
