/**
 * A small, fast, seedable PRNG (mulberry32): the same seed gives the same crawl selection, the
 * same demo web, the same test data. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  const stream = randomStream(seed);
  return () => stream.next();
}

/** The generator with its state in view: a stream restarted from `state` draws what this one draws next. */
export interface RandomStream {
  next(): number;
  /** A 32-bit unsigned integer. */
  readonly state: number;
}

export function randomStream(state: number): RandomStream {
  let current = state >>> 0;
  return {
    next() {
      current = (current + 0x6d2b79f5) >>> 0;
      let t = current;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    get state() {
      return current;
    },
  };
}
