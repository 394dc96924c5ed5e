/**
 * Pages for the scale benchmark, as a site would push them (`lse import` JSON Lines): about 250
 * words each, drawn from the word frequencies of real English text (the Debian Reference, whose
 * words follow Zipf's law as any real text does), 20 sections, and links with a skewed choice of
 * targets so that the local PageRank has hubs. Deterministic for a seed; written as a stream.
 */
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { seededRandom } from '../indexer/seeded-random.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { syntheticVocabulary } from '../indexer/text-index/synthetic-documents.ts';

const REFERENCE = '/usr/share/debian-reference';

export interface WordTable {
  words: string[];
  /** Cumulative counts, for drawing a word by its frequency. */
  cumulative: Float64Array;
  /** Where the words came from. */
  source: string;
}

/**
 * Word frequencies of the English Debian Reference, or a synthetic Zipf vocabulary when it is
 * absent or `LSE_BENCH_SCALE_VOCABULARY=synthetic` asks for it (longer words: pages of 1.6 times
 * the bytes, for the sizes that grow with the text).
 */
export function realWordTable(): WordTable {
  const counts = new Map<string, number>();
  const synthetic = process.env.LSE_BENCH_SCALE_VOCABULARY === 'synthetic';
  if (!synthetic && existsSync(REFERENCE)) {
    for (const file of readdirSync(REFERENCE).filter((f) => f.endsWith('.en.html'))) {
      const text = readFileSync(join(REFERENCE, file), 'utf8').replace(/<[^>]*>/g, ' ').replace(/&[a-z]+;/g, ' ');
      for (const word of text.toLowerCase().match(/[a-z][a-z'-]{1,20}/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  let source = 'the English Debian Reference';
  if (counts.size < 1000) {
    const random = seededRandom(7);
    syntheticVocabulary(20_000, random).forEach((word, rank) => counts.set(word, Math.max(1, Math.round(100_000 / (rank + 1)))));
    source = `a synthetic Zipf vocabulary (${synthetic ? 'LSE_BENCH_SCALE_VOCABULARY=synthetic' : 'the Debian Reference is not installed'})`;
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const cumulative = new Float64Array(sorted.length);
  let total = 0;
  sorted.forEach(([, count], i) => (cumulative[i] = total += count));
  return { words: sorted.map(([word]) => word), cumulative, source };
}

export function drawWord(table: WordTable, random: () => number): string {
  const target = random() * table.cumulative[table.cumulative.length - 1];
  let lo = 0;
  let hi = table.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.cumulative[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return table.words[lo];
}

export const SCALE_HOST = 'https://big.example.org';
export const scaleSection = (i: number) => `section-${i % 20}`;
export const scaleUrl = (i: number) => `${SCALE_HOST}/${scaleSection(i)}/page-${i}`;

/** The JSON line of page `i` of `count`; `variant` changes its text (an update). */
export function scalePageLine(table: WordTable, i: number, count: number, variant = 0): string {
  const random = seededRandom(i * 7919 + 17 + variant * 104_729);
  const words = 200 + Math.floor(random() * 100);
  const body: string[] = [];
  for (let w = 0; w < words; w++) body.push(drawWord(table, random));
  if (variant > 0) body.push(`updatedword${variant}x${i}`);
  const title: string[] = [];
  for (let w = 3 + Math.floor(random() * 4); w > 0; w--) title.push(drawWord(table, random));
  const links: string[] = [];
  // A skewed choice of targets (the square of a uniform number): low page numbers become hubs.
  for (let l = 0; l < 10; l++) links.push(scaleUrl(Math.floor(random() * random() * count)));
  return JSON.stringify({ url: scaleUrl(i), title: title.join(' '), body: body.join(' '), lang: 'en', section: scaleSection(i), lastModified: new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString(), links });
}

/** Writes pages `from`…`to − 1` as JSON Lines to a file. */
export async function writeScalePages(path: string, table: WordTable, count: number, from = 0, to = count, variant = 0): Promise<void> {
  const out = createWriteStream(path);
  for (let i = from; i < to; i++) {
    if (!out.write(`${scalePageLine(table, i, count, variant)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Queries of 2–3 words a page of the corpus holds: mid-frequency words, as people search. */
export function scaleQueries(table: WordTable, howMany: number, seed = 99): string[] {
  const random = seededRandom(seed);
  const band = table.words.slice(50, Math.min(table.words.length, 3000));
  return Array.from({ length: howMany }, () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => band[Math.floor(random() * random() * band.length)]).join(' '));
}

/**
 * A store of `count` fetched local pages (words drawn from the table), each linking to the page
 * numbers `targets` gives; targets past `count` are URLs not fetched, waiting in the frontier.
 * Written in commits of about 2,000 operations. Returns the links written and the URLs known.
 */
export async function writeScaleStore(
  dir: string,
  table: WordTable,
  count: number,
  options: { seed: number; words: (random: () => number) => number; targets: (random: () => number) => number[] },
): Promise<{ links: number; urls: number }> {
  const store = await CrawlStore.open(dir);
  let links = 0;
  try {
    const random = seededRandom(options.seed);
    let batch = store.batch();
    for (let i = 0; i < count; i++) {
      const id = batch.idFor(scaleUrl(i));
      const words: string[] = [];
      for (let w = options.words(random); w > 0; w--) words.push(drawWord(table, random));
      const page: PageRecord = { url: scaleUrl(i), host: 'big.example.org', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 1 + (i % 5), title: words.slice(0, 5).join(' '), text: words.join(' '), fingerprint: i.toString(16), visits: 1, changes: 0 };
      const targets = options.targets(random);
      links += targets.length;
      batch.putPage(id, page).putLinks(id, targets.map((j) => ({ to: batch.idFor(scaleUrl(j)) })));
      for (const j of targets) if (j >= count) batch.addToFrontier(batch.idFor(scaleUrl(j)), { depth: 2, discoveredAt: 1, role: 'local' });
      if (batch.size >= 2000) {
        await batch.commit({ sync: false });
        batch = store.batch();
      }
    }
    await batch.commit();
    return { links, urls: store.urlCount };
  } finally {
    await store.close();
  }
}
