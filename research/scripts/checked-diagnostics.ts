// Research (research/docs/history.md): OutlinkCount crawls of the 12 shared-graph domains at half, the and double budgets,
// with the supergraph and world estimates at 1/4, 1/2, 3/4 and all of the crawl, and SC-Select's final L1; writes out/checked-diagnostics.json.
// Usage: node bin/run-ts.js research/scripts/checked-diagnostics.ts   then   node research/scripts/checked-rules.cjs
import { researchDomains } from './shared-domains.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModel, frontierWorldModelAt, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { writeFileSync } from 'node:fs';
const cases = [
  { g: 'hollins', nodes: true, domains: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/docs', 'prefix:http://www1.hollins.edu/registrar'], site: true },
  { g: 'california', nodes: true, domains: ['host:edu', 'host:gov', 'host:com'], site: true },
  { g: 'polblogs', nodes: true, domains: ['label:liberal', 'label:conservative'], site: false },
  { g: 'notredame', nodes: false, domains: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3'], site: false },
];
const budgets = [['half', 1, 25, 0.5, 13], ['issue', 2, 50, 1, 25], ['double', 4, 50, 2, 50]] as const;
const H = [0.25, 0.5, 0.75];
const S = [0.5, 0.625, 0.75, 0.875, 1];
const out: any[] = [];
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  const r = (v: Float64Array) => restrictAndNormalise(v, L);
  for (const [name, sx, si, tx, ti] of budgets) {
    const x = c.site ? sx : tx, it = c.site ? si : ti;
    const run = await findGlobalPageRank({ localPages: Array.from(pages, (p) => pageOfGraph(web.graph, p)), source: knownGraphSource(web.graph), selector: createSelector('outlink'), iterations: it, extraPages: Math.round(x * pages.length), pageRank: { alpha: 0.85, tolerance: 1e-8 } });
    const sg = run.supergraph; const crawled = sg.size - sg.localCount;
    const rec: any = { spec, budget: name, frontier: sg.frontierSize, sgFinal: Array.from(r(run.rank)), target: Array.from(target), worldFinal: {}, prefix: {} };
    for (const s of S) rec.worldFinal[s] = Array.from(r(frontierWorldRank(frontierWorldModel(sg), { tolerance: 1e-8, scale: s })));
    const scRun = await findGlobalPageRank({ localPages: Array.from(pages, (p) => pageOfGraph(web.graph, p)), source: knownGraphSource(web.graph), selector: createSelector('sc'), iterations: it, extraPages: Math.round(x * pages.length), pageRank: { alpha: 0.85, tolerance: 1e-6 } });
    rec.sc = l1Distance(r(scRun.rank), target);
    for (const h of H) {
      const m = frontierWorldModelAt(sg, sg.localCount + Math.floor(h * crawled));
      const p: any = { sg: Array.from(r(pageRank(m.graph, { tolerance: 1e-8 }).rank)) };
      for (const s of S) p[s] = Array.from(r(frontierWorldRank(m, { tolerance: 1e-8, scale: s })));
      rec.prefix[h] = p;
    }
    out.push(rec);
    console.log(spec, name, 'sg', l1Distance(rec.sgFinal, target).toFixed(3), 'w.75', l1Distance(rec.worldFinal[0.75], target).toFixed(3));
  }
}
writeFileSync('out/checked-diagnostics.json', JSON.stringify(out));
