/** Reads the indexable pages of the crawl store as text-index documents. */
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import type { TextDocument } from './document.ts';

/** Local pages with content (fetched or unchanged), not noindex, not a duplicate of another. */
export function isIndexablePage(page: PageRecord): boolean {
  return (
    page.role === 'local' &&
    (page.state === 'fetched' || page.state === 'not-modified') &&
    page.noindex !== true &&
    page.duplicateOf === undefined
  );
}

export function pageToDocument(id: number, page: PageRecord): TextDocument {
  return { id, url: page.url, host: page.host, title: page.title ?? '', headings: page.headings ?? [], text: page.text ?? '' };
}

export async function* indexableDocuments(store: CrawlStore): AsyncGenerator<TextDocument> {
  for await (const [id, page] of store.pages()) {
    if (isIndexablePage(page)) yield pageToDocument(id, page);
  }
}
