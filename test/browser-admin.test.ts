/**
 * The admin page end to end in headless Chromium, against a real served demo data directory:
 * sign-in (wrong token refused), a round watched live to the end, a long round cancelled, the
 * divergence table, the status panel, a re-crawl and a schedule run on demand, sign-out.
 * Skipped, with a message, where /usr/bin/chromium is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SITE_SCHEDULES, buildAdminSite, type AdminSite } from './helpers/admin-site.ts';
import { BEST_METHOD_NAME } from '../server/report/experiment-report.ts';
import { METHOD_NAMES } from '../indexer/estimation/estimators.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`admin page browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');

describe.skipIf(!hasChromium)(hasChromium ? 'the admin page in Chromium' : `the admin page in Chromium (skipped: ${CHROMIUM} not found)`, () => {
  let site: AdminSite;
  let browser: Browser;
  let page: Page;
  /** Console errors and uncaught exceptions (CSP violations show up here). */
  const problems: string[] = [];

  beforeAll(async () => {
    site = await buildAdminSite();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const dashboard = () => page.locator('#dashboard');
  const roundState = () => page.locator('#round-state');

  it('refuses a wrong token and stays on the sign-in form', async () => {
    // Failed sign-ins answer 401, which the browser logs as a console error: expected here.
    await page.goto(`${site.url}/admin`);
    await expect(page.locator('#token').getAttribute('type')).resolves.toBe('password');
    // The page names the site it administers (from /api/info).
    await page.locator('#brand-name', { hasText: 'Northfield University search' }).waitFor();
    await page.fill('#token', 'not-the-token-at-all-0000');
    await page.press('#token', 'Enter');
    await page.locator('#sign-in-error', { hasText: /wrong token/i }).waitFor();
    expect(await dashboard().isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('lse-admin-token'))).toBeNull();

    // A stale token kept in the tab is refused the same way.
    await page.evaluate(() => sessionStorage.setItem('lse-admin-token', 'stale-token-from-before-0000'));
    await page.reload();
    await page.locator('#sign-in-error', { hasText: /wrong token/i }).waitFor();
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('lse-admin-token'))).toBeNull();
    problems.length = 0;
  });

  it('signs in with the token, keeps it for the tab, and shows the status', async () => {
    await page.fill('#token', site.token);
    await page.click('#sign-in-form button[type="submit"]');
    await dashboard().waitFor({ state: 'visible' });
    expect(await page.evaluate(() => sessionStorage.getItem('lse-admin-token'))).toBe(site.token);
    expect(await page.locator('#sign-out').isVisible()).toBe(true);

    // Pages by role and state: the crawl stored a few hundred local pages.
    const localRow = page.locator('#pages-table tbody tr', { has: page.locator('th', { hasText: 'local' }) });
    const localTotal = Number((await localRow.locator('td.total').innerText()).replace(/\D/g, ''));
    expect(localTotal).toBeGreaterThan(300);
    expect(Number((await page.locator('#status-documents').innerText()).replace(/\D/g, ''))).toBeGreaterThan(300);
    expect(Number((await page.locator('#status-frontier').innerText()).replace(/\D/g, ''))).toBeGreaterThan(0);
    expect(Number(await page.locator('#status-hosts').innerText())).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#status-rank-version').innerText()).toBe('0');
    expect(await page.locator('#status-last-round').innerText()).toBe('none yet');
    // The round form names what `best` runs, as the server says.
    expect(await page.locator('#selector option[value="best"]').textContent()).toBe(`Best: ${BEST_METHOD_NAME}`);
    // The form's options are written by hand: every method the server runs, and nothing else.
    expect((await page.locator('#selector option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).sort()).toEqual([...METHOD_NAMES].sort());

    // Both job schedules, with their cron expressions and a way to run them now, and the daily
    // clean-up of search analytics past their retention.
    const schedules = page.locator('#schedules-table tbody tr');
    expect(await schedules.count()).toBe(3);
    expect(await schedules.nth(0).innerText()).toContain(ADMIN_SITE_SCHEDULES.recrawl);
    expect(await schedules.nth(1).innerText()).toContain(ADMIN_SITE_SCHEDULES.estimate);
    expect(await schedules.nth(2).innerText()).toContain('Search analytics clean-up');
    expect(await page.getByRole('button', { name: 'Run now: the re-crawl schedule' }).isEnabled()).toBe(true);

    // No round yet: the chart says what to do.
    expect(await page.locator('#round-chart svg text.chart-empty').textContent()).toMatch(/No round yet/);
    // No estimate yet: the divergence table says so.
    expect(await page.locator('#divergence-empty').isVisible()).toBe(true);
    expect(await page.locator('#rounds-empty').isVisible()).toBe(true);

    // The token outlives a reload of the tab.
    await page.reload();
    await dashboard().waitFor({ state: 'visible' });
    expect(await page.locator('#sign-in').isHidden()).toBe(true);
  });

  it('starts a small round and follows it live to the end', async () => {
    expect(await page.locator('#selector').inputValue()).toBe('default');
    await page.fill('#iterations', '6');
    await page.check('#budget-per-iteration');
    await page.fill('#pages-per-iteration', '10');
    // Record every iteration the panel shows: live updates, not one final render.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenIterations: string[] }).seenIterations = seen;
      const target = document.getElementById('stat-iteration')!;
      new MutationObserver(() => seen.push(target.textContent ?? '')).observe(target, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#start-round');
    await page.locator('#round-state.badge-done').waitFor({ timeout: 60_000 });

    const seen = await page.evaluate(() => (window as unknown as { seenIterations: string[] }).seenIterations);
    expect(new Set(seen).size).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#stat-iteration').innerText()).toBe('6 of 6');
    expect(Number((await page.locator('#stat-crawled').innerText()).split(' ')[0])).toBeGreaterThan(30);
    expect(await page.locator('#round-progress').evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([6, 6]);
    expect(await page.locator('#stat-truth').innerText()).toMatch(/^0\.\d+$/);
    expect(await page.locator('#round-live').innerText()).toMatch(/Round done: 6 of 6 iterations/);
    expect(await page.locator('#cancel-round').isDisabled()).toBe(true);

    // The chart: both series, a marker per point, labelled axes, a legend.
    const chart = page.locator('#round-chart svg');
    expect(await chart.locator('.series-change polyline').count()).toBe(1);
    expect(await chart.locator('.series-change circle').count()).toBe(6);
    expect(await chart.locator('.series-truth rect').count()).toBe(7);
    expect(await chart.locator('text.axis-title').allTextContents()).toEqual(['iteration', 'L1 distance']);
    expect(await page.locator('#legend-truth').isVisible()).toBe(true);
    expect(await chart.locator('desc').textContent()).toMatch(/Iteration 6 of 6: change .+, error to the true PageRank/);
    await page.click('.chart-data summary');
    expect(await page.locator('#history-table tbody tr').count()).toBe(7);

    // The round's end refreshed the rest of the page.
    await page.locator('#rounds-table tbody tr', { hasText: 'done' }).first().waitFor();
    await page.locator('#status-rank-version', { hasText: '1' }).waitFor();
  });

  it('fills the divergence table once an estimate exists', async () => {
    const rows = page.locator('#divergence-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);
    expect(await page.locator('#divergence-empty').isHidden()).toBe(true);
    const first = rows.first();
    expect(await first.locator('a').getAttribute('href')).toMatch(/^http:\/\/www\.northfield-university\.edu\//);
    const cells = await first.locator('td').allInnerTexts();
    expect(cells[4]).toMatch(/×\d/);
    await page.selectOption('#divergence-limit', '10');
    await page.waitForFunction(() => document.querySelectorAll('#divergence-table tbody tr').length === 10);
  });

  it('draws the estimate over rounds: a round continuing from the last, then one started over', async () => {
    await page.fill('#iterations', '3');
    await page.fill('#pages-per-iteration', '10');
    await page.click('#start-round');
    await page.locator('#round-state.badge-done').waitFor({ timeout: 60_000 });
    await page.check('#fresh-round');
    await page.click('#start-round');
    await page.locator('#round-state.badge-done').waitFor({ timeout: 60_000 });
    await page.uncheck('#fresh-round');
    // Three finished rounds: the second continued (a change since the first), the third started over.
    const history = page.locator('#rounds-history svg');
    await page.waitForFunction(() => document.querySelectorAll('#rounds-history .series-truth rect').length === 3);
    expect(await history.locator('.series-change circle').count()).toBe(2);
    expect(await history.locator('.chart-tick-labels text:not(.minor)').allTextContents()).toEqual(expect.arrayContaining(['1', '2', '3*']));
    expect(await history.locator('desc').textContent()).toMatch(/3 finished rounds; the last has \d+ global pages in the supergraph, error to the true PageRank 0\.\d+/);
    const rounds = await (await fetch(`${site.url}/api/admin/rounds`, { headers: { authorization: `Bearer ${site.token}` } })).json();
    expect(rounds.history.map((r: { fresh: boolean }) => r.fresh)).toEqual([false, false, true]);
    expect(rounds.history[1].crawled).toBeGreaterThan(rounds.history[0].crawled);
    mkdirSync(outputDir, { recursive: true });
    await page.locator('#rounds-history-figure').screenshot({ path: join(outputDir, 'admin-rounds-history.png') });
  });

  it('cancels a long round', async () => {
    await page.fill('#iterations', '500');
    await page.fill('#pages-per-iteration', '2');
    await page.click('#start-round');
    await page.locator('#round-state.badge-running').waitFor();
    await page.waitForFunction(() => /^[1-9]/.test(document.getElementById('stat-iteration')?.textContent ?? ''));
    await page.click('#cancel-round');
    await page.locator('#round-note', { hasText: 'Cancelling' }).or(page.locator('#round-state.badge-cancelled')).first().waitFor();
    await page.locator('#round-state.badge-cancelled').waitFor({ timeout: 30_000 });
    expect(await page.locator('#round-note').innerText()).toBe('');
    const iteration = Number((await page.locator('#stat-iteration').innerText()).split(' ')[0]);
    expect(iteration).toBeGreaterThanOrEqual(1);
    expect(iteration).toBeLessThan(500);
    expect(await page.locator('#start-round').isEnabled()).toBe(true);
    await page.locator('#rounds-table tbody tr', { hasText: 'cancelled' }).first().waitFor();
  });

  it('runs a crawl, a re-crawl from its button and another from its schedule', async () => {
    // The crawl's limit counts every stored page, local and global (the rounds added some).
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/admin/status'));
    await page.click('#refresh-status');
    await refreshed;
    await page.waitForTimeout(100);
    const before = Number((await page.locator('#status-documents').innerText()).replace(/\D/g, ''));
    const totals = await page.locator('#pages-table td.total').allInnerTexts();
    const stored = totals.reduce((sum, text) => sum + Number(text.replace(/\D/g, '')), 0);
    await page.fill('#crawl-max-pages', String(stored + 25));
    await page.click('#start-crawl');
    const crawl = page.locator('#jobs-table tbody tr', { hasText: /^Crawl/ });
    await crawl.locator('.badge-done').waitFor({ timeout: 60_000 });
    const [, fetched] = /(\d+) fetched, [\d,]+ stored in all/.exec(await crawl.innerText()) ?? [];
    expect(Number(fetched)).toBeGreaterThan(0);
    expect(Number(fetched)).toBeLessThanOrEqual(25);
    await page.waitForFunction((count) => Number(document.getElementById('status-documents')!.textContent!.replace(/\D/g, '')) > count, before);

    await page.fill('#recrawl-budget', '40');
    await page.click('#start-recrawl');
    const recrawl = page.locator('#jobs-table tbody tr', { hasText: 'Re-crawl' });
    await recrawl.first().waitFor();
    await page.locator('#jobs-table tbody tr', { hasText: 'visited' }).first().waitFor({ timeout: 60_000 });
    expect(await recrawl.first().innerText()).toMatch(/done[\s\S]*40 visited/);

    await page.getByRole('button', { name: 'Run now: the re-crawl schedule' }).click();
    await page.locator('#schedules-message', { hasText: /Started re-crawl job recrawl-/ }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#jobs-table tbody tr .badge-done').length === 3, undefined, { timeout: 60_000 });
    // The schedule's row now tells when it last fired.
    await page.click('#refresh-status');
    await page.locator('#schedules-table tbody tr', { hasText: 'Re-crawl' }).locator('code', { hasText: /^recrawl-/ }).waitFor();
  });

  it('is usable from the keyboard, with a visible focus', async () => {
    await page.focus('#iterations');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('budget-per-iteration');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
  });

  it('looks right (screenshots in test-output/)', async () => {
    mkdirSync(outputDir, { recursive: true });
    // Show the six-iteration round: the more telling chart.
    await page.locator('#rounds-table tbody tr', { hasText: '6 / 6' }).getByRole('button', { name: /^Show round/ }).click();
    await page.locator('#stat-iteration', { hasText: '6 of 6' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('round-title');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(outputDir, 'admin-page.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(outputDir, 'admin-page-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(outputDir, 'admin-page-mobile.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });

  it('signs out and forgets the token', async () => {
    await page.click('#sign-out');
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    expect(await dashboard().isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('lse-admin-token'))).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token');
  });
});
