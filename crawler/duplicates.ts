/**
 * Exact and near-duplicate pages (docs/crawling.md).
 *
 * Exact: a 64-bit fingerprint of the normalised text (the first 8 bytes of its SHA-256), so
 * markup, case and spacing changes do not count as changes.
 *
 * Near: the text's word `w`-shingles (w = 5) are hashed with one 64-bit hash, and a page keeps
 *   - a bottom-s sketch: the s = 128 smallest shingle hashes. The resemblance of two pages is
 *     estimated as in §7: r' = |MIN_s(M(A) ∪ M(B)) ∩ M(A) ∩ M(B)| / |MIN_s(M(A) ∪ M(B))|,
 *     unbiased for the Jaccard resemblance of the shingle sets (exact when both sets have fewer
 *     than s shingles). One hash and min-s instead of k independent hashes: one pass, one hash
 *     per shingle, and no bias from a poor family of k hash functions.
 *   - an LSH signature for finding candidate pairs without comparing all pairs: bottom-s values
 *     are not aligned between pages, so banding uses one-permutation hashing with the same hash:
 *     the hash range is cut into b·r bins and each bin keeps its minimum (an empty bin borrows
 *     from the next non-empty bin to its right, "rotation densification"). Two pages agree on a
 *     bin with probability ≈ their resemblance J, so with b bands of r bins a pair becomes a
 *     candidate with probability 1 − (1 − J^r)^b: for b = 16, r = 8, 95% at J = 0.8, 6% at J = 0.5.
 *   Candidates are then confirmed with the bottom-s estimate.
 * The 64-bit shingle hash is two 32-bit MurmurHash3-style lanes with different seeds.
 */
import { createHash } from 'node:crypto';

export interface SketchOptions {
  /** Words per shingle (w). */
  readonly shingleSize?: number;
  /** Size of the bottom-s sketch (s). */
  readonly sketchSize?: number;
  /** LSH bands (b) and rows per band (r). */
  readonly bands?: number;
  readonly rows?: number;
}

export const SKETCH_DEFAULTS = { shingleSize: 5, sketchSize: 128, bands: 16, rows: 8 } as const;

export interface MinHashSketch {
  /** The smallest distinct shingle hashes, ascending (at most `sketchSize`). */
  readonly minima: BigUint64Array;
  readonly sketchSize: number;
  /** One minimum per LSH bin (`bands × rows`), densified; empty for a text without words. */
  readonly bins: BigUint64Array;
  readonly bands: number;
  readonly rows: number;
  /** Distinct shingles of the text. */
  readonly shingleCount: number;
}

/**
 * Lower-case, Unicode-normalised (NFKC) words of a text, separated by single spaces: the same as
 * `.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()` on the lower-cased NFKC text. One pass over the
 * characters into a reused buffer: the regular-expression version allocated ~20 bytes per
 * character of text (most of a crawl's garbage), this one the result string.
 */
export function normalizeText(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  // NFKC leaves ASCII alone, and ASCII letters are lower-cased in the loop below.
  const source = ascii ? text : text.normalize('NFKC').toLowerCase();
  if (wordBuffer.length < source.length) wordBuffer = new Uint16Array(Math.ceil(source.length * 1.25));
  const out = wordBuffer;
  let n = 0;
  let wide = false; // a character above U+00FF was written
  let space = false; // a separator is due before the next word character
  for (let i = 0; i < source.length; i++) {
    let c = source.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39))) {
        space = true;
        continue;
      }
      if (space && n > 0) out[n++] = 0x20;
      space = false;
      out[n++] = c;
      continue;
    }
    let codePoint = c;
    let units = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < source.length) {
      const low = source.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        units = 2;
      }
    }
    if (!isLetterOrNumber(codePoint)) {
      space = true;
      continue;
    }
    if (space && n > 0) out[n++] = 0x20;
    space = false;
    out[n++] = c;
    if (units === 2) out[n++] = source.charCodeAt(++i);
    if (c > 0xff) wide = true;
  }
  if (!wide) {
    if (latinBuffer.length < n) latinBuffer = Buffer.allocUnsafe(Math.ceil(n * 1.25));
    for (let k = 0; k < n; k++) latinBuffer[k] = out[k];
    return latinBuffer.toString('latin1', 0, n);
  }
  return utf16Decoder.decode(out.subarray(0, n));
}

let wordBuffer = new Uint16Array(4096);
let latinBuffer = Buffer.allocUnsafe(4096);
const utf16Decoder = new TextDecoder('utf-16le');

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
/** Letters and numbers of the Basic Multilingual Plane, looked up once each: 0 unknown, 1 yes, 2 no. */
const bmpWordClass = new Uint8Array(0x10000);

