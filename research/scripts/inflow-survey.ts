// Research (research/docs/history.md, "An open-domain gate"): per domain, on a selector's crawl at the budget, where
// the rank flowing into L comes from in the truth (its share of L's true PageRank, the number of outside in-linkers and
// how many of them L links to) and what the crawl saw of it (crawled pages linked from L and further out, and how many
// of each link back into L). One JSON line per domain; OUT is rewritten.
// Usage: node bin/run-ts.js research/scripts/inflow-survey.ts SELECTOR OUT.jsonl   (SET=validation3 …; SHARD / SHARDS)
import { appendFileSync, writeFileSync } from 'node:fs';
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, scOf } from './measured-sets.ts';
import { researchSelector } from './hedged-selector.ts';
import { frontierWorldModel } from '../../indexer/estimation/frontier-world.ts';
import { farBackLinks } from '../../indexer/estimation/openness.ts';
import type { LinkGraph } from '../../indexer/graph.ts';

const ALPHA = 0.85;

/**
 * Rank flowing into the pages marked `inL` from the other pages of `graph` (α · x[g] · links into L / out-degree of g),
 * as a share of L's own rank, and the pages that send it: how many, and how many of them a page of L links to.
 */
function inflow(graph: LinkGraph, rank: ArrayLike<number>, inL: Uint8Array) {
  const linkedFromL = new Uint8Array(graph.nodeCount);
  let massL = 0;
  for (let p = 0; p < graph.nodeCount; p++) {
    if (!inL[p]) continue;
    massL += rank[p];
    for (let e = graph.outOffsets[p]; e < graph.outOffsets[p + 1]; e++) linkedFromL[graph.outTargets[e]] = 1;
  }
  let flow = 0;
  let inlinkers = 0;
  let inlinkersLinkedFromL = 0;
  for (let g = 0; g < graph.nodeCount; g++) {
    if (inL[g]) continue;
    const degree = graph.outOffsets[g + 1] - graph.outOffsets[g];
    let intoL = 0;
    for (let e = graph.outOffsets[g]; e < graph.outOffsets[g + 1]; e++) if (inL[graph.outTargets[e]]) intoL++;
    if (intoL === 0) continue;
    flow += (ALPHA * rank[g] * intoL) / degree;
    inlinkers++;
    if (linkedFromL[g]) inlinkersLinkedFromL++;
  }
  return { share: flow / massL, inlinkers, inlinkersLinkedFromL };
}

const [selectorName = 'sc', out = 'inflow-survey.jsonl'] = process.argv.slice(2);
const sc = committedScL1();
writeFileSync(out, '');
for (const domain of researchDomains(measuredCases())) {
  const { graphCase: c, spec, pages, web, truth } = domain;
  const inL = new Uint8Array(web.graph.nodeCount);
  for (const p of pages) inL[p] = 1;
  const truthInflow = inflow(web.graph, truth, inL);

  const run = await crawlMeasured(domain, researchSelector(selectorName));
  const F = run.supergraph.graph();
  const isLocal = run.supergraph.localMask();
  const crawlInflow = inflow(F, run.rank, isLocal);
  // Crawled global pages: `far` ones no local page links to, the rest linked from L; and those of each linking back.
  const { far, back } = farBackLinks(F, isLocal);
  const crawled = F.nodeCount - run.supergraph.localCount;
  // Frontier pages that a local page links to.
  const frontier = run.supergraph.frontierView();
  let frontierLinkedFromL = 0;
  for (let k = 0; k + 1 < frontier.linkerOffsets.length; k++) {
    for (let e = frontier.linkerOffsets[k]; e < frontier.linkerOffsets[k + 1]; e++) {
      if (isLocal[frontier.linkers[e]]) {
        frontierLinkedFromL++;
        break;
      }
    }
  }
  const row = {
    set: c.set,
    domain: `${c.g} ${spec}`,
    sc: scOf(sc, domain),
    nL: run.supergraph.localCount,
    nF: F.nodeCount,
    frontier: frontierWorldModel(run.supergraph).frontierPages,
    inflowShareTrue: truthInflow.share,
    inlinkers: truthInflow.inlinkers,
    inlinkersLinkedFromL: truthInflow.inlinkersLinkedFromL,
    inflowShareF: crawlInflow.share,
    d1: crawled - far,
    d1Back: crawlInflow.inlinkers - back,
    far,
    back,
    frontD1: frontierLinkedFromL,
  };
  appendFileSync(out, `${JSON.stringify(row)}\n`);
  console.log(row.domain, row.inflowShareTrue.toFixed(3), row.inflowShareF.toFixed(3));
}
