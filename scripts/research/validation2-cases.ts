// The 10 second-validation domains printed by scripts/research/validation2-domains.ts (rule and seed there), fixed before
// any method was run on them. Budget as in the issue for topic-like domains: n extra pages in 25 iterations.
export const VALIDATION2_CASES = [
  {
    set: 'validation2', g: 'notredame', nodes: false, site: false,
    domains: ['ball:292971:3', 'ball:143184:3', 'ball:235297:3', 'ball:259462:3', 'ball:207943:3', 'ball:182989:3', 'ball:22941:3', 'ball:155127:3', 'ball:27470:3', 'ball:94927:3'],
  },
] as const;
