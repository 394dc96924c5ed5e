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
 */
import { isMarkedTerm } from './exact-name.ts';
import type { QueryBudget } from './query-budget.ts';
import { unitByteLength, type TermDictionary } from './term-dictionary.ts';

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
  // Each term's code units, decoded into one of two buffers in turn (no string per term).
  let current = { units: new Uint16Array(64) };
  let previous = { units: new Uint16Array(64) };
  let previousLength = 0;
  let valid = 0;
  for (let i = from; i < to; ) {
    if (!budget.scan()) return;
    const length = sorted.codeUnits(i, current);
    const term = current.units;
    const next = skipPast(sorted, term, length, i, plainOnly);
    if (next > i) {
      i = next;
      continue;
    }
    let depth = Math.min(valid, commonPrefixLength(previous.units, previousLength, term, length));
    let pruned = false;
    while (depth < length) {
      depth++;
      if (!walk.advance(depth, term)) {
        pruned = true;
        break;
      }
    }
    [previous, current] = [current, previous];
    previousLength = length;
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
 * Where a walk goes on from `term`, at `i`: `i` itself when the term may be visited, past its
 * language block when it is namespaced and the walk is `plainOnly` (`;` sorts right after `:`),
 * the next term when it is a marked name term.
 */
function skipPast(sorted: TermDictionary, term: Uint16Array, length: number, i: number, plainOnly: boolean): number {
  if (plainOnly && isNamespaced(term, length)) return sorted.lowerBoundBytes(Uint8Array.of(term[0], term[1], 0x3b /* ; */), i + 1);
  // The marks are ASCII characters: no string is made for other first units.
  return length > 0 && term[0] < 0x80 && isMarkedTerm(String.fromCharCode(term[0])) ? i + 1 : i;
}

/** isNamespacedTerm (languages.ts) on code units: two letters a–z, `:`, then not `:`. */
function isNamespaced(term: Uint16Array, length: number): boolean {
  return length > 3 && term[2] === 0x3a && term[3] !== 0x3a && term[0] >= 0x61 && term[0] <= 0x7a && term[1] >= 0x61 && term[1] <= 0x7a;
}

/** Visits the index of each term matching a wildcard pattern (`*` any run of characters). */
export function forEachTermMatchingGlob(sorted: TermDictionary, pattern: string, plainOnly: boolean, budget: QueryBudget, visit: (index: number) => void): void {
  const star = pattern.indexOf('*');
  const literal = star < 0 ? pattern : pattern.slice(0, star);
  const [from, to] = sorted.prefixRange(literal);
  const term = { units: new Uint16Array(64) };
  for (let i = from; i < to; ) {
    if (!budget.scan()) return;
    const length = sorted.codeUnits(i, term);
    const next = skipPast(sorted, term.units, length, i, plainOnly);
    if (next > i) {
      i = next;
      continue;
    }
    if (globMatchesUnits(pattern, term.units, length)) visit(i);
    i++;
  }
}

/** Whether `text` matches `pattern` whole, `*` matching any run (linear, with one backtrack point). */
export function globMatches(pattern: string, text: string): boolean {
  const units = new Uint16Array(text.length);
  for (let k = 0; k < text.length; k++) units[k] = text.charCodeAt(k);
  return globMatchesUnits(pattern, units, units.length);
}

/** {@link globMatches} on the first `length` code units of `text`. */
function globMatchesUnits(pattern: string, text: Uint16Array, length: number): boolean {
  let p = 0;
  let t = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (t < length) {
    if (p < pattern.length && pattern.charCodeAt(p) === 0x2a /* * */) {
      starAt = p++;
      resumeAt = t;
    } else if (p < pattern.length && pattern.charCodeAt(p) === text[t]) {
      p++;
      t++;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++resumeAt;
    } else return false;
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 0x2a) p++;
  return p === pattern.length;
}

function commonPrefixLength(a: Uint16Array, aLength: number, b: Uint16Array, bLength: number): number {
  const n = Math.min(aLength, bLength);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
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
