/**
 * One line of a page import (JSON Lines, as `lse import` and `POST /api/admin/documents` take
 * them): checked field by field, so a bad line names its line number and the field at fault, and
 * the other lines still go in. Pure: no I/O.
 */
import { linkResolver, normalizeUrl, urlRules, type UrlCheck } from '../../crawler/url.ts';

/** A page as a site pushes it: its text already extracted (no HTML is parsed here). */
export interface ImportedPage {
  url: string;
  title: string;
  body: string;
  /** Primary language subtag, lower case (`pt-BR` → `pt`). */
  lang?: string;
  /** ISO 8601, as given (checked to parse). */
  lastModified?: string;
  /** Document type (`pdf`, `docx`…); absent for HTML. */
  type?: string;
  section?: string;
  /** Absolute, normalised http(s) URLs, deduplicated, in the order given. */
  links: string[];
}

export interface LineError {
  /** 1-based line number in the input. */
  line: number;
  /** The field at fault (`url`, `links[3]`), or `line` for the line as a whole. */
  field: string;
  message: string;
}

export type ParsedLine = { ok: true; page: ImportedPage } | { ok: false; error: LineError };

/** Bounds on one imported page: a push from a broken build must not fill the store. */
export const IMPORT_LIMITS = {
  /** Characters of a line (the body is most of it). */
  maxLineChars: 16 * 1024 * 1024,
  maxTitleChars: 1_000,
  maxSectionChars: 200,
  /** Outlinks kept per page (Heritrix keeps 6,000, Nutch 100 by default). */
  maxLinks: 5_000,
} as const;

export const IMPORT_FIELDS = ['url', 'title', 'body', 'lang', 'lastModified', 'type', 'section', 'links'] as const;

