/**
 * Results in the searcher's language on a documentation site in 11 languages whose translations
 * are named only by a language bar in the body, with many English pages copied untranslated into
 * the other folders (test/helpers/copied-translations-site.ts, text from Debian's documentation).
 * The site is served on loopback, crawled (German folder first, so copies are met before their
 * originals), indexed and searched over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHit, EngineResult } from '../indexer/ranking/search-engine.ts';
import { copiedTranslationsSite, serveSite, type ServedSite } from './helpers/copied-translations-site.ts';
import { crawlAndServe, type CrawledSite } from './helpers/crawled-site.ts';
import { debianDocs } from './helpers/debian-docs.ts';

const HOST = 'docs.languages.test';
const hasDocs = debianDocs().length > 0;

let served: ServedSite;
let crawled: CrawledSite;

beforeAll(async () => {
  if (!hasDocs) return;
  const site = copiedTranslationsSite({ documents: 8, parts: 2, translatedShare: 0.5, templatedShare: 0.4 });
  served = await serveSite(site.pages);
  crawled = await crawlAndServe({ host: HOST, served: served.url });
}, 180_000);

afterAll(async () => {
  await crawled?.close();
  await served?.close();
});

async function search(query: string, headers: Record<string, string> = {}): Promise<EngineResult> {
  const response = await fetch(`${crawled.url}/api/search?${query}`, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as EngineResult;
}

const folderOf = (hit: EngineHit) => new URL(hit.url).pathname.split('/')[1];
const path = (url: string) => new URL(url).pathname;

describe.skipIf(!hasDocs)('a site with body language bars and untranslated copies, crawled and searched over HTTP', () => {
  it('stores the translations a body language bar names', async () => {
    const id = crawled.store.idOf(`http://${HOST}/en/vhosts/index.html`)!;
    const page = (await crawled.store.getPage(id))!;
    expect(page.alternates?.map((a) => path(a.url)).sort()).toEqual(['de', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'zh'].map((lang) => `/${lang}/vhosts/index.html`));
  });

  it('answers an English visitor (Accept-Language) with English pages first, the translations one click away', async () => {
    const result = await search('q=virtual+host+documentation', { 'accept-language': 'en' });
    const first = result.hits[0];
    expect(path(first.url)).toBe('/en/vhosts/index.html');
    expect(first.lang).toBe('en');
    expect(Object.fromEntries((first.alternates ?? []).map((a) => [a.lang, path(a.url)]))).toMatchObject({ de: '/de/vhosts/index.html', fr: '/fr/vhosts/index.html', ja: '/ja/vhosts/index.html' });
    // Untranslated copies are the same page in English, not other languages.
    expect(first.duplicates?.length ?? 0).toBeGreaterThan(0);
    for (const hit of result.hits.slice(0, 5)) {
      expect(hit.lang).toBe('en');
      expect(folderOf(hit)).toBe('en');
    }
  });

  it('corrects `virtaul hosts` and still shows English pages first', async () => {
    const result = await search('q=virtaul+hosts', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(result.correctedQuery).toBe('virtual hosts');
    expect(result.hits.length).toBeGreaterThanOrEqual(3);
    for (const hit of result.hits.slice(0, 5)) expect([hit.lang, folderOf(hit)]).toEqual(['en', 'en']);
    expect(result.hits.slice(0, 3).map((hit) => path(hit.url)).sort()).toEqual(['/en/vhosts/address-based.html', '/en/vhosts/index.html', '/en/vhosts/name-based.html']);
  });

  it('follows the language the visitor chose (hl) before Accept-Language', async () => {
    const french = await search('q=virtual+host+documentation&hl=fr', { 'accept-language': 'en' });
    expect(path(french.hits[0].url)).toBe('/fr/vhosts/index.html');
    expect(french.hits[0].lang).toBe('fr');
    const portuguese = await search('q=name-based+virtual+hosts&hl=pt');
    expect(path(portuguese.hits[0].url)).toBe('/pt/vhosts/name-based.html');
  });

  it('with no language named, follows the language the query is written in', async () => {
    const english = await search('q=virtual+host+documentation');
    expect(path(english.hits[0].url)).toBe('/en/vhosts/index.html');
    const french = await search(`q=${encodeURIComponent('documentation des serveurs virtuels')}`);
    expect(path(french.hits[0].url)).toBe('/fr/vhosts/index.html');
    const japanese = await search(`q=${encodeURIComponent('バーチャルホスト')}`);
    expect(path(japanese.hits[0].url)).toBe('/ja/vhosts/index.html');
  });

  it('counts each page once, whatever its copies and translations, and its chips count what a click shows', async () => {
    const result = await search('q=virtual+hosts&size=50', { 'accept-language': 'en' });
    expect(result.total).toBe(result.hits.length);
    const shown = new Set<string>();
    for (const hit of result.hits) for (const url of [hit.url, ...(hit.duplicates ?? []), ...(hit.alternates ?? []).map((a) => a.url)]) {
      expect(shown.has(url), url).toBe(false);
      shown.add(url);
    }
    for (const [lang, count] of Object.entries(result.facets.lang)) {
      const filtered = await search(`q=virtual+hosts&size=50&lang=${lang}`, { 'accept-language': 'en' });
      expect(filtered.total, lang).toBe(count);
    }
  });
});
