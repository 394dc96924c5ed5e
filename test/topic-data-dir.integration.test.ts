/**
 * Jobs on a data directory made by a topic crawl (no URL scope): `lse estimate`, rounds from the
 * admin API and the schedules treat the pages the crawl stored as local as L and store every page
 * they fetch as global; a re-crawl keeps the stored roles and queues newly linked pages, which the
 * next crawl judges by the topic. A small web of five hosts on one loopback server.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { settingsForDataDir } from '../server/cli/crawl-command.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { main } from '../server/cli/main.ts';
import { serveStore, type Serving } from '../server/cli/serve-command.ts';
import { dataDirDomain, roundRoleOf } from '../server/jobs/local-domain.ts';
import { runRecrawl } from '../server/jobs/recrawl.ts';
import { farOffSchedules } from './helpers/far-off-schedules.ts';

const TOPIC = 'astronomy,telescope,planet,comet,orbit';

type Link = [href: string, anchor: string];
const page = (title: string, text: string, links: Link[] = []) =>
  `<title>${title}</title><p>${text}</p>${links.map(([href, anchor]) => `<a href="${href}">${anchor}</a>`).join(' ')}`;

/**
 * The astronomy club (sky.test) is the topic; a kitchen and the town news are off-topic and
 * linked from it; past the crawl's reach (three steps from a hot page) there is more, including
 * an astronomy page (deep.test) only a round reaches.
 */
function smallWeb() {
  const sites = new Map<string, string>([
    ['sky.test/', page('Astronomy club', 'astronomy club telescope nights planet watching comet hunting orbit talks', [['/comets', 'Comets'], ['/planets', 'Planets'], ['/telescopes', 'Telescopes'], ['http://kitchen.test/', 'our bake sale'], ['http://news.test/', 'town news']])],
    ['sky.test/comets', page('Comets', 'comet orbit comet tails astronomy notes for the club', [['/', 'home'], ['http://news.test/weather', 'weather']])],
    ['sky.test/planets', page('Planets', 'planet orbit planet rings astronomy evenings', [['/', 'home'], ['/moons', 'moons']])],
    ['sky.test/moons', page('Moons', 'moons orbit every planet astronomy telescope views', [['/planets', 'back']])],
    ['sky.test/telescopes', page('Telescopes', 'telescope mirrors telescope lenses astronomy gear', [['/', 'home']])],
    ['kitchen.test/', page('Kitchen', 'bread recipes soup butter flour kitchen', [['/soup', 'soup'], ['/bread', 'bread']])],
    ['kitchen.test/soup', page('Soup', 'soup onion broth recipes', [['/stew', 'stew']])],
    ['kitchen.test/bread', page('Bread', 'bread flour yeast dough', [['/', 'kitchen']])],
    ['kitchen.test/stew', page('Stew', 'stew beef carrots slow cooking', [['http://deep.test/', 'more']])],
    ['news.test/', page('Town news', 'town news council meeting market', [['/weather', 'weather'], ['/sports', 'sports']])],
    ['news.test/weather', page('Weather', 'rain tomorrow and wind', [['/', 'news']])],
    ['news.test/sports', page('Sports', 'football match score', [['/archive', 'archive']])],
    ['news.test/archive', page('Archive', 'old news from last year', [])],
    ['deep.test/', page('Observatory', 'astronomy telescope planet comet orbit observatory', [['/next', 'next']])],
    ['deep.test/next', page('Next', 'a quiet page about nothing much', [])],
  ]);
  const log: string[] = [];
  const server: Server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/robots.txt') return response.writeHead(404).end();
    log.push(`http://${host}${path}`);
    const body = sites.get(`${host}${path}`);
    if (body === undefined) return response.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
  });
  return { sites, log, server };
}

