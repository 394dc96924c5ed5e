import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { runRecrawl } from '../server/jobs/recrawl.ts';

const ORIGIN = 'http://docs.test';
const urlset = (entries: Array<[string, string?]>) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries
    .map(([loc, lastmod]) => `  <url><loc>${ORIGIN}${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
    .join('\n')}\n</urlset>\n`;

/**
 * A documentation site whose start page links nowhere: its pages are reachable only through the
 * sitemap index robots.txt names (a plain and a gzipped child, served as octet-stream without a
 * Content-Encoding), a malformed child, a child listed twice (a loop), and children on other hosts.
 */
function docsSite() {
  const lastmods: Record<string, string> = { '/guide/install': '2024-01-10', '/guide/upgrade': '2024-02-01T09:30:00+01:00', '/api/search': '2024-03-05' };
  const pages: Record<string, string> = {
    '/': '<title>Docs</title><p>Welcome to the documentation.</p>',
    '/guide/install': '<title>Installing</title><p>Run the marmalade installer twice.</p>',
    '/guide/upgrade': '<title>Upgrading</title><p>Upgrades keep the quince settings.</p>',
    '/api/search': '<title>Search API</title><p>The search endpoint answers with gooseberry JSON.</p>',
    '/api/admin': '<title>Admin API</title><p>Admin calls need the rhubarb token.</p>',
    '/listed-in-text': '<title>Text sitemap</title><p>Found through a plain text sitemap of damson lines.</p>',
    '/never': '<title>Never</title><p>Only a malformed sitemap lists this page.</p>',
  };
  const files = () => ({
    '/robots.txt': `User-agent: *\nDisallow: /private/\nSitemap: ${ORIGIN}/sitemap-index.xml\nSitemap: http://elsewhere.test/sitemap.xml\n`,
    '/sitemap-index.xml': `<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${ORIGIN}/sitemaps/guide.xml</loc></sitemap>
  <sitemap><loc>${ORIGIN}/sitemaps/api.bin</loc></sitemap>
  <sitemap><loc>${ORIGIN}/sitemaps/broken.xml</loc></sitemap>
  <sitemap><loc>${ORIGIN}/sitemap-index.xml</loc></sitemap>
  <sitemap><loc>http://elsewhere.test/child.xml</loc></sitemap>
</sitemapindex>\n`,
    '/sitemaps/guide.xml': urlset([['/guide/install', lastmods['/guide/install']], ['/guide/upgrade', lastmods['/guide/upgrade']], ['/private/secret'], ['/../outside']]).replace(
      '</urlset>',
      '<url><loc>http://elsewhere.test/page</loc></url></urlset>',
    ),
    '/sitemaps/api.bin': gzipSync(urlset([['/api/search', lastmods['/api/search']], ['/api/admin']])),
    '/sitemaps/broken.xml': `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${ORIGIN}/never</loc></url>`,
    '/extra.txt': `${ORIGIN}/listed-in-text\n\nnot a url\n`,
  });
  const log: string[] = [];
  const times: number[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    log.push(path);
    times.push(performance.now());
    const file = (files() as Record<string, string | Buffer>)[path];
    if (file !== undefined) {
      const type = path.endsWith('.xml') ? 'application/xml' : path.endsWith('.txt') ? 'text/plain' : 'application/octet-stream';
      return response.writeHead(200, { 'content-type': type }).end(file);
    }
    const body = pages[path];
    if (body === undefined) return response.writeHead(404, { 'content-type': 'text/html' }).end('<title>not found</title>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
  });
  return { server, log, times, lastmods };
}

let site: ReturnType<typeof docsSite>;
let port: number;

beforeAll(async () => {
  site = docsSite();
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  port = (site.server.address() as AddressInfo).port;
});
afterAll(() => site.server.close());

function settingsFor(delaySeconds = 0) {
  return loadSettings({ env: {}, overrides: { crawler: { resolve: { 'docs.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds } } });
}

async function crawlDocs(dir: string, sitemaps: { named?: string[] } | undefined, delaySeconds = 0) {
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settingsFor(delaySeconds).crawler);
  const notes: string[] = [];
  const summary = await stack.crawler.crawl({
    seeds: [`${ORIGIN}/`],
    scope: parseScope(`host:docs.test`),
    ordering: 'bfs',
    maxPages: 100,
    maxDepth: 10,
    hostPageBudget: 100,
    concurrency: 4,
    sitemaps,
    log: (message) => notes.push(message),
  });
  const pages = new Map<string, PageRecord>();
  for await (const [, page] of store.pages()) pages.set(page.url, page);
  await stack.close();
  await store.close();
  return { summary, pages, notes };
}

describe('a site reachable only through its sitemaps', () => {
  let crawl: { summary: CrawlSummary; pages: Map<string, PageRecord>; notes: string[] };
  let requested: string[];

  beforeAll(async () => {
    const before = site.log.length;
    crawl = await crawlDocs(mkdtempSync(join(tmpdir(), 'lse-sitemap-')), { named: [`${ORIGIN}/extra.txt`] });
    requested = site.log.slice(before);
  });

  it('fetches the pages of the plain and the gzipped child of the index, and of a text sitemap', () => {
    for (const path of ['/guide/install', '/guide/upgrade', '/api/search', '/api/admin', '/listed-in-text']) {
      expect(crawl.pages.get(`${ORIGIN}${path}`)?.state, path).toBe('fetched');
    }
    // Listed: 5 in the guide (one on another host), 2 in the gzipped child, 1 in the text file.
    expect(crawl.summary.sitemaps).toMatchObject({ files: 4, listed: 8, inScope: 7 });
  });

  it('stores each page its sitemap lastmod', () => {
    expect(crawl.pages.get(`${ORIGIN}/guide/install`)?.sitemapLastmod).toBe(Date.parse('2024-01-10'));
    expect(crawl.pages.get(`${ORIGIN}/guide/upgrade`)?.sitemapLastmod).toBe(Date.parse('2024-02-01T08:30:00Z'));
    expect(crawl.pages.get(`${ORIGIN}/api/admin`)?.sitemapLastmod).toBeUndefined();
  });

  it('skips a malformed sitemap, a loop and sitemaps on other hosts, says why, and goes on', () => {
    const skipped = crawl.summary.sitemaps!.skipped.map((s) => `${s.url} ${s.reason}`);
    expect(skipped.some((s) => s.startsWith(`${ORIGIN}/sitemaps/broken.xml malformed`))).toBe(true);
    expect(skipped.some((s) => s.startsWith(`${ORIGIN}/sitemap-index.xml listed again`))).toBe(true);
    expect(skipped.some((s) => s.startsWith('http://elsewhere.test/sitemap.xml on another host'))).toBe(true);
    expect(skipped.some((s) => s.startsWith('http://elsewhere.test/child.xml on another host'))).toBe(true);
    expect(crawl.notes.some((n) => n.includes('broken.xml') && n.includes('<urlset> is never closed'))).toBe(true);
    expect(requested).not.toContain('/never');
    expect(crawl.summary.stoppedBecause).toBe('frontier-empty');
  });

  it('asks robots.txt about listed pages and keeps out-of-scope ones out', () => {
    expect(requested).not.toContain('/private/secret');
    expect(crawl.pages.get(`${ORIGIN}/private/secret`)?.state).toBe('disallowed');
    expect([...crawl.pages.keys()].some((url) => url.startsWith('http://elsewhere.test'))).toBe(false);
    // robots.txt first, once; every sitemap once.
    expect(requested.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(requested.filter((p) => p === '/sitemap-index.xml')).toHaveLength(1);
    expect(requested.indexOf('/robots.txt')).toBeLessThan(requested.indexOf('/sitemap-index.xml'));
  });

  it('spaces sitemap requests by the host delay like page requests (server clock)', async () => {
    const before = site.times.length;
    await crawlDocs(mkdtempSync(join(tmpdir(), 'lse-sitemap-delay-')), {}, 0.1);
    const times = site.times.slice(before);
    const paths = site.log.slice(before);
    // Sitemaps are read beside the pages: robots.txt, the start page, then files and pages in turn.
    expect(paths.slice(0, 4)).toEqual(['/robots.txt', '/', '/sitemap-index.xml', '/sitemaps/guide.xml']);
    // Arrival times wobble with the machine's load (the first also pays the connection's set-up):
    // the typical gap and the whole span show the spacing, which without the gate is ~1 ms.
    const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(95);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(100 * (times.length - 1) - 60);
  });

  it('without sitemaps the same crawl stores the start page only', async () => {
    const plain = await crawlDocs(mkdtempSync(join(tmpdir(), 'lse-sitemap-off-')), undefined);
    expect(plain.summary.byState.fetched).toBe(1);
    expect(plain.summary.sitemaps).toBeUndefined();
  });
});

describe('lastmod in a re-crawl', () => {
  it('visits first the page whose lastmod is newer than its last visit, and counts it as a change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-sitemap-recrawl-'));
    await crawlDocs(dir, {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The site says /api/admin changed after the crawl (its text did not).
    const changedAt = new Date(Date.now() - 5).toISOString();
    site.lastmods['/api/search'] = changedAt;
    const store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settingsFor().crawler);
    const before = site.log.length;
    try {
      const result = await runRecrawl({ store, stack, scope: parseScope('host:docs.test'), concurrency: 2, sitemaps: {} }, { budget: 1 });
      const pagesAsked = site.log.slice(before).filter((p) => !p.includes('sitemap') && p !== '/robots.txt');
      expect(pagesAsked).toEqual(['/api/search']);
      expect(result.sitemapNewer).toBe(1);
      const id = store.idOf(`${ORIGIN}/api/search`)!;
      const page = (await store.getPage(id))!;
      expect(page.sitemapLastmod).toBe(Date.parse(changedAt));
      expect(page.visits).toBe(2);
      expect(page.changes).toBe(1);
      // Without a newer lastmod the plan picks another page with budget 1.
      const again = await runRecrawl({ store, stack, scope: parseScope('host:docs.test'), concurrency: 2, sitemaps: {} }, { budget: 1 });
      expect(again.sitemapNewer).toBe(0);
      expect(site.log.slice(before).filter((p) => !p.includes('sitemap') && p !== '/robots.txt').slice(1)).not.toEqual(['/api/search']);
    } finally {
      await stack.close();
      await store.close();
    }
  });
});
