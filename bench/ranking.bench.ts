/**
 * Choosing the blend by measurement on the demo web, where the true global PageRank
 * is known. For every blend mode and weight, the top 10 of a set of queries ranked with the
 * estimated global PageRank (one estimation round), and with the local PageRank, are compared
 * with the top 10 ranked with the TRUE global PageRank at the same weight (NDCG@10, graded by the
 * truth's order). "Moved" is how far the blend moves the top 10 away from text alone (1 − NDCG@10
 * against the text-only order): the link evidence's influence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load-settings.ts';
import { generateDemoWeb } from '../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../crawler/demo-web/server.ts';
import { parseScope } from '../crawler/scope.ts';
import type { BlendMode } from '../indexer/ranking/blend.ts';
import { loadRankSnapshot, rankSnapshot, SearchEngine, type RankSnapshot } from '../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { demoTruth } from '../server/cli/demo-command.ts';
import { buildIndex } from '../server/cli/serve-command.ts';
import { runEstimationRound } from '../server/jobs/estimation-round.ts';
import { newJobId } from '../server/jobs/job-id.ts';
import type { BenchContext } from './run.ts';

/** NDCG@k of `ranking` against `ideal`, the ideal's i-th item graded k − i. */
export function ndcgAtK(ranking: readonly number[], ideal: readonly number[], k = 10): number {
  const grade = new Map(ideal.slice(0, k).map((id, i) => [id, k - i]));
  const dcg = (list: readonly number[]) => list.slice(0, k).reduce((sum, id, i) => sum + (2 ** (grade.get(id) ?? 0) - 1) / Math.log2(i + 2), 0);
  const best = dcg(ideal);
  return best > 0 ? dcg(ranking) / best : 1;
}

export async function rankingBenchmarks(bench: BenchContext): Promise<void> {
  const web = generateDemoWeb();
  const server = await startDemoWebServer(web, { latencyScale: 0, logRequests: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-ranking-'));
  const store = await CrawlStore.open(dataDir);
  const settings = loadSettings({ env: {}, overrides: { dataDir, crawler: { resolve: demoWebResolvePins(server.port), allowPrivateNetworks: true, delaySeconds: 0 } } });
  const stack = createCrawlStack(store, settings.crawler);
  const scope = parseScope(`host:${web.localHost}`);
  try {
    await stack.crawler.crawl({ seeds: [`http://${web.localHost}/`], scope, ordering: 'bfs', maxPages: 5000, maxDepth: 50, hostPageBudget: 5000, concurrency: 8 });
    const round = await runEstimationRound({ store, stack, settings, scope, truthOf: demoTruth(web) }, newJobId('round'), { selector: 'sc', iterations: 10, extra: '1n' });
    const { index } = await buildIndex(store, settings);
    const estimate = await loadRankSnapshot(store);
    const ids = [...estimate.local.keys()];
    const truthValues = demoTruth(web)(ids.map((id) => store.urlOf(id)!));
    const truthSum = truthValues.reduce((sum, v) => sum + (Number.isNaN(v) ? 0 : v), 0);
    const truth = rankSnapshot(0, ids, Array.from(truthValues, (v) => (Number.isNaN(v) ? 0 : v / truthSum)), ids.map((id) => estimate.local.get(id)!));
    const local = rankSnapshot(0, ids, ids.map((id) => estimate.local.get(id)!), ids.map((id) => estimate.local.get(id)!));
    // Queries: two-word pairs from titles of the site's pages (what visitors type), deterministic.
    const docs = await index.documents(ids.filter((_, i) => i % 9 === 0));
    const queries = [...docs.values()]
      .map((d) => d.title.split('|')[0].toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 4))
      .filter((w) => w.length >= 2)
      .slice(0, 60)
      .map((w, i) => (i % 2 === 0 ? w[0] : `${w[0]} ${w[1]}`));
    bench.note(`demo web: ${ids.length} local pages, one round (${round.crawled} global pages), L1 to the truth ${round.history[0].l1ToTruth?.toFixed(4)} → ${round.l1ToTruth?.toFixed(4)}; ${queries.length} queries`);

    const top10 = async (ranks: RankSnapshot, blend: BlendMode, weight: number, q: string) => {
      const engine = new SearchEngine(index, ranks, { blend, weight });
      return (await engine.search({ q, page: 1, size: 10, rank: weight === 0 ? 'text' : 'blend', explain: false })).hits.map((h) => h.id);
    };
    for (const blend of ['log-linear', 'multiplicative'] as const) {
      if (!bench.wants(blend)) continue;
      bench.heading(`blend ${blend}: NDCG@10 against the ranking with the true global PageRank`);
      const rows: Array<Array<string | number>> = [['weight', 'estimate', 'local PageRank', 'moved from text (truth)']];
      for (const weight of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1]) {
        let withEstimate = 0;
        let withLocal = 0;
        let moved = 0;
        for (const q of queries) {
          const ideal = await top10(truth, blend, weight, q);
          withEstimate += ndcgAtK(await top10(estimate, blend, weight, q), ideal);
          withLocal += ndcgAtK(await top10(local, blend, weight, q), ideal);
          moved += 1 - ndcgAtK(ideal, await top10(truth, blend, 0, q));
        }
        rows.push([weight, withEstimate / queries.length, withLocal / queries.length, moved / queries.length]);
      }
      bench.table(rows);
    }
    await index.close();
  } finally {
    await stack.close();
    await store.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
