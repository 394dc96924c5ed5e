/**
 * The page facts and suggestions built in the index build's own pass over the store: `lse index`
 * reads the pages once (not three times), saves exactly the files the separate passes write, and
 * a server then loads them without reading a page.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { savePageFacts } from '../indexer/ranking/page-facts.ts';
import { buildSuggestions, loadSearchData } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { main } from '../server/cli/main.ts';
import { buildDemoDataDir } from './helpers/demo-data-dir.ts';

const FACTS = join('facts', 'page-facts.bin');
const SUGGESTIONS = join('suggest', 'suggestions.bin');
const LANGS = ['en', 'de', 'fr', 'pt-br', undefined];
const WORDS = 'telescope orbit lens mirror gen_server:call os.path.join Mirror café über naïve std::vector focal aperture eyepiece mount tripod star galaxy nebula'.split(' ');

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const PAGES = 600;

/** Counts the pages read from any store by iterating it. */
function countPageReads(): { pages: number } {
  const reads = { pages: 0 };
  const pages = CrawlStore.prototype.pages;
  vi.spyOn(CrawlStore.prototype, 'pages').mockImplementation(async function* (this: CrawlStore) {
    for await (const entry of pages.call(this)) {
      reads.pages++;
      yield entry;
    }
  });
  return reads;
}

/** A store whose pages have every field the facts and suggestions read: translations, copies, canonicals, crumbs, documents, noindex, remote pages. */
async function variedStore(pages: number): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-search-data-pass-'));
  dirs.push(dataDir);
  const store = await CrawlStore.open(dataDir);
  const random = seededRandom(11);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const url = (i: number) => `https://site.test/${['en', 'de', 'docs', 'fr'][i % 4]}/s${i % 7}/p${i}`;
  try {
    const batch = store.batch();
    for (let i = 0; i < pages; i++) {
      const id = batch.idFor(url(i));
      const page: PageRecord = { url: url(i), host: i % 9 === 0 ? 'www.site.test' : 'site.test', role: i % 17 === 0 ? 'global' : 'local', state: i % 23 === 0 ? 'error' : i % 29 === 0 ? 'not-modified' : 'fetched', status: 200, fetchedAt: 1, depth: 1, visits: 1, changes: 0 };
      page.title = i % 13 === 0 ? '' : words(3 + (i % 4));
      page.headings = [words(2)];
      page.text = words(40 + (i % 50));
      const lang = LANGS[i % LANGS.length];
      if (lang !== undefined) page.lang = lang;
      if (i % 5 === 1) page.alternates = [{ url: url(i + 1), lang: 'de' }, { url: url(i + 2), lang: 'fr' }];
      if (i % 11 === 3) page.duplicateOf = batch.idFor(url(i - 3));
      if (i % 12 === 4) page.canonical = url(i - 4);
      if (i % 8 === 2) page.breadcrumb = [{ name: 'Home', url: 'https://site.test/' }, { name: `Area ${i % 3}`, url: `https://site.test/a${i % 3}/` }, { name: page.title }];
      if (i % 10 === 6) page.type = 'PDF';
      if (i % 6 === 0) page.lastModified = new Date(Date.UTC(2026, 0, 1 + (i % 200))).toUTCString();
      if (i % 7 === 5) page.sitemapLastmod = Date.UTC(2025, 5, 1 + (i % 28));
      if (i % 19 === 7) page.noindex = true;
      batch.putPage(id, page).putLinks(id, [{ to: batch.idFor(url((i * 7) % pages)) }, { to: batch.idFor(url(0)) }]);
    }
    await batch.commit();
  } finally {
    await store.close();
  }
  return dataDir;
}

/** What the separate passes (`savePageFacts`, `buildSuggestions`) save on the store as it is. */
async function separatelySaved(dataDir: string): Promise<{ facts: Buffer; suggestions: Buffer }> {
  const store = await CrawlStore.open(dataDir);
  try {
    await savePageFacts(store);
    await buildSuggestions(store);
  } finally {
    await store.close();
  }
  return { facts: readFileSync(join(dataDir, FACTS)), suggestions: readFileSync(join(dataDir, SUGGESTIONS)) };
}

describe('the search data of an index build', () => {
  it('comes from the one pass over the pages that builds the index, as the separate passes would save it', async () => {
    const dataDir = await variedStore(PAGES);
    const reads = countPageReads();
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await main(['index', '--data', dataDir])).toBe(0);
    // Every page twice: once for the local PageRank's domain, once for the index, the facts and the
    // suggestions (which took a pass each before: four in all).
    expect(reads.pages).toBe(2 * PAGES);
    const built = { facts: readFileSync(join(dataDir, FACTS)), suggestions: readFileSync(join(dataDir, SUGGESTIONS)) };
    const separate = await separatelySaved(dataDir);
    expect(built.facts.equals(separate.facts)).toBe(true);
    expect(built.suggestions.equals(separate.suggestions)).toBe(true);

    // A server starts from them without reading a page.
    reads.pages = 0;
    const store = await CrawlStore.open(dataDir);
    const index = await TextIndex.open(dataDir);
    try {
      const { ranking } = loadSettings({ env: {}, overrides: { dataDir } });
      const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: ranking.blend, weight: ranking.weight });
      await loadSearchData(engine, store);
      expect(reads.pages).toBe(0);
      expect(engine.pageFacts.size).toBeGreaterThan(400);
      expect(engine.suggest('teles').map((s) => s.text)).toContain('telescope');
    } finally {
      await index.close();
      await store.close();
    }
  });

  it('saves on a crawled site, ranked by an estimation round, what the separate passes save', async () => {
    const demo = await buildDemoDataDir({ pages: 300, round: { iterations: 2, extra: '0.2n' } });
    try {
      const built = { facts: readFileSync(join(demo.settings.dataDir, FACTS)), suggestions: readFileSync(join(demo.settings.dataDir, SUGGESTIONS)) };
      await savePageFacts(demo.store);
      await buildSuggestions(demo.store);
      expect(built.facts.equals(readFileSync(join(demo.settings.dataDir, FACTS)))).toBe(true);
      expect(built.suggestions.equals(readFileSync(join(demo.settings.dataDir, SUGGESTIONS)))).toBe(true);
    } finally {
      await demo.close();
    }
  }, 120_000);
});
