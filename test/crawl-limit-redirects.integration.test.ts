/**
 * The page limit counts every record a crawl stores, redirect hops included. Pages in flight when
 * the limit is near may redirect: a redirect that would store a record past the limit is not
 * followed but stored as a link to its target, which the next run fetches.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const PAGES = 60;

let server: Server;
let port: number;
const requests: string[] = [];

beforeAll(async () => {
  // /pK answers 301 to /mK; for odd K, /mK answers 301 again to /tK. /tK and /mK (even K) are pages.
  // hub.test links pages on eight hosts; each hN.test answers 301 to the same path on www.hN.test.
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    requests.push(path);
    if (path === '/robots.txt') return void response.writeHead(404).end();
    if (/^h\d+\.test$/.test(host)) return void response.writeHead(301, { location: `http://www.${host}${path}` }).end();
    if (host === 'hub.test') {
      let links = '';
      for (let k = 0; k < PAGES; k++) links += `<a href="http://h${k % 8}.test/q${k}">page ${k}</a>`;
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>hub</title>${links}`);
    }
    if (path === '/chain') return void response.writeHead(301, { location: '/c1' }).end();
    if (path === '/c1') return void response.writeHead(302, { location: 'http://b.test/elsewhere' }).end();
    const hop = /^\/([pm])(\d+)$/.exec(path);
    if (hop && (hop[1] === 'p' || Number(hop[2]) % 2 === 1)) {
      const next = hop[1] === 'p' ? `/m${hop[2]}` : `/t${hop[2]}`;
      return void response.writeHead(301, { location: next }).end();
    }
    let body = '<!doctype html><title>page</title><p>words on a page</p>';
    if (path === '/') for (let k = 0; k < PAGES; k++) body += `<a href="/p${k}">page ${k}</a>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

async function crawl(dir: string, maxPages: number, seed = 'http://a.test/', scope = 'regex:^http://a\\.test/') {
  const settings = loadSettings({
    env: {},
    overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, concurrency: 16 } },
  });
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  const before = requests.length;
  const summary = await stack.crawler.crawl({
    seeds: [seed],
    scope: parseScope(scope),
    ordering: 'bfs',
    maxPages,
    maxDepth: 5,
    hostPageBudget: 5000,
    concurrency: 16,
  });
  const pages: PageRecord[] = [];
  for await (const [, page] of store.pages()) pages.push(page);
  await stack.close();
  await store.close();
  return { summary, pages, log: requests.slice(before).filter((path) => path !== '/robots.txt') };
}

describe('a redirect not followed', () => {
  it('is recorded at the URL the chain reached, after the hops it followed', async () => {
    const { pages } = await crawl(mkdtempSync(join(tmpdir(), 'lse-limit-')), 10, 'http://a.test/chain');
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect(pages.map((p) => p.url).sort()).toEqual(['http://a.test/c1', 'http://a.test/chain']);
    expect(byPath.get('/chain')).toMatchObject({ state: 'redirect', status: 301, redirectTo: expect.any(Number) });
    expect(byPath.get('/chain')!.error).toBeUndefined();
    expect(byPath.get('/c1')).toMatchObject({ state: 'redirect', status: 302, error: 'out-of-scope' });
  });
});

describe('the page limit with redirects in flight', () => {
  it('stores exactly the limit, hops included, at every limit', async () => {
    for (const maxPages of [7, 12, 20, 33, 41]) {
      const { summary, pages } = await crawl(mkdtempSync(join(tmpdir(), 'lse-limit-')), maxPages);
      expect(summary.stoppedBecause, `limit ${maxPages}`).toBe('max-pages');
      expect(summary.stored, `limit ${maxPages}`).toBe(maxPages);
      expect(pages.length, `limit ${maxPages}`).toBe(maxPages);
    }
  });

  it('stores exactly the limit on a site of many hosts whose pages redirect to another host', async () => {
    for (const maxPages of [9, 17, 30]) {
      const { summary, pages } = await crawl(mkdtempSync(join(tmpdir(), 'lse-limit-')), maxPages, 'http://hub.test/', 'regex:^http://');
      expect(summary.stored, `limit ${maxPages}`).toBe(maxPages);
      expect(pages.length, `limit ${maxPages}`).toBe(maxPages);
      expect(new Set(pages.map((p) => p.host)).size, `limit ${maxPages}`).toBeGreaterThanOrEqual(Math.min(9, maxPages));
    }
  });

  it('leaves the target of a redirect met at the limit to the next run, fetching nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-limit-'));
    const first = await crawl(dir, 20);
    const unfollowed = first.pages.filter((p) => p.state === 'redirect' && p.error === 'page-limit');
    expect(unfollowed.length).toBeGreaterThan(0);
    const second = await crawl(dir, 1000);
    // The whole site: the front page, 30 pages behind one redirect, 30 behind two.
    expect(second.summary.stoppedBecause).toBe('frontier-empty');
    expect(second.summary.stored).toBe(1 + 30 * 2 + 30 * 3);
    const firstPaths = new Set(first.log);
    expect(second.log.filter((path) => firstPaths.has(path))).toEqual([]);
    const byPath = new Map(second.pages.map((p) => [new URL(p.url).pathname, p]));
    for (const hop of unfollowed) {
      const [, kind, k] = /\/([pm])(\d+)$/.exec(hop.url)!;
      const target = kind === 'p' ? `/m${k}` : `/t${k}`;
      expect(second.log, hop.url).toContain(target);
      expect(byPath.get(target)?.state, hop.url).toBe(kind === 'p' && Number(k) % 2 === 1 ? 'redirect' : 'fetched');
    }
  });
});
