import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { startVirtualHosts, type VirtualHosts } from './helpers/virtual-hosts.ts';

/**
 * A university of 36 in-scope hosts (h0.uni.test … h35.uni.test), each met first through a
 * link from another. Each host has four linked pages and one page only its sitemap may list.
 * What its sitemap does depends on the host: most answer 404, others are slow, malformed,
 * redirected (on the host, or to another host), gzipped, or behind an unreachable robots.txt.
 */
const HOSTS = 36;
type SitemapKind = '404' | 'slow' | 'broken' | 'redirect' | 'redirect-away' | 'robots-down' | 'gzip';
const KINDS: SitemapKind[] = ['404', '404', '404', '404', 'slow', 'broken', 'redirect', 'robots-down', 'gzip', '404', '404', 'redirect-away'];
const kindOf = (i: number) => KINDS[i % KINDS.length];
const hostName = (i: number) => `h${i % HOSTS}.uni.test`;
/** Hosts whose sitemap lists `/listed` in a way the crawl must honour. */
const LISTING: ReadonlySet<SitemapKind> = new Set(['slow', 'redirect', 'gzip']);

const urlset = (host: string, paths: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://${host}${p}</loc></url>`).join('')}</urlset>`;

let hosts: VirtualHosts;
let port: number;

beforeAll(async () => {
  hosts = await startVirtualHosts((host, path, response) => {
    const match = /^h(\d+)\.uni\.test$/.exec(host);
    if (!match) return response.writeHead(404).end();
    const i = Number(match[1]);
    const kind = kindOf(i);
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body><p>${host}${path}</p>${body}</body></html>`);
    const link = (url: string) => `<a href="${url}">${url}</a>`;
    switch (path) {
      case '/robots.txt':
        if (kind === 'robots-down') return response.writeHead(503).end();
        if (kind === 'slow') return response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\nSitemap: /slow-map.xml\n'.replace('/slow-map.xml', `http://${host}/slow-map.xml`));
        return response.writeHead(404).end();
      case '/sitemap.xml':
        if (kind === 'broken') return response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>http://${host}/listed</loc></url>`);
        if (kind === 'redirect') return response.writeHead(301, { location: '/maps/real.xml' }).end();
        if (kind === 'redirect-away') return response.writeHead(302, { location: `http://${hostName(i + 1)}/maps/real.xml` }).end();
        if (kind === 'gzip') return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(gzipSync(urlset(host, ['/listed', '/a'])));
        return response.writeHead(404).end();
      case '/slow-map.xml':
        return void setTimeout(() => response.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(host, ['/listed'])), 300);
      case '/maps/real.xml':
        return response.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(host, ['/listed']));
      case '/':
        return html(link('/a') + link('/b'));
      case '/a':
        return html(link('/c') + link(`http://${hostName(i + 1)}/`) + link(`http://${hostName(i + 2)}/`));
      case '/b':
        return html(link(`http://${hostName(i * 7 + 3)}/b`) + link('/'));
      case '/c':
        return html(link('/'));
      case '/listed':
        return html('<p>listed in the sitemap only</p>');
    }
    response.writeHead(404).end();
  });
  port = hosts.port;
});
afterAll(() => hosts?.close());

async function crawl(sitemaps: boolean): Promise<{ summary: CrawlSummary; stored: Map<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), `lse-many-hosts-${sitemaps ? 'on' : 'off'}-`));
  const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  try {
    const summary = await stack.crawler.crawl({
      seeds: ['http://h0.uni.test/'],
      scope: parseScope('host:uni.test'),
      ordering: 'bfs',
      maxPages: 10_000,
      maxDepth: 200,
      hostPageBudget: 100,
      concurrency: 4,
      sitemaps: sitemaps ? {} : undefined,
    });
    const stored = new Map<string, string>();
    for await (const [, page] of store.pages()) stored.set(page.url, page.state);
    return { summary, stored };
  } finally {
    await stack.close();
    await store.close();
  }
}

describe('a crawl over dozens of in-scope hosts whose sitemaps misbehave', () => {
  let off: Awaited<ReturnType<typeof crawl>>;
  let on: Awaited<ReturnType<typeof crawl>>;

  beforeAll(async () => {
    off = await crawl(false);
    on = await crawl(true);
  }, 120_000);

  it('without sitemaps reaches every host', () => {
    const fetched = [...off.stored].filter(([, state]) => state === 'fetched').map(([url]) => url);
    expect(new Set(fetched.map((url) => new URL(url).hostname)).size).toBe(HOSTS - HOSTS / KINDS.length);
    expect(off.summary).toMatchObject({ stoppedBecause: 'frontier-empty', frontier: 0 });
  });

  it('with sitemaps stores what the crawl without them stores, plus the pages the sitemaps list', () => {
    const expected = new Map(off.stored);
    for (let i = 0; i < HOSTS; i++) if (LISTING.has(kindOf(i))) expected.set(`http://${hostName(i)}/listed`, 'fetched');
    expect(Object.fromEntries([...on.stored].sort())).toEqual(Object.fromEntries([...expected].sort()));
  });

  it('stops with an empty frontier, and says so', () => {
    expect(on.summary).toMatchObject({ stoppedBecause: 'frontier-empty', frontier: 0 });
    expect(on.summary.sitemaps).toMatchObject({ inScope: 3 * (HOSTS / KINDS.length) + HOSTS / KINDS.length });
  });
});
