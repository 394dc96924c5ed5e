/**
 * Two versions of the search code on one machine, compared query by query in one process. The
 * machine's speed drifts by a third within an hour, more than most changes gain; runs of one
 * version after the other cannot tell them apart, alternating the two on each query can.
 *
 *   node bin/run-ts.js research/scripts/search-ab.ts pages FILE COUNT        scale pages (bench/scale-corpus.ts)
 *   node bin/lse.js import --data DIR FILE; cp -r DIR DIR-b                  a store, and a copy for the other side
 *   git worktree add ../lse-before HEAD~1 && ln -s "$PWD/node_modules" ../lse-before/
 *   node bin/run-ts.js research/scripts/search-ab.ts search ../lse-before DIR . DIR-b [ROUNDS]
 *   node bin/run-ts.js research/scripts/search-ab.ts passages ../lse-before DIR . DIR-b [ROUNDS]
 *   node bin/run-ts.js research/scripts/search-ab.ts top-k ../lse-before DIR . DIR-b [ROUNDS]
 *
 * `search` times the engine's whole search (as `lse serve` answers it, without HTTP) on the 500
 * scale queries; `passages` the text index's search and the passages of its ten hits (no ranking,
 * facets or grouping), so that the passages meet the processor's caches as a search leaves them. Each side opens its
 * own copy of the store (an index is opened by one process at a time). Prints how many answers
 * are identical, then each round's mean and median and those of all rounds after the first.
 * `top-k` times the text index's search alone (ten hits; LSE_AB_HITS=500 asks as many as the
 * engine's full pool, LSE_AB_MODE=any any-word matching) and prints, for the rounds after the
 * first, its percentiles and what top-k did per query (matches offered, documents scored, segments
 * bounded a second time; `PruningWork`), then the queries that scored the most documents.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { realWordTable, scaleQueries, writeScalePages } from '../../bench/scale-corpus.ts';

export interface Side {
  answer(q: string): Promise<unknown>;
  /** The side's text index (its TextIndex). */
  index: { warmLongestLists(budgetMs: number): Promise<unknown>; update(change: { upsert: unknown[]; remove: number[] }): Promise<unknown> };
  /** Its store's page id of a URL. */
  idOf(url: string): number | undefined;
}

/** The search code under `root` on a data directory, opened as `lse serve` opens it (`search`) or the text index alone (`passages`). */
export async function openSide(root: string, dataDir: string, mode: string): Promise<Side> {
  const product = (path: string) => import(resolve(root, path));
  const { settingsForDataDir } = await product('server/cli/crawl-command.ts');
  const { openOrRebuildIndex, catchUpIndex } = await product('server/cli/serve-command.ts');
  const { settings, store } = await settingsForDataDir({ data: dataDir }, {});
  const index = await openOrRebuildIndex(store, settings);
  const idOf = (url: string) => store.idOf(url);
  if (mode === 'passages') return { index, idOf, answer: (q) => index.passages(index.search(q, { offset: 0, limit: 10 }).hits).then((found: Map<number, unknown>) => [...found]) };
  if (mode === 'top-k') {
    const limit = Number(process.env.LSE_AB_HITS ?? 10);
    const matching = process.env.LSE_AB_MODE === 'any' ? { mode: 'any' } : {};
    return { index, idOf, answer: async (q) => index.search(q, { offset: 0, limit, ...matching }) };
  }
  await catchUpIndex(store, index, settings);
  const { loadRankSnapshot, SearchEngine } = await product('indexer/ranking/search-engine.ts');
  const { loadSearchData } = await product('indexer/ranking/search-data.ts');
  const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: settings.ranking.blend, weight: settings.ranking.weight, otherLanguageWeight: settings.search.otherLanguageWeight });
  await loadSearchData(engine, store);
  return { index, idOf, answer: (q) => engine.search({ q, size: 10, page: 1, rank: 'blend', sort: 'relevance', explain: false, visitorLanguages: [] }) };
}

