/**
 * What the store holds, record by record: pages, links, the frontier, hosts, visits, sketches and
 * rank versions (crawl-store.ts reads and writes them).
 */

export type PageRole = 'local' | 'global';

/** What happened when a page was last fetched. */
export type PageState = 'fetched' | 'not-modified' | 'redirect' | 'error' | 'disallowed' | 'not-html' | 'gone';

export interface PageRecord {
  url: string;
  host: string;
  role: PageRole;
  state: PageState;
  /** HTTP status (0 when no response was received). */
  status: number;
  fetchedAt: number;
  /** When the page was first fetched (with `visits`, the mean interval between visits). */
  firstFetchedAt?: number;
  depth: number;
  contentType?: string;
  /** Fingerprint of the extracted text (hex), for exact duplicates and change detection. */
  fingerprint?: string;
  title?: string;
  headings?: string[];
  /** Extracted text: kept for local pages only (global pages are fetched for their links). */
  text?: string;
  description?: string;
  /** The page's language: lower-case primary subtag (`en`, `zh`), `und` when it cannot be told. */
  lang?: string;
  /** Its translations (`<link rel=alternate hreflang>`), language as a primary subtag. */
  alternates?: PageAlternateRecord[];
  /** Its breadcrumb trail, home first (crawler/breadcrumb.ts): the search's section when present. */
  breadcrumb?: BreadcrumbRecord[];
  /** Headings of `text`: their text, their `id` anchor, and the offset in `text` where each section starts (a PDF: where each page starts, anchor `page=N`). */
  sections?: PageSection[];
  /** Identifiers the page defines (crawler/definitions.ts): name, anchor, offset in `text`. */
  definitions?: Array<{ name: string; anchor: string; start: number }>;
  etag?: string;
  lastModified?: string;
  canonical?: string;
  noindex?: boolean;
  nofollow?: boolean;
  /** Id of the page this one duplicates (exactly or nearly); duplicates are not indexed. */
  duplicateOf?: number;
  redirectTo?: number;
  truncated?: boolean;
  error?: string;
  /** The document type: `pdf`, `docx`, `odt`; absent for HTML. */
  type?: string;
  /** The page's `<lastmod>` in a sitemap (ms since the epoch), when a sitemap lists one. */
  sitemapLastmod?: number;
  /** Fetched with credentials (an intranet page): only signed-in searchers may search it. */
  private?: true;
  /** Pushed by the site (`lse import`, `POST /api/admin/documents`), not fetched: re-crawls leave it be. */
  imported?: true;
  /** Visits and visits that found a change (the re-crawl's change-rate estimate). */
  visits: number;
  changes: number;
  /** Failed visits in a row since the last success (re-crawls keep a failing page until they confirm it). */
  failing?: PageFailures;
}

export interface PageFailures {
  /** First failure of the run, last one, how many, and what the last said. */
  since: number;
  lastAt: number;
  count: number;
  status: number;
  error?: string;
}

export interface PageAlternateRecord {
  url: string;
  lang: string;
}

export interface BreadcrumbRecord {
  name: string;
  url?: string;
}

export interface PageSection {
  heading: string;
  anchor?: string;
  start: number;
}

export interface StoredLink {
  to: number;
  anchor?: string;
  nofollow?: boolean;
}

export interface FrontierEntry {
  depth: number;
  discoveredAt: number;
  role: PageRole;
  /** The page it was discovered on. */
  referrer?: number;
  /** Focused crawling: discovered through anchor text or a URL matching the topic. */
  hot?: boolean;
}

export type HostState = Record<string, unknown>;

export interface ChangeRecord {
  at: number;
  changed: boolean;
  status: number;
  fingerprint?: string;
}

/** A page's near-duplicate sketch, with the fingerprint of the text it was made from. */
export interface StoredSketch {
  fingerprint: string;
  /** base64 of the encoded sketch (crawler/stored-sketch.ts). */
  data: string;
}

export interface RankVersion {
  name: string;
  version: number;
  createdAt: number;
  /** Page ids, parallel to `values`. */
  ids: Int32Array;
  values: Float64Array;
  info?: Record<string, unknown>;
}
