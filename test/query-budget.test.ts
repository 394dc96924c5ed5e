/**
 * One query must never take the server down: edit distances are capped, wildcards, fuzzy words,
 * typos and prefixes are expanded within a budget of visited dictionary entries and scored
 * postings, words past the limit are ignored, and each limit reached is said in the answer.
 * The assertions are on the work counters and flags, not on timings; the HTTP test fires hostile
 * searches beside /healthz over a real socket.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { MAX_EDIT_DISTANCE, MAX_EXPANSION_POSTINGS, MAX_PATTERN_TERMS, MAX_QUERY_WORDS, MAX_SCANNED_TERMS, QueryBudget } from '../indexer/text-index/query-budget.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { TermDictionary } from '../indexer/text-index/term-dictionary.ts';
import { forEachTermMatchingGlob, forEachTermWithinEdits, globMatches, withinEdits } from '../indexer/text-index/term-walk.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { buildDemoSearchSite, type DemoSearchSite } from './helpers/demo-search-site.ts';

describe('term walks', () => {
  const random = seededRandom(11);
  const letters = 'abcde';
  const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => letters[Math.floor(random() * letters.length)]).join('');
  const dictionary = [...new Set(Array.from({ length: 3_000 }, () => word(7)))].sort();
  const bytes = TermDictionary.fromSorted(dictionary);

  it('finds exactly the terms within an edit distance that a full comparison finds', () => {
    for (let i = 0; i < 60; i++) {
      const query = word(8);
      for (const distance of [0, 1, 2]) {
        const found: string[] = [];
        forEachTermWithinEdits(bytes, 0, dictionary.length, query, distance, true, new QueryBudget(), (t) => found.push(dictionary[t]));
        expect(found, `${query}~${distance}`).toEqual(dictionary.filter((term) => withinEdits(query, term, distance)));
      }
    }
  });

  it('visits far fewer entries than the dictionary holds, and nothing past its budget', () => {
    const budget = new QueryBudget();
    forEachTermWithinEdits(bytes, 0, dictionary.length, 'abcdeabcdeabcde', 1, true, budget, () => {});
    expect(budget.work.scannedTerms).toBeLessThan(dictionary.length / 3);
    const small = new QueryBudget(100);
    let visited = 0;
    forEachTermMatchingGlob(bytes, '*a*', true, small, () => visited++);
    expect(small.work.scannedTerms).toBe(100);
    expect(visited).toBeLessThanOrEqual(100);
    expect(small.partial).toBe(true);
    expect(small.notices.map((n) => n.code)).toEqual(['LSE_QUERY_SCAN_LIMIT']);
  });

  it('matches wildcards as a regular expression would, in linear time', () => {
    for (const pattern of ['a*', '*a', '*ab*', 'a*b*c', '*', 'ab', 'a**e', '*e*e*']) {
      const found: string[] = [];
      forEachTermMatchingGlob(bytes, pattern, true, new QueryBudget(), (t) => found.push(dictionary[t]));
      const regex = new RegExp(`^${pattern.replace(/\*/g, '.*')}$`);
      expect(found, pattern).toEqual(dictionary.filter((term) => regex.test(term)));
    }
    // A pattern that makes a backtracking expression explode answers at once.
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(5_000))).toBe(false);
  });

  it('skips namespaced terms (other languages) for a plain word', () => {
    const terms = ['da:abc', 'de:abc', 'abc', 'abd'].sort();
    const found: string[] = [];
    forEachTermWithinEdits(TermDictionary.fromSorted(terms), 0, terms.length, 'abc', 2, true, new QueryBudget(), (t) => found.push(terms[t]));
    expect(found).toEqual(['abc', 'abd']);
  });
});

describe('the work budget of a search', () => {
  let dir: string;
  let index: TextIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-query-budget-'));
    index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 200 });
    await index.rebuild(syntheticCorpus({ count: 600, seed: 3, wordsPerPage: 120, vocabularySize: 6_000 }).documents);
  }, 120_000);
  afterAll(async () => {
    await index?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('caps the edit distance at 2 and says so', () => {
    const capped = index.search('foo~100');
    const two = index.search('foo~2');
    expect(capped.notices.map((n) => n.code)).toContain('LSE_QUERY_EDIT_DISTANCE_CAPPED');
    expect(capped.notices.find((n) => n.code === 'LSE_QUERY_EDIT_DISTANCE_CAPPED')!.message).toMatch(/foo~100.*searched as 2/);
    expect(capped.hits.map((h) => h.id)).toEqual(two.hits.map((h) => h.id));
    expect(capped.work).toEqual(two.work);
    expect(MAX_EDIT_DISTANCE).toBe(2);
  });

  it('bounds a fuzzy word however long it is', () => {
    const result = index.search(`${'abcdefghij'.repeat(40)}~2`);
    expect(result.work.scannedTerms).toBeLessThanOrEqual(MAX_SCANNED_TERMS);
    expect(result.total).toBe(0);
  });

  it('keeps the most frequent terms of a wildcard that matches too many, and marks the answer partial', () => {
    const result = index.search('*a*', { limit: 5 });
    expect(result.partial).toBe(true);
    expect(result.notices.map((n) => n.code)).toContain('LSE_QUERY_EXPANSION_LIMIT');
    expect(result.work.expandedTerms).toBeLessThanOrEqual(MAX_PATTERN_TERMS);
    expect(result.terms.length).toBeLessThanOrEqual(MAX_PATTERN_TERMS);
    expect(result.total).toBeGreaterThan(0);
    // A narrow wildcard is complete.
    const narrow = index.search(`${result.terms[0].slice(0, 4)}*`);
    expect(narrow.partial).toBe(false);
    expect(narrow.notices).toEqual([]);
  });

  it('stops expanding when the dictionary walk reaches the budget', () => {
    const budget = new QueryBudget(500);
    const result = index.search('*e* *o*', { mode: 'any', budget });
    expect(result.work.scannedTerms).toBe(500);
    expect(result.partial).toBe(true);
    expect(result.notices.map((n) => n.code)).toContain('LSE_QUERY_SCAN_LIMIT');
  });

  it('leaves out expanded terms past the postings allowance, never the words typed', () => {
    const budget = new QueryBudget(MAX_SCANNED_TERMS, 1_000);
    const word = index.search('*a*', { limit: 1 }).terms[0];
    const result = index.search(`${word} *e*`, { mode: 'any', budget });
    expect(result.partial).toBe(true);
    expect(result.notices.map((n) => n.code)).toContain('LSE_QUERY_POSTINGS_LIMIT');
    expect(result.terms).toContain(word);
  });

  it('stops matching a phrase of a common word repeated when the positions checked reach the budget', () => {
    const word = index.search('*a*', { limit: 1 }).terms[0];
    const phrase = `"${Array(8).fill(word).join(' ')}"`;
    const unbounded = index.search(phrase);
    expect(unbounded.work.phrasePositions).toBeGreaterThan(100);
    expect(unbounded.partial).toBe(false);
    const budget = new QueryBudget(MAX_SCANNED_TERMS, MAX_EXPANSION_POSTINGS, 100);
    const bounded = index.search(phrase, { budget });
    expect(bounded.work.phrasePositions).toBe(100);
    expect(bounded.partial).toBe(true);
    expect(bounded.notices.map((n) => n.code)).toEqual(['LSE_QUERY_PHRASE_LIMIT']);
  });

  it('ignores words past the limit, and says how many', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const result = index.search(words, { mode: 'any' });
    expect(result.partial).toBe(true);
    const notice = result.notices.find((n) => n.code === 'LSE_QUERY_WORD_LIMIT');
    expect(notice?.message).toContain(`first ${MAX_QUERY_WORDS} words`);
    expect(notice?.message).toContain('168 more');
  });

  it('counts the parts of an identifier or a URL as words', () => {
    const url = `https://example.org/${Array.from({ length: 60 }, (_, i) => `p${i}`).join('/')}`;
    const result = index.search(url);
    expect(result.partial).toBe(true);
    expect(result.notices.map((n) => n.code)).toEqual(['LSE_QUERY_WORD_LIMIT']);
  });

  it('answers an ordinary query without notices', () => {
    const result = index.search(index.search('*a*', { limit: 1 }).terms[0]);
    expect(result).toMatchObject({ partial: false, notices: [] });
  });
});

