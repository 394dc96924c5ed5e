// Research (research/docs/history.md, "Hedged selection, a survey sample for W, and a third validation set"): the world node
// W is modelled on the crawled global pages, but a selector picks those for their links into L, so they over-represent
// the pages linking into L. Here a share of each iteration's pages is drawn uniformly from the frontier (a survey
// sample) and W's links into F are taken from the sampled pages only; the rest of each iteration is RecipFlow's top.
// The checked estimate is then run on that model (same check as checkedWorldRank: prefix at 3/4, cos ≥ 0.25,
// realised ≥ 3 %).
// Usage: node bin/run-ts.js research/scripts/survey-world.ts SHARE…   (SET=validation3; SHARD / SHARDS)
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, printRow, printSummary, measuredRow, type MeasuredRow } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { correctionAlignment, frontierWorldModel, frontierWorldModelAt, frontierWorldRank, type FrontierWorldModel } from '../../indexer/estimation/frontier-world.ts';
import { candidateCount, type PageSelector } from '../../indexer/estimation/selection.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import type { Supergraph } from '../../indexer/estimation/supergraph.ts';

const sc = committedScL1();

/** W's out-links from the sampled crawled pages only (`sampled[i]` for page i of F). */
function surveyed(model: FrontierWorldModel, sampled: Uint8Array): FrontierWorldModel {
  const { graph } = model;
  const worldOut = new Float64Array(graph.nodeCount);
  for (let i = 0; i < graph.nodeCount; i++) {
    if (!sampled[i]) continue;
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) worldOut[graph.outTargets[e]]++;
  }
  return { ...model, worldOut };
}

function checkedSurvey(supergraph: Supergraph<number>, rank: Float64Array, sampled: Uint8Array, scale: number) {
  const local = supergraph.localCount;
  const crawled = supergraph.size - local;
  if (crawled === 0 || supergraph.frontierSize === 0) return { rank, flag: 'E' };
  const prefix = local + Math.floor(0.75 * crawled);
  const at = surveyed(frontierWorldModelAt(supergraph, prefix), sampled);
  const ids = Int32Array.from({ length: local }, (_, i) => i);
  const before = restrictAndNormalise(pageRank(at.graph, { alpha: 0.85, tolerance: 1e-8, maxIterations: 1000 }).rank, ids);
  const predicted = restrictAndNormalise(frontierWorldRank(at, { tolerance: 1e-8, scale }), ids);
  const now = restrictAndNormalise(rank, ids);
  const { cosine, realised } = correctionAlignment(now, before, predicted);
  if (!(cosine >= 0.25 && realised >= 0.03)) return { rank, flag: 'S' };
  return { rank: frontierWorldRank(surveyed(frontierWorldModel(supergraph), sampled), { tolerance: 1e-8, scale }), flag: 'W' };
}

const variants = process.argv.slice(2);
const rows: MeasuredRow[] = [];
for (const domain of researchDomains(measuredCases())) {
  const { target, localIndices: L } = domain;
  const row = measuredRow(domain, sc);
  for (const variant of variants) {
    // VARIANT = SHARE[@SCALE]: the sampled share of each iteration, and W's size in frontiers (default 0.75).
    const [share, scale] = variant.split('@').map(Number);
    const sampledKeys = new Set<number>();
    let keys: () => readonly number[] = () => [];
    const random = seededRandom(1);
    const recip = createSelector('recipflow');
    const selector: PageSelector = {
      name: 'survey',
      select(input, k) {
        const count = candidateCount(input);
        const top = recip.select(input, Math.min(count, k - Math.round(share * k)));
        const taken = new Uint8Array(count);
        for (const t of top) taken[t] = 1;
        const rest: number[] = [];
        for (let i = 0; i < count; i++) if (!taken[i]) rest.push(i);
        const want = Math.min(rest.length, k - top.length);
        const frontierKeys = keys();
        for (let i = 0; i < want; i++) {
          const j = i + Math.floor(random() * (rest.length - i));
          [rest[i], rest[j]] = [rest[j], rest[i]];
          sampledKeys.add(frontierKeys[rest[i]]);
        }
        return Int32Array.from([...top, ...rest.slice(0, want)]);
      },
    };
    const run = await crawlMeasured(domain, selector, (state) => {
      keys = () => state.supergraph.frontierView().keys;
    });
    const sampled = new Uint8Array(run.supergraph.size);
    for (let i = run.supergraph.localCount; i < run.supergraph.size; i++) sampled[i] = sampledKeys.has(run.supergraph.keyOf(i) as number) ? 1 : 0;
    const est = checkedSurvey(run.supergraph as Supergraph<number>, run.rank, sampled, Number.isNaN(scale) || scale === undefined ? 0.75 : scale);
    row.values[variant] = l1Distance(restrictAndNormalise(est.rank, L), target);
    row.notes![variant] = est.flag;
  }
  printRow(row);
  rows.push(row);
}
printSummary(rows);
