/**
 * A short outage loses nothing: a folder of the site answers 404 for one re-crawl and comes back.
 * Pages leave the index only after failures on visits a day apart; pages that left are checked
 * again with a back-off, at once when the sitemap lists them; a held change lists its URLs and is
 * applied or discarded; a crawl retries what a wrong setting refused. Time moves through the
 * servers' clock parameter, never by sleeping.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { buildIndex, serveStore } from '../server/cli/serve-command.ts';

const HOUR = 3_600_000;
const token = 'an-outage-test-admin-token-0123';
const DOCS = ['one', 'two', 'three', 'four'];

/** Home, about, contact and a /docs/ folder of four pages; `docsDown` makes the folder answer 404. */
function siteWithFolder() {
  const state = { docsDown: false, robots: 'User-agent: *\nAllow: /\n', sitemap: false };
  const pages = new Map<string, string>([
    ['/', `<title>Home</title>${DOCS.map((d) => `<a href="/docs/${d}">${d}</a>`).join(' ')} <a href="/about">about</a> <a href="/contact">contact</a> welcome`],
    ['/about', '<title>About</title><p>about the observatory</p>'],
    ['/contact', '<title>Contact</title><p>contact the front desk</p>'],
    ...DOCS.map((d): [string, string] => [`/docs/${d}`, `<title>Doc ${d}</title><p>manual chapter ${d} telescope${d}</p>`]),
  ]);
  let port = 0;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/robots.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end(state.robots);
    if (path === '/sitemap.xml') {
      if (!state.sitemap) return response.writeHead(404).end();
      const urls = [...pages.keys()].map((p) => `<url><loc>http://site.test${p}</loc></url>`).join('');
      return response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const body = state.docsDown && path.startsWith('/docs/') ? undefined : pages.get(path);
    if (body === undefined) return response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><body>${body}</body></html>`);
  });
  const listen = async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    return port;
  };
  return { state, server, listen, get port() { return port; } };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function serveFolderSite(site: ReturnType<typeof siteWithFolder>, sitemaps = false) {
  const port = await site.listen();
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-outage-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: { seeds: ['http://site.test/'], scope: ['host:site.test'], resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, sitemaps },
      schedules: { estimate: 'off' },
    },
  });
  const store = await CrawlStore.open(dataDir);
  await rememberCrawlerSettings(store, settings.crawler);
  const clock = { now: Date.now() };
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: token, index: (await buildIndex(store, settings)).index, now: () => clock.now });
  closers.push(async () => {
    await serving.close();
    await store.close();
    site.server.close();
  });
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${serving.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
    return { status: response.status, body: await response.json() };
  };
  const found = async (q: string) => ((await api(`/api/search?q=${encodeURIComponent(q)}`)).body as { total: number }).total;
  const recrawl = async () => {
    const id = serving.runner.submitRecrawl({ budget: 20, policy: 'uniform' });
    await serving.runner.idle();
    return serving.runner.status(id)!;
  };
  serving.runner.submitCrawl();
  await serving.runner.idle();
  return { serving, store, api, found, recrawl, clock };
}

describe('a folder that answers 404 for one re-crawl', () => {
  it('keeps its pages in the index and finds them again when the folder is back', async () => {
    const site = siteWithFolder();
    const { found, recrawl, clock, api } = await serveFolderSite(site);
    expect(await found('telescopeone')).toBe(1);
    site.state.docsDown = true;
    const outage = await recrawl();
    expect(outage.state).toBe('done');
    expect(outage.heldIndexChange).toBeUndefined();
    expect(outage.recrawl).toMatchObject({ gone: 4, failing: 4 });
    // Still searchable: one failure is not enough to drop a page.
    expect(await found('telescopeone')).toBe(1);
    expect((await api('/api/admin/status')).body.index.documentCount).toBe(7);
    site.state.docsDown = false;
    clock.now += 2 * HOUR;
    const back = await recrawl();
    expect(back.recrawl).toMatchObject({ gone: 0 });
    expect(back.recrawl!.failing).toBeUndefined();
    for (const d of DOCS) expect(await found(`telescope${d}`)).toBe(1);
  });

  it('drops pages after failures a day apart, holds the change with its URLs, and re-checks them with a back-off', async () => {
    const site = siteWithFolder();
    const { found, recrawl, clock, api } = await serveFolderSite(site);
    site.state.docsDown = true;
    expect((await recrawl()).recrawl).toMatchObject({ failing: 4 });
    // A second failure the same day does not drop them either.
    clock.now += 3 * HOUR;
    expect((await recrawl()).recrawl).toMatchObject({ failing: 4 });
    clock.now += 22 * HOUR;
    const confirmed = await recrawl();
    expect(confirmed.recrawl!.failing).toBeUndefined();
    // 4 of 7 pages (57 %): held, listing the URLs; the index still serves them.
    const held = confirmed.heldIndexChange!;
    expect(held.removing).toBe(4);
    expect(held.sample!.sort()).toEqual(DOCS.map((d) => `http://site.test/docs/${d}`).sort());
    expect(await found('telescopetwo')).toBe(1);
    const listed = await api(`/api/admin/jobs/${confirmed.id}/held-index`);
    expect(listed.body).toMatchObject({ job: confirmed.id, removing: 4 });
    expect(listed.body.urls).toHaveLength(4);
    expect((await api(`/api/admin/jobs/${confirmed.id}/apply-index`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(await found('telescopetwo')).toBe(0);
    // The folder comes back: not checked before the back-off is over …
    site.state.docsDown = false;
    clock.now += HOUR;
    expect((await recrawl()).recrawl!.rechecked).toBeUndefined();
    expect(await found('telescopetwo')).toBe(0);
    // … (as long as they had been failing, 25 hours), and found again once it is.
    clock.now += 25 * HOUR;
    expect((await recrawl()).recrawl).toMatchObject({ rechecked: 4, restored: 4 });
    for (const d of DOCS) expect(await found(`telescope${d}`)).toBe(1);
  });

  it('discards a held change: the index keeps serving what it had', async () => {
    const site = siteWithFolder();
    const { found, recrawl, clock, api } = await serveFolderSite(site);
    site.state.docsDown = true;
    await recrawl();
    clock.now += 25 * HOUR;
    const confirmed = await recrawl();
    expect(confirmed.heldIndexChange?.removing).toBe(4);
    expect((await api(`/api/admin/jobs/${confirmed.id}/held-index`, { method: 'DELETE' })).body).toEqual({ discarded: confirmed.id });
    expect((await api(`/api/admin/jobs/${confirmed.id}/held-index`)).status).toBe(404);
    expect((await api('/api/admin/status')).body.heldIndexChanges).toEqual([]);
    expect(confirmed.heldIndexChange!.discardedAt).toBeGreaterThan(0);
    expect(await found('telescopethree')).toBe(1);
  });

  it('re-checks a dropped page at once when the sitemap lists it', async () => {
    const site = siteWithFolder();
    const { found, recrawl, clock, api } = await serveFolderSite(site, true);
    site.state.docsDown = true;
    await recrawl();
    clock.now += 25 * HOUR;
    const confirmed = await recrawl();
    await api(`/api/admin/jobs/${confirmed.id}/apply-index`, { method: 'POST', body: '{}' });
    expect(await found('telescopefour')).toBe(0);
    site.state.docsDown = false;
    site.state.sitemap = true;
    clock.now += HOUR;
    expect((await recrawl()).recrawl).toMatchObject({ rechecked: 4, restored: 4 });
    expect(await found('telescopefour')).toBe(1);
  });
});

describe('a crawl after a wrong setting', () => {
  async function crawlOnce(dataDir: string, crawler: Record<string, unknown>) {
    const settings = loadSettings({ env: {}, overrides: { dataDir, crawler: { seeds: ['http://site.test/'], scope: ['host:site.test'], delaySeconds: 0, ...crawler } } });
    const store = await CrawlStore.open(dataDir);
    const stack = createCrawlStack(store, settings.crawler);
    try {
      return await stack.crawler.crawl({ seeds: settings.crawler.seeds, scope: parseScope(settings.crawler.scope), ordering: 'bfs', maxPages: 50, maxDepth: 5, hostPageBudget: 100, concurrency: 2 });
    } finally {
      await stack.close();
      await store.close();
    }
  }

  it('fetches the site once --resolve and --allow-private-networks are given, after a DNS failure and a refused address', async () => {
    const site = siteWithFolder();
    const port = await site.listen();
    closers.push(async () => void site.server.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-retry-'));
    // No --resolve: site.test does not resolve.
    const first = await crawlOnce(dataDir, {});
    expect(first.byState.fetched ?? 0).toBe(0);
    // --resolve, but loopback is refused without --allow-private-networks.
    const second = await crawlOnce(dataDir, { resolve: { 'site.test:80': `127.0.0.1:${port}` } });
    expect(second.byState.fetched ?? 0).toBe(0);
    const third = await crawlOnce(dataDir, { resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true });
    expect(third.fetchedThisRun).toBe(7);
    expect(third.byState.fetched).toBe(7);
  });

  it('fetches a seed that robots.txt refused once robots.txt allows it', async () => {
    const site = siteWithFolder();
    site.state.robots = 'User-agent: *\nDisallow: /\n';
    const port = await site.listen();
    closers.push(async () => void site.server.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-retry-'));
    const crawler = { resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true };
    expect((await crawlOnce(dataDir, crawler)).byState).toMatchObject({ disallowed: 1 });
    site.state.robots = 'User-agent: *\nAllow: /\n';
    const again = await crawlOnce(dataDir, crawler);
    expect(again.byState.fetched).toBe(7);
    expect(again.byState.disallowed ?? 0).toBe(0);
  });
});