/** Runs an lse command, capturing what it prints. */
async function lse(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await main(argv), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** Every stored page by URL, from a data directory (opened and closed) or an open store. */
async function storedPages(from: string | CrawlStore): Promise<Map<string, PageRecord & { id: number }>> {
  const store = typeof from === 'string' ? await CrawlStore.open(from) : from;
  try {
    const out = new Map<string, PageRecord & { id: number }>();
    for await (const [id, record] of store.pages()) out.set(record.url, { ...record, id });
    return out;
  } finally {
    if (typeof from === 'string') await store.close();
  }
}

const localIds = (pages: Map<string, PageRecord & { id: number }>) =>
  [...pages.values()].filter((p) => p.role === 'local' && (p.state === 'fetched' || p.state === 'not-modified')).map((p) => p.id).sort((a, b) => a - b);

describe('jobs on a topic-crawled data directory', () => {
  const web = smallWeb();
  let port: number;
  let dataDir: string;
  let fetchFlags: string[];
  let crawled: Map<string, PageRecord & { id: number }>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => web.server.listen(0, '127.0.0.1', resolve));
    port = (web.server.address() as AddressInfo).port;
    fetchFlags = ['--resolve', `*:80:127.0.0.1:${port}`, '--allow-private-networks', '--delay', '0'];
    dataDir = mkdtempSync(join(tmpdir(), 'lse-topic-jobs-'));
    const crawl = await lse(['crawl', '--data', dataDir, '--seed', 'http://sky.test/', '--topic', TOPIC, '--ordering', 'focused', ...fetchFlags]);
    expect(crawl.code, crawl.err).toBe(0);
    crawled = await storedPages(dataDir);
  });
  afterAll(() => new Promise<void>((resolve) => web.server.close(() => resolve())));

  it('the topic crawl stored the club as local, the off-topic pages it reached as global, and remembered no URL scope', async () => {
    const local = [...crawled.values()].filter((p) => p.role === 'local').map((p) => p.url).sort();
    expect(local).toEqual(['http://sky.test/', 'http://sky.test/comets', 'http://sky.test/moons', 'http://sky.test/planets', 'http://sky.test/telescopes']);
    // Two steps from a hot page at most: the kitchen's stew and the news archive are three away.
    expect(crawled.get('http://kitchen.test/soup')?.role).toBe('global');
    expect(crawled.has('http://kitchen.test/stew')).toBe(false);
    expect(crawled.has('http://news.test/archive')).toBe(false);
    const store = await CrawlStore.open(dataDir);
    const remembered = await store.getMeta<{ scope?: string[]; topic?: { terms: string[] } }>('crawl-settings');
    await store.close();
    expect(remembered?.scope ?? []).toEqual([]);
    expect(remembered?.topic?.terms).toEqual(TOPIC.split(','));
  });

  it('lse estimate: L is the stored local pages; the pages it fetches are stored as global', async () => {
    const before = web.log.length;
    const result = await lse(['estimate', '--data', dataDir, '--iterations', '6', '--per-iteration', '5']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/5 local pages/);
    const fetched = new Set(web.log.slice(before));
    // Pages the crawl never stored, fetched over HTTP by the round — one of them on the topic.
    for (const url of ['http://kitchen.test/stew', 'http://news.test/archive', 'http://deep.test/']) expect(fetched).toContain(url);
    // Stored pages are read from the store, not fetched again.
    for (const url of crawled.keys()) expect(fetched).not.toContain(url);
    const after = await storedPages(dataDir);
    for (const url of fetched) expect(after.get(url)?.role, url).toBe('global');
    expect(after.get('http://deep.test/')?.text).toBeUndefined();
    // No stored page changed its role.
    for (const [url, record] of crawled) expect(after.get(url)?.role, url).toBe(record.role);

    const store = await CrawlStore.open(dataDir);
    try {
      const estimate = (await store.latestRanks('estimate'))!;
      expect(estimate.version).toBe(1);
      expect([...estimate.ids].sort((a, b) => a - b)).toEqual(localIds(crawled));
      expect(estimate.info).toMatchObject({ crawled: expect.any(Number) });
      expect(estimate.info!.crawled as number).toBeGreaterThanOrEqual(fetched.size);
      for (const value of estimate.values) expect(value).toBeGreaterThan(0);
      // The estimate is not the local PageRank: the global pages changed it.
      const local = (await store.latestRanks('local'))!;
      expect([...local.ids]).toEqual([...estimate.ids]);
      expect(Math.max(...estimate.values.map((v, i) => Math.abs(v - local.values[i])))).toBeGreaterThan(1e-4);
    } finally {
      await store.close();
    }
  });

  describe('served (lse serve): rounds from the admin API and the schedules, re-crawls, crawls', () => {
    const token = 'topic-jobs-test-token-0123456789';
    let serving: Serving;
    let store: CrawlStore;

    const api = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${serving.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
      return { status: response.status, body: await response.json() };
    };
    const waitForJob = async (id: string) => {
      for (;;) {
        const { body } = await api(`/api/admin/jobs/${id}`);
        if (['done', 'failed', 'cancelled'].includes(body.state)) return body;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    beforeAll(async () => {
      expect((await lse(['index', '--data', dataDir])).code).toBe(0);
      const config = join(dataDir, '..', `lse-topic-jobs-${port}.json`);
      // Far-off firings: the test runs the schedules on demand.
      writeFileSync(config, JSON.stringify({ estimation: { iterations: 3, extra: '2n' }, schedules: { ...farOffSchedules(), recrawlBudget: 50 } }));
      // The settings `lse serve --data DIR` uses: remembered by the crawl, fetch flags given again.
      const opened = await settingsForDataDir({ data: dataDir, config }, { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 });
      store = opened.store;
      serving = await serveStore(store, opened.settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: token });
    });
    afterAll(async () => {
      await serving?.close();
      await store?.close();
    });

    it('runs a round from the admin API and one from the estimate schedule, each a new version over the same L', async () => {
      // Starting over: a round continuing from lse estimate's would find no outside page left to fetch (and keep the ranks).
      const submitted = await api('/api/admin/rounds', { method: 'POST', body: JSON.stringify({ selector: 'sc', iterations: 3, pagesPerIteration: 4, fresh: true }) });
      expect(submitted.status).toBe(202);
      const job = await waitForJob(submitted.body.id);
      expect(job.error).toBeUndefined();
      expect(job.round).toMatchObject({ state: 'done', localPages: 5, iteration: 3, version: 2 });
      // The schedule's round continues from it and fetches the outside pages it had left.
      const scheduled = await api('/api/admin/schedules/estimate/run', { method: 'POST', body: '{}' });
      expect(scheduled.status).toBe(202);
      const round = await waitForJob(scheduled.body.id);
      expect(round.round).toMatchObject({ state: 'done', localPages: 5, version: 3, continuedFrom: 2 });
      const estimate = (await store.latestRanks('estimate'))!;
      expect(estimate.version).toBe(3);
      // The schedule runs the default method, which on a topic crawl is best (its estimate is the gated one).
      expect(estimate.info).toMatchObject({ selector: 'default', estimator: 'gated' });
      expect([...estimate.ids].sort((a, b) => a - b)).toEqual(localIds(crawled));
      // The search ranking follows the new version.
      const search = await (await fetch(`${serving.url}/api/search?q=comet&explain=true&size=1`)).json();
      expect(search.hits[0].explain.rankVersion).toBe(3);
    });

    it('a re-crawl keeps stored roles and queues new links; the next crawl judges them by the topic', async () => {
      // A local page turns to cooking (it stays local: the re-crawl keeps roles), and links two new pages.
      web.sites.set('sky.test/planets', page('Planets', 'planet night cancelled; zucchini bake instead', [['/', 'home'], ['/moons', 'moons'], ['/new-comet', 'a new one'], ['http://kitchen.test/cake', 'cake']]));
      web.sites.set('sky.test/new-comet', page('New comet', 'a new comet on a long orbit, astronomy club telescope sighting', [['/', 'home']]));
      web.sites.set('kitchen.test/cake', page('Cake', 'cake sugar eggs butter oven', [['/', 'kitchen']]));
      const before = await storedPages(store);
      const started = web.log.length;
      const submitted = await api('/api/admin/recrawls', { method: 'POST', body: JSON.stringify({ budget: 50, policy: 'uniform' }) });
      const job = await waitForJob(submitted.body.id);
      expect(job.state, job.error).toBe('done');
      expect(job.recrawl).toMatchObject({ visited: 5, newPages: 2 });
      expect(job.recrawl.changed).toBeGreaterThanOrEqual(1);
      // Only the local pages were revisited.
      expect(new Set(web.log.slice(started))).toEqual(new Set(localIdsUrls(before)));
      const after = await storedPages(store);
      for (const [url, record] of before) expect(after.get(url)?.role, url).toBe(record.role);
      expect(after.get('http://sky.test/planets')?.text).toMatch(/zucchini/);
      const search = await (await fetch(`${serving.url}/api/search?q=zucchini`)).json();
      expect(search.hits.map((h: { url: string }) => h.url)).toEqual(['http://sky.test/planets']);
      const queued = new Map<string, { role: string; hot?: boolean }>();
      for await (const [id, entry] of store.frontier()) queued.set(store.urlOf(id)!, entry);
      expect(queued.get('http://sky.test/new-comet')).toMatchObject({ role: 'local', hot: true });
      expect(queued.get('http://kitchen.test/cake')).toMatchObject({ role: 'local', hot: true });

      // The next crawl (admin API) goes on as a topic crawl: the new astronomy page is local, the cake global.
      const crawl = await api('/api/admin/crawls', { method: 'POST', body: '{}' });
      const crawlJob = await waitForJob(crawl.body.id);
      expect(crawlJob.state, crawlJob.error).toBe('done');
      const crawledNow = await storedPages(store);
      expect(crawledNow.get('http://sky.test/new-comet')).toMatchObject({ role: 'local', state: 'fetched' });
      expect(crawledNow.get('http://kitchen.test/cake')).toMatchObject({ role: 'global', state: 'fetched' });
      const found = await (await fetch(`${serving.url}/api/search?q=sighting`)).json();
      expect(found.hits.map((h: { url: string }) => h.url)).toEqual(['http://sky.test/new-comet']);
    });
  });
});

