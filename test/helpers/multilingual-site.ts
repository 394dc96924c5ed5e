/**
 * A small multilingual site for the search-experience tests: one library page in four languages
 * (hreflang alternates), an exact copy of the English one under a URL without its language, a
 * PDF, news pages with dates, stored in a real CrawlStore, indexed in a real TextIndex and served
 * by the real app. The sentences are Article 1 of the Universal Declaration of Human Rights in
 * each language (the official translations), with the site's own words around them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parseHtml } from '../../crawler/html.ts';
import { loadSearchData } from '../../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import { CrawlStore, type PageRecord } from '../../indexer/store/crawl-store.ts';
import { indexableDocuments } from '../../indexer/text-index/store-adapter.ts';
import { TextIndex } from '../../indexer/text-index/text-index.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { openSearchExperience, type SearchExperience } from '../../server/search-admin/search-experience.ts';
import { settingsSchema, type Settings } from '../../config/schema.ts';

export const SITE = 'http://www.northfield.example';

const ARTICLE_1: Record<string, string> = {
  en: 'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.',
  de: 'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.',
  fr: 'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.',
  ja: 'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。',
};

const LIBRARY_TITLES: Record<string, string> = {
  en: 'Northfield Library opening hours',
  de: 'Northfield Library Öffnungszeiten',
  fr: 'Northfield Library horaires',
  ja: 'Northfield Library 開館時間',
};

const paragraphs = (topic: string, n: number) => Array.from({ length: n }, () => `<p>This part, one of many, is about ${topic} in general.</p>`).join('\n');

/**
 * A long page with sections (headings with ids), served as is by the browser test and stored as
 * the crawler extracts it: a query for a word deep in it names the section and links to its id.
 */
export const HANDBOOK_PATH = '/en/guide/borrowing.html';
export const HANDBOOK_HTML = `<!doctype html><html lang="en"><head><title>Borrowing handbook</title></head><body>
<header><a href="/">Northfield</a></header><main>
<h1 id="top">Borrowing handbook</h1>${paragraphs('loans', 40)}
<h2 id="fines">Fines</h2>${paragraphs('fines', 40)}
<h2 id="renewals">Renewals</h2>${paragraphs('due dates', 40)}<p>Renew a loan online before its due date.</p>
<h2 id="lost-items">Lost items</h2>${paragraphs('lost books', 40)}
</main><footer>Northfield footer</footer></body></html>`;
const handbook = parseHtml(HANDBOOK_HTML, `${SITE}${HANDBOOK_PATH}`);

export interface SitePage {
  path: string;
  lang?: string;
  type?: string;
  title: string;
  text: string;
  alternates?: Array<{ path: string; lang: string }>;
  duplicateOfPath?: string;
  lastModified?: string;
  sitemapLastmod?: number;
  headings?: string[];
  sections?: Array<{ heading: string; anchor?: string; start: number }>;
}

const translations = Object.keys(ARTICLE_1).map((lang) => ({ path: `/${lang}/library/hours.html`, lang }));

export const PAGES: SitePage[] = [
  // The English page is stored under a URL without its language; its copy under /en/ is the duplicate.
  ...Object.keys(ARTICLE_1).map((lang) => ({
    path: lang === 'en' ? '/library/hours.html' : `/${lang}/library/hours.html`,
    lang,
    title: LIBRARY_TITLES[lang],
    text: `${LIBRARY_TITLES[lang]}. ${ARTICLE_1[lang]}`,
    alternates: translations.filter((t) => t.lang !== lang),
    lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT',
  })),
  { path: '/en/library/hours.html', lang: 'en', title: LIBRARY_TITLES.en, text: `${LIBRARY_TITLES.en}. ${ARTICLE_1.en}`, duplicateOfPath: '/library/hours.html' },
  { path: '/en/docs/library-rules.pdf', lang: 'en', type: 'pdf', title: 'Library rules', text: `Library rules of Northfield. ${ARTICLE_1.en}`, sitemapLastmod: Date.UTC(2026, 0, 5) },
  { path: '/en/news/new-telescope.html', lang: 'en', title: 'A new telescope for the observatory', text: 'The observatory has a new automobile-sized telescope, brought by car from the library.', lastModified: 'Fri, 20 Nov 2026 09:00:00 GMT' },
  { path: '/en/news/old-telescope.html', lang: 'en', title: 'The old telescope retires', text: 'The old telescope of the observatory retires after forty years.', lastModified: 'Mon, 01 Jun 2020 09:00:00 GMT' },
  { path: '/de/news/teleskop.html', lang: 'de', title: 'Ein neues Teleskop', text: 'Die Sternwarte hat ein neues telescope bekommen.', sitemapLastmod: Date.UTC(2026, 10, 21) },
  {
    path: HANDBOOK_PATH,
    lang: 'en',
    title: handbook.title,
    text: handbook.content.text,
    headings: [...handbook.content.headings],
    sections: [...handbook.content.sections],
  },
  { path: '/en/visit/parking.html', lang: 'en', title: 'Parking for visitors', text: 'Where to leave your car when you visit the campus.' },
];

