/**
 * Hostile queries against the work budget (indexer/text-index/query-budget.ts): on 10,000
 * synthetic pages (10 segments), the CPU time and the work counters of queries an attacker or a
 * careless user sends — an edit distance of 100, leading wildcards, many wildcards, a long fuzzy
 * word, a pasted page of words — beside an ordinary query. lunr's fuzzy automaton, which the
 * walks replaced, is timed for comparison on the words it can still build in a few seconds.
 *
 *   npm run bench -- query-budget
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lunr from 'lunr';
import { syntheticGenerator } from '../indexer/text-index/synthetic-documents.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import type { BenchContext } from './run.ts';

const PAGES = 10_000;

export async function queryBudgetBenchmarks(bench: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-query-budget-'));
  const index = await TextIndex.open(dir, { workers: 2, autoMerge: false });
  try {
    const generator = syntheticGenerator({ seed: 2024 });
    const documents = Array.from({ length: PAGES }, () => generator.next().document);
    await index.rebuild(documents);
    const common = index.search('*a*', { limit: 1 }).terms[0];
    const long = documents.flatMap((doc) => doc.text.split(/\W+/)).find((word) => word.length >= 9)!;
    const misspelt = `${long.slice(0, 3)}${long[4]}${long[3]}${long.slice(5)}q`;
    const queries: Array<[string, string]> = [
      ['an ordinary word', common],
      [`a misspelt word (${misspelt})`, misspelt],
      [`two words, the last a prefix (${common} ${long.slice(0, 4)})`, `${common} ${long.slice(0, 4)}`],
      ['foo~2', 'foo~2'],
      ['foo~100 (searched as ~2)', 'foo~100'],
      ['*a*', '*a*'],
      ['*e* *o* *i* *u* (any)', '*e* *o* *i* *u*'],
      ['a 400-letter word ~2', `${'abcdefghij'.repeat(40)}~2`],
      ['a phrase of one common word ×8', `"${Array(8).fill(common).join(' ')}"`],
      ['200 words (32 searched)', Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')],
    ];
    bench.heading(`hostile queries on ${PAGES.toLocaleString('en')} synthetic pages (load average ${loadavg()[0].toFixed(1)})`);
    const rows: Array<Array<string | number>> = [['query', 'median ms', 'min ms', 'entries scanned', 'terms expanded', 'postings scored', 'partial', 'notices']];
    for (const [name, q] of queries) {
      const timing = await bench.time(() => index.search(q, { mode: name.includes('(any)') ? 'any' : 'all' }), { runs: 7, warmup: 2 });
      const { work, partial, notices } = timing.result;
      rows.push([name, timing.median * 1000, timing.min * 1000, work.scannedTerms, work.expandedTerms, work.scoredPostings, partial ? 'yes' : 'no', notices.map((n) => n.code.replace('LSE_QUERY_', '')).join(' ')]);
    }
    bench.table(rows);
    bench.heading("lunr's fuzzy automaton alone (what `word~N` built before)");
    const fromClause = (lunr.TokenSet as unknown as { fromClause(clause: object): unknown }).fromClause;
    const automaton: Array<Array<string | number>> = [['word', 'distance', 'ms']];
    for (const [word, distance] of [['foo', 2], ['x'.repeat(40), 2], ['abcdefghij'.repeat(8), 2]] as const) {
      const started = performance.now();
      fromClause({ term: word, editDistance: distance });
      automaton.push([`${word.length} letters`, distance, performance.now() - started]);
    }
    bench.table(automaton);
    bench.note('A 100-letter word at distance 2 took about 1.1 s, a 400-letter one did not finish in a minute, and foo~100 ran out of memory: not run here.');
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
