// The second validation set of research/docs/history.md ("RecipFlow with the trajectory estimate, and a second validation
// set"), chosen by a rule committed before any method was run on it; research/scripts/validation-cases.ts holds exactly
// the list this prints. Usage: node bin/run-ts.js research/scripts/validation2-domains.ts
//
// The rule: notredame balls of radius 3 (`ball:ID:3`) around centres drawn uniformly (with replacement) from the
// graph's page ids with the project's PRNG (indexer/seeded-random.ts, seed 2028), keeping the first 10 whose ball has
// 500–5,000 pages and shares at most half of its pages with any of the 34 known domains (the 12 tuned ones of
// research/results/shared, the 12 held-out ones of research/results/heldout and the 10 validation balls of research/results/validation;
// on notredame these are balls) or with a validation2 ball chosen before it. Budget as in the issue for topic-like
// domains: n extra pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { ballsKnownBefore } from './validation-cases.ts';

printDrawnBalls({ seed: 2028, count: 10, known: ballsKnownBefore('validation2') });
