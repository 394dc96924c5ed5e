/**
 * Making a page of a document: the title from its metadata, else its first heading, else its
 * first line, else the file name; links resolved against the document's URL.
 */
import type { Heading, ParsedLink, ParsedPage } from '../html.ts';
import type { TextSection } from './types.ts';

const MAX_TITLE = 200;

export function documentTitle(metadataTitle: string | undefined, headings: readonly Heading[], text: string, url: string): string {
  const fromMetadata = metadataTitle?.replace(/\s+/g, ' ').trim();
  if (fromMetadata) return fromMetadata.slice(0, MAX_TITLE);
  if (headings.length > 0 && headings[0].text.trim()) return headings[0].text.trim().slice(0, MAX_TITLE);
  const firstLine = text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).find((line) => line !== '');
  if (firstLine) return firstLine.slice(0, MAX_TITLE);
  return fileName(url);
}

export function fileName(url: string): string {
  try {
    const segments = new URL(url).pathname.split('/').filter(Boolean);
    return decodeURIComponent(segments[segments.length - 1] ?? url);
  } catch {
    return url;
  }
}

/** An absolute http(s) link without fragment, or null. */
export function documentLink(href: string, text: string, base: string): ParsedLink {
  let url: string | null = null;
  try {
    const resolved = new URL(href, base);
    if (resolved.protocol === 'http:' || resolved.protocol === 'https:') {
      resolved.hash = '';
      url = resolved.href;
    }
  } catch {
    url = null;
  }
  return { href, url, text, rel: [], nofollow: false };
}

/** Lower-case primary language subtag (`en-GB` → `en`), or null. */
export function primaryLanguage(value: string | undefined | null): string | null {
  const match = value ? /^\s*([A-Za-z]{2,3})(?:[-_]|\s*$)/.exec(value) : null;
  return match ? match[1].toLowerCase() : null;
}

/**
 * A document as a parsed page. A document has no boilerplate, so its main content is all of its
 * text; `sections` say where its parts start (a PDF: its pages, anchor `page=N`).
 */
export function documentPage(fields: { title: string; headings: Heading[]; text: string; links: ParsedLink[]; language: string | null; description?: string | null; sections?: TextSection[] }): ParsedPage {
  return {
    title: fields.title,
    headings: fields.headings,
    text: fields.text,
    links: fields.links,
    baseHref: null,
    canonical: null,
    robots: { noindex: false, nofollow: false, directives: [] },
    description: fields.description ?? null,
    language: fields.language,
    alternates: [],
    content: { text: fields.text, headings: fields.headings.map((heading) => heading.text), sections: fields.sections ?? [] },
    breadcrumb: [],
  };
}
