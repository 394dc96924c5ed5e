import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { Settings } from '../config/schema.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { buildIndex, serveStore, type Serving } from '../server/cli/serve-command.ts';

const PASSWORD = 'intranet-pa55word';
const SEARCH_TOKEN = 'search-token-for-staff-0123456789';
const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
let site: Server;
let port: number;

beforeAll(async () => {
  const expected = `Basic ${Buffer.from(`crawler:${PASSWORD}`).toString('base64')}`;
  site = createServer((request, response) => {
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
  port = (site.address() as AddressInfo).port;
});
afterAll(() => site?.close());

interface Served {
  serving: Serving;
  settings: Settings;
  logs: string[];
  close(): Promise<void>;
}

/** Crawls one host (with Basic credentials or without), indexes it and serves it on loopback. */
async function crawlAndServe(host: string, credentials: boolean): Promise<Served> {
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

describe('search of pages fetched with credentials', () => {
  let intranet: Served;
  beforeAll(async () => {
    intranet = await crawlAndServe('intranet.test', true);
  }, 60_000);
  afterAll(async () => intranet?.close());

  it('answers 401 without the search token, 200 with it (Bearer or the sign-in cookie)', async () => {
    const url = intranet.serving.url;
    const anonymous = await fetch(`${url}/api/search?q=handbook`);
    expect(anonymous.status).toBe(401);
    const refusal = await anonymous.json();
    expect(refusal).toMatchObject({ code: 'LSE_SIGN_IN_REQUIRED', signIn: '/signin' });
    expect(refusal.message).toMatch(/not public.*sign in/);
    expect(JSON.stringify(refusal)).not.toMatch(/holiday|Staff handbook/);
    expect((await fetch(`${url}/api/suggest?q=hand`)).status).toBe(401);
    expect((await fetch(`${url}/api/search?q=handbook`, { headers: { authorization: 'Bearer not-the-search-token-at-all' } })).status).toBe(401);

    const withToken = await fetch(`${url}/api/search?q=holiday`, { headers: { authorization: `Bearer ${SEARCH_TOKEN}` } });
    expect(withToken.status).toBe(200);
    const body = await withToken.json();
    expect(body.hits.map((hit: { url: string }) => hit.url)).toContain('http://intranet.test/');

    // The sign-in page's form, as a browser posts it: a cookie that is not the token itself.
    expect(await (await fetch(`${url}/signin`)).text()).toContain('action="/api/signin"');
    const wrong = await fetch(`${url}/api/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=wrong', redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const signIn = await fetch(`${url}/api/signin`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: SEARCH_TOKEN }).toString(), redirect: 'manual' });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^lse_search=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain(SEARCH_TOKEN);
    const session = cookie.split(';')[0];
    expect((await fetch(`${url}/api/search?q=holiday`, { headers: { cookie: session } })).status).toBe(200);
    const suggest = await fetch(`${url}/api/suggest?q=hand`, { headers: { cookie: session } });
    expect(suggest.status).toBe(200);
    expect(suggest.headers.get('cache-control')).toBe('private, max-age=60');
  });

  it('answers everyone once the admin marks the site public, and keeps that choice in the data directory', async () => {
    const url = intranet.serving.url;
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    expect(await (await fetch(`${url}/api/admin/search-access`, { headers: admin })).json()).toEqual({ privateContent: true, public: false, signInRequired: true, tokenSet: true });
    expect((await fetch(`${url}/api/admin/search-access`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"public":true}' })).status).toBe(401);
    const marked = await fetch(`${url}/api/admin/search-access`, { method: 'PUT', headers: admin, body: '{"public":true}' });
    expect(await marked.json()).toMatchObject({ public: true, signInRequired: false });
    expect((await fetch(`${url}/api/search?q=holiday`)).status).toBe(200);
    const file = join(intranet.settings.dataDir, 'search-access.json');
    expect(existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).public).toBe(true);
    await fetch(`${url}/api/admin/search-access`, { method: 'PUT', headers: admin, body: '{"public":false}' });
    expect((await fetch(`${url}/api/search?q=holiday`)).status).toBe(401);
  });

  it('never shows the search token in the admin status or the log', async () => {
    const url = intranet.serving.url;
    const status = await fetch(`${url}/api/admin/status`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(status.status).toBe(200);
    const text = await status.text();
    expect(text.length).toBeGreaterThan(100);
    expect(text).not.toContain(SEARCH_TOKEN);
    expect(text).not.toContain(PASSWORD);
    // Requests were logged (info level), the token with none of them.
    expect(intranet.logs.join('').length).toBeGreaterThan(0);
    expect(intranet.logs.some((line) => line.includes('/api/signin'))).toBe(true);
    expect(intranet.logs.join('\n')).not.toContain(SEARCH_TOKEN);
  });
});

describe('search of pages fetched without credentials', () => {
  it('stays public', async () => {
    const open = await crawlAndServe('public.test', false);
    try {
      const answer = await fetch(`${open.serving.url}/api/search?q=handbook`);
      expect(answer.status).toBe(200);
      expect((await answer.json()).hits.map((hit: { url: string }) => hit.url)).toEqual(['http://public.test/']);
      expect(await (await fetch(`${open.serving.url}/api/admin/search-access`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()).toMatchObject({ privateContent: false, signInRequired: false });
    } finally {
      await open.close();
    }
  }, 60_000);
});
