/**
 * Dynamic pruning (top-k.ts) against the exhaustive scorer on real documentation: the same hits,
 * in the same order, with the same scores to the last bit, the same totals and the same matches
 * collected, for many queries of words taken from the pages, in both modes, with operators, a
 * filter, deleted pages, and a static prior.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHtml } from '../crawler/html.ts';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import type { StaticPrior } from '../indexer/text-index/scorer.ts';
import type { SearchOptions } from '../indexer/text-index/search.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const ROOTS = ['/usr/share/doc/python-django-doc/html', '/usr/share/doc/sphinx-doc/html'];
const PAGES = 600;

function htmlFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) htmlFiles(path, out);
    else if (entry.name.endsWith('.html')) out.push(path);
  }
}

function realPages(): TextDocument[] {
  const files: string[] = [];
  for (const root of ROOTS) if (existsSync(root)) htmlFiles(root, files);
  files.sort();
  return files.slice(0, PAGES).map((path, id) => {
    const url = `http://docs.test${path}`;
    const page = parseHtml(readFileSync(path, 'utf8'), url);
    return { id, url, host: 'docs.test', title: page.title, headings: page.content.headings, text: page.content.text, lang: 'en', sections: page.content.sections, definitions: page.content.definitions };
  });
}

/** Queries of words taken from the pages: plain words, required, prohibited, fields, phrases, patterns. */
function queries(docs: readonly TextDocument[], count: number): string[] {
  const random = seededRandom(11);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const out: string[] = [];
  while (out.length < count) {
    const doc = pick(docs);
    const at = Math.floor(random() * Math.max(1, doc.text.length - 300));
    const words = (doc.text.slice(at, at + 300).toLowerCase().match(/[a-z]{3,}/g) ?? []).slice(1);
    if (words.length < 4) continue;
    const [a, b, c] = [pick(words), pick(words), pick(words)];
    const i = Math.floor(random() * (words.length - 1));
    const kinds = [
      `${a} ${b}`,
      `${a} ${b} ${c}`,
      a,
      `+${a} ${b}`,
      `${a} ${b} -${c}`,
      `title:${a} ${b}`,
      `"${words[i]} ${words[i + 1]}" ${c}`,
      `${a.slice(0, 3)}* ${b}`,
      `${a}~1 ${b}`,
      `${a}^3 ${b}`,
      // A name the page defines: its exact-name bonus takes part in the bounds.
      doc.definitions?.length ? pick(doc.definitions).name : a,
    ];
    out.push(kinds[out.length % kinds.length]);
  }
  return out;
}

/** A deterministic prior per page, with ties (many pages share a value) and negatives. */
const prior: StaticPrior = {
  of(segment: CompactSegment) {
    return Float64Array.from(segment.docIds, (id) => (id % 7 === 0 ? 0 : 0.5 * Math.log((((id * 2654435761) >>> 0) % 1000) / 500 + 0.01)));
  },
};

let dir: string;
let index: TextIndex;
let docs: TextDocument[];

beforeAll(async () => {
  docs = realPages();
  dir = await mkdtemp(join(tmpdir(), 'lse-top-k-'));
  // Segments of a few hundred pages: long lists span several blocks, and statistics are global.
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false, maxSegmentDocs: 250 });
  await index.rebuild(docs);
  // Deleted pages stay in their segments' postings and must be skipped by both paths.
  await index.update({ remove: docs.filter((doc) => doc.id % 13 === 5).map((doc) => doc.id) });
}, 240_000);

afterAll(async () => {
  await index?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let work = { candidates: 0, scoredDocuments: 0 };

function run(query: string, options: SearchOptions) {
  const collected: number[] = [];
  const result = index.search(query, { ...options, collect: collected });
  work = result.work;
  return { hits: result.hits.map((hit) => [hit.id, hit.score, hit.matchedTerms.join(' ')]), total: result.total, unfilteredTotal: result.unfilteredTotal, matchMode: result.matchMode, collected: collected.sort((x, y) => x - y) };
}

describe('top-k with dynamic pruning', () => {
  it('has real pages to test on', () => {
    expect(docs.length).toBeGreaterThan(300);
    expect(index.handle.current.segments.length).toBeGreaterThan(1);
  });

  it('finds the same hits, scores, totals and matches as scoring every match', () => {
    const accept = (id: number) => id % 3 !== 1;
    let compared = 0;
    let skipped = 0;
    let candidates = 0;
    for (const query of queries(docs, 100)) {
      for (const mode of ['all', 'any'] as const) {
        for (const options of [{ limit: 10 }, { limit: 1 }, { limit: 5, offset: 5, accept }, { limit: 10, prior }, { limit: 3, prior, accept }] as SearchOptions[]) {
          const exhaustive = run(query, { ...options, mode, exhaustive: true });
          const pruned = run(query, { ...options, mode });
          expect({ ...pruned, query, mode }).toEqual({ ...exhaustive, query, mode });
          expect(pruned.collected.length).toBe(exhaustive.unfilteredTotal);
          compared++;
          candidates += work.candidates;
          skipped += work.candidates - work.scoredDocuments;
        }
      }
    }
    expect(compared).toBe(100 * 2 * 5);
    // The point of it: most candidates are not scored.
    expect(skipped / candidates).toBeGreaterThan(0.3);
  }, 240_000);

  it('orders by text score plus prior exactly as sorting every match by it', () => {
    for (const query of queries(docs, 40)) {
      const every = index.search(query, { limit: 1_000, exhaustive: true, tolerance: false, mode: 'any' });
      const priorOf = new Map<number, number>();
      for (const segment of index.handle.current.segments) {
        const values = prior.of(segment.stored.postings);
        segment.stored.postings.docIds.forEach((id, d) => priorOf.set(id, values[d]));
      }
      const expected = every.hits
        .map((hit) => ({ id: hit.id, key: hit.score + priorOf.get(hit.id)! }))
        .sort((x, y) => y.key - x.key || x.id - y.id)
        .slice(0, 10)
        .map((hit) => hit.id);
      expect(index.search(query, { limit: 10, prior, tolerance: false, mode: 'any' }).hits.map((hit) => hit.id)).toEqual(expected);
    }
  });
});
