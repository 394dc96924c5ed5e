/**
 * Walks over a segment's sorted terms for query expansion, each visited entry counted against the
 * search's budget (query-budget.ts), so no pattern costs more than the budget allows:
 * - terms within an edit distance of a word (fuzzy `word~2`, typos): a Levenshtein walk that
 *   treats the sorted list as a trie — terms sharing a prefix with the previous one reuse its rows,
 *   and once a prefix is out of reach every term that starts with it is skipped by binary search;
 *   only the band of 2·distance + 1 cells around the diagonal is computed, so a long word costs
 *   no more than a short one (lunr's TokenSet grew exponentially with the distance and took a
 *   second for a 100-letter word at distance 2);
 * - terms matching a wildcard pattern (`tele*`, `*scope`, `a*b`): the range of the literal
 *   prefix, each term tested by a linear glob match (no backtracking regular expression).
 * Namespaced terms (`de:haus`) are skipped a language block at a time when `plainOnly`; the
 * marked terms of exact and analysed names (exact-name.ts) are never visited.
 * The terms are a segment's byte dictionary (term-dictionary.ts): wildcards match the bytes, the
 * edit walk decodes each visited term's code units into one reused buffer, and no string is made
 * but for the terms found.
 */
import { isMarkedTerm } from './exact-name.ts';
import type { QueryBudget } from './query-budget.ts';
import type { TermDictionary } from './term-dictionary.ts';
import { encodeKey, unitByteLength } from './unit-encoding.ts';

/** Visits the index of each term in [from, to) within `distance` edits of `word` (adjacent swaps count one). */
export function forEachTermWithinEdits(
  sorted: TermDictionary,
  from: number,
  to: number,
  word: string,
  distance: number,
  plainOnly: boolean,
  budget: QueryBudget,
  visit: (index: number) => void,
): void {
  const walk = new EditRows(word, distance);
  const entry = new EntryUnits(sorted);
  // Rows 0..valid of the walk hold for the first `valid` units of the entry read last.
  let valid = 0;
  for (let i = from; i < to; ) {
    if (!budget.scan()) return;
    const next = skipPast(sorted, i, plainOnly);
    if (next > i) {
      i = next;
      continue;
    }
    // The buffer holds the entry walked last: rows beyond what this one shares with it are redone.
    entry.read(i);
    valid = Math.min(valid, entry.common);
    const { units: term, length } = entry;
    let depth = valid;
    let pruned = false;
    while (depth < length) {
      depth++;
      if (!walk.advance(depth, term)) {
        pruned = true;
        break;
      }
    }
    valid = depth;
    if (pruned) {
      // No term that starts with this prefix can come within the distance.
      let prefixBytes = 0;
      for (let k = 0; k < depth; k++) prefixBytes += unitByteLength(term[k]);
      i = Math.max(i + 1, sorted.pastPrefixOf(i, prefixBytes));
      continue;
    }
    if (walk.distanceAt(length) <= distance) visit(i);
    i++;
  }
}

/**
 * The code units of one dictionary entry after another, decoded into one buffer (no string per
 * entry), with how many leading units each shares with the entry read before it.
 */
class EntryUnits {
  units = new Uint16Array(64);
  length = 0;
  common = 0;

  constructor(private readonly dictionary: TermDictionary) {}

  read(i: number): void {
    const { bytes, offsets } = this.dictionary;
    const from = offsets[i];
    const to = offsets[i + 1];
    if (to - from > this.units.length) {
      const grown = new Uint16Array(Math.max(to - from, this.units.length * 2));
      grown.set(this.units);
      this.units = grown;
    }
    const units = this.units;
    const held = this.length;
    let common = -1;
    let n = 0;
    for (let b = from; b < to; ) {
      const lead = bytes[b];
      let unit: number;
      if (lead < 0x80) {
        unit = lead;
        b++;
      } else if (lead < 0xe0) {
        unit = ((lead & 0x1f) << 6) | (bytes[b + 1] & 0x3f);
        b += 2;
      } else {
        unit = ((lead & 0x0f) << 12) | ((bytes[b + 1] & 0x3f) << 6) | (bytes[b + 2] & 0x3f);
        b += 3;
      }
      if (common < 0 && (n >= held || units[n] !== unit)) common = n;
      units[n++] = unit;
    }
    this.common = common < 0 ? n : common;
    this.length = n;
  }
}

/**
 * Where a walk goes on from entry `i`: `i` itself when the term may be visited, past its
 * language block when it is namespaced and the walk is `plainOnly` (`;` sorts right after `:`),
 * the next entry when it is a marked name term. Read from the entry's first bytes: a namespace
 * and the marks are ASCII, one byte a character.
 */
function skipPast(sorted: TermDictionary, i: number, plainOnly: boolean): number {
  const { bytes, offsets } = sorted;
  const from = offsets[i];
  const length = offsets[i + 1] - from;
  if (plainOnly && length > 3 && bytes[from + 2] === 0x3a /* : */ && bytes[from + 3] !== 0x3a && isLowerLetter(bytes[from]) && isLowerLetter(bytes[from + 1])) {
    return sorted.lowerBoundBytes(Uint8Array.of(bytes[from], bytes[from + 1], 0x3b /* ; */), i + 1);
  }
  return length > 0 && MARK_BYTES[bytes[from]] === 1 ? i + 1 : i;
}

