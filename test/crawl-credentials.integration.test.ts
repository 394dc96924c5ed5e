import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CredentialSettingsError, HostCredentials } from '../crawler/host-credentials.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { formatCrawlSummary } from '../server/cli/crawl-command.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';

const PASSWORD = 's3cret-pa55word';
const SESSION = 'session-cookie-value-42';
const TOKEN = 'intranet-api-token-7';
const seen: Array<{ host: string; path: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let port: number;

beforeAll(async () => {
  const expected = `Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`;
  server = createServer((request, response) => {
    const host = String(request.headers.host).split(':')[0];
    const path = request.url ?? '/';
    seen.push({ host, path, headers: request.headers });
    if (path === '/robots.txt') return response.writeHead(404).end();
    if (host === 'intranet.test') {
      if (request.headers.authorization !== expected) return response.writeHead(401, { 'www-authenticate': 'Basic realm="intranet"' }).end();
      if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Intranet</title><p>staff handbook</p><a href="/moved">moved</a>');
      if (path === '/moved') return response.writeHead(302, { location: 'http://public.test/landing' }).end();
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Public</title><p>public landing</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server?.close());

describe('credentials for intranets', () => {
  it('go to their host and not to the host a redirect leads to; never stored or printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-credentials-'));
    const settings = loadSettings({
      env: { LSE_CRAWLER_CREDENTIALS: JSON.stringify([{ hosts: ['intranet.test'], basic: { username: 'crawler', password: PASSWORD }, cookies: { session: SESSION }, headers: { 'X-Api-Token': TOKEN } }]) },
      overrides: { crawler: { resolve: { '*:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, seeds: ['http://intranet.test/'] } },
    });
    const store = await CrawlStore.open(dir);
    await rememberCrawlerSettings(store, settings.crawler);
    const stack = createCrawlStack(store, settings.crawler);
    const notes: string[] = [];
    const before = seen.length;
    let summary;
    try {
      summary = await stack.crawler.crawl({ seeds: ['http://intranet.test/'], scope: parseScope(['host:intranet.test', 'host:public.test']), ordering: 'bfs', maxPages: 10, maxDepth: 3, hostPageBudget: 10, concurrency: 2, log: (m) => notes.push(m) });
    } finally {
      await stack.close();
    }
    const requests = seen.slice(before);
    const intranet = requests.filter((r) => r.host === 'intranet.test');
    const other = requests.filter((r) => r.host !== 'intranet.test');
    expect(intranet.map((r) => r.path).sort()).toEqual(['/', '/moved', '/robots.txt']);
    for (const r of intranet) {
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`);
      expect(r.headers.cookie).toBe(`session=${SESSION}`);
      expect(r.headers['x-api-token']).toBe(TOKEN);
    }
    // The redirect from /moved was followed to public.test without any of them.
    expect(other.map((r) => `${r.host}${r.path}`)).toContain('public.test/landing');
    for (const r of other) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
      expect(r.headers['x-api-token']).toBeUndefined();
    }
    // Nothing of them in the data directory, the summary or the log.
    const everything: string[] = [formatCrawlSummary(summary), ...notes, JSON.stringify(await store.getMeta('crawl-settings'))];
    for await (const [, page] of store.pages()) everything.push(JSON.stringify(page));
    for (const secret of [PASSWORD, SESSION, TOKEN, Buffer.from(`crawler:${PASSWORD}`).toString('base64')]) {
      expect(everything.join('\n')).not.toContain(secret);
    }
    expect(summary.byState.fetched).toBe(2);
    // What came back with credentials is marked private; the page behind the redirect is not.
    const fetched = new Map<string, boolean>();
    for await (const [, page] of store.pages()) if (page.state === 'fetched') fetched.set(page.url, page.private === true);
    expect(Object.fromEntries(fetched)).toEqual({ 'http://intranet.test/': true, 'http://public.test/landing': false });
    await store.close();
  });

  it('refuses headers it must not set and bad host patterns', () => {
    expect(() => new HostCredentials([{ hosts: ['a.test'], headers: { Host: 'x' } }])).toThrow(CredentialSettingsError);
    expect(() => new HostCredentials([{ hosts: ['a.test'], headers: { 'X-A': 'one\r\ntwo' } }])).toThrow(/line break/);
    expect(() => new HostCredentials([{ hosts: ['http://a.test/'] }])).toThrow(/not a host name/);
    const credentials = new HostCredentials([{ hosts: ['*.corp.test'], headers: { 'X-A': '1' } }]);
    expect(credentials.headersFor('http://wiki.corp.test/x')).toEqual({ 'x-a': '1' });
    expect(credentials.headersFor('http://corp.test/')).toBeUndefined();
    expect(credentials.headersFor('http://evilcorp.test/')).toBeUndefined();
  });
});
