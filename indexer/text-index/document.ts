/**
 * The documents the text index takes, and the fields it makes of them. What is indexed is exactly
 * what the segment's document store keeps (text capped at {@link DEFAULT_MAX_TEXT_CHARS}), so a
 * merge can rebuild a segment from its stored documents and get the same index a fresh build gives.
 */
import { TextIndexError } from './errors.ts';

export interface TextDocument {
  /** The store's page id. */
  id: number;
  url: string;
  host: string;
  title: string;
  headings: string[];
  text: string;
  /** Language (primary subtag, `und` when unknown): the analysis the document gets. Absent: English. */
  lang?: string;
  /** Document type as the crawl stores it (`html` when absent, `pdf`…). */
  type?: string;
  /** Headings of `text` with their anchors and start offsets (ascending). */
  sections?: TextSection[];
  /** Last modification, ms since the epoch. */
  lastModified?: number;
  /** Identifiers the page defines, with their anchors and start offsets in `text` (ascending). */
  definitions?: TextDefinition[];
}

/** An identifier a page defines (crawler/definitions.ts): indexed in the `definitions` field, linked by its anchor. */
export interface TextDefinition {
  /** Qualified name as the page's anchor gives it (`decimal.getcontext`, `std::vec::Vec::push`). */
  name: string;
  anchor?: string;
  start: number;
}

export interface TextSection {
  heading: string;
  anchor?: string;
  start: number;
}

/** The indexed fields and their boosts (lunr multiplies a field's BM25 weight by its boost). */
export const INDEX_FIELDS = [
  { name: 'title', boost: 8 },
  { name: 'headings', boost: 3 },
  { name: 'body', boost: 1 },
  { name: 'url', boost: 2 },
  // Identifiers the page defines: a stronger sign than the title for a name (weight measured, docs/search.md).
  { name: 'definitions', boost: 12 },
] as const;

export type IndexFieldName = (typeof INDEX_FIELDS)[number]['name'];
export const FIELD_NAMES: readonly IndexFieldName[] = INDEX_FIELDS.map((field) => field.name);

/**
 * Page text beyond this is neither indexed nor stored. Whole pages are indexed: a reference page
 * of 300 KB is normal, and the longest text in the Rust, PostgreSQL, Django and Sphinx
 * documentation is 2.7 M characters (a source listing); the cap is a guard against hostile pages
 * and documents (a 50 MB body, a PDF that inflates), above any real page's text. It was 20,000 characters, which cut a fifth of a documentation site.
 */
export const DEFAULT_MAX_TEXT_CHARS = 4_000_000;

/** The flat record lunr's builder reads: one string per field, `ref` the page id. */
export interface LunrFieldRecord {
  ref: string;
  title: string;
  headings: string;
  body: string;
  url: string;
  definitions: string;
}

// Parts of a URL that say nothing about the page.
const URL_NOISE = new Set(['http', 'https', 'www', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'index']);

/** The words of a URL's host and path ("https://astro-club.org/star-party.html" → astro club org star party). */
export function urlWords(url: string): string {
  let hostAndPath = url;
  try {
    const parsed = new URL(url);
    hostAndPath = `${parsed.hostname} ${decodeURIComponent(parsed.pathname)}`;
  } catch {
    // Not a URL the WHATWG parser takes: use the raw string's words.
  }
  const words = hostAndPath.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !URL_NOISE.has(word)).join(' ');
}

