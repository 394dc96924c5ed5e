// The fifth validation set of research/docs/history.md ("The consensus trajectory estimate, and a fifth validation set"),
// chosen by a rule committed with the frozen candidates (SC-Select + consensus, RecipFlow + consensus) before any
// method was run on it; research/scripts/validation-cases.ts holds exactly the list this prints.
// Usage: node bin/run-ts.js research/scripts/validation5-domains.ts
//
// The rule: as the fourth set (research/scripts/validation4-domains.ts) with seed 2031 and 40 balls: notredame balls
// of radius 3 around centres drawn uniformly (with replacement) from the page ids with the project's PRNG, keeping the
// first 40 whose ball has 500–5,000 pages and shares at most half of its pages with any of the 84 known domains (12
// tuned, 12 held-out, 10 validation, 10 validation2, 20 validation3, 20 validation4) or with a validation5 ball chosen
// before it. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { ballsKnownBefore } from './validation-cases.ts';

printDrawnBalls({ seed: 2031, count: 40, known: ballsKnownBefore('validation5') });
