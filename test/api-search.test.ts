/**
 * The search API, page and operational routes on a real search site: the demo web crawled,
 * estimated and indexed (test/helpers/demo-search-site.ts), driven with app.inject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOCAL_HOST } from '../crawler/demo-web/generate.ts';
import type { EngineHit, EngineResult } from '../indexer/ranking/search-engine.ts';
import { buildApp } from '../server/app.ts';
import { SearchTurns } from '../server/search-turns.ts';
import type { SlowSearch } from '../server/slow-searches.ts';
import { buildDemoSearchSite, type DemoSearchSite } from './helpers/demo-search-site.ts';

let site: DemoSearchSite;

beforeAll(async () => {
  site = await buildDemoSearchSite();
}, 120_000);
afterAll(async () => site?.close());

async function get(url: string) {
  return site.app.inject({ method: 'GET', url });
}

async function search(params: Record<string, string | number | boolean>): Promise<EngineResult> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await get(`/api/search?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as EngineResult;
}

const ids = (hits: readonly EngineHit[]) => hits.map((hit) => hit.id);

function expectNonIncreasing(values: readonly number[]) {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThanOrEqual(values[i - 1]);
}

describe('GET /api/search: results', () => {
  it('answers a query with local pages and every field of a hit', async () => {
    const result = await search({ q: 'telescope' });
    expect(result).toMatchObject({ query: 'telescope', page: 1, size: 10 });
    expect(result.total).toBeGreaterThan(20);
    expect(typeof result.tookMs).toBe('number');
    expect(result.hits).toHaveLength(10);
    for (const hit of result.hits) {
      expect(Number.isInteger(hit.id)).toBe(true);
      // Global pages, fetched only for their links, are never shown.
      expect(hit.host).toBe(DEMO_LOCAL_HOST);
      expect(new URL(hit.url).host).toBe(DEMO_LOCAL_HOST);
      expect(hit.title.length).toBeGreaterThan(0);
      expect(hit.snippet).toMatch(/<mark>telescopes?<\/mark>/i);
      for (const value of [hit.score, hit.textScore, hit.globalPageRank, hit.localPageRank]) expect(Number.isFinite(value)).toBe(true);
      expect(hit.globalPageRank).toBeGreaterThan(0);
      expect(hit.explain).toBeUndefined();
    }
    expect(new Set(ids(result.hits)).size).toBe(10);
  });

  it('counts in total every page that matches', async () => {
    const first = await search({ q: 'telescope', size: 50 });
    expect(first.total).toBeLessThanOrEqual(50);
    expect(first.hits).toHaveLength(first.total);
    // Every word must occur: a second word narrows the results.
    const narrower = await search({ q: 'telescope spectrum', size: 50 });
    expect(narrower.total).toBeLessThan(first.total);
    expect(narrower.total).toBeGreaterThan(0);
  });

  it('pages through the results: page 2 follows page 1 without overlap', async () => {
    const ten = await search({ q: 'telescope', size: 10 });
    const page1 = await search({ q: 'telescope', size: 5, page: 1 });
    const page2 = await search({ q: 'telescope', size: 5, page: 2 });
    expect(page1.hits).toHaveLength(5);
    expect(page2.hits).toHaveLength(5);
    expect(page2.page).toBe(2);
    expect(page2.total).toBe(page1.total);
    expect(ids(page2.hits).filter((id) => ids(page1.hits).includes(id))).toEqual([]);
    expect([...ids(page1.hits), ...ids(page2.hits)]).toEqual(ids(ten.hits));
    const small = await search({ q: 'telescope', size: 3 });
    expect(small.hits).toHaveLength(3);
  });

  it('answers an empty page past the last one, with the total', async () => {
    const result = await search({ q: 'telescope', page: 20, size: 10 });
    expect(result.hits).toEqual([]);
    expect(result.total).toBeGreaterThan(0);
  });

  it('answers no hits for a word that occurs nowhere', async () => {
    const result = await search({ q: 'xylophonequark' });
    expect(result).toMatchObject({ total: 0, hits: [] });
    expect(result.correctedQuery).toBeUndefined();
  });

  it('takes a misspelt word for the close one the pages use, and says so', async () => {
    const exact = await search({ q: 'telescope', size: 50 });
    const typo = await search({ q: 'telescpoe', size: 50 });
    expect(typo.correctedQuery).toMatch(/^telescopes?$/);
    expect(typo.total).toBe(exact.total);
    expect(typo.hits[0].snippet).toMatch(/<mark>[Tt]elescopes?<\/mark>/);
    expect(exact.correctedQuery).toBeUndefined();
  });
});

describe('GET /api/search: rank modes', () => {
  const q = 'telescope';
  let modes: Record<'blend' | 'text' | 'global' | 'local', EngineResult>;

  beforeAll(async () => {
    modes = {
      blend: await search({ q, size: 50, rank: 'blend', explain: true }),
      text: await search({ q, size: 50, rank: 'text' }),
      global: await search({ q, size: 50, rank: 'global' }),
      local: await search({ q, size: 50, rank: 'local' }),
    };
  });

  it('orders the same matching pages in each mode', () => {
    const all = new Set(ids(modes.text.hits));
    expect(all.size).toBe(modes.text.total);
    for (const result of Object.values(modes)) {
      expect(result.total).toBe(modes.text.total);
      expect(new Set(ids(result.hits))).toEqual(all);
    }
  });

  it('text: by text score, descending', () => {
    expectNonIncreasing(modes.text.hits.map((h) => h.textScore));
    for (const hit of modes.text.hits) expect(hit.score).toBe(hit.textScore);
  });

  it('global: by the global PageRank estimate, descending', () => {
    expectNonIncreasing(modes.global.hits.map((h) => h.globalPageRank));
    for (const hit of modes.global.hits) expect(hit.score).toBe(hit.globalPageRank);
  });

  it('local: by the local PageRank, descending', () => {
    expectNonIncreasing(modes.local.hits.map((h) => h.localPageRank));
    for (const hit of modes.local.hits) expect(hit.score).toBe(hit.localPageRank);
  });

  it('blend: by (1 − w)·text/best + w·log-rank position, descending', () => {
    const hits = modes.blend.hits;
    expectNonIncreasing(hits.map((h) => h.score));
    const best = Math.max(...hits.map((h) => h.textScore));
    for (const hit of hits) {
      const explain = hit.explain!;
      expect(explain.weight).toBe(0.3);
      expect(explain.textNormalised).toBeCloseTo(hit.textScore / best, 12);
      expect(hit.score).toBeCloseTo(0.7 * Number(explain.textNormalised) + 0.3 * Number(explain.linkPart), 12);
    }
  });

  it('the modes really reorder: the text, global and blended orders differ', () => {
    expect(ids(modes.global.hits)).not.toEqual(ids(modes.text.hits));
    expect(ids(modes.blend.hits)).not.toEqual(ids(modes.global.hits));
    expect(ids(modes.blend.hits)).not.toEqual(ids(modes.text.hits));
    // The site's home page has the most links to it: first by PageRank, far from first by text.
    expect(modes.global.hits[0].url).toBe(`http://${DEMO_LOCAL_HOST}/`);
    expect(ids(modes.text.hits).indexOf(modes.global.hits[0].id)).toBeGreaterThan(0);
  });

  it('the estimation round moved the global estimate away from the local PageRank', () => {
    expect(modes.text.hits.some((h) => Math.abs(h.globalPageRank - h.localPageRank) > 1e-9)).toBe(true);
  });
});

describe('GET /api/search: explain', () => {
  it('adds the parts of each score when explain=true', async () => {
    const result = await search({ q: 'telescope', size: 3, explain: true });
    for (const hit of result.hits) {
      expect(hit.explain).toMatchObject({
        rank: 'blend',
        blend: 'log-linear',
        weight: 0.3,
        textScore: hit.textScore,
        globalPageRank: hit.globalPageRank,
        localPageRank: hit.localPageRank,
      });
      expect(hit.explain!.rankVersion).toBeGreaterThanOrEqual(1);
      expect(hit.explain!.matchedTerms).toContain('telescop');
      expect(Number(hit.explain!.linkPart)).toBeGreaterThanOrEqual(0);
      expect(Number(hit.explain!.linkPart)).toBeLessThanOrEqual(1);
    }
    const other = await search({ q: 'telescope', size: 1, explain: true, rank: 'global' });
    expect(other.hits[0].explain?.rank).toBe('global');
  });
});

describe('GET /api/search: bad input answers 400 with a message', () => {
  const cases: Array<[string, string, RegExp?]> = [
    ['q missing', '/api/search'],
    ['q empty', '/api/search?q='],
    ['q only spaces', '/api/search?q=%20%20', /empty/],
    ['q longer than 500 characters', `/api/search?q=${'a'.repeat(501)}`],
    ['size=0', '/api/search?q=telescope&size=0'],
    ['size=1000', '/api/search?q=telescope&size=1000'],
    ['size not a number', '/api/search?q=telescope&size=ten'],
    ['page=0', '/api/search?q=telescope&page=0'],
    ['page=-1', '/api/search?q=telescope&page=-1'],
    ['page past what can be ranked', '/api/search?q=telescope&page=200&size=50', /beyond the last page/],
    ['rank=bogus', '/api/search?q=telescope&rank=bogus'],
    ['explain not a boolean', '/api/search?q=telescope&explain=perhaps'],
    ['an unknown parameter', '/api/search?q=telescope&order=date'],
    ['a lone operator (+)', '/api/search?q=%2B', /no words/],
    ['only excluded words (-telescope)', '/api/search?q=-telescope', /only excludes/],
  ];

  it.each(cases)('%s', async (_name, url, message) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    if (message) expect(body.message).toMatch(message);
    expect(response.headers['content-security-policy']).toBeDefined();
  });

  it('an unknown lang answers 400 with the supported languages; a known one is searched', async () => {
    const response = await get('/api/search?q=telescope&lang=xx');
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, code: 'LSE_UNKNOWN_LANGUAGE', error: 'Bad Request' });
    expect(body.supported).toEqual(expect.arrayContaining(['en', 'de', 'ja', 'und']));
    expect(body.message).toMatch(/supported languages are/);
    expect((await search({ q: 'telescope', lang: 'en' })).total).toBeGreaterThan(0);
  });

  it.each([
    ['telescope^', /boost must be numeric/],
    ['telescope~', /edit distance must be numeric/],
    ['+-telescope', /.+/],
  ])('searches %j, which the syntax cannot read, as plain words with a notice', async (q, message) => {
    const result = await search({ q });
    expect(result.total).toBe((await search({ q: 'telescope' })).total);
    expect(result.notices).toEqual([{ code: 'LSE_QUERY_SYNTAX_FALLBACK', message: expect.stringMatching(message) }]);
  });

  it('reads a word: that names no field as text, never as an error', async () => {
    for (const q of ['foo:bar', 'title:', 'note: telescope', 'lists:keyfind', 'std::vector', 'gen_server:call/3', 'Class#method', 'https://example.org/a/b?c=d']) {
      const response = await get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(response.statusCode, q).toBe(200);
    }
    expect((await search({ q: 'note: telescope' })).total).toBeGreaterThan(0);
  });

  it('says which words no page has when it shows pages with only some of the words', async () => {
    const partial = await search({ q: 'telescope Kubernetesx', size: 50 });
    const telescope = await search({ q: 'telescope', size: 50 });
    expect(partial.unmatchedTerms).toEqual(['kubernetesx']);
    expect(partial.total).toBe(telescope.total);
    // The same pages; the order may differ, as `telescope` alone is also a name a title may hold (exact-name.ts).
    expect(ids(partial.hits).sort()).toEqual(ids(telescope.hits).sort());
    // Every word found: nothing to say.
    expect(telescope.unmatchedTerms).toBeUndefined();
    expect((await search({ q: 'telescope spectrum' })).unmatchedTerms).toBeUndefined();
  });

  it('reads an unclosed quote as a word separator, not as an error', async () => {
    // The query parser treats a quote without its partner as punctuation (query-parser.ts).
    const unclosed = await search({ q: '"telescope', size: 50 });
    const plain = await search({ q: 'telescope', size: 50 });
    expect(unclosed.total).toBe(plain.total);
    // The same pages; the order may differ, as `telescope` without the quote is also a name (exact-name.ts).
    expect(ids(unclosed.hits).sort()).toEqual(ids(plain.hits).sort());
  });
});

describe('hostile page text is escaped', () => {
  it('finds the page with a real <script> and shows its text escaped in the snippet', async () => {
    const result = await search({ q: 'script alert' });
    const hit = result.hits.find((h) => h.url === site.web.landmarks.scriptEscaping);
    expect(hit, 'the search-tips page is found').toBeDefined();
    expect(hit!.url).toMatch(/\/help\/search-tips\.html$/);
    expect(hit!.snippet).not.toMatch(/<script/i);
    expect(hit!.snippet).toContain('&lt;');
    expect(hit!.snippet).toMatch(/&lt;<mark>script<\/mark>&gt;/);
    expect(hit!.snippet).not.toMatch(/<b>/);
    // The title is plain text for the page to set with textContent: it keeps the characters as they are.
    expect(hit!.title).toContain('<script>alert(1)</script>');
  });

  it('snippets contain no markup but <mark>', async () => {
    for (const q of ['script alert', 'quotes bold', 'search tips', 'telescope', 'library hours']) {
      const result = await search({ q, size: 20 });
      expect(result.hits.length).toBeGreaterThan(0);
      for (const hit of result.hits) {
        const tags = hit.snippet.match(/<[^>]*>/g) ?? [];
        for (const tag of tags) expect(tag).toMatch(/^<\/?mark>$/);
        // No raw quote or ampersand that is not an entity.
        expect(hit.snippet).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
        expect(hit.snippet).not.toContain('"');
      }
    }
  });
});

describe('operational routes and headers', () => {
  it('/healthz answers ok', async () => {
    const response = await get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/metrics answers Prometheus text with the request counter', async () => {
    await get('/api/search?q=telescope');
    await get('/api/search?q=');
    const response = await get('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('lse_http_requests_total');
    expect(response.body).toMatch(/^lse_http_requests_total\{[^}]*route="\/api\/search"[^}]*code="200"[^}]*\} \d+$/m);
    expect(response.body).toMatch(/^lse_http_requests_total\{[^}]*code="400"[^}]*\} \d+$/m);
    expect(response.body).toMatch(/^# TYPE lse_http_requests_total counter$/m);
  });

  it.each(['/api/search?q=telescope', '/', '/search.js', '/healthz'])('security headers on %s', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
  });

  it.each(['/api/search?q=telescope', '/api/suggest?q=tel', '/healthz'])('says how long the server took on %s (Server-Timing)', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['server-timing']).toMatch(/^app;dur=\d+\.\d\d$/);
  });

  it('names the wait for a turn beside a running job apart from the whole (Server-Timing)', async () => {
    const app = await buildApp({ search: site.engine, logger: false, searchTurns: new SearchTurns(() => true) });
    try {
      for (const url of ['/api/search?q=telescope', '/api/suggest?q=tel']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        const [, turn, whole] = /^turn;dur=(\d+\.\d\d), app;dur=(\d+\.\d\d)$/.exec(String(response.headers['server-timing'])) ?? [];
        expect(Number(turn)).toBeLessThanOrEqual(Number(whole));
      }
      // Only searches take turns.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).headers['server-timing']).toMatch(/^app;dur=/);
    } finally {
      await app.close();
    }
  });
});

describe('the slow-search log', () => {
  async function searchesLogged(slowSearchMs: number, urls: readonly string[], searchTurns?: SearchTurns): Promise<Array<{ msg: string; url: string; slowSearch: SlowSearch }>> {
    const lines: string[] = [];
    const app = await buildApp({ search: site.engine, slowSearchMs, searchTurns, logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
    try {
      for (const url of urls) expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
      // Logged a moment after the answer, with the collections that ended within it.
      await new Promise((done) => setTimeout(done, 100));
    } finally {
      await app.close();
    }
    return lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'slow search');
  }

  it('logs a search over the threshold with where its time went, and nothing else', async () => {
    const logged = await searchesLogged(0.001, ['/api/search?q=telescope', '/api/suggest?q=tel', '/healthz', '/']);
    expect(logged.map((entry) => entry.url)).toEqual(['/api/search?q=telescope', '/api/suggest?q=tel']);
    for (const { slowSearch } of logged) {
      expect(slowSearch.ms).toBeGreaterThan(0);
      expect(slowSearch.gcMs).toBeGreaterThanOrEqual(0);
      expect(slowSearch.gcMs).toBeLessThanOrEqual(slowSearch.ms);
      expect(Object.keys(slowSearch.fileReads).sort()).toEqual(['bytes', 'count', 'ms']);
      expect(slowSearch.turnMs).toBeUndefined();
      // The search's own span is within the whole.
      expect(slowSearch.searchMs).toBeGreaterThan(0);
      expect(slowSearch.searchMs).toBeLessThanOrEqual(slowSearch.ms);
      if (process.platform === 'linux') {
        // The thread's own times, within the search's (it runs on one thread), give or take the
        // scheduler's tick at which the kernel brings them up to date.
        expect(slowSearch.cpuMs).toBeGreaterThanOrEqual(0);
        expect(slowSearch.runQueueMs).toBeGreaterThanOrEqual(0);
        expect(slowSearch.cpuMs! + slowSearch.runQueueMs!).toBeLessThanOrEqual(slowSearch.ms + 12);
        expect(slowSearch.searchCpuMs).toBeGreaterThanOrEqual(0);
        expect(slowSearch.searchCpuMs).toBeLessThanOrEqual(slowSearch.searchMs! + 12);
      }
    }
  });

  it('tells the wait for a turn beside a job from the search after it', async () => {
    const logged = await searchesLogged(0.001, ['/api/search?q=telescope'], new SearchTurns(() => true));
    expect(logged).toHaveLength(1);
    const { turnMs, searchMs, ms } = logged[0].slowSearch;
    expect(turnMs).toBeGreaterThanOrEqual(0);
    expect(searchMs).toBeGreaterThan(0);
    expect(turnMs! + searchMs!).toBeLessThanOrEqual(ms + 0.02);
  });

  it('logs nothing under the threshold', async () => {
    expect(await searchesLogged(60_000, ['/api/search?q=telescope', '/api/suggest?q=tel'])).toEqual([]);
  });
});

describe('the search page is served statically', () => {
  it('serves / as HTML with a search form, its own script and style, nothing inline or external', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const html = response.body;
    expect(html).toMatch(/<form[^>]*role="search"/);
    expect(html).toMatch(/<main[\s>]/);
    expect(html).toContain('<script type="module" src="/search.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/search.css">');
    // The CSP forbids inline scripts and styles: none may be relied on.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style[\s>]/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/\son[a-z]+=/);
    // Offline: no fonts, scripts or styles from elsewhere.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // No demo words in the page itself (they come from the site's settings), and the ranking aside.
    expect(html).not.toContain('telescope, admissions');
    expect(html).toMatch(/<details id="ranking"[^>]*>\s*<summary>How results are ranked<\/summary>/);
  });

  it('serves the script and the style with their types', async () => {
    const script = await get('/search.js');
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body).toContain('/api/search');
    const style = await get('/search.css');
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.body).toContain('prefers-color-scheme: dark');
    expect(`${script.body}${style.body}`).not.toMatch(/https?:\/\//);
  });
});