const isLowerLetter = (byte: number) => byte >= 0x61 && byte <= 0x7a;

/** MARK_BYTES[b] = 1 when a term starting with byte b is marked (isMarkedTerm; its marks are ASCII). */
const MARK_BYTES = Uint8Array.from({ length: 256 }, (_, b) => (b < 0x80 && isMarkedTerm(String.fromCharCode(b)) ? 1 : 0));

/** Visits the index of each term matching a wildcard pattern (`*` any run of characters). */
export function forEachTermMatchingGlob(sorted: TermDictionary, pattern: string, plainOnly: boolean, budget: QueryBudget, visit: (index: number) => void): void {
  const star = pattern.indexOf('*');
  const literal = star < 0 ? pattern : pattern.slice(0, star);
  const [from, to] = sorted.prefixRange(literal);
  const patternBytes = encodeKey(pattern);
  const { bytes, offsets } = sorted;
  for (let i = from; i < to; ) {
    if (!budget.scan()) return;
    const next = skipPast(sorted, i, plainOnly);
    if (next > i) {
      i = next;
      continue;
    }
    if (globMatchesBytes(patternBytes, bytes, offsets[i], offsets[i + 1])) visit(i);
    i++;
  }
}

/** Whether `text` matches `pattern` whole, `*` matching any run (linear, with one backtrack point). */
export function globMatches(pattern: string, text: string): boolean {
  const bytes = encodeKey(text);
  return globMatchesBytes(encodeKey(pattern), bytes, 0, bytes.length);
}

/**
 * {@link globMatches} on encoded text (term-dictionary.ts), text[from..to). Matching bytes is
 * matching code units: a unit's first byte is never a continuation byte, so a pattern's literal
 * run can only match whole units, and `*` (one ASCII byte) runs over whole units.
 */
function globMatchesBytes(pattern: Uint8Array, text: Uint8Array, from: number, to: number): boolean {
  let p = 0;
  let t = from;
  let starAt = -1;
  let resumeAt = from;
  while (t < to) {
    if (p < pattern.length && pattern[p] === 0x2a /* * */) {
      starAt = p++;
      resumeAt = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++resumeAt;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === 0x2a) p++;
  return p === pattern.length;
}

/**
 * Rows of the optimal-string-alignment table of `word` against a candidate read one character at
 * a time: row k holds the distances after k candidate characters, within the diagonal band.
 */
class EditRows {
  private readonly rows: Int32Array[] = [];
  private readonly outside: number;

  constructor(
    private readonly word: string,
    private readonly distance: number,
  ) {
    this.outside = distance + 1;
    const first = new Int32Array(word.length + 1).fill(this.outside);
    for (let j = 0; j <= Math.min(word.length, distance); j++) first[j] = j;
    this.rows.push(first);
  }

  /** Fills row `depth` from the candidate's code unit at depth − 1; false when every cell exceeds the distance. */
  advance(depth: number, candidate: Uint16Array): boolean {
    const { word, distance, outside } = this;
    const n = word.length;
    let row = this.rows[depth];
    if (row === undefined) this.rows[depth] = row = new Int32Array(n + 1);
    const above = this.rows[depth - 1];
    const twoAbove = depth >= 2 ? this.rows[depth - 2] : null;
    const c = candidate[depth - 1];
    const before = depth >= 2 ? candidate[depth - 2] : -1;
    const lo = Math.max(1, depth - distance);
    const hi = Math.min(n, depth + distance);
    row[0] = depth <= distance ? depth : outside;
    if (lo - 1 > 0) row[lo - 1] = outside;
    let best = row[0];
    for (let j = lo; j <= hi; j++) {
      const cost = word.charCodeAt(j - 1) === c ? 0 : 1;
      let value = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost);
      if (twoAbove !== null && j > 1 && word.charCodeAt(j - 1) === before && word.charCodeAt(j - 2) === c) value = Math.min(value, twoAbove[j - 2] + 1);
      if (value > outside) value = outside;
      row[j] = value;
      if (value < best) best = value;
    }
    if (hi + 1 <= n) row[hi + 1] = outside;
    return best <= distance;
  }

  /** The distance between the word and the candidate's first `depth` characters (capped). */
  distanceAt(depth: number): number {
    if (Math.abs(depth - this.word.length) > this.distance) return this.outside;
    return this.rows[depth][this.word.length];
  }
}

/** Optimal string alignment distance ≤ max (insertions, deletions, substitutions, adjacent swaps). */
export function withinEdits(a: string, b: string, max: number): boolean {
  const n = a.length;
  const m = b.length;
  let previous2 = new Int32Array(m + 1);
  let previous = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let current = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) value = Math.min(value, previous2[j - 2] + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return false;
    [previous2, previous, current] = [previous, current, previous2];
  }
  return previous[m] <= max;
}