function isLetterOrNumber(codePoint: number): boolean {
  if (codePoint >= 0x10000) return LETTER_OR_NUMBER.test(String.fromCodePoint(codePoint));
  let known = bmpWordClass[codePoint];
  if (known === 0) {
    // Lone surrogates are no code point of a word.
    known = codePoint < 0xd800 || codePoint > 0xdfff ? (LETTER_OR_NUMBER.test(String.fromCharCode(codePoint)) ? 1 : 2) : 2;
    bmpWordClass[codePoint] = known;
  }
  return known === 1;
}

export function words(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** 64-bit fingerprint of the normalised text: equal for exact duplicates. */
export function textFingerprint(text: string): bigint {
  return normalizedFingerprint(normalizeText(text));
}

/** {@link textFingerprint} of a text already passed through {@link normalizeText}. */
export function normalizedFingerprint(normalized: string): bigint {
  return createHash('sha256').update(normalized).digest().readBigUInt64BE(0);
}

/** A fingerprint as 16 hex digits (for storage keys). */
export function fingerprintHex(fingerprint: bigint): string {
  return fingerprint.toString(16).padStart(16, '0');
}

export class SketchOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SketchOptionError';
  }
}

function resolveOptions(options: SketchOptions): Required<SketchOptions> {
  const resolved = { ...SKETCH_DEFAULTS, ...options };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) throw new SketchOptionError(`${name} must be a positive integer, got ${value}`);
  }
  return resolved;
}

/**
 * The distinct 64-bit hashes of the text's w-shingles, ascending. A text shorter than w words
 * is one shingle of all its words; a text without words has none.
 */
export function shingleHashes(text: string, shingleSize: number = SKETCH_DEFAULTS.shingleSize): BigUint64Array {
  return scratchHashes(normalizeText(text), shingleSize).slice();
}

/** Bottom-s sketch and LSH bins of a text. */
export function sketchText(text: string, options: SketchOptions = {}): MinHashSketch {
  return sketchNormalized(normalizeText(text), options);
}

/** {@link sketchText} of a text already passed through {@link normalizeText}. */
export function sketchNormalized(normalized: string, options: SketchOptions = {}): MinHashSketch {
  const { shingleSize, sketchSize, bands, rows } = resolveOptions(options);
  const hashes = scratchHashes(normalized, shingleSize);
  return {
    minima: hashes.slice(0, sketchSize),
    sketchSize,
    bins: onePermutationBins(hashes, bands * rows),
    bands,
    rows,
    shingleCount: hashes.length,
  };
}

// Scratch space reused from page to page: word hashes (two lanes) and shingle hashes, the latter
// written as 32-bit halves so that no BigInt is made per shingle.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = 1 - LOW;
let laneA = new Uint32Array(1024);
let laneB = new Uint32Array(1024);
let shingles = new BigUint64Array(1024);
let shingleWords = new Uint32Array(shingles.buffer);

/**
 * The distinct shingle hashes of a normalised text, ascending, in the scratch array (valid until
 * the next call). Words are hashed in place, without splitting the text into strings.
 */
function scratchHashes(normalized: string, shingleSize: number): BigUint64Array {
  if (normalized === '') return shingles.subarray(0, 0);
  if (laneA.length < normalized.length) {
    laneA = new Uint32Array(normalized.length);
    laneB = new Uint32Array(normalized.length);
  }
  let wordCount = 0;
  let start = 0;
  for (let i = 0; i <= normalized.length; i++) {
    if (i < normalized.length && normalized.charCodeAt(i) !== 0x20) continue;
    // MurmurHash3-style, two UTF-16 code units per block, one seed per lane.
    let a = 0x9747b28c;
    let b = 0x5bd1e995;
    let k = start;
    for (; k + 1 < i; k += 2) {
      const block = normalized.charCodeAt(k) | (normalized.charCodeAt(k + 1) << 16);
      a = mix32(a, block);
      b = mix32(b, block);
    }
    if (k < i) {
      const block = normalized.charCodeAt(k);
      a = mix32(a, block);
      b = mix32(b, block);
    }
    laneA[wordCount] = finish32(a, i - start);
    laneB[wordCount] = finish32(b, i - start);
    wordCount++;
    start = i + 1;
  }
  const width = Math.min(shingleSize, wordCount);
  const count = wordCount - width + 1;
  if (shingles.length < count) {
    shingles = new BigUint64Array(count);
    shingleWords = new Uint32Array(shingles.buffer);
  }
  for (let first = 0; first < count; first++) {
    let a = 0x3c6ef372;
    let b = 0x1b873593;
    for (let k = first; k < first + width; k++) {
      a = mix32(a, laneA[k]);
      b = mix32(b, laneB[k]);
    }
    shingleWords[2 * first + HIGH] = finish32(a, width);
    shingleWords[2 * first + LOW] = finish32(b, width);
  }
  const hashes = shingles.subarray(0, count);
  hashes.sort();
  const words = shingleWords;
  let distinct = 0;
  for (let read = 0; read < count; read++) {
    const high = words[2 * read + HIGH];
    const low = words[2 * read + LOW];
    if (distinct > 0 && high === words[2 * distinct - 2 + HIGH] && low === words[2 * distinct - 2 + LOW]) continue;
    words[2 * distinct + HIGH] = high;
    words[2 * distinct + LOW] = low;
    distinct++;
  }
  return shingles.subarray(0, distinct);
}

