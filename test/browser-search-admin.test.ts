/**
 * The search experience's admin side and accessibility in headless Chromium, on the served demo
 * university site: the analytics panel after a few searches, a best bet set on the admin page and
 * shown first on the search page, removing and inspecting a URL, and axe-core on both pages (no
 * serious or critical violation). Screenshots in test-output/.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdminSite, type AdminSite } from './helpers/admin-site.ts';
import { hasChromium, launchChromium } from './helpers/chromium.ts';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core in the page; the serious and critical violations, described. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!hasChromium)(`the search admin panels in Chromium${hasChromium ? '' : ' (skipped: no chromium)'}`, () => {
  let site: AdminSite;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    site = await buildAdminSite({ pages: 150 });
    browser = await launchChromium();
    // The CSP allows only the site's own scripts: axe-core is injected past it (bypassCSP) in this test only.
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('passes axe-core on the search page with results, chips and suggestions', async () => {
    await page.goto(`${site.url}/?q=telescope`);
    await page.locator('#result-list > li.result').first().waitFor();
    await page.locator('#q').fill('');
    await page.locator('#q').pressSequentially('tele', { delay: 20 });
    await page.locator('#suggestions [role="option"]').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the searches in the analytics panel, with a chart over the days', async () => {
    for (const q of ['telescope', 'Telescope', 'telescope', 'library hours', 'qqqzzz']) {
      const response = await page.request.get(`${site.url}/api/search?q=${encodeURIComponent(q)}`);
      expect(response.status()).toBe(200);
    }
    await page.goto(`${site.url}/admin`);
    await page.fill('#token', site.token);
    await page.press('#token', 'Enter');
    await page.locator('#dashboard').waitFor();
    await page.locator('#top-queries tbody tr', { hasText: 'telescope' }).first().waitFor();
    // The first search of the previous test counted too (it was answered).
    const telescope = await page.locator('#top-queries tbody tr').first().locator('td').allInnerTexts();
    expect(telescope[0]).toBe('telescope');
    expect(Number(telescope[1])).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#zero-queries tbody tr').first().locator('td').first().innerText()).toBe('qqqzzz');
    expect(Number(await page.locator('#analytics-searches').innerText())).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#analytics-chart svg rect.bar-searches').count()).toBe(30);
    expect(await page.locator('#analytics-chart svg desc').textContent()).toMatch(/searches from \d{4}-\d{2}-\d{2} to/);
    mkdirSync(outputDir, { recursive: true });
    await page.locator('.area-analytics').screenshot({ path: join(outputDir, 'admin-analytics.png') });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sets a best bet on the admin page; the search page shows it first, marked', async () => {
    const pinned = 'http://www.northfield-university.edu/';
    await page.fill('#best-bets', `telescope => ${pinned}`);
    await page.fill('#synonyms', 'scope, telescope');
    await page.click('#save-search-settings');
    await page.locator('#search-settings-note', { hasText: 'Saved: 1 best bets, 1 synonym sets' }).waitFor();
    const search = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await search.goto(`${site.url}/?q=telescope`);
    await search.locator('#result-list > li.result').first().waitFor();
    const first = search.locator('#result-list > li.result').first();
    expect(await first.locator('.recommended-badge').innerText()).toMatch(/recommended/i);
    expect(await first.locator('.result-title a').getAttribute('href')).toBe(pinned);
    expect(await search.locator('.recommended-badge').count()).toBe(1);
    await search.close();
  });

  it('inspects a URL, removes it from results, lifts the removal', async () => {
    const url = 'http://www.northfield-university.edu/';
    await page.fill('#inspect-url', url);
    await page.click('#inspect-button');
    await page.locator('#inspection dd', { hasText: 'yes' }).first().waitFor();
    expect(await page.locator('#inspection').innerText()).toMatch(/In the results\s+yes/);
    expect(await page.locator('#inspection').innerText()).toMatch(/local-current v\d+|local v\d+/);
    await page.click('#remove-button');
    await page.locator('#removed-table tbody tr', { hasText: url }).waitFor();
    await page.locator('#inspection', { hasText: /Removed by an admin\s*yes/ }).waitFor();
    const response = await page.request.get(`${site.url}/api/search?q=northfield&size=50`);
    expect((await response.json()).hits.map((hit: { url: string }) => hit.url)).not.toContain(url);
    await page.getByRole('button', { name: `Lift: put ${url} back in results` }).click();
    await page.locator('#removed-table tbody tr', { hasText: 'No URL is removed.' }).waitFor();
    expect(problems).toEqual([]);
  });
});
