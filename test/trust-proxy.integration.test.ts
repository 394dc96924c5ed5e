import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { serveStore } from '../server/cli/serve-command.ts';

const SEARCH_TOKEN = 'a-search-token-0123456789';
const LIMIT = 3;

/** Serves an empty data directory with the given trustProxy, on a real socket. */
async function serveBehind(trustProxy: boolean | string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-trust-proxy-'));
  const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, server: { trustProxy, rateLimitPerMinute: LIMIT, searchToken: SEARCH_TOKEN } } });
  const store = await CrawlStore.open(dataDir);
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'a-test-admin-token-0123456789' });
  const info = async (forwardedFor: string) => (await fetch(`${serving.url}/api/info`, { headers: { 'x-forwarded-for': forwardedFor } })).status;
  const signInCookie = async (headers: Record<string, string>) => {
    const response = await fetch(`${serving.url}/api/signin`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ token: SEARCH_TOKEN }) });
    expect(response.status).toBe(200);
    return response.headers.get('set-cookie') ?? '';
  };
  return {
    info,
    signInCookie,
    close: async () => {
      await serving.close();
      await store.close();
    },
  };
}

describe('server.trustProxy', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('off (the default): every visitor behind a proxy shares the proxy’s bucket, and forwarded https is not believed', async () => {
    const server = await serveBehind(false);
    servers.push(server);
    for (let i = 0; i < LIMIT; i++) expect(await server.info('203.0.113.1')).toBe(200);
    expect(await server.info('203.0.113.2')).toBe(429);
    expect(await server.signInCookie({ 'x-forwarded-proto': 'https' })).not.toMatch(/;\s*Secure/i);
  });

  it('the proxy’s address: rate limits count per client, and cookies are Secure when the visitor came over https', async () => {
    const server = await serveBehind(['127.0.0.1']);
    servers.push(server);
    for (let i = 0; i < LIMIT; i++) expect(await server.info('203.0.113.1')).toBe(200);
    expect(await server.info('203.0.113.1')).toBe(429);
    expect(await server.info('203.0.113.2')).toBe(200);
    // A client that forges the header behind the proxy is still counted by the proxy's last entry.
    expect(await server.info('198.51.100.7, 203.0.113.1')).toBe(429);
    expect(await server.signInCookie({ 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' })).toMatch(/;\s*Secure/i);
    expect(await server.signInCookie({ 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' })).not.toMatch(/;\s*Secure/i);
  });

  it('a range that does not hold the peer: the forwarded headers are ignored', async () => {
    const server = await serveBehind(['10.0.0.0/8']);
    servers.push(server);
    for (let i = 0; i < LIMIT; i++) expect(await server.info(`203.0.113.${i + 1}`)).toBe(200);
    expect(await server.info('203.0.113.99')).toBe(429);
    expect(await server.signInCookie({ 'x-forwarded-proto': 'https' })).not.toMatch(/;\s*Secure/i);
  });

  it('takes addresses and CIDR ranges, and says what is wrong with anything else', () => {
    expect(loadSettings({ env: { LSE_SERVER_TRUST_PROXY: '["127.0.0.1", "10.0.0.0/8", "fd00::/8"]' } }).server.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
    expect(loadSettings({ env: { LSE_SERVER_TRUST_PROXY: 'true' } }).server.trustProxy).toBe(true);
    expect(loadSettings({ env: {} }).server.trustProxy).toBe(false);
    for (const bad of ['["10.0.0.0/33"]', '["proxy.local"]', '[]', '2']) {
      expect(() => loadSettings({ env: { LSE_SERVER_TRUST_PROXY: bad } }), bad).toThrow(/server\.trustProxy/);
    }
  });
});
