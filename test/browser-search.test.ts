/**
 * The search page end to end: headless Chromium (playwright-core) against a real search site on
 * 127.0.0.1 (the demo web crawled, estimated and indexed). Skipped, with a message, where Debian's
 * chromium is not installed; .ci/run installs it, so CI runs these.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOCAL_HOST } from '../crawler/demo-web/generate.ts';
import { buildDemoSearchSite, type DemoSearchSite } from './helpers/demo-search-site.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');

if (!hasChromium) console.warn(`browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium; .ci/run does it)`);

describe.skipIf(!hasChromium)(`the search page in Chromium${hasChromium ? '' : ` (skipped: ${CHROMIUM} not found)`}`, () => {
  let site: DemoSearchSite;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    site = await buildDemoSearchSite({ listen: true });
    base = site.url!;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  interface Watched {
    page: Page;
    /** Dialogs (alert, confirm…) the page opened: the hostile page must never open one. */
    dialogs: string[];
    /** Uncaught errors, console errors and CSP violations. */
    problems: string[];
  }

  /** A fresh page in a fresh context, watched for dialogs and errors. */
  async function openPage(path: string, options: BrowserContextOptions = {}): Promise<Watched> {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, ...options });
    const page = await context.newPage();
    const dialogs: string[] = [];
    const problems: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${base}${path}`);
    return { page, dialogs, problems };
  }

  async function closePage({ page }: Watched) {
    await page.context().close();
  }

  async function waitForResults(page: Page) {
    await page.locator('#result-list > li.result').first().waitFor();
    await page.waitForFunction(() => document.getElementById('results')?.getAttribute('aria-busy') !== 'true');
  }

  const titlesOf = (page: Page) => page.locator('.result-title a').allTextContents();

  it('opens with the search box focused, an empty state with the site\'s own words, and the ranking behind a disclosure', async () => {
    const watched = await openPage('/');
    const { page } = watched;
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await expect.poll(() => page.locator('.message-empty').isVisible()).toBe(true);
    // The demo's settings name its placeholder and examples (server/cli/demo-command.ts).
    await expect.poll(() => page.locator('.message-empty a').allTextContents()).toEqual(['telescope', 'admissions', 'library hours', 'scholarship']);
    expect(await page.locator('#q').getAttribute('placeholder')).toBe('telescope, admissions, library hours…');
    // Ranking internals are closed: no "Rank by" menu in sight until the visitor asks.
    expect(await page.locator('#rank').isVisible()).toBe(false);
    await page.locator('#ranking summary').click();
    expect(await page.locator('#rank').isVisible()).toBe(true);
    // The round fetched pages outside the site: the note says so, with their number.
    expect(await page.locator('#ranking-note').textContent()).toMatch(/links of this site and of [\d,]+ pages outside it/);
    expect(await page.locator('form[role="search"] label[for="q"]').textContent()).toMatch(/Search/);
    expect(await page.title()).toBe('Northfield University search');
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('searches on Enter, shows results, the count and the time, and puts the query in the URL', async () => {
    const watched = await openPage('/');
    const { page } = watched;
    await page.locator('#q').fill('telescope');
    await page.keyboard.press('Enter');
    await waitForResults(page);
    expect(new URL(page.url()).search).toBe('?q=telescope&page=1&rank=blend');
    expect(await page.locator('#status').textContent()).toMatch(/^\d+ results in (\d+|< 1) ms · page 1 of \d+$/);
    expect(await page.locator('#status').getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('#result-list > li').count()).toBe(10);
    const first = page.locator('.result').first();
    expect(new URL((await first.locator('.result-title a').getAttribute('href'))!).host).toBe(DEMO_LOCAL_HOST);
    expect(await first.locator('.result-host').textContent()).toBe(DEMO_LOCAL_HOST);
    expect(await first.locator('.result-url').textContent()).toMatch(/^http:\/\/www\.northfield-university\.edu\//);
    expect((await first.locator('.result-snippet mark').allTextContents()).join(' ')).toMatch(/telescope/i);
    expect(await page.title()).toBe('telescope – Northfield University search');
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('goes to page 2, and back and forward through the history', async () => {
    const watched = await openPage('/?q=telescope&page=1&rank=blend');
    const { page } = watched;
    await waitForResults(page);
    const page1 = await titlesOf(page);
    await page.locator('#pagination a', { hasText: /^2$/ }).click();
    await page.waitForURL(/page=2/);
    await waitForResults(page);
    const page2 = await titlesOf(page);
    expect(page2).toHaveLength(10);
    expect(page2.filter((title) => page1.includes(title))).toEqual([]);
    expect(await page.locator('#pagination [aria-current="page"]').textContent()).toBe('2');
    expect(await page.locator('#result-list').getAttribute('start')).toBe('11');
    expect(await page.locator('#status').textContent()).toMatch(/page 2 of/);

    await page.locator('#pagination a[rel="next"]').click();
    await page.waitForURL(/page=3/);
    await waitForResults(page);

    await page.goBack();
    await page.waitForURL(/page=2/);
    await expect.poll(() => titlesOf(page)).toEqual(page2);
    await page.goBack();
    await page.waitForURL(/page=1/);
    await expect.poll(() => titlesOf(page)).toEqual(page1);
    await page.goForward();
    await page.waitForURL(/page=2/);
    await expect.poll(() => titlesOf(page)).toEqual(page2);
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('explains a rank on demand: text score, global and local PageRank, blend weight, matched terms', async () => {
    const watched = await openPage('/?q=telescope&page=1&rank=blend');
    const { page } = watched;
    await waitForResults(page);
    const why = page.locator('.result').first().locator('details.why');
    expect(await why.locator('.why-body').isVisible()).toBe(false);
    await why.locator('summary', { hasText: 'Why this rank?' }).click();
    expect(await why.getAttribute('open')).not.toBeNull();
    const text = (await why.locator('.why-body').innerText()).replace(/\s+/g, ' ');
    for (const part of ['Text score', 'Global PageRank estimate', 'Local PageRank', 'Blend weight', 'Matched terms', 'telescop']) expect(text).toContain(part);
    expect(text).toMatch(/Score = 0\.7 × text [\d.]+ \+ 0\.3 × global PageRank [\d.]+ = [\d.]+/);
    expect(text).toMatch(/× 10\s?−\d/);
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('changes the ordering with the ranking selector and keeps it in a shareable URL', async () => {
    const watched = await openPage('/?q=telescope&page=2&rank=blend');
    const { page } = watched;
    await waitForResults(page);
    await page.locator('#ranking summary').click();
    await page.locator('#rank').selectOption('global');
    await page.waitForURL(/rank=global/);
    expect(new URL(page.url()).searchParams.get('page')).toBe('1');
    await waitForResults(page);
    // The home page has the highest PageRank of the site.
    await expect.poll(async () => (await titlesOf(page))[0]).toBe('Northfield University');
    const ordered = await titlesOf(page);
    await page.reload();
    await waitForResults(page);
    expect(await page.locator('#rank').inputValue()).toBe('global');
    // A shared link with another order shows the menu that chose it.
    expect(await page.locator('#rank').isVisible()).toBe(true);
    expect(await page.locator('#q').inputValue()).toBe('telescope');
    expect(await titlesOf(page)).toEqual(ordered);
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('shows the hostile page as text: its <script> never runs', async () => {
    const watched = await openPage('/');
    const { page } = watched;
    await page.evaluate(() => Object.assign(window, { untouched: 'yes' }));
    await page.locator('#q').fill('script alert');
    await page.keyboard.press('Enter');
    await waitForResults(page);
    const hit = page.locator('.result', { has: page.locator(`a[href="${site.web.landmarks.scriptEscaping}"]`) });
    expect(await hit.count()).toBe(1);
    expect(await hit.locator('.result-title a').textContent()).toContain('<script>alert(1)</script>');
    expect(await hit.locator('.result-snippet').textContent()).toContain('<script>alert(1)</script>');
    expect(await hit.locator('.result-snippet mark').count()).toBeGreaterThan(0);
    // Only the page's own script, and no element made from page text.
    expect(await page.evaluate(() => Array.from(document.scripts, (s) => s.getAttribute('src')))).toEqual(['/search.js']);
    expect(await page.locator('#results b, #results script, #results style').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(watched.dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { untouched?: string }).untouched)).toBe('yes');
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });

  it('shows the API message for a query it cannot understand (400)', async () => {
    const watched = await openPage('/?q=title%3A&page=1&rank=blend');
    const { page } = watched;
    const error = page.locator('.message-error');
    await error.waitFor();
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.textContent()).toContain('expecting term, found nothing');
    expect(await page.locator('#result-list > li').count()).toBe(0);
    // The failed request is the only console error Chromium reports (a 400 response).
    expect(watched.problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await closePage(watched);
  });

  it('says what it searched for when a word was misspelt', async () => {
    const watched = await openPage('/?q=telescpoe');
    const { page } = watched;
    await waitForResults(page);
    expect(await page.locator('#status').textContent()).toMatch(/ · Showing results for “telescopes?”$/);
    expect(await page.locator('.result mark').first().textContent()).toMatch(/^[Tt]elescopes?$/);
    await closePage(watched);
  });

  it('shows a no-results state with hints', async () => {
    const watched = await openPage('/?q=xylophonequark');
    const { page } = watched;
    const message = page.locator('.message-no-results');
    await message.waitFor();
    expect(await message.textContent()).toContain('No pages match “xylophonequark”');
    expect(await message.locator('a').count()).toBeGreaterThan(0);
    expect(await page.locator('#status').textContent()).toMatch(/^0 results in/);
    await closePage(watched);
  });

  it('shows a network error with a way to try again', async () => {
    const watched = await openPage('/');
    const { page } = watched;
    let failing = true;
    await page.route('**/api/search**', (route) => (failing ? route.abort('connectionrefused') : route.continue()));
    await page.locator('#q').fill('telescope');
    await page.keyboard.press('Enter');
    const error = page.locator('.message-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('could not be reached');
    failing = false;
    await error.locator('button', { hasText: 'Try again' }).click();
    await waitForResults(page);
    expect(await page.locator('.message-error').count()).toBe(0);
    await closePage(watched);
  });

  it('is keyboard usable: Tab reaches the results with a visible focus, "/" returns to the box', async () => {
    const watched = await openPage('/?q=telescope&page=1&rank=blend');
    const { page } = watched;
    await waitForResults(page);
    let reached = false;
    for (let i = 0; i < 15 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.matches('.result-title a') ?? false);
    }
    expect(reached).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    // Then the explanation toggle of the same result, opened with the keyboard.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    await page.keyboard.press('Enter');
    expect(await page.locator('.result').first().locator('details[open]').count()).toBe(1);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    // Typed into the box, "/" is just a character.
    await page.keyboard.press('End');
    await page.keyboard.type('/');
    expect(await page.locator('#q').inputValue()).toBe('telescope/');
    await closePage(watched);
  });

  it('fits a 360-pixel phone without horizontal scrolling, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const watched = await openPage('/?q=telescope&page=2&rank=blend', { viewport: { width: 360, height: 740 }, colorScheme, isMobile: true, hasTouch: true });
      const { page } = watched;
      await waitForResults(page);
      await page.locator('.result').first().locator('summary').click();
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      expect(widths.client).toBe(360);
      mkdirSync(outputDir, { recursive: true });
      await page.screenshot({ path: join(outputDir, `search-page-phone-${colorScheme}.png`) });
      await closePage(watched);
    }
  });

  it('saves a screenshot of a results page (test-output/search-page.png)', async () => {
    const watched = await openPage('/?q=telescope&page=1&rank=blend', { viewport: { width: 1280, height: 1000 } });
    const { page } = watched;
    await waitForResults(page);
    await page.locator('.result').nth(1).locator('summary').click();
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-page.png') });
    expect(existsSync(join(outputDir, 'search-page.png'))).toBe(true);
    expect(watched.problems).toEqual([]);
    await closePage(watched);
  });
});
