/**
 * What the search needs to know about every local page besides its text: its language, host,
 * section, document type and date (the facets), whether the index holds it, and which pages are
 * copies (exact or near duplicates, canonical links) or translations (hreflang alternates) of
 * one another. Kept in memory as dictionary-coded columns so that counting facets over every
 * match of a query costs a few array reads per match.
 */
import type { BreadcrumbRecord, CrawlStore, PageRecord } from '../store/crawl-store.ts';
import { isIndexablePage } from '../text-index/store-adapter.ts';

export const FACET_NAMES = ['lang', 'host', 'section', 'type'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** The fields the crawl adds to a page record that the search reads (all optional). */
export interface FactsPage extends PageRecord {
  lang?: string;
  alternates?: Array<{ url: string; lang: string }>;
  type?: string;
  sitemapLastmod?: number;
}

export interface PageFact {
  url: string;
  host: string;
  /** Lowercase primary language subtag; `und` when unknown. */
  lang: string;
  /** Document type as the crawl stores it; `html` when absent. */
  type: string;
  /** The first crumb of its breadcrumb below the home, else the first path segment after a language segment; '' for neither. */
  section: string;
  /** ms since epoch: the sitemap's lastmod, else the response's Last-Modified; NaN when neither. */
  date: number;
  /** The text index holds it (a duplicate or a noindex page is not). */
  indexed: boolean;
  /** Pages this one is a copy of (duplicateOf, canonical) or a translation of (alternates), by URL. */
  related: string[];
  /** Of `related`, the pages this one is a copy of (the same text): duplicateOf and canonical. */
  copies?: string[];
}

// Two letters, with a region or script (`en`, `pt-br`, `zh_Hans`): three-letter segments are
// more often sections (`mod`, `art`, `law`) than languages, unless they are the page's language.
const LANGUAGE_SEGMENT = /^[a-z]{2}(?:[-_][a-z0-9]{2,8})?$/i;

/** Does this path segment name a language (`en`, `pt-br`, `zh_Hans`, or the page's own `fil`)? */
export function isLanguageSegment(segment: string, pageLang?: string): boolean {
  return LANGUAGE_SEGMENT.test(segment) || (pageLang !== undefined && pageLang.length === 3 && segment.toLowerCase().split(/[-_]/)[0] === pageLang);
}

/**
 * The section of a URL: its first path segment after a language segment (`/en/mod/x` → `mod`,
 * `/mod/x` → `mod`, `/mod/` → `mod`), or '' for a page at the root of the site or of its language.
 */
export function sectionOf(url: string, pageLang?: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return '';
  }
  let segments = pathname.split('/').filter((s) => s !== '');
  if (segments.length > 0 && isLanguageSegment(segments[0], pageLang)) segments = segments.slice(1);
  // The last segment of `/news/item.html` is the page, not a section; `/news/` is the section's own page.
  if (segments.length < (pathname.endsWith('/') ? 1 : 2)) return '';
  try {
    return decodeURIComponent(segments[0]).toLowerCase();
  } catch {
    return segments[0].toLowerCase();
  }
}

/** Names of a site's home crumb, lower case, in the languages sites are most often written in. */
const HOME_NAMES = new Set([
  'home', 'homepage', 'home page', 'start', 'startseite', 'accueil', 'inicio', 'início', 'pagina inicial', 'página inicial',
  'hoofdpagina', 'startpagina', 'strona główna', 'domů', 'úvod', 'etusivu', 'hjem', 'forside', 'startsida', 'hem', 'главная', 'головна',
  'αρχική', 'ana sayfa', 'anasayfa', 'الرئيسية', 'ראשי', 'דף הבית', 'ホーム', 'トップ', 'トップページ', '首页', '主页', '首頁', '홈', '처음으로', 'trang chủ',
]);

const MAX_SECTION_NAME = 100;

