import { describe, expect, it } from 'vitest';
import { QuerySyntaxError } from '../indexer/text-index/errors.ts';
import { selectMerges, tierOf } from '../indexer/text-index/merge-policy.ts';
import { parseUserQuery, relaxQuery } from '../indexer/text-index/query-parser.ts';
import { QueryBudget } from '../indexer/text-index/query-budget.ts';
import { escapeHtml, snippet } from '../indexer/text-index/snippet.ts';
import { isIndexablePage, pageToDocument } from '../indexer/text-index/store-adapter.ts';
import { urlWords } from '../indexer/text-index/document.ts';
import type { PageRecord } from '../indexer/store/crawl-store.ts';

describe('query parsing', () => {
  it('requires every plain word in "all" mode and none in "any" mode', () => {
    const all = parseUserQuery('Astronomy telescopes');
    // A word's terms: its English stem, and the word itself (the neutral analysis of pages whose language is unknown).
    expect(all.clauses.map((c) => c.kind === 'term' && [c.terms, c.presence])).toEqual([
      [['astronomi', 'astronomy'], 'required'],
      [['telescop', 'telescopes'], 'required'],
    ]);
    expect(relaxQuery(all).clauses.every((c) => c.presence === 'optional')).toBe(true);
    expect(parseUserQuery('astronomy telescopes', 'any').clauses.every((c) => c.presence === 'optional')).toBe(true);
  });

  it('keeps lunr operators, drops stop words and splits on punctuation', () => {
    const parsed = parseUserQuery("the +comet -moon title:galileo's tele* orbit~1 star^4");
    const summary = parsed.clauses.map((c) => (c.kind === 'term' ? `${c.presence}:${c.terms.join('|')}:${c.fields.length}:${c.boost}:${c.pattern}` : 'phrase'));
    expect(summary).toEqual([
      'required:comet:5:1:false',
      'prohibited:moon:5:1:false',
      'required:galileo:1:1:false',
      'required:s:5:1:false',
      'required:tele*:5:1:true',
      'required:orbit:5:1:true',
      'required:star:5:4:false',
    ]);
    // Excluding a plain word stays an exclusion after relaxing.
    expect(relaxQuery(parsed).clauses[1].presence).toBe('prohibited');
  });

  it('reads quoted text as a phrase with stop-word gaps, and -"…" as an excluded phrase', () => {
    const parsed = parseUserQuery('"university of chicago" -"star party" "telescopes"');
    expect(parsed.clauses).toEqual([
      {
        kind: 'phrase',
        variants: [
          [{ term: 'univers', offset: 0 }, { term: 'chicago', offset: 2 }],
          [{ term: 'university', offset: 0 }, { term: 'of', offset: 1 }, { term: 'chicago', offset: 2 }],
        ],
        fields: [0, 1, 2, 3, 4],
        presence: 'required',
      },
      { kind: 'phrase', variants: [[{ term: 'star', offset: 0 }, { term: 'parti', offset: 1 }], [{ term: 'star', offset: 0 }, { term: 'party', offset: 1 }]], fields: [0, 1, 2, 3, 4], presence: 'prohibited' },
      { kind: 'term', terms: ['telescop', 'telescopes'], pattern: false, fields: [0, 1, 2, 3, 4], boost: 1, presence: 'required', defaulted: false },
    ]);
    // An unbalanced quote is ignored rather than an error.
    expect(parseUserQuery('"comet tail').clauses).toHaveLength(2);
  });

  it.each([
    ['', /empty query/],
    ['   \t ', /empty query/],
    ['-moon -"star party"', /only excludes/],
  ])('rejects %j with a QuerySyntaxError', (query, message) => {
    expect(() => parseUserQuery(query)).toThrow(QuerySyntaxError);
    expect(() => parseUserQuery(query)).toThrow(message);
  });

  it.each([
    ['comet^x', ['comet', 'x'], /boost/],
    ['comet~x', ['comet', 'x'], /edit distance/],
    ['+-comet', ['comet'], /.+/],
  ])('reads %j, which lunr cannot parse, as plain words with a notice', (query, words, message) => {
    const budget = new QueryBudget();
    const parsed = parseUserQuery(query, 'all', ['en'], budget);
    expect(parsed.clauses.map((c) => c.kind === 'term' && c.terms[0])).toEqual(words);
    expect(budget.notices).toEqual([{ code: 'LSE_QUERY_SYNTAX_FALLBACK', message: expect.stringMatching(message) }]);
  });

  it('reads an unknown `word:` as text and a field name in any case as a field', () => {
    const terms = (query: string) => parseUserQuery(query).clauses.map((c) => (c.kind === 'term' ? `${c.terms[0]}:${c.fields.length}` : 'phrase'));
    expect(terms('note: ssh')).toEqual(['note:5', 'ssh:5']);
    expect(terms('foo:bar')).toEqual(['foo:bar:5']);
    expect(terms('title:comet')).toEqual(['comet:1']);
    expect(terms('Title:comet')).toEqual(['comet:1']);
    expect(terms('title:')).toEqual(['titl:5']);
    expect(terms('todo:"star party"')).toEqual(['phrase', 'todo:5']);
  });

  it('searches identifiers whole and by their parts', () => {
    const identifier = (query: string) => {
      const [clause] = parseUserQuery(query, 'all', ['en']).clauses;
      return clause.kind === 'term' ? { whole: clause.terms, parts: clause.parts } : clause;
    };
    expect(identifier('lists:keyfind')).toEqual({ whole: ['lists:keyfind'], parts: [['list', 'lists'], ['keyfind']] });
    expect(identifier('ets:insert')).toEqual({ whole: ['ets:insert'], parts: [['et', 'ets'], ['insert']] });
    expect(identifier('std::vector')).toEqual({ whole: ['std::vector'], parts: [['std'], ['vector']] });
    expect(identifier('gen_server:call/3')).toMatchObject({ whole: expect.arrayContaining(['gen_server:call/3']), parts: [expect.arrayContaining(['gen_server']), ['call'], ['3']] });
    expect(identifier('Date#parse')).toMatchObject({ whole: expect.arrayContaining(['date#parse']), parts: [['date'], ['pars', 'parse']] });
    expect(identifier('os.path.join')).toEqual({ whole: ['os.path.join'], parts: [['os'], ['path'], ['join']] });
    // A URL: its host and path words, all of them.
    expect(identifier('https://docs.example.org/lists.html#keyfind')).toEqual({ whole: [], parts: [['doc', 'docs'], ['exampl', 'example'], ['org'], ['list', 'lists']] });
    // Operators stay with the identifier.
    expect(parseUserQuery('-ets:insert comet').clauses.map((c) => c.presence)).toEqual(['prohibited', 'required']);
  });

  it('searches a query of stop words only as written', () => {
    expect(parseUserQuery('If').clauses).toMatchObject([{ kind: 'term', terms: ['if'], presence: 'required' }]);
    expect(parseUserQuery('the who').clauses.map((c) => c.kind === 'term' && c.terms)).toEqual([['the'], ['who']]);
    expect(parseUserQuery('"the who"').clauses).toMatchObject([{ kind: 'phrase', variants: [[{ term: 'the', offset: 0 }, { term: 'who', offset: 1 }]] }]);
    // With another word, stop words are still dropped.
    expect(parseUserQuery('the telescope').clauses).toHaveLength(1);
  });
});

