/**
 * Dynamic pruning (top-k.ts) against the exhaustive scorer on real documentation: the same hits,
 * in the same order, with the same scores to the last bit, the same totals and the same matches
 * collected, for many queries of words taken from the pages, in both modes, with operators, a
 * filter, deleted pages, and a static prior.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { MatchCollector } from '../indexer/text-index/match-collector.ts';
import type { StaticPrior } from '../indexer/text-index/scorer.ts';
import type { SearchOptions } from '../indexer/text-index/search.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { pageQueries, realDocPages } from './helpers/real-doc-pages.ts';

const PAGES = 600;

/** A deterministic prior per page, with ties (many pages share a value) and negatives. */
const prior: StaticPrior = {
  of(segment: CompactSegment) {
    return Float64Array.from(segment.docIds, (id) => (id % 7 === 0 ? 0 : 0.5 * Math.log((((id * 2654435761) >>> 0) % 1000) / 500 + 0.01)));
  },
};

/** Pages of rank 0 (prior -Infinity) and a few hubs far above the rest: the prior's levels (prior-levels.ts) spread wide. */
const skewedPrior: StaticPrior = {
  of(segment: CompactSegment) {
    return Float64Array.from(segment.docIds, (id) => (id % 11 === 3 ? -Infinity : id % 29 === 0 ? 40 + id / 100 : Math.sin(id)));
  },
};

let dir: string;
let index: TextIndex;
let docs: TextDocument[];

beforeAll(async () => {
  docs = realDocPages(PAGES);
  dir = await mkdtemp(join(tmpdir(), 'lse-top-k-'));
  // Segments of a few hundred pages: long lists span several blocks, and statistics are global.
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 250 });
  await index.rebuild(docs);
  // Deleted pages stay in their segments' postings and must be skipped by both paths.
  await index.update({ remove: docs.filter((doc) => doc.id % 13 === 5).map((doc) => doc.id) });
}, 240_000);

