/** Reads the indexable pages of the crawl store as text-index documents. */
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import type { TextDocument } from './document.ts';
import { pageLanguage, UNDETERMINED_LANGUAGE } from './language-detection.ts';

/** Local pages with content (fetched or unchanged), not noindex, not a duplicate of another. */
export function isIndexablePage(page: PageRecord): boolean {
  return (
    page.role === 'local' &&
    (page.state === 'fetched' || page.state === 'not-modified') &&
    page.noindex !== true &&
    page.duplicateOf === undefined
  );
}

/**
 * A stored page as a document. Pages stored without a language (crawled before languages were
 * kept, or documents whose extractor gave none) get the one their text tells.
 */
export function pageToDocument(id: number, page: PageRecord): TextDocument {
  const doc: TextDocument = { id, url: page.url, host: page.host, title: page.title ?? '', headings: page.headings ?? [], text: page.text ?? '' };
  doc.lang = page.lang ?? pageLanguage({ text: `${page.title ?? ''}\n${page.text ?? ''}` }).lang;
  // The document type (`pdf`…) is the crawl's field; absent means HTML.
  const type = (page as { type?: unknown }).type;
  if (typeof type === 'string') doc.type = type;
  if (page.sections !== undefined && page.sections.length > 0) doc.sections = page.sections;
  if (page.definitions !== undefined && page.definitions.length > 0) doc.definitions = page.definitions;
  const modified = page.lastModified === undefined ? NaN : Date.parse(page.lastModified);
  if (Number.isFinite(modified)) doc.lastModified = modified;
  return doc;
}

export interface IndexableOptions {
  /** Told about every page whose language cannot be told (indexed with the neutral analysis). */
  onUndeterminedLanguage?: (url: string) => void;
  /**
   * Told about every stored page as it is read, with its document when it is indexable: what else
   * is built from the pages (the page facts, the suggestions) comes from the same pass.
   */
  onPage?: (id: number, page: PageRecord, document: TextDocument | undefined) => void;
}

export async function* indexableDocuments(store: CrawlStore, options: IndexableOptions = {}): AsyncGenerator<TextDocument> {
  for await (const [id, page] of store.pages()) {
    if (!isIndexablePage(page)) {
      options.onPage?.(id, page, undefined);
      continue;
    }
    const doc = pageToDocument(id, page);
    options.onPage?.(id, page, doc);
    if (doc.lang === UNDETERMINED_LANGUAGE) options.onUndeterminedLanguage?.(doc.url);
    yield doc;
  }
}
