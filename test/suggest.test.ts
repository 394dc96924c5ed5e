/**
 * Suggestions as you type: the suggestion index against a brute-force reference over the same
 * pages, and GET /api/suggest over HTTP on the demo university site, bad input included; on the
 * multilingual site, suggestions re-ranked after an estimation round and without removed pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuggestIndex, surfaceWords, type SuggestSource } from '../indexer/suggest/suggest-index.ts';
import { prefixRange } from '../indexer/text-index/sorted-strings.ts';
import { buildDemoSearchSite, type DemoSearchSite } from './helpers/demo-search-site.ts';
import { refreshRanks } from '../indexer/ranking/search-data.ts';
import { ADMIN_TOKEN, buildMultilingualSite, SITE, type MultilingualSite } from './helpers/multilingual-site.ts';

const PAGES: SuggestSource[] = [
  { id: 1, url: 'http://x.example/telescopes', title: 'Telescopes of the Observatory', headings: ['Telescope time'], text: 'The telescope and the telescopes; a telephone.' },
  { id: 2, url: 'http://x.example/phone', title: 'Telephone directory', headings: [], text: 'Call the telephone desk. Telescope tours on Fridays.' },
  { id: 3, url: 'http://x.example/tea', title: 'Tea room', headings: [], text: 'Tea and telescope talks.' },
  { id: 4, url: 'http://x.example/muenchen', title: 'Exchange with München', headings: [], text: 'Students from München visit the telescope.' },
];
const RANKS: Record<number, number> = { 1: 0.4, 2: 0.3, 3: 0.01, 4: 0.2 };

describe('the suggestion index', () => {
  it('completes the last word with words as written, by pages using them weighted by PageRank', async () => {
    const index = await SuggestIndex.build(PAGES, (id) => RANKS[id]);
    const suggestions = index.suggest('tele', 10);
    const terms = suggestions.filter((s) => s.kind === 'term').map((s) => s.text);
    // telescope: 4 pages; telephone: 2; telescopes: 1 — never the stem "telescop".
    expect(terms).toEqual(['telescope', 'telephone', 'telescopes']);
    expect(suggestions.filter((s) => s.kind === 'title')).toEqual([
      { text: 'Telescopes of the Observatory', kind: 'title', url: 'http://x.example/telescopes' },
      { text: 'Telephone directory', kind: 'title', url: 'http://x.example/phone' },
    ]);
  });

  it('keeps the words before the last, finds titles with every word, reads non-ASCII words', async () => {
    const index = await SuggestIndex.build(PAGES, (id) => RANKS[id]);
    expect(index.suggest('Exchange mün', 4)).toEqual([
      { text: 'Exchange münchen', kind: 'term' },
      { text: 'Exchange with München', kind: 'title', url: 'http://x.example/muenchen' },
    ]);
    expect(index.suggest('the', 4).map((s) => s.text)).not.toContain('the');
    expect(index.suggest('', 4)).toEqual([]);
    expect(index.suggest('tele ', 4)).toEqual([]);
    expect(index.suggest('zzz', 4)).toEqual([]);
  });

  it('completes identifiers the pages write, whole, and never makes one up', async () => {
    const code: SuggestSource[] = [
      { id: 1, url: 'http://x.example/gen_server', title: 'gen_server', headings: [], text: 'Use gen_server:call/3 instead of a general, generated or generic loop. ets:insert/2 stores.' },
      { id: 2, url: 'http://x.example/general', title: 'General notes', headings: [], text: 'General rules, generated files, generic code; use this instead of that. The generator.' },
    ];
    const index = await SuggestIndex.build(code, () => 0.1);
    const terms = (typed: string) => index.suggest(typed, 8).filter((s) => s.kind === 'term').map((s) => s.text);
    expect(terms('gen_s')[0]).toBe('gen_server');
    expect(terms('gen_server:')).toEqual(['gen_server:call/3']);
    expect(terms('ets:ins')).toEqual(['ets:insert/2']);
    expect(terms('ets:ins')).not.toContain('ets:instead');
    expect(terms('see ets:ins')).toEqual(['see ets:insert/2']);
    // A plain prefix: the words first, by how many pages use them.
    expect(terms('gen').slice(0, 3)).toEqual(['general', 'generated', 'generic']);
    // Identifiers are words by their parts too.
    expect(surfaceWords('Use gen_server:call/3')).toEqual(['use', 'gen_server:call/3', 'gen', 'server', 'call']);
  });

  it('finds the prefix range exactly as a linear scan does', () => {
    const words = [...new Set(PAGES.flatMap((p) => surfaceWords(`${p.title} ${p.text}`)))].sort();
    for (const prefix of ['t', 'te', 'tel', 'telescope', 'm', 'mü', 'z', '', 'a']) {
      const [from, to] = prefixRange(words, prefix);
      expect(words.slice(from, to)).toEqual(words.filter((w) => w.startsWith(prefix)));
    }
  });
});

describe('GET /api/suggest', () => {
  let site: DemoSearchSite;
  beforeAll(async () => {
    site = await buildDemoSearchSite();
  }, 120_000);
  afterAll(async () => site?.close());

  it('suggests the site’s words and titles for a prefix', async () => {
    const response = await site.app.inject({ method: 'GET', url: '/api/suggest?q=teles' });
    expect(response.statusCode).toBe(200);
    const { suggestions } = response.json() as { suggestions: Array<{ text: string; kind: string; url?: string }> };
    expect(suggestions.length).toBeGreaterThan(2);
    expect(suggestions[0]).toEqual({ text: 'telescope', kind: 'term' });
    const titles = suggestions.filter((s) => s.kind === 'title');
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      expect(title.text.toLowerCase()).toContain('teles');
      expect(title.url).toMatch(/^http:\/\/www\.northfield-university\.edu\//);
    }
  });

  it('answers bad input with a clear 400, never a 5xx', async () => {
    for (const url of [`/api/suggest?q=${'a'.repeat(10_000)}`, '/api/suggest', '/api/suggest?q=te&limit=0', '/api/suggest?q=te&limit=x', '/api/suggest?q=te&other=1']) {
      const response = await site.app.inject({ method: 'GET', url });
      expect(response.statusCode, url.slice(0, 40)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    const empty = await site.app.inject({ method: 'GET', url: '/api/suggest?q=' });
    expect(empty.json()).toEqual({ suggestions: [] });
  });
});

describe('suggestions follow the estimate and the removed URLs', () => {
  let site: MultilingualSite;
  beforeAll(async () => {
    site = await buildMultilingualSite();
  }, 60_000);
  afterAll(async () => site?.close());

  const NEW = `${SITE}/en/news/new-telescope.html`;
  const OLD = `${SITE}/en/news/old-telescope.html`;
  const titleUrls = async (prefix: string) => {
    const response = await site.app.inject({ method: 'GET', url: `/api/suggest?q=${prefix}` });
    expect(response.statusCode).toBe(200);
    return (response.json().suggestions as Array<{ kind: string; url?: string }>).filter((s) => s.kind === 'title').map((s) => s.url);
  };
  async function estimateFavouring(path: string, version: number): Promise<void> {
    const paths = ['/en/news/new-telescope.html', '/en/news/old-telescope.html', '/de/news/teleskop.html'];
    const batch = site.store.batch();
    batch.putRanks({ name: 'estimate', version, ids: Int32Array.from(paths, (p) => site.idOf(p)), values: Float64Array.from(paths, (p) => (p === path ? 0.5 : 0.001)) });
    await batch.commit();
    await refreshRanks(site.engine, site.store);
  }

  it('ranks titles by the global PageRank of the latest estimation round', async () => {
    await estimateFavouring('/en/news/new-telescope.html', 1);
    expect((await titleUrls('telesc')).slice(0, 2)).toEqual([NEW, OLD]);
    await estimateFavouring('/en/news/old-telescope.html', 2);
    expect(site.engine.rankVersion).toBe(2);
    expect((await titleUrls('telesc')).slice(0, 2)).toEqual([OLD, NEW]);
  });

  it('leaves out the titles of URLs the admin removed from results, until lifted', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    expect(await titleUrls('telesc')).toContain(OLD);
    expect((await site.app.inject({ method: 'POST', url: '/api/admin/removed', headers: auth, payload: { url: OLD } })).statusCode).toBe(201);
    const without = await titleUrls('telesc');
    expect(without).not.toContain(OLD);
    expect(without).toContain(NEW);
    expect((await site.app.inject({ method: 'DELETE', url: `/api/admin/removed?url=${encodeURIComponent(OLD)}`, headers: auth })).statusCode).toBeLessThan(300);
    expect(await titleUrls('telesc')).toContain(OLD);
  });
});
