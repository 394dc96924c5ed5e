/**
 * The admin page's held index changes in headless Chromium: a re-crawl that finds a fifth of a
 * small site gone is held by the removal guard; the page shows why and applies it on request.
 * Skipped, with a message, where /usr/bin/chromium is not installed.
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
import { hasChromium, launchChromium, CHROMIUM } from './helpers/chromium.ts';

if (!hasChromium) console.warn(`held index browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');
const TOKEN = 'held-index-admin-token-0123456789';

describe.skipIf(!hasChromium)('held index changes on the admin page', () => {
  const pages = new Map<string, string>();
  const letters = [...'abcdefghij'];
  let site: Server;
  let store: CrawlStore;
  let serving: Serving;
  let browser: Browser;
  let heldJob: string;

  beforeAll(async () => {
    for (const letter of letters) pages.set(`/${letter}`, `<title>Page ${letter}</title><p>page ${letter} words</p>`);
    pages.set('/', `<title>Home</title>${letters.map((l) => `<a href="/${l}">${l}</a>`).join(' ')} welcome home`);
    site = createServer((request, response) => {
      const body = pages.get((request.url ?? '/').split('?')[0]);
      if (body === undefined) return response.writeHead(404, { 'content-type': 'text/html' }).end('<title>gone</title>');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-held-index-'));
    const settings = loadSettings({
      env: {},
      overrides: { dataDir, crawler: { seeds: ['http://site.test/'], scope: ['host:site.test'], resolve: { 'site.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 }, schedules: { estimate: 'off' }, recrawl: { dropAfter: { days: 0, failures: 1 } } },
    });
    store = await CrawlStore.open(dataDir);
    await rememberCrawlerSettings(store, settings.crawler);
    serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: TOKEN, index: (await buildIndex(store, settings)).index });
    serving.runner.submitCrawl();
    await serving.runner.idle();
    // Three of eleven pages gone (27 %, over the default 10 %): the re-crawl's index change is held.
    for (const letter of 'abc') pages.delete(`/${letter}`);
    heldJob = serving.runner.submitRecrawl({ budget: 20, policy: 'uniform' });
    await serving.runner.idle();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serving?.close();
    await store?.close();
    site?.close();
  });

  it('shows the reason and the URLs, marks the job held, and applies the change once confirmed', async () => {
    const documents = async () => ((await (await fetch(`${serving.url}/api/admin/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).index.documentCount as number);
    expect(await documents()).toBe(11);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: 'light' });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${serving.url}/admin`);
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    const panel = page.locator('#held-index');
    await panel.waitFor({ state: 'visible' });
    const item = panel.locator('li.held-change', { hasText: heldJob });
    await expect(item.textContent()).resolves.toContain('would remove 3 of 11 indexed pages (27.3 %, more than the 10 % allowed by index.maxRemovedShare)');
    // The URLs it would remove are listed.
    expect((await item.locator('.held-urls a').allTextContents()).sort()).toEqual(['http://site.test/a', 'http://site.test/b', 'http://site.test/c']);
    // The job row says held, not done.
    const row = page.locator(`#jobs-table tr[data-job="${heldJob}"]`);
    await expect(row.locator('.badge').textContent()).resolves.toBe('held');
    await expect(row.textContent()).resolves.toContain('Index change held: it would remove 3 of 11 pages');
    mkdirSync(outputDir, { recursive: true });
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'admin-held-index.png'), fullPage: false });

    // "Apply…" asks first; Cancel changes nothing.
    await page.getByRole('button', { name: `Apply: the index change of job ${heldJob}` }).click();
    await item.getByRole('button', { name: 'Cancel' }).click();
    expect(await documents()).toBe(11);
    await page.getByRole('button', { name: `Apply: the index change of job ${heldJob}` }).click();
    await page.screenshot({ path: join(outputDir, 'admin-held-index-confirm.png'), fullPage: false });
    await item.getByRole('button', { name: 'Remove 3 pages' }).click();
    await page.locator('#held-index-message', { hasText: `Applied the index change of job ${heldJob}.` }).waitFor();
    expect(await panel.locator('li').count()).toBe(0);
    expect(await documents()).toBe(8);
    // The status panel is read again: the index now holds 8 documents.
    await page.locator('#status-documents', { hasText: /^8$/ }).waitFor();
    expect((await (await fetch(`${serving.url}/api/search?q=words`)).json()).total).toBe(7);
    await expect(row.locator('.badge').textContent()).resolves.toBe('done');
    await expect(row.textContent()).resolves.toContain('Index change applied by an admin');
    expect(problems).toEqual([]);
    await page.close();
  });
});
