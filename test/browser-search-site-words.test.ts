/**
 * The search page speaks with the site's own words: with no placeholder or examples set, it
 * offers the site's popular queries that found pages (never the demo's), or none; its ranking
 * note never claims outside pages were crawled when none were; and a word no page has is named
 * ("No page has kubernetes; showing results for …"). Headless Chromium; skipped without it.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { loadSearchData } from '../indexer/ranking/search-data.ts';
import { buildApp } from '../server/app.ts';
import { SearchAnalytics } from '../server/search-admin/analytics.ts';
import { SiteWordsSource } from '../server/search-admin/site-words.ts';
import { buildDemoDataDir, type DemoDataDir } from './helpers/demo-data-dir.ts';
import { hasChromium, launchChromium, CHROMIUM } from './helpers/chromium.ts';

if (!hasChromium) console.warn(`site words browser test skipped: ${CHROMIUM} not found`);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');

describe.skipIf(!hasChromium)('a search page with the site\'s own words', () => {
  let data: DemoDataDir;
  let browser: Browser;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    // The university site crawled and indexed, no estimation round: no page outside it was fetched.
    data = await buildDemoDataDir({ pages: 200 });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
    await data?.close();
  });

  /** Serves the data directory with these server settings and these searches already recorded. */
  async function serve(server: Record<string, unknown>, searches: Array<[string, number]> = []) {
    const engine = new SearchEngine(data.index, await loadRankSnapshot(data.store), { blend: 'log-linear', weight: 0.3 });
    await loadSearchData(engine, data.store);
    const analytics = await SearchAnalytics.open(mkdtempSync(join(tmpdir(), 'lse-words-')), { retentionDays: 90, maxRecordsPerDay: 1000 });
    for (const [q, hits] of searches) analytics.recordSearch(q, undefined, hits);
    const words = new SiteWordsSource({ ...data.settings.server, ...server }, data.store, analytics);
    await words.refresh();
    const app = await buildApp({ search: engine, logger: false, siteName: 'Erlang docs', siteInfo: () => ({ ...words.words() }) });
    apps.push(app);
    return app.listen({ host: '127.0.0.1', port: 0 });
  }

  it('offers no demo words when nothing is set and nobody searched', async () => {
    const url = await serve({});
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.goto(url);
    await page.locator('.message-empty').waitFor();
    await expect.poll(() => page.title()).toBe('Erlang docs search');
    const text = await page.locator('main').textContent();
    for (const word of ['telescope', 'admissions', 'library hours', 'scholarship']) expect(text).not.toContain(word);
    expect(await page.locator('#q').getAttribute('placeholder')).toBeNull();
    expect(await page.locator('.message-empty a').count()).toBe(0);
    // The help says what the search does, not "every word must appear".
    expect(text).not.toContain('Every word must appear');
    expect(await page.locator('.message-empty').textContent()).toContain('when no page has them all, pages with some of them are shown');
    // No round ran: the note does not claim pages outside the site were crawled.
    expect(await page.locator('#ranking-note').textContent()).toContain('no page outside the site has been crawled yet');
    expect(await page.locator('#rank').isVisible()).toBe(false);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-site-words-none.png') });
    await page.close();
  });

  it('offers the site\'s popular queries that found pages, and the placeholder its settings give', async () => {
    const url = await serve({ searchPlaceholder: 'ets, gen_server, supervisors…' }, [
      ['library', 12], ['library', 9], ['library', 4],
      ['campus map', 3], ['campus map', 2],
      ['qqqzzz', 0], ['qqqzzz', 0], ['qqqzzz', 0], ['qqqzzz', 0],
      ['one-off', 5],
    ]);
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.goto(url);
    await expect.poll(() => page.locator('.message-empty a').allTextContents()).toEqual(['library', 'campus map']);
    expect(await page.locator('#q').getAttribute('placeholder')).toBe('ets, gen_server, supervisors…');
    await page.screenshot({ path: join(outputDir, 'search-site-words-popular.png') });
    await page.close();
  });

  it('names a word no page has (the API\'s unmatchedTerms)', async () => {
    const url = await serve({ exampleQueries: ['library'] });
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.goto(`${url}/?q=kubernetes+library`);
    const notice = page.locator('#query-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('No page has kubernetes; showing results for library.');
    expect(await notice.locator('em').allTextContents()).toEqual(['kubernetes', 'library']);
    await page.screenshot({ path: join(outputDir, 'search-unmatched-notice.png') });
    await page.close();
  });
});
