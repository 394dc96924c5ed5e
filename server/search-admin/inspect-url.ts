/**
 * "Is this URL in the results, and if not, why?": what the store, the index and the admin's
 * removals say about one URL, with its values in every stored rank version.
 */
import type { FactsPage } from '../../indexer/ranking/page-facts.ts';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { isIndexablePage } from '../../indexer/text-index/store-adapter.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import type { SearchControl } from './search-control.ts';

const RANK_NAMES = ['local-current', 'local', 'estimate'] as const;

export interface UrlInspection {
  url: string;
  /** The crawl has seen the URL (stored or in the frontier). */
  known: boolean;
  id?: number;
  inIndex: boolean;
  removedByAdmin: boolean;
  /** Shown in results: indexed and not removed. */
  searchable: boolean;
  /** Why it is not in the index (null when it is). */
  whyNotIndexed: string | null;
  page?: {
    role: string;
    state: string;
    status: number;
    fetchedAt: string;
    firstFetchedAt?: string;
    visits: number;
    changes: number;
    title?: string;
    lang?: string;
    type?: string;
    canonical?: string;
    duplicateOf?: string;
    error?: string;
  };
  ranks: Array<{ name: string; version: number; createdAt: string; value: number | null }>;
}

function reasonNotIndexed(page: FactsPage | undefined, urlOf: (id: number) => string | undefined): string | null {
  if (!page) return 'the crawl has not fetched it (it is unknown or still in the frontier)';
  if (page.role !== 'local') return 'it is outside the local domain: fetched for its links only';
  if (page.state === 'error') return `fetching it failed${page.error ? `: ${page.error}` : ''} (HTTP ${page.status})`;
  if (page.state === 'disallowed') return 'robots.txt disallows it';
  if (page.state === 'redirect') return `it redirects${page.redirectTo !== undefined ? ` to ${urlOf(page.redirectTo) ?? 'another page'}` : ''}`;
  if (page.state === 'not-html') return `its type (${page.contentType ?? 'unknown'}) is not one the crawler reads`;
  if (page.state === 'gone') return 'it is gone (404 or 410 at the last visit)';
  if (page.noindex) return 'the page asks not to be indexed (noindex)';
  if (page.duplicateOf !== undefined) return `it duplicates ${urlOf(page.duplicateOf) ?? 'another page'}, which is indexed instead`;
  return isIndexablePage(page) ? null : `its state (${page.state}) is not indexed`;
}

export async function inspectUrl(url: string, deps: { store: CrawlStore; index: TextIndex; engine: SearchEngine; control: SearchControl }): Promise<UrlInspection> {
  const { store, index, control } = deps;
  const id = store.idOf(url);
  const page = id === undefined ? undefined : ((await store.getPage(id)) as FactsPage | undefined);
  const inIndex = id !== undefined && index.has(id);
  const removedByAdmin = control.isRemoved(url);
  const ranks: UrlInspection['ranks'] = [];
  if (id !== undefined) {
    for (const name of RANK_NAMES) {
      for (const { version, createdAt, value } of await store.rankValueHistory(name, id)) ranks.push({ name, version, createdAt: new Date(createdAt).toISOString(), value });
    }
  }
  const urlOf = (other: number) => store.urlOf(other);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  return {
    url,
    known: id !== undefined,
    ...(id !== undefined ? { id } : {}),
    inIndex,
    removedByAdmin,
    searchable: inIndex && !removedByAdmin,
    whyNotIndexed: inIndex ? null : reasonNotIndexed(page, urlOf) ?? 'it is indexable but not indexed yet (the next crawl or re-crawl adds it)',
    ...(page
      ? {
          page: {
            role: page.role,
            state: page.state,
            status: page.status,
            fetchedAt: iso(page.fetchedAt)!,
            firstFetchedAt: iso(page.firstFetchedAt),
            visits: page.visits,
            changes: page.changes,
            title: page.title,
            lang: page.lang,
            type: page.type,
            canonical: page.canonical,
            duplicateOf: page.duplicateOf === undefined ? undefined : urlOf(page.duplicateOf),
            error: page.error,
          },
        }
      : {}),
    ranks,
  };
}
