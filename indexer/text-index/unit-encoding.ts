/**
 * The byte encoding of the term dictionaries and string columns: each UTF-16 code unit on its own
 * as UTF-8 encodes a code point of that value (1–3 bytes; a surrogate, paired or not, takes 3, as
 * in CESU-8). Unit by unit, byte order is exactly the `<` order of JS strings, which plain UTF-8
 * is not past U+FFFF, and any string (lone surrogates too) survives the round trip. Text without
 * surrogates is ordinary UTF-8.
 */

/** A string in this encoding (for searches and comparisons). */
export function encodeKey(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  return out.subarray(0, encodeInto(text, out, 0));
}

/** Bytes a code unit takes in this encoding. */
export const unitByteLength = (unit: number): number => (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);

export function encodeInto(text: string, out: Uint8Array, at: number): number {
  for (let k = 0; k < text.length; k++) {
    const unit = text.charCodeAt(k);
    if (unit < 0x80) out[at++] = unit;
    else if (unit < 0x800) {
      out[at++] = 0xc0 | (unit >> 6);
      out[at++] = 0x80 | (unit & 0x3f);
    } else {
      out[at++] = 0xe0 | (unit >> 12);
      out[at++] = 0x80 | ((unit >> 6) & 0x3f);
      out[at++] = 0x80 | (unit & 0x3f);
    }
  }
  return at;
}

/** Whether bytes[from..to) is a sequence of units as {@link encodeInto} writes them. */
export function wellFormed(bytes: Uint8Array, from: number, to: number): boolean {
  for (let b = from; b < to; ) {
    const lead = bytes[b];
    const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : 0;
    if (size === 0 || b + size > to) return false;
    for (let k = 1; k < size; k++) if ((bytes[b + k] & 0xc0) !== 0x80) return false;
    // Three bytes for a unit below U+0800 would sort apart from its two-byte form.
    if (size === 3 && lead === 0xe0 && bytes[b + 1] < 0xa0) return false;
    b += size;
  }
  return true;
}

/** Decodes bytes[from..to) into `units` (long enough: a unit takes at least a byte); returns the count. */
export function decodeUnits(bytes: Uint8Array, from: number, to: number, units: Uint16Array): number {
  let n = 0;
  for (let b = from; b < to; ) {
    const lead = bytes[b];
    if (lead < 0x80) {
      units[n++] = lead;
      b++;
    } else if (lead < 0xe0) {
      units[n++] = ((lead & 0x1f) << 6) | (bytes[b + 1] & 0x3f);
      b += 2;
    } else {
      units[n++] = ((lead & 0x0f) << 12) | ((bytes[b + 1] & 0x3f) << 6) | (bytes[b + 2] & 0x3f);
      b += 3;
    }
  }
  return n;
}

/** String.fromCharCode takes its units as arguments: at most this many at a time. */
export const MAX_APPLY = 4_096;

export function unitsToString(units: Uint16Array, n: number): string {
  if (n <= MAX_APPLY) return String.fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);
  let text = '';
  for (let k = 0; k < n; k += MAX_APPLY) text += String.fromCharCode.apply(null, units.subarray(k, Math.min(n, k + MAX_APPLY)) as unknown as number[]);
  return text;
}
