/**
 * What the search needs to know about every local page besides its text: its language, host,
 * section, document type and date (the facets), whether the index holds it, and which pages are
 * copies (exact or near duplicates, canonical links) or translations (hreflang alternates) of
 * one another. Kept in memory as dictionary-coded columns (fact-table.ts) so that counting facets
 * over every match of a query costs a few array reads per match.
 */
import type { PageFacts } from './fact-table.ts';
import type { BreadcrumbRecord, PageRecord } from '../store/crawl-store.ts';
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

export { loadPageFacts, PageFacts, refreshPageFacts, savePageFacts, type FacetColumn } from './fact-table.ts';

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
    const lang = facts.langOf(facts.rowOf(id));
    return lang === 'und' ? undefined : lang;
  }
  if (!facts.columns.host.codeOf.has(parsed.host)) return undefined;
  const named = languageNamedBy(parsed);
  return named !== undefined && facts.columns.lang.codeOf.has(named) ? named : undefined;
}

