// Research (research/docs/history.md): best against SC-Select (and OutlinkCount) on the built-in demo web, offline on its known graph:
// the university site and the library, at 2n / 50 iterations and at the demo round's budget (737 pages in 10 iterations).
// Usage: node bin/run-ts.js research/scripts/demo-web-comparison.ts sc,best,outlink
import { DEMO_LIBRARY_HOST, DEMO_LOCAL_HOST, generateDemoWeb } from '../../crawler/demo-web/generate.ts';
import { demoWebGraph } from '../../crawler/demo-web/graph.ts';
import { runExperiment } from '../../indexer/estimation/experiment.ts';
import { RESEARCH_METHODS } from '../estimation/methods.ts';

const web = generateDemoWeb();
const g = demoWebGraph(web);
const pagesOf = (host: string) => Int32Array.from(g.urls.flatMap((u, i) => (new URL(u).host === host ? [i] : [])));
const domains = [{ spec: 'university', pages: pagesOf(DEMO_LOCAL_HOST) }, { spec: 'library', pages: pagesOf(DEMO_LIBRARY_HOST) }];
const methods = (process.argv[2] ?? 'sc,best').split(',');
for (const [label, iterations, extra] of [['2n/50', 50, { timesDomain: 2 }], ['737/10', 10, { pages: 737 }]] as const) {
  const r = await runExperiment({ graph: g.graph, ids: Int32Array.from(g.graph.outOffsets.subarray(1), (_, i) => i), skippedLines: 0 }, domains, { selectors: methods, iterations, extra, alpha: 0.85, tolerance: 1e-6, seed: 1 }, undefined, RESEARCH_METHODS);
  for (const d of r.domains) console.log(label, d.spec, d.pages, Object.entries(d.selectors).map(([k, v]) => `${k}=${v.final.l1.toFixed(4)}`).join(' '));
}
