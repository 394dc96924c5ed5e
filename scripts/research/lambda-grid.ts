// Research (docs/estimation.md, "Hedged selection, and a third validation set"): on a selector's crawl, the supergraph
// estimate moved a fixed share λ of the way to the world estimate (W worth s frontiers), for a grid of λ and s; and
// the trajectory rule's own λ. Prints per domain the L1 of each, and SC-Select's final L1 (from the committed results).
// Usage: node bin/run-ts.js scripts/research/lambda-grid.ts SELECTOR   (SET=validation3 for the third validation set;
//   SHARD / SHARDS as hedge-selection.ts)
import { readFileSync } from 'node:fs';
import { researchDomains } from './shared-domains.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { VALIDATION_CASES } from './validation-cases.ts';
import { VALIDATION2_CASES } from './validation2-cases.ts';
import { VALIDATION3_CASES } from './validation3-cases.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';
import { frontierWorldModel, frontierWorldRank, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';

const sc = new Map<string, number>();
for (const dir of ['docs/results', 'docs/results-heldout', 'docs/results-validation', 'docs/results-validation2', 'docs/results-validation3']) {
  for (const g of ['hollins', 'california', 'polblogs', 'notredame']) {
    let r: { domains: { spec: string; selectors: Record<string, { final: { l1: number } }> }[] };
    try {
      r = JSON.parse(readFileSync(`${dir}/${g}/result.json`, 'utf8'));
    } catch {
      continue;
    }
    for (const d of r.domains) sc.set(`${g} ${d.spec}`, d.selectors.sc.final.l1);
  }
}
const LAMBDAS = [0, 0.25, 0.5, 0.75, 1, 1.5, 2];
const SCALES = [0.75, 2];
const shard = Number(process.env.SHARD ?? 0);
const shards = Number(process.env.SHARDS ?? 1);
const selectorName = process.argv[2] ?? 'sc';
const cases = process.env.SET === 'validation3' ? [...VALIDATION3_CASES] : [...KNOWN_CASES, ...VALIDATION_CASES, ...VALIDATION2_CASES];
let index = 0;
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases.map((c) => ({ ...c, domains: c.domains.filter(() => index++ % shards === shard) })))) {
  const localPages = Array.from(pages, (p) => pageOfGraph(web.graph, p));
  const run = await findGlobalPageRank({ localPages, source: knownGraphSource(web.graph), selector: createSelector(selectorName), iterations: c.site ? 50 : 25, extraPages: (c.site ? 2 : 1) * pages.length, pageRank: { alpha: 0.85, tolerance: 1e-6 } });
  const now = restrictAndNormalise(run.rank, L);
  const cells = [c.set, `${c.g} ${spec}`, sc.get(`${c.g} ${spec}`)!.toFixed(6)];
  for (const s of SCALES) {
    const world = restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: s }), L);
    for (const lambda of LAMBDAS) {
      const blended = now.map((x, j) => Math.max(0, x + lambda * (world[j] - x)));
      const sum = blended.reduce((a, b) => a + b, 0);
      cells.push(`s${s}l${lambda}=${l1Distance(blended.map((x) => x / sum), target).toFixed(6)}`);
    }
  }
  const trajectory = trajectoryWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 });
  cells.push(`rule=${l1Distance(restrictAndNormalise(trajectory.rank, L), target).toFixed(6)}`, `ruleλ=${trajectory.weight.toFixed(3)}`);
  console.log(cells.join('\t'));
}
