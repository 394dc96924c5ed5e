import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack, sitemapOption } from '../server/cli/crawl-setup.ts';
import { startVirtualHosts, type VirtualHosts } from './helpers/virtual-hosts.ts';

/**
 * Sites whose sitemaps cost a careless crawler minutes:
 *   - bomb.test: /sitemap.xml is 260 KB of gzip that inflates to 256 MB of white space;
 *   - drip.test: robots.txt names an index of five sitemaps that send two spaces every 20 ms
 *     and never end.
 *   - slow0.test … slow7.test: every /sitemap.xml answers after 800 ms; slow0.test links to the others.
 * Each site has ten pages linked from its start page.
 */
const PAGES = 10;
/** 256 MB of spaces as 256 gzip members of a megabyte each, one after the other (about 260 KB). */
const bomb = Buffer.concat(Array.from({ length: 256 }, () => gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 })));
let hosts: VirtualHosts;
const requestedAt = new Map<string, number>();
const drips = new Set<NodeJS.Timeout>();
const slowSitemaps = { open: 0, mostOpen: 0, lastDone: 0 };

beforeAll(async () => {
  hosts = await startVirtualHosts((host, path, response) => {
    if (!requestedAt.has(`${host}${path}`)) requestedAt.set(`${host}${path}`, performance.now());
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body><p>${host}${path}</p>${body}</body></html>`);
    if (host === 'slow0.test' && path === '/') return html(Array.from({ length: 8 }, (_, i) => `<a href="http://slow${i}.test/">site ${i}</a>`).join(' '));
    if (host.startsWith('slow') && path === '/sitemap.xml') {
      slowSitemaps.mostOpen = Math.max(slowSitemaps.mostOpen, ++slowSitemaps.open);
      return void setTimeout(() => {
        slowSitemaps.open--;
        slowSitemaps.lastDone = performance.now();
        response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${host}/p0</loc></url></urlset>`);
      }, 800);
    }
    if (path === '/') return html(Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}">page ${i}</a>`).join(' '));
    if (/^\/p\d+$/.test(path)) return html('<p>a page</p>');
    if (host === 'bomb.test' && path === '/sitemap.xml') return response.writeHead(200, { 'content-type': 'application/x-gzip' }).end(bomb);
    if (host === 'drip.test' && path === '/robots.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\nSitemap: http://drip.test/index.xml\n');
    if (host === 'drip.test' && path === '/index.xml') {
      const children = Array.from({ length: 5 }, (_, i) => `<sitemap><loc>http://drip.test/drip${i}.xml</loc></sitemap>`).join('');
      return response.writeHead(200, { 'content-type': 'application/xml' }).end(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children}</sitemapindex>`);
    }
    if (host === 'drip.test' && path.startsWith('/drip')) {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.write('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const timer = setInterval(() => response.write('  '), 20);
      drips.add(timer);
      response.on('close', () => {
        clearInterval(timer);
        drips.delete(timer);
      });
      return;
    }
    response.writeHead(404).end();
  });
});
afterAll(async () => {
  for (const timer of drips) clearInterval(timer);
  await hosts?.close();
});

async function crawl(host: string, sitemapBudget?: { fileSeconds: number; hostSeconds: number }, scope = `host:${host}`) {
  const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${hosts.port}` }, allowPrivateNetworks: true, delaySeconds: 0, ...(sitemapBudget ? { sitemapBudget } : {}) } } });
  const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-hostile-sitemaps-')));
  const stack = createCrawlStack(store, settings.crawler);
  const notes: Array<{ at: number; message: string }> = [];
  try {
    const summary: CrawlSummary = await stack.crawler.crawl({
      seeds: [`http://${host}/`],
      scope: parseScope(scope),
      ordering: 'bfs',
      maxPages: 100,
      maxDepth: 5,
      hostPageBudget: 100,
      concurrency: 4,
      sitemaps: sitemapOption(settings.crawler),
      log: (message) => notes.push({ at: performance.now(), message }),
    });
    let fetched = 0;
    for await (const [, page] of store.pages()) if (page.state === 'fetched') fetched++;
    return { summary, fetched, notes };
  } finally {
    await stack.close();
    await store.close();
  }
}

describe('hostile sitemaps do not hold a crawl up', () => {
  it('fetches the pages of a host whose sitemap inflates to white space, while it is read, and skips the sitemap', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { summary, fetched, notes } = await crawl('bomb.test');
    expect(fetched).toBe(PAGES + 1);
    expect(summary).toMatchObject({ stoppedBecause: 'frontier-empty', frontier: 0 });
    const skipped = notes.find((n) => n.message.startsWith('sitemap http://bomb.test/sitemap.xml skipped'));
    expect(skipped?.message).toMatch(/malformed: empty sitemap|time budget/);
    // The start page went out before the sitemap was done with: sitemaps are read beside the pages.
    expect(requestedAt.get('bomb.test/')!).toBeLessThan(skipped!.at);
    expect(summary.sitemaps).toMatchObject({ files: 0, skippedCount: 1 });
  }, 60_000);

  it('skips a sitemap past its time budget, and a host past its own, and finishes', async () => {
    const { summary, fetched, notes } = await crawl('drip.test', { fileSeconds: 0.4, hostSeconds: 1 });
    expect(fetched).toBe(PAGES + 1);
    expect(summary).toMatchObject({ stoppedBecause: 'frontier-empty', frontier: 0 });
    const reasons = notes.filter((n) => n.message.includes('/drip')).map((n) => n.message.replace(/^sitemap http:\/\/drip\.test\/drip\d\.xml skipped: /, ''));
    // 0.4 s, 0.4 s, then the 0.2 s left of the host's second: about three files spend its budget
    // (one more when a busy machine starts the next file just before the budget runs out), and
    // the host's budget skips the rest without reading them.
    const own = reasons.filter((r) => r.startsWith('took more than its time budget')).length;
    const host = reasons.filter((r) => r === 'the sitemaps of drip.test used their time budget (1 s)').length;
    expect(own + host).toBe(5);
    expect(own).toBeGreaterThanOrEqual(2);
    expect(host).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('leaves half the slots to pages when sitemaps are slow on many hosts', async () => {
    const { summary, fetched } = await crawl('slow0.test', undefined, 'regex:^http://slow\\d\\.test/');
    // slow0.test: its start page (which links to the other sites) and the page its sitemap lists.
    expect(fetched).toBe(7 * (PAGES + 1) + 2);
    expect(summary).toMatchObject({ stoppedBecause: 'frontier-empty', frontier: 0 });
    // Concurrency 4: two sitemaps at a time at most, while pages went on.
    expect(slowSitemaps.mostOpen).toBe(2);
    const startPages = Array.from({ length: 8 }, (_, i) => requestedAt.get(`slow${i}.test/`)!);
    expect(Math.max(...startPages)).toBeLessThan(slowSitemaps.lastDone);
  }, 60_000);
});
