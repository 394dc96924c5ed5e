/**
 * The tables of docs/estimation.md from experiment results: one row per domain, and each method against a
 * reference method over all domains.
 */
import type { ExperimentResult } from '../indexer/estimation/experiment.ts';
import { mean } from '../indexer/metrics.ts';
import { selectorDisplayName } from '../server/report/experiment-report.ts';

/**
 * One row per domain across several experiments: final L1 (and τ) of the local PageRank and of
 * each selector, the lowest L1 of the row in bold.
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
