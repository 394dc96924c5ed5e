/**
 * Presenting an experiment's results: the paper's Table 1 as text or Markdown, and the
 * L1-per-iteration chart of every domain (the paper's Figure 2).
 */
import type { DomainOutcome, ExperimentResult } from '../../indexer/estimation/experiment.ts';
import { BEST_METHOD, DEFAULT_METHODS, type EstimatorName } from '../../indexer/estimation/estimators.ts';
import type { SelectionName } from '../../indexer/estimation/selectors.ts';
import { renderLineChartSvg } from './line-chart-svg.ts';

// Typed by the selector names, so that a new selector cannot go without a display name.
const SELECTOR_DISPLAY_NAMES: Record<SelectionName, string> = {
  sc: 'SC-Select',
  pf: 'PF-Select',
  outlink: 'OutlinkCount',
  random: 'Random',
  'adaptive-hedged': 'Hedged adaptive',
};
const ESTIMATOR_DISPLAY_NAMES: Record<EstimatorName, string> = { supergraph: 'supergraph', gated: 'gated consensus' };
/** What `best` runs, in words (`Hedged adaptive + gated consensus`): built from BEST_METHOD, never kept by hand. */
export const BEST_METHOD_NAME = `${SELECTOR_DISPLAY_NAMES[BEST_METHOD.selector]} + ${ESTIMATOR_DISPLAY_NAMES[BEST_METHOD.estimator]}`;
/** What `default` runs, in words. */
export const DEFAULT_METHOD_NAME = `${SELECTOR_DISPLAY_NAMES[DEFAULT_METHODS.site]} on sites, ${DEFAULT_METHODS.topic} on topics`;
const DISPLAY_NAMES: Record<string, string> = { ...SELECTOR_DISPLAY_NAMES, best: `Best (${BEST_METHOD_NAME})`, default: `Default (${DEFAULT_METHOD_NAME})` };

/** `sc` → `SC-Select`; a method renamed `NAME+SUFFIX` (a second estimate of it) → `SC-Select + SUFFIX`. */
export function selectorDisplayName(name: string): string {
  const plus = name.indexOf('+');
  if (plus > 0) return `${selectorDisplayName(name.slice(0, plus))} + ${name.slice(plus + 1)}`;
  return DISPLAY_NAMES[name] ?? name;
}

interface Row {
  method: string;
  /** L1 after each round (when there are several). */
  roundL1: number[];
  l1: number;
  linf: number;
  tau: number;
  crawled: number;
  seconds: number | undefined;
}

function rowsOf(domain: DomainOutcome): Row[] {
  return [
    { method: 'local PageRank', roundL1: [], ...domain.baseline, crawled: 0, seconds: undefined },
    ...Object.entries(domain.selectors).map(([name, outcome]) => ({ method: selectorDisplayName(name), roundL1: outcome.rounds.length > 1 ? outcome.rounds.map((r) => r.l1) : [], ...outcome.final })),
  ];
}

function cells(row: Row, rounds: number): string[] {
  const perRound = Array.from({ length: rounds > 1 ? rounds : 0 }, (_, r) => (row.roundL1[r] === undefined ? '' : row.roundL1[r].toFixed(4)));
  return [row.method, ...perRound, row.l1.toFixed(4), row.linf.toFixed(6), row.tau.toFixed(4), String(row.crawled), row.seconds === undefined ? '' : row.seconds.toFixed(2)];
}

const HEADER = ['method', 'L1', 'L∞', 'Kendall τ', 'crawled', 'seconds'];

/** Plain-text tables, one per domain, for the terminal. */
export function formatExperimentTable(result: ExperimentResult): string {
  const blocks: string[] = [];
  for (const domain of result.domains) {
    const rounds = result.settings.rounds ?? 1;
    const header = rounds > 1 ? [HEADER[0], ...Array.from({ length: rounds }, (_, r) => `L1 round ${r + 1}`), ...HEADER.slice(1)] : HEADER;
    const rows = [header, ...rowsOf(domain).map((row) => cells(row, rounds))];
    const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
    blocks.push(
      [
        `${domain.spec}  (n = ${domain.pages} pages, ${domain.extraPages} extra pages in ${result.settings.iterations} iterations${rounds > 1 ? ` a round, ${rounds} rounds` : ''})`,
        line(rows[0]),
        widths.map((w) => '-'.repeat(w)).join('  '),
        ...rows.slice(1).map(line),
      ].join('\n'),
    );
  }
  return blocks.join('\n\n') + '\n';
}

/** The SVG chart of L1 to the true global PageRank against iteration, one line per selector. */
export function experimentChartSvg(domain: DomainOutcome, graphName = ''): string {
  return renderLineChartSvg({
    title: `${graphName ? `${graphName}: ` : ''}${domain.spec} (n = ${domain.pages}, +${domain.extraPages} pages)`,
    xLabel: 'FindGlobalPR iteration',
    yLabel: 'L1 distance to global PageRank',
    series: Object.entries(domain.selectors).map(([name, outcome]) => ({
      name: selectorDisplayName(name),
      points: outcome.perIteration.map((it) => [it.iteration, it.l1] as const),
    })),
  });
}

/** A file-name-safe form of a domain spec. */
export function domainSlug(spec: string): string {
  return spec.replace(/^[a-z]+:\/*/i, (m) => m.replace(/[:/]+/g, '-')).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'domain';
}
