import { debianCorpus, multilingualRecall, withIndex } from './multilingual-recall.ts';
const t0 = performance.now();
const { docs } = debianCorpus();
console.log('parsed', docs.length, ((performance.now() - t0) / 1000).toFixed(1), 's');
await withIndex(docs, async (index) => {
  console.log('indexed', ((performance.now() - t0) / 1000).toFixed(1), 's', index.info().documentCount);
  for (const r of await multilingualRecall(index, docs, 20)) console.log(r.lang, r.pages, r.queries, r.relevant, r.found, r.recall.toFixed(3), r.misses.slice(0, 6).join(', '));
});
