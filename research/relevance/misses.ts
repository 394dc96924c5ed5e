/**
 * lse's misses on the relevance benchmark's judged sets (bench/relevance*.ts), for diagnosis:
 * each query lse does not answer first, with the judged page(s), lse's top 3 (path and title),
 * the rank Pagefind gives the judged page on the same pages, a cause for each, and the queries
 * the blend ranks lower than text alone. Output goes to stdout; it is regenerated, never committed.
 *
 *   node bin/run-ts.js research/relevance/misses.ts postgresql [rust-std ...] [--no-pagefind]
 */
import { crawlAndIndex, type LseSite } from '../../bench/relevance-lse.ts';
import { effectiveness, firstRelevantRank, formatEffectiveness, sitePath } from '../../bench/relevance-metrics.ts';
import { buildPagefind, pagefindAvailable, pagefindTop10, startPeers } from '../../bench/relevance-peers.ts';
import { DOC_SITES, serveSites, siteInstalled, siteQueries, siteUrl } from '../../bench/relevance-sites.ts';
import { rankingSettingsSchema } from '../../config/schema.ts';

const args = process.argv.slice(2);
const withPagefind = !args.includes('--no-pagefind');
const sites = DOC_SITES.filter((site) => args.includes(site.name) && siteInstalled(site));
const server = await serveSites(sites);
const peers = withPagefind ? await startPeers(server.port) : undefined;
const defaults = rankingSettingsSchema.parse({});
try {
  for (const site of sites) {
    const queries = siteQueries(site);
    const base = siteUrl(site, '/');
    let lse: LseSite | undefined;
    try {
      lse = await crawlAndIndex(site, server.port);
      const engine = lse.engine(defaults.blend, defaults.weight);
      let pagefindRanks: number[] = [];
      if (peers?.browser && !(await pagefindAvailable())) {
        const paths = lse.indexedUrls().flatMap((url) => sitePath(url, base) ?? []);
        const built = await buildPagefind(site, paths, server);
        try {
          const ranked = await pagefindTop10(peers.browser, site, queries.map((q) => q.query));
          pagefindRanks = ranked.map((urls, i) => firstRelevantRank(urls.flatMap((url) => sitePath(url, base) ?? []), queries[i].relevant));
        } finally {
          built.remove();
        }
      }
      let misses = 0;
      const blendBelowText: string[] = [];
      const lseRanked: string[][][] = [];
      // What each page defines and is titled, and which pages the crawl kept only as copies of another.
      const pages = new Map<string, { title: string; defines: Set<string>; copy: boolean }>();
      for await (const [, page] of lse.store.pages()) {
        const path = sitePath(page.url, base);
        if (path === undefined || page.state !== 'fetched') continue;
        pages.set(path, { title: (page.title ?? '').toLowerCase(), defines: new Set((page.definitions ?? []).map((d) => d.name.toLowerCase())), copy: page.duplicateOf !== undefined });
      }
      const causes = new Map<string, number>();
      const causeOf = (query: string, relevant: readonly string[]): string => {
        const q = query.toLowerCase();
        const judged = relevant.map((path) => pages.get(path));
        if (judged.every((page) => page === undefined)) return 'judged page not crawled';
        if (judged.some((page) => page?.copy)) return 'judged page kept as a copy of another';
        if (judged.some((page) => page !== undefined && [...page.defines].some((name) => name === q || name.endsWith(`::${q}`) || name.endsWith(`.${q}`)))) return 'judged page defines it, outranked';
        if (judged.some((page) => page !== undefined && page.title.replace(/^[\d.]+\s+|\s+-\s+rust$/g, '').replace(/ in [\w:]+$/, '') === q)) return 'judged page titled so, outranked';
        return 'concept or mention: the judged page does not define it';
      };
      console.log(`# ${site.name}: ${queries.length} queries, ${lse.pages} pages`);
      for (const [i, query] of queries.entries()) {
        const result = await engine.search({ q: query.query, page: 1, size: 10, rank: 'blend', explain: false }).catch((error: Error) => ({ hits: [], error }));
        const ranked = result.hits.map((hit) => [hit.url, ...(hit.duplicates ?? [])].flatMap((url) => sitePath(url, base) ?? []));
        lseRanked.push(ranked);
        const rank = firstRelevantRank(ranked, query.relevant);
        const text = await engine.search({ q: query.query, page: 1, size: 10, rank: 'text', explain: false }).catch((error: Error) => ({ hits: [], error }));
        const textRank = firstRelevantRank(text.hits.map((hit) => [hit.url, ...(hit.duplicates ?? [])].flatMap((url) => sitePath(url, base) ?? [])), query.relevant);
        if (textRank > 0 && (rank === 0 || rank > textRank)) blendBelowText.push(`${JSON.stringify(query.query)}: blend ${rank === 0 ? '>10' : rank}, text ${textRank}`);
        if (rank === 1) continue;
        misses++;
        const cause = causeOf(query.query, query.relevant);
        causes.set(cause, (causes.get(cause) ?? 0) + 1);
        console.log(`\n[${rank === 0 ? 'miss' : `rank ${rank}`}] ${JSON.stringify(query.query)}  pagefind: ${pagefindRanks[i] ?? '-'}  (${cause})`);
        console.log(`  judged: ${query.relevant.join(' ')}`);
        for (const hit of result.hits.slice(0, 3)) console.log(`  lse: ${sitePath(hit.url, base) ?? hit.url}${new URL(hit.url).hash}  "${hit.title}"`);
      }
      console.log(`\n# ${site.name}: ${misses} of ${queries.length} not first`);
      for (const [cause, count] of [...causes].sort((a, b) => b[1] - a[1])) console.log(`#   ${count}  ${cause}`);
      console.log(`# ${site.name}: the blend ranks the judged page lower than text alone on ${blendBelowText.length}`);
      for (const line of blendBelowText) console.log(`#   ${line}`);
      const pagefind = pagefindRanks.length === 0 ? undefined : effectiveness(queries, pagefindRanks.map((rank, i) => (rank === 0 ? [] : [...Array(rank - 1).fill(''), queries[i].relevant[0]])));
      console.log(`# ${site.name}: MRR@10 / success@1 / success@10: lse ${formatEffectiveness(effectiveness(queries, lseRanked))}, Pagefind ${formatEffectiveness(pagefind)}`);
    } finally {
      await lse?.close();
    }
  }
} finally {
  await peers?.close();
  await server.close();
}
