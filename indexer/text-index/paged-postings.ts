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
import { closeSync, readSync } from 'node:fs';
import { IndexCorruptError } from './errors.ts';
import type { PostingsCache, ReadMemory } from './postings-cache.ts';

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
      const n = readSync(this.fd, bytes, done, byteLength - done, position + done);
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
  return paged.file.cache.get(cacheKey(paged, 0, t), () => loadPostings(paged, from, end));
}

function loadPostings(paged: PagedField, from: number, end: number): { value: TermPostings; bytes: number } {
  const n = end - from;
  // Documents and frequencies in one piece of memory: one allocation a list.
  const { file } = paged;
  const memory = file.cache.memory(n * 6);
  const docs = file.readInto(Int32Array, paged.docsAt + from * 4, n, memory, 0);
  const tf = file.readInto(Uint16Array, paged.tfAt + from * 2, n, memory, n * 4);
  return { value: { docs, tf }, bytes: n * 6 + 64 };
}

/** The word positions of one posting (index `p` in the field's arrays), read uncached: a snippet needs a page's, not the term's. */
export function readPostingPositions(paged: PagedField, p: number): Uint16Array | Uint32Array {
  const [start, end] = paged.file.read(Int32Array, paged.positionOffsetsAt + p * 4, 2);
  if (end < start) throw new IndexCorruptError(`${paged.file.path} has word positions out of order`);
  return paged.positionBytes === 4 ? paged.file.read(Uint32Array, paged.positionsAt + start * 4, end - start) : paged.file.read(Uint16Array, paged.positionsAt + start * 2, end - start);
}

/** The word positions of term `t`'s postings `from`..`end`, read or cached. */
export function readTermPositions(paged: PagedField, t: number, from: number, end: number): TermPositions {
  if (t >= TERM_SPACE) return loadPositions(paged, from, end).value;
  return paged.file.cache.get(cacheKey(paged, 1, t), () => loadPositions(paged, from, end));
}

function loadPositions(paged: PagedField, from: number, end: number): { value: TermPositions; bytes: number } {
  const starts = paged.file.read(Int32Array, paged.positionOffsetsAt + from * 4, end - from + 1);
  const base = starts[0];
  const count = starts[end - from] - base;
  if (count < 0) throw new IndexCorruptError(`${paged.file.path} has word positions out of order`);
  const positions = paged.positionBytes === 4 ? paged.file.read(Uint32Array, paged.positionsAt + base * 4, count) : paged.file.read(Uint16Array, paged.positionsAt + base * 2, count);
  return { value: { starts, base, positions }, bytes: starts.byteLength + positions.byteLength + 64 };
}
