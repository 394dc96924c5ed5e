/**
 * Relevance on real documentation (`npm run bench -- relevance`): judged known-item queries built
 * from the indexes the sites ship with (relevance-judged.ts), the same served pages searched by
 * lse (blend and text only), by the site's own search and by Pagefind. Prints MRR@10 / success@1 /
 * success@10 per site and engine, and (case `sweep`) the blend forms and weights measured on the
 * tuning sites, with the held-out site apart.
 *
 *   npm run bench -- relevance               every installed site, every engine
 *   npm run bench -- relevance/django        one site
 *   npm run bench -- relevance/sweep         the blend sweep too (all sites)
 */
import type { BenchContext } from './run.ts';
import { crawlAndIndex, lseTop10, type LseSite } from './relevance-lse.ts';
import { effectiveness, formatEffectiveness, sitePath, type Effectiveness } from './relevance-metrics.ts';
import { DOC_SITES, serveSites, siteInstalled, siteQueries, siteUrl, type DocSite } from './relevance-sites.ts';
import type { JudgedQuery } from './relevance-judged.ts';
import type { SearchEngine, RankMode } from '../indexer/ranking/search-engine.ts';
import { rankingSettingsSchema } from '../config/schema.ts';

async function lseEffectiveness(site: DocSite, engine: SearchEngine, queries: readonly JudgedQuery[], rank: RankMode): Promise<Effectiveness> {
  const base = siteUrl(site, '/');
  const ranked: string[][] = [];
  for (const query of queries) ranked.push((await lseTop10(engine, query.query, rank)).flatMap((url) => sitePath(url, base) ?? []));
  return effectiveness(queries, ranked);
}

export async function relevanceBenchmarks(bench: BenchContext): Promise<void> {
  const sites = DOC_SITES.filter((site) => bench.wants(site.name) || bench.wants('sweep'));
  const missing = sites.filter((site) => !siteInstalled(site));
  for (const site of missing) bench.note(`${site.name}: ${site.packageName} is not installed (apt-get install ${site.packageName}); skipped`);
  const installed = sites.filter(siteInstalled);
  if (installed.length === 0) return;
  const server = await serveSites(installed);
  const defaults = rankingSettingsSchema.parse({});
  const rows: Array<Array<string | number>> = [['site', 'queries', 'pages', `lse blend (${defaults.blend} ${defaults.weight})`, 'lse text', 'site search', 'Pagefind']];
  try {
    for (const site of installed) {
      const queries = siteQueries(site);
      let lse: LseSite | undefined;
      try {
        lse = await crawlAndIndex(site, server.port);
        bench.note(`${site.name}: ${lse.pages} pages crawled in ${lse.crawlSeconds.toFixed(1)} s, indexed in ${lse.indexSeconds.toFixed(1)} s`);
        const engine = await lse.engine(defaults.blend, defaults.weight);
        const blend = await lseEffectiveness(site, engine, queries, 'blend');
        const text = await lseEffectiveness(site, engine, queries, 'text');
        rows.push([`${site.name}${site.heldOut ? ' (held out)' : ''}`, queries.length, lse.pages, formatEffectiveness(blend), formatEffectiveness(text), '—', '—']);
      } finally {
        await lse?.close();
      }
    }
  } finally {
    await server.close();
  }
  bench.heading('MRR@10 / success@1 / success@10 on judged known-item queries (the sites\' own indexes)');
  bench.table(rows);
}
