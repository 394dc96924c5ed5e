import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { binaryBodyReason } from '../crawler/binary-sniff.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { DEFAULT_MAX_LINKS, parseHtml } from '../crawler/html.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const LINKS = 20_000;
const manyLinks = `<!doctype html><title>Index of everything</title><p>${Array.from({ length: LINKS }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' ')}</p>`;

describe('hostile pages', () => {
  let server: Server;
  let store: CrawlStore;
  let summary: CrawlSummary;
  const notes: string[] = [];
  const pages = new Map<string, PageRecord>();

  beforeAll(async () => {
    const garbage = randomBytes(64 * 1024);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<!doctype html><title>Wide page</title><p>quince marmalade in UTF-16</p>', 'utf16le')]);
    server = createServer((request, response) => {
      const html = (body: string | Buffer) => response.writeHead(200, { 'content-type': 'text/html' }).end(body);
      switch (request.url) {
        case '/':
          return html('<title>Home</title><a href="/many">many</a> <a href="/garbage">garbage</a> <a href="/wide">wide</a>');
        case '/many':
          return html(manyLinks);
        case '/garbage':
          return html(garbage);
        case '/wide':
          return html(utf16);
        default:
          return html('<title>A page</title><p>one of many</p>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'lse-hostile-'));
    // The default cap; a body cap large enough for the page of 20,000 links.
    const settings = loadSettings({ env: {}, overrides: { dataDir: dir, crawler: { resolve: { 'hostile.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, maxBodyBytes: 8 * 1024 * 1024 } } });
    expect(settings.crawler.maxLinksPerPage).toBe(DEFAULT_MAX_LINKS);
    store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    try {
      summary = await stack.crawler.crawl({ seeds: ['http://hostile.test/'], scope: parseScope('host:hostile.test'), ordering: 'bfs', maxPages: 6, maxDepth: 3, hostPageBudget: 10, concurrency: 2, log: (message) => notes.push(message) });
    } finally {
      await stack.close();
    }
    for await (const [, page] of store.pages()) pages.set(page.url, page);
  });

  afterAll(async () => {
    server?.close();
    await store?.close();
  });

  it('keeps the first 5,000 links of a page of 20,000, and says so in the log', async () => {
    const id = store.idOf('http://hostile.test/many')!;
    expect(pages.get('http://hostile.test/many')?.state).toBe('fetched');
    const links = await store.getLinks(id);
    expect(links.length).toBe(DEFAULT_MAX_LINKS);
    expect(links.map((link) => store.urlOf(link.to))).toContain('http://hostile.test/p/4999');
    expect(store.idOf('http://hostile.test/p/5000')).toBeUndefined();
    expect(notes).toContain(`http://hostile.test/many: kept the first ${DEFAULT_MAX_LINKS} links, dropped ${LINKS - DEFAULT_MAX_LINKS} more (crawler.maxLinksPerPage)`);
  });

  it('refuses random bytes served as text/html with the reason, and reads a UTF-16 page', () => {
    const garbage = pages.get('http://hostile.test/garbage')!;
    expect(garbage.state).toBe('error');
    expect(garbage.error).toMatch(/^binary: served as text\/html but binary: \d+ NUL and \d+ control bytes in the first 1024$/);
    expect(garbage.title ?? '').toBe('');
    const causes = summary.diagnosis.find((host) => host.host === 'hostile.test')?.causes ?? [];
    expect(causes.find((cause) => cause.cause === 'binary')).toMatchObject({ count: 1, example: 'http://hostile.test/garbage' });
    expect(pages.get('http://hostile.test/wide')).toMatchObject({ state: 'fetched', title: 'Wide page' });
  });

  it('caps links in the parser itself, and tells text from binary by its first KB', () => {
    const page = parseHtml(manyLinks, 'http://x.test/', { maxLinks: 10 });
    expect(page.links.map((link) => link.href)).toEqual(Array.from({ length: 10 }, (_, i) => `/p/${i}`));
    expect(page.linksDropped).toBe(LINKS - 10);
    expect(parseHtml('<a href="/a">a</a>', 'http://x.test/').linksDropped).toBeUndefined();
    // Ordinary pages, including one stray NUL and form feeds, are text.
    expect(binaryBodyReason(Buffer.from(manyLinks), 'text/html')).toBeUndefined();
    expect(binaryBodyReason(Buffer.from('<p>a\u0000b\f\fc</p>'), 'text/html')).toBeUndefined();
    // Any random KB is binary, whatever its NUL count.
    for (let i = 0; i < 50; i++) expect(binaryBodyReason(randomBytes(1024), 'text/html; charset=utf-8')).toMatch(/^served as text\/html but binary/);
    const noNuls = Buffer.from(randomBytes(2048).filter((byte) => byte !== 0)).subarray(0, 1024);
    expect(binaryBodyReason(noNuls, 'text/html')).toMatch(/ 0 NUL /);
    expect(binaryBodyReason(Buffer.from('<p>wide</p>', 'utf16le'), 'text/html; charset=UTF-16LE')).toBeUndefined();
  });
});
