/**
 * How re-crawls treat failed visits, as Nutch and Heritrix do: a page indexed today that fails
 * once (a folder answering 404 during a deployment, a server down for the night) stays in the
 * index until failures on visits at least `dropAfter.days` apart confirm it gone; a page that has
 * left the index is checked again with a doubling back-off, and at once when a sitemap lists it
 * or a seed names it.
 */
import type { RecrawlSettings } from '../../config/schema.ts';
import type { PageFailures, PageRecord } from '../../indexer/store/crawl-store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Is the page in the index (a re-crawl revisits these by change rate)? */
export function isIndexedState(page: PageRecord): boolean {
  return page.state === 'fetched' || page.state === 'not-modified';
}

/** A local page whose last visit failed and that is out of the index: one to check again. */
export function isFailedPage(page: PageRecord): boolean {
  if (page.role !== 'local') return false;
  return page.state === 'gone' || page.state === 'error' || (page.state === 'disallowed' && page.error === 'robots-unreachable');
}

/** Failures on enough visits, far enough apart, to take the page out of the index. */
export function confirmedGone(failing: PageFailures, settings: RecrawlSettings): boolean {
  return failing.count >= settings.dropAfter.failures && failing.lastAt - failing.since >= settings.dropAfter.days * DAY;
}

/**
 * The recorder's `failedVisit` for re-crawls: counts the failure, and keeps an indexed page as
 * it was (with the failure noted) until the failures confirm it gone.
 */
export function failedVisitPolicy(settings: RecrawlSettings): (failure: PageRecord, previous: PageRecord | undefined) => PageRecord {
  return (failure, previous) => {
    const prior = previous?.failing;
    const failing: PageFailures = {
      since: prior?.since ?? failure.fetchedAt,
      lastAt: failure.fetchedAt,
      count: (prior?.count ?? 0) + 1,
      status: failure.status,
      ...(failure.error !== undefined ? { error: failure.error } : {}),
    };
    if (previous && isIndexedState(previous) && !confirmedGone(failing, settings)) return { ...previous, failing };
    return { ...failure, failing };
  };
}

/**
 * When a page should be visited again because of its failures, or undefined when it has none:
 * an indexed page that failed is visited again once the confirming visit may drop it; a page out
 * of the index after as long as it has been failing (at least `retryAfterHours`, at most
 * `maxRetryDays`), so the waits double from one check to the next.
 */
export function retryDueAt(page: PageRecord, settings: RecrawlSettings): number | undefined {
  if (isIndexedState(page)) {
    if (!page.failing) return undefined;
    const spacing = settings.dropAfter.failures > 1 ? (settings.dropAfter.days * DAY) / (settings.dropAfter.failures - 1) : 0;
    return page.failing.lastAt + spacing;
  }
  if (!isFailedPage(page)) return undefined;
  const failingFor = page.failing ? page.failing.lastAt - page.failing.since : 0;
  const backoff = Math.min(settings.maxRetryDays * DAY, Math.max(settings.retryAfterHours * HOUR, failingFor));
  return page.fetchedAt + backoff;
}