const LANGUAGE_TAG = /^([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*$/;
const TYPE_NAME = /^[a-z0-9]{1,10}$/;
/** Schemes a page may link to that are not pages (skipped, not an error). */
const NOT_A_PAGE = /^(mailto|tel|javascript|data|ftp|news|irc|sms|file):/i;

/** An absolute http(s) link: what it resolves to does not depend on the page it is on. */
const ABSOLUTE_HTTP = /^https?:\/\//i;

/**
 * The URL checks of one import: one set of crawl rules for all its lines, and the checked form of
 * absolute links remembered (an import's pages link to the same home, menus and hubs again and
 * again), up to a bound past which the memory starts anew.
 */
export class ImportUrls {
  private readonly rules = urlRules();
  private readonly checkedLinks = new Map<string, UrlCheck | null>();

  constructor(private readonly maxRemembered = 200_000) {}

  page(url: string): UrlCheck {
    return normalizeUrl(url, this.rules);
  }

  /** A page's links, each resolved against the page and checked (null: it cannot be resolved). */
  linksOf(pageUrl: string): (href: string) => UrlCheck | null {
    const resolve = linkResolver(pageUrl);
    const check = (href: string) => {
      const absolute = resolve(href);
      return absolute === null ? null : normalizeUrl(absolute, this.rules);
    };
    return (href) => {
      if (!ABSOLUTE_HTTP.test(href)) return check(href);
      let checked = this.checkedLinks.get(href);
      if (checked === undefined) {
        checked = check(href);
        if (this.checkedLinks.size >= this.maxRemembered) this.checkedLinks.clear();
        this.checkedLinks.set(href, checked);
      }
      return checked;
    };
  }
}

class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses and checks one line; `line` is its 1-based number. Blank lines are the caller's to skip.
 * The lines of one import share their URL checks (`urls`).
 */
export function parsePageLine(text: string, line: number, urls: ImportUrls = new ImportUrls()): ParsedLine {
  if (text.length > IMPORT_LIMITS.maxLineChars) return fail(line, 'line', `longer than ${IMPORT_LIMITS.maxLineChars} characters`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(line, 'line', `not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(line, 'line', 'not a JSON object');
  try {
    return { ok: true, page: checkPage(value as Record<string, unknown>, urls) };
  } catch (error) {
    if (error instanceof FieldError) return fail(line, error.field, error.message);
    throw error;
  }
}

function fail(line: number, field: string, message: string): ParsedLine {
  return { ok: false, error: { line, field, message } };
}

function checkPage(fields: Record<string, unknown>, urls: ImportUrls): ImportedPage {
  for (const name of Object.keys(fields)) {
    if (!(IMPORT_FIELDS as readonly string[]).includes(name)) throw new FieldError(name, `unknown field (the fields are ${IMPORT_FIELDS.join(', ')})`);
  }
  const url = pageUrl(fields.url, urls);
  const page: ImportedPage = {
    url,
    title: requiredString(fields, 'title', IMPORT_LIMITS.maxTitleChars).replace(/\s+/g, ' ').trim(),
    body: requiredString(fields, 'body', Infinity),
    links: links(fields.links, urls.linksOf(url), url),
  };
  const lang = optionalString(fields, 'lang', 35);
  if (lang !== undefined) {
    const match = LANGUAGE_TAG.exec(lang);
    if (!match) throw new FieldError('lang', `"${lang}" is not a language tag (such as en, de, pt-BR)`);
    page.lang = match[1].toLowerCase();
  }
  const modified = fields.lastModified;
  if (modified !== undefined && modified !== null) {
    const time = typeof modified === 'string' ? Date.parse(modified) : NaN;
    if (!Number.isFinite(time)) throw new FieldError('lastModified', 'not a date (ISO 8601, such as 2026-11-27 or 2026-11-27T08:00:00Z)');
    page.lastModified = new Date(time).toISOString();
  }
  const type = optionalString(fields, 'type', 10)?.toLowerCase();
  if (type !== undefined && type !== 'html') {
    if (!TYPE_NAME.test(type)) throw new FieldError('type', `"${type}" is not a document type (such as pdf, docx)`);
    page.type = type;
  }
  const section = optionalString(fields, 'section', IMPORT_LIMITS.maxSectionChars)?.replace(/\s+/g, ' ').trim();
  if (section) page.section = section;
  return page;
}

function pageUrl(value: unknown, urls: ImportUrls): string {
  if (typeof value !== 'string' || value.trim() === '') throw new FieldError('url', 'required: the absolute http(s) URL of the page');
  const checked = urls.page(value);
  if (!checked.ok) throw new FieldError('url', `"${value.slice(0, 200)}" is not an accepted absolute http(s) URL (${checked.reason})`);
  return checked.url;
}

function requiredString(fields: Record<string, unknown>, name: string, maxChars: number): string {
  const value = fields[name];
  if (typeof value !== 'string') throw new FieldError(name, value === undefined ? 'required' : 'must be a string');
  if (value.length > maxChars) throw new FieldError(name, `longer than ${maxChars} characters`);
  return value;
}

function optionalString(fields: Record<string, unknown>, name: string, maxChars: number): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new FieldError(name, 'must be a string');
  if (value.length > maxChars) throw new FieldError(name, `longer than ${maxChars} characters`);
  return value.trim() === '' ? undefined : value.trim();
}

/** Links resolved against the page, normalised, deduplicated; non-page schemes skipped. */
function links(value: unknown, checkLink: (href: string) => UrlCheck | null, pageUrl: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new FieldError('links', 'must be an array of URLs');
  if (value.length > IMPORT_LIMITS.maxLinks) throw new FieldError('links', `more than ${IMPORT_LIMITS.maxLinks} links`);
  const out = new Set<string>();
  value.forEach((href, i) => {
    if (typeof href !== 'string') throw new FieldError(`links[${i}]`, 'must be a string');
    if (NOT_A_PAGE.test(href.trim())) return;
    const checked = checkLink(href);
    if (!checked?.ok) throw new FieldError(`links[${i}]`, `"${href.slice(0, 200)}" is not a URL this page can link to`);
    if (checked.url !== pageUrl) out.add(checked.url);
  });
  return [...out];
}
