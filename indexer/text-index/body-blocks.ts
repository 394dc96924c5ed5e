/**
 * How a body lies in a segment's text file. A head's `body` tells, by its length:
 * - `[offset, bytes, chars]` — raw UTF-8 (segments written before compression, and bodies that
 *   compression would not make smaller);
 * - `[offset, storedBytes, chars, rawBytes]` — one raw-deflate stream of the whole body;
 * - `[offset, storedBytes, chars, rawBytes, blockBytes, length₀, …, lengthₙ₋₁]` — n raw-deflate
 *   streams, each of `blockBytes` raw bytes (the last one shorter), one after another, with
 *   their stored lengths.
 * The second entry is always the stored length, so a merge copies any body verbatim and moves
 * only its offset. Checkpoints keep raw byte offsets: a window maps to blocks by division and
 * inflates only the blocks it covers, not a whole reference page.
 *
 * A document's definitions (JSON, read whole) follow its body: `defined: [offset, bytes]` raw,
 * `[offset, storedBytes, rawBytes]` one raw-deflate stream.
 */
import { blockKey, type BodyBlockCache } from './body-block-cache.ts';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { IndexCorruptError } from './errors.ts';

/**
 * Raw bytes per independently inflatable block. On the 150 longest documentation pages, 16 KB
 * blocks keep 5.2x of whole-page deflate's 5.7x, and a 1 KB window costs about 30 µs to read
 * (`npm run bench -- body-compression`).
 */
export const BODY_BLOCK_BYTES = 16_384;
/** zlib's fastest level: about the ratio of level 6 on short pages (1.96x against 1.99x), 1.2–1.6x as fast. */
const LEVEL = 1;

/** A body as it is written: the head's `body` entries after the offset, and the bytes to append. */
export interface EncodedBody {
  entries: number[];
  chunks: Uint8Array[];
}

/** Compresses a body in blocks when that makes it smaller; raw otherwise (`blockBytes`: for benchmarks). */
export function encodeBody(raw: Uint8Array, chars: number, blockBytes = BODY_BLOCK_BYTES): EncodedBody {
  const chunks: Uint8Array[] = [];
  const lengths: number[] = [];
  let stored = 0;
  for (let at = 0; at < raw.length && stored < raw.length; at += blockBytes) {
    const block = deflateRawSync(raw.subarray(at, at + blockBytes), { level: LEVEL });
    chunks.push(block);
    lengths.push(block.length);
    stored += block.length;
  }
  if (raw.length === 0 || stored >= raw.length) return { entries: [raw.length, chars], chunks: [raw] };
  const entries = [stored, chars, raw.length];
  if (lengths.length > 1) entries.push(blockBytes, ...lengths);
  return { entries, chunks };
}

/** Definitions JSON as written: the `defined` entries after the offset, and the bytes to append. */
export function encodeDefinitions(raw: Uint8Array): { entries: number[]; bytes: Uint8Array } {
  const stored = deflateRawSync(raw, { level: LEVEL });
  return stored.length < raw.length ? { entries: [stored.length, raw.length], bytes: stored } : { entries: [raw.length], bytes: raw };
}

/** The definitions JSON bytes of a `defined` entry. */
export function readDefinitionBytes(defined: readonly number[], read: ReadStored, segment: string): Uint8Array {
  const [at, storedBytes, rawBytes] = defined;
  if ((defined.length !== 2 && defined.length !== 3) || !defined.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new IndexCorruptError(`a document of segment ${segment} has an unreadable definitions entry`);
  }
  const stored = read(at, storedBytes);
  return defined.length === 2 ? stored : inflateBlock(stored, rawBytes, segment);
}

/** Where a body's bytes lie (offsets relative to `at`), checked against what its entries claim. */
export interface BodyLayout {
  at: number;
  storedBytes: number;
  chars: number;
  rawBytes: number;
  /** Raw bytes per block (0: stored raw). */
  blockBytes: number;
  /** Start of each block in the stored bytes, plus the end. */
  blockStarts: number[];
}

