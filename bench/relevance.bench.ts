/**
 * Relevance on real documentation (`npm run bench -- relevance`): judged known-item queries built
 * from the indexes the sites ship with (relevance-judged.ts), the same served pages searched by
 * lse (blend and text only), by the site's own search and by Pagefind. Prints MRR@10 / success@1 /
 * success@10 per site and engine, and (case `sweep`) the blend forms and weights measured on the
 * tuning sites, with the held-out site apart.
 *
 *   npm run bench -- relevance               every installed site, every engine
 *   npm run bench -- relevance/django        one site
 *   npm run bench -- relevance/sweep         the blend sweep (all sites, lse only)
 */
import { loadavg } from 'node:os';
import type { BenchContext } from './run.ts';
import { crawlAndIndex, lseTop10, type LseSite } from './relevance-lse.ts';
import { effectiveness, formatEffectiveness, sitePath, type Effectiveness } from './relevance-metrics.ts';
import { DOC_SITES, serveSites, siteInstalled, siteQueries, siteUrl, type DocSite, type SiteServer } from './relevance-sites.ts';
import type { JudgedQuery } from './relevance-judged.ts';
import type { BlendMode } from '../indexer/ranking/blend.ts';
import type { SearchEngine, RankMode } from '../indexer/ranking/search-engine.ts';
import { rankingSettingsSchema } from '../config/schema.ts';
import { buildPagefind, pagefindAvailable, pagefindTop10, sphinxSearchTop10, startPeers, type Peers } from './relevance-peers.ts';

function effectivenessOfUrls(site: DocSite, queries: readonly JudgedQuery[], ranked: ReadonlyArray<readonly string[]>): Effectiveness {
  const base = siteUrl(site, '/');
  return effectiveness(queries, ranked.map((urls) => urls.flatMap((url) => sitePath(url, base) ?? [])));
}

/** The peers' figures on a site (undefined where a peer does not apply or cannot run, with a note). */
async function peerEffectiveness(bench: BenchContext, site: DocSite, lse: LseSite, queries: readonly JudgedQuery[], peers: Peers, server: SiteServer) {
  const texts = queries.map((query) => query.query);
  let own: Effectiveness | undefined;
  let pagefind: Effectiveness | undefined;
  if (!peers.browser) {
    bench.note(`${site.name}: site search and Pagefind skipped: ${peers.browserMissing}`);
    return { own, pagefind };
  }
  if (site.sphinxSearch) own = effectivenessOfUrls(site, queries, await sphinxSearchTop10(peers.browser, site, texts));
  const missing = await pagefindAvailable();
  if (missing) bench.note(`${site.name}: Pagefind skipped: ${missing}`);
  else {
    const base = siteUrl(site, '/');
    const paths = lse.indexedUrls().flatMap((url) => sitePath(url, base) ?? []);
    const built = await buildPagefind(site, paths, server);
    try {
      bench.note(`${site.name}: Pagefind indexed ${built.pages} of the same pages in ${built.seconds.toFixed(1)} s`);
      pagefind = effectivenessOfUrls(site, queries, await pagefindTop10(peers.browser, site, texts));
    } finally {
      built.remove();
    }
  }
  return { own, pagefind };
}

async function lseEffectiveness(site: DocSite, engine: SearchEngine, queries: readonly JudgedQuery[], rank: RankMode): Promise<Effectiveness> {
  const base = siteUrl(site, '/');
  const ranked: string[][][] = [];
  for (const query of queries) ranked.push((await lseTop10(engine, query.query, rank)).map((urls) => urls.flatMap((url) => sitePath(url, base) ?? [])));
  return effectiveness(queries, ranked);
}

/** The blends the sweep measures: text alone, then each form at a few weights. */
const SWEEP: ReadonlyArray<{ blend: BlendMode; weight: number } | 'text'> = [
  'text',
  ...[0.1, 0.2, 0.3, 0.4].map((weight) => ({ blend: 'log-linear' as const, weight })),
  ...[0.1, 0.2, 0.3].map((weight) => ({ blend: 'multiplicative' as const, weight })),
  ...[0.1, 0.3, 0.5].map((weight) => ({ blend: 'saturating' as const, weight })),
  ...[0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 1].map((weight) => ({ blend: 'prior' as const, weight })),
];

