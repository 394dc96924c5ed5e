/**
 * The `prior` blend's link part as a static rank in the text index's top-k: the engine's results
 * equal blending every match (no pool), even when the best page by the blend is far down by text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankScale } from '../indexer/ranking/blend.ts';
import { GroupTable } from '../indexer/ranking/hit-groups.ts';
import { PageFacts, type PageFact } from '../indexer/ranking/page-facts.ts';
import { blendPrior } from '../indexer/ranking/static-prior.ts';
import { rankSnapshot, SearchEngine, type EngineQuery, type SearchEngineOptions } from '../indexer/ranking/search-engine.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const corpus = syntheticCorpus({ count: 400, seed: 5, wordsPerPage: 80, vocabularySize: 600 });
const sections = ['guide', 'api', 'faq'];

let dir: string;
let index: TextIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lse-static-prior-'));
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 150 });
  await index.rebuild(corpus.documents);
});

afterAll(async () => {
  await index?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ids = corpus.documents.map((doc) => doc.id);
// Skewed like PageRank: a few pages far above the median.
const ranks = ids.map((id) => 1 / (1 + ((id * 37) % 400)) ** 1.1);

function engine(options: Partial<SearchEngineOptions>, plain = false): SearchEngine {
  const search = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'prior', weight: 0.5, ...options });
  search.setFacts(pageFacts(plain));
  return search;
}

/** The site's pages; `plain`: in one language, no translations. */
function pageFacts(plain = false): PageFacts {
  const facts = new Map<number, PageFact>(
    corpus.documents.map((doc) => {
      // Pairs of translations (one hit per pair): pages 10k and 10k + 1, the second in French.
      const pair = plain ? -1 : doc.id % 10 === 0 ? doc.id + 1 : doc.id % 10 === 1 ? doc.id - 1 : -1;
      const related = pair >= 0 && pair < corpus.documents.length ? [corpus.documents[pair].url] : [];
      return [doc.id, { url: doc.url, host: doc.host, lang: doc.id % 10 === 1 && !plain ? 'fr' : 'en', type: 'html', section: sections[doc.id % 3], date: NaN, indexed: true, related, copies: [] }];
    }),
  );
  return new PageFacts(facts);
}

function queries(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    const topic = corpus.topicWords[i % corpus.topicWords.length];
    out.push(i % 4 === 0 ? corpus.vocabulary[5 + i] : i % 4 === 1 ? `${topic[0]} ${corpus.vocabulary[8 + i]}` : `${topic[i % topic.length]} ${topic[(i + 1) % topic.length]}`);
  }
  return out;
}

async function top(search: SearchEngine, q: string, extra: Partial<EngineQuery> = {}) {
  const result = await search.search({ q, page: 1, size: 10, rank: 'blend', explain: false, ...extra });
  return { total: result.total, facets: result.facets, hits: result.hits.map((hit) => [hit.id, hit.score, hit.textScore]) };
}

/** The results by group (a pair of translations is one group, named by its English page). */
function groupsOf(result: Awaited<ReturnType<typeof top>>) {
  return { total: result.total, facets: result.facets, groups: result.hits.map(([id]) => (Number(id) % 10 === 1 ? Number(id) - 1 : Number(id))) };
}

