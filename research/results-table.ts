// Prints the README's results tables from the result.json files under one or more results folders
// (as written by research/studies/shared-graph.sh). A folder given as DIR:SUFFIX has its methods
// renamed NAME+SUFFIX (e.g. research/results/world:world, run with ESTIMATOR=world), so both merge into one table.
// Usage: node bin/run-ts.js research/results-table.ts [DIR[:SUFFIX] …]   (default research/results/shared)
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../indexer/estimation/experiment.ts';
import { formatComparisonMarkdown, formatSummaryMarkdown } from './report-tables.ts';

const folders = process.argv.length > 2 ? process.argv.slice(2) : ['research/results/shared'];
const experiments: Array<{ graph: string; result: ExperimentResult }> = [];
for (const folder of folders) {
  const [dir, suffix] = folder.split(':');
  for (const graph of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, graph, 'result.json'))) continue;
    const result = JSON.parse(readFileSync(join(dir, graph, 'result.json'), 'utf8')) as ExperimentResult;
    if (suffix) for (const d of result.domains) d.selectors = Object.fromEntries(Object.entries(d.selectors).map(([name, outcome]) => [`${name}+${suffix}`, outcome]));
    const same = experiments.find((e) => e.graph === graph);
    if (!same) experiments.push({ graph, result });
    else for (const d of result.domains) Object.assign(same.result.domains.find((x) => x.spec === d.spec)?.selectors ?? {}, d.selectors);
  }
}
process.stdout.write(formatSummaryMarkdown(experiments) + '\n' + formatComparisonMarkdown(experiments, 'sc'));
