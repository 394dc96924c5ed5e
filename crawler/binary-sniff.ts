/**
 * Telling binary data served as `text/html` from a page, before it is parsed and indexed as one
 * with an empty title. The test is the WHATWG MIME Sniffing standard's "binary data byte" (control
 * characters other than tab, line feed, form feed, carriage return and escape) in the first KB:
 * a NUL byte or two, or a few percent of such bytes, and it is not text. A page in UTF-16 is made
 * of NULs and is left alone (its byte order mark or its charset says so).
 */

const SNIFF_BYTES = 1024;
/** A stray NUL happens in real pages; two in the first KB do not. */
const MAX_NULS = 1;
/** Share of binary data bytes beyond which the start of a body is not text (random bytes: ~10.5 %). */
const MAX_BINARY_SHARE = 0.03;
/** ...and a few such bytes are tolerated in a short body. */
const MIN_BINARY_BYTES = 4;

function isBinaryDataByte(byte: number): boolean {
  return byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);
}

function isUtf16(body: Uint8Array, contentType: string | undefined): boolean {
  if (body.length >= 2 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff))) return true;
  return /charset\s*=\s*["']?utf-16/i.test(contentType ?? '');
}

/** Why this body is binary rather than HTML, or undefined when it may be text. */
export function binaryBodyReason(body: Uint8Array, contentType: string | undefined): string | undefined {
  if (body.length === 0 || isUtf16(body, contentType)) return undefined;
  const length = Math.min(body.length, SNIFF_BYTES);
  let nuls = 0;
  let binary = 0;
  for (let i = 0; i < length; i++) {
    const byte = body[i];
    if (byte === 0) nuls++;
    if (isBinaryDataByte(byte)) binary++;
  }
  if (nuls <= MAX_NULS && binary <= Math.max(MIN_BINARY_BYTES, length * MAX_BINARY_SHARE)) return undefined;
  return `served as ${(contentType ?? '').split(';')[0].trim() || 'HTML'} but binary: ${nuls} NUL and ${binary} control bytes in the first ${length}`;
}
