// Research (research/docs/history.md, "The consensus trajectory estimate, and a fifth validation set"): weight rules for the
// trajectory estimate evaluated offline on the rows window-dump.ts wrote (the crawl's final supergraph estimate on L,
// the world estimate with W worth 2 frontiers, the truth, and the windows at six prefixes). For each rule: mean final
// L1 against SC-Select's per set and over all, and the domains more than 5 % worse (measured-sets.ts's summary).
// Usage: node bin/run-ts.js research/scripts/window-rules.ts FILE.jsonl…
import { readFileSync } from 'node:fs';
import { l1Distance, median } from '../../indexer/metrics.ts';
import { printSummary, type MeasuredRow } from './measured-sets.ts';
import { CONSENSUS_TRAJECTORY, moveTowardsWorld, TRAJECTORY_MAX_WEIGHT } from '../../indexer/estimation/frontier-world.ts';
import { looksOpen, OPENNESS, worldCorrectionApplies } from '../../indexer/estimation/openness.ts';

interface DumpRow {
  set: string;
  domain: string;
  sc: number;
  now: number[];
  world: number[];
  target: number[];
  windows: { weight: number; cosine: number; realised: number; crawledShare: number }[];
  /** How open the domain looks at the end (openness.ts); absent in dumps written before it. */
  far?: number;
  back?: number;
}

const SHARES = process.argv.includes('--shares');
const rows: DumpRow[] = process.argv.slice(2).filter((a) => a !== '--shares').flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as DumpRow));
if (rows.length === 0) {
  console.error('usage: node bin/run-ts.js research/scripts/window-rules.ts [--shares] FILE.jsonl…   (rows written by window-dump.ts)');
  process.exit(2);
}

/** L1 of the supergraph estimate moved a share λ of the way to the world estimate (frontier-world.ts). */
const blendL1 = (r: DumpRow, lambda: number) => l1Distance(moveTowardsWorld(r.now, r.world, lambda), r.target);

const weights = (r: DumpRow) => r.windows.map((w) => w.weight);
/** The windows at 3/4 and 7/8 (the last two of window-dump.ts's six) are the trajectory estimate's own. */
const lastTwo = (r: DumpRow) => (r.windows.length === 0 ? 0 : (weights(r)[4] + weights(r)[5]) / 2);
const sixWindows = rows.every((r) => r.windows.length === 0 || r.windows.length === 6);
const rules: Record<string, (r: DumpRow) => number> = {};
if (sixWindows) {
  rules['trajectory (mean of 3/4, 7/8)'] = (r) => Math.min(TRAJECTORY_MAX_WEIGHT, lastTwo(r));
  rules['min(1, 2 · mean of 3/4, 7/8)'] = (r) => Math.min(1, 2 * lastTwo(r));
}
for (const k of [1, 2, 2.5, 3, 3.5, 4]) rules[`min(1, ${k} · median)`] = (r) => (r.windows.length === 0 ? 0 : Math.min(1, k * median(weights(r))));
for (const k of [3]) rules[`min(1.5, ${k} · median)`] = (r) => (r.windows.length === 0 ? 0 : Math.min(1.5, k * median(weights(r))));
/**
 * A least-squares weight: the windows' realised share (times the cosine) fitted as λ · the share of the frontier
 * fetched since, through the origin, so windows that fetched more count more (a crawl that stopped moving early
 * reads as little confirmation instead of a growing ratio).
 */
const leastSquares = (r: DumpRow) => {
  let xy = 0;
  let xx = 0;
  for (const w of r.windows) {
    if (!(w.crawledShare > 0)) continue;
    const y = w.cosine > 0 && w.realised > 0 ? w.cosine * w.realised : 0;
    xy += y * w.crawledShare;
    xx += w.crawledShare * w.crawledShare;
  }
  return xx > 0 ? xy / xx : 0;
};
for (const k of [1, 2, 3]) rules[`min(1, ${k} · least squares)`] = (r) => Math.min(1, k * leastSquares(r));
/**
 * The gated estimate: the consensus weight (gain, cap) where the crawl shows the domain open (openness.ts), else 0;
 * also with another upper share or gain, to show how much the chosen ones matter.
 */
if (rows.every((r) => r.far !== undefined && r.back !== undefined)) {
  const { gain, maxWeight } = CONSENSUS_TRAJECTORY;
  /** λ where `applies`, at least `floor` there; 0 elsewhere. */
  const gated = (applies: (links: { far: number; back: number }) => boolean, k: number, floor = 0) => (r: DumpRow) =>
    r.windows.length === 0 || !applies({ far: r.far!, back: r.back! }) ? 0 : Math.max(floor, Math.min(maxWeight, k * median(weights(r))));
  rules[`gated: min(${maxWeight}, ${gain} · median) if open`] = gated(worldCorrectionApplies, gain);
  for (const maxShare of [0.45, 0.6]) {
    if (maxShare !== OPENNESS.maxShare) rules[`gated, upper share ${maxShare}`] = gated((l) => looksOpen(l) && l.back <= maxShare * l.far, gain);
  }
  rules[`gated, gain ${gain + 1}`] = gated(worldCorrectionApplies, gain + 1);
  // A floor on λ for open domains ("Closing the study"): the open balls whose windows all read 0 disagree on the right λ.
  for (const floor of [0.05, 0.1, 0.25]) rules[`gated, floor ${floor} if open`] = gated(worldCorrectionApplies, gain, floor);
}
/** The ceiling of the family: the best λ in [0, 1] (steps of 0.05) per domain, read off the truth. */
const oracle = (r: DumpRow) => Array.from({ length: 21 }, (_, i) => i / 20).reduce((best, l) => (blendL1(r, l) < blendL1(r, best) ? l : best), 0);
rules['oracle λ in [0, 1]'] = oracle;

printSummary(rows.map((r): MeasuredRow => ({ set: r.set, domain: r.domain, sc: r.sc, values: Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, blendL1(r, rule(r))])) })));

/**
 * --shares: per domain, by the share of far pages linking back, the final L1 against SC-Select at λ = 0 and 1, the
 * oracle λ, and each window's weight and cosine (how the crawl moved the estimate against the correction).
 */
if (SHARES) {
  console.log('\n| domain | back / far | share | λ = 0 | λ = 1 | oracle λ | window weights | window cosines |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
  const share = (r: DumpRow) => (r.far! > 0 ? r.back! / r.far! : 0);
  for (const r of [...rows].filter((r) => r.far !== undefined && r.windows.length > 0).sort((a, b) => share(a) - share(b))) {
    const ratio = (l: number) => `${(blendL1(r, l) / r.sc).toFixed(2)}×`;
    const list = (key: 'weight' | 'cosine', digits: number) => r.windows.map((w) => w[key].toFixed(digits)).join(', ');
    console.log(`| ${r.domain} | ${r.back} / ${r.far} | ${(100 * share(r)).toFixed(2)} % | ${ratio(0)} | ${ratio(1)} | ${oracle(r).toFixed(2)} | ${list('weight', 2)} | ${list('cosine', 4)} |`);
  }
}

