/**
 * The measured domain sets of research/docs/history.md for the research scripts that run a method on all of them:
 * the 44 known domains (tuned, held-out, validation, validation2) or, with SET=NAME, the balls of one validation
 * set; split over processes by SHARD=i of SHARDS=n; SC-Select's final L1 per domain from the committed results; and the rows those scripts print, with the summary the docs quote (mean final L1 against
 * SC-Select per set and over all, and the domains more than 5 % worse).
 * `node bin/run-ts.js research/scripts/measured-sets.ts FILE…` prints that summary for saved rows (e.g. one file per
 * shard).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findGlobalPageRank, type IterationState } from '../../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import type { PageSelector } from '../../indexer/estimation/selection.ts';
import type { ResearchDomain } from './shared-domains.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { isValidationSet, VALIDATION_CASES, VALIDATION2_CASES, VALIDATION_SETS } from './validation-cases.ts';

/** Every measured set, in the order the docs list them: the tuned and held-out domains, then the validation sets. */
export const SET_NAMES: readonly string[] = ['tuned', 'heldout', ...Object.keys(VALIDATION_SETS)];

/** The folder of a set's default runs (SC-Select, the other selectors and best). */
export const defaultRunsDir = (set: string) => (set === 'tuned' ? 'research/results/shared' : `research/results/${set}`);

const RESULT_DIRS = SET_NAMES.map(defaultRunsDir);

/** SC-Select's final L1 (supergraph estimate, default runs) by `graph spec`. */
export function committedScL1(): Map<string, number> {
  const sc = new Map<string, number>();
  for (const dir of RESULT_DIRS) {
    for (const g of ['hollins', 'california', 'polblogs', 'notredame']) {
      let r: { domains: { spec: string; selectors: Record<string, { final: { l1: number } }> }[] };
      try {
        r = JSON.parse(readFileSync(`${dir}/${g}/result.json`, 'utf8'));
      } catch {
        continue;
      }
      for (const d of r.domains) sc.set(`${g} ${d.spec}`, d.selectors.sc.final.l1);
    }
  }
  return sc;
}

/** The 44 known domains (tuned, held-out, validation, validation2), or with SET=NAME the balls of one validation set; this process's shard. */
export function measuredCases() {
  const shard = Number(process.env.SHARD ?? 0);
  const shards = Number(process.env.SHARDS ?? 1);
  const set = process.env.SET;
  const cases = isValidationSet(set) ? [...VALIDATION_SETS[set]] : [...KNOWN_CASES, ...VALIDATION_CASES, ...VALIDATION2_CASES];
  let index = 0;
  return cases.map((c) => ({ ...c, domains: c.domains.filter(() => index++ % shards === shard) }));
}

type MeasuredCase = ReturnType<typeof measuredCases>[number];

/** FindGlobalPR on a measured domain at the issue's budget: sites 2n extra pages in 50 iterations, the rest n in 25. */
export function crawlMeasured(domain: ResearchDomain<MeasuredCase>, selector: PageSelector, onIteration?: (state: IterationState<number>) => void) {
  const { graphCase: c, web, pages } = domain;
  return findGlobalPageRank({
    localPages: Array.from(pages, (p) => pageOfGraph(web.graph, p)),
    source: knownGraphSource(web.graph),
    selector,
    iterations: c.site ? 50 : 25,
    extraPages: (c.site ? 2 : 1) * pages.length,
    pageRank: { alpha: 0.85, tolerance: 1e-6 },
    onIteration,
  });
}

/** SC-Select's committed final L1 on a measured domain. */
export function scOf(sc: Map<string, number>, domain: ResearchDomain<MeasuredCase>): number {
  return sc.get(`${domain.graphCase.g} ${domain.spec}`)!;
}

/** An empty row for a measured domain: its set, `graph spec` and SC-Select's committed final L1. */
export function measuredRow(domain: ResearchDomain<MeasuredCase>, sc: Map<string, number>): MeasuredRow {
  return { set: domain.graphCase.set, domain: `${domain.graphCase.g} ${domain.spec}`, sc: scOf(sc, domain), values: {}, notes: {} };
}

/** One domain's row: each method's final L1 (`values`), and diagnostics that are not L1 values (`notes`). */
export interface MeasuredRow {
  set: string;
  domain: string;
  sc: number;
  values: Record<string, number>;
  notes?: Record<string, string>;
}

/** Prints a row as `set  domain  SC  name=L1 …  # note=… …` (what {@link parseRow} reads back). */
export function printRow(row: MeasuredRow): void {
  const cells = [row.set, row.domain, row.sc.toFixed(6), ...Object.entries(row.values).map(([name, l1]) => `${name}=${l1.toFixed(6)}`)];
  const notes = Object.entries(row.notes ?? {}).map(([name, note]) => `${name}=${note}`);
  console.log([...cells, ...(notes.length > 0 ? ['#', ...notes] : [])].join('\t'));
}

export function parseRow(line: string): MeasuredRow {
  const [set, domain, sc, ...rest] = line.split('\t');
  const end = rest.indexOf('#');
  const values = Object.fromEntries((end < 0 ? rest : rest.slice(0, end)).map((cell) => cell.split('=')).map(([name, l1]) => [name, Number(l1)]));
  return { set, domain, sc: Number(sc), values };
}

/** Per set and over all rows: each method's mean final L1 against SC-Select's, and its domains more than 5 % worse. */
export function printSummary(rows: readonly MeasuredRow[]): void {
  const pct = (x: number, base: number) => `${x >= base ? '+' : '−'}${Math.abs(100 * (x / base - 1)).toFixed(1)} %`;
  const groups = [...new Set(rows.map((r) => r.set)), 'all'];
  const methods = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  console.log(`\n| method | ${groups.map((g) => `${g} ${g === 'all' ? rows.length : rows.filter((r) => r.set === g).length}`).join(' | ')} | > 5 % worse |`);
  console.log(`| --- | ${groups.map(() => '---').join(' | ')} | --- |`);
  for (const method of methods) {
    const cells = groups.map((g) => {
      const rs = rows.filter((r) => g === 'all' || r.set === g);
      return pct(rs.reduce((s, r) => s + r.values[method], 0), rs.reduce((s, r) => s + r.sc, 0));
    });
    const worse = rows.filter((r) => r.values[method] > 1.05 * r.sc).map((r) => `${r.domain.split(' ').pop()} ${(r.values[method] / r.sc).toFixed(2)}×`);
    console.log(`| ${method} | ${cells.join(' | ')} | ${worse.length}${worse.length > 0 ? ` (${worse.join(', ')})` : ''} |`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: node bin/run-ts.js research/scripts/measured-sets.ts FILE…   (rows printed by the research scripts)');
    process.exit(2);
  }
  printSummary(files.flatMap((f) => readFileSync(f, 'utf8').split('\n')).filter((line) => /^\S+\t/.test(line)).map(parseRow));
}
