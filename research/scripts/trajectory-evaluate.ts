// Research (research/docs/history.md, "The trajectory estimate"): final L1 of SC-Select, best (OutlinkCount + checked) and
// OutlinkCount + the trajectory estimate (`--estimator trajectory`, run inside FindGlobalPR as `lse experiment` runs it)
// on a set of domains, with the trajectory weight λ and its windows; means against SC-Select per set.
// Usage: node bin/run-ts.js research/scripts/trajectory-evaluate.ts known|validation [half|issue|double] [selector of the trajectory run, default outlink]
import { researchDomains, type GraphCase } from './shared-domains.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createResearchSelector as createSelector, estimateOf, type AnyEstimatorName } from '../estimation/methods.ts';
import { trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';

import { KNOWN_CASES } from './known-domains.ts';
import { VALIDATION_CASES } from './validation-cases.ts';

const which = process.argv[2] ?? 'known';
const budget = process.argv[3] ?? 'issue';
const factor = { half: 0.5, issue: 1, double: 2 }[budget]!;
const trajectorySelector = process.argv[4] ?? 'outlink';
const cases = (which === 'validation' ? VALIDATION_CASES : KNOWN_CASES) as readonly (GraphCase & { set: string; site: boolean })[];
const f = (x: number, d = 4) => (Number.isNaN(x) ? 'NaN' : x.toFixed(d));
const sums: Record<string, { sc: number; best: number; traj: number; n: number; worseBest: string[]; worseTraj: string[] }> = {};
console.log('set\tdomain\tn\tSC\tbest\ttrajectory\tratio\tλ\twindows (cos, realised, crawled share)');
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  const extraPages = Math.round(factor * (c.site ? 2 : 1) * pages.length);
  // As research/studies/budgets.sh: half = sites n / 25, topics n/2 / 13; double = sites 4n / 50, topics 2n / 50.
  const iterations = budget === 'double' ? 50 : Math.round(factor * (c.site ? 50 : 25));
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const run = (selector: string, estimator: AnyEstimatorName) => findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector(selector as 'sc', { seed: 1 }), estimator: estimateOf(estimator), iterations, extraPages, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  const sc = l1Distance((await run('sc', 'supergraph')).estimate, target);
  const best = l1Distance((await run('outlink', 'checked')).estimate, target);
  const out = await run(trajectorySelector, 'trajectory');
  const traj = l1Distance(out.estimate, target);
  const detail = trajectoryWorldRank(out.supergraph, out.rank, { tolerance: 1e-8 });
  if (Math.abs(l1Distance(restrictAndNormalise(detail.rank, L), target) - traj) > 1e-9) throw new Error(`${spec}: the estimator inside FindGlobalPR differs from a direct call`);
  const s = (sums[c.set] ??= { sc: 0, best: 0, traj: 0, n: 0, worseBest: [], worseTraj: [] });
  s.sc += sc; s.best += best; s.traj += traj; s.n++;
  if (best > 1.05 * sc) s.worseBest.push(spec);
  if (traj > 1.05 * sc) s.worseTraj.push(spec);
  const windows = detail.windows.map((w) => `${f(w.cosine, 2)}/${f(w.realised, 3)}/${f(w.crawledShare, 3)}`).join(' ');
  console.log([c.set, spec, pages.length, f(sc), f(best), f(traj), f(traj / sc, 3), f(detail.weight, 2), windows].join('\t'));
}
const total = { sc: 0, best: 0, traj: 0, n: 0, worseBest: [] as string[], worseTraj: [] as string[] };
for (const [set, s] of Object.entries(sums)) {
  console.log(`${set} (${s.n} domains): SC ${f(s.sc / s.n)}; best ${f(s.best / s.n)} (${((s.best / s.sc - 1) * 100).toFixed(1)} %, > 5 % worse: ${s.worseBest.length}); trajectory ${f(s.traj / s.n)} (${((s.traj / s.sc - 1) * 100).toFixed(1)} %, > 5 % worse: ${s.worseTraj.length} ${s.worseTraj.join(' ')})`);
  total.sc += s.sc; total.best += s.best; total.traj += s.traj; total.n += s.n; total.worseBest.push(...s.worseBest); total.worseTraj.push(...s.worseTraj);
}
if (Object.keys(sums).length > 1) console.log(`all (${total.n}): SC ${f(total.sc / total.n)}; best ${f(total.best / total.n)} (${((total.best / total.sc - 1) * 100).toFixed(1)} %, ${total.worseBest.length} worse); trajectory ${f(total.traj / total.n)} (${((total.traj / total.sc - 1) * 100).toFixed(1)} %, ${total.worseTraj.length} worse)`);
