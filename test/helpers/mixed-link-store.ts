/**
 * A store holding every kind of link the local graph leaves out, for the local graph's and local
 * PageRank's tests.
 */
import { seededRandom } from '../../indexer/seeded-random.ts';
import type { CrawlStore, PageRecord, StoredLink } from '../../indexer/store/crawl-store.ts';

/** A page record with no text: what the local graph reads of a page is its role and state. */
export function linkedPage(url: string, role: 'local' | 'global', state: PageRecord['state']): PageRecord {
  return { url, host: new URL(url).host, role, state, status: state === 'error' ? 500 : 200, fetchedAt: 1, depth: 1, title: '', text: '', fingerprint: '', visits: 1, changes: 0 };
}

/**
 * A store whose URLs are registered in random order (not URL order), with every kind of link the
 * local graph leaves out: nofollow, to global and failed pages, to URLs never fetched, to
 * non-http URLs, self-links and repeats.
 */
export async function writeMixedStore(store: CrawlStore, count: number, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const url = (i: number) => `https://site.example.org/p/${(i * 7919) % (count * 3)}`;
  const kindOf = (i: number) => (i % 10 === 7 ? 'global' : i % 10 === 9 ? 'failed' : 'local');
  let batch = store.batch();
  for (let i = 0; i < count; i++) {
    const id = batch.idFor(url(i));
    const kind = kindOf(i);
    batch.putPage(id, kind === 'global' ? linkedPage(url(i), 'global', 'fetched') : kind === 'failed' ? linkedPage(url(i), 'local', 'error') : linkedPage(url(i), 'local', 'fetched'));
    const links = [];
    for (let l = Math.floor(random() * 12); l > 0; l--) {
      const r = random();
      const to = r < 0.05 ? batch.idFor(`mailto:someone${i}@example.org`) : r < 0.1 ? id : r < 0.2 ? batch.idFor(`https://site.example.org/unfetched/${i}`) : batch.idFor(url(Math.floor(random() * count)));
      links.push({ to, nofollow: random() < 0.05 ? true : undefined });
      if (random() < 0.1) links.push({ to });
    }
    batch.putLinks(id, links);
    if (batch.size >= 2000) {
      await batch.commit({ sync: false });
      batch = store.batch();
    }
  }
  await batch.commit();
}

/**
 * Rewrites pages as a crawl or a push does: some leave the graph (failed, global), some come
 * back, links change, new URLs (some sorting between the old ones, one not http) join it, and
 * one page's links are written without its record.
 */
export async function rewriteSomePages(store: CrawlStore, count: number, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const batch = store.batch();
  const anyId = () => Math.floor(random() * store.urlCount);
  const linksFrom = (id: number): StoredLink[] => Array.from({ length: Math.floor(random() * 8) }, () => (random() < 0.1 ? { to: id } : { to: anyId(), nofollow: random() < 0.1 ? true : undefined }));
  for (let k = 0; k < 40; k++) {
    const url = `https://site.example.org/p/${Math.floor(random() * count * 3)}`;
    const id = batch.idFor(url);
    const r = random();
    const record = r < 0.2 ? linkedPage(url, 'local', 'error') : r < 0.3 ? linkedPage(url, 'global', 'fetched') : r < 0.4 ? linkedPage(url, 'local', 'not-modified') : linkedPage(url, 'local', 'fetched');
    batch.putPage(id, record);
    if (random() < 0.7) batch.putLinks(id, linksFrom(id));
  }
  for (let k = 0; k < 10; k++) {
    const url = k === 0 ? `ftp://site.example.org/new/${seed}` : `https://site.example.org/${k % 2 ? 'a' : 'q'}/new-${seed}-${k}`;
    const id = batch.idFor(url);
    batch.putPage(id, linkedPage(url, 'local', 'fetched')).putLinks(id, linksFrom(id));
  }
  const linksOnly = anyId();
  batch.putLinks(linksOnly, linksFrom(linksOnly));
  await batch.commit();
}
