/** Recall per language on real multilingual documentation (see multilingual-recall.ts). */
import type { BenchContext } from './run.ts';
import { debianCorpus, multilingualRecall, withIndex } from './multilingual-recall.ts';

export async function multilingualBenchmarks(bench: BenchContext): Promise<void> {
  const { docs } = debianCorpus();
  if (docs.length === 0) {
    bench.note('the Debian documentation is not installed (.ci/run installs it); skipped');
    return;
  }
  bench.heading(`recall per language: ${docs.length} pages of the Debian Reference and FAQ, 20 sampled words per language`);
  await withIndex(docs, async (index) => {
    const rows: Array<Array<string | number>> = [['language', 'pages', 'queries', 'pages holding the words', 'found', 'recall']];
    for (const row of await multilingualRecall(index, docs, 20)) rows.push([row.lang, row.pages, row.queries, row.relevant, row.found, `${(row.recall * 100).toFixed(1)} %`]);
    bench.table(rows);
  });
}
