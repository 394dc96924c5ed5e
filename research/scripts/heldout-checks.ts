// Research (research/docs/history.md, "Held-out domains"): on the held-out domains of research/studies/heldout.sh, at the
// issue's budgets, OutlinkCount's crawl and what the checked world estimate decided at the end (cosine, realised share,
// world or supergraph), with the final L1 of the supergraph estimate, of the world estimate (s = 0.75, unchecked) and of
// SC-Select; then the checked estimate's mean final L1 against SC-Select's with other sizes of W (s), the other constants
// kept. Diagnostics only: nothing here changes the estimator (its constants were fixed before the held-out runs).
// Usage: node bin/run-ts.js research/scripts/heldout-checks.ts
import { researchDomains } from './shared-domains.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { frontierWorldModel, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';

const cases = [
  { g: 'hollins', nodes: true, domains: ['prefix:http://www1.hollins.edu/faculty', 'prefix:http://www1.hollins.edu/classes'], site: true },
  { g: 'california', nodes: true, domains: ['host:net', 'host:org'], site: true },
  {
    g: 'notredame',
    nodes: false,
    domains: ['ball:176585:3', 'ball:1479:3', 'ball:255448:3', 'ball:87663:3', 'ball:313259:3', 'ball:232421:3', 'ball:88784:3', 'ball:214329:3'],
    site: false,
  },
];
const f = (x: number, d = 4) => (Number.isNaN(x) ? 'NaN' : x.toFixed(d));
const SCALES = [0.5, 0.625, 0.75, 0.875, 1];
const sums = { sc: 0, byScale: SCALES.map(() => 0), worse: SCALES.map(() => 0), count: 0 };
console.log('domain\tn\tcrawled\tfrontier left\tcos\trealised\tcheck\tsupergraph L1\tworld L1\tchecked L1\tSC L1');
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  const extraPages = Math.round((c.site ? 2 : 1) * pages.length);
  const iterations = c.site ? 50 : 25;
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const run = (selector: string) => findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector(selector as 'sc'), iterations, extraPages, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  const out = await run('outlink');
  const sg = out.supergraph;
  const r = (v: Float64Array) => restrictAndNormalise(v, L);
  const checked = checkedWorldRank(sg, out.rank, { tolerance: 1e-8 });
  const world = frontierWorldRank(frontierWorldModel(sg), { tolerance: 1e-8, scale: 0.75 });
  const sc = await run('sc');
  const row = [spec, pages.length, sg.size - sg.localCount, sg.frontierSize, f(checked.cosine, 3), f(checked.realised, 3), sg.frontierSize === 0 ? '(frontier empty)' : checked.prefix === 0 ? '(no check)' : checked.useWorld ? 'world' : 'supergraph'];
  const scL1 = l1Distance(r(sc.rank), target);
  sums.sc += scL1;
  sums.count++;
  SCALES.forEach((scale, i) => {
    const l1 = l1Distance(r(checkedWorldRank(sg, out.rank, { tolerance: 1e-8, scale }).rank), target);
    sums.byScale[i] += l1;
    if (l1 > 1.05 * scL1) sums.worse[i]++;
  });
  console.log([...row, f(l1Distance(r(out.rank), target)), f(l1Distance(r(world), target)), f(l1Distance(r(checked.rank), target)), f(l1Distance(r(sc.rank), target))].join('\t'));
}
console.log(`\nSC-Select mean final L1 ${f(sums.sc / sums.count)} (${sums.count} domains); checked estimate (cosine 0.25, realised 0.03, prefix 3/4) by s:`);
SCALES.forEach((scale, i) => console.log(`s = ${scale}\tmean ${f(sums.byScale[i] / sums.count)}\t${((sums.byScale[i] / sums.sc - 1) * 100).toFixed(1)} %\tdomains > 5 % worse than SC: ${sums.worse[i]}`));
