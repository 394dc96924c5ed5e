// Research (research/docs/history.md): OutlinkCount with a share p of each iteration's pages taken uniformly at random from the frontier.
// Usage: node bin/run-ts.js research/scripts/mixed-selection.ts 0 0.1 0.25 0.5
import { researchDomains } from './shared-domains.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { linkerCountScores } from '../../indexer/estimation/baseline-selectors.ts';
import { topK, candidateCount, type PageSelector } from '../../indexer/estimation/selection.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { frontierWorldModel, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';

function mixed(p: number, seed: number): PageSelector {
  const random = seededRandom(seed);
  return { name: 'mixed', select(input, k) {
    const count = candidateCount(input);
    const top = topK(linkerCountScores(input), Math.min(count, k - Math.round(p * k)));
    const taken = new Uint8Array(count); for (const c of top) taken[c] = 1;
    const rest: number[] = []; for (let c = 0; c < count; c++) if (!taken[c]) rest.push(c);
    const want = Math.min(rest.length, k - top.length);
    for (let i = 0; i < want; i++) { const j = i + Math.floor(random() * (rest.length - i)); [rest[i], rest[j]] = [rest[j], rest[i]]; }
    return Int32Array.from([...top, ...rest.slice(0, want)]);
  } };
}
const cases = [
  { g: 'hollins', nodes: true, domains: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/registrar'], it: 50, extra: 2 },
  { g: 'notredame', nodes: false, domains: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3'], it: 25, extra: 1 },
];
const P = process.argv.slice(2).map(Number);
const sums: Record<string, number> = {};
for (const { graphCase: c, spec, web, pages, target, localIndices: L } of researchDomains(cases)) {
  for (const p of P) {
    const run = await findGlobalPageRank({ localPages: Array.from(pages, (q) => pageOfGraph(web.graph, q)), source: knownGraphSource(web.graph), selector: mixed(p, 1), iterations: c.it, extraPages: Math.round(c.extra * pages.length), pageRank: { alpha: 0.85, tolerance: 1e-8 } });
    const e = (v: Float64Array) => l1Distance(restrictAndNormalise(v, L), target);
    const row: Record<string, number> = { sg: e(run.rank) };
    for (const s of [0.5, 0.75, 1]) { row['w' + s] = e(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: s })); const ch = checkedWorldRank(run.supergraph, run.rank, { tolerance: 1e-8, scale: s, prefixShare: 0.5, minRealised: -Infinity }); /* the first version of the check */ row['c' + s] = e(ch.rank); row['cos' + s] = ch.cosine; }
    for (const [k, v] of Object.entries(row)) if (!k.startsWith('cos')) sums[`${p} ${k}`] = (sums[`${p} ${k}`] ?? 0) + v;
    console.log(spec, 'p', p, Object.entries(row).map(([k, v]) => `${k}=${v.toFixed(3)}`).join(' '));
  }
}
for (const [k, v] of Object.entries(sums)) console.log(k, 'mean12', ((v + 0.8985) / 12).toFixed(4), (((v + 0.8985) / 12 / 0.2592 - 1) * 100).toFixed(1) + '%');
