/**
 * Fetching a given list of URLs politely and storing them: what an estimation round asks of the
 * crawler ("fetch these frontier pages, give me their links"). Same rules as the crawl loop:
 * the host gate spaces requests per host, robots.txt takes its own slot, 429/503 back off and
 * retry, every outcome goes through the recorder.
 */
import { setMaxListeners } from 'node:events';
import type { CrawlStore, PageRole } from '../indexer/store/crawl-store.ts';
import { causeOf, type CrawlDiagnosis } from './crawl-diagnosis.ts';
import { hostOf, type CrawlRecorder, type Recorded } from './crawl-recorder.ts';
import type { PageFetcher } from './page-fetch.ts';
import { fetchInSlot } from './polite-page.ts';
import { storedWithAllTranslations } from './page-language-fields.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';

export interface BatchFetchDeps {
  store: CrawlStore;
  pageFetcher: PageFetcher;
  robots: RobotsPolicy;
  gate: PoliteGate;
  recorder: CrawlRecorder;
}

export interface BatchFetchOptions {
  concurrency: number;
  signal?: AbortSignal;
  /** Where redirects may lead (`true` or the reason not to). Default: anywhere. */
  mayFollow?: (url: string) => true | string;
  /** Role recorded for outcomes without content (default global: estimation rounds). */
  role?: PageRole;
  /** Revisits: send the stored ETag / Last-Modified (304 = unchanged). */
  conditional?: boolean;
  /** Collects why pages were not stored, per host. */
  diagnosis?: CrawlDiagnosis;
  now?: () => number;
  /** Translations a sitemap names for a page (re-crawls), stored with it. */
  sitemapAlternatesOf?: (url: string) => ReadonlyArray<{ url: string; hreflang: string }> | undefined;
}


/** Fetches and records every URL (ids must exist in the store); returns what was recorded per URL. */
export async function fetchAndRecord(deps: BatchFetchDeps, urls: readonly string[], options: BatchFetchOptions): Promise<Map<string, Recorded>> {
  const { store, pageFetcher, robots, gate, recorder } = deps;
  const now = options.now ?? Date.now;
  if (options.signal) setMaxListeners(Math.max(16, 2 * options.concurrency + 8), options.signal);
  const results = new Map<string, Recorded>();
  const queues = new Map<string, string[]>();
  const retries = new Map<string, { count: number }>();
  const enqueue = (url: string, front = false) => {
    const host = hostOf(url);
    let queue = queues.get(host);
    if (!queue) queues.set(host, (queue = []));
    if (front) queue.unshift(url);
    else queue.push(url);
    gate.add(host);
  };
  const ids = new Map<string, number>();
  const idBatch = store.batch();
  for (const url of new Set(urls)) {
    ids.set(url, idBatch.idFor(url));
    enqueue(url);
  }
  await idBatch.commit();

  const fetchOne = async (url: string): Promise<void> => {
    const host = hostOf(url);
    const id = ids.get(url)!;
    const previous = await store.getPage(id);
    const validators = options.conditional && previous && storedWithAllTranslations(previous) ? { etag: previous.etag, lastModified: previous.lastModified } : {};
    let attempts = retries.get(url);
    if (!attempts) retries.set(url, (attempts = { count: 0 }));
    const slot = await fetchInSlot({ robots, gate, pageFetcher }, url, host, attempts, { mayFollow: options.mayFollow, signal: options.signal, ...validators });
    if (slot.kind === 'aborted') return;
    if (slot.kind === 'requeue') return enqueue(url, true);
    const outcome = slot.outcome;
    const cause = options.diagnosis ? causeOf(outcome, robots.peek(new URL(url).origin)) : undefined;
    if (cause) options.diagnosis!.add(host, url, cause);
    const sitemapAlternates = options.sitemapAlternatesOf?.(url);
    results.set(url, recorder.record(outcome, { id, depth: previous?.depth ?? 0, role: options.role ?? 'global', previous, now: now(), ...(sitemapAlternates ? { sitemapAlternates } : {}) }));
    await recorder.flush();
  };

  const worker = async () => {
    for (;;) {
      const host = await gate.acquireUnlessAborted(options.signal);
      if (host === null || host === undefined) return;
      const url = queues.get(host)?.shift();
      try {
        if (url !== undefined) await fetchOne(url);
      } finally {
        gate.release(host);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, urls.length)) }, worker));
  await recorder.flush(true);
  options.signal?.throwIfAborted();
  return results;
}
