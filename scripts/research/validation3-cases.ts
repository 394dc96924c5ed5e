// The 20 third-validation domains printed by scripts/research/validation3-domains.ts (rule and seed there), fixed before
// any method was run on them. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
export const VALIDATION3_CASES = [
  {
    set: 'validation3', g: 'notredame', nodes: false, site: false,
    domains: [
      'ball:257700:3', 'ball:225285:3', 'ball:177630:3', 'ball:228520:3', 'ball:1160:3', 'ball:215584:3', 'ball:246972:3',
      'ball:121432:3', 'ball:286296:3', 'ball:47246:3', 'ball:35158:3', 'ball:78327:3', 'ball:1216:3', 'ball:178050:3',
      'ball:69569:3', 'ball:256108:3', 'ball:270002:3', 'ball:251759:3', 'ball:244511:3', 'ball:252877:3',
    ],
  },
] as const;
