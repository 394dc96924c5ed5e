// The 10 validation domains printed by scripts/research/validation-domains.ts (rule and seed there), fixed before any
// method was run on them. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
export const VALIDATION_CASES = [
  {
    set: 'validation', g: 'notredame', nodes: false, site: false,
    domains: ['ball:224290:3', 'ball:198699:3', 'ball:62521:3', 'ball:231499:3', 'ball:200100:3', 'ball:259772:3', 'ball:253776:3', 'ball:265087:3', 'ball:160590:3', 'ball:84495:3'],
  },
] as const;
