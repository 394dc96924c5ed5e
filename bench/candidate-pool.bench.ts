/**
 * The candidate pool on a real documentation site (crawled and indexed as in `relevance`): for
 * its judged queries, the top 10 of the default search (the prior blend as a static rank, a pool
 * of 40 that grows to 500 when grouping or the language could change the page) against the
 * search before it (the best 500 by text, then blended) and against blending every match; how
 * many queries give the same top 10, how many grew their pool, and the time per query.
 *
 *   npm run bench -- candidate-pool              (the Django documentation; candidate-pool/sphinx …)
 */
import { loadavg } from 'node:os';
import type { BenchContext } from './run.ts';
import { crawlAndIndex } from './relevance-lse.ts';
import { DOC_SITES, serveSites, siteInstalled, siteQueries } from './relevance-sites.ts';
import { rankingSettingsSchema } from '../config/schema.ts';
import type { SearchEngine, SearchEngineOptions } from '../indexer/ranking/search-engine.ts';

export async function candidatePoolBenchmarks(bench: BenchContext): Promise<void> {
  // No site named: the Django documentation only (every site takes minutes to crawl and index).
  const named = DOC_SITES.filter((site) => bench.wants(site.name));
  const sites = (named.length < DOC_SITES.length ? named : DOC_SITES.filter((site) => site.name === 'django')).filter(siteInstalled);
  if (sites.length === 0) return bench.note('candidate-pool: the documentation is not installed; skipped');
  const server = await serveSites(sites);
  const { blend, weight } = rankingSettingsSchema.parse({});
  try {
    for (const site of sites) {
      const lse = await crawlAndIndex(site, server.port);
      try {
        const queries = siteQueries(site).map((judged) => judged.query);
        const configs: Array<[string, Partial<SearchEngineOptions>]> = [
          ['before: best 500 by text, then blended', { staticPrior: false }],
          ['blend over every match (pool 1,000)', { staticPrior: false, candidates: 1_000 }],
          ['static prior, pool 500', { candidates: 500 }],
          ['static prior, pool 40 growing to 500 (default)', {}],
        ];
        const tops: string[][] = [];
        const rows: Array<Array<string | number>> = [['search', 'ms/query (median of 3)', 'same top 10 as before', 'same as every match']];
        for (const [name, options] of configs) {
          const engine = lse.engine(blend, weight, options);
          const top = await topTens(engine, queries);
          const times: number[] = [];
          for (let run = 0; run < 3; run++) {
            const started = performance.now();
            await topTens(engine, queries);
            times.push((performance.now() - started) / queries.length);
          }
          tops.push(top);
          const same = (i: number) => top.filter((t, q) => t === tops[i][q]).length;
          rows.push([name, times.sort((a, b) => a - b)[1].toFixed(2), `${same(0)}/${queries.length}`, tops.length > 1 ? `${same(1)}/${queries.length}` : '–']);
        }
        bench.heading(`candidate-pool: ${site.name}, ${lse.pages} pages, ${queries.length} judged queries, ${blend} blend ${weight}`);
        bench.table(rows);
      } finally {
        await lse.close();
      }
    }
  } finally {
    await server.close();
  }
  bench.note(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

async function topTens(engine: SearchEngine, queries: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    try {
      const result = await engine.search({ q, page: 1, size: 10, rank: 'blend', explain: false });
      out.push(result.hits.map((hit) => `${hit.url} ${hit.score}`).join('\n') + `\n${result.total}`);
    } catch {
      out.push('refused');
    }
  }
  return out;
}