/** MRR@10 of each blend of the sweep on one site. */
async function sweepSite(site: DocSite, lse: LseSite, queries: readonly JudgedQuery[]): Promise<number[]> {
  const figures: number[] = [];
  for (const choice of SWEEP) {
    const engine = choice === 'text' ? lse.engine('log-linear', 0) : lse.engine(choice.blend, choice.weight);
    figures.push((await lseEffectiveness(site, engine, queries, choice === 'text' ? 'text' : 'blend')).mrr10);
  }
  return figures;
}

function printSweep(bench: BenchContext, sites: readonly DocSite[], figures: ReadonlyMap<string, number[]>): void {
  const tuning = sites.filter((site) => !site.heldOut && figures.has(site.name));
  const heldOut = sites.filter((site) => site.heldOut && figures.has(site.name));
  bench.heading('the blend sweep: MRR@10 per form and weight (mean over the tuning sites; held-out sites apart)');
  const rows: Array<Array<string | number>> = [['blend', ...tuning.map((site) => site.name), 'tuning mean', 'worst vs text', ...heldOut.map((site) => `${site.name} (held out)`)]];
  SWEEP.forEach((choice, c) => {
    const label = choice === 'text' ? 'text only' : `${choice.blend} ${choice.weight}`;
    const tuned = tuning.map((site) => figures.get(site.name)![c]);
    const worst = Math.min(...tuning.map((site) => figures.get(site.name)![c] - figures.get(site.name)![0]));
    const mean = tuned.reduce((a, b) => a + b, 0) / Math.max(1, tuned.length);
    rows.push([label, ...tuned.map((x) => x.toFixed(3)), mean.toFixed(3), (worst >= 0 ? '+' : '') + worst.toFixed(3), ...heldOut.map((site) => figures.get(site.name)![c].toFixed(3))]);
  });
  bench.table(rows);
}

export async function relevanceBenchmarks(bench: BenchContext): Promise<void> {
  // The sweep runs only when asked for by name (`relevance/sweep`), on every site, without the peers.
  const sweeping = bench.wants('sweep') && !bench.wants('\u0000');
  const sites = DOC_SITES.filter((site) => bench.wants(site.name) || sweeping);
  const missing = sites.filter((site) => !siteInstalled(site));
  for (const site of missing) bench.note(`${site.name}: ${site.packageName} is not installed (apt-get install ${site.packageName}); skipped`);
  const installed = sites.filter(siteInstalled);
  if (installed.length === 0) return;
  const server = await serveSites(installed);
  const peers = sweeping ? { browser: undefined, browserMissing: 'not run in the sweep', close: async () => {} } : await startPeers(server.port);
  const sweeps = new Map<string, number[]>();
  const defaults = rankingSettingsSchema.parse({});
  const rows: Array<Array<string | number>> = [['site', 'queries', 'pages', `lse blend (${defaults.blend} ${defaults.weight})`, 'lse text', 'site search', 'Pagefind']];
  try {
    for (const site of installed) {
      const queries = siteQueries(site);
      let lse: LseSite | undefined;
      try {
        lse = await crawlAndIndex(site, server.port);
        bench.note(`${site.name}: ${lse.pages} pages crawled in ${lse.crawlSeconds.toFixed(1)} s, indexed in ${lse.indexSeconds.toFixed(1)} s`);
        const engine = lse.engine(defaults.blend, defaults.weight);
        const blend = await lseEffectiveness(site, engine, queries, 'blend');
        const text = await lseEffectiveness(site, engine, queries, 'text');
        const { own, pagefind } = sweeping ? { own: undefined, pagefind: undefined } : await peerEffectiveness(bench, site, lse, queries, peers, server);
        if (sweeping) sweeps.set(site.name, await sweepSite(site, lse, queries));
        rows.push([`${site.name}${site.heldOut ? ' (held out)' : ''}`, queries.length, lse.pages, formatEffectiveness(blend), formatEffectiveness(text), formatEffectiveness(own), formatEffectiveness(pagefind)]);
      } finally {
        await lse?.close();
      }
    }
  } finally {
    await peers.close();
    await server.close();
  }
  bench.heading('MRR@10 / success@1 / success@10 on judged known-item queries (the sites\' own indexes)');
  bench.table(rows);
  bench.note(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
  if (sweeps.size > 0) printSweep(bench, installed, sweeps);
}
