/**
 * The admin page's upkeep, in headless Chromium on a small served site: best bets that point at
 * no indexed page are named on save; schedules are shown in words with the time zone and set
 * from the page (checked, applied without a restart, kept for the next start); the analytics
 * legend has the bars' colours; a zero-result query made with filters shows them.
 * Skipped, with a message, where /usr/bin/chromium is not installed.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { Settings } from '../config/schema.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { buildIndex, serveStore, type Serving } from '../server/cli/serve-command.ts';
import { SCHEDULE_EDITS_KEY } from '../server/routes/admin-site-routes.ts';
import { hasChromium, launchChromium, CHROMIUM } from './helpers/chromium.ts';

if (!hasChromium) console.warn(`admin upkeep browser test skipped: ${CHROMIUM} not found`);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');
const TOKEN = 'admin-upkeep-test-token-0123456789';

describe.skipIf(!hasChromium)('the admin page\'s upkeep', () => {
  let site: Server;
  let store: CrawlStore;
  let settings: Settings;
  let serving: Serving;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const pages = new Map([
      ['/', '<title>Home</title><a href="/about">about</a> <a href="/hours">hours</a> welcome'],
      ['/about', '<title>About</title><p>about the observatory</p>'],
      ['/hours', '<title>Hours</title><p>opening hours of the library</p>'],
    ]);
    site = createServer((request, response) => {
      const body = pages.get((request.url ?? '/').split('?')[0]);
      if (body === undefined) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-upkeep-'));
    settings = loadSettings({
      env: {},
      overrides: { dataDir, crawler: { seeds: ['http://site.test/'], scope: ['host:site.test'], resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 }, schedules: { estimate: 'off' } },
    });
    store = await CrawlStore.open(dataDir);
    await rememberCrawlerSettings(store, settings.crawler);
    serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: TOKEN, index: (await buildIndex(store, settings)).index });
    serving.runner.submitCrawl();
    await serving.runner.idle();
    // Searches the analytics record: one found pages, two found nothing, one of them with filters.
    for (const q of ['about', 'qqqzzz', 'zzzqqq&sort=date', 'zzzqqq&sort=date']) await fetch(`${serving.url}/api/search?q=${q}`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: 'light' });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${serving.url}/admin`);
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    await page.locator('#schedules-table tbody tr').first().waitFor();
    mkdirSync(outputDir, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serving?.close();
    await store?.close();
    site?.close();
  });

  it('names the best bets that point at no indexed page when they are saved', async () => {
    await page.fill('#best-bets', 'observatory => http://site.test/abuot http://elsewhere.example/about http://site.test/about');
    await page.click('#save-search-settings');
    const note = page.locator('#search-settings-note');
    await note.filter({ hasText: 'Saved' }).waitFor();
    expect(await note.textContent()).toContain('Warning: 2 best bet URLs point at no indexed page');
    const listed = await page.locator('#bet-problems-list li').allTextContents();
    expect(listed).toHaveLength(2);
    expect(listed[0]).toContain('http://site.test/abuot: no indexed page has this URL');
    expect(listed[1]).toContain('http://elsewhere.example/about: outside the site');
    await page.locator('#bet-problems').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-bet-problems.png') });
    // Correct the bet: the warning goes.
    await page.fill('#best-bets', 'observatory => http://site.test/about');
    await page.click('#save-search-settings');
    await expect.poll(() => page.locator('#bet-problems').isHidden()).toBe(true);
  });

  it('shows schedules in words with the time zone, and sets one from the page without a restart', async () => {
    const row = page.locator('#schedules-table tr[data-schedule="recrawl"]');
    expect(await row.locator('td').first().textContent()).toContain('off');
    await row.locator('input').fill('61 3 * * *');
    await row.getByRole('button', { name: 'Save: the re-crawl schedule' }).click();
    await page.locator('#schedules-message', { hasText: 'not a valid cron expression' }).waitFor();
    expect(await row.locator('input').getAttribute('aria-invalid')).toBe('true');
    await row.locator('input').fill('0 3 * * *');
    await row.getByRole('button', { name: 'Save: the re-crawl schedule' }).click();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await page.locator('#schedules-message', { hasText: 'every day at 03:00' }).waitFor();
    const saved = page.locator('#schedules-table tr[data-schedule="recrawl"]');
    await expect.poll(() => saved.locator('td').first().textContent()).toContain(`every day at 03:00 (${zone} time)`);
    expect((await saved.locator('td').nth(1).textContent())!.trim()).not.toBe('–');
    // Running now, and kept for the next start.
    const listed = (await (await fetch(`${serving.url}/api/admin/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).schedules;
    const recrawl = listed.find((s: { name: string }) => s.name === 'recrawl');
    expect(recrawl).toMatchObject({ cron: '0 3 * * *', description: 'every day at 03:00', timeZone: zone });
    expect(new Date(recrawl.nextRun).getHours()).toBe(3);
    expect(await store.getMeta(SCHEDULE_EDITS_KEY)).toEqual({ recrawl: '0 3 * * *' });
    await saved.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-schedules-edit.png') });
  });

  it('draws the legend in the bars\' colours and shows the filters of a zero-result query', async () => {
    const colours = await page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
      return {
        swatchSearches: style('.swatch-searches').backgroundColor,
        swatchZero: style('.swatch-zero').backgroundColor,
        swatchZeroBorder: style('.swatch-zero').borderTopWidth,
        barSearches: style('.bar-searches').fill,
        barZero: style('.bar-zero').fill,
      };
    });
    expect(colours.swatchZero).toBe(colours.barZero);
    expect(colours.swatchSearches).toBe(colours.barSearches);
    expect(colours.swatchZero).not.toBe(colours.swatchSearches);
    expect(colours.swatchZeroBorder).toBe('0px');
    const rows = page.locator('#zero-queries tbody tr');
    const filtered = rows.filter({ hasText: 'zzzqqq' });
    expect(await filtered.locator('td').nth(2).textContent()).toBe('sort: date');
    expect(await rows.filter({ hasText: 'qqqzzz' }).locator('td').nth(2).textContent()).toBe('none');
    await page.locator('#analytics-chart').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-analytics-legend.png') });
    expect(problems).toEqual([]);
  });

  it('gives a divergence table of x1.000 everywhere a word', async () => {
    // An estimate that equals the local PageRank (what a round that changed nothing would give).
    const local = (await store.latestRanks('local-current'))!;
    await store.batch()
      .putRanks({ name: 'local', version: 1, ids: local.ids, values: local.values, info: { test: true } })
      .putRanks({ name: 'estimate', version: 1, ids: local.ids, values: local.values, info: { test: true } })
      .commit();
    await page.selectOption('#divergence-limit', '50');
    const note = page.locator('#divergence-note');
    await note.waitFor({ state: 'visible' });
    expect(await note.textContent()).toContain('Every ratio is ×1.000: the global estimate equals the local PageRank');
    expect(await page.locator('#divergence-table .ratio-same').count()).toBe(3);
    expect(await page.locator('#divergence-table .ratio-same').first().textContent()).toContain('×1.000 (same)');
    await note.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-divergence-same.png') });
    expect(problems).toEqual([]);
  });
});
