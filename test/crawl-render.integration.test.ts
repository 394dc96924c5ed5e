import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { startVirtualHosts, type VirtualHosts } from './helpers/virtual-hosts.ts';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) console.warn('rendering test skipped: /usr/bin/chromium is missing (.ci/run installs it)');

let hosts: VirtualHosts;
let port: number;
let requests: string[];

beforeAll(async () => {
  hosts = await startVirtualHosts((host, path, response) => {
    if (path === '/robots.txt') return response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (host !== 'app.test') return response.writeHead(200, { 'content-type': 'application/javascript' }).end('window.tracked = true;');
    if (path === '/') {
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>App</title><div id="app"></div><script src="/app.js"></script><script src="http://cdn.test/track.js"></script><script src="/private/secret.js"></script>');
    }
    if (path === '/app.js') {
      return response
        .writeHead(200, { 'content-type': 'application/javascript' })
        .end("fetch('/content.json').then((r) => r.json()).then((d) => { document.getElementById('app').innerHTML = '<h1>' + d.title + '</h1><p>' + d.body + '</p><a href=\"/second\">more</a>'; });");
    }
    if (path === '/content.json') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ title: 'Built by scripts', body: 'The persimmon catalogue appears only when the script runs.' }));
    if (path === '/second') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Second</title><p>A plain page with enough static text to need no rendering at all, written out in full sentences so that it passes the threshold of characters that marks a page as having content of its own.</p>');
    response.writeHead(404).end();
  });
  ({ port, requests } = hosts);
});
afterAll(() => hosts?.close());

async function crawl(render: boolean): Promise<Map<string, PageRecord>> {
  const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-render-')));
  const settings = loadSettings({
    env: {},
    overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, render: { enabled: render, executablePath: CHROMIUM } } },
  });
  const stack = createCrawlStack(store, settings.crawler);
  try {
    await stack.crawler.crawl({ seeds: ['http://app.test/'], scope: parseScope('host:app.test'), ordering: 'bfs', maxPages: 10, maxDepth: 3, hostPageBudget: 10, concurrency: 2 });
  } finally {
    await stack.close();
  }
  const pages = new Map<string, PageRecord>();
  for await (const [, page] of store.pages()) pages.set(page.url, page);
  await store.close();
  return pages;
}

describe.skipIf(!existsSync(CHROMIUM))('rendering pages built by scripts', () => {
  it('indexes the script-built content only with rendering on, its requests kept to the crawl', async () => {
    const plain = await crawl(false);
    expect(plain.get('http://app.test/')!.text ?? '').not.toContain('persimmon');
    expect(plain.has('http://app.test/second')).toBe(false);

    const before = requests.length;
    const rendered = await crawl(true);
    const page = rendered.get('http://app.test/')!;
    expect(page.text).toContain('The persimmon catalogue appears only when the script runs.');
    expect(page.headings).toEqual(['Built by scripts']);
    // Links the script made join the graph and are crawled.
    expect(rendered.get('http://app.test/second')?.state).toBe('fetched');
    const asked = requests.slice(before);
    expect(asked).toContain('app.test/app.js');
    expect(asked).toContain('app.test/content.json');
    // Out of scope and disallowed by robots.txt: never requested.
    expect(asked.some((r) => r.startsWith('cdn.test'))).toBe(false);
    expect(asked).not.toContain('app.test/private/secret.js');
    // The page itself was fetched once (the browser got the crawl's copy).
    expect(asked.filter((r) => r === 'app.test/')).toHaveLength(1);
  });
});
