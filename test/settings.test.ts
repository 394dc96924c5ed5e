import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSettings, SettingsError } from '../config/load-settings.ts';
import { settingsSchema } from '../config/schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'lse-settings-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

/** The settings that are off unless given: optional, with no default. Every other setting must have a default. */
const OPTIONAL_SETTINGS = ['crawler.contactUrl', 'crawler.topic', 'server.siteName', 'server.searchPlaceholder', 'server.exampleQueries', 'server.adminToken', 'server.searchToken', 'schedules.recrawl'];

/**
 * Every field of the schema by its dotted path, walking into the objects that have defaults themselves: `default`
 * with the value the field's schema gives when the setting is absent, or `optional`, or `required`.
 */
function schemaFields(schema: z.ZodType, prefix = ''): Array<{ path: string; kind: 'default' | 'optional' | 'required'; value?: unknown }> {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const path = prefix + key;
    if (field instanceof z.ZodDefault) {
      const inner = field.unwrap() as z.ZodType;
      const nested = schemaFields(inner, `${path}.`);
      return nested.length > 0 ? nested : [{ path, kind: 'default' as const, value: field.parse(undefined) }];
    }
    return [{ path, kind: field instanceof z.ZodOptional ? ('optional' as const) : ('required' as const) }];
  });
}

const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

describe('settings', () => {
  it('has a default for every setting', () => {
    const fields = schemaFields(settingsSchema);
    expect(fields.length).toBeGreaterThan(50); // the walk reached the nested sections
    // Every setting has a default, except the few that are off unless given.
    expect(fields.filter((f) => f.kind !== 'default').map((f) => `${f.path} (${f.kind})`)).toEqual(OPTIONAL_SETTINGS.map((path) => `${path} (optional)`));
    // The settings loaded from nothing hold every default (the nested sections' defaults are their fields' own).
    const settings = loadSettings({ env: {} });
    for (const field of fields) {
      if (field.kind === 'default') {
        expect(field.value, field.path).not.toBeUndefined();
        expect(at(settings, field.path), field.path).toEqual(field.value);
      } else expect(at(settings, field.path), field.path).toBeUndefined();
    }
    // A few defaults by value, as the docs state them.
    expect(settings.crawler).toMatchObject({ concurrency: 16, delaySeconds: 1, maxBodyBytes: 5 * 1024 * 1024, allowPrivateNetworks: false, heapGrowthPercent: 50 });
    expect(settings.estimation).toMatchObject({ alpha: 0.85, iterations: 50, extra: '2n', selector: 'default', estimator: 'supergraph' });
    expect(settings.server).toMatchObject({ host: '127.0.0.1', port: 8080 });
    // A continuing round every night, n pages a night; stale global pages after a week, within a fifth of a round.
    expect(settings.schedules).toMatchObject({ estimate: '15 2 * * *', estimateBudget: '1n' });
    expect(settings.estimation).toMatchObject({ pldBudgets: true, revisitAfterDays: 7, revisitShare: 0.2 });
  });

  it('turns the nightly round off with "off", and refuses other words', () => {
    expect(loadSettings({ env: {}, overrides: { schedules: { estimate: 'off' } } }).schedules.estimate).toBe('off');
    expect(() => loadSettings({ env: {}, overrides: { schedules: { estimate: 'never' } } })).toThrow(SettingsError);
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