/** Checks a document's shape and caps its text; throws TextIndexError on a malformed one. */
export function normalizeDocument(doc: TextDocument, maxTextChars = DEFAULT_MAX_TEXT_CHARS): TextDocument {
  if (!Number.isInteger(doc.id) || doc.id < 0 || doc.id > 0x7fffffff) {
    throw new TextIndexError(`document id must be a non-negative 31-bit integer, got ${String(doc.id)}`);
  }
  const text = truncateText(String(doc.text ?? ''), maxTextChars);
  const normalized: TextDocument = {
    id: doc.id,
    url: String(doc.url ?? ''),
    host: String(doc.host ?? ''),
    title: String(doc.title ?? ''),
    headings: Array.isArray(doc.headings) ? doc.headings.map(String) : [],
    text,
  };
  if (typeof doc.lang === 'string' && doc.lang !== '') normalized.lang = doc.lang.toLowerCase();
  if (typeof doc.type === 'string' && doc.type !== '') normalized.type = doc.type;
  if (typeof doc.lastModified === 'number' && Number.isFinite(doc.lastModified)) normalized.lastModified = doc.lastModified;
  const sections = normalizeSections(doc.sections, text.length);
  if (sections.length > 0) normalized.sections = sections;
  const definitions = normalizeDefinitions(doc.definitions, text.length);
  if (definitions.length > 0) normalized.definitions = definitions;
  return normalized;
}

/** Definitions a document may carry (the crawler keeps as many per page). */
export const MAX_DEFINITIONS = 2_000;
const MAX_DEFINITION_CHARS = 200;

/** Definitions inside the (capped) text, ascending, at most MAX_DEFINITIONS; malformed ones are dropped. */
function normalizeDefinitions(definitions: unknown, textLength: number): TextDefinition[] {
  if (!Array.isArray(definitions)) return [];
  const kept: TextDefinition[] = [];
  for (const definition of definitions as TextDefinition[]) {
    if (kept.length >= MAX_DEFINITIONS) break;
    if (definition === null || typeof definition !== 'object') continue;
    const name = String(definition.name ?? '').trim();
    const start = Number(definition.start);
    if (name === '' || name.length > MAX_DEFINITION_CHARS || !Number.isInteger(start) || start < 0 || start > textLength) continue;
    const entry: TextDefinition = { name, start };
    if (typeof definition.anchor === 'string' && definition.anchor !== '') entry.anchor = definition.anchor;
    kept.push(entry);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** A qualified name's suffixes, longest first (`a.b.c` → `a.b.c`, `b.c`, `c`): a query may name it from any level. */
export function qualifiedSuffixes(name: string): string[] {
  const suffixes = [name];
  const joiner = /::|\.|#|:/g;
  for (let match = joiner.exec(name); match !== null; match = joiner.exec(name)) {
    const rest = name.slice(match.index + match[0].length);
    if (rest !== '') suffixes.push(rest);
  }
  return suffixes;
}

/** The `definitions` field: each name, then its shorter suffixes, one per line. */
export function definitionsText(definitions: readonly TextDefinition[] | undefined): string {
  if (!definitions || definitions.length === 0) return '';
  return definitions.map((d) => qualifiedSuffixes(d.name).join(' ')).join('\n');
}

/** Sections inside the (capped) text, in ascending order; malformed ones are dropped. */
function normalizeSections(sections: unknown, textLength: number): TextSection[] {
  if (!Array.isArray(sections)) return [];
  const kept: TextSection[] = [];
  for (const section of sections as TextSection[]) {
    if (section === null || typeof section !== 'object') continue;
    const start = Number(section.start);
    if (!Number.isInteger(start) || start < 0 || start >= textLength) continue;
    if (kept.length > 0 && start < kept[kept.length - 1].start) continue;
    const entry: TextSection = { heading: String(section.heading ?? ''), start };
    if (typeof section.anchor === 'string' && section.anchor !== '') entry.anchor = section.anchor;
    kept.push(entry);
  }
  return kept;
}

function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Cut at a word boundary so that no half word gets indexed.
  const cut = text.lastIndexOf(' ', maxChars);
  return text.slice(0, cut > maxChars * 0.8 ? cut : maxChars);
}

export function toLunrFields(doc: TextDocument): LunrFieldRecord {
  return {
    ref: String(doc.id),
    title: doc.title,
    // One string, not an array: lunr does not split array elements into words.
    headings: doc.headings.join('\n'),
    body: doc.text,
    url: urlWords(doc.url),
    definitions: definitionsText(doc.definitions),
  };
}
