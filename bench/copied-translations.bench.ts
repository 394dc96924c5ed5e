/**
 * Search over HTTP on a documentation site in 11 languages whose translations are named by a
 * language bar in the body and whose untranslated pages are copied into every language folder
 * (test/helpers/copied-translations-site.ts: ~2,570 pages, ~840 of them distinct, from the Debian
 * Reference and FAQ). The site is served on loopback, crawled, indexed with its local PageRank
 * and searched through the real app, size 10, one connection: p50 and p99 (autocannon), the
 * engine's CPU per search, and how many of the top hits are in the visitor's language.
 */
import autocannon from 'autocannon';
import { seededRandom } from '../indexer/seeded-random.ts';
import { SearchEngine, type EngineQuery } from '../indexer/ranking/search-engine.ts';
import type { GroupRank } from '../indexer/ranking/hit-groups.ts';
import type { BenchContext } from './run.ts';
import { debianDocs } from '../test/helpers/debian-docs.ts';
import { copiedTranslationsSite, serveSite, type CopiedTranslationsSite } from '../test/helpers/copied-translations-site.ts';
import { crawlAndServe } from '../test/helpers/crawled-site.ts';

const HOST = 'docs.copies.test';

/** Queries written in English and in other languages, common and rare words, one typo. */
const QUERIES = [
  'virtual host documentation',
  'virtaul hosts',
  'package management',
  'network configuration',
  'kernel',
  'apt-get install',
  'debian archive',
  'boot process',
  'shell',
  'file system',
  'security updates',
  'Paketverwaltung',
  'paquet',
  'configuración de red',
  'ネットワーク',
  '软件包',
  'пакет',
  'pacchetto',
  'systemd',
  'mirror',
];

export async function copiedTranslationsBenchmarks(bench: BenchContext): Promise<void> {
  if (debianDocs().length === 0) {
    bench.note('copied translations: the Debian documentation is not installed (.ci/run installs it); skipped');
    return;
  }
  const site = copiedTranslationsSite({ parts: 8, translatedShare: 0.35, templatedShare: 0.3 });
  bench.heading(`search API over HTTP, copied translations: ${site.pages.size.toLocaleString('en-US')} pages in 11 languages, ${site.distinct} distinct, ${QUERIES.length} queries, size 10`);
  const served = await serveSite(site.pages);
  const started = performance.now();
  const crawled = await crawlAndServe({ host: HOST, served: served.url });
  const crawlSeconds = (performance.now() - started) / 1000;
  try {
    if (bench.wants('group-rank')) await groupRankCase(bench, site, crawled);
    if (!bench.wants('http')) return;
    const english = await englishFirst(crawled.url);
    const inProcess = await searchInProcess(crawled.engine, 5);
    const rows: Array<Array<string | number>> = [['size', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx']];
    for (const size of [10, 1]) {
      const paths = QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}&size=${size}`);
      let next = 0;
      const result = await autocannon({ url: crawled.url, connections: 1, duration: 10, requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }] });
      rows.push([size, result.requests.average, result.latency.p50, result.latency.p99, result.errors, result.non2xx]);
    }
    bench.table(rows);
    bench.note(`crawl, local PageRank and index: ${crawlSeconds.toFixed(1)} s, ${crawled.stored} pages stored`);
    bench.note(`in the process, ${QUERIES.length} queries × 5: CPU ${inProcess.cpuMs.toFixed(2)} ms per search, p50 ${inProcess.p50.toFixed(2)} ms, p99 ${inProcess.p99.toFixed(2)} ms`);
    bench.note(`Accept-Language: en, top 5 of 'virtual host documentation' and 'virtaul hosts': ${english.inEnglish} of ${english.shown} hits in English (${english.languages})`);
  } finally {
    await crawled.close();
    await served.close();
  }
}

async function englishFirst(base: string): Promise<{ inEnglish: number; shown: number; languages: string }> {
  let inEnglish = 0;
  let shown = 0;
  const languages: string[] = [];
  for (const q of ['virtual host documentation', 'virtaul hosts']) {
    const response = await fetch(`${base}/api/search?q=${encodeURIComponent(q)}&size=5`, { headers: { 'accept-language': 'en' } });
    const body = (await response.json()) as { hits: Array<{ url: string; lang?: string }> };
    for (const hit of body.hits) {
      shown++;
      const folder = new URL(hit.url).pathname.split('/')[1];
      if (hit.lang === 'en' && folder === 'en') inEnglish++;
      languages.push(`${hit.lang}:${folder}`);
    }
  }
  return { inEnglish, shown, languages: languages.join(' ') };
}

async function searchInProcess(engine: { search: (query: { q: string; page: number; size: number; rank: 'blend'; explain: boolean }) => Promise<unknown> }, rounds: number) {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t = performance.now();
      await engine.search({ q, page: 1, size: 10, rank: 'blend', explain: false });
      times.push(performance.now() - t);
    }
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))];
  return { cpuMs: (used.user + used.system) / 1000 / times.length, p50: at(0.5), p99: at(0.99) };
}

/**
 * Known-item queries: three words in a row from an English page (its middle), searched by an
 * English visitor; a query is answered when a hit of the top 10 is the page (or a copy of it).
 * MRR@10 by text alone and with the blend, its link rank per page, the group's best or the
 * group's sum.
 */
async function groupRankCase(bench: BenchContext, site: CopiedTranslationsSite, crawled: Awaited<ReturnType<typeof crawlAndServe>>): Promise<void> {
  const random = seededRandom(5);
  const queries: Array<{ q: string; key: string }> = [];
  for (const page of site.pages.values()) {
    if (page.kind !== 'original' || page.key === 'index') continue;
    const words = (/<p>([^<]*)<\/p>/.exec(page.html.slice(page.html.length / 2))?.[1] ?? '').split(/\s+/).filter((w) => /^[a-z]{3,}$/i.test(w));
    if (words.length < 6) continue;
    const at = Math.floor(random() * (words.length - 3));
    queries.push({ q: words.slice(at, at + 3).join(' '), key: page.key });
  }
  const keyOf = (url: string) => new URL(url).pathname.split('/').slice(2).join('/').replace(/\.html$/, '');
  const ranks = crawled.engine.currentRanks;
  const measure = async (engine: SearchEngine, rank: EngineQuery['rank']) => {
    let reciprocal = 0;
    let first = 0;
    for (const { q, key } of queries) {
      const result = await engine.search({ q, page: 1, size: 10, rank, explain: false, visitorLanguages: ['en'] });
      const at = result.hits.findIndex((hit) => keyOf(hit.url) === key);
      if (at >= 0) reciprocal += 1 / (at + 1);
      if (at === 0) first++;
    }
    return [(reciprocal / queries.length).toFixed(3), (first / queries.length).toFixed(3)];
  };
  const rows: Array<Array<string | number>> = [['ranking', 'MRR@10', 'success@1']];
  rows.push(['text only', ...(await measure(crawled.engine, 'text'))]);
  for (const groupRank of ['page', 'max', 'sum'] as GroupRank[]) {
    const engine = new SearchEngine(crawled.index, ranks, { blend: 'log-linear', weight: 0.3, groupRank });
    engine.setFacts(crawled.engine.pageFacts);
    rows.push([`blend, link rank of the ${groupRank === 'page' ? 'page' : `group (${groupRank})`}`, ...(await measure(engine, 'blend'))]);
  }
  bench.heading(`known-item queries on the copied-translations site: ${queries.length} three-word phrases of English pages, English visitor`);
  bench.table(rows);
}
