/**
 * Postings left in the segment's file and read a term at a time. Opening a segment reads its
 * header, page ids, term offsets and field lengths (a few bytes per page and per term); each
 * term's documents, frequencies and word positions are read when a query asks for them (one
 * positioned read each, through the index's {@link PostingsCache}). At a million pages that keeps
 * gigabytes of postings out of the process: the operating system's page cache holds the files.
 *
 * The file stays open as long as a segment that reads it can be reached: a query may hold a
 * snapshot whose files a later generation removed, and an open file keeps its bytes. The
 * descriptor is closed when the segment is collected (FinalizationRegistry), never while a query
 * could still read it, so a descriptor number is never reused under a reader.
 */
import { closeSync } from 'node:fs';
import { readCounted } from './file-reads.ts';
import { IndexCorruptError } from './errors.ts';
import type { CacheRead, PostingsCache, ReadMemory } from './postings-cache.ts';

/** An open postings file. */
export class PostingsFile {
  readonly id: number;

  constructor(
    readonly fd: number,
    readonly path: string,
    readonly cache: PostingsCache,
  ) {
    this.id = cache.fileId();
    closeWhenCollected(this, fd);
  }

  /** `length` elements of `Type` at byte `position` (a copy of our own, aligned; in the cache's slabs when read for it). */
  read<T extends TypedArray>(Type: ArrayType<T>, position: number, length: number): T {
    return this.readInto(Type, position, length, this.cache.memory(length * Type.BYTES_PER_ELEMENT), 0);
  }

  /** `length` elements of `Type` at byte `position`, read into `memory` at `at` bytes from its start. */
  readInto<T extends TypedArray>(Type: ArrayType<T>, position: number, length: number, memory: ReadMemory, at: number): T {
    const byteLength = length * Type.BYTES_PER_ELEMENT;
    const array = new Type(memory.buffer, memory.byteOffset + at, length);
    const bytes = new Uint8Array(memory.buffer, memory.byteOffset + at, byteLength);
    let done = 0;
    while (done < byteLength) {
      const n = readCounted(this.fd, bytes, done, byteLength - done, position + done);
      if (n === 0) throw new IndexCorruptError(`${this.path} is truncated`);
      done += n;
    }
    return array;
  }
}

type TypedArray = Int32Array | Uint16Array | Uint32Array | Uint8Array | Float64Array;
interface ArrayType<T extends TypedArray> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  BYTES_PER_ELEMENT: number;
}

const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to give back.
  }
});

/** Closes `fd` once `owner` is collected: never while a query that can reach the owner could still read it. */
export function closeWhenCollected(owner: object, fd: number): void {
  descriptors.register(owner, fd);
}

/** Where one field's postings lie in the file. */
export interface PagedField {
  file: PostingsFile;
  field: number;
  /** Byte positions of the field's arrays in the file. */
  docsAt: number;
  tfAt: number;
  positionOffsetsAt: number;
  positionsAt: number;
  positionBytes: 2 | 4;
}

/** A term's postings in one field: its documents (ascending ordinals) and their frequencies. */
export interface TermPostings {
  docs: Int32Array;
  tf: Uint16Array;
}

/**
 * A term's word positions in one field: posting i's positions are
 * positions[starts[i] − base .. starts[i + 1] − base).
 */
export interface TermPositions {
  starts: Int32Array;
  base: number;
  positions: Uint16Array | Uint32Array;
}

// Keys of the cache: file, field, kind (postings or positions) and term number in one number.
const TERM_SPACE = 2 ** 26;
const cacheKey = (paged: PagedField, kind: 0 | 1, t: number) => ((paged.file.id * 16 + paged.field) * 2 + kind) * TERM_SPACE + t;

/** The postings of term `t` (`from`..`end`, its range in the field's arrays), read or cached. */
export function readTermPostings(paged: PagedField, t: number, from: number, end: number): TermPostings {
  if (t >= TERM_SPACE) return loadPostings(paged, from, end).value;
  return paged.file.cache.get(cacheKey(paged, 0, t), () => loadPostings(paged, from, end), viewPostings);
}

