/**
 * Writes a merge's postings file as the postings are merged, without holding the merged arrays:
 * a merge of ten 10k-page segments would otherwise hold its 100k-page output (about as large as
 * its sources) beside them. The bytes are those of `postingsFileParts(mergePostings(…))`
 * (postings-merge.ts): a first pass over each field counts its postings and positions for the
 * header, then each array is written in turn from another pass over the sources, a chunk at a time.
 */
import type { AtomicFileWriter } from './atomic-file.ts';
import type { FieldPostings } from './compact-segment.ts';
import { pad8, postingsFileHead, postingsFileTail } from './postings-file.ts';
import { visitPostings, type MergePlan } from './postings-merge.ts';

const MAX_U16 = 0xffff;

/** Elements a chunk of an array holds before it goes to the file. */
const CHUNK_ELEMENTS = 1 << 16;

/** Called for each merged posting, in the merged order: the source field, the posting's index there, its merged ordinal. */
interface FieldCount {
  offsets: Int32Array;
  postings: number;
  positions: number;
  positionBytes: 2 | 4;
}

export function writeMergedPostings(plan: MergePlan, docOffsets: readonly number[], out: AtomicFileWriter, chunkElements = CHUNK_ELEMENTS): void {
  const counts: FieldCount[] = [];
  for (let f = 0; f < plan.fieldCount; f++) counts.push(countField(plan, f));
  const docCount = plan.docIds.length;
  const fields = counts.map((c) => ({ lengths: [c.offsets.length, c.postings, c.postings, c.postings + 1, c.positions, docCount], positionBytes: c.positionBytes }));
  const shape = { ...plan, fields };
  out.append(postingsFileHead(shape));
  appendWhole(out, plan.docIds);
  for (let f = 0; f < plan.fieldCount; f++) {
    appendWhole(out, counts[f].offsets);
    const docs = new ArrayStream(Int32Array, out, chunkElements);
    visitPostings(plan, f, (_input, _from, ordinal) => docs.push(ordinal));
    docs.end();
    const tf = new ArrayStream(Uint16Array, out, chunkElements);
    visitPostings(plan, f, (input, from) => tf.push(input.tf[from]));
    tf.end();
    const positionOffsets = new ArrayStream(Int32Array, out, chunkElements);
    let q = 0;
    visitPostings(plan, f, (input, from) => {
      positionOffsets.push(q);
      q += input.positionOffsets[from + 1] - input.positionOffsets[from];
    });
    positionOffsets.push(q);
    positionOffsets.end();
    const positions = counts[f].positionBytes === 4 ? new ArrayStream(Uint32Array, out, chunkElements) : new ArrayStream(Uint16Array, out, chunkElements);
    visitPostings(plan, f, (input, from) => positions.pushRange(input.positions, input.positionOffsets[from], input.positionOffsets[from + 1]));
    positions.end();
    appendWhole(out, fieldLengths(plan, f));
  }
  // The merged terms and written words were merged as bytes (postings-merge.ts): no string per term.
  for (const part of postingsFileTail(shape, docOffsets)) out.append(part);
}

/** Term offsets, postings and positions of a merged field, and the width its positions keep (as mergePostings decides it). */
function countField(plan: MergePlan, f: number): FieldCount {
  const termCount = plan.terms.length;
  const offsets = new Int32Array(termCount + 1);
  const wide = plan.sources.some((s) => s.postings.fields[f].positions.BYTES_PER_ELEMENT === 4);
  let postings = 0;
  let positions = 0;
  let widest = 0;
  visitPostings(
    plan,
    f,
    (input, from) => {
      postings++;
      const start = input.positionOffsets[from];
      const end = input.positionOffsets[from + 1];
      positions += end - start;
      if (wide) for (let i = start; i < end; i++) if (input.positions[i] > widest) widest = input.positions[i];
    },
    (t) => (offsets[t] = postings),
  );
  offsets[termCount] = postings;
  return { offsets, postings, positions, positionBytes: wide && widest > MAX_U16 ? 4 : 2 };
}

function fieldLengths(plan: MergePlan, f: number): Uint32Array {
  const lengths = new Uint32Array(plan.sourceOf.length);
  for (let o = 0; o < lengths.length; o++) lengths[o] = plan.sources[plan.sourceOf[o]].postings.fields[f].lengths[plan.sourceOrdinal[o]];
  return lengths;
}

function appendWhole(out: AtomicFileWriter, array: Int32Array | Uint32Array): void {
  out.append(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const padding = pad8(array.byteLength) - array.byteLength;
  if (padding > 0) out.append(new Uint8Array(padding));
}

type StreamArray = Int32Array | Uint16Array | Uint32Array;

/** One array of the file, appended a chunk at a time and padded to 8 bytes at its end. */
class ArrayStream<T extends StreamArray> {
  private chunk: T;
  private length = 0;
  private bytes = 0;

  constructor(
    private readonly Type: { new (length: number): T; BYTES_PER_ELEMENT: number },
    private readonly out: AtomicFileWriter,
    private readonly chunkElements: number,
  ) {
    this.chunk = new Type(chunkElements);
  }

  push(value: number): void {
    if (this.length === this.chunk.length) this.flush();
    this.chunk[this.length++] = value;
  }

  pushRange(source: StreamArray, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      if (this.length === this.chunk.length) this.flush();
      this.chunk[this.length++] = source[i];
    }
  }

  end(): void {
    this.flush();
    const padding = pad8(this.bytes) - this.bytes;
    if (padding > 0) this.out.append(new Uint8Array(padding));
  }

  private flush(): void {
    if (this.length === 0) return;
    const byteLength = this.length * this.Type.BYTES_PER_ELEMENT;
    // The writer may hold the chunk until it writes: each chunk is a buffer of its own.
    this.out.append(new Uint8Array(this.chunk.buffer, 0, byteLength));
    this.bytes += byteLength;
    this.chunk = new this.Type(this.chunkElements);
    this.length = 0;
  }
}
