/**
 * A counting semaphore: at most `limit` holders at a time, waiters served first come, first
 * served. The fetcher's global concurrency limit.
 */

export class SemaphoreAbortedError extends Error {
  constructor() {
    super('aborted while waiting for a free slot');
    this.name = 'SemaphoreAbortedError';
  }
}

export type Release = () => void;

export class Semaphore {
  readonly limit: number;
  #active = 0;
  readonly #waiters: Array<{ grant: (release: Release) => void }> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new SemaphoreAbortedError());
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: (release: Release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(new SemaphoreAbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      // Hand the slot straight to the next waiter: the count stays the same.
      if (next) next.grant(this.#releaser());
      else this.#active--;
    };
  }
}
