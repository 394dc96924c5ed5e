/**
 * eld's "small" n-gram table (60 languages, 81,206 n-grams, 141,339 scores) in typed arrays: an
 * open-addressing hash table of packed n-gram keys pointing into flat arrays of (language, score)
 * pairs. The table is read from the text of eld's data module rather than by evaluating it: an
 * evaluated module keeps its literal's 81,000 boilerplates and key strings alive through its
 * bytecode (10 MB, 160,000 heap objects) even after the object itself is dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface NgramTable {
  /** ISO 639-1 code of each language index. */
  readonly languages: readonly string[];
  /** Slot `i` holds the key `(keyLow[i], keyHigh[i])`; `keyHigh` 0 is an empty slot. */
  readonly keyLow: Uint32Array;
  readonly keyHigh: Uint32Array;
  /** The slot's pairs are `pairStart[i]` to `pairStart[i] + pairCount[i]`. */
  readonly pairStart: Uint32Array;
  readonly pairCount: Uint8Array;
  readonly pairLanguage: Uint8Array;
  /** Stored as in eld's table: the score less eld's base score. */
  readonly pairScore: Uint8Array;
}

/** Keys are 1 to 6 characters of code 0–255. */
export const MAX_KEY_LENGTH = 6;

/**
 * A key of up to 6 one-byte characters as two 32-bit words: the first four characters, then the
 * fifth, the sixth and the length (never 0, which marks an empty slot).
 */
export function packKeyLow(chars: Uint8Array, start: number, length: number): number {
  let low = 0;
  for (let i = Math.min(length, 4) - 1; i >= 0; i--) low = (low << 8) | chars[start + i];
  return low >>> 0;
}

export function packKeyHigh(chars: Uint8Array, start: number, length: number): number {
  const fifth = length > 4 ? chars[start + 4] : 0;
  const sixth = length > 5 ? chars[start + 5] : 0;
  return (fifth | (sixth << 8) | (length << 16)) >>> 0;
}

export function keySlot(low: number, high: number, mask: number): number {
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & mask;
}

/** The slot holding the key, or -1. */
export function findKey(table: NgramTable, low: number, high: number): number {
  const mask = table.keyHigh.length - 1;
  for (let slot = keySlot(low, high, mask); ; slot = (slot + 1) & mask) {
    const h = table.keyHigh[slot];
    if (h === 0) return -1;
    if (h === high && table.keyLow[slot] === low) return slot;
  }
}

/** The path of a file of eld's sources (`ngrams/small.js`), found where Node would find the package. */
export function eldSourcePath(file: string): string {
  const require = createRequire(import.meta.url);
  // The package's exports list no file of its own, so look for it along the resolution paths.
  for (const dir of require.resolve.paths('eld') ?? []) {
    const path = join(dir, 'eld', 'src', file);
    if (existsSync(path)) return path;
  }
  throw new Error(`language-ngrams: eld's ${file} is not installed`);
}

/** The text of eld's small data module. */
export function readEldSmallSource(): string {
  return readFileSync(eldSourcePath('ngrams/small.js'), 'utf8');
}

/**
 * Parses the data module's object literal: `languages:{0:'am',…}` and `ngrams:{' Lé4L':{0:176},
 * L_QL:{0:148},…}` (keys quoted, with `\'` escapes, or bare identifiers). Anything else throws,
 * so that a new table format cannot be read wrong silently.
 */
