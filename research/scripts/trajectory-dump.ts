// Research (research/docs/history.md, "Estimating the correction from the crawl's trajectory"): OutlinkCount crawls of the 24
// known shared-graph domains (12 tuned + 12 held-out) at the budgets; for each, the supergraph PageRank and the
// world estimates (several sizes s of W) at prefixes 0, 1/4, 1/2, 3/4 and all of the crawl (restricted to L), a few
// structural counts, the truth and SC-Select's final L1; writes out/traj/<graph>-<domain>.json for trajectory-rules.cjs.
// Usage: node bin/run-ts.js research/scripts/trajectory-dump.ts [tuned|heldout|all|validation]   (validation: diagnostics after the one validation run; TRAJ_DIR for trajectory-rules.cjs)
import { researchDomains, type GraphCase } from './shared-domains.ts';
import { writeFileSync, mkdirSync } from 'node:fs';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModelAt, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { VALIDATION_CASES } from './validation-cases.ts';

const which = process.argv[2] ?? 'all';
const H = [0, 0.25, 0.5, 0.625, 0.75, 0.875, 1];
const S = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 10, 20, 50];
const dir = process.env.TRAJ_DIR ?? 'out/traj';
mkdirSync(dir, { recursive: true });
type Case = GraphCase & { set: string; site: boolean };
const cases: readonly Case[] = which === 'validation' ? VALIDATION_CASES : KNOWN_CASES.filter((c) => which === 'all' || c.set === which);
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  const started = Date.now();
  const r = (v: Float64Array) => Array.from(restrictAndNormalise(v, L));
  const extraPages = Math.round((c.site ? 2 : 1) * pages.length);
  const iterations = c.site ? 50 : 25;
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const run = (sel: string) => findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector(sel as 'sc', { seed: 1 }), iterations, extraPages, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  const out = await run('outlink');
  const sc = await run('sc');
  const sg = out.supergraph;
  const crawled = sg.size - sg.localCount;
  const checked = checkedWorldRank(sg, out.rank, { tolerance: 1e-8 });
  const rec: any = {
    set: c.set, graph: c.g, spec, n: pages.length, crawled, frontier: sg.frontierSize, target: Array.from(target),
    sc: l1Distance(restrictAndNormalise(sc.rank, L), target), sgFinal: r(out.rank), checked: r(checked.rank), checkedUse: checked.useWorld, prefix: {},
  };
  if (sg.frontierSize > 0 && crawled > 0) {
    for (const h of H) {
      const m = frontierWorldModelAt(sg, sg.localCount + Math.floor(h * crawled));
      const g = m.graph;
      // Structure: links of crawled global pages into L, into G, to the frontier; frontier pages; pages.
      let toL = 0, toG = 0, toW = 0, fromLtoW = 0;
      for (let i = 0; i < g.nodeCount; i++) {
        if (i < sg.localCount) { fromLtoW += m.linksToWorld[i]; continue; }
        for (let e = g.outOffsets[i]; e < g.outOffsets[i + 1]; e++) (g.outTargets[e] < sg.localCount ? toL++ : toG++);
        toW += m.linksToWorld[i];
      }
      // Links from the prefix to pages crawled after it (the part of the prefix's frontier links the rest of the crawl resolved).
      let resolved = 0;
      const full = sg.graph();
      for (let i = 0; i < g.nodeCount; i++) for (let e = full.outOffsets[i]; e < full.outOffsets[i + 1]; e++) if (full.outTargets[e] >= g.nodeCount) resolved++;
      const p: any = { resolved, pages: g.nodeCount, frontierPages: m.frontierPages, toL, toG, toW, fromLtoW, sg: r(pageRank(g, { alpha: 0.85, tolerance: 1e-8 }).rank) };
      for (const s of S) p['w' + s] = r(frontierWorldRank(m, { tolerance: 1e-8, scale: s }));
      rec.prefix[h] = p;
    }
  }
  writeFileSync(`${dir}/${c.g}-${spec.replace(/[^a-z0-9]+/gi, '_')}.json`, JSON.stringify(rec));
  console.log(c.set, spec, 'sc', rec.sc.toFixed(4), 'sg', l1Distance(rec.sgFinal, target).toFixed(4), 'checked', l1Distance(rec.checked, target).toFixed(4), `${((Date.now() - started) / 1000).toFixed(0)} s`);
}