/**
 * The §7 estimate of the resemblance of two pages from their bottom-s sketches (0…1). Two empty
 * texts resemble each other fully; an empty and a non-empty one not at all.
 */
export function resemblance(a: MinHashSketch, b: MinHashSketch): number {
  const s = Math.min(a.sketchSize, b.sketchSize);
  const x = a.minima;
  const y = b.minima;
  if (x.length === 0 || y.length === 0) return x.length === y.length ? 1 : 0;
  // Walk MIN_s(M(A) ∪ M(B)) in ascending order, counting elements present in both sketches.
  let i = 0;
  let j = 0;
  let union = 0;
  let shared = 0;
  while (union < s && (i < x.length || j < y.length)) {
    if (j >= y.length || (i < x.length && x[i] < y[j])) i++;
    else if (i >= x.length || y[j] < x[i]) j++;
    else {
      shared++;
      i++;
      j++;
    }
    union++;
  }
  return shared / union;
}

/** Exact Jaccard resemblance of two texts' shingle sets (the quantity `resemblance` estimates). */
export function shingleResemblance(textA: string, textB: string, shingleSize: number = SKETCH_DEFAULTS.shingleSize): number {
  const a = shingleHashes(textA, shingleSize);
  const b = shingleHashes(textB, shingleSize);
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (b[j] < a[i]) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared / (a.length + b.length - shared);
}

/**
 * LSH buckets over sketches: pages whose bins agree on all rows of some band are candidates.
 * Add pages one by one (as the crawler fetches them); each add returns the earlier pages that
 * share a bucket with it.
 */
export class NearDuplicateIndex {
  readonly bands: number;
  readonly rows: number;
  readonly #buckets: Array<Map<number, number | number[]>>;
  #size = 0;

  constructor(options: Pick<SketchOptions, 'bands' | 'rows'> = {}) {
    const { bands, rows } = resolveOptions(options);
    this.bands = bands;
    this.rows = rows;
    this.#buckets = Array.from({ length: bands }, () => new Map<number, number | number[]>());
  }

  get size(): number {
    return this.#size;
  }

  /** Earlier pages sharing a band with `sketch`, ascending, without adding it. */
  candidates(sketch: MinHashSketch): number[] {
    const found: number[] = [];
    this.#forEachBand(sketch, (band, key) => {
      const bucket = this.#buckets[band].get(key);
      if (bucket === undefined) return;
      if (typeof bucket === 'number') found.push(bucket);
      else for (const id of bucket) found.push(id);
    });
    return ascendingDistinct(found);
  }

  /** Adds page `id` and returns the earlier pages it shares a band with. */
  add(id: number, sketch: MinHashSketch): number[] {
    return this.addKeys(id, this.bandKeys(sketch));
  }

  /** {@link add} by the page's band keys (as {@link bandKeys} gives them, e.g. saved with the page). */
  addKeys(id: number, keys: ArrayLike<number>): number[] {
    const found: number[] = [];
    for (let band = 0; band < keys.length; band++) {
      const key = keys[band];
      const buckets = this.#buckets[band];
      const bucket = buckets.get(key);
      if (bucket === undefined) {
        // Most buckets hold one page: a number, not an array.
        buckets.set(key, id);
      } else if (typeof bucket === 'number') {
        if (bucket !== id) found.push(bucket);
        buckets.set(key, [bucket, id]);
      } else {
        for (const other of bucket) if (other !== id) found.push(other);
        bucket.push(id);
      }
    }
    this.#size++;
    return ascendingDistinct(found);
  }

  /** The key of each band of a sketch's bins (none for a text without words). */
  bandKeys(sketch: MinHashSketch): Float64Array {
    const keys = new Float64Array(sketch.bins.length === 0 ? 0 : this.bands);
    this.#forEachBand(sketch, (band, key) => (keys[band] = key));
    return keys;
  }

  #forEachBand(sketch: MinHashSketch, visit: (band: number, key: number) => void): void {
    if (sketch.bands !== this.bands || sketch.rows !== this.rows) {
      throw new SketchOptionError(`sketch has ${sketch.bands}×${sketch.rows} bins, the index ${this.bands}×${this.rows}`);
    }
    if (sketch.bins.length === 0) return;
    const bins = new Uint32Array(sketch.bins.buffer, sketch.bins.byteOffset, sketch.bins.length * 2);
    for (let band = 0; band < this.bands; band++) visit(band, bandKey(bins, band * this.rows, this.rows));
  }
}

