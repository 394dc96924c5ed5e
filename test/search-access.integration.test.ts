import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, PASSWORD, SEARCH_TOKEN, crawlAndServe as serveHost, startPrivateSite, type Served } from './helpers/private-site.ts';

let site: Awaited<ReturnType<typeof startPrivateSite>>;
beforeAll(async () => {
  site = await startPrivateSite();
});
afterAll(() => site?.close());
const crawlAndServe = (host: string, credentials: boolean) => serveHost(site.port, host, credentials);

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

  it('takes a result click only from those who may search', async () => {
    const url = intranet.serving.url;
    const click = (headers: Record<string, string>) =>
      fetch(`${url}/api/click`, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body: JSON.stringify({ q: 'holiday', url: 'http://intranet.test/', position: 1 }) });
    const anonymous = await click({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'LSE_SIGN_IN_REQUIRED' });
    expect((await click({ authorization: `Bearer ${SEARCH_TOKEN}` })).status).toBe(204);
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
