// Mean final L1 against SC-Select (supergraph estimate) per method and domain set, and the domains more than 5 % worse
// than SC, from the committed result.json folders (docs/estimation.md, "RecipFlow with the trajectory estimate, and a
// second validation set", and "Hedged selection, a survey sample for W, and a third validation set"). Usage: node bin/run-ts.js scripts/research/method-set-table.ts [--domains]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../../indexer/estimation/experiment.ts';

// Per set: the folder of SC-Select (default estimate), OutlinkCount + checked (best until the second validation set),
// RecipFlow + checked (best since), the trajectory runs, and SC-Select + trajectory.
const SETS = {
  tuned: { base: 'docs/results', outlinkChecked: 'docs/results-checked', checked: 'docs/results-recipflow', trajectory: 'docs/results-recipflow-trajectory/tuned', scTrajectory: 'docs/results-sc-trajectory/tuned' },
  heldout: { base: 'docs/results-heldout', outlinkChecked: 'docs/results-heldout-checked', checked: 'docs/results-heldout-recipflow', trajectory: 'docs/results-recipflow-trajectory/heldout', scTrajectory: 'docs/results-sc-trajectory/heldout' },
  validation: { base: 'docs/results-validation', outlinkChecked: 'docs/results-validation-checked', checked: 'docs/results-validation-recipflow', trajectory: 'docs/results-recipflow-trajectory/validation', scTrajectory: 'docs/results-sc-trajectory/validation' },
  validation2: { base: 'docs/results-validation2', outlinkChecked: 'docs/results-validation2-checked', checked: 'docs/results-validation2-recipflow', trajectory: 'docs/results-recipflow-trajectory/validation2', scTrajectory: 'docs/results-sc-trajectory/validation2' },
  validation3: { base: 'docs/results-validation3', outlinkChecked: 'docs/results-validation3-checked', checked: 'docs/results-validation3-recipflow', trajectory: 'docs/results-recipflow-trajectory/validation3', scTrajectory: 'docs/results-sc-trajectory/validation3' },
  validation4: { base: 'docs/results-validation4', outlinkChecked: 'docs/results-validation4-checked', checked: 'docs/results-validation4-recipflow', trajectory: 'docs/results-recipflow-trajectory/validation4', scTrajectory: 'docs/results-sc-trajectory/validation4' },
} as const;
const METHODS = [
  { name: 'SC-Select', folder: 'base', key: 'sc' },
  { name: 'SC-Select + trajectory', folder: 'scTrajectory', key: 'sc' },
  { name: 'OutlinkCount + checked', folder: 'outlinkChecked', key: 'outlink' },
  { name: 'OutlinkCount + trajectory', folder: 'trajectory', key: 'outlink' },
  { name: 'RecipFlow + checked (best)', folder: 'checked', key: 'recipflow' },
  { name: 'RecipFlow + trajectory', folder: 'trajectory', key: 'recipflow' },
] as const;

type Row = { set: string; domain: string; l1: Record<string, number> };
const rows: Row[] = [];
for (const [set, folders] of Object.entries(SETS)) {
  for (const method of METHODS) {
    const dir = folders[method.folder];
    for (const graph of readdirSync(dir).sort()) {
      const file = join(dir, graph, 'result.json');
      if (!existsSync(file)) continue;
      const result = JSON.parse(readFileSync(file, 'utf8')) as ExperimentResult;
      for (const d of result.domains) {
        const outcome = d.selectors[method.key];
        if (!outcome) continue;
        const domain = `${graph} ${d.spec}`;
        let row = rows.find((r) => r.set === set && r.domain === domain);
        if (!row) rows.push((row = { set, domain, l1: {} }));
        row.l1[method.name] = outcome.final.l1;
      }
    }
  }
}
const groups: Array<[string, string[]]> = [
  ['tuned 12', ['tuned']], ['held-out 12', ['heldout']], ['tuned + held-out 24', ['tuned', 'heldout']],
  ['validation 10', ['validation']], ['known 34', ['tuned', 'heldout', 'validation']], ['validation2 10', ['validation2']],
  ['all 44', ['tuned', 'heldout', 'validation', 'validation2']], ['validation3 20', ['validation3']],
  ['validation4 20', ['validation4']], ['all 84', Object.keys(SETS)],
];
const pct = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(100 * x).toFixed(1)} %`;
console.log(`| method | ${groups.map(([g]) => g).join(' | ')} |`);
console.log(`| --- | ${groups.map(() => '---').join(' | ')} |`);
for (const method of METHODS) {
  const cells = groups.map(([, sets]) => {
    const rs = rows.filter((r) => sets.includes(r.set));
    if (rs.some((r) => r.l1[method.name] === undefined || r.l1['SC-Select'] === undefined)) throw new Error(`missing ${method.name} in ${sets}`);
    const mean = (k: string) => rs.reduce((s, r) => s + r.l1[k], 0) / rs.length;
    const worse = rs.filter((r) => r.l1[method.name] > 1.05 * r.l1['SC-Select']);
    return method.name === 'SC-Select' ? `${mean(method.name).toFixed(4)} (n = ${rs.length})` : `${pct(mean(method.name) / mean('SC-Select') - 1)}, ${worse.length}`;
  });
  console.log(`| ${method.name} | ${cells.join(' | ')} |`);
}
console.log('\nDomains more than 5 % worse than SC-Select (final L1, ratio):');
for (const method of METHODS.slice(1)) {
  const worse = rows.filter((r) => r.l1[method.name] > 1.05 * r.l1['SC-Select']);
  console.log(`- ${method.name}: ${worse.map((r) => `${r.set} ${r.domain} ${r.l1[method.name].toFixed(4)} vs ${r.l1['SC-Select'].toFixed(4)} (${(r.l1[method.name] / r.l1['SC-Select']).toFixed(2)}×)`).join('; ') || 'none'}`);
}
if (process.argv.includes('--domains')) {
  console.log(`\n| set | domain | ${METHODS.map((m) => m.name).join(' | ')} |`);
  console.log(`| --- | --- | ${METHODS.map(() => '---').join(' | ')} |`);
  for (const r of rows) console.log(`| ${r.set} | ${r.domain} | ${METHODS.map((m) => (m.name === 'SC-Select' ? r.l1[m.name].toFixed(4) : `${r.l1[m.name].toFixed(4)} (${(r.l1[m.name] / r.l1['SC-Select']).toFixed(2)}×)`)).join(' | ')} |`);
}
