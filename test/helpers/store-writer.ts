// A child process for the crash test: commits numbered batches and prints "ack N" after each
// commit returns, until it is killed.
import { CrawlStore } from '../../indexer/store/crawl-store.ts';

const store = await CrawlStore.open(process.argv[2]);
for (let n = 0; ; n++) {
  const batch = store.batch();
  const id = batch.idFor(`http://site.example/page/${n}`);
  batch.putPage(id, { url: `http://site.example/page/${n}`, host: 'site.example', role: 'local', state: 'fetched', status: 200, fetchedAt: n, depth: 0, visits: 1, changes: 0, text: 'x'.repeat(2000) });
  batch.putLinks(id, [{ to: id, anchor: `link ${n}` }]);
  await batch.commit({ sync: n % 2 === 0 });
  process.stdout.write(`ack ${n}\n`);
}
