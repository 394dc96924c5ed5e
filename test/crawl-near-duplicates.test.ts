import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const ITER = '/usr/share/doc/rust-doc/html/std/iter';
const read = (path: string) => (existsSync(`${ITER}/../${path}`) ? readFileSync(`${ITER}/../${path}`, 'utf8') : '');

// rustdoc's iterator adapters share ~90 % of their word shingles (each lists the provided methods
// of `Iterator`), yet each defines its own item: they are pages, not copies of one another.
describe.skipIf(!existsSync(`${ITER}/struct.Skip.html`))('near duplicates of real rustdoc pages', () => {
  let server: Server;
  let dir: string;
  const pages = new Map<string, PageRecord>();
  const skip = existsSync(`${ITER}/struct.Skip.html`) ? readFileSync(`${ITER}/struct.Skip.html`, 'utf8') : '';
  const files: Record<string, string> = {
    '/std/iter/index.html': '<html><body><main><h1>iter</h1><a href="struct.Skip.html">Skip</a> <a href="struct.Filter.html">Filter</a> <a href="struct.Inspect.html">Inspect</a> <a href="skip-mirror.html">mirror</a> <a href="hash-set-union.html">hash_set::Union</a> <a href="btree-set-union.html">btree_set::Union</a></main></body></html>',
    '/std/iter/struct.Skip.html': skip,
    '/std/iter/struct.Filter.html': existsSync(`${ITER}/struct.Filter.html`) ? readFileSync(`${ITER}/struct.Filter.html`, 'utf8') : '',
    '/std/iter/struct.Inspect.html': existsSync(`${ITER}/struct.Inspect.html`) ? readFileSync(`${ITER}/struct.Inspect.html`, 'utf8') : '',
    // Two items of one name in two modules: their sidebars both open with `Union`, their bodies with their paths.
    '/std/iter/hash-set-union.html': read('collections/hash_set/struct.Union.html'),
    '/std/iter/btree-set-union.html': read('collections/btree_set/struct.Union.html'),
    // A copy of a page elsewhere, with one line more, is still its near duplicate.
    '/std/iter/skip-mirror.html': skip.replace('<section id="main-content" class="content">', '<section id="main-content" class="content"><p>Mirrored from the official documentation.</p>'),
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = files[(request.url ?? '/').split('?')[0]];
      if (body === undefined) response.writeHead(404).end('not found');
      else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'lse-near-duplicates-'));
    const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
    const store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    await stack.crawler.crawl({ seeds: ['http://rust.test/std/iter/index.html'], scope: parseScope('prefix:http://rust.test/std/iter/'), ordering: 'bfs', maxPages: 20, maxDepth: 2, hostPageBudget: 20, concurrency: 1 });
    for await (const [, page] of store.pages()) pages.set(new URL(page.url).pathname, page);
    await stack.close();
    await store.close();
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps pages that open with another item apart, and still finds a copy', () => {
    expect(pages.get('/std/iter/struct.Skip.html')?.duplicateOf).toBeUndefined();
    expect(pages.get('/std/iter/struct.Filter.html')?.duplicateOf).toBeUndefined();
    expect(pages.get('/std/iter/struct.Inspect.html')?.duplicateOf).toBeUndefined();
    expect(pages.get('/std/iter/struct.Filter.html')?.text).toContain('Filter');
    expect(pages.get('/std/iter/hash-set-union.html')?.duplicateOf).toBeUndefined();
    expect(pages.get('/std/iter/btree-set-union.html')?.duplicateOf).toBeUndefined();
    const mirror = pages.get('/std/iter/skip-mirror.html');
    expect(mirror?.state).toBe('fetched');
    expect(mirror?.duplicateOf).toBeDefined();
  });
});
