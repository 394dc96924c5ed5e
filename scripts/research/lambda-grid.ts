// Research (docs/estimation.md, "Hedged selection, a survey sample for W, and a third validation set" and "A convex
// trajectory weight on SC-Select's crawl, and a fourth validation set"): on a selector's crawl, the supergraph estimate
// moved a fixed share λ of the way to the world estimate (W worth s frontiers), for a grid of λ and s; the trajectory
// rule's own λ scaled by k and capped; how far the crawl moved the estimate from local PageRank (M); and the rule's
// estimate. Prints per domain the L1 of each, and SC-Select's final L1 (from the committed results).
// Usage: node bin/run-ts.js scripts/research/lambda-grid.ts SELECTOR   (SET=validation3 | validation4; SHARD / SHARDS)
import { researchDomains } from './shared-domains.ts';
import { committedScL1, measuredCases } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { inducedSubgraph } from '../../indexer/graph.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';
import { frontierWorldModel, frontierWorldRank, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';

const sc = committedScL1();
const LAMBDAS = [0, 0.25, 0.5, 0.75, 1, 1.5, 2];
const SCALES = [0.75, 2];
const selectorName = process.argv[2] ?? 'sc';
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(measuredCases())) {
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const run = await findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector(selectorName), iterations: c.site ? 50 : 25, extraPages: (c.site ? 2 : 1) * pages.length, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  const now = restrictAndNormalise(run.rank, L);
  const cells = [c.set, `${c.g} ${spec}`, sc.get(`${c.g} ${spec}`)!.toFixed(6)];
  for (const s of SCALES) {
    const world = restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: s }), L);
    for (const lambda of LAMBDAS) {
      const blended = now.map((x, j) => Math.max(0, x + lambda * (world[j] - x)));
      const sum = blended.reduce((a, b) => a + b, 0);
      cells.push(`s${s}l${lambda}=${l1Distance(blended.map((x) => x / sum), target).toFixed(6)}`);
    }
  }
  const trajectory = trajectoryWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 });
  // The rule's λ scaled by k and capped (W worth 2 frontiers, as the rule's own world estimate).
  const world2 = restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: 2 }), L);
  for (const k of [1, 2, 3, 4]) {
    for (const cap of [1, 1.5]) {
      const lambda = Math.min(cap, k * trajectory.weight);
      const blended = now.map((x, j) => Math.max(0, x + lambda * (world2[j] - x)));
      const sum = blended.reduce((a, b) => a + b, 0);
      cells.push(`k${k}c${cap}=${l1Distance(blended.map((x) => x / sum), target).toFixed(6)}`);
    }
  }
  // M: how far the whole crawl moved the estimate from local PageRank (a nearly closed domain barely moves).
  const localRank = pageRank(inducedSubgraph(web.graph, pages), { alpha: 0.85, tolerance: 1e-10 }).rank;
  cells.push(`M=${l1Distance(now, localRank).toFixed(6)}`);
  cells.push(`rule=${l1Distance(restrictAndNormalise(trajectory.rank, L), target).toFixed(6)}`, `ruleλ=${trajectory.weight.toFixed(3)}`);
  console.log(cells.join('\t'));
}
