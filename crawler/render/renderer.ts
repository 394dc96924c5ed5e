/**
 * Rendering pages built by scripts, in headless Chromium (playwright-core with the system
 * chromium). Off by default. Every request the page makes is answered by the crawl's own
 * fetcher, after the crawl's checks — scope, robots.txt, the URL rules — so the browser reaches
 * nothing the crawler itself would not (private addresses and resolve pins included: Chromium
 * never opens a connection of its own). The page's HTML, already fetched, is served to it as is.
 * Bounded concurrency; each page gets a timeout, and each renderer process a V8 heap cap.
 */
import type { Browser, Route } from 'playwright-core';
import type { Fetcher } from '../fetcher.ts';
import { Semaphore } from '../semaphore.ts';

/** May the page load this URL (scope, robots, URL rules)? */
export type LoadCheck = (url: string) => Promise<boolean>;

export interface RendererOptions {
  fetcher: Fetcher;
  executablePath: string;
  concurrency: number;
  timeoutMs: number;
  /** V8 heap of each renderer process, in MB. */
  memoryMb: number;
}

export class RenderError extends Error {
  readonly code = 'ELSE_RENDER';
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

export class PageRenderer {
  #browser: Promise<Browser> | undefined;
  readonly #slots: Semaphore;

  constructor(private readonly options: RendererOptions) {
    this.#slots = new Semaphore(options.concurrency);
  }

  /** The DOM after the page's scripts ran (serialised), for a page whose HTML is `html`. */
  async render(url: string, html: string, mayLoad: LoadCheck, signal?: AbortSignal): Promise<string> {
    const release = await this.#slots.acquire(signal);
    try {
      const browser = await this.#launch();
      const context = await browser.newContext({ javaScriptEnabled: true, serviceWorkers: 'block', acceptDownloads: false });
      try {
        await context.route('**/*', (route) => this.#answer(route, url, html, mayLoad));
        const page = await context.newPage();
        const timeout = this.options.timeoutMs;
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RenderError(`rendering took longer than ${timeout} ms`)), timeout);
        });
        try {
          return await Promise.race([
            (async () => {
              await page.goto(url, { waitUntil: 'load', timeout });
              // Scripts that fetch their content after load: wait until the network is quiet (bounded).
              await page.waitForLoadState('networkidle', { timeout: Math.max(500, timeout / 2) }).catch(() => {});
              return page.content();
            })(),
            deadline,
          ]);
        } finally {
          clearTimeout(timer);
        }
      } finally {
        await context.close().catch(() => {});
      }
    } catch (error) {
      if (error instanceof RenderError) throw error;
      throw new RenderError(`rendering failed: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const browser = this.#browser;
    this.#browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }

  #launch(): Promise<Browser> {
    // Loaded on first use: a crawl without rendering never pays for playwright.
    this.#browser ??= import('playwright-core').then(({ chromium }) =>
      chromium.launch({
        executablePath: this.options.executablePath,
        headless: true,
        args: [`--js-flags=--max-old-space-size=${this.options.memoryMb}`, '--disable-gpu', '--no-first-run'],
      }),
    );
    return this.#browser;
  }

  /** Every request of the page: the page itself from the crawl, the rest through the crawl's checks and fetcher. */
  async #answer(route: Route, pageUrl: string, html: string, mayLoad: LoadCheck): Promise<void> {
    const request = route.request();
    const target = request.url().split('#')[0];
    if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
      if (target === pageUrl) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      return route.abort('blockedbyclient');
    }
    if (request.method() !== 'GET' || !/^https?:/.test(target) || !(await mayLoad(target))) return route.abort('blockedbyclient');
    const result = await this.options.fetcher.fetch(target, {
      accept: 'any',
      onRedirect: async (hop) => ((await mayLoad(hop.to)) ? { follow: true } : { follow: false, reason: 'outside the crawl' }),
    });
    if (!result.ok || result.body === null) return route.abort('failed');
    await route.fulfill({ status: result.status, contentType: result.headers.contentType ?? 'application/octet-stream', body: result.body });
  }
}
