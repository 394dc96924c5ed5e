/**
 * The crawl loop looks past a run of one host's URLs in the ordering to keep other hosts busy
 * (one request per host at a time), and stops at the page limit without waiting for a host that
 * must wait. A server started here answers for every host by its Host header and logs requests.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const OTHER_HOSTS = 8;
const RUN = 100; // a.test links between two links to other hosts

let server: Server;
let port: number;
const requests: Array<{ host: string; path: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const path = request.url ?? '/';
    requests.push({ host, path });
    if (path === '/robots.txt') {
      response.writeHead(404).end();
      return;
    }
    let body = '<!doctype html><title>page</title><p>words on a page</p>';
    if (host === 'a.test' && path === '/') {
      // Runs of the site's own pages, each followed by one link to another host.
      for (let k = 0; k < OTHER_HOSTS; k++) {
        for (let j = 0; j < RUN; j++) body += `<a href="/p${k * RUN + j}">page ${k * RUN + j}</a>`;
        body += `<a href="http://h${k}.test/">host ${k}</a>`;
      }
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

async function crawl(maxPages: number, delaySeconds: number) {
  const settings = loadSettings({
    env: {},
    overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds, concurrency: 16 } },
  });
  const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-lookahead-')));
  const stack = createCrawlStack(store, settings.crawler);
  const before = requests.length;
  const summary = await stack.crawler.crawl({
    seeds: ['http://a.test/'],
    scope: parseScope('regex:^http://'),
    ordering: 'bfs',
    maxPages,
    maxDepth: 5,
    hostPageBudget: 5000,
    concurrency: 16,
  });
  await stack.close();
  await store.close();
  return { summary, log: requests.slice(before).filter((r) => r.path !== '/robots.txt') };
}

describe('keeping hosts busy', () => {
  it('reaches hosts that come after long runs of one host in breadth-first order', async () => {
    // a.test is served one request at a time, 20 ms apart; the other hosts appear only after
    // 100, 200, … of its URLs. Looking ahead finds them all while a.test is still at its start.
    const { summary, log } = await crawl(40, 0.02);
    expect(summary.stoppedBecause).toBe('max-pages');
    expect(summary.stored).toBe(40);
    const others = new Set(log.filter((r) => r.host !== 'a.test').map((r) => r.host));
    expect([...others].sort()).toEqual(Array.from({ length: OTHER_HOSTS }, (_, k) => `h${k}.test`));
  });

  it('stops at the page limit exactly: no page fetched past it', async () => {
    const { summary, log } = await crawl(12, 0);
    expect(summary.stored).toBe(12);
    expect(summary.fetchedThisRun).toBe(12);
    expect(log.length).toBe(12);
  });
});
