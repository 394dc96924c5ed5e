/**
 * The search experience's server side over HTTP (app.inject) on the multilingual site: search
 * analytics and click beacons (bad input recorded nowhere), retention and the flood limit, best
 * bets and synonyms applied without a rebuild, removing a URL from results and inspecting one,
 * the OpenSearch description.
 */
import { existsSync, mkdirSync, readdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { buildIndex, serveStore } from '../server/cli/serve-command.ts';
import { DAILY_UPKEEP_CRON } from '../server/jobs/schedules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineResult } from '../indexer/ranking/search-engine.ts';
import { analyticsQuery } from '../server/search-admin/analytics.ts';
import { ADMIN_TOKEN, buildMultilingualSite, SITE, type MultilingualSite } from './helpers/multilingual-site.ts';

const readdirNames = (directory: string) => readdirSync(directory).sort();
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('search analytics', () => {
  let site: MultilingualSite;
  beforeAll(async () => {
    site = await buildMultilingualSite();
  }, 60_000);
  afterAll(async () => site?.close());

  const analytics = async (days = 30) => {
    const response = await site.app.inject({ method: 'GET', url: `/api/admin/analytics?days=${days}`, headers: auth });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const search = (query: string) => site.app.inject({ method: 'GET', url: `/api/search?${query}` });
  const click = (body: string, contentType = 'text/plain;charset=UTF-8') => site.app.inject({ method: 'POST', url: '/api/click', headers: { 'content-type': contentType }, payload: body });

  it('needs the admin token', async () => {
    expect((await site.app.inject({ method: 'GET', url: '/api/admin/analytics' })).statusCode).toBe(401);
    expect((await site.app.inject({ method: 'GET', url: '/api/admin/analytics', headers: { authorization: 'Bearer wrong-token-0000000' } })).statusCode).toBe(401);
  });

  it('records each answered search once, masked, with no personal data, and its clicks', async () => {
    for (const query of ['q=library', 'q=Library&page=2', 'q=LIBRARY&lang=de', 'q=telescope', 'q=nothing+here+zzz', 'q=mail+jane.doe%40uni.test+0044+20+7946+0958']) {
      expect((await search(query)).statusCode).toBe(200);
    }
    expect((await click(JSON.stringify({ q: 'library', url: `${SITE}/de/library/hours.html`, position: 1 }))).statusCode).toBe(204);
    expect((await click(JSON.stringify({ q: 'telescope', url: `${SITE}/en/news/new-telescope.html`, position: 2 }), 'application/json')).statusCode).toBe(204);
    // A section link is a click on its page.
    expect((await click(JSON.stringify({ q: 'library', url: `${SITE}/de/library/hours.html#opening`, position: 1 }))).statusCode).toBe(204);
    const summary = await analytics();
    expect(summary.searches).toBe(5);
    expect(summary.clicks).toBe(3);
    expect(summary.topQueries[0]).toEqual({ query: 'library', count: 2, clickThrough: 1 });
    expect(summary.topQueries).toContainEqual({ query: 'telescope', count: 1, clickThrough: 1 });
    expect(summary.zeroResultQueries.map((q: { query: string }) => q.query).sort()).toEqual(['mail [email] [number]', 'nothing here zzz']);
    expect(summary.perDay).toHaveLength(30);
    expect(summary.perDay.at(-1)).toMatchObject({ searches: 5, clicks: 3, zeroResults: 2 });
    // On disk: no address, no number, no IP, no user agent.
    await site.experience.analytics.flush();
    const files = readFileSync(join(site.dataDir, 'analytics', `${new Date().toISOString().slice(0, 10)}.jsonl`), 'utf8');
    expect(files).not.toMatch(/jane|uni\.test|7946|127\.0\.0\.1|lightMyRequest|user-agent/i);
    expect(files.trim().split('\n')).toHaveLength(8);
  });

  it('records nothing from a rejected search or a malformed beacon', async () => {
    const before = await analytics();
    expect((await search('q=library&lang=xx')).statusCode).toBe(400);
    expect((await search(`q=${'a'.repeat(600)}`)).statusCode).toBe(400);
    for (const [body, type] of [
      ['not json', undefined],
      ['{"q":"library"}', undefined],
      [JSON.stringify({ q: 'library', url: 'javascript:alert(1)', position: 1 }), undefined],
      [JSON.stringify({ q: 'library', url: 'http://elsewhere.example/', position: 1 }), undefined],
      [JSON.stringify({ q: 'library', url: `${SITE}/de/library/hours.html`, position: 0 }), undefined],
      [JSON.stringify({ q: 'library', url: `${SITE}/de/library/hours.html`, position: 1, ip: '1.2.3.4' }), 'application/json'],
      [JSON.stringify({ q: 'x'.repeat(5000), url: `${SITE}/de/library/hours.html`, position: 1 }), undefined],
    ] as const) {
      const response = await click(body, type);
      expect(response.statusCode, body.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, body.slice(0, 60)).toBeLessThan(500);
    }
    expect(await analytics()).toEqual(before);
  });

  it('records identifier queries and queries read as plain words like any other', async () => {
    const before = await analytics();
    for (const q of ['lists:keyfind', 'note: ssh', 'library^x', 'gen_server:call/3']) {
      const response = await search(`q=${encodeURIComponent(q)}`);
      expect(response.statusCode, q).toBe(200);
      if (q === 'library^x') expect(response.json().notices).toEqual([{ code: 'LSE_QUERY_SYNTAX_FALLBACK', message: expect.any(String) }]);
    }
    const after = await analytics();
    expect(after.searches).toBe(before.searches + 4);
    const recorded = [...after.topQueries, ...after.zeroResultQueries].map((entry: { query: string }) => entry.query);
    for (const q of ['lists:keyfind', 'note: ssh', 'library^x', 'gen_server:call/3']) expect(recorded).toContain(q);
  });

  it('masks e-mail addresses and long digit runs', () => {
    expect(analyticsQuery('  Mail  A.B@uni.example  about  4111 1111 1111 1111 in 2026 ')).toBe('mail [email] about [number] in 2026');
    expect(analyticsQuery('room 12345')).toBe('room [number]');
    expect(analyticsQuery('room 1234')).toBe('room 1234');
  });
});

describe('analytics retention and floods', () => {
  it('drops days past the retention from a daily schedule, with no search needed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-analytics-schedule-'));
    const store = await CrawlStore.open(dataDir);
    try {
      const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, search: { analyticsRetentionDays: 30 } } });
      const directory = join(dataDir, 'analytics');
      mkdirSync(directory, { recursive: true });
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      const record = JSON.stringify({ kind: 'search', at: Date.now(), q: 'library', hits: 1 });
      const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: ADMIN_TOKEN, index: (await buildIndex(store, settings)).index });
      try {
        // Written after the start (whose pruning is not what is tested here).
        for (const daysAgo of [1, 29, 31, 400]) writeFileSync(join(directory, `${day(daysAgo)}.jsonl`), `${record}\n`);
        const api = (path: string, method = 'GET') => fetch(`${serving.url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
        const status = await (await api('/api/admin/status')).json();
        expect(status.schedules).toContainEqual(expect.objectContaining({ name: 'analytics-retention', cron: DAILY_UPKEEP_CRON }));
        expect(Date.parse(status.schedules.find((s: { name: string }) => s.name === 'analytics-retention').nextRun)).toBeGreaterThan(Date.now());
        // What the daily firing does, run now through the admin API: no search was made.
        const run = await api('/api/admin/schedules/analytics-retention/run', 'POST');
        expect(run.status).toBe(202);
        expect((await run.json()).id).toMatch(/^analytics-retention@/);
        for (let i = 0; i < 100 && existsSync(join(directory, `${day(31)}.jsonl`)); i++) await new Promise((r) => setTimeout(r, 20));
        expect(readdirNames(directory)).toEqual([`${day(29)}.jsonl`, `${day(1)}.jsonl`]);
      } finally {
        await serving.close();
      }
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);


  it('drops days past the retention and stores no more than the day limit', async () => {
    let now = Date.UTC(2026, 10, 25, 12);
    const site = await buildMultilingualSite({ search: { analyticsRetentionDays: 7, analyticsMaxRecordsPerDay: 100 }, now: () => now });
    try {
      const directory = join(site.dataDir, 'analytics');
      for (let i = 0; i < 120; i++) await site.app.inject({ method: 'GET', url: '/api/search?q=library' });
      await site.experience.analytics.flush();
      const today = readFileSync(join(directory, '2026-11-25.jsonl'), 'utf8').trim().split('\n');
      expect(today).toHaveLength(100);
      const summary = (await site.app.inject({ method: 'GET', url: '/api/admin/analytics?days=1', headers: auth })).json();
      expect(summary).toMatchObject({ searches: 100, dropped: 20 });
      // Every search was still answered: the limit is on what is stored, not on searching.
      // Eight days later the first search of the day drops the old day.
      now += 8 * 86_400_000;
      await site.app.inject({ method: 'GET', url: '/api/search?q=telescope' });
      await site.experience.analytics.flush();
      expect(existsSync(join(directory, '2026-11-25.jsonl'))).toBe(false);
      expect(existsSync(join(directory, '2026-12-03.jsonl'))).toBe(true);
    } finally {
      await site.close();
    }
  });
});

describe('best bets, synonyms, removed URLs, inspection', () => {
  let site: MultilingualSite;
  beforeAll(async () => {
    site = await buildMultilingualSite({ search: { synonyms: [['car', 'automobile']] } });
  }, 60_000);
  afterAll(async () => site?.close());

  const search = async (query: string): Promise<EngineResult> => {
    const response = await site.app.inject({ method: 'GET', url: `/api/search?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('uses the settings file’s synonyms at query time', async () => {
    // "automobile" is on no parking page; its synonym "car" is.
    const result = await search('q=automobile');
    expect(result.hits.map((hit) => hit.url)).toContain(`${SITE}/en/visit/parking.html`);
  });

  it('pins a best bet first, marked as recommended, stored in the data directory, without a rebuild', async () => {
    const generation = site.index.info().generation;
    const put = await site.app.inject({
      method: 'PUT',
      url: '/api/admin/search-settings',
      headers: auth,
      payload: { synonyms: [['parking', 'garage']], bestBets: [{ pattern: 'telescope*', urls: [`${SITE}/en/visit/parking.html`] }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const result = await search('q=telescope+tours');
    expect(result.hits[0]).toMatchObject({ url: `${SITE}/en/visit/parking.html`, recommended: true });
    expect(result.hits.slice(1).every((hit) => hit.recommended === undefined)).toBe(true);
    expect((await search('q=garage')).hits.map((hit) => hit.url)).toEqual([`${SITE}/en/visit/parking.html`]);
    // The settings file's synonyms still apply beside the admin's.
    expect((await search('q=automobile')).total).toBeGreaterThan(0);
    expect(site.index.info().generation).toBe(generation);
    expect(JSON.parse(readFileSync(join(site.dataDir, 'search-settings.json'), 'utf8')).bestBets).toHaveLength(1);
    const shown = (await site.app.inject({ method: 'GET', url: '/api/admin/search-settings', headers: auth })).json();
    expect(shown.fromSettingsFile.synonyms).toEqual([['car', 'automobile']]);
    expect(shown.effective.synonyms).toHaveLength(2);
  });

  it('refuses malformed settings with 400 and keeps the stored ones', async () => {
    for (const payload of [{ synonyms: [['alone']] }, { bestBets: [{ pattern: '', urls: [] }] }, { bestBets: [{ pattern: 'x', urls: ['javascript:alert(1)'] }] }, 'nonsense']) {
      const response = await site.app.inject({ method: 'PUT', url: '/api/admin/search-settings', headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(response.statusCode).toBe(400);
    }
    expect((await site.app.inject({ method: 'PUT', url: '/api/admin/search-settings', payload: {} })).statusCode).toBe(401);
    expect(JSON.parse(readFileSync(join(site.dataDir, 'search-settings.json'), 'utf8')).bestBets).toHaveLength(1);
  });

  it('removes a URL from results until the removal is lifted', async () => {
    const url = `${SITE}/en/news/old-telescope.html`;
    expect((await search('q=telescope')).hits.map((hit) => hit.url)).toContain(url);
    const removed = await site.app.inject({ method: 'POST', url: '/api/admin/removed', headers: auth, payload: { url } });
    expect(removed.statusCode).toBe(201);
    const without = await search('q=telescope');
    expect(without.hits.map((hit) => hit.url)).not.toContain(url);
    // The new telescope page and the German one, and the parking page pinned to `telescope*` above.
    expect(without.facets.lang.en).toBe(2);
    expect(without.facets.section).toEqual({ news: 2, visit: 1 });
    const inspected = (await site.app.inject({ method: 'GET', url: `/api/admin/inspect?url=${encodeURIComponent(url)}`, headers: auth })).json();
    expect(inspected).toMatchObject({ known: true, inIndex: true, removedByAdmin: true, searchable: false });
    const lifted = await site.app.inject({ method: 'DELETE', url: `/api/admin/removed?url=${encodeURIComponent(url)}`, headers: auth });
    expect(lifted.statusCode).toBe(200);
    expect((await search('q=telescope')).hits.map((hit) => hit.url)).toContain(url);
    expect((await site.app.inject({ method: 'DELETE', url: `/api/admin/removed?url=${encodeURIComponent(url)}`, headers: auth })).statusCode).toBe(404);
    expect((await site.app.inject({ method: 'POST', url: '/api/admin/removed', headers: auth, payload: { url: 'not a url' } })).statusCode).toBe(400);
  });

  it('inspects a URL: indexed or why not, when fetched, its rank versions', async () => {
    const inspect = async (url: string) => (await site.app.inject({ method: 'GET', url: `/api/admin/inspect?url=${encodeURIComponent(url)}`, headers: auth })).json();
    const indexed = await inspect(`${SITE}/library/hours.html`);
    expect(indexed).toMatchObject({ known: true, inIndex: true, searchable: true, whyNotIndexed: null, page: { state: 'fetched', lang: 'en', fetchedAt: '2026-11-01T00:00:00.000Z' } });
    expect(indexed.ranks).toEqual([{ name: 'local', version: 1, createdAt: expect.any(String), value: 0.3 }]);
    const copy = await inspect(`${SITE}/en/library/hours.html`);
    expect(copy).toMatchObject({ inIndex: false, searchable: false });
    expect(copy.whyNotIndexed).toBe(`it duplicates ${SITE}/library/hours.html, which is indexed instead`);
    const unknown = await inspect('http://elsewhere.example/');
    expect(unknown).toMatchObject({ known: false, inIndex: false, ranks: [] });
    expect(unknown.whyNotIndexed).toMatch(/has not fetched it/);
  });
});

describe('conventions browsers know', () => {
  it('serves an OpenSearch description with the search and suggestion URLs', async () => {
    const site = await buildMultilingualSite();
    try {
      const response = await site.app.inject({ method: 'GET', url: '/opensearch.xml', headers: { host: 'search.northfield.example' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/opensearchdescription\+xml/);
      expect(response.body).toContain('<ShortName>Northfield</ShortName>');
      expect(response.body).toContain('<Description>Northfield search:');
      expect(response.body).toContain('template="http://search.northfield.example/?q={searchTerms}"');
      const suggestions = await site.app.inject({ method: 'GET', url: '/api/suggest?q=tele&format=opensearch' });
      expect(JSON.parse(suggestions.body)).toEqual(['tele', expect.arrayContaining(['telescope'])]);
      const page = await site.app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml"');
    } finally {
      await site.close();
    }
  });
});
