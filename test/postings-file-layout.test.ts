/**
 * The postings file with terms, written words, document offsets and languages as arrays
 * (format 2), beside the earlier layout that held them in the header JSON: files of the earlier
 * layout (written here byte by byte, as earlier versions wrote them) open and answer every kind
 * of query as the new ones do, merge with new ones into a new one, and damaged arrays are refused
 * with an IndexCorruptError that names the file. Real multilingual pages (Debian documentation).
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianCorpus, sampleWords } from '../bench/multilingual-recall.ts';
import { earlierPostingsLayout } from '../bench/term-dictionary.bench.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { IndexCorruptError } from '../indexer/text-index/errors.ts';
import { PostingsCache } from '../indexer/text-index/postings-cache.ts';
import { pad8 } from '../indexer/text-index/postings-file.ts';
import { languagesOf } from '../indexer/text-index/language-column.ts';
import { openSegment, readSegment } from '../indexer/text-index/segment-files.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { debianDocs } from './helpers/debian-docs.ts';

/** Rewrites the postings files of an index directory (all, or those `which` picks) in the earlier layout. */
async function toEarlierLayout(dataDir: string, which: (name: string, i: number) => boolean = () => true): Promise<string[]> {
  const dir = join(dataDir, 'index');
  const names = (await readdir(dir)).filter((file) => file.endsWith('.postings.bin')).map((file) => file.slice(0, -'.postings.bin'.length)).sort();
  const rewritten = names.filter(which);
  for (const name of rewritten) {
    const { postings, docOffsets } = await readSegment(dir, name);
    await writeFile(join(dir, `${name}.postings.bin`), earlierPostingsLayout(postings, [...docOffsets]));
  }
  return rewritten;
}

function headerOf(bytes: Uint8Array): Record<string, unknown> & { fields: number[][]; positionBytes: number[] } {
  const length = Buffer.from(bytes).readUInt32LE(4);
  return JSON.parse(Buffer.from(bytes.subarray(8, 8 + length)).toString('utf8'));
}

/** Byte positions of the arrays after the fields' in a format-2 file. */
function tailSections(bytes: Uint8Array): Record<'surfaceOffsets' | 'surfaceTermIds' | 'termOffsets' | 'termBytes' | 'wordOffsets' | 'wordBytes' | 'docOffsets' | 'langs', number> {
  const header = headerOf(bytes) as ReturnType<typeof headerOf> & Record<'docCount' | 'termCount' | 'termBytes' | 'surfaceCount' | 'surfaceBytes' | 'surfaceTermCount', number>;
  let at = pad8(8 + Buffer.from(bytes).readUInt32LE(4));
  const skip = (byteLength: number) => {
    const position = at;
    at += pad8(byteLength);
    return position;
  };
  skip(4 * header.docCount);
  header.fields.forEach((lengths, f) => lengths.forEach((length, k) => skip(length * [4, 4, 2, 4, header.positionBytes[f], 4][k])));
  return {
    surfaceOffsets: skip(4 * (header.surfaceCount + 1)),
    surfaceTermIds: skip(4 * header.surfaceTermCount),
    termOffsets: skip(4 * (header.termCount + 1)),
    termBytes: skip(header.termBytes),
    wordOffsets: skip(4 * (header.surfaceCount + 1)),
    wordBytes: skip(header.surfaceBytes),
    docOffsets: skip(8 * (header.docCount + 1)),
    langs: skip(2 * header.docCount),
  };
}

/** What a search answers that a user sees: ids, scores, matched terms, the expanded terms. */
function answer(index: TextIndex, query: string) {
  const result = index.search(query, { limit: 20 });
  return { hits: result.hits.map((hit) => [hit.id, hit.score, hit.matchedTerms.join(' ')]), total: result.total, terms: result.terms };
}

