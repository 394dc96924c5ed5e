/**
 * The rule both validation sets were drawn by (research/docs/history.md): notredame balls of radius 3
 * around centres drawn uniformly (with replacement) from the page ids with the project's PRNG,
 * keeping the first `count` whose ball has 500–5,000 pages and shares at most half of its pages
 * with any known domain or with a ball kept before it. Prints the kept balls and the skipped ones.
 */
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { loadWebGraph } from '../../indexer/graph-files.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';

const MIN = 500;
const MAX = 5000;

export function printDrawnBalls(options: { seed: number; count: number; known: readonly string[] }): void {
  const web = loadWebGraph({ edges: '../shared/data/graphs/notredame.edges.tsv.gz' });
  const taken: Set<number>[] = options.known.map((s) => new Set(resolveDomain(s, web)));
  const seen = new Set<string>(options.known);
  const random = seededRandom(options.seed);
  const kept: { spec: string; pages: number; overlap: number }[] = [];
  const skipped: string[] = [];
  for (let draw = 0; draw < 100000 && kept.length < options.count; draw++) {
    const spec = `ball:${web.ids[Math.floor(random() * web.ids.length)]}:3`;
    if (seen.has(spec)) continue;
    seen.add(spec);
    const pages = resolveDomain(spec, web);
    if (pages.length < MIN || pages.length > MAX) continue;
    const shared = taken.map((t) => pages.reduce((c, p) => c + (t.has(p) ? 1 : 0), 0));
    const most = Math.max(0, ...shared);
    if (most * 2 > pages.length) {
      skipped.push(`${spec} (${pages.length} pages, ${most} shared)`);
      continue;
    }
    taken.push(new Set(pages));
    kept.push({ spec, pages: pages.length, overlap: most / pages.length });
  }
  for (const k of kept) console.log(`notredame\t${k.spec}\t${k.pages}\tlargest share in an earlier domain ${(100 * k.overlap).toFixed(1)} %`);
  for (const s of skipped) console.log(`# skipped ${s}`);
}
