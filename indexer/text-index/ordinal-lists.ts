/**
 * Sets of document ordinals as ascending typed arrays: the union of a clause's lists and the
 * intersection of required clauses, in tight loops over the arrays (no per-document calls).
 * Long lists are combined through a bitmap of the segment's documents instead: setting a bit per
 * posting has no branch to mispredict, where a merge of two long lists mispredicts about one
 * comparison in two.
 */

/** The lists as one, ascending, without repeats (one list: itself). Merged two at a time, shortest first. */
export function unionSorted(lists: readonly Int32Array[]): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  const ordered = [...lists].sort((a, b) => a.length - b.length);
  let union = ordered[0];
  for (let i = 1; i < ordered.length; i++) union = mergeTwo(union, ordered[i]);
  return union;
}

function mergeTwo(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x < y) out[n++] = a[i++];
    else if (y < x) out[n++] = b[j++];
    else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++];
  while (j < b.length) out[n++] = b[j++];
  return out.subarray(0, n);
}

/**
 * The ordinals of `a` that `b` holds too. Walks both when their sizes are close, else gallops in
 * the longer one from each ordinal of the shorter.
 */
export function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(short.length);
  let n = 0;
  if (long.length > short.length * 16) {
    let at = 0;
    for (let i = 0; i < short.length && at < long.length; i++) {
      at = seek(long, at, long.length, short[i]);
      if (at < long.length && long[at] === short[i]) out[n++] = short[i];
    }
    return out.subarray(0, n);
  }
  let i = 0;
  let j = 0;
  while (i < short.length && j < long.length) {
    const x = short[i];
    const y = long[j];
    if (x < y) i++;
    else if (y < x) j++;
    else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/** The first index in docs[from .. end) at or after `from` whose document is ≥ `d` (end if none). */
export function seek(docs: Int32Array, from: number, end: number, d: number): number {
  if (from >= end || docs[from] >= d) return from;
  // Gallop: most seeks move a few postings, some jump far.
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && docs[hi] < d) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  // docs[lo] < d; the answer is in (lo, hi].
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A bitmap of a segment's document ordinals (bit d of word d >>> 5). */
export function emptyBits(documents: number): Uint32Array {
  return new Uint32Array((documents + 31) >>> 5);
}

/** Sets the bits of every ordinal of the lists. */
export function setBits(bits: Uint32Array, lists: readonly Int32Array[]): void {
  for (const docs of lists) {
    for (let p = 0; p < docs.length; p++) {
      const d = docs[p];
      bits[d >>> 5] |= 1 << (d & 31);
    }
  }
}

/**
 * The ordinals whose bits are set, ascending, in an array of their number: counted first (a pass
 * over the words), rather than room for every posting of the lists that set them. Arrays made by a
 * search live outside V8's heap; at a million pages, room for a common word's postings in each
 * segment (400 KB a segment, zero-filled) was most of what a search allocated there, and beside
 * an update such allocations make the main thread mark the heap.
 */
export function ordinalsOfBits(bits: Uint32Array): Int32Array {
  const out = new Int32Array(countBits(bits));
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w];
    while (word !== 0) {
      const low = word & -word;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return out;
}

/** How many bits are set. */
export function countBits(bits: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w];
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += Math.imul((word + (word >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return count;
}

/**
 * Working memory for a synchronous step that does not keep it: `length` elements (not cleared),
 * the same memory at every call, so valid only until the next call. It grows and is kept, instead
 * of an array made and dropped per segment of every search.
 */
function reusedArray<T extends Uint32Array | Int32Array>(make: (length: number) => T): (length: number) => T {
  let array = make(1024);
  return (length) => {
    if (array.length < length) array = make(Math.max(length, array.length * 2));
    return array.subarray(0, length) as T;
  };
}

/** Reused words (a bitmap made and read within one step). */
export const scratchWords = reusedArray((length) => new Uint32Array(length));
/** Reused ordinals (gathered, then copied out). */
export const scratchOrdinals = reusedArray((length) => new Int32Array(length));

/** The ordinals of `candidates` whose bits are set (a new array). */
export function keepSetBits(candidates: Int32Array, bits: Uint32Array): Int32Array {
  const out = new Int32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) {
    const d = candidates[i];
    out[n] = d;
    n += (bits[d >>> 5] >>> (d & 31)) & 1;
  }
  return out.subarray(0, n);
}