function ascendingDistinct(ids: number[]): number[] {
  if (ids.length < 2) return ids;
  ids.sort((x, y) => x - y);
  let write = 1;
  for (let read = 1; read < ids.length; read++) if (ids[read] !== ids[write - 1]) ids[write++] = ids[read];
  ids.length = write;
  return ids;
}

export interface NearDuplicatePair {
  readonly a: number;
  readonly b: number;
  readonly resemblance: number;
}

/** All pairs (a < b) with estimated resemblance ≥ threshold, found through LSH candidates. */
export function findNearDuplicates(sketches: readonly MinHashSketch[], threshold = 0.9): NearDuplicatePair[] {
  if (sketches.length === 0) return [];
  const index = new NearDuplicateIndex({ bands: sketches[0].bands, rows: sketches[0].rows });
  const pairs: NearDuplicatePair[] = [];
  sketches.forEach((sketch, b) => {
    for (const a of index.add(b, sketch)) {
      const r = resemblance(sketches[a], sketch);
      if (r >= threshold) pairs.push({ a, b, resemblance: r });
    }
  });
  return pairs.sort((x, y) => x.a - y.a || x.b - y.b);
}

// ---- hashing ----

function mix32(h: number, block: number): number {
  let k = Math.imul(block, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish32(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const TWO_32 = 4294967296;

/**
 * One-permutation hashing: bin = the hash's position in [0, 2^64) scaled to `binCount`; each bin
 * keeps its minimum. Empty bins take the nearest non-empty bin to the right (circularly), mixed
 * with the distance (× 0x9e3779b97f4a7c15 mod 2^64) so borrowed values differ from the originals.
 * Computed on 32-bit halves: no BigInt per hash.
 */
function onePermutationBins(hashes: BigUint64Array, binCount: number): BigUint64Array {
  if (hashes.length === 0) return new BigUint64Array(0);
  if (binCount >= 1 << 21) throw new SketchOptionError(`bands × rows must be below 2^21, got ${binCount}`);
  const source = new Uint32Array(hashes.buffer, hashes.byteOffset, hashes.length * 2);
  const dense = new BigUint64Array(binCount);
  const bins = new Uint32Array(dense.buffer);
  const filled = new Uint8Array(binCount);
  for (let k = 0; k < hashes.length; k++) {
    const high = source[2 * k + HIGH];
    const low = source[2 * k + LOW];
    // floor(hash × binCount / 2^64), exactly: every product stays below 2^53.
    const bin = Math.floor((high * binCount + Math.floor((low * binCount) / TWO_32)) / TWO_32);
    // Hashes arrive ascending, so the first one in a bin is its minimum.
    if (!filled[bin]) {
      filled[bin] = 1;
      bins[2 * bin + HIGH] = high;
      bins[2 * bin + LOW] = low;
    }
  }
  for (let bin = 0; bin < binCount; bin++) {
    if (filled[bin]) continue;
    let distance = 1;
    while (!filled[(bin + distance) % binCount]) distance++;
    const from = (bin + distance) % binCount;
    const product = distance * 0x7f4a7c15;
    const mixLow = product % TWO_32;
    const mixHigh = (distance * 0x9e3779b9 + Math.floor(product / TWO_32)) % TWO_32;
    bins[2 * bin + HIGH] = bins[2 * from + HIGH] ^ mixHigh;
    bins[2 * bin + LOW] = bins[2 * from + LOW] ^ mixLow;
  }
  return dense;
}

/** A 53-bit key for `rows` bins starting at `start` (exact keys would cost memory; a rare collision only adds a candidate). */
function bandKey(bins: Uint32Array, start: number, rows: number): number {
  let a = 0x2545f491;
  let b = 0x6c078965;
  for (let r = start; r < start + rows; r++) {
    const high = bins[2 * r + HIGH];
    const low = bins[2 * r + LOW];
    a = mix32(mix32(a, high), low);
    b = mix32(mix32(b, low), high);
  }
  return (finish32(a, rows) & 0x1fffff) * 0x100000000 + finish32(b, rows);
}
