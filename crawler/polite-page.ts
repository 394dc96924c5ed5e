/**
 * One politeness slot of a host, as the crawl loop and the batch fetch both use it: robots.txt
 * first when it is not cached (it is a request to the host too, so it takes the slot and the page
 * waits for the next), then the page, with 429/503 answered by a back-off and a later retry.
 */
import type { PageFetcher, PageFetchOptions, PageOutcome } from './page-fetch.ts';
import type { PoliteGate } from './politeness.ts';
import type { RobotsPolicy } from './robots.ts';

const MAX_RETRIES = 3;

export type SlotResult =
  /** Put the URL back at the front of its host's queue: robots.txt was fetched, or a retry is due. */
  | { kind: 'requeue' }
  /** Cancelled: not a result (the URL stays in the stored frontier). */
  | { kind: 'aborted' }
  | { kind: 'outcome'; outcome: PageOutcome };

export async function fetchInSlot(
  deps: { robots: RobotsPolicy; gate: PoliteGate; pageFetcher: PageFetcher },
  url: string,
  host: string,
  attempts: { count: number },
  options: PageFetchOptions,
): Promise<SlotResult> {
  const { robots, gate, pageFetcher } = deps;
  const origin = new URL(url).origin;
  if (!robots.peek(origin)) {
    await robots.entry(origin);
    gate.setCrawlDelay(host, robots.crawlDelayMs(origin));
    return { kind: 'requeue' };
  }
  let outcome: PageOutcome;
  try {
    outcome = await pageFetcher.fetchPage(url, options);
  } catch (error) {
    outcome = { kind: 'failed', url, redirects: [], error: 'network', message: (error as Error).message };
  }
  if (options.signal?.aborted) return { kind: 'aborted' };
  if (outcome.kind === 'retry-later') {
    attempts.count++;
    gate.backOff(host, outcome.retryAfterMs);
    if (attempts.count < MAX_RETRIES) return { kind: 'requeue' };
    outcome = { kind: 'failed', url, redirects: [], error: 'retry-later', message: `HTTP ${outcome.status} ${MAX_RETRIES} times` };
  }
  return { kind: 'outcome', outcome };
}