export function bodyLayout(body: readonly number[], segment: string): BodyLayout {
  const [at, storedBytes, chars] = body;
  const bad = () => new IndexCorruptError(`a document of segment ${segment} has an unreadable body entry [${body.slice(0, 6).join(',')}]`);
  if (!body.every((n) => Number.isSafeInteger(n) && n >= 0)) throw bad();
  if (body.length === 3) return { at, storedBytes, chars, rawBytes: storedBytes, blockBytes: 0, blockStarts: [0, storedBytes] };
  const rawBytes = body[3];
  if (body.length === 4) return { at, storedBytes, chars, rawBytes, blockBytes: Math.max(1, rawBytes), blockStarts: [0, storedBytes] };
  const blockBytes = body[4];
  const lengths = body.slice(5);
  if (blockBytes === 0 || lengths.length !== Math.ceil(rawBytes / blockBytes)) throw bad();
  const blockStarts = [0];
  for (const length of lengths) blockStarts.push(blockStarts[blockStarts.length - 1] + length);
  if (blockStarts[blockStarts.length - 1] !== storedBytes) throw bad();
  return { at, storedBytes, chars, rawBytes, blockBytes, blockStarts };
}

/** Reads `length` stored bytes at a file position (throws IndexCorruptError when they are not there). */
export type ReadStored = (position: number, length: number) => Uint8Array;

/** The raw bytes [from, to) of a body: read as they are, or the blocks that hold them inflated. */
export function readRawRange(layout: BodyLayout, from: number, to: number, read: ReadStored, segment: string, kept?: KeptBlocks): Uint8Array {
  const { at, rawBytes, blockBytes, blockStarts } = layout;
  to = Math.min(to, rawBytes);
  if (to <= from) return new Uint8Array(0);
  if (blockBytes === 0) return read(at + from, to - from);
  const first = Math.floor(from / blockBytes);
  const last = Math.floor((to - 1) / blockBytes);
  // The blocks kept, and one read for the stored span from the first block not kept to the last.
  const blocks: Array<Uint8Array | undefined> = [];
  let readFrom = -1;
  let readTo = -1;
  for (let b = first; b <= last; b++) {
    const block = kept?.cache.get(blockKey(kept.file, at + blockStarts[b]));
    blocks.push(block);
    if (block !== undefined) continue;
    if (readFrom < 0) readFrom = b;
    readTo = b;
  }
  const stored = readFrom < 0 ? null : read(at + blockStarts[readFrom], blockStarts[readTo + 1] - blockStarts[readFrom]);
  const out = new Uint8Array(to - from);
  for (let b = first; b <= last; b++) {
    const blockStart = b * blockBytes;
    const expected = Math.min(blockBytes, rawBytes - blockStart);
    let block = blocks[b - first];
    if (block === undefined) {
      block = inflateBlock(stored!.subarray(blockStarts[b] - blockStarts[readFrom], blockStarts[b + 1] - blockStarts[readFrom]), expected, segment);
      kept?.cache.set(blockKey(kept.file, at + blockStarts[b]), block);
    }
    const lo = Math.max(from, blockStart);
    const hi = Math.min(to, blockStart + expected);
    out.set(block.subarray(lo - blockStart, hi - blockStart), lo - from);
  }
  return out;
}

/** Inflated blocks to take from, and keep in, for the body's file. */
export interface KeptBlocks {
  cache: BodyBlockCache;
  file: string;
}

function inflateBlock(stored: Uint8Array, expected: number, segment: string): Uint8Array {
  let block: Uint8Array;
  try {
    // The cap stops a damaged stream from inflating past what the head promises.
    block = inflateRawSync(stored, { maxOutputLength: Math.max(1, expected) });
  } catch (error) {
    throw new IndexCorruptError(`compressed text of segment ${segment} is damaged: ${(error as Error).message}`, { cause: error });
  }
  if (block.length !== expected) throw new IndexCorruptError(`compressed text of segment ${segment} inflates to ${block.length} bytes, not ${expected}`);
  return block;
}
