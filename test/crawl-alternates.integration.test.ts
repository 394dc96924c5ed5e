/**
 * Translations are grouped whichever way pages name them with `rel="alternate" hreflang`: a
 * `<link>` in the head, an `<a>` in the body (a language bar), the HTTP `Link` header, or a
 * sitemap's `xhtml:link`. A site with one English–German pair per way is crawled over HTTP; each
 * English page stores its German translation, and a search shows each pair as one hit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import type { EngineResult } from '../indexer/ranking/search-engine.ts';
import type { PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { runRecrawl } from '../server/jobs/recrawl.ts';
import { serveSite, type ServedSite } from './helpers/copied-translations-site.ts';
import { crawlAndServe, type CrawledSite } from './helpers/crawled-site.ts';

const HOST = 'alternates.test';

/** One topic per way of naming translations: English and German text. */
const PAIRS = {
  head: { en: 'Telescopes gather starlight with mirrors and lenses of great size.', de: 'Teleskope sammeln Sternenlicht mit großen Spiegeln und Linsen.' },
  body: { en: 'Volcanoes erupt molten rock from deep under the crust of the earth.', de: 'Vulkane stoßen geschmolzenes Gestein aus der Tiefe der Erdkruste aus.' },
  header: { en: 'Glaciers carve valleys slowly as rivers of ice move downhill.', de: 'Gletscher formen langsam Täler, wenn Ströme aus Eis talwärts fließen.' },
  sitemap: { en: 'Lighthouses guide ships along rocky coasts through the night.', de: 'Leuchttürme leiten Schiffe nachts entlang felsiger Küsten.' },
} as const;
type Way = keyof typeof PAIRS;
const WAYS = Object.keys(PAIRS) as Way[];

const other = (lang: 'en' | 'de') => (lang === 'en' ? 'de' : 'en');

function pageHtml(way: Way, lang: 'en' | 'de'): string {
  const translation = `/${other(lang)}/${way}.html`;
  const head = way === 'head' ? `<link rel="alternate" hreflang="${other(lang)}" href="${translation}"><link rel="alternate" hreflang="${lang}" href="/${lang}/${way}.html">` : '';
  const bar = way === 'body' ? `<p class="languages"><a href="${translation}" hreflang="${other(lang)}" rel="alternate">${other(lang)}</a></p>` : '';
  // Filler in the page's language so its language is told from its text too.
  const filler = lang === 'en' ? 'This page belongs to a small site about the natural world and the things people build in it.' : 'Diese Seite gehört zu einer kleinen Website über die Natur und die Dinge, die Menschen darin bauen.';
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${way} ${lang}</title>${head}</head><body>${bar}<main><h1>${way}</h1><p>${PAIRS[way][lang]}</p><p>${filler}</p></main></body></html>`;
}

function indexHtml(lang: 'en' | 'de'): string {
  // Every page is linked from its language's index, so each is crawled whatever names its translation.
  return `<!doctype html><html lang="${lang}"><head><title>${lang}</title></head><body><ul>${WAYS.map((way) => `<li><a href="/${lang}/${way}.html">page ${WAYS.indexOf(way) + 1}</a></li>`).join('')}</ul></body></html>`;
}

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${(['en', 'de'] as const)
  .map(
    (lang) => `<url><loc>http://${HOST}/${lang}/sitemap.html</loc>
<xhtml:link rel="alternate" hreflang="en" href="http://${HOST}/en/sitemap.html"/>
<xhtml:link rel="alternate" hreflang="de" href="http://${HOST}/de/sitemap.html"/></url>`,
  )
  .join('\n')}
</urlset>`;

let served: ServedSite;
let crawled: CrawledSite;

beforeAll(async () => {
  const pages = new Map<string, { html: string }>();
  for (const lang of ['en', 'de'] as const) {
    pages.set(`/${lang}/index.html`, { html: indexHtml(lang) });
    for (const way of WAYS) pages.set(`/${lang}/${way}.html`, { html: pageHtml(way, lang) });
  }
  const headers = (path: string) => {
    const match = /^\/(en|de)\/header\.html$/.exec(path);
    if (!match) return undefined;
    const lang = match[1] as 'en' | 'de';
    return { link: `</${other(lang)}/header.html>; rel="alternate"; hreflang="${other(lang)}", </${lang}/header.html>; rel=alternate; hreflang=${lang}, </style.css>; rel=preload; as=style` };
  };
  served = await serveSite(pages, { headers, sitemap: SITEMAP });
  crawled = await crawlAndServe({ host: HOST, served: served.url });
}, 60_000);

afterAll(async () => {
  await crawled?.close();
  await served?.close();
});

async function search(query: string): Promise<EngineResult> {
  const response = await fetch(`${crawled.url}/api/search?${query}`, { headers: { 'accept-language': 'en' } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as EngineResult;
}

describe('translations named by rel=alternate hreflang, whichever way', () => {
  it.each(WAYS)('stores the translation named by %s', async (way) => {
    for (const lang of ['en', 'de'] as const) {
      const page = (await crawled.store.getPage(crawled.store.idOf(`http://${HOST}/${lang}/${way}.html`)!))!;
      expect(page.lang).toBe(lang);
      expect(page.alternates, `${lang}/${way}`).toEqual([{ url: `http://${HOST}/${other(lang)}/${way}.html`, lang: other(lang) }]);
    }
  });

  it.each(WAYS)('shows the %s pair as one hit, in the visitor’s language, with its translation', async (way) => {
    // The pair's heading is the same word in both languages: both pages match, and are one result.
    const result = await search(`q=${way}&size=10`);
    const hits = result.hits.filter((hit) => hit.url.endsWith(`/${way}.html`));
    expect(hits.length, JSON.stringify(result.hits.map((h) => h.url))).toBe(1);
    expect(hits[0].url).toBe(`http://${HOST}/en/${way}.html`);
    expect(hits[0].alternates).toEqual([{ url: `http://${HOST}/de/${way}.html`, lang: 'de' }]);
  });
});

describe('a re-crawl', () => {
  it('stores the translations the sitemap names with the pages it revisits', async () => {
    const { store } = crawled;
    const urls = (['en', 'de'] as const).map((lang) => `http://${HOST}/${lang}/sitemap.html`);
    // As stored before translations were kept: only the sitemap names them, so the re-crawl must read them there.
    const batch = store.batch();
    for (const url of urls) {
      const id = store.idOf(url)!;
      const { alternates: _dropped, ...page } = (await store.getPage(id))!;
      batch.putPage(id, page as PageRecord);
    }
    await batch.commit();
    const settings = loadSettings({ env: {}, overrides: { dataDir: store.directory, crawler: { resolve: { [`${HOST}:80`]: `127.0.0.1:${new URL(served.url).port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
    const stack = createCrawlStack(store, settings.crawler);
    try {
      const result = await runRecrawl({ store, stack, scope: parseScope(`host:${HOST}`), concurrency: 2, sitemaps: {} }, { budget: 100, policy: 'uniform' });
      expect(result.visited).toBeGreaterThanOrEqual(urls.length);
    } finally {
      await stack.close();
    }
    for (const [i, url] of urls.entries()) {
      const page = (await store.getPage(store.idOf(url)!))!;
      expect(page.alternates, url).toEqual([{ url: urls[1 - i], lang: i === 0 ? 'de' : 'en' }]);
    }
  });
});
