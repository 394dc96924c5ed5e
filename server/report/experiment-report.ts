/**
 * Presenting an experiment's results: the paper's Table 1 as text or Markdown, and the
 * L1-per-iteration chart of every domain (the paper's Figure 2).
 */
import type { DomainOutcome, ExperimentResult } from '../../indexer/estimation/experiment.ts';
import { BEST_METHOD, DEFAULT_METHODS, type EstimatorName } from '../../indexer/estimation/estimators.ts';
import type { SelectionName } from '../../indexer/estimation/selectors.ts';
import { mean } from '../../indexer/metrics.ts';
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
  l1: number;
  linf: number;
  tau: number;
  crawled: number;
  seconds: number | undefined;
}

function rowsOf(domain: DomainOutcome): Row[] {
  return [
    { method: 'local PageRank', ...domain.baseline, crawled: 0, seconds: undefined },
    ...Object.entries(domain.selectors).map(([name, outcome]) => ({ method: selectorDisplayName(name), ...outcome.final })),
  ];
}

function cells(row: Row): string[] {
  return [row.method, row.l1.toFixed(4), row.linf.toFixed(6), row.tau.toFixed(4), String(row.crawled), row.seconds === undefined ? '' : row.seconds.toFixed(2)];
}

const HEADER = ['method', 'L1', 'L∞', 'Kendall τ', 'crawled', 'seconds'];

/** Plain-text tables, one per domain, for the terminal. */
export function formatExperimentTable(result: ExperimentResult): string {
  const blocks: string[] = [];
  for (const domain of result.domains) {
    const rows = [HEADER, ...rowsOf(domain).map(cells)];
    const widths = HEADER.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
    blocks.push(
      [
        `${domain.spec}  (n = ${domain.pages} pages, ${domain.extraPages} extra pages in ${result.settings.iterations} iterations)`,
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

/**
 * One row per domain across several experiments: final L1 (and τ) of the local PageRank and of
 * each selector, the lowest L1 of the row in bold. For the README's results table.
 */
export function formatSummaryMarkdown(experiments: ReadonlyArray<{ graph: string; result: ExperimentResult }>): string {
  const names = [...new Set(experiments.flatMap((e) => e.result.domains.flatMap((d) => Object.keys(d.selectors))))];
  const lines = [
    `| graph | domain | n | extra / T | local PageRank | ${names.map(selectorDisplayName).join(' | ')} |`,
    `| --- | --- | --- | --- | --- | ${names.map(() => '---').join(' | ')} |`,
  ];
  for (const { graph, result } of experiments) {
    for (const d of result.domains) {
      const finals = names.map((n) => d.selectors[n]?.final);
      const best = Math.min(d.baseline.l1, ...finals.filter((f) => f !== undefined).map((f) => f.l1)).toFixed(4);
      const cell = (f: { l1: number; linf: number; tau: number } | undefined) => {
        if (!f) return '';
        const l1 = f.l1.toFixed(4);
        return `${l1 === best ? `**${l1}**` : l1} (L∞ ${f.linf.toFixed(4)}, τ ${f.tau.toFixed(3)})`;
      };
      lines.push(`| ${graph} | \`${d.spec}\` | ${d.pages} | ${d.extraPages} / ${result.settings.iterations} | ${cell(d.baseline)} | ${finals.map(cell).join(' | ')} |`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * Each method against a reference method over all domains of the experiments: mean final L1,
 * its change from the reference's mean, and the worst and best per-domain ratio to the reference.
 */
export function formatComparisonMarkdown(experiments: ReadonlyArray<{ graph: string; result: ExperimentResult }>, reference: string): string {
  const domains = experiments.flatMap((e) => e.result.domains);
  const names = [...new Set(domains.flatMap((d) => Object.keys(d.selectors)))];
  const referenceL1 = domains.map((d) => d.selectors[reference]?.final.l1 ?? Number.NaN);
  const referenceMean = mean(referenceL1);
  const lines = [
    `| method | mean final L1 (${domains.length} domains) | vs ${selectorDisplayName(reference)} | worst domain (ratio) | domains > 5 % worse |`,
    '| --- | --- | --- | --- | --- |',
    `| local PageRank | ${mean(domains.map((d) => d.baseline.l1)).toFixed(4)} | ${percent(mean(domains.map((d) => d.baseline.l1)), referenceMean)} | | |`,
  ];
  for (const name of names) {
    if (!domains.every((d) => d.selectors[name])) continue;
    const l1 = domains.map((d) => d.selectors[name].final.l1);
    const ratios = l1.map((value, i) => value / Math.max(referenceL1[i], 1e-12));
    const worst = ratios.indexOf(Math.max(...ratios));
    const worse = ratios.filter((r) => r > 1.05).length;
    lines.push(`| ${selectorDisplayName(name)} | ${mean(l1).toFixed(4)} | ${percent(mean(l1), referenceMean)} | \`${domains[worst].spec}\` (${ratios[worst].toFixed(2)}×) | ${worse} |`);
  }
  return lines.join('\n') + '\n';
}

function percent(value: number, reference: number): string {
  const change = (value / reference - 1) * 100;
  return `${change > 0 ? '+' : ''}${change.toFixed(1)} %`;
}
