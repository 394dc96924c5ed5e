import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { startVirtualHosts, type VirtualHosts } from './helpers/virtual-hosts.ts';

/**
 * docs.test is linked from the seed's host only through its start page, which links nowhere;
 * its robots.txt names a sitemap listing a page no link reaches, with a lastmod. other.test is
 * out of scope: its sitemap must not be read.
 */
let hosts: VirtualHosts;
let port: number;
let requests: string[];

beforeAll(async () => {
  hosts = await startVirtualHosts((host, path, response) => {
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${body}</body></html>`);
    if (host === 'www.test') {
      if (path === '/robots.txt') return response.writeHead(404).end();
      if (path === '/sitemap.xml') return response.writeHead(404).end();
      if (path === '/') return html('<title>Home</title><p>welcome</p><a href="http://docs.test/">docs</a> <a href="http://other.test/">other</a>');
    }
    if (host === 'docs.test') {
      if (path === '/robots.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: http://docs.test/maps/docs.xml\n`);
      if (path === '/maps/docs.xml') {
        return response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://docs.test/manual/install</loc><lastmod>2026-03-01</lastmod></url><url><loc>http://other.test/listed</loc></url></urlset>`);
      }
      if (path === '/') return html('<title>Docs</title><p>documentation start page</p>');
      if (path === '/manual/install') return html('<title>Install</title><p>installing the product</p>');
    }
    if (host === 'other.test') return html('<title>Other</title><p>another site</p>');
    response.writeHead(404).end();
  });
  ({ port, requests } = hosts);
});
afterAll(() => hosts?.close());

describe('sitemaps of hosts found during a crawl', () => {
  it('reads the sitemap of an in-scope host when it is first linked, not of hosts out of scope', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-sitemaps-new-hosts-'));
    const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
    const store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    try {
      const summary = await stack.crawler.crawl({
        seeds: ['http://www.test/'],
        scope: parseScope(['host:www.test', 'host:docs.test']),
        ordering: 'bfs',
        maxPages: 20,
        maxDepth: 3,
        hostPageBudget: 20,
        concurrency: 2,
        sitemaps: {},
      });
      const fetched = new Map<string, number | undefined>();
      for await (const [, page] of store.pages()) if (page.state === 'fetched') fetched.set(page.url, page.sitemapLastmod);
      expect([...fetched.keys()].sort()).toEqual(['http://docs.test/', 'http://docs.test/manual/install', 'http://www.test/']);
      expect(fetched.get('http://docs.test/manual/install')).toBe(Date.UTC(2026, 2, 1));
      // One step further than the host's linked page (depth 1), as seeds' sitemap pages are from the seeds.
      const install = await store.getPage(store.idOf('http://docs.test/manual/install')!);
      expect(install?.depth).toBe(2);
      expect(summary.sitemaps).toMatchObject({ files: 1, listed: 2, inScope: 1 });
      expect(requests.filter((r) => r.startsWith('other.test'))).toEqual([]);
      expect(requests.filter((r) => r === 'docs.test/maps/docs.xml')).toHaveLength(1);
    } finally {
      await stack.close();
      await store.close();
    }
  });
});
