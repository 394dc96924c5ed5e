/**
 * The index's reads of its own files on the thread that searches: how many, how many bytes and
 * how long they took, counted since the thread started. A search reads its lists and passages
 * with synchronous reads (from the kernel's page cache, or from the disk when the cache has
 * dropped them); the slow-search log takes the difference around one search to tell time spent
 * waiting on the disk from time spent computing.
 */
import { readSync } from 'node:fs';

export interface FileReads {
  count: number;
  bytes: number;
  ms: number;
}

const reads: FileReads = { count: 0, bytes: 0, ms: 0 };

/** The counts so far (a copy). */
export function fileReadsSoFar(): FileReads {
  return { ...reads };
}

/** `readSync` of up to `length` bytes at `position`, timed and counted. */
export function readCounted(fd: number, bytes: Uint8Array, offset: number, length: number, position: number): number {
  const started = performance.now();
  const n = readSync(fd, bytes, offset, length, position);
  reads.ms += performance.now() - started;
  reads.count++;
  reads.bytes += n;
  return n;
}