/** Is the crumb the site's home: a link to the root of the site or of a language, or named like a home? */
function isHomeCrumb(crumb: BreadcrumbRecord, pageLang?: string): boolean {
  if (HOME_NAMES.has(crumb.name.trim().toLowerCase())) return true;
  if (crumb.url === undefined) return false;
  try {
    const segments = new URL(crumb.url).pathname.split('/').filter((s) => s !== '' && !/^index\.\w+$/i.test(s));
    return segments.length === 0 || (segments.length === 1 && isLanguageSegment(segments[0], pageLang));
  } catch {
    return false;
  }
}

const withoutFragment = (url: string) => url.replace(/#.*$/, '').replace(/\/$/, '');

/** Is the crumb the page itself (the trail's last crumb, unlinked, linking to the page, or named as it)? */
function isOwnCrumb(crumb: BreadcrumbRecord, pageUrl: string, title: string | undefined): boolean {
  if (crumb.url === undefined || withoutFragment(crumb.url) === withoutFragment(pageUrl)) return true;
  const name = crumb.name.trim().toLowerCase();
  if (name === '' || title === undefined) return false;
  // The page's title, or the title followed by the site's name (`Opening hours | Northfield`).
  const own = title.trim().toLowerCase();
  return own === name || (own.startsWith(name) && /^\s*[|\-–—:·•»]/.test(own.slice(name.length)));
}

/**
 * The section a breadcrumb trail names: its first crumb below the site's home, lower case; the
 * page's own last crumb is never its section (`Home › About us` names none). Undefined when the
 * trail names none.
 */
export function breadcrumbSection(trail: readonly BreadcrumbRecord[] | undefined, pageUrl: string, title?: string, pageLang?: string): string | undefined {
  if (!Array.isArray(trail) || trail.length === 0) return undefined;
  let first = 0;
  while (first < trail.length && isHomeCrumb(trail[first], pageLang)) first++;
  let end = trail.length;
  if (end > first && isOwnCrumb(trail[end - 1], pageUrl, title)) end--;
  for (let i = first; i < end; i++) {
    const name = typeof trail[i].name === 'string' ? trail[i].name.replace(/\s+/g, ' ').trim().toLowerCase() : '';
    if (name !== '') return name.slice(0, MAX_SECTION_NAME);
  }
  return undefined;
}

/** The primary subtag a URL names (`/de/…`, `/pt-br/…`, the page's own `/fil/…`, `?lang=de`, `?hl=de`), or undefined. */
export function languageOfUrl(url: string, pageLang?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const first = parsed.pathname.split('/').find((s) => s !== '') ?? '';
  if (isLanguageSegment(first, pageLang)) return first.toLowerCase().split(/[-_]/)[0];
  const param = (parsed.searchParams.get('lang') ?? parsed.searchParams.get('hl') ?? '').toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(param) ? param : undefined;
}

/** Does the URL's path name this language (`/en/…`, `/en-gb/…`, `?lang=en`)? */
export function urlNamesLanguage(url: string, lang: string): boolean {
  try {
    const parsed = new URL(url);
    const first = parsed.pathname.split('/').find((s) => s !== '') ?? '';
    if (isLanguageSegment(first, lang) && first.toLowerCase().split(/[-_]/)[0] === lang) return true;
    return (parsed.searchParams.get('lang') ?? parsed.searchParams.get('hl') ?? '').toLowerCase().split(/[-_]/)[0] === lang;
  } catch {
    return false;
  }
}

function primaryLanguage(tag: string | undefined): string {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(primary) ? primary : 'und';
}

/** The facts of one stored page, or undefined for a page the search never shows. */
export function pageFact(page: FactsPage, urlOf: (id: number) => string | undefined): PageFact | undefined {
  if (page.role !== 'local' || !(page.state === 'fetched' || page.state === 'not-modified')) return undefined;
  const related: string[] = [];
  if (page.duplicateOf !== undefined) {
    const original = urlOf(page.duplicateOf);
    if (original) related.push(original);
  }
  if (page.canonical && page.canonical !== page.url) related.push(page.canonical);
  const copies = related.slice();
  for (const alternate of page.alternates ?? []) if (alternate.url !== page.url) related.push(alternate.url);
  const header = page.lastModified ? Date.parse(page.lastModified) : NaN;
  const lang = primaryLanguage(page.lang);
  return {
    url: page.url,
    host: page.host,
    lang,
    type: (page.type ?? 'html').toLowerCase(),
    section: breadcrumbSection(page.breadcrumb, page.url, page.title, lang === 'und' ? undefined : lang) ?? sectionOf(page.url, lang === 'und' ? undefined : lang),
    date: typeof page.sitemapLastmod === 'number' && Number.isFinite(page.sitemapLastmod) ? page.sitemapLastmod : header,
    indexed: isIndexablePage(page),
    related,
    copies,
  };
}

/** One facet dimension: its values, and each row's value as a code into them. */
export interface FacetColumn {
  values: string[];
  codeOf: Map<string, number>;
  codes: Uint16Array;
}

/** The compiled table: one row per page, columns per facet, groups of copies and translations. */
export class PageFacts {
  readonly ids: Int32Array;
  readonly facts: PageFact[];
  readonly columns: Record<FacetName, FacetColumn>;
  readonly dates: Float64Array;
  /** Row → its group (the smallest row of the pages joined by copies and translations). */
  readonly group: Int32Array;
  /** Group → its rows. */
  readonly members: Map<number, number[]>;
  /** Group → how many rows it has (0 for a row that is not a group's smallest). */
  readonly groupSize: Int32Array;
  /** Row → its copy class: the smallest row of the pages joined by copies alone (the same text). */
  readonly copyClass: Int32Array;
  /** Row → the language its URL names (`/de/…`, `?lang=de`), as a `lang` column code; -1 for none. */
  readonly urlLanguage: Int32Array;
  /** Row of each page id (-1: none); ids are the store's, dense from 0. */
  private readonly rowOfId: Int32Array;
  private rowOfUrl: Map<string, number> | undefined;

  constructor(readonly records: ReadonlyMap<number, PageFact>) {
    this.ids = Int32Array.from([...records.keys()].sort((a, b) => a - b));
    this.facts = Array.from(this.ids, (id) => records.get(id)!);
    this.rowOfId = new Int32Array(this.ids.length > 0 ? this.ids[this.ids.length - 1] + 1 : 0).fill(-1);
    this.ids.forEach((id, row) => (this.rowOfId[id] = row));
    this.columns = {
      lang: column(this.facts, (f) => f.lang),
      host: column(this.facts, (f) => f.host),
      section: column(this.facts, (f) => f.section),
      type: column(this.facts, (f) => f.type),
    };
    this.dates = Float64Array.from(this.facts, (f) => f.date);
    this.group = groupRows(this.facts, (fact) => fact.related);
    this.copyClass = groupRows(this.facts, (fact) => fact.copies ?? []);
    this.urlLanguage = Int32Array.from(this.facts, (fact) => {
      const named = languageOfUrl(fact.url, fact.lang);
      return named === undefined ? -1 : (this.columns.lang.codeOf.get(named) ?? -1);
    });
    this.members = new Map();
    this.groupSize = new Int32Array(this.facts.length);
    this.group.forEach((g, row) => {
      this.groupSize[g]++;
      const list = this.members.get(g);
      if (list) list.push(row);
      else this.members.set(g, [row]);
    });
  }

  static empty(): PageFacts {
    return new PageFacts(new Map());
  }

  idOfUrl(url: string): number | undefined {
    if (this.rowOfUrl === undefined) {
      this.rowOfUrl = new Map();
      this.facts.forEach((fact, row) => this.rowOfUrl!.set(fact.url, row));
    }
    const row = this.rowOfUrl.get(url);
    return row === undefined ? undefined : this.ids[row];
  }

  rowOf(id: number): number {
    return id >= 0 && id < this.rowOfId.length ? this.rowOfId[id] : -1;
  }

  /** The table with some pages changed (a fact) or gone (undefined). */
  withChanges(changes: Iterable<[number, PageFact | undefined]>): PageFacts {
    const records = new Map(this.records);
    for (const [id, fact] of changes) {
      if (fact) records.set(id, fact);
      else records.delete(id);
    }
    return new PageFacts(records);
  }

  /** Values of a facet present among indexed pages. */
  indexedValues(name: FacetName): string[] {
    const { values, codes } = this.columns[name];
    const seen = new Uint8Array(values.length);
    this.facts.forEach((fact, row) => {
      if (fact.indexed) seen[codes[row]] = 1;
    });
    return values.filter((value, code) => seen[code] === 1 && value !== '').sort();
  }
}

function column(facts: readonly PageFact[], valueOf: (fact: PageFact) => string): FacetColumn {
  const values: string[] = [];
  const codeOf = new Map<string, number>();
  const codes = new Uint16Array(facts.length);
  facts.forEach((fact, row) => {
    const value = valueOf(fact);
    let code = codeOf.get(value);
    if (code === undefined) {
      code = values.length;
      // A 16-bit code: past 65,535 distinct values the rest share the last one.
      if (code > 0xffff) code = 0xffff;
      else {
        values.push(value);
        codeOf.set(value, code);
      }
    }
    codes[row] = code;
  });
  return { values, codeOf, codes };
}

/** Joins rows related by URL (union–find); each row's group is the smallest row of its set. */
function groupRows(facts: readonly PageFact[], relatedOf: (fact: PageFact) => readonly string[]): Int32Array {
  const parent = Int32Array.from(facts, (_, row) => row);
  const find = (row: number): number => {
    while (parent[row] !== row) {
      parent[row] = parent[parent[row]];
      row = parent[row];
    }
    return row;
  };
  const rowOfUrl = new Map<string, number>();
  facts.forEach((fact, row) => rowOfUrl.set(fact.url, row));
  facts.forEach((fact, row) => {
    for (const url of relatedOf(fact)) {
      const other = rowOfUrl.get(url);
      if (other === undefined) continue;
      const a = find(row);
      const b = find(other);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  return Int32Array.from(parent, (_, row) => find(row));
}

/** Reads the facts of every local page of the store. */
export async function loadPageFacts(store: CrawlStore): Promise<PageFacts> {
  const records = new Map<number, PageFact>();
  for await (const [id, page] of store.pages()) {
    const fact = pageFact(page, (other) => store.urlOf(other));
    if (fact) records.set(id, fact);
  }
  return new PageFacts(records);
}

/** The table with the given pages read again from the store (after a crawl or a re-crawl). */
export async function refreshPageFacts(facts: PageFacts, store: CrawlStore, ids: readonly number[]): Promise<PageFacts> {
  const pages = await store.getPages(ids);
  return facts.withChanges(ids.map((id, i) => [id, pages[i] ? pageFact(pages[i], (other) => store.urlOf(other)) : undefined]));
}

/** The primary subtag a URL names (`/de/…`, `/pt-br/…`, `?lang=de`, `?hl=de`), or undefined. */
function languageNamedBy(url: URL): string | undefined {
  const first = url.pathname.split('/').find((s) => s !== '') ?? '';
  if (LANGUAGE_SEGMENT.test(first)) return first.toLowerCase().split(/[-_]/)[0];
  const param = (url.searchParams.get('lang') ?? url.searchParams.get('hl') ?? '').toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(param) ? param : undefined;
}

/**
 * The language of a page of the site, for a visitor who searched from it: the stored page's
 * language, else (a page the crawl has not stored) the language its URL names on one of the
 * site's hosts, when the site has pages in that language. Undefined for anything else: a URL of
 * another site, a malformed one, an undetermined language.
 */
export function languageOfSitePage(facts: PageFacts, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  const href = parsed.href;
  for (const candidate of [href, href.endsWith('/') ? href.slice(0, -1) : `${href}/`]) {
    const id = facts.idOfUrl(candidate);
    if (id === undefined) continue;
    const lang = facts.facts[facts.rowOf(id)].lang;
    return lang === 'und' ? undefined : lang;
  }
  if (!facts.columns.host.codeOf.has(parsed.host)) return undefined;
  const named = languageNamedBy(parsed);
  return named !== undefined && facts.columns.lang.codeOf.has(named) ? named : undefined;
}