function localIdsUrls(pages: Map<string, PageRecord & { id: number }>): string[] {
  return [...pages.values()].filter((p) => p.role === 'local' && (p.state === 'fetched' || p.state === 'not-modified')).map((p) => p.url);
}

describe('clear errors where local pages are really missing', () => {
  it('lse estimate on a data directory never crawled', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-topic-empty-'));
    const result = await lse(['estimate', '--data', dataDir]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/no crawl yet: run lse crawl first/);
  });

  it('lse estimate after a topic crawl where no page reached the threshold', async () => {
    const web = smallWeb();
    await new Promise<void>((resolve) => web.server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (web.server.address() as AddressInfo).port;
      const dataDir = mkdtempSync(join(tmpdir(), 'lse-topic-none-'));
      const flags = ['--resolve', `*:80:127.0.0.1:${port}`, '--allow-private-networks', '--delay', '0'];
      expect((await lse(['crawl', '--data', dataDir, '--seed', 'http://kitchen.test/', '--topic', 'zymurgy', ...flags])).code).toBe(0);
      expect((await storedPages(dataDir)).size).toBeGreaterThan(0);
      const requests = web.log.length;
      const result = await lse(['estimate', '--data', dataDir, ...flags]);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/no local pages: none of the pages its topic crawl fetched reached the similarity threshold 0\.1 for "zymurgy"/);
      expect(web.log.length).toBe(requests);
    } finally {
      await new Promise<void>((resolve) => web.server.close(() => resolve()));
    }
  });
});

