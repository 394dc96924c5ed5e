/**
 * `lse experiment` with the research variants (research/estimation/methods.ts) as well as the product's methods.
 * Usage: node bin/run-ts.js research/experiment.ts [the flags of lse experiment]
 */
import { experimentCommand } from '../server/cli/experiment-command.ts';
import { CliError } from '../server/cli/cli-error.ts';
import { RESEARCH_METHODS } from './estimation/methods.ts';

try {
  process.exitCode = await experimentCommand(process.argv.slice(2), RESEARCH_METHODS);
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = error.exitCode;
}
