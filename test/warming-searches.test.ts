/**
 * The searches `lse serve` warms with before it listens: the index's most frequent words (those of
 * the body of its largest segment, counted here from the pages' own text), the queries made of
 * them after the site's popular ones, and the deadline that stops them.
 */
import { describe, expect, it } from 'vitest';
import type { EngineQuery, EngineResult } from '../indexer/ranking/search-engine.ts';
import { analyzeText } from '../indexer/text-index/analysis.ts';
import { LONG_LIST } from '../indexer/text-index/block-bounds.ts';
import { frequentWordQueries, MAX_WARMING_SEARCHES, runWarmingSearches, warmingQueries } from '../server/warming-searches.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-warming-searches-');

describe('the most frequent words of an index', () => {
  it('are the body terms of its largest segment with at least a long list, most pages first', async () => {
    // Django's and Sphinx's pages twice over, so that common words pass a long list's length.
    const pages = realDocPages(2_000);
    expect(pages.length).toBeGreaterThan(LONG_LIST / 2);
    const documents = [...pages, ...pages.map((page) => ({ ...page, id: page.id + pages.length, url: `${page.url}?copy` }))];
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 1_200 });
    await index.rebuild(documents);
    const segments = index.currentSegments();
    expect(segments.length).toBeGreaterThan(1);
    const largest = segments.reduce((a, b) => (b.docIds.length > a.docIds.length ? b : a));

    const pagesOf = new Map<string, number>();
    const byId = new Map(documents.map((doc) => [doc.id, doc]));
    for (const id of largest.docIds) {
      const terms = new Set(analyzeText(byId.get(id)!.text, 'en').flatMap((token) => (token.term === null ? [] : [token.term])));
      for (const term of terms) pagesOf.set(term, (pagesOf.get(term) ?? 0) + 1);
    }
    const expected = [...pagesOf]
      .filter(([, count]) => count >= LONG_LIST)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([term]) => term);
    expect(expected.length).toBeGreaterThan(4);
    expect(index.frequentTerms(1_000)).toEqual(expected);
    expect(index.frequentTerms(3)).toEqual(expected.slice(0, 3));
  }, 120_000);

  it('are none in an index without long lists, or without segments', async () => {
    const index = await openIndex(await tempDir());
    expect(index.frequentTerms(10)).toEqual([]);
    await index.rebuild(realDocPages(50));
    expect(index.frequentTerms(10)).toEqual([]);
  });
});

describe('warming queries', () => {
  const terms = ['system', 'package', 'file', 'debian', 'kernel', 'network', 'user'];

  it('mix each frequent word with others, two or three words, none twice', () => {
    const queries = frequentWordQueries(terms, 30);
    expect(queries.length).toBeGreaterThan(10);
    expect(new Set(queries).size).toBe(queries.length);
    for (const query of queries) {
      const words = query.split(' ');
      expect(words.length).toBeLessThanOrEqual(3);
      expect(new Set(words).size).toBe(words.length);
      for (const word of words) expect(terms).toContain(word);
    }
    // Every word is asked, the most frequent first.
    expect(new Set(queries.flatMap((q) => q.split(' ')))).toEqual(new Set(terms));
    expect(queries[0].split(' ')[0]).toBe('system');
    expect(frequentWordQueries([], 10)).toEqual([]);
    expect(frequentWordQueries(['alone'], 10)).toEqual(['alone']);
  });

  it('are the popular queries first, then the frequent words, at most the cap', () => {
    const popular = ['install debian', 'network setup', 'system'];
    const queries = warmingQueries(popular, terms);
    expect(queries.slice(0, 3)).toEqual(popular);
    expect(queries.length).toBeGreaterThan(3);
    expect(new Set(queries).size).toBe(queries.length);
    const many = Array.from({ length: MAX_WARMING_SEARCHES + 50 }, (_, i) => `query ${i}`);
    expect(warmingQueries(many, terms)).toEqual(many.slice(0, MAX_WARMING_SEARCHES));
  });
});

describe('running warming searches', () => {
  const answer = (q: string): EngineResult => ({ q }) as unknown as EngineResult;

  it('searches each query as a default request, skips refused ones, and stops at the deadline', async () => {
    const asked: EngineQuery[] = [];
    const search = async (query: EngineQuery) => {
      asked.push(query);
      if (query.q === 'bad') throw new Error('refused');
      return answer(query.q);
    };
    expect(await runWarmingSearches(search, ['one', 'bad', 'two'], performance.now() + 60_000)).toEqual({ searches: 2, refused: 1 });
    expect(asked.map((query) => query.q)).toEqual(['one', 'bad', 'two']);
    expect(asked[0]).toEqual({ q: 'one', page: 1, size: 10, rank: 'blend', sort: 'relevance', explain: false, visitorLanguages: [] });

    asked.length = 0;
    expect(await runWarmingSearches(search, ['one', 'two'], performance.now() - 1)).toEqual({ searches: 0, refused: 0 });
    expect(asked).toEqual([]);

    // A search that takes the time left stops the rest.
    const slow = async (query: EngineQuery) => {
      asked.push(query);
      await new Promise((resolve) => setTimeout(resolve, 30));
      return answer(query.q);
    };
    expect(await runWarmingSearches(slow, ['one', 'two', 'three'], performance.now() + 20)).toEqual({ searches: 1, refused: 0 });
  });
});
