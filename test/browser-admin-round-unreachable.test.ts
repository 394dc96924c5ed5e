/**
 * An estimation round where no outside host resolves (a machine without DNS, a typo): the round
 * explains per host why nothing was fetched, as the crawl does; it writes no new rank version
 * (the previous ranks stay); the admin page shows the reasons, no "recorded no iteration" beside
 * "5 of 5", and the past-rounds axis has distinct labels. Headless Chromium; skipped without it.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { buildIndex, serveStore, type Serving } from '../server/cli/serve-command.ts';
import type { RoundStatus } from '../server/jobs/estimation-round.ts';
import { hasChromium, launchChromium, CHROMIUM } from './helpers/chromium.ts';

if (!hasChromium) console.warn(`round browser test skipped: ${CHROMIUM} not found`);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');
const TOKEN = 'round-unreachable-token-0123456789';

describe('a round where no outside host resolves', () => {
  let site: Server;
  let store: CrawlStore;
  let serving: Serving;
  let browser: Browser | undefined;
  let round: RoundStatus;

  beforeAll(async () => {
    // Every page links to two hosts outside the site that do not resolve (.invalid never does).
    const outside = '<a href="http://far-away.invalid/a">far</a> <a href="http://elsewhere.invalid/b">else</a>';
    const pages = new Map([
      ['/', `<title>Home</title><a href="/a">a</a> <a href="/b">b</a> ${outside}`],
      ['/a', `<title>A</title><p>alpha</p> ${outside} <a href="/">home</a>`],
      ['/b', `<title>B</title><p>beta</p> ${outside} <a href="/a">a</a>`],
    ]);
    site = createServer((request, response) => {
      const body = pages.get((request.url ?? '/').split('?')[0]);
      if (body === undefined) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-round-dns-'));
    const settings = loadSettings({
      env: {},
      overrides: { dataDir, crawler: { seeds: ['http://site.test/'], scope: ['host:site.test'], resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 }, schedules: { estimate: 'off' } },
    });
    store = await CrawlStore.open(dataDir);
    await rememberCrawlerSettings(store, settings.crawler);
    serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: TOKEN, index: (await buildIndex(store, settings)).index });
    serving.runner.submitCrawl();
    await serving.runner.idle();
    const id = serving.runner.submitRound({ selector: 'default', iterations: 5, pagesPerIteration: 2 });
    await serving.runner.idle();
    round = (await serving.runner.round(id))!;
    if (hasChromium) browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serving?.close();
    await store?.close();
    site?.close();
  });

  it('explains per host, and keeps the previous ranks (no new rank version)', async () => {
    expect(round.state).toBe('done');
    expect(round.crawled).toBe(0);
    expect(round.version).toBeUndefined();
    expect(await store.latestRanks('estimate')).toBeUndefined();
    expect(round.note).toContain('No page outside the site could be fetched');
    expect(round.note).toContain('previous ranks are kept');
    const hosts = (round.diagnosis ?? []).map((h) => h.host).sort();
    expect(hosts).toEqual(['elsewhere.invalid', 'far-away.invalid']);
    const causes = round.diagnosis!.flatMap((h) => h.causes.map((c) => c.what));
    expect(causes.join(' ')).toMatch(/DNS failure|robots\.txt unreachable/);
    expect(round.failedPages).toBe(2);
  });

  it.skipIf(!hasChromium)('shows the reasons on the admin page, and an axis with distinct labels', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 1100 }, colorScheme: 'light' });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${serving.url}/admin`);
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    const box = page.locator('#round-diagnosis');
    await box.waitFor({ state: 'visible' });
    expect(await box.textContent()).toContain('far-away.invalid');
    expect(await box.textContent()).toContain('previous ranks are kept');
    expect(await page.locator('#stat-crawled').textContent()).toContain('2 could not be fetched');
    // The status table's "disallowed" outside pages are explained, not read as sites blocking us.
    await expect.poll(() => page.locator('#pages-note').textContent()).toContain('could not be reached (a DNS failure, a refused connection)');
    expect(await page.locator('#pages-note').textContent()).toContain('The last round lists why for 2 hosts');
    expect(await page.locator('#round-chart').textContent()).not.toContain('recorded no iteration');
    expect(await page.locator('#round-chart').textContent()).toContain('did not change in any of the 5 iterations: no page outside the site was fetched');
    // The past-rounds axis: round steps, each label once (it repeated "5 × 10⁻⁷").
    // A string, so that vitest leaves the page's own import() alone.
    const ticks = (await page.evaluate(`(async () => {
      const { niceTicks } = await import('/admin/rounds-history.js');
      const { formatNumber } = await import('/lib/format.js');
      return [niceTicks(5.5e-7), niceTicks(0.0123), niceTicks(0)].map((list) => list.map(formatNumber));
    })()`)) as string[][];
    for (const labels of ticks) expect(new Set(labels).size).toBe(labels.length);
    expect(ticks[0]).toEqual(['0', '2 × 10⁻⁷', '4 × 10⁻⁷', '6 × 10⁻⁷']);
    mkdirSync(outputDir, { recursive: true });
    await page.locator('#round-diagnosis').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-round-unreachable.png') });
    expect(problems).toEqual([]);
    await page.close();
  });
});
