/**
 * A page's near-duplicate sketch as saved beside it in the store (the `sketches` sublevel), so
 * that a resumed crawl reads the sketches of the pages it already holds instead of computing them
 * from every page's text again. Saved with the fingerprint of the text it was made from: a sketch
 * whose page has changed since (a re-crawl, an import) is not used, and is computed anew.
 *
 * Bytes, 8 each: shingle count, sketch size, bands, rows, number of band keys; the band keys
 * (NearDuplicateIndex.bandKeys); the minima. Stored as base64 in the store's JSON values.
 */
import type { StoredSketch } from '../indexer/store/crawl-store.ts';
import type { MinHashSketch } from './duplicates.ts';

const HEADER = 5;
const NO_BINS = new BigUint64Array(0);

export function encodeSketch(sketch: MinHashSketch, keys: Float64Array, fingerprint: string): StoredSketch {
  const bytes = new Uint8Array(8 * (HEADER + keys.length + sketch.minima.length));
  const numbers = new Float64Array(bytes.buffer, 0, HEADER + keys.length);
  numbers.set([sketch.shingleCount, sketch.sketchSize, sketch.bands, sketch.rows, keys.length]);
  numbers.set(keys, HEADER);
  new BigUint64Array(bytes.buffer, 8 * (HEADER + keys.length)).set(sketch.minima);
  return { fingerprint, data: Buffer.from(bytes.buffer).toString('base64') };
}

/** The sketch (without its bins: resemblance reads the minima) and band keys; undefined when the bytes do not add up. */
export function decodeSketch(stored: StoredSketch): { sketch: MinHashSketch; keys: Float64Array } | undefined {
  if (typeof stored?.data !== 'string') return undefined;
  const raw = Buffer.from(stored.data, 'base64');
  if (raw.byteLength < 8 * HEADER || raw.byteLength % 8 !== 0) return undefined;
  const bytes = new Uint8Array(raw); // aligned copy
  const header = new Float64Array(bytes.buffer, 0, HEADER);
  const [shingleCount, sketchSize, bands, rows, keyCount] = header;
  const minimaCount = bytes.byteLength / 8 - HEADER - keyCount;
  if (!Number.isInteger(keyCount) || keyCount < 0 || minimaCount < 0 || minimaCount > sketchSize) return undefined;
  const keys = new Float64Array(bytes.buffer, 8 * HEADER, keyCount);
  const minima = new BigUint64Array(bytes.buffer, 8 * (HEADER + keyCount), minimaCount);
  return { sketch: { minima, sketchSize, bins: NO_BINS, bands, rows, shingleCount }, keys };
}
