// The 20 fourth-validation domains printed by scripts/research/validation4-domains.ts (rule and seed there), fixed before
// any method was run on them. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
export const VALIDATION4_CASES = [
  {
    set: 'validation4', g: 'notredame', nodes: false, site: false,
    domains: [
      'ball:267849:3', 'ball:202275:3', 'ball:41612:3', 'ball:170897:3', 'ball:13290:3', 'ball:177303:3', 'ball:230377:3',
      'ball:63746:3', 'ball:251865:3', 'ball:65442:3', 'ball:825:3', 'ball:171497:3', 'ball:309857:3', 'ball:179272:3',
      'ball:252043:3', 'ball:37612:3', 'ball:244897:3', 'ball:256711:3', 'ball:34761:3', 'ball:189313:3',
    ],
  },
] as const;