describe('the local domain a data directory remembers', () => {
  it('URL scope: the scope decides; topic: stored roles, the scope (or the whole web) bounds; nothing: stored roles', () => {
    const byUrl = dataDirDomain({ scope: ['host:sky.test'], topic: undefined });
    expect(byUrl.kind).toBe('url');
    expect(roundRoleOf(byUrl)('http://sky.test/x')).toBe('local');
    expect(roundRoleOf(byUrl)('http://news.test/')).toBe('global');
    const byTopic = dataDirDomain({ scope: [], topic: { terms: ['comet'], threshold: 0.1 } });
    expect(byTopic.kind).toBe('topic');
    expect(byTopic.scope.isLocal('https://anywhere.example/')).toBe(true);
    expect(roundRoleOf(byTopic)('http://sky.test/x')).toBe('global');
    const bounded = dataDirDomain({ scope: ['host:sky.test'], topic: { terms: ['comet'], threshold: 0.1 } });
    expect(bounded.kind).toBe('topic');
    expect(bounded.scope.isLocal('http://news.test/')).toBe(false);
    expect(roundRoleOf(bounded)('http://sky.test/x')).toBe('global');
    expect(dataDirDomain({ scope: [], topic: undefined }).kind).toBe('stored');
  });

  it('a re-crawl without a remembered scope or topic keeps roles, queues no new page and says why', async () => {
    const web = smallWeb();
    await new Promise<void>((resolve) => web.server.listen(0, '127.0.0.1', resolve));
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-topic-stored-'));
    try {
      const port = (web.server.address() as AddressInfo).port;
      const flags = ['--resolve', `*:80:127.0.0.1:${port}`, '--allow-private-networks', '--delay', '0'];
      expect((await lse(['crawl', '--data', dataDir, '--seed', 'http://sky.test/', '--topic', TOPIC, ...flags])).code).toBe(0);
      web.sites.set('sky.test/moons', page('Moons', 'moons orbit every planet astronomy telescope views', [['/planets', 'back'], ['/phases', 'phases']]));
      const store = await CrawlStore.open(dataDir);
      try {
        // The settings of a directory that remembers neither a scope nor a topic (older, or written by other means).
        const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
        const stack = createCrawlStack(store, settings.crawler);
        const logged: string[] = [];
        const domain = dataDirDomain(settings.crawler);
        const before = await storedPages(store);
        const result = await runRecrawl({ store, stack, scope: domain.scope, domain, concurrency: 4, log: (m) => logged.push(m) }, { budget: 10, policy: 'uniform' });
        await stack.close();
        expect(result).toMatchObject({ visited: 5, newPages: 0, unclassified: 1 });
        expect(logged).toEqual([expect.stringMatching(/^1 newly linked page was not queued and count as global: the data directory remembers neither a URL scope nor a topic/)]);
        expect(result.notes).toEqual(logged);
        const queued: string[] = [];
        for await (const [id] of store.frontier()) queued.push(store.urlOf(id)!);
        expect(queued).not.toContain('http://sky.test/phases');
        const after = await storedPages(store);
        for (const [url, record] of before) expect(after.get(url)?.role, url).toBe(record.role);
      } finally {
        await store.close();
      }
    } finally {
      await new Promise<void>((resolve) => web.server.close(() => resolve()));
    }
  });
});
