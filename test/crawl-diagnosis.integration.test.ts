import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { formatCrawlSummary } from '../server/cli/crawl-command.ts';
import { createCrawlStack, userAgentOf } from '../server/cli/crawl-setup.ts';

let live: Server;
let livePort: number;
let deadPort: number;
const userAgents: string[] = [];

beforeAll(async () => {
  live = createServer((request, response) => {
    userAgents.push(String(request.headers['user-agent']));
    const host = String(request.headers.host).split(':')[0];
    const path = request.url ?? '/';
    if (host === 'broken-robots.test' && path === '/robots.txt') return response.writeHead(500).end('oops');
    if (path === '/robots.txt') return response.writeHead(404).end();
    if (host === 'moved.test') return response.writeHead(301, { location: 'https://elsewhere.test/' }).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title><p>fine</p>');
  });
  await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
  livePort = (live.address() as AddressInfo).port;
  // A port nothing listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(() => live?.close());

async function crawl(seeds: string[], crawler: Record<string, unknown>): Promise<CrawlSummary> {
  const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-diagnosis-')));
  const settings = loadSettings({ env: {}, overrides: { crawler: { delaySeconds: 0, ...crawler } } });
  const stack = createCrawlStack(store, settings.crawler);
  try {
    return await stack.crawler.crawl({ seeds, scope: parseScope(seeds.map((s) => `host:${new URL(s).hostname}`)), ordering: 'bfs', maxPages: 20, maxDepth: 2, hostPageBudget: 20, concurrency: 4 });
  } finally {
    await stack.close();
    await store.close();
  }
}

const causesOf = (summary: CrawlSummary) => Object.fromEntries(summary.diagnosis.map((h) => [h.host, h.causes.map((c) => c.cause)]));

describe('a crawl that explains itself', () => {
  it('names the cause per host: DNS failure, refused connection, robots.txt 5xx, off-scope redirect', async () => {
    const summary = await crawl(['http://nosuch-host.invalid/', 'http://refused.test/', 'http://broken-robots.test/', 'http://moved.test/'], {
      resolve: { 'refused.test:80': `127.0.0.1:${deadPort}`, 'broken-robots.test:80': `127.0.0.1:${livePort}`, 'moved.test:80': `127.0.0.1:${livePort}` },
      allowPrivateNetworks: true,
    });
    expect(causesOf(summary)).toEqual({
      'nosuch-host.invalid': ['robots-unreachable'],
      'refused.test': ['robots-unreachable'],
      'broken-robots.test': ['robots-unreachable'],
      'moved.test': ['off-scope-redirect'],
    });
    const detail = (host: string) => summary.diagnosis.find((h) => h.host === host)!.causes[0].detail;
    expect(detail('nosuch-host.invalid')).toMatch(/^robots\.txt: DNS failure/);
    expect(detail('refused.test')).toMatch(/^robots\.txt: connection refused/);
    expect(detail('broken-robots.test')).toBe('robots.txt answered HTTP 500');
    expect(detail('moved.test')).toBe('301 to https://elsewhere.test/');
    const text = formatCrawlSummary(summary);
    expect(text).toContain('why pages were not stored:');
    expect(text).toContain('nosuch-host.invalid: robots.txt unreachable (a network error or an HTTP 5xx), so the whole host counts as disallowed (RFC 9309)');
    expect(text).toMatch(/what to do: check the spelling of the seed/);
    expect(text).toMatch(/moved\.test: redirects to a URL outside the scope.*\n\s+what to do: if the site moved/);
  });

  it('names a private address refused by default, with the flag that allows it', async () => {
    const summary = await crawl(['http://intranet.test/'], { resolve: { 'intranet.test:80': `127.0.0.1:${livePort}` } });
    const cause = summary.diagnosis[0].causes[0];
    expect(summary.diagnosis[0].host).toBe('intranet.test');
    expect(cause).toMatchObject({ cause: 'robots-unreachable', count: 1 });
    expect(cause.detail).toMatch(/^robots\.txt: the host resolves to a private or loopback address/);
    expect(formatCrawlSummary(summary)).toContain('intranet.test');
  });

  it('says nothing when every page is stored, and sends the contact URL in the User-Agent', async () => {
    const before = userAgents.length;
    const summary = await crawl(['http://fine.test/'], { resolve: { 'fine.test:80': `127.0.0.1:${livePort}` }, allowPrivateNetworks: true, contactUrl: 'https://example.org/crawler' });
    expect(summary.diagnosis).toEqual([]);
    expect(formatCrawlSummary(summary)).not.toContain('why pages were not stored');
    expect(new Set(userAgents.slice(before))).toEqual(new Set(['lse-bot/0.1 (+https://example.org/crawler)']));
    expect(userAgentOf({ userAgent: 'acme/2 (site search)', contactUrl: 'mailto:web@acme.test' })).toBe('acme/2 (+mailto:web@acme.test)');
    expect(userAgentOf({ userAgent: 'acme/2', contactUrl: undefined })).toBe('acme/2');
  });
});
