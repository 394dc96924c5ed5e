import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadWebGraph } from '../indexer/graph-files.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { main } from '../server/cli/main.ts';
import { crawlableGraph, serveGraphWeb, type CrawlableGraph, type GraphWebServer } from './helpers/graph-web.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

/**
 * The shared Hollins graph served over HTTP (two hosts, www and www1.hollins.edu, whose robots.txt
 * and /sitemap.xml answer 404), crawled by `lse crawl --scope host:hollins.edu` with sitemaps (the
 * default) and without: sitemaps that list nothing change nothing. Sitemaps once cost this crawl
 * 43 pages, with 28 left in a frontier the summary called empty.
 */
async function crawl(port: number, sitemaps: boolean): Promise<{ summary: string; stored: Map<string, string> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `lse-hollins-sitemaps-${sitemaps ? 'on' : 'off'}-`));
  const args = ['crawl', '--data', dataDir, '--seed', 'http://www.hollins.edu/', '--scope', 'host:hollins.edu', '--resolve', `*:80:127.0.0.1:${port}`, '--allow-private-networks', '--delay', '0', '--max-pages', '20000'];
  const out: string[] = [];
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    expect(await main(sitemaps ? args : [...args, '--no-sitemaps'])).toBe(0);
  } finally {
    err.mockRestore();
    stdout.mockRestore();
  }
  const store = await CrawlStore.open(dataDir);
  const stored = new Map<string, string>();
  try {
    for await (const [, page] of store.pages()) stored.set(page.url, page.state);
  } finally {
    await store.close();
  }
  return { summary: out.join(''), stored };
}

if (!hasSharedData) console.warn(`sitemaps on hollins: ${sharedDataSkipReason}`);

describe.skipIf(!hasSharedData)('a crawl of hollins stores the same pages with sitemaps as without', () => {
  let view: CrawlableGraph;
  let server: GraphWebServer;
  let on: Awaited<ReturnType<typeof crawl>>;
  let off: Awaited<ReturnType<typeof crawl>>;

  beforeAll(async () => {
    view = crawlableGraph(loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') }));
    server = await serveGraphWeb(view);
    off = await crawl(server.port, false);
    on = await crawl(server.port, true);
  }, 600_000);
  afterAll(async () => server?.close());

  it('without sitemaps reaches the pages of both hosts and empties its frontier', () => {
    expect(off.summary).toMatch(/crawl stopped: frontier-empty/);
    expect(off.summary).toMatch(/frontier left: 0;/);
    expect([...off.stored.values()].filter((state) => state === 'fetched').length).toBeGreaterThan(5000);
  });

  it('with sitemaps stores the same pages in the same states, and says its frontier is empty', () => {
    expect(on.summary).toMatch(/crawl stopped: frontier-empty/);
    expect(on.summary).toMatch(/frontier left: 0;/);
    expect(on.stored.size).toBe(off.stored.size);
    const differing = [...off.stored].filter(([url, state]) => on.stored.get(url) !== state);
    expect(differing).toEqual([]);
  });
});
