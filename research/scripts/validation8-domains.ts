// The eighth validation set of research/docs/history.md ("How much of the no-harm half is tie order, and an eighth validation
// set"), chosen by a rule committed before any method was run on it. No new method was frozen for it: it tests `best`
// as frozen for validation7 (hedged adaptive + gated) again, by the labelled and the tie-order readings of that section.
// research/scripts/validation-cases.ts holds exactly the list this prints.
// Usage: node bin/run-ts.js research/scripts/validation8-domains.ts
//
// The rule: as the fifth set (research/scripts/validation5-domains.ts) with seed 2034 and 40 balls: notredame balls of
// radius 3 around centres drawn uniformly (with replacement) from the page ids with the project's PRNG, keeping the
// first 40 whose ball has 500–5,000 pages and shares at most half of its pages with any of the 204 known domains (12
// tuned, 12 held-out, 10 validation, 10 validation2, 20 validation3, 20 validation4, 40 validation5, 40 validation6,
// 40 validation7) or with a validation8 ball chosen before it. Budget as in the issue for topic-like domains: n extra
// pages in 25 iterations.
import { printDrawnBalls } from './draw-balls.ts';
import { ballsKnownBefore } from './validation-cases.ts';

printDrawnBalls({ seed: 2034, count: 40, known: ballsKnownBefore('validation8') });
