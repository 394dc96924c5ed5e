/**
 * The misses of lse on the relevance benchmark's judged queries (bench/relevance*.ts): every query
 * whose judged page is not first, with the judged pages, lse's top 3 and what the judged page and
 * the first hit hold of the query (a definition named exactly, a definition ending in it, a title
 * equal to it), grouped by cause, and the queries the blend ranks lower than text alone. Output goes to research/results/relevance-misses/ (not committed).
 *
 *   node bin/run-ts.js research/scripts/relevance-misses.ts [site ...]   (default: sphinx django)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rankingSettingsSchema } from '../../config/schema.ts';
import { crawlAndIndex, lseTop10 } from '../../bench/relevance-lse.ts';
import { sitePath } from '../../bench/relevance-metrics.ts';
import { DOC_SITES, serveSites, siteQueries, siteUrl } from '../../bench/relevance-sites.ts';
import type { TextDocument } from '../../indexer/text-index/document.ts';

interface PageFacts {
  title: string;
  definitions: string[];
}

/** What a page holds of a query: `exact` definition, `suffix` (a definition ending in `.query`), `title`. */
function holds(page: PageFacts | undefined, query: string): string[] {
  if (!page) return ['not indexed'];
  const q = query.toLowerCase();
  const names = page.definitions.map((name) => name.toLowerCase());
  const marks: string[] = [];
  if (names.includes(q)) marks.push('defines');
  else if (names.some((name) => /(\.|::|:|#)/.test(name) && [...name.split(/::|[.:#]/)].pop() === q.split(/::|[.:#]/).pop() && name.endsWith(q))) marks.push('defines-qualified');
  const title = page.title.toLowerCase().replace(/\s+[—–|-]\s+.*$/, '').trim();
  if (title === q) marks.push('title=');
  else if (title.includes(q)) marks.push('title~');
  return marks;
}

function cause(judged: string[], firstHolds: string[] | undefined, rank: number): string {
  const defines = judged.includes('defines') || judged.includes('title=');
  const firstDefines = firstHolds !== undefined && (firstHolds.includes('defines') || firstHolds.includes('title='));
  if (rank < 0) return defines ? 'not in top 10, judged page defines it' : 'not in top 10, judged page does not define it';
  if (defines && !firstDefines) return 'judged page defines it, first hit does not';
  if (defines && firstDefines) return 'both define it';
  if (!defines && firstDefines) return 'first hit defines it, judged page does not';
  return 'neither defines it (concept, partial name)';
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const sites = DOC_SITES.filter((site) => (names.length > 0 ? names.includes(site.name) : ['sphinx', 'django'].includes(site.name)));
  const out = join('research', 'results', 'relevance-misses');
  mkdirSync(out, { recursive: true });
  const server = await serveSites(sites);
  const defaults = rankingSettingsSchema.parse({});
  try {
    for (const site of sites) {
      const lse = await crawlAndIndex(site, server.port);
      try {
        const base = siteUrl(site, '/');
        const docs = await lse.index.documents([...lse.index.liveIds()]);
        const byPath = new Map<string, PageFacts>();
        for (const doc of docs.values()) {
          const path = sitePath(doc.url, base);
          if (path) byPath.set(path, facts(doc));
        }
        const engine = lse.engine(defaults.blend, defaults.weight);
        const groups = new Map<string, string[]>();
        const blendWorse: string[] = [];
        let reciprocal = 0;
        const queries = siteQueries(site);
        for (const query of queries) {
          const top = await lseTop10(engine, query.query, 'blend');
          const paths = top.map((urls) => urls.flatMap((url) => sitePath(url, base) ?? []));
          const rank = paths.findIndex((copies) => copies.some((path) => query.relevant.includes(path)));
          if (rank >= 0) reciprocal += 1 / (rank + 1);
          const textTop = await lseTop10(engine, query.query, 'text');
          const textRank = textTop.findIndex((urls) => urls.some((url) => query.relevant.includes(sitePath(url, base) ?? '')));
          if (textRank >= 0 && (rank < 0 || rank > textRank)) blendWorse.push(`${JSON.stringify(query.query)}  blend ${rank < 0 ? '>10' : rank + 1}, text ${textRank + 1}: blend first ${paths[0]?.[0]}, text first ${sitePath(textTop[0][0], base)}`);
          if (rank === 0) continue;
          const judgedHolds = [...new Set(query.relevant.flatMap((path) => holds(byPath.get(path), query.query)))];
          const firstHolds = paths[0] ? holds(byPath.get(paths[0][0]), query.query) : undefined;
          const lines = [`${JSON.stringify(query.query)}  rank ${rank < 0 ? '>10' : rank + 1}`, `  judged: ${query.relevant.join(', ')} [${judgedHolds.join(', ')}]`];
          paths.slice(0, 3).forEach((copies, i) => {
            const page = byPath.get(copies[0]);
            lines.push(`  ${i + 1}. ${copies[0]}  "${page?.title ?? '?'}" [${holds(page, query.query).join(', ')}]`);
          });
          const key = cause(judgedHolds, firstHolds, rank);
          let list = groups.get(key);
          if (!list) groups.set(key, (list = []));
          list.push(lines.join('\n'));
        }
        const report = [`${site.name}: ${queries.length} queries, MRR@10 ${(reciprocal / queries.length).toFixed(3)}, ${[...groups.values()].reduce((n, l) => n + l.length, 0)} not first`];
        for (const [key, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) report.push('', `## ${key}: ${list.length}`, '', ...list);
        report.push('', `## the blend ranks the judged page lower than text alone: ${blendWorse.length}`, '', ...blendWorse);
        writeFileSync(join(out, `${site.name}.txt`), report.join('\n') + '\n');
        console.log(report[0], [...groups].map(([key, list]) => `\n  ${key}: ${list.length}`).join(''), `\n  blend below text: ${blendWorse.length}`);
      } finally {
        await lse.close();
      }
    }
  } finally {
    await server.close();
  }
}

function facts(doc: TextDocument): PageFacts {
  return { title: doc.title, definitions: (doc.definitions ?? []).map((d) => d.name) };
}

await main();
