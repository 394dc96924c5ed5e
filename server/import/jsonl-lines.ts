/**
 * Splits a byte stream into numbered lines without ever holding more than one line (bounded):
 * a line longer than the bound is reported as such and skipped to its end, so one runaway line
 * costs neither memory nor the lines after it. Work is linear in the input: each chunk is
 * scanned once and a line's pieces are joined once.
 */
import { StringDecoder } from 'node:string_decoder';

export type NumberedLine = { line: number; text: string } | { line: number; tooLong: true };

export async function* numberedLines(input: AsyncIterable<Uint8Array | string>, maxChars: number): AsyncGenerator<NumberedLine> {
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  let length = 0;
  let skipping = false;
  let line = 0;
  const take = (piece: string): void => {
    if (skipping) return;
    if (length + piece.length > maxChars) {
      skipping = true;
      pieces = [];
      return;
    }
    pieces.push(piece);
    length += piece.length;
  };
  const end = (): NumberedLine => {
    line++;
    const out: NumberedLine = skipping ? { line, tooLong: true } : { line, text: stripCarriageReturn(pieces.join('')) };
    pieces = [];
    length = 0;
    skipping = false;
    return out;
  };
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      take(text.slice(from, newline));
      yield end();
      from = newline + 1;
    }
    if (from < text.length) take(text.slice(from));
  }
  take(decoder.end());
  if (skipping || length > 0) yield end();
}

function stripCarriageReturn(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