describe('snippets', () => {
  const text =
    'The history of the college goes back to 1850. ' +
    'Many unrelated sentences follow here, about buildings, lawns, dining halls and the weather in winter. '.repeat(3) +
    'Our observatory houses two large telescopes used for astronomy classes every clear night. ' +
    'More filler text about parking, libraries and the registrar closes the page. '.repeat(3);

  it('picks the passage with the most query terms and marks stemmed matches', () => {
    const result = snippet(text, ['telescope', 'astronomy']);
    expect(result).toContain('<mark>telescopes</mark>');
    expect(result).toContain('<mark>astronomy</mark>');
    const visible = result.replace(/<\/?mark>/g, '');
    expect(visible.length).toBeGreaterThanOrEqual(150);
    expect(visible.length).toBeLessThanOrEqual(250);
    expect(visible.startsWith('… ')).toBe(true);
  });

  it('accepts index terms (stems) as well as words', () => {
    expect(snippet(text, ['telescop'])).toContain('<mark>telescopes</mark>');
  });

  it('escapes hostile page text and never emits page markup', () => {
    const hostile = 'Before <script>alert("x")</script> the <b>telescope</b> & <img src=x onerror=alert(1)> after';
    const result = snippet(hostile, ['telescope', 'script']);
    expect(result).not.toMatch(/<(?!\/?mark>)/);
    expect(result).toContain('&lt;<mark>script</mark>&gt;');
    expect(result).toContain('&lt;b&gt;<mark>telescope</mark>&lt;/b&gt; &amp; &lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('falls back to the beginning of the page when nothing matches', () => {
    const result = snippet(text, ['zebra']);
    expect(result.startsWith('The history of the college')).toBe(true);
    expect(result.endsWith(' …')).toBe(true);
    expect(result).not.toContain('<mark>');
    expect(snippet('', ['zebra'])).toBe('');
  });
});

describe('merge policy', () => {
  // Tiers: up to 100 live pages, 300, 900; merged segments of at most 1,000.
  const options = { maxSegmentDocs: 100, segmentsPerTier: 3, maxMergedSegmentDocs: 1_000, maxDeletedShare: 0.25 };
  const seg = (name: string, docCount: number, liveCount = docCount) => ({ name, docCount, liveCount });

  it('puts segments in tiers by their live pages', () => {
    expect([1, 100, 101, 300, 301, 900, 901].map((n) => tierOf(n, options))).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });

  it('waits until a tier is full, then merges it into one segment of the next tier', () => {
    expect(selectMerges([seg('a', 100), seg('b', 10)], options)).toEqual([]);
    expect(selectMerges([seg('a', 100), seg('b', 10), seg('c', 20)], options)).toEqual([['b', 'c', 'a']]);
    // Two small segments and one of the next tier: neither tier is full.
    expect(selectMerges([seg('a', 250), seg('b', 10), seg('c', 20)], options)).toEqual([]);
    expect(selectMerges([seg('a', 250), seg('b', 290), seg('c', 120), seg('d', 5)], options)).toEqual([['c', 'a', 'b']]);
  });

  it('never merges past the largest merged segment', () => {
    // 400 + 400 fit under 1,000, 450 more would not.
    expect(selectMerges([seg('x', 400), seg('y', 400), seg('z', 450)], options)).toEqual([['x', 'y']]);
    // Past half the largest size a segment merges no more.
    expect(selectMerges([seg('x', 600), seg('y', 600), seg('z', 600)], options)).toEqual([]);
  });

  it('rewrites a segment with too many deletions and drops empty ones', () => {
    expect(selectMerges([seg('a', 100, 60), seg('b', 100)], options)).toEqual([['a']]);
    expect(selectMerges([seg('a', 100, 0), seg('b', 100)], options)).toEqual([['a']]);
    expect(selectMerges([seg('a', 2_000, 1_000), seg('b', 100)], options)).toEqual([['a']]);
  });

  it('a forced merge merges every tier of two or more and cleans every deletion', () => {
    expect(selectMerges([seg('a', 100, 99), seg('b', 10), seg('c', 250)], options, true)).toEqual([['b', 'a']]);
    expect(selectMerges([seg('a', 600, 590), seg('b', 10), seg('c', 95)], options, true)).toEqual([['b', 'c'], ['a']]);
  });

  it('keeps a million pages built in segments of 1,000 in tens of segments', () => {
    const policy = { maxSegmentDocs: 1_000, segmentsPerTier: 10, maxMergedSegmentDocs: 100_000, maxDeletedShare: 0.25 };
    let segments: Array<ReturnType<typeof seg>> = [];
    let next = 0;
    let merges = 0;
    for (let batch = 0; batch < 1_000; batch++) {
      segments.push(seg(`s${next++}`, 1_000));
      for (let groups = selectMerges(segments, policy); groups.length > 0; groups = selectMerges(segments, policy)) {
        for (const group of groups) {
          const live = segments.filter((s) => group.includes(s.name)).reduce((sum, s) => sum + s.liveCount, 0);
          segments = [...segments.filter((s) => !group.includes(s.name)), seg(`s${next++}`, live)];
          merges++;
        }
      }
      expect(segments.length).toBeLessThanOrEqual(10 + 9 + 9 + 1);
    }
    expect(segments.map((s) => s.liveCount)).toEqual(new Array(10).fill(100_000));
    // Each page is copied once per tier it climbs (1k → 10k → 100k): 100 merges into 10k, 10 into 100k.
    expect(merges).toBe(110);
  });
});

describe('store adapter and URL words', () => {
  const page = (patch: Partial<PageRecord>): PageRecord => ({
    url: 'https://www.astro-club.org/events/star-party.html',
    host: 'www.astro-club.org',
    role: 'local',
    state: 'fetched',
    status: 200,
    fetchedAt: 0,
    depth: 0,
    visits: 1,
    changes: 0,
    title: 'Star party',
    headings: ['When'],
    text: 'Bring a telescope.',
    ...patch,
  });

  it('indexes local fetched pages only, not noindex or duplicate ones', () => {
    expect(isIndexablePage(page({}))).toBe(true);
    expect(isIndexablePage(page({ state: 'not-modified' }))).toBe(true);
    expect(isIndexablePage(page({ role: 'global' }))).toBe(false);
    expect(isIndexablePage(page({ state: 'error' }))).toBe(false);
    expect(isIndexablePage(page({ noindex: true }))).toBe(false);
    expect(isIndexablePage(page({ duplicateOf: 3 }))).toBe(false);
    expect(pageToDocument(7, page({ title: undefined, headings: undefined }))).toEqual({
      id: 7, url: page({}).url, host: 'www.astro-club.org', title: '', headings: [], text: 'Bring a telescope.',
      // Too short to tell a language, and none stored: the neutral analysis.
      lang: 'und',
    });
    const stored = pageToDocument(8, page({ lang: 'de', sections: [{ heading: 'Teleskope', anchor: 't', start: 0 }], lastModified: 'Wed, 21 Oct 2015 07:28:00 GMT' }));
    expect(stored).toMatchObject({ lang: 'de', sections: [{ heading: 'Teleskope', anchor: 't', start: 0 }], lastModified: Date.UTC(2015, 9, 21, 7, 28) });
  });

  it('splits a URL into host and path words without scheme and file-type noise', () => {
    expect(urlWords('https://www.astro-club.org/events/star-party.html')).toBe('astro club org events star party');
    expect(urlWords('not a url/with-words')).toBe('not a url with words');
  });
});
