/**
 * Resuming a crawl: everything the loop knows is rebuilt from the store — the pages fetched
 * (never fetched again), their links, depths and per-host counts, the seeds, and the frontier,
 * which is replayed into the ordering (fetched pages too: when the ordering reaches one, its
 * stored links are replayed instead of fetched, rebuilding the ordering's state in its own order).
 */
import type { CrawlStore } from '../indexer/store/crawl-store.ts';
import type { CrawlRecorder } from './crawl-recorder.ts';
import type { CrawlOrdering } from './ordering.ts';
import type { Scope } from './scope.ts';
import type { DistanceLink } from './topic.ts';
import { normalizeUrl, type UrlRules } from './url.ts';

/** What the loop knows of the stored pages, kept up to date as the crawl stores more. */
export interface KnownPages {
  done: Set<number>;
  byState: Record<string, number>;
  depthOf: Map<number, number>;
  hostPages: Map<string, number>;
  /** Per stored page: the ids of its links to follow, and its out-degree. */
  storedLinks: Map<number, { follow: number[]; degree: number }>;
  duplicates: number;
  /**
   * Local pages the last visit failed to fetch, not counted as done: a network failure or an
   * unreachable robots.txt (often a wrong setting: a missing --resolve or
   * --allow-private-networks, fixed since), fetched again by this run. Other failed pages (404,
   * disallowed by robots.txt) are done, unless a seed names them.
   */
  retry: Map<number, number>;
  /** Other failed local pages, with their state. */
  failed: Map<number, string>;
}

export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

/**
 * Reads the stored pages and links. With `hotLinkOf` (topic crawls), also the stored local pages
 * (the hot ones) and every followable link with whether it is hot, for distances to be rebuilt.
 */
export async function loadKnownPages(
  store: CrawlStore,
  recorder: CrawlRecorder,
  hotLinkOf?: (url: string, anchor?: string) => boolean,
): Promise<{ known: KnownPages; hotPages: number[]; hotLinks: Map<number, DistanceLink[]> }> {
  const known: KnownPages = { done: new Set(), byState: {}, depthOf: new Map(), hostPages: new Map(), storedLinks: new Map(), duplicates: 0, retry: new Map(), failed: new Map() };
  const hotPages: number[] = [];
  const hotLinks = new Map<number, DistanceLink[]>();
  // The saved sketches, read beside the pages (both in id order).
  const sketches = store.sketches()[Symbol.asyncIterator]();
  let sketch = await sketches.next();
  for await (const [id, page] of store.pages()) {
    if (page.role === 'local' && (page.state === 'error' || page.state === 'gone' || page.state === 'disallowed')) {
      if ((page.state === 'error' && page.status === 0) || page.error === 'robots-unreachable') {
        known.retry.set(id, page.depth);
        continue;
      }
      known.failed.set(id, page.state);
    }
    known.done.add(id);
    if (hotLinkOf && page.role === 'local' && page.state === 'fetched') hotPages.push(id);
    known.depthOf.set(id, page.depth);
    known.byState[page.state] = (known.byState[page.state] ?? 0) + 1;
    known.hostPages.set(page.host, (known.hostPages.get(page.host) ?? 0) + 1);
    if (page.duplicateOf === undefined) {
      while (!sketch.done && sketch.value[0] < id) sketch = await sketches.next();
      recorder.knowPage(id, page, !sketch.done && sketch.value[0] === id ? sketch.value[1] : undefined);
    } else known.duplicates++;
  }
  await sketches.return(undefined);
  await recorder.saveKnownSketches();
  for await (const [id, links] of store.allLinks()) {
    const followable = links.filter((l) => !l.nofollow && isCrawlable(store.urlOf(l.to)));
    known.storedLinks.set(id, { follow: followable.map((l) => l.to), degree: links.length });
    if (hotLinkOf) hotLinks.set(id, followable.map((l) => ({ to: l.to, hot: hotLinkOf(store.urlOf(l.to)!, l.anchor) })));
  }
  return { known, hotPages, hotLinks };
}

/** Stores the seeds (those not fetched yet join the frontier at depth 0); their ids. */
export async function addSeeds(store: CrawlStore, seedUrls: readonly string[], scope: Scope, urlRules: UrlRules, known: KnownPages, now: number): Promise<number[]> {
  const seeds: number[] = [];
  const batch = store.batch();
  for (const seed of seedUrls) {
    const check = normalizeUrl(seed, urlRules);
    if (!check.ok) throw new SeedError(`seed ${seed} is refused by the URL rules: ${check.reason}`);
    if (!scope.isLocal(check.url)) throw new SeedError(`seed ${check.url} is outside the scope`);
    const id = batch.idFor(check.url);
    seeds.push(id);
    // A seed whose last fetch failed is fetched again: the run may have corrected what failed.
    const failedState = known.failed.get(id);
    if (failedState !== undefined) {
      known.failed.delete(id);
      forget(store, known, id, failedState);
    }
    if (!known.done.has(id)) batch.addToFrontier(id, { depth: 0, discoveredAt: now, role: 'local' });
    known.depthOf.set(id, 0);
  }
  for (const [id, depth] of known.retry) {
    if (known.depthOf.has(id)) continue;
    batch.addToFrontier(id, { depth, discoveredAt: now, role: 'local' });
  }
  await batch.commit();
  if (seeds.length === 0 && known.done.size === 0) throw new SeedError('no seeds: give at least one seed URL');
  return seeds;
}

/** Feeds the ordering: the seeds first, then the stored frontier and the fetched pages by depth. */
export async function replayFrontier(store: CrawlStore, ordering: CrawlOrdering, seeds: readonly number[], known: KnownPages): Promise<void> {
  const seedSet = new Set(seeds);
  for (const id of seeds) ordering.discover({ id, depth: 0, seed: true, hot: true });
  const entries: Array<[number, number, boolean]> = [];
  for await (const [id, entry] of store.frontier()) {
    if (seedSet.has(id) || known.done.has(id)) continue;
    known.depthOf.set(id, entry.depth);
    entries.push([id, entry.depth, entry.hot === true]);
  }
  for (const id of known.done) if (!seedSet.has(id)) entries.push([id, known.depthOf.get(id) ?? 0, false]);
  entries.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  for (const [id, depth, hot] of entries) ordering.discover({ id, depth, hot });
}

/** Takes a stored page out of what the run counts as done (it is fetched again). */
function forget(store: CrawlStore, known: KnownPages, id: number, state: string): void {
  if (!known.done.delete(id)) return;
  known.byState[state] = Math.max(0, (known.byState[state] ?? 1) - 1);
  const url = store.urlOf(id);
  const host = url ? new URL(url).host : '';
  known.hostPages.set(host, Math.max(0, (known.hostPages.get(host) ?? 1) - 1));
}

function isCrawlable(url: string | undefined): boolean {
  return url !== undefined && /^https?:/.test(url);
}
