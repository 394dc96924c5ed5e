/**
 * Decoding a fetched body to text. Where the encoding comes from, in order:
 *   1. a byte-order mark (UTF-8, UTF-16LE/BE) — as in the HTML standard's encoding sniffing,
 *      a BOM outranks the Content-Type header: a page that starts with one was saved in that
 *      encoding, whatever the server claims;
 *   2. the `charset` parameter of the Content-Type header;
 *   3. `<meta charset>` or `<meta http-equiv=Content-Type content="…; charset=…">` in the
 *      first 1024 bytes;
 *   4. UTF-8.
 * Labels go through `TextDecoder` (WHATWG Encoding: `latin1` → windows-1252, `shift_jis`,
 * `gb18030`, …; Node 20 ships full ICU; its windows-1252 decoder is repaired below). An unknown
 * label falls back to UTF-8 and sets `fallback`. Malformed bytes become U+FFFD, never an exception.
 */

export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface DecodedBody {
  readonly text: string;
  /** The WHATWG name of the encoding used, e.g. `windows-1252`. */
  readonly charset: string;
  readonly source: CharsetSource;
  /** True when a declared label was not understood and UTF-8 was used instead. */
  readonly fallback: boolean;
}

const META_PRESCAN_BYTES = 1024;

export function decodeBody(body: Uint8Array, contentType?: string | null): DecodedBody {
  const bom = sniffBom(body);
  if (bom) return decodeWith(body, bom, 'bom', false);

  const headerLabel = contentType ? charsetOfContentType(contentType) : null;
  if (headerLabel) return decodeLabel(body, headerLabel, 'header');

  const metaLabel = charsetOfMeta(body.subarray(0, META_PRESCAN_BYTES));
  if (metaLabel) {
    // A page cannot declare UTF-16 in a meta tag it wrote in ASCII-compatible bytes (HTML §13.2.3.2).
    const label = /^utf-16/i.test(metaLabel) ? 'utf-8' : metaLabel;
    return decodeLabel(body, label, 'meta');
  }
  return decodeWith(body, 'utf-8', 'default', false);
}

/** The `charset` parameter of a Content-Type value, or null. */
export function charsetOfContentType(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;]+))/i.exec(contentType);
  const label = match ? (match[1] ?? match[2] ?? match[3]) : undefined;
  return label && label.trim() !== '' ? label.trim() : null;
}

/** The charset declared by a `<meta>` tag in the given bytes (read as Latin-1), or null. */
export function charsetOfMeta(head: Uint8Array): string | null {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
  const metaTag = /<meta\b([^>]*)>/gi;
  for (let tag = metaTag.exec(text); tag; tag = metaTag.exec(text)) {
    const attributes = tagAttributes(tag[1]);
    const charset = attributes.get('charset');
    if (charset && charset.trim() !== '') return charset.trim();
    const content = attributes.get('content');
    if (attributes.get('http-equiv')?.toLowerCase() === 'content-type' && content) {
      const match = /charset\s*=\s*["']?([^\s"';]+)/i.exec(content);
      if (match) return match[1];
    }
  }
  return null;
}

function tagAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const attribute = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (let match = attribute.exec(source); match; match = attribute.exec(source)) {
    const name = match[1].toLowerCase();
    // The first occurrence of an attribute wins, as in the HTML tokenizer.
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

function sniffBom(body: Uint8Array): string | null {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

function decodeLabel(body: Uint8Array, label: string, source: CharsetSource): DecodedBody {
  const encoding = encodingOf(label);
  return encoding ? decodeWith(body, encoding, source, false) : decodeWith(body, 'utf-8', source, true);
}

/** The WHATWG encoding name for a label, or null when TextDecoder does not know it. */
export function encodingOf(label: string): string | null {
  const trimmed = label.trim().toLowerCase();
  // The HTML standard maps x-user-defined to its own decoder; windows-1252 is the useful reading.
  if (trimmed === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return null;
  }
}

function decodeWith(body: Uint8Array, encoding: string, source: CharsetSource, fallback: boolean): DecodedBody {
  // TextDecoder drops a BOM of its own encoding (ignoreBOM: false).
  let text = new TextDecoder(encoding, { fatal: false }).decode(body);
  if (encoding === 'windows-1252' && WINDOWS_1252_DECODES_AS_LATIN1) text = text.replace(/[\u0080-\u009f]/g, windows1252Char);
  return { text, charset: encoding, source, fallback };
}

// Node 20's TextDecoder('windows-1252') decodes ISO-8859-1 instead: bytes 0x80–0x9F come out as
// C1 controls rather than € ‚ ƒ „ … (the most common legacy encoding on the web). Repair them.
const WINDOWS_1252_DECODES_AS_LATIN1 = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '\u20ac';
// Bytes 0x80–0x9F of windows-1252 (WHATWG index); 0x81, 0x8D, 0x8F, 0x90, 0x9D map to themselves.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function windows1252Char(char: string): string {
  return String.fromCharCode(WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]);
}
