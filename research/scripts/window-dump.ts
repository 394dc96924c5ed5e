// Research (research/docs/history.md, "The consensus trajectory estimate, and a fifth validation set"): on a selector's crawl
// at the budget, dumps per domain the final supergraph estimate on L, the world estimate (W worth 2 frontiers),
// the truth, the trajectory windows at the consensus estimate's six prefixes, and how far the crawl moved the estimate,
// and how open the domain looks at the end (openness.ts: far pages and their links back), so that weight rules can be
// evaluated offline (window-rules.ts). OUT is rewritten.
// Usage: node bin/run-ts.js research/scripts/window-dump.ts SELECTOR OUT.jsonl   (SET=validation3 | validation4 …; SHARD / SHARDS)
//   SELECTOR: a selector name, or SECOND:SHARE (RecipFlow with SHARE of each iteration from SECOND; hedged-selector.ts)
//   WINDOWS=0.25,0.5,…  other prefixes (default the consensus estimate's six); SCALE=s  W worth s frontiers (default 2)
import { appendFileSync, writeFileSync } from 'node:fs';
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, scOf } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { researchSelector } from './hedged-selector.ts';
import { CONSENSUS_TRAJECTORY, frontierWorldModel, frontierWorldModelAt, frontierWorldRank, trajectoryWorldRank, type FrontierWorldModel } from '../../indexer/estimation/frontier-world.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { farBackLinks } from '../../indexer/estimation/openness.ts';

const WINDOW_SHARES = process.env.WINDOWS ? process.env.WINDOWS.split(',').map(Number) : CONSENSUS_TRAJECTORY.prefixShares;
const SCALE = Number(process.env.SCALE ?? 2);
/** RECENT=r: W's links into F taken from the last share r of the crawled pages only (default 1: all of them). */
const RECENT = Number(process.env.RECENT ?? 1);

/** The model with W's out-links rebuilt from the pages crawled last (ids are in crawl order). */
function recentWorld(model: FrontierWorldModel, localCount: number): FrontierWorldModel {
  if (RECENT >= 1) return model;
  const { graph } = model;
  const from = graph.nodeCount - Math.ceil(RECENT * (graph.nodeCount - localCount));
  const worldOut = new Float64Array(graph.nodeCount);
  for (let i = Math.max(from, localCount); i < graph.nodeCount; i++) for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) worldOut[graph.outTargets[e]]++;
  return { ...model, worldOut };
}
const [selectorName = 'sc', out = 'window-dump.jsonl'] = process.argv.slice(2);
const sc = committedScL1();
writeFileSync(out, '');
for (const domain of researchDomains(measuredCases())) {
  const { graphCase: c, spec, target, localIndices: L } = domain;
  const run = await crawlMeasured(domain, researchSelector(selectorName));
  const now = restrictAndNormalise(run.rank, L);
  const world = restrictAndNormalise(frontierWorldRank(recentWorld(frontierWorldModel(run.supergraph), run.supergraph.localCount), { tolerance: 1e-8, scale: SCALE }), L);
  // Only the windows: with the cap at 0 the estimator does not build the world estimate a second time.
  const { windows } = trajectoryWorldRank(run.supergraph, run.rank, { tolerance: 1e-8, scale: SCALE, prefixShares: WINDOW_SHARES, maxWeight: 0 });
  // How far the crawl moved the estimate: from local PageRank to now, and since each window's prefix (L1 on L).
  const localRank = pageRank(frontierWorldModelAt(run.supergraph, run.supergraph.localCount).graph, { alpha: 0.85, tolerance: 1e-10 }).rank;
  const moved = l1Distance(now, restrictAndNormalise(localRank, L));
  const movedSince = windows.map((w) => l1Distance(now, restrictAndNormalise(pageRank(frontierWorldModelAt(run.supergraph, w.prefix).graph, { alpha: 0.85, tolerance: 1e-10 }).rank, L)));
  const row = { set: c.set, domain: `${c.g} ${spec}`, sc: scOf(sc, domain), now: [...now], world: [...world], target: [...target], windows, moved, movedSince, ...farBackLinks(run.supergraph.graph(), run.supergraph.localMask()) };
  appendFileSync(out, `${JSON.stringify(row)}\n`);
  console.log(row.set, row.domain, windows.map((w) => w.weight.toFixed(3)).join(' '));
}