describe('hostile queries over HTTP', () => {
  let site: DemoSearchSite;
  beforeAll(async () => {
    site = await buildDemoSearchSite({ listen: true });
  }, 120_000);
  afterAll(async () => site?.close());

  const search = (q: string) => fetch(`${site.url}/api/search?q=${encodeURIComponent(q)}`);

  it('answers /healthz while hostile searches run, and the searches answer with what they did', async () => {
    const hostile: Array<[string, string | undefined]> = [
      ['foo~100', 'LSE_QUERY_EDIT_DISTANCE_CAPPED'],
      ['telescope~50 observatory~40', 'LSE_QUERY_EDIT_DISTANCE_CAPPED'],
      ['*e*', 'LSE_QUERY_EXPANSION_LIMIT'],
      ['*e* *o* *i* *u*', 'LSE_QUERY_EXPANSION_LIMIT'],
      [`${'x'.repeat(60)}~2`, undefined],
      [Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), 'LSE_QUERY_WORD_LIMIT'],
    ];
    const started = Date.now();
    const [health, ...answers] = await Promise.all([fetch(`${site.url}/healthz`), ...hostile.map(([q]) => search(q))]);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    for (const [i, response] of answers.entries()) {
      const [q, code] = hostile[i];
      expect(response.status, q).toBe(200);
      const body = (await response.json()) as { notices?: Array<{ code: string }>; partial?: boolean };
      if (code !== undefined) expect(body.notices?.map((n) => n.code), q).toContain(code);
    }
    // Very generous: on the old code `foo~100` never answered (the process ran out of memory).
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('says which limit a search reached, with a code', async () => {
    const capped = (await (await search('telescope~9')).json()) as { notices: Array<{ code: string; message: string }>; total: number };
    expect(capped.notices).toEqual([{ code: 'LSE_QUERY_EDIT_DISTANCE_CAPPED', message: expect.stringContaining('telescope~9') }]);
    expect(capped.total).toBeGreaterThan(0);
    const many = (await (await search(Array.from({ length: 40 }, () => 'telescope').join(' '))).json()) as { partial: boolean; notices: Array<{ code: string }> };
    expect(many.partial).toBe(true);
    expect(many.notices.map((n) => n.code)).toContain('LSE_QUERY_WORD_LIMIT');
  });

  it('refuses a huge query at once with a 4xx', async () => {
    const long = await search('telescope '.repeat(60));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { code: string }).code).toBe('FST_ERR_VALIDATION');
    // Past the HTTP header limit the request never reaches the search.
    const huge = await search('a'.repeat(100_000));
    expect([400, 414, 431]).toContain(huge.status);
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
  });
});
