// The validation domains of research/docs/history.md ("The trajectory estimate"), chosen by a rule fixed after the trajectory
// estimate was frozen (commit 93d6044) and before any method was run on them; research/scripts/validation-cases.ts holds
// exactly the list this prints. Usage: node bin/run-ts.js research/scripts/validation-domains.ts
//
// The rule: notredame balls of radius 3 (`ball:ID:3`) around centres drawn uniformly (with replacement) from the
// graph's page ids with the project's PRNG (indexer/seeded-random.ts, seed 2027), keeping the first 10 whose ball has
// 500–5,000 pages and shares at most half of its pages with any of the 24 known domains (the 12 tuned ones of
// research/results/shared and the 12 held-out ones of research/results/heldout; on notredame these are balls) or with a validation ball
// chosen before it. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { KNOWN_CASES } from './known-domains.ts';

printDrawnBalls({ seed: 2027, count: 10, known: KNOWN_CASES.filter((c) => c.g === 'notredame').flatMap((c) => [...c.domains]) });
