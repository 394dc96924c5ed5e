/**
 * eld's detection over the typed-array table: the text's words as UTF-8 bytes (written as eld's
 * key characters), their 4-byte n-grams at a 3-byte stride, and per language the sum over the
 * distinct n-grams of the table's score plus the base score. Scores are sums of integers, exact in
 * any order, so the n-grams need not be visited in eld's order.
 */
import { HIGH_BYTE_SYMBOLS, SEPARATORS } from './eld-constants.ts';
import { findKey, keySlot, MAX_KEY_LENGTH, packKeyHigh, packKeyLow, type NgramTable } from './table.ts';

/** eld reads the first 1,000 UTF-16 units, then words up to 350 bytes (cut anywhere past 380). */
const MAX_TEXT_UNITS = 1000;
const CUT_AT_SPACE_AFTER = 350;
const CUT_ANYWHERE_AFTER = 380;
/** A word's n-grams start within its first 70 bytes. */
const MAX_WORD_BYTES = 70;
/** eld's table stores each score less this. */
const BASE_SCORE = 53;
const SPACE = 0x20;

export interface RawDetection {
  /** Index of the best language, -1 when no language scored. */
  best: number;
  /** Per language, the summed score (0 for none). */
  scores: Float64Array;
  /** Distinct n-grams of the text. */
  ngramCount: number;
}

// Scratch space for one detection: eld's cuts bound the bytes to 384, the n-grams to fewer.
const bytes = new Uint8Array(CUT_ANYWHERE_AFTER + 4);
const wordEnds = new Int32Array(bytes.length);
const gram = new Uint8Array(bytes.length + 2);
const SEEN_SLOTS = 1024;
const seenLow = new Uint32Array(SEEN_SLOTS);
const seenHigh = new Uint32Array(SEEN_SLOTS);
/** A slot is in use when its mark is the current detection's. */
const seenMark = new Uint32Array(SEEN_SLOTS);
let mark = 0;
/** N-grams longer than a key (the tails of words past 70 bytes), which no table holds. */
const longGrams: string[] = [];

export function detectRaw(table: NgramTable, text: string): RawDetection {
  const normalized = text.substring(0, MAX_TEXT_UNITS).replace(SEPARATORS, ' ').trim().toLowerCase();
  const words = encodeWords(normalized);
  const scores = new Float64Array(table.languages.length);
  if (++mark === 0xffffffff) {
    seenMark.fill(0);
    mark = 1;
  }
  longGrams.length = 0;
  let ngramCount = 0;
  const add = (length: number) => {
    if (length > MAX_KEY_LENGTH) {
      const key = String.fromCharCode(...gram.subarray(0, length));
      if (!longGrams.includes(key)) {
        longGrams.push(key);
        ngramCount++;
      }
      return;
    }
    const low = packKeyLow(gram, 0, length);
    const high = packKeyHigh(gram, 0, length);
    if (!firstSight(low, high)) return;
    ngramCount++;
    const slot = findKey(table, low, high);
    if (slot < 0) return;
    for (let i = table.pairStart[slot], end = i + table.pairCount[slot]; i < end; i++) {
      scores[table.pairLanguage[i]] += table.pairScore[i] + BASE_SCORE;
    }
  };
  let start = 0;
  for (let w = 0; w < words; w++) {
    const end = wordEnds[w];
    const length = Math.min(end - start, MAX_WORD_BYTES);
    let j = 0;
    // The first n-gram of a word starts with a space, the last ends with one.
    for (; j + 4 < length; j += 3) {
      const lead = j === 0 ? 1 : 0;
      gram[0] = SPACE;
      for (let k = 0; k < 4; k++) gram[lead + k] = bytes[start + j + k];
      add(lead + 4);
    }
    const lead = j === 0 ? 1 : 0;
    // The tail runs to the word's end, past the 70 bytes.
    const from = start + Math.max(0, length - 4);
    gram[0] = SPACE;
    for (let k = from; k < end; k++) gram[lead + k - from] = bytes[k];
    gram[lead + end - from] = SPACE;
    add(lead + end - from + 1);
    start = end;
  }
  let best = -1;
  for (let i = 0; i < scores.length; i++) if (scores[i] > 0 && (best < 0 || scores[i] > scores[best])) best = i;
  return { best, scores, ngramCount };
}

function firstSight(low: number, high: number): boolean {
  const mask = SEEN_SLOTS - 1;
  for (let slot = keySlot(low, high, mask); ; slot = (slot + 1) & mask) {
    if (seenMark[slot] !== mark) {
      seenMark[slot] = mark;
      seenLow[slot] = low;
      seenHigh[slot] = high;
      return true;
    }
    if (seenLow[slot] === low && seenHigh[slot] === high) return false;
  }
}

/**
 * Writes the text's words into `bytes` back to back (`wordEnds` marks where each ends) as UTF-8,
 * a byte from 0x80 written as its key character, and returns the number of words. As eld does, a
 * surrogate takes the unit after it as its pair, whatever that is (kept for fidelity: surrogates
 * are not among eld's letters, so the separators have already replaced them).
 */
function encodeWords(text: string): number {
  let length = 0;
  let words = 0;
  let wordStart = 0;
  // Spaces count towards eld's cuts though they are not written.
  let counted = 0;
  const high = (byte: number) => HIGH_BYTE_SYMBOLS[byte - 0x80];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c === SPACE) {
        if (length > wordStart) {
          wordEnds[words++] = length;
          wordStart = length;
        }
        if (counted > CUT_AT_SPACE_AFTER) break;
      } else {
        bytes[length++] = c;
      }
      counted++;
    } else if (c < 0x800) {
      bytes[length++] = high(0xc0 | (c >> 6));
      bytes[length++] = high(0x80 | (c & 0x3f));
      counted += 2;
    } else if (c < 0xd800 || c >= 0xe000) {
      bytes[length++] = high(0xe0 | (c >> 12));
      bytes[length++] = high(0x80 | ((c >> 6) & 0x3f));
      bytes[length++] = high(0x80 | (c & 0x3f));
      counted += 3;
    } else {
      i++;
      c = 0x10000 + (((c & 0x3ff) << 10) | (text.charCodeAt(i) & 0x3ff));
      bytes[length++] = high(0xf0 | (c >> 18));
      bytes[length++] = high(0x80 | ((c >> 12) & 0x3f));
      bytes[length++] = high(0x80 | ((c >> 6) & 0x3f));
      bytes[length++] = high(0x80 | (c & 0x3f));
      counted += 4;
    }
    if (counted > CUT_ANYWHERE_AFTER) break;
  }
  if (length > wordStart) wordEnds[words++] = length;
  return words;
}
