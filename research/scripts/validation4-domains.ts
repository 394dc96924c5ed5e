// The fourth validation set of research/docs/history.md ("A convex trajectory weight on SC-Select's crawl, and a fourth
// validation set"), chosen by a rule committed before any method was run on it; research/scripts/validation-cases.ts
// holds exactly the list this prints. Usage: node bin/run-ts.js research/scripts/validation4-domains.ts
//
// The rule: as the third set (research/scripts/validation3-domains.ts) with seed 2030: notredame balls of radius 3
// around centres drawn uniformly (with replacement) from the page ids with the project's PRNG, keeping the first 20
// whose ball has 500–5,000 pages and shares at most half of its pages with any of the 64 known domains (12 tuned, 12
// held-out, 10 validation, 10 validation2, 20 validation3) or with a validation4 ball chosen before it.
// Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { ballsKnownBefore } from './validation-cases.ts';

printDrawnBalls({ seed: 2030, count: 20, known: ballsKnownBefore('validation4') });
