/**
 * The links of a demo page, once: grouped as the renderer lays them out, and flattened and
 * resolved to absolute URLs as a crawler would see them. The graph and the renderer both read
 * them from here, so what is served and what the graph says cannot drift apart.
 */
import type { DemoPage, DemoRawLink, DemoWeb } from './generate.ts';

export interface DemoLinkGroups {
  /** Site navigation: home and every section. */
  nav: DemoRawLink[];
  breadcrumbs: DemoRawLink[];
  /** A section's articles. */
  listing: DemoRawLink[];
  /** Previous and next article of the section. */
  sequence: DemoRawLink[];
  /** Generated links to pages of the same host. */
  related: DemoRawLink[];
  /** Generated links to other hosts. */
  elsewhere: DemoRawLink[];
  /** Special-case links, as written. */
  extras: DemoRawLink[];
}

export interface DemoLink extends DemoRawLink {
  /** Absolute URL without fragment; null for mailto:, javascript:, tel: and unparsable hrefs. */
  url: string | null;
  /** rel="nofollow", or the page's meta robots says nofollow. */
  nofollow: boolean;
}

/** The page whose content and links a page shows (itself, or the page it copies). */
export function contentSource(web: DemoWeb, page: DemoPage): DemoPage {
  return page.copyOf === undefined ? page : (web.resources[page.copyOf] as DemoPage);
}

function hrefTo(page: DemoPage, target: DemoPage): string {
  return target.host === page.host ? target.path : target.url;
}

export function demoLinkGroups(web: DemoWeb, page: DemoPage): DemoLinkGroups {
  const source = contentSource(web, page);
  const site = web.sites[source.site];
  const groups: DemoLinkGroups = { nav: [], breadcrumbs: [], listing: [], sequence: [], related: [], elsewhere: [], extras: source.extraLinks ?? [] };
  groups.nav.push({ href: '/', text: site.name });
  for (const section of site.sections) groups.nav.push({ href: section.path, text: section.name });
  const section = source.section >= 0 ? site.sections[source.section] : undefined;
  if (section && source.role !== 'section') {
    groups.breadcrumbs.push({ href: '/', text: 'Home' }, { href: section.path, text: section.name });
  }
  if (section && source.role === 'section') {
    for (let k = 0; k < section.articleCount; k++) {
      const article = web.resources[section.firstArticle + k] as DemoPage;
      groups.listing.push({ href: article.path, text: article.title });
    }
  }
  if (section && source.role === 'article' && source.id >= section.firstArticle && source.id < section.firstArticle + section.articleCount) {
    const k = source.id - section.firstArticle;
    if (k > 0) groups.sequence.push({ href: (web.resources[source.id - 1] as DemoPage).path, text: '« Previous' });
    if (k + 1 < section.articleCount) groups.sequence.push({ href: (web.resources[source.id + 1] as DemoPage).path, text: 'Next »' });
  }
  const { outOffsets, outTargets } = web.contentLinks;
  for (let e = outOffsets[source.id]; e < outOffsets[source.id + 1]; e++) {
    const target = web.resources[outTargets[e]] as DemoPage;
    (target.host === source.host ? groups.related : groups.elsewhere).push({ href: hrefTo(source, target), text: target.title });
  }
  return groups;
}

// Hrefs the generator writes itself (no dot segments, fragments, spaces or upper case) resolve
// by concatenation; anything else goes through the WHATWG URL parser.
const PLAIN_PATH = /^\/[a-z0-9\-_~?=&./]*$/;
const PLAIN_ABSOLUTE = /^http:\/\/[a-z0-9.-]+\/[a-z0-9\-_~?=&./]*$/;

function isPlain(href: string, pattern: RegExp): boolean {
  return pattern.test(href) && !href.includes('/.') && !href.includes('//', 7);
}

function resolveWithOrigin(href: string, base: string, origin: string): string | null {
  if (href.charCodeAt(0) === 47 /* / */ && href.charCodeAt(1) !== 47 && isPlain(href, PLAIN_PATH)) return origin + href;
  if (href.startsWith('http://') && isPlain(href, PLAIN_ABSOLUTE)) return href;
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

function originOf(base: string): string {
  const slash = base.indexOf('/', base.indexOf('//') + 2);
  return slash < 0 ? base : base.slice(0, slash);
}

/** Resolves an href against a base URL the way a browser does; drops the fragment. */
export function resolveDemoHref(href: string, base: string): string | null {
  return resolveWithOrigin(href, base, originOf(base));
}

/** Every `<a href>` of the page, in document order of the groups, resolved against its base. */
export function demoPageLinks(web: DemoWeb, page: DemoPage): DemoLink[] {
  const source = contentSource(web, page);
  const groups = demoLinkGroups(web, page);
  const base = source.baseHref ?? page.url;
  const origin = originOf(base);
  const pageNofollow = /nofollow|none/i.test(source.robotsMeta ?? '');
  const links: DemoLink[] = [];
  for (const group of [groups.nav, groups.breadcrumbs, groups.listing, groups.sequence, groups.related, groups.elsewhere, groups.extras]) {
    for (const link of group) {
      const nofollow = pageNofollow || (link.rel !== undefined && /\bnofollow\b/i.test(link.rel));
      links.push({ href: link.href, text: link.text, rel: link.rel, url: resolveWithOrigin(link.href, base, origin), nofollow });
    }
  }
  return links;
}
