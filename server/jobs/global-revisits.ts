/**
 * Keeping the supergraph true: global pages of F fetched longer ago than the staleness limit
 * are fetched again at the start of a round (conditional GETs), the ones most likely to have
 * changed first, within a share of the round's budget. The recorder stores what they are now,
 * so the round's F takes their new links, and a page gone (or failing) leaves F.
 */
import { fetchAndRecord, type BatchFetchDeps } from '../../crawler/batch-fetch.ts';
import { changesPerDay } from '../../crawler/revisit-policy.ts';
import type { CrawlStore, PageRecord } from '../../indexer/store/crawl-store.ts';
import { hasLinks } from '../../crawler/crawled-page-source.ts';
import { SUPERGRAPH_RANKS } from './round-start.ts';

const DAY_MS = 86_400_000;
/** Pages read from the store at a time. */
const READ_CHUNK = 4096;

export interface StalePage {
  id: number;
  url: string;
  /** Expected changes since the last visit: changes per day × days since. */
  expectedChanges: number;
  fetchedAt: number;
}

/**
 * Global pages of F last fetched before `now − staleAfterMs`, most expected changes first (the
 * change rate the re-crawl estimates from visits × the age), the oldest first among equals.
 */
export function stalePages(pages: Iterable<[number, PageRecord]>, now: number, staleAfterMs: number): StalePage[] {
  const stale: StalePage[] = [];
  for (const [id, page] of pages) {
    if (page.role !== 'global' || !hasLinks(page) || now - page.fetchedAt < staleAfterMs) continue;
    const first = page.firstFetchedAt ?? page.fetchedAt;
    const intervalDays = page.visits > 1 ? (page.fetchedAt - first) / DAY_MS / (page.visits - 1) : undefined;
    const rate = changesPerDay({ id, visits: page.visits, changes: page.changes, intervalDays, credit: 0 });
    stale.push({ id, url: page.url, fetchedAt: page.fetchedAt, expectedChanges: (rate * (now - page.fetchedAt)) / DAY_MS });
  }
  return stale.sort((a, b) => b.expectedChanges - a.expectedChanges || a.fetchedAt - b.fetchedAt || a.id - b.id);
}

export interface RevisitOutcome {
  /** Stale global pages fetched again. */
  revisited: number;
  /** Of those, pages without links now (gone, failing, no longer HTML): they leave F. */
  gone: number;
  /** Stale pages left for a later round. */
  staleLeft: number;
}

/** Revisits up to `budget` stale global pages of the latest supergraph. */
export async function revisitStaleGlobals(
  store: CrawlStore,
  deps: BatchFetchDeps,
  options: { now: number; staleAfterMs: number; budget: number; concurrency: number; signal?: AbortSignal },
): Promise<RevisitOutcome> {
  const saved = await store.latestRanks(SUPERGRAPH_RANKS);
  if (!saved || options.budget <= 0) return { revisited: 0, gone: 0, staleLeft: 0 };
  const localCount = Number(saved.info?.localCount ?? 0);
  const ids = Array.from(saved.ids.subarray(localCount));
  const stale: StalePage[] = [];
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const chunk = ids.slice(start, start + READ_CHUNK);
    const records = await store.getPages(chunk);
    const present = chunk.flatMap((id, i): Array<[number, PageRecord]> => (records[i] ? [[id, records[i]!]] : []));
    stale.push(...stalePages(present, options.now, options.staleAfterMs));
  }
  stale.sort((a, b) => b.expectedChanges - a.expectedChanges || a.fetchedAt - b.fetchedAt || a.id - b.id);
  const chosen = stale.slice(0, options.budget).map((p) => p.url);
  const recorded = await fetchAndRecord(deps, chosen, { concurrency: options.concurrency, signal: options.signal, conditional: true, role: 'global', now: () => options.now });
  let gone = 0;
  for (const url of chosen) {
    const result = recorded.get(url);
    if (result && !(result.state === 'fetched' || result.state === 'not-modified' || result.state === 'redirect')) gone++;
  }
  return { revisited: chosen.length, gone, staleLeft: stale.length - chosen.length };
}
