/**
 * Which pages of a data directory are local, for the jobs that run on it after its crawl
 * (estimation rounds, re-crawls, crawls from the admin API).
 *
 * The local domain of a data directory is what its crawl stored as local (each page record's
 * `role`). What differs is how pages the jobs meet later are classified:
 * - `url`: the directory was crawled with a URL scope (`host:…`, `prefix:…`, `regex:…`) and no
 *   topic: the scope decides, as it did in the crawl.
 * - `topic`: a topic crawl (Cho's IS(p, q), crawler/topic.ts): a page is local when its content
 *   passed the threshold, which only a crawl that reads it can decide. Rounds store the pages they
 *   fetch as global; re-crawls keep the stored roles and queue newly linked pages for the next
 *   crawl, which judges them by the topic. `scope` is where the crawler may go (the remembered
 *   URL scope, or every http(s) URL).
 * - `stored`: neither a URL scope nor a topic is remembered (a directory written by other means,
 *   or by an older version): the stored roles are all there is; new pages cannot be classified.
 */
import type { CrawlerSettings } from '../../config/schema.ts';
import { parseScope, type Scope } from '../../crawler/scope.ts';
import type { TopicSettings } from '../../crawler/topic.ts';
import type { CrawlStore, PageRole } from '../../indexer/store/crawl-store.ts';

export type DataDirDomain =
  | { readonly kind: 'url'; readonly scope: Scope }
  | { readonly kind: 'topic'; readonly scope: Scope; readonly topic: TopicSettings }
  | { readonly kind: 'stored'; readonly scope: Scope };

/** Every http(s) URL: where a topic crawl without a URL scope may go. */
export const ANY_WEB_URL = 'regex:^https?://';

/** A URL-scoped domain (what the jobs assumed before topic crawls). */
export function urlDomain(scope: Scope): DataDirDomain {
  return { kind: 'url', scope };
}

/**
 * The domain of a data directory from the crawler settings it remembers (`crawl-settings`).
 * Throws the scope parser's {@link ScopeSpecError} for a bad remembered scope.
 */
export function dataDirDomain(crawler: Pick<CrawlerSettings, 'scope' | 'topic'>): DataDirDomain {
  if (crawler.topic) return { kind: 'topic', scope: parseScope(crawler.scope.length > 0 ? crawler.scope : [ANY_WEB_URL]), topic: crawler.topic };
  if (crawler.scope.length > 0) return { kind: 'url', scope: parseScope(crawler.scope) };
  return { kind: 'stored', scope: parseScope(ANY_WEB_URL) };
}

/** The role of a page an estimation round fetches: by the URL scope, else global (it is not in L). */
export function roundRoleOf(domain: DataDirDomain): (url: string) => PageRole {
  if (domain.kind === 'url') return (url) => (domain.scope.isLocal(url) ? 'local' : 'global');
  return () => 'global';
}

/** A short description for messages. */
export function describeDomain(domain: DataDirDomain): string {
  switch (domain.kind) {
    case 'url':
      return 'the URL scope';
    case 'topic':
      return `the topic "${domain.topic.terms.join(', ')}" (similarity threshold ${domain.topic.threshold})`;
    case 'stored':
      return 'the roles its crawl stored (no scope or topic is remembered)';
  }
}

/** Why a round has no L: the message for a data directory without local pages. */
export function noLocalPagesMessage(domain: DataDirDomain | undefined, storedPages?: number): string {
  if (storedPages === 0) return 'the data directory has no crawl yet: run lse crawl first';
  if (domain?.kind === 'topic') {
    return (
      `the data directory has no local pages: none of the pages its topic crawl fetched reached the similarity threshold ` +
      `${domain.topic.threshold} for "${domain.topic.terms.join(', ')}" (crawl more pages, or crawl again with a lower --topic-threshold)`
    );
  }
  return 'the data directory has no local pages yet: crawl first';
}

/**
 * Undefined when the store holds a local page whose links are known (a round has an L),
 * else the message saying what is missing. Reads pages until the first local one.
 */
export async function missingLocalPages(store: CrawlStore, domain: DataDirDomain): Promise<string | undefined> {
  let pages = 0;
  for await (const [, page] of store.pages()) {
    if (page.role === 'local' && (page.state === 'fetched' || page.state === 'not-modified')) return undefined;
    pages++;
  }
  return noLocalPagesMessage(domain, pages);
}
