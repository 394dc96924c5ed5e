/**
 * `lse experiment`: FindGlobalPR on a known web graph, the way the paper evaluates it (§6).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { estimationSettingsSchema } from '../../config/estimation.ts';
import { GraphError } from '../../indexer/graph.ts';
import { loadWebGraph } from '../../indexer/graph-files.ts';
import { DomainSpecError, resolveDomain } from '../../indexer/estimation/domain.ts';
import { parseExtraPages, runExperiment, type ExperimentDomain } from '../../indexer/estimation/experiment.ts';
import { ESTIMATOR_NAMES, METHOD_NAMES, PRODUCT_METHODS, type MethodCatalogue } from '../../indexer/estimation/estimators.ts';
import { BEST_METHOD_NAME, DEFAULT_METHOD_NAME, domainSlug, experimentChartSvg, formatExperimentTable } from '../report/experiment-report.ts';
import { CliError } from './cli-error.ts';
import { checkedSettings, numberFlag, parseFlags } from './flags.ts';
import { createProgress } from './progress.ts';

export const experimentUsage = `lse experiment --edges FILE [--nodes FILE] --domain SPEC [--domain SPEC …]
               [--selectors ${METHOD_NAMES.join(',')}] [--estimator ${ESTIMATOR_NAMES.join('|')}]
               [--iterations 50] [--extra 2n] [--rounds 1]
               [--alpha 0.85] [--tolerance 1e-6] [--seed 1] [--buckets C] [--cold-start] [--out DIR]

  Runs FindGlobalPR against a known global graph and compares every selector's estimate with
  the true global PageRank (L1, L∞, Kendall τ-b) at every iteration.

  --edges FILE      edge list "src dst" (gzip or plain, # comments allowed)
  --nodes FILE      "id url host [label]" (needed by host:, prefix: and label: domains)
  --domain SPEC     host:SUFFIX | prefix:URL | label:NAME | ids:FILE | ball:ID:R (repeatable)
  --selectors LIST  comma-separated, from ${METHOD_NAMES.join(', ')} (default: all); best is
                    the project's method for topic communities, its selection and its estimate
                    together (${BEST_METHOD_NAME}); default is what a round runs on a
                    domain of that kind (${DEFAULT_METHOD_NAME}: host: and prefix: domains
                    are sites, label: and ball: domains topics; docs/estimation.md)
  --estimator E     the final estimate of the named selectors: ${ESTIMATOR_NAMES.join(' or ')}
                    (default supergraph, the paper's; gated moves it along the frontier-world
                    correction by a weight the crawl's trajectory gives, where the crawl shows
                    the domain open to the web)
  --iterations T    FindGlobalPR iterations (default 50)
  --extra E         extra pages: a count (1500) or a multiple of the domain size (2n, 0.5n);
                    k = round(E / T) pages per iteration
  --rounds R        R rounds, each of --extra pages in --iterations iterations; round r+1
                    continues from the supergraph round r left, as nightly rounds do
                    (default 1); the L1 after each round is reported
  --alpha A         PageRank damping factor (default 0.85)
  --tolerance D     PageRank L1 tolerance inside FindGlobalPR (default 1e-6)
  --seed S          seed of the Random selector (default 1)
  --buckets C       SC-Select with the paper's C-bucket discretisation (default: exact)
  --cold-start      recompute each PageRank from the uniform vector instead of the previous one
  --out DIR         write DIR/result.json and one SVG chart per domain

  Example:
    lse experiment --nodes ../shared/data/graphs/hollins.nodes.tsv.gz \\
      --edges ../shared/data/graphs/hollins.edges.tsv.gz --domain host:www.hollins.edu --out out/hollins`;

/** `catalogue`: the methods the flags may name (research/ passes its own, with the variants). */
export async function experimentCommand(argv: string[], catalogue: MethodCatalogue = PRODUCT_METHODS): Promise<number> {
  const flags = parseFlags(
    argv,
    {
      edges: { type: 'string' },
      nodes: { type: 'string' },
      domain: { type: 'string', multiple: true },
      selectors: { type: 'string' },
      estimator: { type: 'string' },
      iterations: { type: 'string' },
      extra: { type: 'string' },
      rounds: { type: 'string' },
      alpha: { type: 'string' },
      tolerance: { type: 'string' },
      seed: { type: 'string' },
      buckets: { type: 'string' },
      'cold-start': { type: 'boolean' },
      out: { type: 'string' },
    },
    'experiment',
  );
  if (!flags.edges) throw new CliError('lse experiment: --edges FILE is required');
  if (!flags.domain || flags.domain.length === 0) throw new CliError('lse experiment: give at least one --domain SPEC');
  const settings = checkedSettings(estimationSettingsSchema, {
    alpha: numberFlag(flags.alpha, 'alpha'),
    tolerance: numberFlag(flags.tolerance, 'tolerance'),
    iterations: numberFlag(flags.iterations, 'iterations'),
    extra: flags.extra,
    seed: numberFlag(flags.seed, 'seed'),
  });
  const selectors = (flags.selectors ?? catalogue.methods.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (selectors.length === 0) throw new CliError('--selectors: name at least one selector');
  for (const name of selectors) if (!catalogue.methods.includes(name)) throw new CliError(`--selectors: unknown selector "${name}"; choose from ${catalogue.methods.join(', ')}`);
  if (new Set(selectors).size !== selectors.length) throw new CliError('--selectors: a selector is named twice');
  const estimator = flags.estimator ?? 'supergraph';
  if (!catalogue.estimators.includes(estimator)) throw new CliError(`--estimator: unknown estimator "${estimator}"; choose from ${catalogue.estimators.join(', ')}`);
  const rounds = numberFlag(flags.rounds, 'rounds') ?? 1;
  if (!(Number.isInteger(rounds) && rounds >= 1)) throw new CliError('--rounds must be an integer ≥ 1');
  const buckets = numberFlag(flags.buckets, 'buckets');
  if (buckets !== undefined && !(Number.isInteger(buckets) && buckets >= 2)) throw new CliError('--buckets must be an integer ≥ 2');

  let web;
  let domains: ExperimentDomain[];
  try {
    web = loadWebGraph({ edges: flags.edges, nodes: flags.nodes });
    domains = flags.domain.map((spec) => ({ spec, pages: resolveDomain(spec, web!) }));
  } catch (error) {
    if (error instanceof GraphError || error instanceof DomainSpecError) throw new CliError(`lse experiment: ${error.message}`);
    throw error;
  }
  const graphName = basename(flags.edges).replace(/\.edges(\.tsv)?(\.gz)?$|\.(tsv|txt)(\.gz)?$/g, '');
  if (web.skippedLines > 0) process.stderr.write(`note: skipped ${web.skippedLines} malformed lines in the graph files\n`);
  process.stderr.write(`${graphName}: ${web.graph.nodeCount} pages, ${web.graph.edgeCount} links; domains: ${domains.map((d) => `${d.spec} (${d.pages.length})`).join(', ')}\n`);

  const total = domains.length * selectors.length * rounds * (settings.iterations + 1);
  const progress = createProgress(total, 'experiment');
  let done = 0;
  const result = await runExperiment(
    web,
    domains,
    { selectors, estimator, iterations: settings.iterations, extra: parseExtraPages(settings.extra), alpha: settings.alpha, tolerance: settings.tolerance, seed: settings.seed, buckets, warmStart: !flags['cold-start'], rounds },
    (p) => progress.update(++done, `${p.domain} ${p.selector}${rounds > 1 ? ` round ${p.round}` : ''} it ${p.iteration}/${p.iterations} L1 ${p.l1.toFixed(4)}`),
    catalogue,
  );
  progress.stop();
  process.stdout.write(formatExperimentTable(result));

  if (flags.out) {
    try {
      mkdirSync(flags.out, { recursive: true });
      writeFileSync(join(flags.out, 'result.json'), JSON.stringify(result, null, 1) + '\n');
      for (const domain of result.domains) writeFileSync(join(flags.out, `${graphName}-${domainSlug(domain.spec)}.svg`), experimentChartSvg(domain, graphName));
    } catch (error) {
      throw new CliError(`cannot write to ${flags.out}: ${(error as Error).message}`, 1);
    }
    process.stderr.write(`wrote ${join(flags.out, 'result.json')} and ${result.domains.length} chart(s)\n`);
  }
  return 0;
}
