// Prints the README's results table from the result.json files under a results folder
// (as written by scripts/shared-graph-experiments.sh). Usage: node bin/run-ts.js scripts/results-table.ts [DIR]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../indexer/estimation/experiment.ts';
import { formatSummaryMarkdown } from '../server/report/experiment-report.ts';

const dir = process.argv[2] ?? 'docs/results';
const experiments = readdirSync(dir)
  .filter((graph) => existsSync(join(dir, graph, 'result.json')))
  .map((graph) => ({ graph, result: JSON.parse(readFileSync(join(dir, graph, 'result.json'), 'utf8')) as ExperimentResult }));
process.stdout.write(formatSummaryMarkdown(experiments));
