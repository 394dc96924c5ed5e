/**
 * The DOM-based page parser the crawler used before its streaming one (cheerio, parse5 underneath):
 * kept as the reference the streaming parser is compared against (test/crawler-html.test.ts).
 */
import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { resolveLink } from '../../crawler/url.ts';

export interface ParsedLink {
  /** The href as written. */
  readonly href: string;
  /** Absolute http(s) URL without fragment, resolved against `<base href>` or the page; null otherwise. */
  readonly url: string | null;
  /** Visible anchor text (the alt text of images inside when the anchor has no text). */
  readonly text: string;
  /** rel tokens, lower-cased. */
  readonly rel: readonly string[];
  /** rel contains `nofollow`. (`ugc` and `sponsored` are kept in `rel` for the caller to weigh.) */
  readonly nofollow: boolean;
}

export interface MetaRobots {
  readonly noindex: boolean;
  readonly nofollow: boolean;
  /** Every directive seen, lower-cased (`noarchive`, `nosnippet`, …). */
  readonly directives: readonly string[];
}

export interface Heading {
  readonly level: 1 | 2 | 3;
  readonly text: string;
}

export interface ParsedPage {
  readonly title: string;
  readonly headings: readonly Heading[];
  /** Visible body text, whitespace collapsed; blocks separated by a space. */
  readonly text: string;
  readonly links: readonly ParsedLink[];
  /** `<base href>` resolved against the page URL, or null. */
  readonly baseHref: string | null;
  /** `<link rel=canonical>` resolved, or null. */
  readonly canonical: string | null;
  readonly robots: MetaRobots;
  readonly description: string | null;
  /** `<html lang>`, else `<meta http-equiv=content-language>`, lower-cased; null when absent. */
  readonly language: string | null;
  readonly alternates: ReadonlyArray<{ url: string; hreflang: string }>;
}

export interface ParseHtmlOptions {
  /** Our product token: `<meta name="lse-bot">` counts like `<meta name="robots">`. */
  readonly robotsName?: string;
}

export function parseHtml(html: string, pageUrl: string, options: ParseHtmlOptions = {}): ParsedPage {
  const $ = cheerio.load(html);

  const baseAttribute = $('base[href]').first().attr('href');
  const baseHref = baseAttribute === undefined ? null : resolveLink(baseAttribute, pageUrl);

  const headings: Heading[] = [];
  $('h1, h2, h3').each((_index, element) => {
    const text = visibleText([element]);
    if (text !== '') headings.push({ level: Number(element.tagName.slice(1)) as 1 | 2 | 3, text });
  });

  const links: ParsedLink[] = [];
  $('a[href], area[href]').each((_index, element) => {
    const href = (element.attribs.href ?? '').trim();
    // Same-page anchors are not links to another document.
    if (href === '' || href.startsWith('#')) return;
    const rel = tokens(element.attribs.rel);
    let text = visibleText([element]);
    if (text === '') text = collapse($(element).find('img[alt]').map((_i, img) => img.attribs.alt).get().join(' '));
    if (text === '' && element.tagName === 'area') text = collapse(element.attribs.alt ?? '');
    links.push({ href, url: httpUrl(resolveLink(href, pageUrl, baseHref)), text, rel, nofollow: rel.includes('nofollow') });
  });

  let canonical: string | null = null;
  const alternates: Array<{ url: string; hreflang: string }> = [];
  $('link[rel][href]').each((_index, element) => {
    const rel = tokens(element.attribs.rel);
    if (canonical === null && rel.includes('canonical')) {
      canonical = httpUrl(resolveLink(element.attribs.href, pageUrl, baseHref));
    }
    const hreflang = (element.attribs.hreflang ?? '').trim().toLowerCase();
    const url = httpUrl(resolveLink(element.attribs.href.trim(), pageUrl, baseHref));
    if (hreflang !== '' && rel.includes('alternate') && url !== null && alternates.length < 200) alternates.push({ url, hreflang });
  });

  const robotsNames = new Set(['robots', ...(options.robotsName ? [options.robotsName.toLowerCase()] : [])]);
  const directives: string[] = [];
  let description: string | null = null;
  let contentLanguage: string | null = null;
  $('meta').each((_index, element) => {
    const name = (element.attribs.name ?? '').trim().toLowerCase();
    const content = element.attribs.content ?? '';
    if (robotsNames.has(name)) directives.push(...content.split(',').map((d) => d.trim().toLowerCase()).filter((d) => d !== ''));
    else if (name === 'description' && description === null) description = collapse(content);
    else if ((element.attribs['http-equiv'] ?? '').trim().toLowerCase() === 'content-language' && contentLanguage === null) {
      contentLanguage = content.split(',')[0].trim().toLowerCase() || null;
    }
  });
  const none = directives.includes('none');

  const lang = ($('html').attr('lang') ?? '').trim().toLowerCase();

  return {
    title: collapse($('title').first().text()),
    headings,
    text: visibleText($('body').toArray()),
    links,
    baseHref,
    canonical,
    robots: { noindex: none || directives.includes('noindex'), nofollow: none || directives.includes('nofollow'), directives },
    description,
    language: lang !== '' ? lang : contentLanguage,
    alternates,
  };
}

// Elements whose content a reader never sees as text.
// Navigation menus and breadcrumbs repeat on every page: their links are kept, their text is not page content.
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object', 'embed', 'svg', 'canvas', 'select', 'textarea', 'nav']);
// Elements that break a line when rendered: their text must not run into the neighbours'.
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'option', 'img',
  'input', 'button', 'label', 'legend', 'menu',
]);

/** Visible text of the given subtrees (iterative: hostile pages nest deeper than the JS stack). */
function visibleText(roots: readonly AnyNode[]): string {
  const parts: string[] = [];
  const stack: Array<AnyNode | null> = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push(roots[r]);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null) {
      parts.push(' ');
      continue;
    }
    if (node === undefined) break;
    if (node.type === 'text') {
      parts.push(node.data);
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'root') continue; // comments, scripts, styles, directives
    if (node.type === 'tag' && (INVISIBLE.has(node.name) || isHidden(node))) continue;
    const block = node.type === 'tag' && BLOCK.has(node.name);
    if (block) {
      parts.push(' ');
      stack.push(null);
    }
    const children = node.children;
    for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]);
  }
  return collapse(parts.join(''));
}

function isHidden(element: Element): boolean {
  if (element.attribs.hidden !== undefined) return true;
  if (element.name === 'input' && (element.attribs.type ?? '').toLowerCase() === 'hidden') return true;
  const style = element.attribs.style;
  return style !== undefined && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:;|!|$)/i.test(style);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function tokens(value: string | undefined): string[] {
  return value === undefined ? [] : value.toLowerCase().split(/\s+/).filter((token) => token !== '');
}

function httpUrl(url: string | null): string | null {
  return url !== null && (url.startsWith('http://') || url.startsWith('https://')) ? url : null;
}
