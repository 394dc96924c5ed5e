/**
 * The postings a query reads, kept in memory up to a byte budget (least recently used first out).
 * Opened segments leave their postings in their files (paged-postings.ts): a million pages hold
 * gigabytes of postings and word positions, and a workload asks for the same few thousand terms
 * again and again. The operating system's page cache keeps the files' bytes; this cache keeps them
 * decoded as typed arrays, so a term asked for twice is read once.
 */

/** 1 GB: the lists a varied workload reads at a million pages (256 MB thrashed there). */
export const DEFAULT_POSTINGS_CACHE_BYTES = 1024 * 1024 * 1024;

interface Entry {
  value: object;
  bytes: number;
}

export class PostingsCache {
  private readonly entries = new Map<number, Entry>();
  private used = 0;
  private nextFileId = 1;

  constructor(readonly budget = DEFAULT_POSTINGS_CACHE_BYTES) {}

  /** A number of its own for each file, part of the keys of what is read from it. */
  fileId(): number {
    return this.nextFileId++;
  }

  /** Bytes held now. */
  get size(): number {
    return this.used;
  }

  /** The value under `key`, or what `read` returns (kept when it fits in the budget). */
  get<T extends object>(key: number, read: () => { value: T; bytes: number }): T {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Map order is insertion order: moving a hit to the end keeps the least recent first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const { value, bytes } = read();
    if (bytes > this.budget) return value;
    this.used += bytes;
    this.entries.set(key, { value, bytes });
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
    return value;
  }
}
