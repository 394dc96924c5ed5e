// The second validation set of docs/estimation.md ("RecipFlow with the trajectory estimate, and a second validation
// set"), chosen by a rule committed before any method was run on it; scripts/validation2-experiments.sh holds exactly
// the list this prints. Usage: node bin/run-ts.js scripts/research/validation2-domains.ts
//
// The rule: notredame balls of radius 3 (`ball:ID:3`) around centres drawn uniformly (with replacement) from the
// graph's page ids with the project's PRNG (indexer/seeded-random.ts, seed 2028), keeping the first 10 whose ball has
// 500–5,000 pages and shares at most half of its pages with any of the 34 known domains (the 12 tuned ones of
// docs/results, the 12 held-out ones of docs/results-heldout and the 10 validation balls of docs/results-validation;
// on notredame these are balls) or with a validation2 ball chosen before it. Budget as in the issue for topic-like
// domains: n extra pages in 25 iterations.
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { loadWebGraph } from '../../indexer/graph-files.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { KNOWN_CASES } from './known-domains.ts';
import { VALIDATION_CASES } from './validation-cases.ts';

const MIN = 500;
const MAX = 5000;
const COUNT = 10;
const SEED = 2028;
const web = loadWebGraph({ edges: '../shared/data/graphs/notredame.edges.tsv.gz' });
const known = [...KNOWN_CASES, ...VALIDATION_CASES].filter((c) => c.g === 'notredame').flatMap((c) => [...c.domains]);
const taken: Set<number>[] = known.map((s) => new Set(resolveDomain(s, web)));
const seen = new Set<string>(known);
const random = seededRandom(SEED);
const kept: { spec: string; pages: number; overlap: number }[] = [];
const skipped: string[] = [];
for (let draw = 0; draw < 100000 && kept.length < COUNT; draw++) {
  const spec = `ball:${web.ids[Math.floor(random() * web.ids.length)]}:3`;
  if (seen.has(spec)) continue;
  seen.add(spec);
  const pages = resolveDomain(spec, web);
  if (pages.length < MIN || pages.length > MAX) continue;
  const shared = taken.map((t) => pages.reduce((c, p) => c + (t.has(p) ? 1 : 0), 0));
  const most = Math.max(0, ...shared);
  if (most * 2 > pages.length) {
    skipped.push(`${spec} (${pages.length} pages, ${most} shared)`);
    continue;
  }
  taken.push(new Set(pages));
  kept.push({ spec, pages: pages.length, overlap: most / pages.length });
}
for (const k of kept) console.log(`notredame\t${k.spec}\t${k.pages}\tlargest share in an earlier domain ${(100 * k.overlap).toFixed(1)} %`);
for (const s of skipped) console.log(`# skipped ${s}`);
