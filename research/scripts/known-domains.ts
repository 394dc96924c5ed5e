// The 24 known shared-graph domains of research/docs/history.md: the 12 the checked estimate was tuned on (research/results/shared) and the
// 12 held-out ones (research/results/heldout, research/scripts/heldout-domains.ts). `site`: budget 2n / 50, else n / 25.
export const KNOWN_CASES = [
  { set: 'tuned', g: 'hollins', nodes: true, site: true, domains: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/docs', 'prefix:http://www1.hollins.edu/registrar'] },
  { set: 'tuned', g: 'california', nodes: true, site: true, domains: ['host:edu', 'host:gov', 'host:com'] },
  { set: 'tuned', g: 'polblogs', nodes: true, site: false, domains: ['label:liberal', 'label:conservative'] },
  { set: 'tuned', g: 'notredame', nodes: false, site: false, domains: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3'] },
  { set: 'heldout', g: 'hollins', nodes: true, site: true, domains: ['prefix:http://www1.hollins.edu/faculty', 'prefix:http://www1.hollins.edu/classes'] },
  { set: 'heldout', g: 'california', nodes: true, site: true, domains: ['host:net', 'host:org'] },
  {
    set: 'heldout', g: 'notredame', nodes: false, site: false,
    domains: ['ball:176585:3', 'ball:1479:3', 'ball:255448:3', 'ball:87663:3', 'ball:313259:3', 'ball:232421:3', 'ball:88784:3', 'ball:214329:3'],
  },
] as const;
