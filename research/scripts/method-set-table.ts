// Mean final L1 against SC-Select (supergraph estimate) per method and domain set, and the domains more than 5 % worse
// than SC, from the committed result.json folders (research/docs/history.md, "Where things stand" and the validation sections). Usage: node bin/run-ts.js research/scripts/method-set-table.ts [--domains]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../../indexer/estimation/experiment.ts';
import { BEST_METHOD_NAME } from '../../server/report/experiment-report.ts';
import { defaultRunsDir, SET_NAMES } from './measured-sets.ts';

/** Per method, the folder of its result.json files in each set and its key in them. */
const METHODS: Array<{ name: string; key: string; dir: (set: string) => string }> = [
  { name: 'SC-Select', key: 'sc', dir: defaultRunsDir },
  // The default runs are redone whenever best changes, so their `best` is what BEST_METHOD names now.
  { name: `best (${BEST_METHOD_NAME})`, key: 'best', dir: defaultRunsDir },
  { name: 'Adaptive + gated', key: 'adaptive', dir: (set) => `research/results/adaptive-gated/${set}` },
  { name: 'RecipFlow + consensus', key: 'recipflow', dir: (set) => `research/results/recipflow-consensus/${set}` },
  { name: 'SC-Select + consensus', key: 'sc', dir: (set) => `research/results/sc-consensus/${set}` },
  { name: 'RecipFlow + checked', key: 'recipflow', dir: (set) => `${defaultRunsDir(set)}-recipflow` },
  { name: 'SC-Select + trajectory', key: 'sc', dir: (set) => `research/results/sc-trajectory/${set}` },
  { name: 'RecipFlow + trajectory', key: 'recipflow', dir: (set) => `research/results/recipflow-trajectory/${set}` },
  { name: 'OutlinkCount + checked', key: 'outlink', dir: (set) => `${defaultRunsDir(set)}-checked` },
  { name: 'OutlinkCount + trajectory', key: 'outlink', dir: (set) => `research/results/recipflow-trajectory/${set}` },
  { name: 'OutlinkCount (supergraph)', key: 'outlink', dir: defaultRunsDir },
];

type Row = { set: string; domain: string; l1: Record<string, number> };
const rows: Row[] = [];
for (const set of SET_NAMES) {
  for (const method of METHODS) {
    const dir = method.dir(set);
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
const groups: Array<[string, readonly string[]]> = [
  ['tuned 12', ['tuned']], ['held-out 12', ['heldout']], ['tuned + held-out 24', ['tuned', 'heldout']],
  ['validation 10', ['validation']], ['known 34', ['tuned', 'heldout', 'validation']], ['validation2 10', ['validation2']],
  ['all 44', ['tuned', 'heldout', 'validation', 'validation2']], ['validation3 20', ['validation3']],
  ['validation4 20', ['validation4']], ['all 84', SET_NAMES.slice(0, 6)], ['validation5 40', ['validation5']], ['all 124', SET_NAMES.slice(0, 7)],
  ['validation6 40', ['validation6']], ['all 164', SET_NAMES.slice(0, 8)], ['validation7 40', ['validation7']],
  ['all 204', SET_NAMES.slice(0, 9)], ['validation8 40', ['validation8']], ['all 244', SET_NAMES],
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
  const cell = (r: Row, name: string) => {
    const l1 = r.l1[name];
    return name === 'SC-Select' ? l1.toFixed(4) : `${l1.toFixed(4)} (${(l1 / r.l1['SC-Select']).toFixed(2)}×)`;
  };
  for (const r of rows) console.log(`| ${r.set} | ${r.domain} | ${METHODS.map((m) => cell(r, m.name)).join(' | ')} |`);
}
