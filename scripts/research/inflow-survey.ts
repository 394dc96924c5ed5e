// Research (docs/estimation.md, "An open-domain gate"): per domain, on a selector's crawl at the budget, where
// the rank flowing into L comes from in the truth (its share of L's true PageRank, the number of outside in-linkers and
// how many of them L links to) and what the crawl saw of it (crawled pages linked from L and further out, and how many
// of each link back into L). One JSON line per domain; OUT is rewritten.
// Usage: node bin/run-ts.js scripts/research/inflow-survey.ts SELECTOR OUT.jsonl   (SET=validation3 …; SHARD / SHARDS)
import { appendFileSync, writeFileSync } from 'node:fs';
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, scOf } from './measured-sets.ts';
import { researchSelector } from './hedged-selector.ts';
import { frontierWorldModel } from '../../indexer/estimation/frontier-world.ts';
import { pageRank } from '../../indexer/pagerank.ts';

const [selectorName = 'sc', out = 'inflow-survey.jsonl'] = process.argv.slice(2);
const sc = committedScL1();
writeFileSync(out, '');
let lastWeb: unknown = null;
let truth: Float64Array = new Float64Array(0);
let outdeg: Int32Array = new Int32Array(0);
for (const domain of researchDomains(measuredCases())) {
  const { graphCase: c, spec, pages, web } = domain;
  const G = web.graph;
  if (lastWeb !== web) {
    lastWeb = web;
    truth = pageRank(G, { alpha: 0.85, tolerance: 1e-10, maxIterations: 10000 }).rank;
    outdeg = new Int32Array(G.nodeCount);
    for (let i = 0; i < G.nodeCount; i++) outdeg[i] = G.outOffsets[i + 1] - G.outOffsets[i];
  }
  const inL = new Uint8Array(G.nodeCount);
  for (const p of pages) inL[p] = 1;
  // True inflow share of L, and its in-linker count.
  let massL = 0, inflowTrue = 0, inlinkers = 0, inlinkersLinkedFromL = 0;
  const linkedFromL = new Uint8Array(G.nodeCount);
  let outLinksL = 0, leaveL = 0;
  for (const p of pages) { massL += truth[p]; for (let e = G.outOffsets[p]; e < G.outOffsets[p + 1]; e++) { outLinksL++; const t = G.outTargets[e]; if (!inL[t]) { leaveL++; linkedFromL[t] = 1; } } }
  for (let g = 0; g < G.nodeCount; g++) {
    if (inL[g]) continue;
    let k = 0;
    for (let e = G.outOffsets[g]; e < G.outOffsets[g + 1]; e++) if (inL[G.outTargets[e]]) k++;
    if (k > 0) { inflowTrue += 0.85 * truth[g] * k / outdeg[g]; inlinkers++; if (linkedFromL[g]) inlinkersLinkedFromL++; }
  }
  const run = await crawlMeasured(domain, researchSelector(selectorName));
  const sg = run.supergraph;
  const F = sg.graph();
  const nL = sg.localCount, nF = F.nodeCount;
  const model = frontierWorldModel(sg);
  const rank = run.rank;
  // supergraph inflow share into L from G
  let massLF = 0, inflowF = 0, gLinksIntoL = 0, gLinksIntoF = 0, gLinksAll = 0, gLinkersOfL = 0, gToFrontier = 0;
  for (let j = 0; j < nL; j++) massLF += rank[j];
  for (let i = nL; i < nF; i++) {
    const deg = F.outOffsets[i + 1] - F.outOffsets[i];
    let k = 0;
    for (let e = F.outOffsets[i]; e < F.outOffsets[i + 1]; e++) if (F.outTargets[e] < nL) k++;
    if (deg > 0) inflowF += 0.85 * rank[i] * k / deg;
    gLinksIntoL += k; gLinksIntoF += deg; if (k > 0) gLinkersOfL++;
    gLinksAll += deg + model.linksToWorld[i]; gToFrontier += model.linksToWorld[i];
  }
  // crawled globals' true global outdegree vs in-F outdegree, true rank vs supergraph rank
  let trueMassG = 0, sgMassG = 0, trueOutG = 0;
  for (let i = nL; i < nF; i++) { const gid = sg.keyOf(i) as number; trueMassG += truth[gid]; sgMassG += rank[i]; trueOutG += outdeg[gid]; }
  let lToWorld = 0, lLinks = 0;
  for (let j = 0; j < nL; j++) { lToWorld += model.linksToWorld[j]; lLinks += F.outOffsets[j + 1] - F.outOffsets[j] + model.linksToWorld[j]; }
  const fromL = new Uint8Array(nF);
  for (let j = 0; j < nL; j++) for (let e = F.outOffsets[j]; e < F.outOffsets[j + 1]; e++) fromL[F.outTargets[e]] = 1;
  let d1 = 0, d1Back = 0, d2 = 0, d2Back = 0;
  for (let i = nL; i < nF; i++) {
    let back = false;
    for (let e = F.outOffsets[i]; e < F.outOffsets[i + 1]; e++) if (F.outTargets[e] < nL) back = true;
    if (fromL[i]) { d1++; if (back) d1Back++; } else { d2++; if (back) d2Back++; }
  }
  const fv = sg.frontierView();
  let frontD1 = 0;
  for (let k = 0; k + 1 < fv.linkerOffsets.length; k++) { for (let e = fv.linkerOffsets[k]; e < fv.linkerOffsets[k + 1]; e++) if (fv.linkers[e] < nL) { frontD1++; break; } }
  const row = { d1, d1Back, d2, d2Back, frontD1, set: c.set, domain: `${c.g} ${spec}`, sc: scOf(sc, domain), nL, nF, frontier: model.frontierPages, massLtrue: massL, inflowShareTrue: inflowTrue / massL, inlinkers, inlinkersLinkedFromL, linkedFromL: linkedFromL.reduce((a, b) => a + b, 0), leaveShareL: leaveL / Math.max(1, outLinksL),
    inflowShareF: inflowF / massLF, gLinksIntoL, gLinksIntoF, gLinksAll, gLinkersOfL, gToFrontier, lToWorld, lLinks, trueMassGoverL: trueMassG / massL, sgMassGoverL: sgMassG / massLF, trueOutG };
  appendFileSync(out, `${JSON.stringify(row)}\n`);
  console.log(row.domain, row.inflowShareTrue.toFixed(3), row.inflowShareF.toFixed(3));
}
