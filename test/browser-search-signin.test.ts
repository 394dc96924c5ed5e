/**
 * The search page of an index holding pages fetched with credentials, in headless Chromium: the
 * search answers 401, the page shows a sign-in form in place of results, a wrong token is
 * refused, the right one signs in and the same search shows its results.
 * Skipped, with a message, where /usr/bin/chromium is not installed.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_TOKEN, crawlAndServe, startPrivateSite, type Served } from './helpers/private-site.ts';
import { hasChromium, launchChromium, CHROMIUM } from './helpers/chromium.ts';

if (!hasChromium) console.warn(`search sign-in browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');

describe.skipIf(!hasChromium)('signing in on the search page', () => {
  let site: Awaited<ReturnType<typeof startPrivateSite>>;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    site = await startPrivateSite();
    served = await crawlAndServe(site.port, 'intranet.test', true);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    site?.close();
  });

  it('shows a sign-in form instead of results, then the results once signed in', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${served.serving.url}/?q=holiday`);
    const form = page.locator('#message form.signin-form');
    await form.waitFor();
    expect(await page.locator('#message').textContent()).toContain('this search covers pages that are not public: sign in with the search token');
    expect(await page.locator('#results').textContent()).not.toContain('holiday allowance');
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-signin.png') });

    await page.fill('#signin-token', 'not-the-search-token-at-all');
    await page.click('.signin-form button[type=submit]');
    await page.locator('.signin-form [role=alert]', { hasText: 'That is not the search token.' }).waitFor();

    await page.fill('#signin-token', SEARCH_TOKEN);
    await page.click('.signin-form button[type=submit]');
    await page.locator('#results a[href="http://intranet.test/"]').first().waitFor();
    expect(await page.locator('#message form.signin-form').count()).toBe(0);
    // The session is a cookie the script cannot read; reloading keeps the searcher signed in.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await page.reload();
    await page.locator('#results a[href="http://intranet.test/"]').first().waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
