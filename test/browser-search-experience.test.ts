/**
 * The search experience in headless Chromium on a small multilingual site: filter chips with
 * counts kept in the URL, the visitor's language preselected with one click to all languages,
 * translations as one hit, suggestions chosen with the keyboard, a section link that lands on its
 * heading. Screenshots in test-output/.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMultilingualSite, HANDBOOK_HTML, HANDBOOK_PATH, SITE, type MultilingualSite } from './helpers/multilingual-site.ts';
import { hasChromium, launchChromium } from './helpers/chromium.ts';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');

describe.skipIf(!hasChromium)(`the search experience in Chromium${hasChromium ? '' : ' (skipped: no chromium)'}`, () => {
  let site: MultilingualSite;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    site = await buildMultilingualSite({ listen: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(path: string, options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, locale: 'en-US', ...options });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${site.url}${path}`);
    return page;
  }

  const results = (page: Page) => page.locator('#result-list > li.result');

  it("preselects the visitor's language, shows the others as chips with counts, one click to all", async () => {
    const page = await open('/?q=library', { locale: 'de-DE' });
    await page.waitForURL(/lang=de/);
    await results(page).first().waitFor();
    expect(await results(page).count()).toBe(1);
    const first = results(page).first();
    expect(await first.locator('.result-title a').getAttribute('href')).toBe(`${SITE}/de/library/hours.html`);
    expect(await first.locator('.also-in a').allTextContents()).toEqual(['en', 'fr', 'ja']);
    expect(await first.locator('article').getAttribute('lang')).toBe('de');
    // Language chips count every language although German is chosen.
    const chips = page.locator('#filters [role="group"]', { has: page.locator('#filter-title-lang') }).locator('a.chip');
    expect((await chips.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '))).toEqual(['All languages', 'English 3', 'Deutsch 1', 'Français 1', '日本語 1']);
    expect(await page.locator('#filters a.chip[aria-current="true"]').allInnerTexts()).toEqual([expect.stringMatching(/^Deutsch/)]);

    await page.click('#all-languages');
    await page.waitForURL(/lang=all/);
    await page.waitForFunction(() => document.querySelectorAll('#result-list > li.result').length === 3);
    // Translations stay one hit: three results, the library page in German.
    expect(await page.locator('#status').textContent()).toMatch(/^3 results/);

    await page.locator('#filters a.chip', { hasText: 'PDF' }).click();
    await page.waitForURL(/type=pdf/);
    await page.waitForFunction(() => document.querySelectorAll('#result-list > li.result').length === 1);
    expect(await results(page).first().locator('.result-type').textContent()).toBe('PDF');
    // Back returns to the unfiltered results (the filters live in the URL).
    await page.goBack();
    await page.waitForFunction(() => document.querySelectorAll('#result-list > li.result').length === 3);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-filters.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  /**
   * The site's German library page as a visitor sees it: its language switch, and a search form
   * that sends the visitor to the search page. `referrer` is the page's referrer policy (browsers
   * send only the origin across origins unless the page allows more); `hl` a hidden field.
   */
  function germanPage(referrer: string | null, hl: boolean): string {
    return `<!doctype html><html lang="de"><head><meta charset="utf-8">${referrer ? `<meta name="referrer" content="${referrer}">` : ''}<title>Öffnungszeiten</title></head><body>
<nav aria-label="Sprache"><a href="/en/library/hours.html" hreflang="en">English</a> · <strong>Deutsch</strong> · <a href="/fr/library/hours.html" hreflang="fr">Français</a></nav>
<form action="${site.url}/" method="get" role="search"><input name="q" value="library" aria-label="Suche">${hl ? '<input type="hidden" name="hl" value="de">' : ''}<button>Suchen</button></form>
<main><h1>Northfield Library Öffnungszeiten</h1></main></body></html>`;
  }

  async function searchFromGermanPage(referrer: string | null, hl: boolean): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await context.route(`${SITE}/**`, (route) =>
      new URL(route.request().url()).pathname === '/de/library/hours.html'
        ? route.fulfill({ contentType: 'text/html; charset=utf-8', body: germanPage(referrer, hl) })
        : route.fulfill({ status: 404, body: 'not found' }),
    );
    await page.goto(`${SITE}/de/library/hours.html`);
    await page.click('form[role="search"] button');
    await page.waitForURL(`${site.url}/**`);
    return page;
  }

  it("preselects the language of the site's page the visitor searched from, before the browser's", async () => {
    // A browser in English, on the German page (chosen with the site's language switch).
    const page = await searchFromGermanPage('no-referrer-when-downgrade', false);
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    await page.waitForURL(/lang=de/);
    await results(page).first().waitFor();
    expect(new URL(page.url()).searchParams.get('hl')).toBe('de');
    expect(await results(page).first().locator('.result-title a').getAttribute('href')).toBe(`${SITE}/de/library/hours.html`);
    expect(await page.locator('#filters a.chip[aria-current="true"]').allInnerTexts()).toEqual([expect.stringMatching(/^Deutsch/)]);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-language-from-page.png') });
    // All languages stays one click away, in the URL; the library page is still shown in German.
    await page.click('#all-languages');
    await page.waitForURL(/lang=all/);
    await page.waitForFunction(() => document.querySelectorAll('#result-list > li.result').length === 3);
    expect(new URL(page.url()).searchParams.get('hl')).toBe('de');
    expect(await page.locator('#result-list .result-title a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toContain(`${SITE}/de/library/hours.html`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("takes the site form's hl where the browser sends only the origin, and the browser's language without either", async () => {
    const withHl = await searchFromGermanPage(null, true);
    await withHl.waitForURL(/lang=de/);
    await results(withHl).first().waitFor();
    expect(await withHl.evaluate(() => document.referrer)).toBe(`${SITE}/`);
    await withHl.context().close();
    // Only the origin and no hl: nothing says German, the browser's English is chosen.
    const without = await searchFromGermanPage(null, false);
    await without.waitForURL(/lang=en/);
    await results(without).first().waitFor();
    expect(new URL(without.url()).searchParams.get('hl')).toBeNull();
    expect(problems).toEqual([]);
    await without.context().close();
  });

  it('suggests as the visitor types: arrows, Enter, Escape', async () => {
    const page = await open('/');
    await page.locator('#q').pressSequentially('tele', { delay: 30 });
    const list = page.locator('#suggestions');
    await list.locator('[role="option"]').first().waitFor();
    expect(await page.locator('#q').getAttribute('aria-expanded')).toBe('true');
    expect(await list.locator('[role="option"]').first().textContent()).toBe('telescope');
    expect(await page.locator('#suggestions-status').textContent()).toMatch(/\d+ suggestions?/);
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#q').getAttribute('aria-activedescendant')).toBe('suggestion-0');
    expect(await list.locator('#suggestion-0').getAttribute('aria-selected')).toBe('true');
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-suggestions.png') });
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=telescope/);
    await results(page).first().waitFor();
    expect(await list.isHidden()).toBe(true);

    await page.locator('#q').fill('');
    await page.locator('#q').pressSequentially('libr', { delay: 30 });
    await list.locator('[role="option"]').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await list.isHidden()).toBe(true);
    expect(await page.locator('#q').getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#q').inputValue()).toBe('libr');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('keeps the suggestion chosen when the list refreshes, and forgets it when the visitor types', async () => {
    const page = await open('/');
    // The answer for "tele" is held until the visitor has chosen from the list shown for "tel".
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    await page.route(/\/api\/suggest\?q=tele$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.locator('#q').pressSequentially('tel', { delay: 30 });
    const list = page.locator('#suggestions');
    await list.locator('[role="option"]').first().waitFor();
    const refreshed = page.waitForResponse(/\/api\/suggest\?q=tele$/);
    await page.locator('#q').press('e');
    await page.keyboard.press('ArrowDown');
    const chosen = (await list.locator('#suggestion-0').textContent()) ?? '';
    release();
    await refreshed;
    await page.waitForTimeout(100);
    expect(await list.locator('[aria-selected="true"]').textContent()).toBe(chosen);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`q=${chosen}`));
    await results(page).first().waitFor();
    // Typing after an arrow is typing: Enter searches the box as typed.
    await page.locator('#q').fill('');
    await page.locator('#q').pressSequentially('tele', { delay: 30 });
    await list.locator('[role="option"]').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.locator('#q').press('s');
    expect(await page.locator('#q').getAttribute('aria-activedescendant')).toBeNull();
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=teles(&|$)/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("links a hit on a long page to the section it matched, and the link lands on that heading", async () => {
    const page = await open('/?q=renew&lang=all');
    // The site's pages are served to the browser as the crawler stored them.
    await page.context().route(`${SITE}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      return path === HANDBOOK_PATH ? route.fulfill({ contentType: 'text/html; charset=utf-8', body: HANDBOOK_HTML }) : route.fulfill({ status: 404, body: 'not found' });
    });
    await results(page).first().waitFor();
    const hit = results(page).first();
    expect(await hit.locator('.result-title a').getAttribute('href')).toBe(`${SITE}${HANDBOOK_PATH}`);
    const sectionLink = hit.locator('a.section-link');
    expect(await sectionLink.textContent()).toBe('Renewals');
    expect(await sectionLink.getAttribute('href')).toBe(`${SITE}${HANDBOOK_PATH}#renewals`);
    // The snippet comes from that section.
    expect(await hit.locator('.result-snippet mark').first().textContent()).toMatch(/^renew/i);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'search-section-link.png') });

    const clicksBefore = site.experience.analytics.summary(1).clicks;
    await sectionLink.click();
    await page.waitForURL(`${SITE}${HANDBOOK_PATH}#renewals`);
    await page.waitForFunction(() => window.scrollY > 0);
    const landing = await page.evaluate(() => {
      const heading = document.getElementById('renewals');
      return { scrollY: window.scrollY, headingTop: heading?.getBoundingClientRect().top ?? NaN, text: heading?.textContent };
    });
    expect(landing.text).toBe('Renewals');
    // The heading is at the top of the viewport: the page scrolled to it, far down the page.
    expect(landing.scrollY).toBeGreaterThan(1000);
    expect(Math.abs(landing.headingTop)).toBeLessThan(5);
    await page.screenshot({ path: join(outputDir, 'search-section-landing.png') });
    // The beacon is recorded as a click on the page, although the link carries the heading's fragment.
    await expect.poll(() => site.experience.analytics.summary(1).clicks).toBe(clicksBefore + 1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
