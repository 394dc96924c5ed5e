/**
 * The README is the front door: its settings example must be a valid settings file, and it stays short
 * (tables and walkthroughs go to docs/).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { settingsSchema } from '../config/schema.ts';
import { userAgentOf } from '../server/cli/crawl-setup.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The fenced blocks of one `## ` section, with their language. */
function codeBlocks(section: string): Array<{ lang: string; code: string }> {
  const start = readme.indexOf(`\n## ${section}\n`);
  expect(start, `README section "${section}"`).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const text = readme.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
}

describe('README', () => {
  it('has a settings file example that the settings accept as it is', () => {
    const [example] = codeBlocks('A settings file').filter((b) => b.lang === 'json');
    expect(example).toBeDefined();
    const parsed = JSON.parse(example.code);
    // Strict: a misspelt or removed setting in the example fails here.
    expect(settingsSchema.safeParse(parsed).error?.issues).toBeUndefined();
    const file = join(mkdtempSync(join(tmpdir(), 'lse-readme-')), 'lse.json');
    writeFileSync(file, example.code);
    const settings = loadSettings({ file, env: {} });
    expect(settings.crawler.seeds).toEqual(parsed.crawler.seeds);
    expect(settings.crawler.scope).toEqual(parsed.crawler.scope);
    // The example names a contact, and the User-Agent every request sends carries it.
    expect(userAgentOf(settings.crawler)).toMatch(/\(\+https?:\/\/\S+\)/);
    expect(settings.schedules).toMatchObject(parsed.schedules);
  });

  it('walks through a site crawl with the four commands and the same settings file', () => {
    const [commands] = codeBlocks('Crawling your own site');
    for (const line of commands.code.trim().split('\n')) expect(line).toMatch(/npx lse (crawl|estimate|index|serve) --config lse\.json/);
  });

  it('stays a front door: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });
});
