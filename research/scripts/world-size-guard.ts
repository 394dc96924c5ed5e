// Research (research/docs/history.md, "A size guard on the world correction"): on RecipFlow's crawl, for each domain, the
// distance the whole crawl moved the estimate (M = ‖PR(F)|L − PR(L)|L‖₁, local PageRank as the start), the size of the
// world correction (C = ‖world(F)|L − PR(F)|L‖₁, W worth 0.75 frontiers as in the checked estimate), the check's
// decision, and the L1 of the supergraph and world estimates. Usage: node bin/run-ts.js
// research/scripts/world-size-guard.ts [SELECTOR]   (SET=validation3 | validation4; SHARD / SHARDS)
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, scOf } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { inducedSubgraph } from '../../indexer/graph.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModel, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';

const sc = committedScL1();
const selectorName = process.argv[2] ?? 'recipflow';
for (const domain of researchDomains(measuredCases())) {
  const { graphCase: c, spec, web, pages, target, localIndices: L } = domain;
  const run = await crawlMeasured(domain, createSelector(selectorName));
  const local = pageRank(inducedSubgraph(web.graph, pages), { alpha: 0.85, tolerance: 1e-10 }).rank;
  const sg = restrictAndNormalise(run.rank, L);
  const world = restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: 0.75 }), L);
  const checked = checkedWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 });
  const flag = run.supergraph.frontierSize === 0 ? 'E' : checked.useWorld ? 'W' : 'S';
  console.log([c.set, `${c.g} ${spec}`, scOf(sc, domain).toFixed(4), flag, `M=${l1Distance(sg, local).toFixed(4)}`, `C=${l1Distance(world, sg).toFixed(4)}`, `sg=${l1Distance(sg, target).toFixed(4)}`, `w=${l1Distance(world, target).toFixed(4)}`, `local=${l1Distance(local, target).toFixed(4)}`].join('\t'));
}
