/**
 * Top-k with dynamic pruning and a static prior (indexer/text-index/top-k.ts), at the scale
 * benchmark's pages (about 250 words of real English word frequencies each) and its 2–3 word
 * queries, with every match collected for facet counts (as the search engine does):
 * - exhaustive: every match scored (the scorer before pruning);
 * - pruned: block-max bounds, the k best by text score;
 * - pruned + prior: ordered by text score + 0.5·ln(rank / median) (the blend), pruning with it.
 * For each: latency, matches (candidates), documents and posting weights scored per query.
 * The ranks are skewed like PageRank (a few hubs, a long tail), deterministic per page.
 *
 *   npm run bench -- top-k
 *   LSE_BENCH_TOPK_SIZES=100000,300000 LSE_BENCH_SEGMENT_DOCS=10000 npm run bench -- top-k
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { MatchCollector } from '../indexer/text-index/match-collector.ts';
import type { StaticPrior } from '../indexer/text-index/scorer.ts';
import type { SearchOptions } from '../indexer/text-index/search.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import type { BenchContext } from './run.ts';
import { realWordTable, scalePageLine, scaleQueries, type WordTable } from './scale-corpus.ts';

const WEIGHT = 0.5;

function* scaleDocuments(table: WordTable, count: number): Generator<TextDocument> {
  for (let i = 0; i < count; i++) {
    const page = JSON.parse(scalePageLine(table, i, count)) as { url: string; title: string; body: string };
    yield { id: i, url: page.url, host: 'big.example.org', title: page.title, headings: [], text: page.body, lang: 'en' };
  }
}

/** A PageRank-like rank per page: a power law over the page number times a log-normal factor. */
function rankOf(id: number, count: number): number {
  const random = seededRandom(id * 31 + 7);
  const noise = Math.exp((random() + random() + random() - 1.5) * 1.5);
  return ((id + 1) / count) ** -0.9 * noise;
}

function blendPrior(count: number): StaticPrior {
  const ranks = Float64Array.from({ length: count }, (_, id) => rankOf(id, count));
  const median = [...ranks].sort((a, b) => a - b)[count >> 1];
  const cache = new WeakMap<CompactSegment, Float64Array>();
  return {
    of(segment) {
      let values = cache.get(segment);
      if (!values) cache.set(segment, (values = Float64Array.from(segment.docIds, (id) => WEIGHT * Math.log(ranks[id] / median))));
      return values;
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export async function topKBenchmarks(bench: BenchContext): Promise<void> {
  const sizes = (process.env.LSE_BENCH_TOPK_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const segmentDocs = Number(process.env.LSE_BENCH_SEGMENT_DOCS ?? 1_000);
  const table = realWordTable();
  for (const count of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'lse-bench-top-k-'));
    const index = await TextIndex.open(dir, { workers: 2, autoMerge: false, maxSegmentDocs: segmentDocs });
    try {
      const started = performance.now();
      await index.rebuild(scaleDocuments(table, count));
      bench.heading(`top-k: ${count.toLocaleString('en-US')} pages in segments of ${segmentDocs.toLocaleString('en-US')} (built in ${((performance.now() - started) / 1000).toFixed(0)} s), 300 queries of 2–3 words, all words, matches collected`);
      const queries = scaleQueries(table, 300);
      const prior = blendPrior(count);
      const cases: Array<[string, SearchOptions]> = [
        // Matching and counting alone: what exact totals and facet counts cost.
        ['matches counted, none ranked (k 0)', { limit: 0 }],
        ['exhaustive, k 500', { limit: 500, exhaustive: true }],
        ['pruned, k 500', { limit: 500 }],
        ['pruned + prior, k 500', { limit: 500, prior }],
        ['exhaustive, k 50', { limit: 50, exhaustive: true }],
        ['pruned, k 50', { limit: 50 }],
        ['pruned + prior, k 50', { limit: 50, prior }],
        ['exhaustive + prior, k 10', { limit: 10, exhaustive: true, prior }],
        ['pruned, k 10', { limit: 10 }],
        ['pruned + prior, k 10', { limit: 10, prior }],
      ];
      const rows: Array<Array<string | number>> = [['case', 'p50 ms', 'p99 ms', 'mean ms', 'matches/query', 'docs scored/query', 'weights scored/query', 'same hits as exhaustive']];
      const reference = new Map<string, string>();
      for (const [name, options] of cases) {
        const times: number[] = [];
        let candidates = 0;
        let scoredDocuments = 0;
        let scoredWeights = 0;
        let same = 0;
        // One untimed pass warms the block summaries and term caches, as a serving process is.
        for (const q of queries) index.search(q, { ...options, collect: new MatchCollector() });
        for (const q of queries) {
          const collect = new MatchCollector();
          const t0 = performance.now();
          const result = index.search(q, { ...options, collect });
          times.push(performance.now() - t0);
          candidates += result.work.candidates;
          scoredDocuments += result.work.scoredDocuments;
          scoredWeights += result.work.scoredWeights;
          const key = `${options.limit} ${options.prior ? 'prior' : ''} ${q}`;
          const hits = result.hits.map((hit) => `${hit.id}:${hit.score}`).join(' ') + ` / ${result.total} / ${collect.length}`;
          if (options.exhaustive) reference.set(key, hits);
          else if (reference.get(key) === hits) same++;
        }
        const n = queries.length;
        rows.push([name, percentile(times, 50).toFixed(2), percentile(times, 99).toFixed(2), (times.reduce((a, b) => a + b, 0) / n).toFixed(2), Math.round(candidates / n), Math.round(scoredDocuments / n), Math.round(scoredWeights / n), options.exhaustive ? '–' : reference.size > 0 && [...reference.keys()].some((key) => key.startsWith(`${options.limit} ${options.prior ? 'prior' : ''} `)) ? `${same}/${n}` : '–']);
      }
      bench.table(rows);
      bench.note(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
