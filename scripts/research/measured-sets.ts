/**
 * The measured domain sets of docs/estimation.md for the research scripts that run a method on all of them:
 * the 44 known domains (tuned, held-out, validation, validation2) or, with SET=validation3 / validation4, the third /
 * fourth validation set;
 * split over processes by SHARD=i of SHARDS=n; and SC-Select's final L1 per domain from the committed results.
 */
import { readFileSync } from 'node:fs';
import { KNOWN_CASES } from './known-domains.ts';
import { VALIDATION_CASES, VALIDATION2_CASES, VALIDATION3_CASES, VALIDATION4_CASES } from './validation-cases.ts';

const RESULT_DIRS = ['docs/results', 'docs/results-heldout', 'docs/results-validation', 'docs/results-validation2', 'docs/results-validation3', 'docs/results-validation4'];

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

/** The 44 known domains, or the 20 of validation3 / validation4 with SET=validation3 / validation4; this process's shard. */
export function measuredCases() {
  const shard = Number(process.env.SHARD ?? 0);
  const shards = Number(process.env.SHARDS ?? 1);
  const set = process.env.SET;
  const cases = set === 'validation3' ? [...VALIDATION3_CASES] : set === 'validation4' ? [...VALIDATION4_CASES] : [...KNOWN_CASES, ...VALIDATION_CASES, ...VALIDATION2_CASES];
  let index = 0;
  return cases.map((c) => ({ ...c, domains: c.domains.filter(() => index++ % shards === shard) }));
}
