// The validation domains of docs/estimation.md ("Selection for the inflow"), chosen by a rule fixed before any
// method was run on them (issue 6, second round; the same rule is written independently in the estimate-side branch).
// Usage: node bin/run-ts.js scripts/research/validation-domains.ts
//
// The rule: notredame balls of radius 3 (`ball:ID:3`) around centres drawn uniformly (with replacement) from the
// graph's page ids with the project's PRNG (indexer/seeded-random.ts, seed 2027), keeping the first 10 whose ball
//   - has between 500 and 5,000 pages, and
//   - shares at most half of its pages with any of the 24 known domains (the 12 tuned and 12 held-out domains of
//     docs/results and docs/results-heldout; on notredame: 4 tuned and 8 held-out balls) or with a validation ball
//     chosen before it.
// Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { loadWebGraph } from '../../indexer/graph-files.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';

const MIN = 500;
const MAX = 5000;
const BALLS = 10;
const SEED = 2027;
/** The notredame balls among the 24 known domains (the other 12 known domains are on other graphs). */
export const KNOWN_BALLS = [
  'ball:1:3',
  'ball:29911:3',
  'ball:133599:3',
  'ball:198404:3',
  'ball:176585:3',
  'ball:1479:3',
  'ball:255448:3',
  'ball:87663:3',
  'ball:313259:3',
  'ball:232421:3',
  'ball:88784:3',
  'ball:214329:3',
];

const web = loadWebGraph({ edges: '../shared/data/graphs/notredame.edges.tsv.gz' });
const taken: Set<number>[] = KNOWN_BALLS.map((s) => new Set(resolveDomain(s, web)));
const seen = new Set<string>(KNOWN_BALLS);
const random = seededRandom(SEED);
const kept: string[] = [];
for (let draw = 0; draw < 100000 && kept.length < BALLS; draw++) {
  const spec = `ball:${web.ids[Math.floor(random() * web.ids.length)]}:3`;
  if (seen.has(spec)) continue;
  seen.add(spec);
  const pages = resolveDomain(spec, web);
  if (pages.length < MIN || pages.length > MAX) continue;
  let worst = 0;
  for (const t of taken) worst = Math.max(worst, pages.reduce((c, p) => c + (t.has(p) ? 1 : 0), 0) / pages.length);
  if (worst * 2 > 1) {
    console.log(`# skipped ${spec} (${pages.length} pages, ${(worst * 100).toFixed(0)} % shared)`);
    continue;
  }
  taken.push(new Set(pages));
  kept.push(spec);
  console.log(`notredame\t${spec}\t${pages.length}\tlargest overlap ${(worst * 100).toFixed(1)} %`);
}
