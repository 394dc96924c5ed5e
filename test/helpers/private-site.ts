/**
 * A loopback site with an intranet host (Basic credentials required) and a public host, crawled
 * with or without the credentials, indexed and served with a search token: for the tests of who
 * may search.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../config/load-settings.ts';
import type { Settings } from '../../config/schema.ts';
import { parseScope } from '../../crawler/scope.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../../server/cli/crawl-setup.ts';
import { buildIndex, serveStore, type Serving } from '../../server/cli/serve-command.ts';

export const PASSWORD = 'intranet-pa55word';
export const SEARCH_TOKEN = 'search-token-for-staff-0123456789';
export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

/** Starts the site; resolves to its port and a function that stops it. */
export async function startPrivateSite(): Promise<{ port: number; close(): void }> {
  const expected = `Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`;
  const site: Server = createServer((request, response) => {
    const host = String(request.headers.host).split(':')[0];
    const path = request.url ?? '/';
    if (path === '/robots.txt') return response.writeHead(404).end();
    if (host === 'intranet.test') {
      if (request.headers.authorization !== expected) return response.writeHead(401, { 'www-authenticate': 'Basic realm="intranet"' }).end();
      if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Staff handbook</title><p>The staff handbook lists the holiday allowance of every department.</p><a href="/pay">pay</a>');
      if (path === '/pay') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Pay scales</title><p>Pay scales of the staff handbook, by grade.</p>');
    }
    if (host === 'public.test' && path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Open day</title><p>The handbook for visitors of the open day.</p>');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { port: (site.address() as AddressInfo).port, close: () => site.close() };
}

export interface Served {
  serving: Serving;
  settings: Settings;
  /** The server's log lines (info level). */
  logs: string[];
  close(): Promise<void>;
}

/** Crawls one host of the site (with Basic credentials or without), indexes it and serves it on loopback. */
export async function crawlAndServe(port: number, host: string, credentials: boolean): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-search-access-'));
  const settings = loadSettings({
    env: {
      LSE_SEARCH_TOKEN: SEARCH_TOKEN,
      ...(credentials ? { LSE_CRAWLER_CREDENTIALS: JSON.stringify([{ hosts: ['intranet.test'], basic: { username: 'crawler', password: PASSWORD } }]) } : {}),
    },
    overrides: { dataDir, crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, seeds: [`http://${host}/`], scope: [`host:${host}`] } },
  });
  const store = await CrawlStore.open(dataDir);
  await rememberCrawlerSettings(store, settings.crawler);
  const stack = createCrawlStack(store, settings.crawler);
  await stack.crawler.crawl({ seeds: [`http://${host}/`], scope: parseScope([`host:${host}`]), ordering: 'bfs', maxPages: 10, maxDepth: 2, hostPageBudget: 10, concurrency: 1 });
  const { index } = await buildIndex(store, settings);
  const logs: string[] = [];
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: ADMIN_TOKEN, index, stack, log: { level: 'info', stream: { write: (line) => void logs.push(line) } } });
  return {
    serving,
    settings,
    logs,
    close: async () => {
      await serving.close();
      await stack.close();
      await store.close();
    },
  };
}
