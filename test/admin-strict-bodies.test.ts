import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { serveStore, type Serving } from '../server/cli/serve-command.ts';

const token = 'a-test-admin-token-0123456789';
const SETTINGS = { synonyms: [['car', 'automobile']], bestBets: [{ pattern: 'parking', urls: ['http://site.test/parking'] }] };

describe('admin bodies and queries are strict', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-strict-admin-'));
  let store: CrawlStore;
  let serving: Serving;
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${serving.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json().catch(() => null)) as { message?: string; code?: string } | null };
  };
  const stored = () => JSON.parse(readFileSync(join(dataDir, 'search-settings.json'), 'utf8')) as typeof SETTINGS;

  beforeAll(async () => {
    const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' } } });
    store = await CrawlStore.open(dataDir);
    serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: token });
    expect((await call('PUT', '/api/admin/search-settings', SETTINGS)).status).toBe(200);
  });
  afterAll(async () => {
    await serving?.close();
    await store?.close();
  });

  it('refuses a search-settings PUT with unknown keys, or without both lists, and keeps what is stored', async () => {
    for (const body of [{ a: 1 }, {}, { synonyms: [] }, { bestBets: [] }, { ...SETTINGS, a: 1 }, { synonyms: [], bestBets: [{ pattern: 'x', urls: ['http://site.test/'], note: 'y' }] }]) {
      const answer = await call('PUT', '/api/admin/search-settings', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body?.code).toBe('LSE_BAD_SEARCH_SETTINGS');
    }
    expect((await call('PUT', '/api/admin/search-settings', { a: 1 })).body?.message).toMatch(/Unrecognized key.*"a"/);
    expect(stored()).toEqual(SETTINGS);
    // Removing everything takes saying so: both lists, empty.
    expect((await call('PUT', '/api/admin/search-settings', { synonyms: [], bestBets: [] })).status).toBe(200);
    expect(stored()).toEqual({ synonyms: [], bestBets: [] });
  });

  it('refuses unknown keys in every admin body', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/admin/rounds', { selector: 'default', iterationz: 3 }],
      ['POST', '/api/admin/crawls', { maxPage: 5 }],
      ['POST', '/api/admin/recrawls', { budgte: 5 }],
      ['POST', '/api/admin/jobs/none/apply-index', { force: true }],
      ['POST', '/api/admin/schedules/recrawl/run', { now: true }],
      ['DELETE', '/api/admin/rounds/none', { hard: true }],
      ['POST', '/api/admin/removed', { url: 'http://site.test/a', reason: 'x' }],
      ['PUT', '/api/admin/search-access', { public: true, forever: true }],
    ];
    for (const [method, path, body] of cases) expect((await call(method, path, body)).status, `${method} ${path}`).toBe(400);
    // Without the unknown key, the same calls reach their handlers.
    expect((await call('POST', '/api/admin/jobs/none/apply-index')).status).toBe(404);
    expect((await call('DELETE', '/api/admin/rounds/none')).status).toBe(404);
    expect((await call('PUT', '/api/admin/search-access', { public: false })).status).toBe(200);
  });

  it('refuses unknown query parameters on every admin route', async () => {
    for (const path of ['/api/admin/status?verbose=1', '/api/admin/rounds?all=1', '/api/admin/jobs?x=1', '/api/admin/pages/divergence?limit=5&sort=up', '/api/admin/removed?page=2', '/api/admin/search-settings?x=1', '/api/admin/search-access?x=1', '/api/admin/analytics?days=3&x=1', '/api/admin/inspect?url=http://site.test/&x=1']) {
      expect((await call('GET', path)).status, path).toBe(400);
    }
    for (const path of ['/api/admin/status', '/api/admin/pages/divergence?limit=5', '/api/admin/analytics?days=3', '/api/admin/search-settings']) {
      expect((await call('GET', path)).status, path).toBe(200);
    }
  });
});
