// A child process for the index catch-up test: re-indexes every indexable page of a data
// directory's store, in segments of argv[3] pages, as a job does after a re-crawl; the test kills
// it while the segments are being built, before the manifest is written.
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { indexableDocuments } from '../../indexer/text-index/store-adapter.ts';
import { TextIndex } from '../../indexer/text-index/text-index.ts';

const [dataDir, segmentSize] = process.argv.slice(2);
const store = await CrawlStore.open(dataDir);
const index = await TextIndex.open(dataDir, { maxSegmentDocs: Number(segmentSize) });
const upsert = [];
for await (const doc of indexableDocuments(store)) upsert.push(doc);
process.stdout.write(`updating ${upsert.length}\n`);
await index.update({ upsert });
process.stdout.write('updated\n');
await index.close();
await store.close();
