/** The language fields of a stored page, from a parsed page and its response. */
import type { PageAlternateRecord } from '../indexer/store/crawl-store.ts';
import type { ParsedPage } from './html.ts';
import { pageLanguage, primaryLanguage } from '../indexer/text-index/language-detection.ts';

export interface LanguageFields {
  lang: string;
  alternates?: PageAlternateRecord[];
}

export function languageFields(page: ParsedPage, url: string, contentLanguage: string | undefined): LanguageFields {
  const alternates: PageAlternateRecord[] = [];
  let ownHreflang: string | null = null;
  for (const alternate of page.alternates) {
    if (alternate.url === url) {
      ownHreflang ??= alternate.hreflang;
      continue;
    }
    const lang = primaryLanguage(alternate.hreflang);
    if (lang !== null && !alternates.some((a) => a.url === alternate.url)) alternates.push({ url: alternate.url, lang });
  }
  const language = pageLanguage({ declared: page.language, header: contentLanguage, hreflang: ownHreflang, text: page.content.text });
  return alternates.length > 0 ? { lang: language.lang, alternates } : { lang: language.lang };
}

/**
 * Whether a stored local page was read with translations from every source (`<link>`, a body's
 * language bar, the `Link` header, a sitemap): such records always hold `alternates`, even
 * empty. An older record is fetched again without validators, as a 304 would keep what it lacks.
 */
export function storedWithAllTranslations(page: { role: string; state: string; alternates?: unknown }): boolean {
  return page.role !== 'local' || (page.state !== 'fetched' && page.state !== 'not-modified') || page.alternates !== undefined;
}
