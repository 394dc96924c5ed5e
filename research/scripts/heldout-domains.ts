// The held-out domains of research/docs/history.md ("Held-out domains"), chosen by a rule fixed before any
// held-out result was looked at; research/studies/heldout.sh runs exactly the list this prints.
// Usage: node bin/run-ts.js research/scripts/heldout-domains.ts
//
// The rule, for every shared graph:
//   - size: a domain has between 500 and 5,000 pages (the 12 tuned domains have 732–3,720);
//   - not tuned on: not one of the 12 domains the constants were tuned on, and not sharing more than
//     half of its pages with one of them or with a held-out domain chosen before it;
//   - hollins: every host (`host:H` for each host H of the nodes file) and every top-level directory
//     (`prefix:http://H/SEG`, SEG the first path segment, compared case-insensitively as the spec is),
//     largest first;
//   - california: every host suffix of one or more labels (`host:S`: com, edu, ca.gov, berkeley.edu …), largest first;
//   - polblogs: only two labels, both tuned on — none;
//   - notredame: balls of radius 3 (`ball:ID:3`) around centres drawn uniformly (with replacement) from
//     the graph's page ids with the project's PRNG (indexer/seeded-random.ts, seed 6), keeping the
//     first 8 that pass the rules above.
// Budgets as in the issue: sites (hollins, california) 2n extra pages in 50 iterations, topic-like
// domains (balls) n in 25.
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { loadWebGraph, type WebGraph } from '../../indexer/graph-files.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';

const G = '../shared/data/graphs';
const MIN = 500;
const MAX = 5000;
const BALLS = 8;
const SEED = 6;
const TUNED: Record<string, string[]> = {
  hollins: ['host:www.hollins.edu', 'prefix:http://www1.hollins.edu/docs', 'prefix:http://www1.hollins.edu/registrar'],
  california: ['host:edu', 'host:gov', 'host:com'],
  polblogs: ['label:liberal', 'label:conservative'],
  notredame: ['ball:1:3', 'ball:29911:3', 'ball:133599:3', 'ball:198404:3'],
};

interface Chosen {
  kept: { spec: string; pages: number }[];
  skipped: string[];
  /** Candidates above the size limit, so that the report shows every domain of 500 pages or more. */
  over: string[];
}

/** Applies the size and overlap rules to candidates in order; returns the kept specs with their sizes. */
function choose(web: WebGraph, graph: string, candidates: Iterable<string>, limit = Infinity): Chosen {
  const taken: Set<number>[] = TUNED[graph].map((s) => new Set(resolveDomain(s, web)));
  const kept: { spec: string; pages: number }[] = [];
  const skipped: string[] = [];
  const over: string[] = [];
  const seen = new Set<string>(TUNED[graph]);
  for (const spec of candidates) {
    if (kept.length >= limit) break;
    if (seen.has(spec)) continue;
    seen.add(spec);
    let pages: Int32Array;
    try {
      pages = resolveDomain(spec, web);
    } catch {
      continue;
    }
    if (pages.length > MAX) over.push(`${spec} (${pages.length} pages)`);
    if (pages.length < MIN || pages.length > MAX) continue;
    const clash = taken.findIndex((t) => pages.reduce((c, p) => c + (t.has(p) ? 1 : 0), 0) * 2 > pages.length);
    if (clash >= 0) {
      skipped.push(`${spec} (${pages.length} pages, more than half shared)`);
      continue;
    }
    taken.push(new Set(pages));
    kept.push({ spec, pages: pages.length });
  }
  return { kept, skipped, over };
}

function byCount(values: Iterable<string>): string[] {
  const count = new Map<string, number>();
  for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
  return [...count.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([v]) => v);
}

function report(graph: string, { kept, skipped, over }: Chosen): void {
  for (const k of kept) console.log(`${graph}\t${k.spec}\t${k.pages}`);
  for (const s of skipped) console.log(`# ${graph} skipped ${s}`);
  for (const s of over) console.log(`# ${graph} over ${MAX} pages: ${s}`);
}

{
  const web = loadWebGraph({ edges: `${G}/hollins.edges.tsv.gz`, nodes: `${G}/hollins.nodes.tsv.gz` });
  const hosts = byCount(web.hosts!.map((h) => h.toLowerCase()));
  const dirs = byCount(
    web.urls!.flatMap((u) => {
      const m = /^http:\/\/([^/]+)\/([^/]+)\//i.exec(u);
      return m ? [`prefix:http://${m[1].toLowerCase()}/${m[2].toLowerCase()}`] : [];
    }),
  );
  report('hollins', choose(web, 'hollins', [...hosts.map((h) => `host:${h}`), ...dirs]));
}
{
  const web = loadWebGraph({ edges: `${G}/california.edges.tsv.gz`, nodes: `${G}/california.nodes.tsv.gz` });
  const suffixes = byCount(
    web.hosts!.flatMap((h) => {
      const labels = h.toLowerCase().split('.');
      return labels.map((_, i) => labels.slice(i).join('.'));
    }),
  );
  report('california', choose(web, 'california', suffixes.map((s) => `host:${s}`)));
}
{
  const web = loadWebGraph({ edges: `${G}/notredame.edges.tsv.gz` });
  const random = seededRandom(SEED);
  function* centres(): Generator<string> {
    for (let draw = 0; draw < 100000; draw++) yield `ball:${web.ids[Math.floor(random() * web.ids.length)]}:3`;
  }
  report('notredame', choose(web, 'notredame', centres(), BALLS));
}
