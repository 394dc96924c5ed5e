// Research (research/docs/history.md): for the six non-exhausted shared-graph domains and the given selectors, the
// supergraph and world estimates (several sizes s of W) at a quarter, half and all of the crawl; writes out/world-scale-candidates.json.
// Usage: node bin/run-ts.js research/scripts/world-scale-candidates.ts outlink,sc,random,pf   then   node research/scripts/cv-rules.cjs
import { researchDomains } from './shared-domains.ts';
import { writeFileSync } from 'node:fs';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModelAt, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { graphFromAdjacency } from '../../indexer/graph.ts';

const cases = [
  { g: 'hollins', nodes: true, domains: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/registrar'], it: 50, extra: 2 },
  { g: 'notredame', nodes: false, domains: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3'], it: 25, extra: 1 },
];
const selectors = (process.argv[2] ?? 'outlink').split(',');
const S = [0, 0.125, 0.25, 0.5, 0.625, 0.75, 0.875, 1, 2, 4];
const H = [0.25, 0.5, 1];
const out: any[] = [];
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  for (const sel of selectors) {
    const run = await findGlobalPageRank({ localPages: Array.from(pages, (p) => pageOfGraph(web.graph, p)), source: knownGraphSource(web.graph), selector: createSelector(sel, { seed: 1 }), iterations: c.it, extraPages: Math.round(c.extra * pages.length), pageRank: { alpha: 0.85, tolerance: 1e-8 } });
    const sg = run.supergraph;
    const crawled = sg.size - sg.localCount;
    const est: Record<string, Record<string, number[]>> = {};
    for (const h of H) {
      const m = sg.localCount + Math.round(h * crawled);
      const model = frontierWorldModelAt(sg, m);
      const row: Record<string, number[]> = {};
      row.sg = Array.from(restrictAndNormalise(pageRank(model.graph, { alpha: 0.85, tolerance: 1e-10 }).rank, L));
      for (const s of S) row['w' + s] = Array.from(restrictAndNormalise(frontierWorldRank(model, { scale: s, tolerance: 1e-10 }), L));
      est[h] = row;
    }
    out.push({ spec, sel, target: Array.from(target), est });
    const line = Object.entries(est[1]).map(([k, v]) => `${k}=${l1Distance(v, target).toFixed(4)}`).join(' ');
    console.log(spec, sel, line);
  }
}
writeFileSync('out/world-scale-candidates.json', JSON.stringify(out));
