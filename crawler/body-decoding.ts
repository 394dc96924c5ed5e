/**
 * Reading a response body through its content codings (gzip, deflate — zlib-wrapped or raw —
 * and brotli), keeping at most a given number of decoded bytes and flagging what was cut.
 *
 * A compressed body up to about the cap is read whole and decoded in one call (no stream per
 * response; on libuv's thread pool unless it is small); one that decodes to more than the cap, or
 * is itself larger than the cap, goes through streaming decoders that stop at the cap. Sync
 * flushes at the end tolerate a body cut short, as browsers do.
 */
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface BodyRead {
  readonly body: Buffer;
  readonly truncated: boolean;
}

export class UnsupportedEncodingError extends Error {
  readonly code = 'ELSE_UNSUPPORTED_ENCODING';
}

/** The codings of a Content-Encoding in decoding order; an unsupported one destroys the body and throws. */
function decodingOrder(body: Readable, contentEncoding: string | undefined): string[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const unsupported = codings.find((coding) => !SUPPORTED_CODINGS.has(coding));
  if (unsupported !== undefined) {
    body.destroy();
    throw new UnsupportedEncodingError(`unsupported content-encoding ${unsupported}`);
  }
  return codings;
}

/** Reads a body through its content decoders, keeping at most `maxBytes` decoded bytes. */
export async function readBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<BodyRead> {
  // Destroying an undici body before its end emits 'error' (RequestAbortedError) after our
  // reader has gone; errors while reading still reach the loops below through the iterator.
  body.on('error', ignore);
  const codings = decodingOrder(body, contentEncoding);
  if (codings.length === 0) return readCapped(body, body, maxBytes);

  const encoded: Buffer[] = [];
  let encodedSize = 0;
  const iterator = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let rest = false;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    encoded.push(next.value);
    encodedSize += next.value.length;
    if (encodedSize > maxBytes + ONE_SHOT_MARGIN) {
      rest = true;
      break;
    }
  }
  if (!rest) {
    try {
      return { body: await decodeWhole(Buffer.concat(encoded, encodedSize), codings, maxBytes), truncated: false };
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
      // Decodes to more than the cap: stream it again, keeping the first maxBytes.
    }
  }
  async function* encodedChunks(): AsyncGenerator<Buffer> {
    yield* encoded;
    if (!rest) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const stages = codings.map((coding) => decoderFor(coding)!);
  const source = stages[stages.length - 1];
  // Errors anywhere in the chain reach the last stage, which readCapped reads.
  pipeline([Readable.from(encodedChunks(), { objectMode: false }), ...stages], () => {});
  return readCapped(source, body, maxBytes);
}

/** Beyond the cap, a compressed body is decoded as a stream rather than read whole first. */
const ONE_SHOT_MARGIN = 64 * 1024;
const SUPPORTED_CODINGS = new Set(['gzip', 'x-gzip', 'br', 'deflate']);
// Sync flushes at the end tolerate a body cut short, as browsers do.
const GZIP_OPTIONS = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };
const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/**
 * Below this many encoded bytes a body is decoded on the main thread: handing a small body to
 * the thread pool costs the main thread more (10-17 us) than inflating it there (5-10 us).
 */
const DECODE_IN_PLACE_BYTES = 32 * 1024;

/** Applies the decoders (in decoding order) in one call each; ERR_BUFFER_TOO_LARGE beyond `maxBytes`. */
async function decodeWhole(data: Buffer, codings: readonly string[], maxBytes: number): Promise<Buffer> {
  let out = data;
  for (const coding of codings) {
    const inPlace = out.length < DECODE_IN_PLACE_BYTES;
    switch (coding) {
      case 'gzip':
      case 'x-gzip': {
        const options = { ...GZIP_OPTIONS, maxOutputLength: maxBytes };
        out = inPlace ? zlib.gunzipSync(out, options) : await gunzip(out, options);
        break;
      }
      case 'br': {
        const options = { ...BROTLI_OPTIONS, maxOutputLength: maxBytes };
        out = inPlace ? zlib.brotliDecompressSync(out, options) : await brotliDecompress(out, options);
        break;
      }
      default: {
        const options = { ...GZIP_OPTIONS, maxOutputLength: maxBytes };
        if (isZlibWrapped(out)) out = inPlace ? zlib.inflateSync(out, options) : await inflate(out, options);
        else out = inPlace ? zlib.inflateRawSync(out, options) : await inflateRaw(out, options);
        break;
      }
    }
  }
  return out;
}

/** Reads `source` up to `maxBytes`; beyond, cuts, flags `truncated` and stops the transfer. */
async function readCapped(source: Readable, body: Readable, maxBytes: number): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) {
    // Stop the transfer: the connection is closed rather than drained.
    source.destroy();
    body.destroy();
  }
  return { body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), truncated };
}

/** `deflate` should be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw deflate. */
function isZlibWrapped(chunk: Buffer): boolean {
  return chunk.length >= 2 && (chunk[0] & 0x0f) === 8 && ((chunk[0] << 8) | chunk[1]) % 31 === 0;
}

function decoderFor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    case 'deflate':
      return new AutoInflate();
    default:
      return null;
  }
}

/**
 * `deflate` should be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw deflate;
 * the first two bytes tell which.
 */
class AutoInflate extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.#inner) {
      const zlibHeader = isZlibWrapped(chunk);
      const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
      this.#inner = zlibHeader ? zlib.createInflate(options) : zlib.createInflateRaw(options);
      this.#inner.on('data', (data: Buffer) => this.push(data));
      this.#inner.on('error', (error) => this.destroy(error));
    }
    if (this.#inner.write(chunk)) callback();
    else this.#inner.once('drain', () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#inner) {
      callback();
      return;
    }
    this.#inner.once('end', () => callback());
    this.#inner.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#inner?.destroy();
    callback(error);
  }
}

function ignore(): void {}

/** The body as a stream of decoded bytes, for callers that read it as it comes (sitemaps). */
export function decodedStream(body: Readable, contentEncoding: string | undefined): Readable {
  body.on('error', ignore);
  const codings = decodingOrder(body, contentEncoding);
  if (codings.length === 0) return body;
  const stages = codings.map((coding) => decoderFor(coding)!);
  pipeline([body, ...stages], () => {});
  return stages[stages.length - 1];
}