const debian = debianDocs();
describe.skipIf(debian.length === 0)('postings file layouts (Debian documentation, 11 languages)', () => {
  let root: string;
  let docs: TextDocument[];
  const queries: string[] = [];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lse-postings-layout-'));
    docs = debianCorpus().docs.filter((_, i) => i % 3 === 0);
    const built = await TextIndex.open(join(root, 'current'), { workers: 0, autoMerge: false, maxSegmentDocs: 12 });
    await built.rebuild(docs);
    await built.close();
    for (const lang of [...new Set(docs.map((doc) => doc.lang ?? 'en'))].filter((l) => l !== 'und')) {
      const words = sampleWords(docs.filter((doc) => doc.lang === lang).map((doc) => doc.text), lang, 6, 3);
      queries.push(...words);
      // Prefixes, typos (one letter changed), wildcards and fuzzy words: the walks over the dictionaries.
      for (const word of words.filter((w) => w.length >= 5).slice(0, 3)) queries.push(word.slice(0, 4), `${word.slice(0, 2)}x${word.slice(3)}`, `${word.slice(0, 3)}*`, `${word}~1`, `lang:${lang} ${word}`);
    }
    queries.push('paket', 'pakete~1', 'instal*', 'de:paket', '*ation', 'install package', 'ユーザー', '软件包', 'système', 'configuration +kernel');
  }, 180_000);
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the terms outside the header, and opens files of the earlier layout to the same answers', async () => {
    const dir = join(root, 'current', 'index');
    const file = (await readdir(dir)).find((name) => name.endsWith('.postings.bin'))!;
    const header = headerOf(await readFile(join(dir, file)));
    expect(header.format).toBe(2);
    expect(header).not.toHaveProperty('terms');
    expect(header).not.toHaveProperty('docOffsets');
    expect(JSON.stringify(header).length).toBeLessThan(1_000);

    await cp(join(root, 'current'), join(root, 'earlier'), { recursive: true });
    const rewritten = await toEarlierLayout(join(root, 'earlier'));
    expect(rewritten.length).toBeGreaterThan(3);
    expect(headerOf(await readFile(join(root, 'earlier', 'index', `${rewritten[0]}.postings.bin`)))).toHaveProperty('terms');
    const current = await TextIndex.open(join(root, 'current'), { workers: 0, autoMerge: false });
    const earlier = await TextIndex.open(join(root, 'earlier'), { workers: 0, autoMerge: false });
    try {
      const currentSegments = current.handle.current.segments.map((s) => s.stored.postings);
      const earlierSegments = earlier.handle.current.segments.map((s) => s.stored.postings);
      expect(earlierSegments).toEqual(currentSegments.map((segment) => ({ ...segment, fields: expect.anything() })));
      let hits = 0;
      for (const query of queries) {
        const expected = answer(current, query);
        expect(answer(earlier, query), query).toEqual(expected);
        hits += expected.hits.length;
      }
      expect(queries.length).toBeGreaterThan(60);
      expect(hits).toBeGreaterThan(300);
    } finally {
      await current.close();
      await earlier.close();
    }
  });

  it('merges segments of both layouts into one of the new layout, as a fresh build', async () => {
    await cp(join(root, 'current'), join(root, 'mixed'), { recursive: true });
    const rewritten = await toEarlierLayout(join(root, 'mixed'), (_, i) => i % 2 === 0);
    expect(rewritten.length).toBeGreaterThan(1);
    const mixed = await TextIndex.open(join(root, 'mixed'), { workers: 0, autoMerge: false });
    const fresh = await TextIndex.open(join(root, 'fresh'), { workers: 0, autoMerge: false, maxSegmentDocs: 100_000 });
    try {
      await fresh.rebuild(docs);
      await mixed.merge({ force: true });
      expect(mixed.info().segments).toHaveLength(1);
      const [merged] = mixed.handle.current.segments.map((s) => s.stored.postings);
      const [built] = fresh.handle.current.segments.map((s) => s.stored.postings);
      const dir = join(root, 'mixed', 'index');
      expect(headerOf(await readFile(join(dir, `${merged.name}.postings.bin`))).format).toBe(2);
      expect(merged.terms.toArray()).toEqual(built.terms.toArray());
      expect(merged.terms).toEqual(built.terms);
      // A build lists a word's terms in the order its pages met them, a merge in ascending order.
      expect(merged.surfaces.words).toEqual(built.surfaces.words);
      expect(merged.surfaces.offsets).toEqual(built.surfaces.offsets);
      expect(languagesOf(merged.docLangs)).toEqual(languagesOf(built.docLangs));
      for (const query of queries.slice(0, 40)) expect(answer(mixed, query).hits, query).toEqual(answer(fresh, query).hits);
    } finally {
      await mixed.close();
      await fresh.close();
    }
  });

  it('refuses damaged term, written-word and language arrays, naming the file', async () => {
    const dir = join(root, 'current', 'index');
    const name = (await readdir(dir)).find((file) => file.endsWith('.postings.bin'))!.slice(0, -'.postings.bin'.length);
    const good = await readFile(join(dir, `${name}.postings.bin`));
    const at = tailSections(good);
    const header = headerOf(good) as unknown as { termCount: number; languages: string[] };
    const damages: Array<[string, (bytes: Buffer) => Buffer, RegExp]> = [
      ['term offsets that decrease', (b) => (b.writeInt32LE(b.readInt32LE(at.termOffsets + 8) + 50, at.termOffsets + 4), b), /term list with offsets that decrease/],
      ['terms out of order', (b) => (b.copy(b, at.termBytes, at.termBytes + 200, at.termBytes + 210), b), /term list with entry \d+ out of order/],
      ['a term that is not text', (b) => ((b[at.termBytes + 3] = 0xff), b), /term list with entry \d+ that is not text/],
      ['written words out of order', (b) => (b.fill(0x7a, at.wordBytes, at.wordBytes + 3), b), /written-word list with entry \d+ out of order/],
      ['a written word of an unknown term', (b) => (b.writeInt32LE(header.termCount + 5, at.surfaceTermIds), b), /written words that do not fit its terms/],
      ['an unlisted language', (b) => (b.writeUInt16LE(header.languages.length, at.langs), b), /language it does not list/],
      ['a cut in the dictionaries', (b) => b.subarray(0, at.wordOffsets + 4), /truncated/],
    ];
    for (const [what, damage, message] of damages) {
      const damagedDir = await mkdtemp(join(root, 'damaged-'));
      const path = join(damagedDir, `${name}.postings.bin`);
      await writeFile(path, damage(Buffer.from(good)));
      for (const open of [() => readSegment(damagedDir, name), async () => openSegment(damagedDir, name, new PostingsCache())]) {
        const error = await open().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, what).toBeInstanceOf(IndexCorruptError);
        expect((error as Error).message, what).toMatch(message);
        expect((error as Error).message, what).toContain(path);
      }
    }
    // The undamaged file opens.
    const okDir = await mkdtemp(join(root, 'intact-'));
    await writeFile(join(okDir, `${name}.postings.bin`), good);
    expect((await readSegment(okDir, name)).postings.terms.length).toBe(header.termCount);
  });
});