/** Documents and frequencies in one piece of memory: one allocation a list, and what the cache keeps. */
function loadPostings(paged: PagedField, from: number, end: number): CacheRead<TermPostings> {
  const n = end - from;
  const { file } = paged;
  const memory = file.cache.memory(n * 6);
  file.readInto(Int32Array, paged.docsAt + from * 4, n, memory, 0);
  file.readInto(Uint16Array, paged.tfAt + from * 2, n, memory, n * 4);
  return { value: viewPostings(memory, n), bytes: n * 6 + 64, shape: n };
}

const viewPostings = (memory: ReadMemory, n: number): TermPostings => ({
  docs: new Int32Array(memory.buffer, memory.byteOffset, n),
  tf: new Uint16Array(memory.buffer, memory.byteOffset + n * 4, n),
});

/** The word positions of one posting (index `p` in the field's arrays), read uncached: a snippet needs a page's, not the term's. */
export function readPostingPositions(paged: PagedField, p: number): Uint16Array | Uint32Array {
  const [start, end] = paged.file.read(Int32Array, paged.positionOffsetsAt + p * 4, 2);
  if (end < start) throw new IndexCorruptError(`${paged.file.path} has word positions out of order`);
  return paged.positionBytes === 4 ? paged.file.read(Uint32Array, paged.positionsAt + start * 4, end - start) : paged.file.read(Uint16Array, paged.positionsAt + start * 2, end - start);
}

/** The word positions of term `t`'s postings `from`..`end`, read or cached. */
export function readTermPositions(paged: PagedField, t: number, from: number, end: number): TermPositions {
  if (t >= TERM_SPACE) return loadPositions(paged, from, end).value;
  const view = paged.positionBytes === 4 ? viewPositions32 : viewPositions16;
  return paged.file.cache.get(cacheKey(paged, 1, t), () => loadPositions(paged, from, end), view);
}

/**
 * The starts are read here first (their last one, less the first, says how much memory the
 * positions take), then copied in front of the positions: two reads a list. Reused by every
 * read, which is synchronous.
 */
let startsScratch = new Int32Array(1024);

/** The postings' starts then their positions, in one piece of memory: what the cache keeps. */
function loadPositions(paged: PagedField, from: number, end: number): CacheRead<TermPositions> {
  const { file, positionBytes } = paged;
  const n = end - from;
  if (startsScratch.length < n + 1) startsScratch = new Int32Array(Math.max(n + 1, startsScratch.length * 2));
  const read = file.readInto(Int32Array, paged.positionOffsetsAt + from * 4, n + 1, { buffer: startsScratch.buffer, byteOffset: 0 }, 0);
  const base = read[0];
  const count = read[n] - base;
  if (count < 0) throw new IndexCorruptError(`${file.path} has word positions out of order`);
  const startsBytes = (n + 1) * 4;
  const memory = file.cache.memory(startsBytes + count * positionBytes);
  new Int32Array(memory.buffer, memory.byteOffset, n + 1).set(read);
  if (positionBytes === 4) file.readInto(Uint32Array, paged.positionsAt + base * 4, count, memory, startsBytes);
  else file.readInto(Uint16Array, paged.positionsAt + base * 2, count, memory, startsBytes);
  const value = positionBytes === 4 ? viewPositions32(memory, n) : viewPositions16(memory, n);
  return { value, bytes: startsBytes + count * positionBytes + 64, shape: n };
}

/** Term positions viewed in their memory: `n + 1` starts, then the positions they delimit. */
function viewPositions<P extends Uint16Array | Uint32Array>(memory: ReadMemory, n: number, Positions: { new (buffer: ArrayBuffer, byteOffset: number, length: number): P }): TermPositions {
  const starts = new Int32Array(memory.buffer, memory.byteOffset, n + 1);
  const base = starts[0];
  return { starts, base, positions: new Positions(memory.buffer, memory.byteOffset + (n + 1) * 4, starts[n] - base) };
}
const viewPositions16 = (memory: ReadMemory, n: number) => viewPositions(memory, n, Uint16Array);
const viewPositions32 = (memory: ReadMemory, n: number) => viewPositions(memory, n, Uint32Array);
