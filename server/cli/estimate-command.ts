/**
 * `lse estimate`: one estimation round on a crawled data directory; `lse ranks`: the result.
 */
import { ScopeSpecError } from '../../crawler/scope.ts';
import { ESTIMATOR_NAMES, isEstimatorName, isMethodName, METHOD_NAMES } from '../../indexer/estimation/estimators.ts';
import { loadRankSnapshot } from '../../indexer/ranking/search-engine.ts';
import { formatDiagnosis } from '../../crawler/crawl-diagnosis.ts';
import { CliError } from './cli-error.ts';
import { fetchFlagOptions, fetchFlagOverrides, fetchFlagsUsage, settingsForDataDir } from './crawl-command.ts';
import { createCrawlStack } from './crawl-setup.ts';
import { numberFlag, parseFlags } from './flags.ts';
import { createProgress } from './progress.ts';
import { BEST_METHOD_NAME, DEFAULT_METHOD_NAME } from '../report/experiment-report.ts';
import { runEstimationRound } from '../jobs/estimation-round.ts';
import { newJobId } from '../jobs/job-id.ts';
import { dataDirDomain, missingLocalPages, type DataDirDomain } from '../jobs/local-domain.ts';

export const estimateUsage = `lse estimate [--selector sc] [--iterations 50] [--extra 2n | --per-iteration K] [--fresh] [--no-budgets] [fetch flags]

  Runs one estimation round (FindGlobalPR) on the crawled local domain. A round continues
  from the supergraph earlier rounds built (their global pages and links, their PageRank as
  the warm start) and spends its budget on new pages, so the estimate improves round after
  round (docs/rounds.md); --fresh starts over from the local pages. Each iteration the
  selector picks frontier pages outside the domain, the crawler fetches them politely (with
  per-pay-level-domain budgets), PageRank is recomputed; at the end the estimate of every local
  page is stored as a new version, which the search ranking uses. The local domain is what the
  crawl stored as local (by its URL scope or, for a topic crawl, by its topic); the pages a round
  fetches are stored as global on a topic-crawled data directory.

  --selector NAME     ${METHOD_NAMES.join(', ')} (default: default, which is
                      ${DEFAULT_METHOD_NAME}; sc = the paper's SC-Select;
                      best = ${BEST_METHOD_NAME}; docs/estimation.md)
  --estimator NAME    the final estimate: ${ESTIMATOR_NAMES.join(', ')} (default supergraph)
  --iterations T      iterations (default 50)
  --extra E           extra pages in all: a count or a multiple of the domain size (default 2n)
  --per-iteration K   or: pages per iteration
  --fresh             start from the local pages alone, not from the earlier rounds
  --no-budgets        no per-pay-level-domain budgets (setting estimation.pldBudgets): the
                      round then picks what the offline algorithm picks on the same pages
${fetchFlagsUsage}`;

export const ranksUsage = `lse ranks [--data DIR]

  One line per local page: url, local PageRank, estimated global PageRank (latest round; the
  local value when no round has run).`;

export async function estimateCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(
    argv,
    { ...fetchFlagOptions, selector: { type: 'string' }, estimator: { type: 'string' }, iterations: { type: 'string' }, extra: { type: 'string' }, 'per-iteration': { type: 'string' }, 'no-budgets': { type: 'boolean' }, fresh: { type: 'boolean' } },
    'estimate',
  );
  const { settings, store } = await settingsForDataDir(flags, fetchFlagOverrides(flags));
  const selector = flags.selector ?? settings.estimation.selector;
  const estimator = flags.estimator ?? settings.estimation.estimator;
  const iterations = numberFlag(flags.iterations, 'iterations') ?? settings.estimation.iterations;
  const perIteration = numberFlag(flags['per-iteration'], 'per-iteration');
  let domain: DataDirDomain;
  try {
    if (!isMethodName(selector)) throw new CliError(`--selector: unknown selector "${selector}"; choose from ${METHOD_NAMES.join(', ')}`);
    if (!isEstimatorName(estimator)) throw new CliError(`--estimator: unknown estimator "${estimator}"; choose from ${ESTIMATOR_NAMES.join(', ')}`);
    if (!(Number.isInteger(iterations) && iterations >= 1)) throw new CliError('--iterations must be a positive integer');
    if (perIteration !== undefined && !(Number.isInteger(perIteration) && perIteration >= 1)) throw new CliError('--per-iteration must be a positive integer');
    // Local pages are those its crawl stored as local (by its URL scope, or by its topic).
    try {
      domain = dataDirDomain(settings.crawler);
    } catch (error) {
      if (error instanceof ScopeSpecError) throw new CliError(`lse estimate: the remembered scope: ${error.message}`);
      throw error;
    }
    const missing = await missingLocalPages(store, domain);
    if (missing) throw new CliError(`lse estimate: ${missing}`, 1);
  } catch (error) {
    await store.close();
    throw error;
  }
  const stack = createCrawlStack(store, settings.crawler);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const progress = createProgress(iterations, 'estimate');
  try {
    const status = await runEstimationRound(
      { store, stack, settings, scope: domain.scope, domain },
      newJobId('round'),
      { selector, estimator, iterations, extra: flags.extra, pagesPerIteration: perIteration, budgets: flags['no-budgets'] ? false : undefined, fresh: flags.fresh ?? false },
      { signal: controller.signal, onProgress: (s) => progress.update(s.iteration, `crawled ${s.crawled} | frontier ${s.frontier} | change ${s.change.toExponential(2)}`) },
    );
    progress.stop();
    if (status.state !== 'done') {
      process.stderr.write(`estimation round ${status.state}${status.error ? `: ${status.error}` : ''}\n`);
      return status.state === 'cancelled' ? 130 : 1;
    }
    process.stdout.write(
      `estimation round ${status.id} done: ${status.localPages} local pages, ${status.crawled - (status.startPages ?? 0)} new global pages in ${status.iterations} iterations ` +
        `(${status.crawled} in the supergraph), ` +
        `${((status.finishedAt! - status.startedAt) / 1000).toFixed(1)} s; ${status.version !== undefined ? `estimate version ${status.version}` : 'no new estimate version'}\n`,
    );
    if (status.note) process.stdout.write(`  ${status.note}\n`);
    // Why pages outside the site were not stored, per host, as the crawl summary says it.
    const why = formatDiagnosis(status.diagnosis ?? []);
    if (why.length > 0) process.stdout.write(`${why.join('\n')}\n`);
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stack.close();
    await store.close();
  }
}

export async function ranksCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { config: { type: 'string' }, data: { type: 'string' } }, 'ranks');
  const { store } = await settingsForDataDir(flags, {});
  try {
    const ranks = await loadRankSnapshot(store);
    if (ranks.local.size === 0) throw new CliError('lse ranks: no ranks yet: run lse index or lse estimate first', 1);
    const lines: string[] = [];
    for (const [id, local] of ranks.local) lines.push(`${store.urlOf(id)}\t${local}\t${ranks.global.get(id)}`);
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } finally {
    await store.close();
  }
}
