// Research (research/docs/history.md, "Selection for the inflow"): where the rank flowing into a notredame ball comes from.
// For each ball: the true inflow into L relative to L's own true mass, the share of the inflow sent by outside pages at
// forward distance 1…7 from L (distance 1 = the initial frontier) and from pages a forward crawl can never reach, and the
// share sent by the pages OutlinkCount crawls at the budget (n pages, 25 iterations). Reads the truth.
// Usage: node bin/run-ts.js research/scripts/inflow-reach.ts
import { researchDomains } from './shared-domains.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
const cases = [{ g: 'notredame', nodes: false, domains: ['ball:1:3', 'ball:29911:3', 'ball:198404:3', 'ball:1479:3', 'ball:255448:3', 'ball:87663:3', 'ball:232421:3', 'ball:88784:3'] }];
for (const { spec, web, pages, truth } of researchDomains(cases)) {
  const G = web.graph;
  const N = G.nodeCount;
  const inL = new Uint8Array(N); for (const p of pages) inL[p] = 1;
  // inflow per outside page
  const inflow = new Float64Array(N); let total = 0, massL = 0;
  for (let u = 0; u < N; u++) { if (inL[u]) { massL += truth[u]; continue; } const o = G.outOffsets[u+1]-G.outOffsets[u]; let k = 0; for (let e = G.outOffsets[u]; e < G.outOffsets[u+1]; e++) if (inL[G.outTargets[e]]) k++; if (k) { inflow[u] = 0.85*truth[u]*k/o; total += inflow[u]; } }
  // BFS distance from L
  const dist = new Int32Array(N).fill(-1); let q: number[] = [...pages]; for (const p of pages) dist[p] = 0;
  for (let d = 1; q.length && d < 30; d++) { const nq: number[] = []; for (const u of q) for (let e = G.outOffsets[u]; e < G.outOffsets[u+1]; e++) { const t = G.outTargets[e]; if (dist[t] < 0) { dist[t] = d; nq.push(t); } } q = nq; }
  const byD = new Float64Array(12); let unreach = 0; for (let u = 0; u < N; u++) if (inflow[u]) { if (dist[u] < 0) unreach += inflow[u]; else byD[Math.min(dist[u], 11)] += inflow[u]; }
  const run = await findGlobalPageRank({ localPages: Array.from(pages, (p) => pageOfGraph(G, p)), source: knownGraphSource(G), selector: createSelector('outlink'), iterations: 25, extraPages: pages.length, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  let got = 0; const sg = run.supergraph; for (let i = sg.localCount; i < sg.size; i++) got += inflow[sg.keyOf(i)];
  let reach = 0; for (let u = 0; u < N; u++) if (dist[u] > 0) reach++;
  console.log(spec, 'n', pages.length, 'reachable', reach, 'inflow/massL', (total/massL).toFixed(2), 'share by dist', Array.from(byD.slice(1, 8), (x) => (x/total).toFixed(2)).join(' '), 'unreach', (unreach/total).toFixed(2), 'crawled by outlink', (got/total).toFixed(2));
}
