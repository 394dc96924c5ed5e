// The one validation run of research/docs/history.md ("Selection for the inflow"): on the 10 validation balls of
// research/scripts/validation-domains.ts (budget n extra pages in 25 iterations), SC-Select (the paper), OutlinkCount,
// best (OutlinkCount + checked world), and the frozen research selector `recipflow` (v:pfw=1,wpf=0.75,lamf=5 of
// research/scripts/inflow-selectors.ts: PF's flow over the frontier-world rank of F, each crawled global linker weighted
// 1 + 5 × the share of its links into L) with the supergraph and with the checked estimate; plus, as a diagnostic of the
// tie-break, OutlinkCount + checked with ties broken at random (seeds 1–3) instead of by the lowest page id.
// Usage: node bin/run-ts.js research/scripts/validation-run.ts
import { researchDomains } from './shared-domains.ts';
import { VALIDATION_CASES } from './validation-cases.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';
import { oracleSelector, researchSelector } from './inflow-selectors.ts';
import type { WebGraph } from '../../indexer/graph-files.ts';

// The oracle's view of the current domain and run (set below).
const current = {} as { web: WebGraph; truth: Float64Array; inL: Uint8Array; keys: () => readonly number[] };

const VALIDATION_BALLS = VALIDATION_CASES[0].domains;
const RECIP = 'v:pfw=1,wpf=0.75,lamf=5';
const methods: { name: string; selector: () => ReturnType<typeof createSelector>; checked: boolean }[] = [
  { name: 'SC-Select', selector: () => createSelector('sc'), checked: false },
  { name: 'OutlinkCount', selector: () => createSelector('outlink'), checked: false },
  { name: 'best', selector: () => createSelector('outlink'), checked: true },
  { name: 'recipflow', selector: () => researchSelector(RECIP), checked: false },
  { name: 'recipflow+checked', selector: () => researchSelector(RECIP), checked: true },
  // Not methods (they read the truth): the one-step inflow oracle of inflow-selection.ts, as a bound for selection.
  { name: 'oracle', selector: () => oracleSelector(current.web.graph, current.truth, current.inL, () => current.keys()), checked: false },
  { name: 'oracle+checked', selector: () => oracleSelector(current.web.graph, current.truth, current.inL, () => current.keys()), checked: true },
  ...[1, 2, 3].map((s) => ({ name: `outlink(random ties ${s})+checked`, selector: () => researchSelector(`v:jit=${s}`), checked: true })),
];
const sums = new Map<string, { sum: number; worse: string[] }>();
const f = (x: number) => x.toFixed(4);
console.log(['domain', 'n', ...methods.map((m) => m.name)].join('\t'));
for (const { spec, web, pages, truth, target, localIndices: L } of researchDomains([{ g: 'notredame', nodes: false, domains: VALIDATION_BALLS }])) {
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  current.web = web;
  current.truth = truth;
  current.inL = new Uint8Array(web.graph.nodeCount);
  for (const p of pages) current.inL[p] = 1;
  const row: string[] = [spec, String(pages.length)];
  let sc = 0;
  for (const m of methods) {
    const run = await findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: m.selector(), iterations: 25, extraPages: pages.length, pageRank: { alpha: 0.85, tolerance: 1e-6 }, onIteration: (state) => {
        current.keys = () => state.supergraph.frontierView().keys;
      } });
    const estimate = m.checked ? checkedWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 }) : undefined;
    const l1 = l1Distance(restrictAndNormalise(estimate ? estimate.rank : run.rank, L), target);
    if (m.name === 'SC-Select') sc = l1;
    const s = sums.get(m.name) ?? { sum: 0, worse: [] };
    s.sum += l1;
    if (l1 > 1.05 * sc) s.worse.push(`${spec} ${(l1 / sc).toFixed(2)}×`);
    sums.set(m.name, s);
    row.push(`${f(l1)}${estimate ? (run.supergraph.frontierSize === 0 ? ' (empty)' : estimate.useWorld ? ' W' : ' S') : ''} ${(l1 / sc).toFixed(2)}×`);
  }
  console.log(row.join('\t'));
}
const scSum = sums.get('SC-Select')!.sum;
console.log();
for (const [name, s] of sums) console.log(`${name}\tmean ${f(s.sum / VALIDATION_BALLS.length)}\t${((s.sum / scSum - 1) * 100).toFixed(1)} % vs SC\t> 5 % worse: ${s.worse.length} ${s.worse.join(', ')}`);
