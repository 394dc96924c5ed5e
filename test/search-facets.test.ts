/**
 * Filters, facets, dates, and one hit per page whatever its copies and translations: the real app
 * over a small multilingual site (test/helpers/multilingual-site.ts), over HTTP with app.inject.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankSnapshot, SearchEngine, type EngineResult } from '../indexer/ranking/search-engine.ts';
import { PageFacts, sectionOf, urlNamesLanguage, type PageFact } from '../indexer/ranking/page-facts.ts';
import { UnknownLanguageError } from '../indexer/text-index/languages.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { queryLanguages } from '../indexer/ranking/query-language.ts';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import lunr from 'lunr';
import { acceptedLanguages } from '../server/routes/search-route.ts';
import { ADMIN_TOKEN, buildMultilingualSite, SITE, type MultilingualSite } from './helpers/multilingual-site.ts';

let site: MultilingualSite;
beforeAll(async () => {
  site = await buildMultilingualSite();
}, 60_000);
afterAll(async () => site?.close());

async function search(query: string, headers: Record<string, string> = {}): Promise<EngineResult> {
  const response = await site.app.inject({ method: 'GET', url: `/api/search?${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as EngineResult;
}

describe('facets and filters', () => {
  it('counts results per language, host, section and type, and groups the translations in one hit', async () => {
    const result = await search('q=library');
    // The four translations are one hit: the library page, the PDF, the news page.
    expect(result.total).toBe(3);
    // A result counts under each value its matches have: the library page in every language.
    // en: the library page, the PDF and the news page (the /en/ copy is a duplicate, not indexed).
    expect(result.facets.lang).toEqual({ en: 3, de: 1, fr: 1, ja: 1 });
    expect(result.facets.type).toEqual({ html: 2, pdf: 1 });
    expect(result.facets.section).toEqual({ docs: 1, library: 1, news: 1 });
    expect(result.facets.host).toEqual({ 'www.northfield.example': 3 });
    const library = result.hits.find((hit) => hit.section === 'library')!;
    expect(library.alternates?.map((a) => a.lang)).toHaveLength(3);
  });

  it('filters by language, each dimension counting as if its own filter were off', async () => {
    const result = await search('q=library&lang=ja');
    expect(result.total).toBe(1);
    expect(result.hits[0]).toMatchObject({ url: `${SITE}/ja/library/hours.html`, lang: 'ja', section: 'library', type: 'html' });
    expect(result.hits[0].alternates).toEqual([
      { url: `${SITE}/de/library/hours.html`, lang: 'de' },
      { url: `${SITE}/en/library/hours.html`, lang: 'en' },
      { url: `${SITE}/fr/library/hours.html`, lang: 'fr' },
    ]);
    // The language chips still show every language; the others count Japanese pages only.
    expect(result.facets.lang).toEqual({ en: 3, de: 1, fr: 1, ja: 1 });
    expect(result.facets.type).toEqual({ html: 1 });
  });

  it("counts each other language's matches through that language's own analysis", async () => {
    // 'Recht' meets the German page's 'Rechten' only through the German stemmer; the English one
    // keeps them apart (independent references: the Snowball and Porter stemmers).
    expect(germanStemmer('recht')).toBe(germanStemmer('rechten'));
    expect(lunr.stemmer(new lunr.Token('recht', {})).toString()).not.toBe(lunr.stemmer(new lunr.Token('rechten', {})).toString());
    // '良心' (conscience) is a word inside the Japanese run '理性と良心とを授けられており'.
    for (const filter of ['lang=ja', 'lang=en', 'lang=fr']) {
      const result = await search(`q=${encodeURIComponent('Recht 良心')}&${filter}`);
      expect(result.facets.lang, filter).toEqual({ de: 1, ja: 1 });
    }
    const japanese = await search(`q=${encodeURIComponent('Recht 良心')}&lang=ja`);
    expect(japanese.hits.map((hit) => hit.url)).toEqual([`${SITE}/ja/library/hours.html`]);
    expect(japanese.facets.section).toEqual({ library: 1 });
    // With German chosen, the Japanese page is still counted through its segmentation, and the other way round.
    const german = await search(`q=${encodeURIComponent('良心')}&lang=de`);
    expect(german).toMatchObject({ total: 0, facets: { lang: { ja: 1 } } });
    const fromJapanese = await search(`q=${encodeURIComponent('Recht')}&lang=ja`);
    expect(fromJapanese).toMatchObject({ total: 0, facets: { lang: { de: 1 } } });
  });

  it('ORs values within a dimension and ANDs dimensions', async () => {
    const two = await search('q=library&lang=de&lang=fr');
    expect(two.total).toBe(1);
    expect(two.hits[0].lang).toBe('de');
    const pdf = await search('q=library&lang=en&type=pdf');
    expect(pdf.hits.map((hit) => hit.url)).toEqual([`${SITE}/en/docs/library-rules.pdf`]);
    expect(pdf.facets.lang).toEqual({ en: 1 });
    expect(pdf.facets.type).toEqual({ html: 2, pdf: 1 });
    const none = await search('q=library&section=news&type=pdf');
    expect(none.total).toBe(0);
    expect(none.hits).toEqual([]);
  });

  it("gives each chip the count of results its click shows (copies and translations counted once)", async () => {
    // Over a real socket, as the search page asks.
    const base = await site.app.listen({ host: '127.0.0.1', port: 0 });
    const overHttp = async (query: string): Promise<EngineResult> => {
      const response = await fetch(`${base}/api/search?${query}`);
      expect(response.status, query).toBe(200);
      return (await response.json()) as EngineResult;
    };
    const queries = ['library', 'telescope', 'Northfield', 'Recht 良心', 'car', 'rules library'];
    let checked = 0;
    for (const q of queries) {
      for (const start of ['', '&lang=de', '&type=html', '&section=library&lang=en']) {
        const before = await overHttp(`q=${encodeURIComponent(q)}${start}`);
        for (const [name, counts] of Object.entries(before.facets)) {
          const selected = new URLSearchParams(start).getAll(name);
          for (const [value, count] of Object.entries(counts)) {
            // A dimension without a filter: clicking adds the value. With one value chosen, that
            // value's chip counts what is shown now; a click on another chip replaces nothing.
            if (selected.length > 1 || (selected.length === 1 && selected[0] !== value)) continue;
            const after = await overHttp(`q=${encodeURIComponent(q)}${start}${selected.length === 0 ? `&${name}=${encodeURIComponent(value)}` : ''}`);
            expect(after.total, `${q}${start}: ${name}=${value}`).toBe(count);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("counts a best bet among the results it is shown in, and a filter keeps out the ones it rejects", async () => {
    const bets = { synonyms: [], bestBets: [{ pattern: 'library', urls: [`${SITE}/en/visit/parking.html`, `${SITE}/ja/library/hours.html`] }] };
    const put = await site.app.inject({ method: 'PUT', url: '/api/admin/search-settings', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: bets });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const result = await search('q=library');
      // The parking page (no match of its own) is a fourth result; the Japanese translation is the library page's group.
      expect(result.total).toBe(4);
      expect(result.hits[0]).toMatchObject({ url: `${SITE}/en/visit/parking.html`, recommended: true });
      expect(result.facets.section).toEqual({ docs: 1, library: 1, news: 1, visit: 1 });
      const docs = await search('q=library&section=docs');
      expect(docs.total).toBe(1);
      expect(docs.hits.map((hit) => hit.recommended)).toEqual([undefined]);
      const visit = await search('q=library&section=visit');
      expect(visit.total).toBe(result.facets.section.visit);
      expect(visit.hits[0]).toMatchObject({ url: `${SITE}/en/visit/parking.html`, recommended: true });
    } finally {
      await site.app.inject({ method: 'PUT', url: '/api/admin/search-settings', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { synonyms: [], bestBets: [] } });
    }
  });

  it('answers an unknown facet value with 400 and the values there are, never a 5xx', async () => {
    // A language the analysis does not know: 400 with the languages it supports.
    const unknownLanguage = await site.app.inject({ method: 'GET', url: '/api/search?q=library&lang=xx' });
    expect(unknownLanguage.statusCode).toBe(400);
    expect(unknownLanguage.json()).toMatchObject({ code: 'LSE_UNKNOWN_LANGUAGE' });
    expect(unknownLanguage.json().supported).toEqual(expect.arrayContaining(['de', 'en', 'fr', 'ja', 'ko', 'zh']));
    // Values the site has none of: 400 with the values there are.
    for (const [query, list] of [
      ['lang=ko', /the lang values of this site are: de, en, fr, ja/],
      ['type=exe', /html, pdf/],
      ['section=nowhere', /docs, guide, library, news, visit/],
      ['host=evil.example', /www\.northfield\.example/],
    ] as const) {
      const response = await site.app.inject({ method: 'GET', url: `/api/search?q=library&${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'LSE_UNKNOWN_FACET_VALUE' });
      expect(response.json().message).toMatch(list);
    }
    const tooMany = await site.app.inject({ method: 'GET', url: `/api/search?q=library&${Array.from({ length: 21 }, () => 'lang=en').join('&')}` });
    expect(tooMany.statusCode).toBe(400);
    const badSort = await site.app.inject({ method: 'GET', url: '/api/search?q=library&sort=random' });
    expect(badSort.statusCode).toBe(400);
  });
});

describe('the copy a visitor expects', () => {
  it("shows the copy whose URL names the page's language, the other copy as a duplicate", async () => {
    const result = await search('q=library&lang=en&section=library');
    expect(result.hits).toHaveLength(1);
    // The page was indexed under /library/hours.html (higher local PageRank); /en/… names its language.
    expect(result.hits[0].url).toBe(`${SITE}/en/library/hours.html`);
    expect(result.hits[0].duplicates).toEqual([`${SITE}/library/hours.html`]);
  });

  it("shows the translation in the visitor's language (Accept-Language), the others as alternates", async () => {
    const german = await search('q=library&section=library', { 'accept-language': 'de-CH, fr;q=0.8, en;q=0.5' });
    expect(german.hits[0]).toMatchObject({ url: `${SITE}/de/library/hours.html`, lang: 'de' });
    expect(german.hits[0].alternates?.map((a) => a.lang)).toEqual(['en', 'fr', 'ja']);
    const french = await search('q=library&section=library', { 'accept-language': 'it, fr;q=0.9' });
    expect(french.hits[0].lang).toBe('fr');
    // A requested language comes before the visitor's.
    const requested = await search('q=library&section=library&lang=ja&lang=de', { 'accept-language': 'de' });
    expect(requested.hits[0].lang).toBe('ja');
  });
});

describe('the language the visitor chose on the site (hl, or the page they came from)', () => {
  const library = (result: EngineResult) => result.hits.find((hit) => hit.section === 'library')!;
  const english = { 'accept-language': 'en-US,en;q=0.9' };

  it("puts the language of the page the visitor searched from before the browser's, and names it", async () => {
    const from = encodeURIComponent(`${SITE}/de/library/hours.html#top`);
    const result = (await search(`q=library&from=${from}`, english)) as EngineResult & { hl?: string };
    expect(result.hl).toBe('de');
    expect(library(result)).toMatchObject({ url: `${SITE}/de/library/hours.html`, lang: 'de' });
    // A page of the site the crawl has not stored: the language its URL names, if the site has it.
    const unstored = (await search(`q=library&from=${encodeURIComponent(`${SITE}/fr/contact/`)}`, english)) as EngineResult & { hl?: string };
    expect(unstored.hl).toBe('fr');
    expect(library(unstored).lang).toBe('fr');
    // The analytics record the search, not where the visitor came from.
    await site.experience.analytics.flush();
    const records = readdirSync(join(site.dataDir, 'analytics')).map((file) => readFileSync(join(site.dataDir, 'analytics', file), 'utf8')).join('');
    expect(records).toContain('"library"');
    expect(records).not.toMatch(/contact|hours\.html/);
  });

  it('takes hl (a search form on the site sends it) before a referring page', async () => {
    const result = (await search(`q=library&hl=ja-JP&from=${encodeURIComponent(`${SITE}/de/library/hours.html`)}`, english)) as EngineResult & { hl?: string };
    expect(result.hl).toBe('ja');
    expect(library(result).lang).toBe('ja');
  });

  it('ignores what names no language of the site, never an error', async () => {
    for (const query of [
      `from=${encodeURIComponent('http://elsewhere.example/de/page.html')}`,
      `from=${encodeURIComponent(`${SITE}/ko/page.html`)}`,
      `from=${encodeURIComponent(`${SITE}/`)}`,
      'from=not%20a%20url',
      `from=${encodeURIComponent('javascript:alert(1)')}`,
      'hl=German',
      'hl=',
    ]) {
      const result = (await search(`q=library&${query}`, english)) as EngineResult & { hl?: string };
      expect(result.hl, query).toBeUndefined();
      expect(library(result).lang, query).toBe('en');
    }
    const tooLong = await site.app.inject({ method: 'GET', url: `/api/search?q=library&from=${'x'.repeat(2001)}` });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe("the translation a grouped hit shows: requested, visitor's, then the query's language", () => {
  // Ranked by local PageRank the English page (0.3) comes before its translations (0.1): the
  // query's language, not the rank, must choose.
  const libraryOf = (result: EngineResult) => result.hits.find((hit) => hit.section === 'library')!;

  // No page has every word, so each translation matches some: the German one three words
  // (two through the German stemmer), the Japanese one two, the others one.
  const mixed = `q=${encodeURIComponent('Northfield Recht Vernunft 良心')}&rank=local`;

  it("shows the query's own language, told from the analysis that matched most of it", async () => {
    expect(libraryOf(await search('q=Northfield&rank=local')).lang).toBe('en');
    expect(libraryOf(await search(mixed)).url).toBe(`${SITE}/de/library/hours.html`);
    expect(libraryOf(await search(`q=${encodeURIComponent('Northfield 尊厳 良心 Recht')}&rank=local`)).url).toBe(`${SITE}/ja/library/hours.html`);
  });

  it("puts the requested language, then the visitor's, before the query's", async () => {
    expect(libraryOf(await search(mixed, { 'accept-language': 'fr-FR,fr;q=0.9' })).lang).toBe('fr');
    expect(libraryOf(await search(`${mixed}&lang=ja&lang=en`, { 'accept-language': 'fr' })).lang).toBe('ja');
  });

  it('tells the language from the script, else from the analyses that matched more of the query', () => {
    expect(queryLanguages('としょかん', [])).toEqual(['ja']);
    expect(queryLanguages('도서관 library', [])).toEqual(['ko']);
    const hits = [
      { lang: 'en', matchedTerms: ['northfield'] },
      { lang: 'de', matchedTerms: ['de:northfield', 'de:recht'] },
      { lang: 'fr', matchedTerms: ['fr:northfield'] },
    ];
    expect(queryLanguages('Northfield Recht', hits)).toEqual(['de']);
    // Every language matched as much: nothing is told.
    expect(queryLanguages('Northfield', hits.map((hit) => ({ ...hit, matchedTerms: hit.matchedTerms.slice(0, 1) })))).toEqual([]);
  });
});

describe('dates', () => {
  it("gives each hit its date (the sitemap's lastmod, else Last-Modified) and sorts by it", async () => {
    const result = await search('q=telescope&sort=date');
    expect(result.hits.map((hit) => hit.url)).toEqual([`${SITE}/de/news/teleskop.html`, `${SITE}/en/news/new-telescope.html`, `${SITE}/en/news/old-telescope.html`]);
    expect(result.hits.map((hit) => hit.lastModified)).toEqual(['2026-11-21T00:00:00.000Z', '2026-11-20T09:00:00.000Z', '2020-06-01T09:00:00.000Z']);
    const pdf = await search('q=rules');
    expect(pdf.hits[0].lastModified).toBe('2026-01-05T00:00:00.000Z');
  });
});

describe('pure parts', () => {
  it('reads the section after a language segment', () => {
    expect(sectionOf('http://x.example/en/mod/page.html')).toBe('mod');
    expect(sectionOf('http://x.example/mod/page.html')).toBe('mod');
    expect(sectionOf('http://x.example/news/')).toBe('news');
    expect(sectionOf('http://x.example/pt-br/news/')).toBe('news');
    expect(sectionOf('http://x.example/page.html')).toBe('');
    expect(sectionOf('http://x.example/en/')).toBe('');
    expect(sectionOf('not a url')).toBe('');
    // A three-letter segment is a section unless it is the page's own language.
    expect(sectionOf('http://x.example/fil/balita/a.html', 'fil')).toBe('balita');
  });

  it("tells whether a URL names a language", () => {
    expect(urlNamesLanguage('http://x.example/en/a.html', 'en')).toBe(true);
    expect(urlNamesLanguage('http://x.example/en-gb/a.html', 'en')).toBe(true);
    expect(urlNamesLanguage('http://x.example/a.html?lang=de', 'de')).toBe(true);
    expect(urlNamesLanguage('http://x.example/end/a.html', 'en')).toBe(false);
    expect(urlNamesLanguage('http://x.example/de/a.html', 'en')).toBe(false);
  });

  it('orders Accept-Language by quality', () => {
    expect(acceptedLanguages('de-CH, fr;q=0.8, en;q=0.9, *;q=0.1')).toEqual(['de', 'en', 'fr']);
    expect(acceptedLanguages('x;q=0, ja')).toEqual(['ja']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('a language the analysis has no stemmer for', () => {
  it('is a filter like any other when pages are written in it, and still a 400 when none is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-facets-pl-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      const pages = [
        { id: 0, url: 'https://uni.example/pl/biblioteka.html', host: 'uni.example', title: 'Biblioteka', headings: [], text: 'Biblioteka jest otwarta codziennie. Library hours.', lang: 'pl' },
        { id: 1, url: 'https://uni.example/en/library.html', host: 'uni.example', title: 'Library', headings: [], text: 'The library is open every day.', lang: 'en' },
      ];
      await index.rebuild(pages);
      const facts = new Map<number, PageFact>(pages.map((page) => [page.id, { url: page.url, host: page.host, lang: page.lang, type: 'html', section: '', date: NaN, indexed: true, related: [] }]));
      const engine = new SearchEngine(index, rankSnapshot(1, [0, 1], [0.5, 0.5], [0.5, 0.5]), { blend: 'log-linear', weight: 0.3 });
      engine.setFacts(new PageFacts(facts));
      const all = await engine.search({ q: 'library', page: 1, size: 10, rank: 'blend', explain: false });
      expect(all.facets.lang).toEqual({ en: 1, pl: 1 });
      const polish = await engine.search({ q: 'library', page: 1, size: 10, rank: 'blend', explain: false, lang: ['pl'] });
      expect(polish.hits.map((hit) => hit.url)).toEqual([pages[0].url]);
      await expect(engine.search({ q: 'library', page: 1, size: 10, rank: 'blend', explain: false, lang: ['cs'] })).rejects.toBeInstanceOf(UnknownLanguageError);
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
