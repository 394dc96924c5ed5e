// The third validation set of research/docs/history.md ("Hedged selection, and a third validation set"), chosen by a rule
// committed before any method was run on it; research/scripts/validation-cases.ts holds exactly the list this prints.
// Usage: node bin/run-ts.js research/scripts/validation3-domains.ts
//
// The rule: as the second set (research/scripts/validation2-domains.ts) with seed 2029 and 20 balls instead of 10:
// notredame balls of radius 3 around centres drawn uniformly (with replacement) from the page ids with the project's
// PRNG, keeping the first 20 whose ball has 500–5,000 pages and shares at most half of its pages with any of the 44
// known domains (12 tuned, 12 held-out, 10 validation, 10 validation2) or with a validation3 ball chosen before it.
// Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { ballsKnownBefore } from './validation-cases.ts';

printDrawnBalls({ seed: 2029, count: 20, known: ballsKnownBefore('validation3') });
