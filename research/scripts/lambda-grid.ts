// Research (research/docs/history.md, "Hedged selection, a survey sample for W, and a third validation set" and "A convex
// trajectory weight on SC-Select's crawl, and a fourth validation set"): on a selector's crawl, the supergraph estimate
// moved a fixed share λ of the way to the world estimate (W worth s frontiers), for a grid of λ and s; the trajectory
// rule's own λ scaled by k and capped; how far the crawl moved the estimate from local PageRank (M); and the rule's
// estimate. Prints per domain the L1 of each, and SC-Select's final L1 (from the committed results).
// Usage: node bin/run-ts.js research/scripts/lambda-grid.ts SELECTOR   (SET=validation3 | validation4; SHARD / SHARDS)
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, printRow, printSummary, measuredRow, type MeasuredRow } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { inducedSubgraph } from '../../indexer/graph.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModel, frontierWorldRank, moveTowardsWorld, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';

const sc = committedScL1();
const LAMBDAS = [0, 0.25, 0.5, 0.75, 1, 1.5, 2];
const SCALES = [0.75, 2];
/** The rule's λ scaled by k and capped, on the world estimate the rule itself uses (W worth 2 frontiers). */
const SCALED = [1, 2, 3, 4].flatMap((k) => [1, 1.5].map((cap) => ({ k, cap })));
/** Scaled weights with the guard of research/docs/history.md: SC-Select's estimate kept when M < 0.03 (a knife edge). */
const GUARDED = [2, 4];
const GUARD = 0.03;
const selectorName = process.argv[2] ?? 'sc';
const rows: MeasuredRow[] = [];
for (const domain of researchDomains(measuredCases())) {
  const { web, pages, target, localIndices: L } = domain;
  const run = await crawlMeasured(domain, createSelector(selectorName));
  const now = restrictAndNormalise(run.rank, L);
  /** L1 of the supergraph estimate moved a share λ of the way to `world`, clipped at 0 and renormalised. */
  const blendL1 = (lambda: number, world: Float64Array) => l1Distance(moveTowardsWorld(now, world, lambda), target);
  const worlds = new Map(SCALES.map((s) => [s, restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: s }), L)]));
  const row = measuredRow(domain, sc);
  for (const [s, world] of worlds) for (const lambda of LAMBDAS) row.values[`s${s}l${lambda}`] = blendL1(lambda, world);
  const trajectory = trajectoryWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 });
  for (const { k, cap } of SCALED) row.values[`k${k}c${cap}`] = blendL1(Math.min(cap, k * trajectory.weight), worlds.get(2)!);
  // M: how far the whole crawl moved the estimate from local PageRank (a nearly closed domain barely moves).
  const moved = l1Distance(now, pageRank(inducedSubgraph(web.graph, pages), { alpha: 0.85, tolerance: 1e-10 }).rank);
  for (const k of GUARDED) row.values[`k${k}c1 M≥${GUARD}`] = moved < GUARD ? blendL1(0, worlds.get(2)!) : row.values[`k${k}c1`];
  row.values.rule = l1Distance(restrictAndNormalise(trajectory.rank, L), target);
  row.notes = { M: moved.toFixed(6), 'ruleλ': trajectory.weight.toFixed(3) };
  printRow(row);
  rows.push(row);
}
printSummary(rows);
