// Research (research/docs/history.md, "Selection for the inflow"): selectors other than OutlinkCount, paired with the
// supergraph and the checked world estimate, on the 24 known domains (12 tuned + 12 held-out) at the budgets.
// The 10 domains whose frontier empties within the budget (every selector crawls everything reachable) are ties
// for every selector: their values are taken from research/results/* (SC-Select's, equal to every method's there).
// Usage: node bin/run-ts.js research/scripts/inflow-selection.ts VARIANT…   (variants: see `variants` below)
import { researchDomains } from './shared-domains.ts';
import { committedScL1 } from './measured-sets.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModel, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';
import type { PageSelector } from '../../indexer/estimation/selection.ts';
import { oracleSelector, researchSelector } from './inflow-selectors.ts';


const TUNED = new Set(['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/docs', 'prefix:http://www1.hollins.edu/registrar', 'host:edu', 'host:gov', 'host:com', 'label:liberal', 'label:conservative', 'ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3']);
// Frontier empty at the end of every run (research/docs/history.md): every selector crawls the same pages.
const TIES = new Set(['prefix:http://www1.hollins.edu/docs', 'host:edu', 'host:gov', 'host:com', 'label:liberal', 'label:conservative', 'host:net', 'host:org', 'ball:176585:3', 'ball:214329:3']);
// BUDGET=0.5 or 2 scales the budgets (extra pages; iterations as in research/studies/budgets.sh); then every
// domain is run (the tie set above holds at the budget only) and SC-Select is run too.
const BUDGET = Number(process.env.BUDGET ?? 1);
const cases = [
  { g: 'hollins', nodes: true, site: true, domains: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/docs', 'prefix:http://www1.hollins.edu/registrar', 'prefix:http://www1.hollins.edu/faculty', 'prefix:http://www1.hollins.edu/classes'] },
  { g: 'california', nodes: true, site: true, domains: ['host:edu', 'host:gov', 'host:com', 'host:net', 'host:org'] },
  { g: 'polblogs', nodes: true, site: false, domains: ['label:liberal', 'label:conservative'] },
  {
    g: 'notredame',
    nodes: false,
    site: false,
    domains: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3', 'ball:176585:3', 'ball:1479:3', 'ball:255448:3', 'ball:87663:3', 'ball:313259:3', 'ball:232421:3', 'ball:88784:3', 'ball:214329:3'],
  },
].map((c) => ({ ...c, domains: BUDGET === 1 ? c.domains.filter((d) => !TIES.has(d)) : c.domains })).filter((c) => c.domains.length > 0);
// SC-Select's final L1 per domain, and the tie domains, from the committed results.
const committed = committedScL1();
const sc = new Map<string, number>();
const ties: { spec: string; set: 'tuned' | 'heldout'; l1: number }[] = [];
for (const c of KNOWN_CASES) {
  for (const spec of c.domains) {
    const l1 = committed.get(`${c.g} ${spec}`)!;
    sc.set(spec, l1);
    if (TIES.has(spec)) ties.push({ spec, set: c.set, l1 });
  }
}
const names = process.argv.slice(2);
const sums: Record<string, { tuned: number; heldout: number; worse: string[] }> = {};
const scSum = { tuned: 0, heldout: 0 };
if (BUDGET === 1) for (const t of ties) scSum[t.set] += t.l1;
const f = (x: number) => x.toFixed(4);
for (const { graphCase: c, spec, web, pages, truth, target, localIndices: L } of researchDomains(cases)) {
  const set = TUNED.has(spec) ? 'tuned' : 'heldout';
  const extraPages = Math.round(BUDGET * (c.site ? 2 : 1) * pages.length);
  const iterations = BUDGET === 1 ? (c.site ? 50 : 25) : BUDGET < 1 ? (c.site ? 25 : 13) : 50;
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const scL1 =
    BUDGET === 1
      ? sc.get(spec)!
      : l1Distance(restrictAndNormalise((await findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector('sc'), iterations, extraPages, pageRank: { alpha: 0.85, tolerance: 1e-6 } })).rank, L), target);
  scSum[set] += scL1;
  const cells: string[] = [];
  for (const name of names) {
    let current: { supergraph: { frontierView(): { keys: readonly number[] } } } | undefined;
    const inL = new Uint8Array(web.graph.nodeCount);
    for (const q of pages) inL[q] = 1;
    const selector: PageSelector = name === 'oracle' ? oracleSelector(web.graph, truth, inL, () => current!.supergraph.frontierView().keys) : name === 'outlink' || name === 'sc' || name === 'pf' ? createSelector(name) : researchSelector(name);
    const run = await findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector, iterations, extraPages, pageRank: { alpha: 0.85, tolerance: 1e-6 }, onIteration: (state) => { current = state; } });
    const r = (v: Float64Array) => restrictAndNormalise(v, L);
    const sg = l1Distance(r(run.rank), target);
    const checked = checkedWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 });
    const ch = l1Distance(r(checked.rank), target);
    const wo = l1Distance(r(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: 0.75 })), target);
    // Diagnostic (truth): the share of the true inflow into L sent by the crawled pages.
    const g = truth;
    let inflowAll = 0;
    let inflowGot = 0;
    const crawledMask = new Uint8Array(web.graph.nodeCount);
    for (let i = run.supergraph.localCount; i < run.supergraph.size; i++) crawledMask[run.supergraph.keyOf(i)] = 1;
    for (let u = 0; u < web.graph.nodeCount; u++) {
      if (inL[u]) continue;
      let into = 0;
      for (let e = web.graph.outOffsets[u]; e < web.graph.outOffsets[u + 1]; e++) if (inL[web.graph.outTargets[e]]) into++;
      if (into === 0) continue;
      const x = (g[u] * into) / (web.graph.outOffsets[u + 1] - web.graph.outOffsets[u]);
      inflowAll += x;
      if (crawledMask[u]) inflowGot += x;
    }
    for (const [key, v] of [[`${name}+sg`, sg], [`${name}+checked`, ch]] as const) {
      sums[key] ??= { tuned: 0, heldout: 0, worse: [] };
      sums[key][set] += v;
      if (v > 1.05 * scL1) sums[key].worse.push(`${spec} ${(v / scL1).toFixed(2)}×`);
    }
    cells.push(`${name}: sg ${f(sg)} w ${f(wo)} ch ${f(ch)} in ${(inflowGot / inflowAll).toFixed(2)} (${checked.useWorld ? 'W' : 'S'} cos ${checked.cosine.toFixed(2)} re ${checked.realised.toFixed(3)})`);
  }
  console.log(`${spec}\tSC ${f(scL1)}\t${cells.join('\t')}`);
}
console.log(`\nSC-Select means: tuned ${f(scSum.tuned / 12)} held-out ${f(scSum.heldout / 12)} all ${f((scSum.tuned + scSum.heldout) / 24)}`);
const tieSum = { tuned: 0, heldout: 0 };
if (BUDGET === 1) for (const t of ties) tieSum[t.set] += t.l1;
const pct = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)} %`;
for (const [key, s] of Object.entries(sums)) {
  const tu = s.tuned + tieSum.tuned;
  const ho = s.heldout + tieSum.heldout;
  console.log(`${key}\ttuned ${f(tu / 12)} ${pct(tu, scSum.tuned)}\theld-out ${f(ho / 12)} ${pct(ho, scSum.heldout)}\tall ${f((tu + ho) / 24)} ${pct(tu + ho, scSum.tuned + scSum.heldout)}\t>5 % worse: ${s.worse.length} ${s.worse.join(', ')}`);
}