export function parseNgramTable(source: string): NgramTable {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`language-ngrams: cannot read eld's table (${what} at ${at}: ${JSON.stringify(source.slice(at, at + 30))})`);
  };
  const expect = (text: string) => {
    if (!source.startsWith(text, at)) fail(`expected ${text}`);
    at += text.length;
  };
  const readInteger = (): number => {
    const start = at;
    let value = 0;
    for (let digit = source.charCodeAt(at) - 0x30; digit >= 0 && digit <= 9; digit = source.charCodeAt(++at) - 0x30) value = value * 10 + digit;
    if (at === start || (at - start > 1 && source.charCodeAt(start) === 0x30)) fail('expected an integer');
    return value;
  };
  /** Reads a key into `keyChars`, returns its length. */
  const keyChars = new Uint8Array(MAX_KEY_LENGTH);
  const readKey = (): number => {
    const quoted = source.charCodeAt(at) === 0x27;
    const start = quoted ? ++at : at;
    let length = 0;
    for (; ; at++) {
      let code = source.charCodeAt(at);
      if (quoted ? code === 0x27 : !isBareKeyChar(code, at === start)) break;
      if (at >= source.length) fail('unterminated key');
      if (quoted && code === 0x5c) {
        code = source.charCodeAt(++at);
        if (code !== 0x27) fail('unexpected escape');
      }
      if (length === MAX_KEY_LENGTH || code > 0xff) fail('key too long or out of range');
      keyChars[length++] = code;
    }
    if (length === 0) fail('expected a key');
    if (quoted) at++;
    return length;
  };
  const keyString = (length: number) => String.fromCharCode(...keyChars.subarray(0, length));

  at = source.indexOf('languages:{');
  if (at < 0) fail('no languages');
  expect('languages:{');
  const languages: string[] = [];
  while (source.charCodeAt(at) !== 0x7d) {
    if (readInteger() !== languages.length) fail('languages out of order');
    expect(':');
    languages.push(keyString(readKey()));
    if (source.charCodeAt(at) === 0x2c) at++;
  }

  at = source.indexOf('ngrams:{', at);
  if (at < 0) fail('no ngrams');
  expect('ngrams:{');
  // Every key opens a `:{`, so their count bounds the table.
  let bound = 0;
  for (let i = source.indexOf(':{', at); i >= 0; i = source.indexOf(':{', i + 2)) bound++;
  let slots = 1;
  while (slots < bound * 3) slots *= 2;
  const keyLow = new Uint32Array(slots);
  const keyHigh = new Uint32Array(slots);
  const pairStart = new Uint32Array(slots);
  const pairCount = new Uint8Array(slots);
  // Every pair takes at least 4 characters (`0:6,`).
  const pairLanguage = new Uint8Array(Math.ceil((source.length - at) / 4));
  const pairScore = new Uint8Array(pairLanguage.length);
  const table: NgramTable = { languages, keyLow, keyHigh, pairStart, pairCount, pairLanguage, pairScore };
  let pairs = 0;
  while (source.charCodeAt(at) !== 0x7d) {
    const length = readKey();
    const low = packKeyLow(keyChars, 0, length);
    const high = packKeyHigh(keyChars, 0, length);
    if (findKey(table, low, high) >= 0) fail('repeated key');
    let slot = keySlot(low, high, slots - 1);
    while (keyHigh[slot] !== 0) slot = (slot + 1) & (slots - 1);
    keyLow[slot] = low;
    keyHigh[slot] = high;
    pairStart[slot] = pairs;
    if (source.charCodeAt(at++) !== 0x3a || source.charCodeAt(at++) !== 0x7b) fail('expected :{');
    while (source.charCodeAt(at) !== 0x7d) {
      const language = readInteger();
      if (source.charCodeAt(at++) !== 0x3a) fail('expected :');
      const score = readInteger();
      if (language >= languages.length || score > 0xff) fail('pair out of range');
      for (let i = pairStart[slot]; i < pairs; i++) if (pairLanguage[i] === language) fail('repeated language');
      pairLanguage[pairs] = language;
      pairScore[pairs++] = score;
      if (source.charCodeAt(at) === 0x2c) at++;
    }
    pairCount[slot] = pairs - pairStart[slot];
    at++;
    if (source.charCodeAt(at) === 0x2c) at++;
  }
  return { ...table, pairLanguage: pairLanguage.slice(0, pairs), pairScore: pairScore.slice(0, pairs) };
}

/** A character of an identifier (`L_QL`), the first not a digit. */
function isBareKeyChar(code: number, first: boolean): boolean {
  const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x24;
  return letter || (!first && code >= 0x30 && code <= 0x39);
}
