/**
 * Typo tolerance and prefixes for plain query words.
 * - A word the index does not know, or knows on at most {@link RARE_DOCUMENTS} pages, also
 *   matches the index terms within one edit (words of 4+ letters) or two (8+), a swap of two
 *   neighbouring letters counting as one (as in lunr's fuzzy matching), on each language's stem
 *   and with the same first letter: a walk of one range of the sorted terms (term-walk.ts; lunr's
 *   TokenSet took up to 1.7 s for a two-edit word on long multilingual pages).
 * - The query's last word also matches the terms it begins, and the terms of the words as written
 *   that it begins (a prefix longer than a word's stem still finds it), in each language.
 * Expansions weigh less than the word itself ({@link TYPO_WEIGHT}, {@link PREFIX_WEIGHT}), so
 * exact matches rank first; each keeps to the most frequent {@link MAX_EXPANSIONS} terms.
 */
import { isNamespacedTerm } from './languages.ts';
import type { TermClause } from './query-parser.ts';

export interface TermStatistics {
  documentFrequency(term: string): number;
  /** Terms beginning with a prefix, or indexing a written word that begins with it, with their postings. */
  startingWith(prefix: string): Map<string, number>;
  /** Terms within an edit distance that share the first letter (typos seldom hit it; it bounds the scan), with their postings. */
  near(term: string, distance: number): Map<string, number>;
}

export const RARE_DOCUMENTS = 1;
export const TYPO_WEIGHT = 0.2;
export const PREFIX_WEIGHT = 0.5;
const MAX_EXPANSIONS = 30;

export interface Expansion {
  /** Extra terms with their weight relative to the clause's boost. */
  weights: Map<string, number>;
  /** When the typed word was unknown: the most frequent term found within the edit distance. */
  correction?: { typed: string; term: string };
}

export function expandClause(stats: TermStatistics, clause: TermClause): Expansion | null {
  if (clause.pattern || clause.typed === undefined) return null;
  const weights = new Map<string, number>();
  const exact = new Set(clause.terms);
  const known = clause.terms.reduce((sum, term) => sum + stats.documentFrequency(term), 0);
  let correction: Expansion['correction'];
  const letters = [...clause.typed].length;
  if (known <= RARE_DOCUMENTS && letters >= 4) {
    const distance = letters >= 8 ? 2 : 1;
    const candidates = new Map<string, number>();
    for (const term of clause.terms) for (const [near, postings] of stats.near(term, distance)) if (!exact.has(near)) candidates.set(near, (candidates.get(near) ?? 0) + postings);
    const found = mostFrequent(stats, candidates);
    for (const term of found) weights.set(term, TYPO_WEIGHT);
    if (known === 0 && found.length > 0) correction = { typed: clause.typed, term: found[0] };
  }
  for (const pattern of clause.prefixPatterns ?? []) {
    for (const term of mostFrequent(stats, stats.startingWith(pattern.replace(/\*$/, '')))) {
      if (!exact.has(term) && !weights.has(term)) weights.set(term, PREFIX_WEIGHT);
    }
  }
  return weights.size === 0 ? null : { weights, correction };
}

/**
 * The most frequent candidates, by their postings counted during the walk (deleted pages
 * included: exact frequencies cost a lookup per segment, so only the chosen ones get theirs).
 */
function mostFrequent(stats: TermStatistics, candidates: ReadonlyMap<string, number>): string[] {
  return [...candidates]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_EXPANSIONS)
    .map(([term]) => term)
    .filter((term) => stats.documentFrequency(term) > 0);
}

/** A term as a word a reader knows: without its language prefix. */
export function termWord(term: string): string {
  return isNamespacedTerm(term) ? term.slice(3) : term;
}
