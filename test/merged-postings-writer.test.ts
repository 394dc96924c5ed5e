/** A merge's postings file written as it merges holds the bytes of the merged postings encoded whole. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFileWriter } from '../indexer/text-index/atomic-file.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { writeMergedPostings } from '../indexer/text-index/merged-postings-writer.ts';
import { encodePostings } from '../indexer/text-index/postings-file.ts';
import { mergePostings, planMerge, type MergeSource } from '../indexer/text-index/postings-merge.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-merged-writer-');
const corpus = syntheticCorpus({ count: 120, seed: 5, wordsPerPage: 80, vocabularySize: 900 });

/** The segments of an index built from `docs` in that order, `size` pages each, read whole. */
async function segmentsOf(docs: readonly TextDocument[], size: number) {
  const index = await openIndex(await tempDir(), { maxSegmentDocs: size });
  await index.rebuild(docs);
  return Promise.all(index.handle.current.segments.map((s) => readSegment(index.directory, s.stored.postings.name)));
}

/** The file writeMergedPostings writes (in chunks of `chunk` elements) and the whole encoding, for the same sources. */
async function bothEncodings(sources: MergeSource[], chunk: number): Promise<[Buffer, Buffer]> {
  const plan = planMerge('seg-merged', sources);
  // Any offsets will do: the header carries them as given.
  const docOffsets = Array.from({ length: plan.docIds.length + 1 }, (_, i) => i * 100);
  const path = join(await tempDir(), 'merged.postings.bin');
  const out = new AtomicFileWriter(path);
  writeMergedPostings(plan, docOffsets, out, chunk);
  out.commit();
  return [await readFile(path), Buffer.from(encodePostings(mergePostings('seg-merged', sources).postings, docOffsets))];
}

function withDeleted(segment: Awaited<ReturnType<typeof segmentsOf>>[number], ordinals: number[]): MergeSource {
  const deleted = new Uint8Array(segment.postings.docIds.length);
  for (const ordinal of ordinals) deleted[ordinal] = 1;
  return { postings: segment.postings, deleted };
}

describe('merged postings written as they merge', () => {
  it('writes the bytes of the whole encoding for sources in runs of page ids', async () => {
    const segments = await segmentsOf(corpus.documents, 30);
    expect(segments).toHaveLength(4);
    for (const chunk of [7, 1 << 16]) {
      const [streamed, whole] = await bothEncodings(segments.map((s) => ({ postings: s.postings, deleted: null })), chunk);
      expect(streamed.equals(whole)).toBe(true);
    }
  });

  it('writes the same bytes for interleaved sources with deleted pages and 32-bit positions', async () => {
    const words = Array.from({ length: 70_000 }, (_, i) => corpus.vocabulary[(i * 7) % 800]).join(' ');
    const long: TextDocument = { id: 1_000, url: 'https://long.example.org/', host: 'long.example.org', title: 'Long', headings: [], text: words };
    // Even ids in the first segment, odd ones (and the long page) in the second: their pages interleave.
    const even = corpus.documents.filter((d) => d.id % 2 === 0);
    const odd = corpus.documents.filter((d) => d.id % 2 === 1);
    const segments = await segmentsOf([...even, ...odd, long], odd.length + 1);
    expect(segments).toHaveLength(2);
    expect(segments.some((s) => s.postings.fields.some((f) => f.positions instanceof Uint32Array))).toBe(true);
    const sources = [withDeleted(segments[0], [0, 3, 10]), withDeleted(segments[1], [1, 2])];
    const [streamed, whole] = await bothEncodings(sources, 5);
    expect(streamed.equals(whole)).toBe(true);
    // With the long page left out, the merged positions fit in 16 bits again.
    const longOrdinal = segments[1].postings.docIds.indexOf(1_000);
    const [narrowStreamed, narrowWhole] = await bothEncodings([sources[0], withDeleted(segments[1], [longOrdinal])], 5);
    expect(narrowStreamed.equals(narrowWhole)).toBe(true);
  });
});
