// Research (research/docs/history.md, "How much of the no-harm half is tie order"): SC-Select and `best` on the measured
// domains with the page ids shuffled by a seeded permutation. The graphs are the same up to labels, so only the order
// in which tied pages are taken changes; how far SC-Select's own final L1 moves shows how finely "more than 5 % worse
// than SC-Select on a domain" can be told apart on one tie order.
//
// Usage:
//   SET=validation7 SHARD=0 SHARDS=2 node bin/run-ts.js research/scripts/tie-order-noise.ts SEED OUT.jsonl
//     one row per domain: SC-Select's and best's final L1 with the ids permuted by SEED (0: as labelled);
//   node bin/run-ts.js research/scripts/tie-order-noise.ts --summary FILE…
//     per tie order and averaged over the orders: SC-Select against its labelled self, best against SC-Select.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { BEST_METHOD, estimateOverSupergraph } from '../../indexer/estimation/estimators.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import type { WebGraph } from '../../indexer/graph-files.ts';
import { crawlMeasured, measuredCases, SET_NAMES } from './measured-sets.ts';
import { permutation, relabelled } from './relabel.ts';
import { researchDomains } from './shared-domains.ts';

interface NoiseRow {
  seed: number;
  set: string;
  domain: string;
  sc: number;
  best: number;
}

async function measure(seed: number, out: string): Promise<void> {
  writeFileSync(out, '');
  // One relabelled copy per graph (the research domains share their graph's object).
  const copies = new WeakMap<WebGraph, { web: WebGraph; to: Int32Array }>();
  for (const domain of researchDomains(measuredCases())) {
    let shuffled = domain;
    if (seed !== 0) {
      let copy = copies.get(domain.web);
      if (!copy) {
        const to = permutation(domain.web.graph.nodeCount, seed);
        copy = { web: relabelled(domain.web, to), to };
        copies.set(domain.web, copy);
      }
      // Local pages keep their order, so the target (the truth restricted to them) is unchanged.
      const { to } = copy;
      shuffled = { ...domain, web: copy.web, pages: Int32Array.from(domain.pages, (p) => to[p]) };
    }
    const finalL1 = (rank: Float64Array) => l1Distance(restrictAndNormalise(rank, domain.localIndices), domain.target);
    const sc = await crawlMeasured(shuffled, createSelector('sc'));
    const best = await crawlMeasured(shuffled, createSelector(BEST_METHOD.selector));
    const row: NoiseRow = {
      seed,
      set: domain.graphCase.set,
      domain: `${domain.graphCase.g} ${domain.spec}`,
      sc: finalL1(sc.rank),
      best: finalL1(estimateOverSupergraph(BEST_METHOD.estimator, best.supergraph, best.rank)),
    };
    appendFileSync(out, `${JSON.stringify(row)}\n`);
    console.error(row.set, row.domain, `seed ${seed}`, (row.best / row.sc).toFixed(3));
  }
}

function summarise(files: readonly string[]): void {
  const rows = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as NoiseRow));
  const seeds = [...new Set(rows.map((r) => r.seed))].sort((a, b) => a - b);
  if (!seeds.includes(0)) throw new Error('the summary needs the labelled rows (SEED 0)');
  const byDomain = new Map<string, Map<number, NoiseRow>>();
  for (const r of rows) {
    if (!byDomain.has(r.domain)) byDomain.set(r.domain, new Map());
    byDomain.get(r.domain)!.set(r.seed, r);
  }
  const complete = [...byDomain.entries()].filter(([, m]) => seeds.every((s) => m.has(s)));
  const short = (domain: string) => domain.split(' ').pop()!;
  const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`;
  const ratios = (pairs: Array<[string, number, number]>) => {
    const worse = pairs.filter(([, a, b]) => a > 1.05 * b).map(([d, a, b]) => `${short(d)} ${(a / b).toFixed(3)}×`);
    const mean = pairs.reduce((s, [, a]) => s + a, 0) / pairs.reduce((s, [, , b]) => s + b, 0) - 1;
    const [largest] = pairs.map(([d, a, b]) => [d, a / b] as const).sort((x, y) => y[1] - x[1]);
    const most = largest ? `; largest ${largest[1].toFixed(3)}× (${short(largest[0])})` : '';
    return `${pct(mean)}, ${worse.length} more than 5 % worse${worse.length > 0 ? ` (${worse.join(', ')})` : ''}${most}`;
  };
  const sets = [...new Set(complete.map(([, m]) => m.get(0)!.set))].sort((a, b) => SET_NAMES.indexOf(a) - SET_NAMES.indexOf(b));
  for (const set of [...sets, 'all']) {
    const domains = complete.filter(([, m]) => set === 'all' || m.get(0)!.set === set);
    console.log(`\n${set} (${domains.length} domains; seed 0 is the labelled order)`);
    for (const seed of seeds) {
      const at = domains.map(([d, m]) => [d, m.get(seed)!, m.get(0)!] as const);
      if (seed !== 0) console.log(`  seed ${seed}: SC-Select against its labelled self ${ratios(at.map(([d, r, l]) => [d, r.sc, l.sc]))}`);
      console.log(`  seed ${seed}: best against SC-Select of the same order ${ratios(at.map(([d, r]) => [d, r.best, r.sc]))}`);
    }
    const total = (m: Map<number, NoiseRow>, key: 'sc' | 'best') => seeds.reduce((s, seed) => s + m.get(seed)![key], 0);
    console.log(`  summed over the ${seeds.length} orders: best against SC-Select ${ratios(domains.map(([d, m]) => [d, total(m, 'best'), total(m, 'sc')]))}`);
    const spread = domains.filter(([, m]) => Math.max(...seeds.map((s) => m.get(s)!.sc)) > 1.05 * Math.min(...seeds.map((s) => m.get(s)!.sc)));
    console.log(`  SC-Select's own final L1 varies by more than 5 % between orders on ${spread.length} of ${domains.length}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--summary') {
  summarise(args.slice(1));
} else if (args.length === 2 && Number.isInteger(Number(args[0])) && Number(args[0]) >= 0) {
  await measure(Number(args[0]), args[1]);
} else {
  console.error('usage: node bin/run-ts.js research/scripts/tie-order-noise.ts SEED OUT.jsonl | --summary FILE…');
  process.exit(2);
}