describe('the blend prior as a static rank', () => {
  it('gives the results of blending every match, whatever the pool', async () => {
    const everyMatch = engine({ staticPrior: false, candidates: 1_000 });
    const textPool = engine({ staticPrior: false, candidates: 12 });
    const staticRank = engine({ candidates: 12 });
    // The default pool: a few candidates first, all 500 when grouping or the language could change the page.
    const growing = engine({});
    let poolMissed = 0;
    for (const q of queries()) {
      for (const mode of [{}, { section: ['api'] }, { visitorLanguages: ['fr'] }, { page: 2 }] as Array<Partial<EngineQuery>>) {
        const expected = await top(everyMatch, q, mode);
        expect(await top(growing, q, mode), q).toEqual(expected);
        if (mode.visitorLanguages || mode.page) continue;
        // A fixed small pool orders the groups as every match does; which translation a group shows
        // (the site's main language) may be a page outside it, which only the growing pool fetches.
        expect(groupsOf(await top(staticRank, q, mode)), q).toEqual(groupsOf(expected));
        if (JSON.stringify(await top(textPool, q, mode)) !== JSON.stringify(expected)) poolMissed++;
      }
    }
    // Re-ranking only the best by text misses pages the blend puts first: the case this is for.
    expect(poolMissed).toBeGreaterThan(0);
  });

  it('gives them on a plain site from a pool of one candidate more than the page', async () => {
    const rankOf = (id: number) => ranks[id] ?? 0;
    expect(GroupTable.build(pageFacts(true), rankOf, rankOf).plain).toBe(true);
    expect(GroupTable.build(pageFacts(), rankOf, rankOf).plain).toBe(false);
    const everyMatch = engine({ staticPrior: false, candidates: 1_000 }, true);
    const growing = engine({}, true);
    for (const q of queries()) {
      for (const mode of [{}, { section: ['api'] }, { visitorLanguages: ['fr'] }, { page: 2 }, { size: 3 }] as Array<Partial<EngineQuery>>) {
        expect(await top(growing, q, mode), q).toEqual(await top(everyMatch, q, mode));
      }
    }
    // The first pool asked of the text index: the page and one more here, 40 on a site with groups.
    const firstLimit = async (search: SearchEngine) => {
      const limits: number[] = [];
      const own = index.search.bind(index);
      index.search = (q, options) => {
        limits.push(options?.limit ?? 10);
        return own(q, options);
      };
      try {
        await search.search({ q: queries()[1], page: 1, size: 10, rank: 'blend', explain: false });
      } finally {
        Reflect.deleteProperty(index, 'search');
      }
      return limits[0];
    };
    expect(await firstLimit(growing)).toBe(11);
    expect(await firstLimit(engine({}))).toBe(40);
  });

  it('makes the prior of a segment ahead, a slice at a time, equal to the one a search makes', async () => {
    const rankOf = (id: number) => ranks[id] ?? 0;
    const table = GroupTable.build(pageFacts(), rankOf, rankOf);
    const scale = rankScale(ranks);
    const ahead = blendPrior(table, rankOf, scale, 0.5);
    const onDemand = blendPrior(table, rankOf, scale, 0.5);
    for (const segment of index.currentSegments()) {
      await ahead.prepare(segment, 7);
      expect([...ahead.of(segment)]).toEqual([...onDemand.of(segment)]);
    }
  });
});

describe('switching ranks while a commit swaps segments in', () => {
  it("makes the new table's columns for the segments the commit is about to make visible", async () => {
    const switchDir = mkdtempSync(join(tmpdir(), 'lse-static-prior-switch-'));
    const switching = await TextIndex.open(switchDir, { workers: 0, autoMerge: false, maxSegmentDocs: 150 });
    try {
      await switching.rebuild(corpus.documents.slice(0, 300));
      const search = new SearchEngine(switching, rankSnapshot(1, ids, ranks, ranks), { blend: 'prior', weight: 0.5 });
      search.setFacts(pageFacts());
      await search.prepare();
      const flipped = ranks.map((rank) => 2 / ranks.length - rank);
      // The switch runs while the update's commit warms its new segment: before the swap, after the engine's own warmer.
      let switched: Promise<void> | undefined;
      switching.addWarmer(async () => {
        switched ??= search.changeRanks(rankSnapshot(2, ids, flipped, flipped));
        await switched;
      });
      await switching.update({ upsert: corpus.documents.slice(300), remove: [] });
      expect(switched).toBeDefined();
      expect(switching.currentSegments().length).toBe(3);
      expect(search.unpreparedSegments()).toBe(0);
      // And the answers are those of an engine that had the new ranks from the start.
      const fresh = new SearchEngine(switching, rankSnapshot(2, ids, flipped, flipped), { blend: 'prior', weight: 0.5 });
      fresh.setFacts(pageFacts());
      for (const q of queries().slice(0, 10)) expect(await top(search, q)).toEqual(await top(fresh, q));
    } finally {
      await switching.close();
      rmSync(switchDir, { recursive: true, force: true });
    }
  });
});
