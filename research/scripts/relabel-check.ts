// Research (research/docs/history.md, "Where things stand"): how much each method's result depends on the page ids of the
// shared graphs. Selectors break score ties by the lowest id, and on these graphs low ids are the pages the original
// crawl found first (better linked than average) — a hint a live crawl does not have. This reruns the methods on
// the 24 known domains with the page ids shuffled by a seeded permutation (the graphs are the same up to labels,
// so only tie order changes) and prints each method's mean final L1 against SC-Select's, as labelled and shuffled.
// Usage: node bin/run-ts.js research/scripts/relabel-check.ts [SEED …]   (default 1 2 3)
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { runExperiment } from '../../indexer/estimation/experiment.ts';
import { RESEARCH_METHODS } from '../estimation/methods.ts';
import { loadWebGraph } from '../../indexer/graph-files.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { permutation, relabelled } from './relabel.ts';

const METHODS = ['sc', 'outlink', 'recipflow', 'best'];
const seeds = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 2, 3];

const sums = new Map<string, number>();
const add = (key: string, value: number) => sums.set(key, (sums.get(key) ?? 0) + value);
for (const graphCase of KNOWN_CASES) {
  const data = '../shared/data/graphs';
  const web = loadWebGraph({ edges: `${data}/${graphCase.g}.edges.tsv.gz`, nodes: graphCase.nodes ? `${data}/${graphCase.g}.nodes.tsv.gz` : undefined });
  const settings = { selectors: METHODS, iterations: graphCase.site ? 50 : 25, extra: { timesDomain: graphCase.site ? 2 : 1 }, alpha: 0.85, tolerance: 1e-6, seed: 1 };
  const domains = graphCase.domains.map((spec) => ({ spec, pages: resolveDomain(spec, web) }));
  for (const [label, variant] of [['labelled', undefined], ...seeds.map((seed) => [`shuffled ${seed}`, seed] as const)] as const) {
    const to = variant === undefined ? undefined : permutation(web.graph.nodeCount, variant);
    const run = await runExperiment(to ? relabelled(web, to) : web, domains.map((d) => ({ spec: d.spec, pages: to ? Int32Array.from(d.pages, (p) => to[p]) : d.pages })), settings, undefined, RESEARCH_METHODS);
    for (const d of run.domains) for (const m of METHODS) add(`${label}\t${m}`, d.selectors[m].final.l1);
    console.error(`${graphCase.g} ${graphCase.set} ${label} done`);
  }
}
for (const label of ['labelled', ...seeds.map((seed) => `shuffled ${seed}`)]) {
  const sc = sums.get(`${label}\tsc`)!;
  console.log(`${label}\t${METHODS.map((m) => `${m} ${m === 'sc' ? (sc / 24).toFixed(4) : `${((100 * sums.get(`${label}\t${m}`)!) / sc - 100).toFixed(1)} %`}`).join('\t')}`);
}
