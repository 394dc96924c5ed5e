import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../config/load-settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'lse-settings-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('settings', () => {
  it('has a default for every setting', () => {
    const settings = loadSettings({ env: {} });
    expect(settings.crawler.concurrency).toBe(16);
    expect(settings.crawler.delaySeconds).toBe(1);
    expect(settings.crawler.maxBodyBytes).toBe(5 * 1024 * 1024);
    expect(settings.crawler.allowPrivateNetworks).toBe(false);
    expect(settings.crawler.heapGrowthPercent).toBe(50);
    expect(settings.estimation).toMatchObject({ alpha: 0.85, iterations: 50, extra: '2n', selector: 'default', estimator: 'supergraph' });
    expect(settings.server).toMatchObject({ host: '127.0.0.1', port: 8080 });
    expect(settings.server.adminToken).toBeUndefined();
  });

  it('layers file, environment and flags, later winning', () => {
    const config = file('a.json', JSON.stringify({ crawler: { maxPages: 50, delaySeconds: 2, resolve: { '*.demo:80': '127.0.0.1:9999' } }, server: { port: 9000 } }));
    const settings = loadSettings({
      file: config,
      env: { LSE_CRAWLER_MAX_PAGES: '70', LSE_ADMIN_TOKEN: 'a-very-secret-token-123', LSE_CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true' },
      overrides: { crawler: { maxPages: 90 } },
    });
    expect(settings.crawler.maxPages).toBe(90);
    expect(settings.crawler.delaySeconds).toBe(2);
    expect(settings.crawler.allowPrivateNetworks).toBe(true);
    expect(settings.crawler.resolve).toEqual({ '*.demo:80': '127.0.0.1:9999' });
    expect(settings.server.port).toBe(9000);
    expect(settings.server.adminToken).toBe('a-very-secret-token-123');
  });

  it.each([
    [{ file: 'bad.json', text: '{"crawler": {"concurrency": 0}}' }, /setting crawler\.concurrency \(from the config file .*bad\.json\)/],
    [{ file: 'typo.json', text: '{"crawler": {"maxPagez": 3}}' }, /setting crawler.*maxPagez/],
    [{ file: 'notjson.json', text: '{crawler' }, /not valid JSON/],
    [{ file: 'resolve.json', text: '{"crawler": {"resolve": {"nohost": "1.2.3.4:80"}}}' }, /crawler\.resolve\.nohost.*host:port/],
    [{ file: 'heap.json', text: '{"crawler": {"heapGrowthPercent": 1000}}' }, /setting crawler\.heapGrowthPercent/],
    [{ file: 'cron.json', text: '{"schedules": {"recrawl": "soon"}}' }, /schedules\.recrawl.*cron/],
  ])('names the bad setting and where it came from (%#)', ({ file: name, text }, message) => {
    expect(() => loadSettings({ file: file(name, text), env: {} })).toThrow(message);
  });

  it('reports a bad environment variable and a missing file', () => {
    expect(() => loadSettings({ env: { LSE_SERVER_PORT: '70000' } })).toThrow(/server\.port \(from the environment\)/);
    expect(() => loadSettings({ file: join(dir, 'none.json'), env: {} })).toThrow(SettingsError);
  });
});