export interface MultilingualSite {
  app: FastifyInstance;
  engine: SearchEngine;
  experience: SearchExperience;
  store: CrawlStore;
  index: TextIndex;
  dataDir: string;
  url?: string;
  idOf(path: string): number;
  close(): Promise<void>;
}

export const ADMIN_TOKEN = 'multilingual-site-admin-token';

export interface MultilingualSiteOptions {
  listen?: boolean;
  app?: Partial<AppOptions>;
  search?: Partial<Settings['search']>;
  now?: () => number;
}

export async function buildMultilingualSite(options: MultilingualSiteOptions = {}): Promise<MultilingualSite> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-multilingual-'));
  const store = await CrawlStore.open(dataDir);
  const batch = store.batch();
  const ids = PAGES.map((page) => batch.idFor(`${SITE}${page.path}`));
  PAGES.forEach((page, i) => {
    const record: PageRecord & Record<string, unknown> = {
      url: `${SITE}${page.path}`,
      host: new URL(SITE).host,
      role: 'local',
      state: 'fetched',
      status: 200,
      fetchedAt: Date.UTC(2026, 10, 1),
      depth: 1,
      visits: 1,
      changes: 0,
      title: page.title,
      headings: page.headings ?? [page.title],
      ...(page.sections ? { sections: page.sections } : {}),
      text: page.text,
      ...(page.lang ? { lang: page.lang } : {}),
      ...(page.type ? { type: page.type } : {}),
      ...(page.lastModified ? { lastModified: page.lastModified } : {}),
      ...(page.sitemapLastmod ? { sitemapLastmod: page.sitemapLastmod } : {}),
      ...(page.alternates ? { alternates: page.alternates.map((a) => ({ url: `${SITE}${a.path}`, lang: a.lang })) } : {}),
      ...(page.duplicateOfPath ? { duplicateOf: ids[PAGES.findIndex((p) => p.path === page.duplicateOfPath)] } : {}),
    };
    batch.putPage(ids[i], record);
  });
  // Local PageRank: the copy under /en/ ranks lower than the page it copies (the rule must still pick /en/).
  const local = Float64Array.from(PAGES, (page) => (page.path === '/library/hours.html' ? 0.3 : 0.1));
  batch.putRanks({ name: 'local', version: 1, ids: Int32Array.from(ids), values: local });
  await batch.commit();
  const index = await TextIndex.open(dataDir, { workers: 0, autoMerge: false });
  await index.rebuild(indexableDocuments(store));
  const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: 'log-linear', weight: 0.3 });
  await loadSearchData(engine, store);
  const experience = await openSearchExperience({
    dataDir,
    store,
    index,
    engine,
    token: ADMIN_TOKEN,
    search: { ...settingsSchema.parse({}).search, ...options.search },
    adminRateLimitPerMinute: 1000,
    now: options.now,
  });
  const app = await buildApp({ search: engine, logger: false, siteName: 'Northfield', analytics: experience.appAnalytics, plugins: [experience.adminPlugin], ...options.app });
  const url = options.listen ? await app.listen({ host: '127.0.0.1', port: 0 }) : undefined;
  return {
    app,
    engine,
    experience,
    store,
    index,
    dataDir,
    url,
    idOf: (path) => ids[PAGES.findIndex((p) => p.path === path)],
    close: async () => {
      await app.close();
      await experience.analytics.flush();
      await index.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
