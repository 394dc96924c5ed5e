/**
 * The search experience over HTTP (autocannon, loopback, the real app): suggestion latency, and
 * what facets and grouping cost on /api/search (the same queries with page facts, against the
 * same engine without them), at 10k and 100k synthetic pages in 11 languages, 20 sections, 3
 * hosts, a PDF in ten, translations grouped by 11; then search with facets, grouping and
 * analytics on at 1,000 long pages (5,000 words each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PageFacts, type PageFact } from '../indexer/ranking/page-facts.ts';
import { rankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { SuggestIndex } from '../indexer/suggest/suggest-index.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { syntheticGenerator } from '../indexer/text-index/synthetic-documents.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { buildApp } from '../server/app.ts';
import { SearchAnalytics } from '../server/search-admin/analytics.ts';
import type { BenchContext } from './run.ts';
import { benchmarkQueries } from './text-index.bench.ts';

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'sv', 'ja', 'zh'];
const SEED = 2024;

function* documents(count: number, wordsPerPage?: number): Generator<TextDocument> {
  const generator = syntheticGenerator({ seed: SEED, wordsPerPage });
  for (let i = 0; i < count; i++) {
    const doc = generator.next().document;
    const lang = LANGUAGES[i % LANGUAGES.length];
    const host = `www${i % 3}.example.org`;
    yield { ...doc, host, url: `https://${host}/${lang}/section-${i % 20}/page-${Math.floor(i / LANGUAGES.length)}.html` };
  }
}

/** Facts as a crawl of such a site would store them: the 11 language versions of a page are translations. */
function factsOf(docs: readonly TextDocument[]): PageFacts {
  const records = new Map<number, PageFact>();
  docs.forEach((doc, i) => {
    const group = Math.floor(i / LANGUAGES.length) * LANGUAGES.length;
    records.set(doc.id, {
      url: doc.url,
      host: doc.host,
      lang: LANGUAGES[i % LANGUAGES.length],
      type: i % 10 === 9 ? 'pdf' : 'html',
      section: `section-${i % 20}`,
      date: Date.UTC(2026, 0, 1) + i * 60_000,
      indexed: true,
      related: i === group ? [] : [docs[group]?.url ?? doc.url],
    });
  });
  return new PageFacts(records);
}

async function load(url: string, paths: string[], seconds: number) {
  let next = 0;
  const result = await autocannon({ url, connections: 1, duration: seconds, requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }] });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

function suggestPaths(docs: readonly TextDocument[]): string[] {
  const words = docs.slice(0, 500).flatMap((doc) => doc.title.toLowerCase().split(/\W+/).filter((w) => w.length >= 4));
  return Array.from({ length: 200 }, (_, i) => {
    const word = words[(i * 7919) % words.length];
    return `/api/suggest?q=${encodeURIComponent(word.slice(0, 1 + (i % 4)))}`;
  });
}

export async function searchExperienceBenchmarks(bench: BenchContext): Promise<void> {
  const queries = benchmarkQueries();
  for (const count of [10_000, 100_000]) {
    if (!bench.wants(`${count / 1000}k`)) continue;
    bench.heading(`search experience over HTTP: ${count.toLocaleString('en-US')} pages (1 connection, 8 s per run)`);
    const dir = mkdtempSync(join(tmpdir(), 'lse-bench-experience-'));
    const index = await TextIndex.open(dir);
    try {
      const docs = [...documents(count)];
      await index.rebuild(docs);
      const ids = docs.map((doc) => doc.id);
      const ranks = ids.map((i) => 1 / (1 + (i % 997)));
      const engine = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3 });
      const started = performance.now();
      const facts = factsOf(docs);
      const factsMs = performance.now() - started;
      const suggestStarted = performance.now();
      engine.setSuggestions(await SuggestIndex.build(docs, (id) => ranks[id] ?? 0));
      const suggestBuildMs = performance.now() - suggestStarted;
      const app = await buildApp({ search: engine, logger: false, rateLimitPerMinute: 1_000_000_000 });
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const searchPaths = queries.map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`);
      const filtered = queries.map((q, i) => `/api/search?q=${encodeURIComponent(q)}&size=10&lang=${LANGUAGES[i % LANGUAGES.length]}&type=html`);
      const rows: Array<Array<string | number>> = [['case', 'requests/s', 'p50 ms', 'p99 ms', 'errors']];
      // In the process, without HTTP: what the suggestion index itself costs.
      const prefixes = suggestPaths(docs).map((path) => decodeURIComponent(path.slice(path.indexOf('=') + 1)));
      const times: number[] = [];
      for (let i = 0; i < 20_000; i++) {
        const t = performance.now();
        engine.suggest(prefixes[i % prefixes.length]);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const inProcess = (q: number) => times[Math.floor(q * (times.length - 1))].toFixed(3);
      const suggest = await load(url, suggestPaths(docs), 8);
      rows.push(['GET /api/suggest (1–4 letters)', suggest.rps, suggest.p50, suggest.p99, suggest.errors]);
      const without = await load(url, searchPaths, 8);
      rows.push(['/api/search, no page facts', without.rps, without.p50, without.p99, without.errors]);
      engine.setFacts(facts);
      const withFacets = await load(url, searchPaths, 8);
      rows.push(['/api/search, facets + grouping', withFacets.rps, withFacets.p50, withFacets.p99, withFacets.errors]);
      const withFilters = await load(url, filtered, 8);
      rows.push(['/api/search, lang + type filters', withFilters.rps, withFilters.p50, withFilters.p99, withFilters.errors]);
      bench.table(rows);
      bench.note(`suggest in the process: p50 ${inProcess(0.5)} ms, p99 ${inProcess(0.99)} ms; page facts built in ${factsMs.toFixed(0)} ms; suggestion index built in ${suggestBuildMs.toFixed(0)} ms`);
      await app.close();
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  if (!bench.wants('long')) return;
  bench.heading('search with facets, grouping and analytics on: 1,000 long pages (5,000 words), 1 connection, 10 s');
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-experience-long-'));
  const index = await TextIndex.open(dir);
  try {
    const docs = [...documents(1000, 5000)];
    await index.rebuild(docs);
    const ids = docs.map((doc) => doc.id);
    const ranks = ids.map((i) => 1 / (1 + (i % 97)));
    const engine = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3 });
    // In the process, alternating query by query (so that the machine's load falls on both alike):
    // the same search with and without page facts.
    const facts = factsOf(docs);
    const spent = { without: 0, with: 0 };
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        for (const side of ['without', 'with'] as const) {
          engine.setFacts(side === 'with' ? facts : PageFacts.empty());
          const t = performance.now();
          await engine.search({ q, page: 1, size: 10, rank: 'blend', explain: false });
          spent[side] += performance.now() - t;
        }
      }
    }
    const runs = 3 * queries.length;
    bench.note(`in the process, mean per search: ${(spent.without / runs).toFixed(2)} ms without page facts, ${(spent.with / runs).toFixed(2)} ms with facets and grouping`);
    engine.setFacts(facts);
    const analytics = await SearchAnalytics.open(dir, { retentionDays: 90, maxRecordsPerDay: 10_000_000 });
    const app = await buildApp({ search: engine, logger: false, rateLimitPerMinute: 1_000_000_000, analytics: { store: analytics, engine } });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const result = await load(url, queries.map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`), 10);
    bench.table([['requests/s', 'p50 ms', 'p99 ms', 'errors'], [result.rps, result.p50, result.p99, result.errors]]);
    await app.close();
    await analytics.flush();
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