/** The value at `share` (0–1) of the times sorted ascending (1: the longest). */
export const percentile = (times: readonly number[], share: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * share))];
const median = (times: readonly number[]) => percentile(times, 0.5);
const mean = (times: readonly number[]) => times.reduce((sum, t) => sum + t, 0) / times.length;
const figures = (times: readonly number[]) => `mean ${mean(times).toFixed(3)} p50 ${median(times).toFixed(3)} ms`;
/** p50, p90, p99 and the longest of some latencies. */
export const latencyFigures = (times: readonly number[], digits = 1) => `p50 ${percentile(times, 0.5).toFixed(digits)} p90 ${percentile(times, 0.9).toFixed(digits)} p99 ${percentile(times, 0.99).toFixed(digits)} longest ${percentile(times, 1).toFixed(digits)} ms`;

/** What top-k did per answer (`work` of a text index search), summed. */
interface WorkSums {
  candidates: number;
  scoredDocuments: number;
  refinedSegments: number;
}

function topKFigures(times: readonly number[], work: WorkSums): string {
  const per = (n: number) => (n / times.length).toFixed(1);
  return `${latencyFigures(times, 2)}, mean ${mean(times).toFixed(2)} ms; per query: ${per(work.candidates)} offered, ${per(work.scoredDocuments)} scored, ${per(work.refinedSegments)} segments bounded twice`;
}

async function compare(mode: string, [rootA, dirA, rootB, dirB, rounds = '6']: string[]): Promise<void> {
  const sides = [await openSide(rootA, dirA, mode), await openSide(rootB, dirB, mode)];
  const queries = scaleQueries(realWordTable(), 500);
  let same = 0;
  for (const q of queries) {
    // The time an answer took, and the work it took, are no part of it.
    const [a, b] = await Promise.all(sides.map(async (side) => JSON.stringify(await side.answer(q), (key, value) => (key === 'tookMs' || key === 'work' ? undefined : value))));
    if (a === b) same++;
  }
  console.log(`identical answers: ${same} of ${queries.length}`);
  const after: number[][] = [[], []];
  const work: WorkSums[] = sides.map(() => ({ candidates: 0, scoredDocuments: 0, refinedSegments: 0 }));
  // Each query's work on each side, from the last round.
  const perQuery: Array<Array<Partial<WorkSums>>> = [[], []];
  for (let round = 0; round < Number(rounds); round++) {
    const times: number[][] = [[], []];
    for (let i = 0; i < queries.length; i++) {
      // Each side goes first on every other query.
      for (const s of (i + round) % 2 === 0 ? [0, 1] : [1, 0]) {
        const started = performance.now();
        const answer = await sides[s].answer(queries[i]);
        JSON.stringify(answer);
        times[s].push(performance.now() - started);
        if (mode === 'top-k' && round > 0) {
          const done = (answer as { work: Partial<WorkSums> }).work;
          for (const key of ['candidates', 'scoredDocuments', 'refinedSegments'] as const) work[s][key] += done[key] ?? 0;
          perQuery[s][i] = done;
        }
      }
    }
    if (round > 0) times.forEach((t, s) => after[s].push(...t));
    console.log(`round ${round}: A ${figures(times[0])} | B ${figures(times[1])}`);
  }
  if (after[0].length > 0) console.log(`rounds after the first: A ${figures(after[0])} | B ${figures(after[1])}`);
  if (mode === 'top-k' && after[0].length > 0) {
    sides.forEach((_, s) => console.log(`${'AB'[s]}: ${topKFigures(after[s], work[s])}`));
    const scored = (s: number, i: number) => perQuery[s][i]?.scoredDocuments ?? 0;
    const most = queries.map((q, i) => ({ q, i })).sort((x, y) => scored(0, y.i) - scored(0, x.i)).slice(0, 8);
    console.log('most documents scored on A (offered; scored on A, on B):');
    for (const { q, i } of most) console.log(`  ${q}: ${perQuery[0][i]?.candidates ?? 0}; ${scored(0, i)}, ${scored(1, i)}`);
  }
  process.exit(0);
}

async function main([mode, ...args]: string[]): Promise<void> {
  if (mode === 'pages' && args.length === 2) await writeScalePages(args[0], realWordTable(), Number(args[1]));
  else if ((mode === 'search' || mode === 'passages' || mode === 'top-k') && args.length >= 4) await compare(mode, args);
  else {
    console.error('usage: search-ab.ts pages FILE COUNT | search|passages|top-k ROOT_A DIR_A ROOT_B DIR_B [ROUNDS]');
    process.exit(2);
  }
}

// Other scripts import openSide.
if (import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main(process.argv.slice(2));
