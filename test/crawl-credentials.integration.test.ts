import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { Fetcher } from '../crawler/fetcher.ts';
import { CredentialSettingsError, HostCredentials } from '../crawler/host-credentials.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { formatCrawlSummary } from '../server/cli/crawl-command.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';

const PASSWORD = 's3cret-pa55word';
const SESSION = 'session-cookie-value-42';
const TOKEN = 'intranet-api-token-7';
const seen: Array<{ host: string; port: number; path: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let port: number;
/** A second server: the same host names on another port. */
let otherServer: Server;
let otherPort: number;

beforeAll(async () => {
  const expected = `Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`;
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const host = String(request.headers.host).split(':')[0];
    const path = request.url ?? '/';
    seen.push({ host, port: (request.socket.address() as AddressInfo).port, path, headers: request.headers });
    if (path === '/robots.txt') return response.writeHead(404).end();
    if (host === 'intranet.test') {
      if (request.headers.authorization !== expected) return response.writeHead(401, { 'www-authenticate': 'Basic realm="intranet"' }).end();
      if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Intranet</title><p>staff handbook</p><a href="/moved">moved</a>');
      if (path === '/moved') return response.writeHead(302, { location: 'http://public.test/landing' }).end();
    }
    if (host === 'a.test') {
      if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<title>A</title><p>origin a</p><a href="http://a.test:8080/side">side door</a><a href="/hop">hop</a>');
      if (path === '/hop') return response.writeHead(302, { location: 'http://a.test:8080/landing' }).end();
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Public</title><p>public landing</p>');
  };
  server = createServer(handler);
  otherServer = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => otherServer.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  otherPort = (otherServer.address() as AddressInfo).port;
});
afterAll(() => {
  server?.close();
  otherServer?.close();
});

/** Crawls http://a.test/ (port 80 → the first server, 8080 → the second) with these credentials; the requests each server saw. */
async function crawlA(credentials: unknown): Promise<{ first: typeof seen; second: typeof seen }> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-credentials-'));
  const settings = loadSettings({
    env: { LSE_CRAWLER_CREDENTIALS: JSON.stringify(credentials) },
    overrides: { crawler: { resolve: { 'a.test:80': `127.0.0.1:${port}`, 'a.test:8080': `127.0.0.1:${otherPort}` }, allowPrivateNetworks: true, delaySeconds: 0 } },
  });
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  const before = seen.length;
  try {
    await stack.crawler.crawl({ seeds: ['http://a.test/'], scope: parseScope(['host:a.test']), ordering: 'bfs', maxPages: 10, maxDepth: 3, hostPageBudget: 10, concurrency: 2 });
  } finally {
    await stack.close();
    await store.close();
  }
  const requests = seen.slice(before);
  return { first: requests.filter((r) => r.port === port), second: requests.filter((r) => r.port === otherPort) };
}


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

  it('go to their origin only: not to another port of the same host, by a link or a redirect', async () => {
    const basic = { username: 'crawler', password: PASSWORD };
    const expected = `Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`;
    for (const credentials of [
      [{ origins: ['http://a.test'], basic, cookies: { session: SESSION }, headers: { 'X-Api-Token': TOKEN } }],
      // The older form: a bare host stands for its default ports only.
      [{ hosts: ['a.test'], basic, cookies: { session: SESSION }, headers: { 'X-Api-Token': TOKEN } }],
    ]) {
      const { first, second } = await crawlA(credentials);
      expect(first.map((r) => r.path).sort()).toEqual(['/', '/hop', '/robots.txt']);
      for (const r of first) expect([r.headers.authorization, r.headers.cookie, r.headers['x-api-token']]).toEqual([expected, `session=${SESSION}`, TOKEN]);
      expect(second.map((r) => r.path).sort()).toEqual(['/landing', '/robots.txt', '/side']);
      for (const r of second) expect([r.headers.authorization, r.headers.cookie, r.headers['x-api-token']]).toEqual([undefined, undefined, undefined]);
    }
    // Given for the other port, they go there and not to port 80.
    const { first, second } = await crawlA([{ origins: ['http://a.test:8080/'], headers: { 'X-Api-Token': TOKEN } }]);
    expect(first.every((r) => r.headers['x-api-token'] === undefined)).toBe(true);
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((r) => r.headers['x-api-token'] === TOKEN)).toBe(true);
  });

  it('never go over http after a redirect from https (a TLS server with a certificate made for the test)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=a.test', '-addext', 'subjectAltName=DNS:a.test'], { stdio: 'ignore' });
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const secure: IncomingHttpHeaders[] = [];
    const tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (request, response) => {
      secure.push(request.headers);
      response.writeHead(302, { location: 'http://a.test/landing' }).end();
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    // The older host form covers both schemes on their default ports: only the downgrade rule stops them.
    const fetcher = new Fetcher({
      userAgent: 'lse-test',
      allowPrivateNetworks: true,
      resolve: { 'a.test:443': `127.0.0.1:${(tls.address() as AddressInfo).port}`, 'a.test:80': `127.0.0.1:${port}` },
      ca: cert,
      credentials: new HostCredentials([{ hosts: ['a.test'], headers: { 'X-Api-Token': TOKEN } }]),
    });
    try {
      const before = seen.length;
      const result = await fetcher.fetch('https://a.test/secret');
      expect(result).toMatchObject({ ok: true, finalUrl: 'http://a.test/landing', status: 200 });
      expect(secure.map((headers) => headers['x-api-token'])).toEqual([TOKEN]);
      const plain = seen.slice(before);
      expect(plain.map((r) => [r.path, r.headers['x-api-token']])).toEqual([['/landing', undefined]]);
      // Asked for directly, the http URL gets them: it is the redirect from https that withheld them.
      await fetcher.fetch('http://a.test/landing');
      expect(seen[seen.length - 1].headers['x-api-token']).toBe(TOKEN);
    } finally {
      await fetcher.close();
      tls.close();
    }
  });

  it('are bound to the scheme: https credentials never go over http, not even after a redirect from https', () => {
    const credentials = new HostCredentials([{ origins: ['https://a.test'], headers: { 'X-A': '1' } }, { hosts: ['b.test'], headers: { 'X-B': '1' } }]);
    expect(credentials.headersFor('https://a.test/x')).toEqual({ 'x-a': '1' });
    expect(credentials.headersFor('https://a.test:443/x')).toEqual({ 'x-a': '1' });
    expect(credentials.headersFor('http://a.test/x')).toBeUndefined();
    expect(credentials.headersFor('https://a.test:8443/x')).toBeUndefined();
    // A bare host: both schemes on their default ports, but not http once a chain was on https.
    expect(credentials.headersFor('http://b.test/x')).toEqual({ 'x-b': '1' });
    expect(credentials.headersFor('https://b.test/x')).toEqual({ 'x-b': '1' });
    expect(credentials.headersFor('http://b.test:8080/x')).toBeUndefined();
    expect(credentials.headersForHop('http://b.test/x', ['https://b.test/'])).toBeUndefined();
    expect(credentials.headersForHop('http://b.test/x', ['http://c.test/'])).toEqual({ 'x-b': '1' });
    expect(credentials.headersForHop('https://b.test/y', ['http://b.test/'])).toEqual({ 'x-b': '1' });
  });

  it('are validated with a clear error in the settings', () => {
    const load = (credentials: unknown) => () => loadSettings({ env: { LSE_CRAWLER_CREDENTIALS: JSON.stringify(credentials) } });
    expect(load([{ origins: ['https://a.test/wiki'], headers: { 'X-A': '1' } }])).toThrow(/an origin such as https:\/\/intranet.example/);
    expect(load([{ origins: ['ftp://a.test'], headers: { 'X-A': '1' } }])).toThrow(/an origin such as/);
    expect(load([{ hosts: ['a.test:8080'], headers: { 'X-A': '1' } }])).toThrow(/use "origins" for a scheme or port/);
    expect(load([{ headers: { 'X-A': '1' } }])).toThrow(/name the origins/);
    expect(load([{ origins: ['https://*.corp.test:8443'], headers: { 'X-A': '1' } }])).not.toThrow();
    const wildcard = new HostCredentials([{ origins: ['https://*.corp.test:8443'], headers: { 'X-A': '1' } }]);
    expect(wildcard.headersFor('https://wiki.corp.test:8443/')).toEqual({ 'x-a': '1' });
    expect(wildcard.headersFor('https://wiki.corp.test/')).toBeUndefined();
    expect(() => new HostCredentials([{ origins: ['https://a.test:99999'] }])).toThrow(CredentialSettingsError);
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