afterAll(async () => {
  await index?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let work = { candidates: 0, scoredDocuments: 0, refinedSegments: 0 };

function run(query: string, options: SearchOptions) {
  const collected = new MatchCollector();
  const result = index.search(query, { ...options, collect: collected });
  work = result.work;
  return { hits: result.hits.map((hit) => [hit.id, hit.score, hit.matchedTerms.join(' ')]), total: result.total, unfilteredTotal: result.unfilteredTotal, matchMode: result.matchMode, collected: [...collected.ids()].sort((x, y) => x - y) };
}

describe('top-k with dynamic pruning', () => {
  it('has real pages to test on', () => {
    expect(docs.length).toBeGreaterThan(300);
    expect(index.handle.current.segments.length).toBeGreaterThan(1);
  });

  it('finds the same hits, scores, totals and matches as scoring every match', () => {
    const accept = (id: number) => id % 3 !== 1;
    let compared = 0;
    let skipped = 0;
    let candidates = 0;
    let refined = 0;
    for (const query of pageQueries(docs, 100)) {
      for (const mode of ['all', 'any'] as const) {
        for (const options of [{ limit: 10 }, { limit: 1 }, { limit: 5, offset: 5, accept }, { limit: 10, prior }, { limit: 3, prior, accept }] as SearchOptions[]) {
          const exhaustive = run(query, { ...options, mode, exhaustive: true });
          const pruned = run(query, { ...options, mode });
          expect({ ...pruned, query, mode }).toEqual({ ...exhaustive, query, mode });
          expect(pruned.collected.length).toBe(exhaustive.unfilteredTotal);
          compared++;
          candidates += work.candidates;
          skipped += work.candidates - work.scoredDocuments;
          refined += work.refinedSegments;
        }
      }
    }
    expect(compared).toBe(100 * 2 * 5);
    // Some segments were bounded a second time, exactly for more lists, and still gave the same.
    expect(refined).toBeGreaterThan(0);
    // The point of it: most candidates are not scored.
    expect(skipped / candidates).toBeGreaterThan(0.3);
  }, 240_000);

  it('finds the same for the pages\' own titles, where exact-name bonuses are scored first over all segments', () => {
    let named = 0;
    for (const doc of docs.filter((d) => d.title.trim().length > 0).slice(0, 80)) {
      for (const options of [{ limit: 10 }, { limit: 1, prior }, { limit: 10, prior: skewedPrior }, { limit: 4, offset: 2, prior: skewedPrior, accept: (id: number) => id % 4 !== 0 }] as SearchOptions[]) {
        const exhaustive = run(doc.title, { ...options, exhaustive: true });
        const pruned = run(doc.title, options);
        expect({ ...pruned, title: doc.title }).toEqual({ ...exhaustive, title: doc.title });
        if (pruned.hits.some(([id]) => id === doc.id)) named++;
      }
    }
    // The titled page is found for most of its own titles.
    expect(named).toBeGreaterThan(80 * 4 * 0.5);
  }, 240_000);

  it('finds the same for identifiers beside words, which are checked on the words\' candidates only', () => {
    // Dotted, dashed and colon names as the pages write them (django.db.models, sphinx-build, …),
    // with a word near them, a word from elsewhere, and alone: matched whole or by every part.
    const random = seededRandom(5);
    const identifiers = docs.flatMap((doc) => [...doc.text.matchAll(/\b([a-z]{2,}(?:[-.:][a-z]{2,})+)\b[^a-z]+([a-z]{4,})/gi)].slice(0, 2).map((m) => ({ name: m[1], near: m[2] })));
    expect(identifiers.length).toBeGreaterThan(100);
    const words = identifiers.map((found) => found.near);
    let found = 0;
    for (let i = 0; i < 120; i++) {
      const { name, near } = identifiers[Math.floor(random() * identifiers.length)];
      const elsewhere = words[Math.floor(random() * words.length)];
      const query = [`${name} ${near}`, `${near} ${name} ${elsewhere}`, `${elsewhere} ${name}`][i % 3];
      for (const options of [{ limit: 10 }, { limit: 5, offset: 5, prior, accept: (id: number) => id % 3 !== 1 }] as SearchOptions[]) {
        const exhaustive = run(query, { ...options, exhaustive: true });
        expect({ ...run(query, options), query }).toEqual({ ...exhaustive, query });
        if (exhaustive.total > 0) found++;
      }
    }
    // Most found something: the identifier's clause was checked on candidates, not only on none.
    expect(found).toBeGreaterThan(120);
  });

  it('finds the same in one segment of every page, where long lists are searched through their blocks', async () => {
    const wholeDir = await mkdtemp(join(tmpdir(), 'lse-top-k-whole-'));
    const whole = await TextIndex.open(wholeDir, { workers: 0, autoMerge: false, maxSegmentDocs: 1_000 });
    try {
      await whole.rebuild(docs);
      expect(whole.handle.current.segments.length).toBe(1);
      const results = (query: string, options: SearchOptions) => {
        const result = whole.search(query, options);
        return { hits: result.hits.map((hit) => [hit.id, hit.score]), total: result.total };
      };
      for (const query of pageQueries(docs, 40)) {
        for (const options of [{ limit: 10 }, { limit: 3, prior }] as SearchOptions[]) {
          expect({ ...results(query, options), query }).toEqual({ ...results(query, { ...options, exhaustive: true }), query });
        }
      }
    } finally {
      await whole.close();
      await rm(wholeDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('orders by text score plus prior exactly as sorting every match by it', () => {
    for (const query of pageQueries(docs, 40)) {
      const every = index.search(query, { limit: 1_000, exhaustive: true, tolerance: false, mode: 'any' });
      const priorOf = new Map<number, number>();
      for (const segment of index.handle.current.segments) {
        const values = prior.of(segment.stored.postings);
        segment.stored.postings.docIds.forEach((id, d) => priorOf.set(id, values[d]));
      }
      const expected = every.hits
        .map((hit) => ({ id: hit.id, key: hit.score + priorOf.get(hit.id)! }))
        .sort((x, y) => y.key - x.key || x.id - y.id)
        .slice(0, 10)
        .map((hit) => hit.id);
      expect(index.search(query, { limit: 10, prior, tolerance: false, mode: 'any' }).hits.map((hit) => hit.id)).toEqual(expected);
    }
  });
});
