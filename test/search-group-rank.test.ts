/**
 * Copies and translations share one link-based rank: the blend uses their group's PageRank,
 * summed over its pages, as a canonical URL gathers the links of its copies. A page copied into
 * ten folders has its links split over eleven URLs; its translation, linked from a whole folder,
 * may have more than it. Neither may outrank the original because of that split.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageFacts, type PageFact } from '../indexer/ranking/page-facts.ts';
import { rankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { GroupTable } from '../indexer/ranking/hit-groups.ts';
import { runStepsYielding } from '../indexer/stepwise.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const SITE = 'http://manual.test';
const FOLDERS = ['de', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'zh'];

interface Page {
  path: string;
  lang: string;
  text?: string;
  rank: number;
  duplicateOf?: string;
  alternates?: string[];
}

// Redirect: the English original, copied byte for byte into nine folders (the copies are
// duplicates: not indexed), and its French translation, linked from the whole French folder.
// An English page on Redirect in a virtual host, without copies, nearly the same text match.
const REDIRECT_EN = 'The Redirect directive sends the client to another address. Redirect takes a status, a path and an address.';
const PAGES: Page[] = [
  { path: '/en/mod/redirect.html', lang: 'en', text: REDIRECT_EN, rank: 0.004, alternates: ['/fr/mod/redirect.html'] },
  ...FOLDERS.filter((folder) => folder !== 'fr').map((folder) => ({ path: `/${folder}/mod/redirect.html`, lang: 'en', rank: 0.004, duplicateOf: '/en/mod/redirect.html' })),
  { path: '/fr/mod/redirect.html', lang: 'fr', text: 'La directive Redirect envoie le client vers une autre adresse, selon un statut et un chemin.', rank: 0.03, alternates: ['/en/mod/redirect.html'] },
  { path: '/en/vhosts/redirect.html', lang: 'en', text: `${REDIRECT_EN} It works in a virtual host too.`, rank: 0.02 },
  { path: '/en/index.html', lang: 'en', text: 'Modules and directives of the server: Redirect, Alias.', rank: 0.001 },
  { path: '/fr/index.html', lang: 'fr', text: 'Modules et directives du serveur : Redirect, Alias.', rank: 0.001 },
  { path: '/fr/vhosts/index.html', lang: 'fr', text: 'Un serveur virtuel peut utiliser Redirect vers une autre adresse du serveur.', rank: 0.001 },
];

let dir: string;
let index: TextIndex;
let engine: SearchEngine;
const idOf = (path: string) => PAGES.findIndex((page) => page.path === path);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lse-group-rank-'));
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false });
  const docs: TextDocument[] = PAGES.flatMap((page, id) => (page.text === undefined ? [] : [{ id, url: `${SITE}${page.path}`, host: 'manual.test', title: page.path.includes('redirect') ? 'Redirect' : 'Redirections', headings: [], text: page.text, lang: page.lang }]));
  await index.rebuild(docs);
  const ids = PAGES.map((_, id) => id);
  const ranks = PAGES.map((page) => page.rank);
  engine = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3 });
  const facts = new Map<number, PageFact>(
    PAGES.map((page, id) => {
      const copies = page.duplicateOf ? [`${SITE}${page.duplicateOf}`] : [];
      const related = [...copies, ...(page.alternates ?? []).map((path) => `${SITE}${path}`)];
      return [id, { url: `${SITE}${page.path}`, host: 'manual.test', lang: page.lang, type: 'html', section: 'mod', date: NaN, indexed: page.text !== undefined, related, copies }];
    }),
  );
  engine.setFacts(new PageFacts(facts));
});

afterAll(async () => {
  await index?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('one link-based rank per group of copies and translations', () => {
  it('ranks the copied original by the links of all its copies', async () => {
    // No visitor language, and the query does not tell one: only the ranks decide.
    const result = await engine.search({ q: 'Redirect', page: 1, size: 10, rank: 'blend', explain: true });
    const urls = result.hits.map((hit) => hit.url.replace(SITE, ''));
    // Summed over its ten URLs and its translation, the original's rank passes the other page's.
    expect(urls.slice(0, 2)).toEqual(['/en/mod/redirect.html', '/en/vhosts/redirect.html']);
    expect(result.hits[0].explain?.groupGlobalPageRank).toBeCloseTo(0.004 * 10 + 0.03, 10);
  });

  it('shows the original, not its better-linked translation, when both match as well', async () => {
    // The French page has seven times the English page's own rank; sharing one, the better text match is shown, as by text alone.
    const result = await engine.search({ q: 'Redirect', page: 1, size: 10, rank: 'blend', explain: true });
    const text = await engine.search({ q: 'Redirect', page: 1, size: 10, rank: 'text', explain: true });
    expect(text.hits[0].url).toBe(`${SITE}/en/mod/redirect.html`);
    expect(result.hits[0].url).toBe(`${SITE}/en/mod/redirect.html`);
    expect(result.hits[0].alternates).toEqual([{ url: `${SITE}/fr/mod/redirect.html`, lang: 'fr' }]);
    expect(result.hits[0].duplicates).toHaveLength(FOLDERS.length - 1);
  });

  it('keeps each page its own PageRank in the answer', async () => {
    const result = await engine.search({ q: 'Redirect', page: 1, size: 10, rank: 'blend', explain: false });
    const original = result.hits.find((hit) => hit.url.endsWith('/en/mod/redirect.html'))!;
    expect(original.globalPageRank).toBe(0.004);
    expect(idOf('/en/mod/redirect.html')).toBe(original.id);
  });
});

describe("the visitor's language first among equal matches", () => {
  it('orders matches in none of the visitor’s languages as if their score were a share of it', async () => {
    const order = async (otherLanguageWeight: number) => {
      const ids = PAGES.map((_, id) => id);
      const ranks = PAGES.map((page) => page.rank);
      const weighted = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3, otherLanguageWeight });
      weighted.setFacts(engine.pageFacts);
      const result = await weighted.search({ q: 'Redirect', page: 1, size: 10, rank: 'blend', explain: false, visitorLanguages: ['fr'] });
      return result.hits.map((hit) => hit.url.replace(SITE, ''));
    };
    // The group with a French page shows it; the English-only pages follow the French ones when
    // the weight is small, and a much better English match stays above a weak French one at 0.5.
    const strong = await order(0.01);
    expect(strong[0]).toBe('/fr/mod/redirect.html');
    expect(strong.slice(1, 3).sort()).toEqual(['/fr/index.html', '/fr/vhosts/index.html']);
    const none = await order(1);
    expect(none.indexOf('/en/vhosts/redirect.html')).toBeLessThan(none.indexOf('/fr/vhosts/index.html'));
  });
});

describe('the group table made in steps', () => {
  it('equals the table made at once, over more rows than a step, and serves the event loop', async () => {
    const facts = new Map<number, PageFact>();
    for (let id = 0; id < 150_000; id++) {
      // Every 50th page is a copy of the one before, every 70th a translation of the one before.
      const related = id % 50 === 1 || id % 70 === 1 ? [`${SITE}/p${id - 1}`] : [];
      facts.set(id, { url: `${SITE}/p${id}`, host: 'manual.test', lang: id % 70 === 1 ? 'fr' : 'en', type: 'html', section: 'p', date: NaN, indexed: true, related, copies: id % 50 === 1 ? related : [] });
    }
    const table = new PageFacts(facts);
    const rank = (id: number) => ((id * 7919) % 1000) / 1e6 + 1e-7;
    let turns = 0;
    const turning = setInterval(() => turns++, 0);
    const stepped = await runStepsYielding(GroupTable.steps(table, rank, rank));
    clearInterval(turning);
    const once = GroupTable.build(table, rank, rank);
    expect(turns).toBeGreaterThan(0);
    // Each pass over the rows stops every 8,192 rows (a step of 65,536, or a pass that never
    // stopped, held a server's event loop 40-70 ms at a million pages): five passes over 150,000 rows.
    let steps = 0;
    const counted = GroupTable.steps(table, rank, rank);
    while (!counted.next().done) steps++;
    expect(steps).toBeGreaterThanOrEqual(5 * Math.floor(150_000 / 8_192));
    expect(stepped.groupRank).toEqual(once.groupRank);
    expect(stepped.groupRankScale).toEqual(once.groupRankScale);
    for (const row of [0, 1, 50, 51, 70, 71, 3500, 3501, 149_999]) {
      expect(stepped.languages(table.group[row])).toEqual(once.languages(table.group[row]));
      expect(stepped.hasLanguage(row, 1)).toBe(once.hasLanguage(row, 1));
    }
    // And against a direct count: each row has its group's summed rank; the scale's median is the sorted middle of the groups' sums.
    const sums = new Map<number, number>();
    for (let row = 0; row < table.size; row++) sums.set(table.group[row], (sums.get(table.group[row]) ?? 0) + rank(table.ids[row]));
    for (let row = 0; row < table.size; row += 997) expect(stepped.groupRank[row]).toBe(sums.get(table.group[row]));
    const sorted = [...sums.values()].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    expect(stepped.groupRankScale.median).toBe(sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
  });

  it("answers as the engine's at-once switch does after changeRanks and changeFacts", async () => {
    const ids = PAGES.map((_, id) => id);
    const flipped = PAGES.map((page) => 0.05 - page.rank);
    const atOnce = new SearchEngine(index, rankSnapshot(1, ids, flipped, flipped), { blend: 'log-linear', weight: 0.3 });
    atOnce.setFacts(engine.pageFacts);
    const stepped = new SearchEngine(index, rankSnapshot(1, ids, PAGES.map((page) => page.rank), PAGES.map((page) => page.rank)), { blend: 'log-linear', weight: 0.3 });
    await stepped.changeFacts(engine.pageFacts);
    await stepped.changeRanks(rankSnapshot(1, ids, flipped, flipped));
    const query = { q: 'Redirect', page: 1, size: 10, rank: 'blend' as const, explain: true };
    const strip = (result: Awaited<ReturnType<SearchEngine['search']>>) => ({ ...result, tookMs: 0 });
    expect(strip(await stepped.search(query))).toEqual(strip(await atOnce.search(query)));
  });
});
