/**
 * The bitmaps of common clauses kept with their segment: made once per segment and clause, equal
 * to the bits of the clause's lists, and dropped past the byte bound rather than growing.
 */
import { describe, expect, it } from 'vitest';
import { clauseBitmap } from '../indexer/text-index/clause-bitmaps.ts';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import { emptyBits, setBits } from '../indexer/text-index/ordinal-lists.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

/** A segment of `documents` pages: only its size matters to the bitmaps. */
const segmentOf = (documents: number) => ({ name: `seg-${documents}`, docIds: new Int32Array(documents) }) as unknown as CompactSegment;

function randomList(random: () => number, documents: number, density: number): Int32Array {
  const out: number[] = [];
  for (let d = 0; d < documents; d++) if (random() < density) out.push(d);
  return Int32Array.from(out);
}

describe('clause bitmaps', () => {
  it('are the bits of the lists, made once per segment and clause', () => {
    const random = seededRandom(5);
    const a = segmentOf(1000);
    const b = segmentOf(1000);
    const lists = [randomList(random, 1000, 0.3), randomList(random, 1000, 0.1)];
    const expected = emptyBits(1000);
    setBits(expected, lists);
    const first = clauseBitmap(a, '7.0 7.2', lists);
    expect([...first]).toEqual([...expected]);
    expect(clauseBitmap(a, '7.0 7.2', lists)).toBe(first);
    // Another segment with the same clause key has its own documents.
    const other = [randomList(random, 1000, 0.5)];
    const bits = emptyBits(1000);
    setBits(bits, other);
    expect([...clauseBitmap(b, '7.0 7.2', other)]).toEqual([...bits]);
    expect(clauseBitmap(a, '7.0 7.2', lists)).toBe(first);
  });

  it('drops the kept bitmaps of a segment past its byte bound', () => {
    const documents = 1_000_000; // 125,000 bytes a bitmap: the bound (8 MB) holds 67
    const segment = segmentOf(documents);
    const list = [Int32Array.of(0, 999_999)];
    const first = clauseBitmap(segment, 'clause 0', list);
    for (let i = 1; i < 67; i++) clauseBitmap(segment, `clause ${i}`, list);
    expect(clauseBitmap(segment, 'clause 0', list)).toBe(first);
    for (let i = 67; i < 80; i++) clauseBitmap(segment, `clause ${i}`, list);
    const again = clauseBitmap(segment, 'clause 0', list);
    expect(again).not.toBe(first);
    expect([...again]).toEqual([...first]);
  });
});
