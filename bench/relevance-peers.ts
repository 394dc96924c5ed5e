/**
 * The peers of the relevance benchmark, on the same served pages, in headless Chromium:
 * - the site's own search: Sphinx's `search.html` with its `searchtools.js` and `searchindex.js`,
 *   queried through `Search.query` (the ranking the page shows, without the summaries it fetches);
 * - Pagefind (npm `pagefind`, its native indexer) built over the HTML of the pages lse indexed, and
 *   queried through its browser API (`/pagefind/pagefind.js`) with its default settings.
 * A peer that cannot run here (no Chromium, no pagefind package) is skipped with the reason.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SiteServer, DocSite } from './relevance-sites.ts';
import { siteUrl } from './relevance-sites.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

export interface Peers {
  browser: Browser | undefined;
  /** Why the browser peers do not run, when they do not. */
  browserMissing?: string;
  close(): Promise<void>;
}

export async function startPeers(port: number): Promise<Peers> {
  if (!existsSync(CHROMIUM)) return { browser: undefined, browserMissing: `${CHROMIUM} not found`, close: async () => {} };
  const { chromium } = await import('playwright-core');
  // Every site host goes to the loopback server, as the crawler's resolve pins send it.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.test 127.0.0.1:${port}`] });
  return { browser, close: () => browser.close() };
}

/** Runs `query` for each query on one page opened at `url`, collecting the top-10 URLs. */
async function onPage(browser: Browser, url: string, ready: (page: Page) => Promise<void>, query: (page: Page, q: string) => Promise<string[]>, queries: readonly string[]): Promise<string[][]> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await ready(page);
    const ranked: string[][] = [];
    for (const q of queries) ranked.push(await query(page, q));
    return ranked;
  } finally {
    await page.close();
  }
}

/** The site's own Sphinx search: top-10 result URLs per query, absolute. */
export async function sphinxSearchTop10(browser: Browser, site: DocSite, queries: readonly string[]): Promise<string[][]> {
  return onPage(
    browser,
    siteUrl(site, site.sphinxSearch!),
    async (page) => {
      await page.waitForFunction('typeof Search !== "undefined" && Search.hasIndex()', undefined, { timeout: 60_000 });
    },
    (page, q) =>
      page.evaluate((query) => {
        // The page shows one result every 5 ms and fetches each page for a summary: both are
        // presentation, so the summaries are off and the display queue runs at once, in order.
        // Top-level `const`s of the page's scripts: global bindings, not properties of window.
        const pageGlobals = new Function('return { Search, DOCUMENTATION_OPTIONS }')() as { Search: { performSearch(q: string): void }; DOCUMENTATION_OPTIONS: Record<string, unknown> };
        pageGlobals.DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
        const queued: Array<() => void> = [];
        const original = window.setTimeout;
        (window as unknown as { setTimeout: unknown }).setTimeout = (fn: () => void, ms?: number) => (ms === 5 ? queued.push(fn) : original(fn, ms));
        const out = document.getElementById('search-results')!;
        out.innerHTML = '';
        try {
          pageGlobals.Search.performSearch(query);
          while (queued.length > 0) queued.shift()!();
        } finally {
          window.setTimeout = original;
        }
        return Array.from(out.querySelectorAll('ul.search > li > a'))
          .slice(0, 10)
          .map((a) => (a as HTMLAnchorElement).href);
      }, q),
    queries,
  );
}

/** Whether the pagefind package (and its native binary) can be loaded; the reason when not. */
export async function pagefindAvailable(): Promise<string | undefined> {
  try {
    await import('pagefind');
    return undefined;
  } catch (error) {
    return `npm package pagefind cannot be loaded (${(error as Error).message.split('\n')[0]})`;
  }
}

/**
 * Builds a Pagefind index of the given site paths (the pages lse indexed) and mounts it at
 * `/pagefind/` on the site's host. Returns a cleanup.
 */
export async function buildPagefind(site: DocSite, paths: readonly string[], server: SiteServer): Promise<{ pages: number; seconds: number; remove(): void }> {
  const pagefind = await import('pagefind');
  const started = performance.now();
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
  let pages = 0;
  for (const path of paths) {
    if (!path.endsWith('.html')) continue;
    const file = join(site.root, path);
    if (!existsSync(file)) continue;
    const added = await index.addHTMLFile({ url: path, content: readFileSync(file, 'utf8') });
    if (added.errors.length === 0) pages++;
  }
  const out = mkdtempSync(join(tmpdir(), `lse-relevance-pagefind-${site.name}-`));
  const written = await index.writeFiles({ outputPath: out });
  if (written.errors.length > 0) throw new Error(`pagefind: ${written.errors.join('; ')}`);
  await index.deleteIndex();
  server.mount(site.host, '/pagefind/', out);
  return { pages, seconds: (performance.now() - started) / 1000, remove: () => rmSync(out, { recursive: true, force: true }) };
}

/** Pagefind's top-10 result URLs per query, absolute. */
export async function pagefindTop10(browser: Browser, site: DocSite, queries: readonly string[]): Promise<string[][]> {
  return onPage(
    browser,
    siteUrl(site, site.seedPath),
    async (page) => {
      await page.evaluate(async () => {
        const pagefind = await import('/pagefind/pagefind.js' as string);
        await pagefind.init();
        (globalThis as unknown as { lsePagefind: unknown }).lsePagefind = pagefind;
      });
    },
    (page, q) =>
      page.evaluate(async (query) => {
        const pagefind = (globalThis as unknown as { lsePagefind: { search(q: string): Promise<{ results: Array<{ data(): Promise<{ url: string }> }> } | null> } }).lsePagefind;
        const found = await pagefind.search(query);
        if (!found) return [];
        const top = await Promise.all(found.results.slice(0, 10).map((result) => result.data()));
        return top.map((data) => new URL(data.url, location.href).href);
      }, q),
    queries,
  );
}
