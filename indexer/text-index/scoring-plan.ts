/**
 * What the scorer computes once per query and uses in every segment: the resolved clauses, the
 * query vector with its collection-wide statistics, and lunr's BM25 weight of one posting.
 */
import type { PhraseWord } from './query-analysis.ts';

export const K1 = 1.2;
export const B = 0.75;

export interface ResolvedClause {
  presence: 'optional' | 'required' | 'prohibited';
  /** Terms present in the collection. */
  terms: string[];
  /** Terms that weigh less than the clause's boost (typo and prefix expansions). */
  termWeights?: Map<string, number>;
  /** Terms the query did not name: a pattern's matches, typo and prefix expansions. */
  expanded?: Set<string>;
  /** An identifier's parts present in the collection: a page with every part matches too. */
  parts?: string[][];
  correction?: { typed: string; term: string };
  fields: number[];
  boost: number;
  /** Phrase variants (one per language) all of whose words occur; any may match. */
  phrases: PhraseWord[][] | null;
  /** A required clause none of whose terms occur: nothing can match. */
  impossible: boolean;
}

/** A term of the query vector: its weight per field (0 where it is not searched) and its idf. */
export interface ScoredTerm {
  term: string;
  weights: Float64Array;
  idf: number;
}

export interface ScoringPlan {
  /** In the order their weights are summed (the order fixes the rounding of the sum). */
  terms: ScoredTerm[];
  /** Length of the query vector per field. */
  magnitude: Float64Array;
  /** Average field lengths over the live documents. */
  averageLengths: Float64Array;
  required: ResolvedClause[];
  prohibited: ResolvedClause[];
}

/**
 * A posting's weight: the same operations in the same order as lunr.Builder#createFieldVectors,
 * so the rounding agrees. It grows with the frequency and shrinks with the field's length, which
 * is what lets a block's largest frequency and shortest length bound every weight of the block.
 */
export function postingWeight(idf: number, frequency: number, length: number, averageLength: number, fieldBoost: number): number {
  let weight = (idf * ((K1 + 1) * frequency)) / (K1 * (1 - B + B * (length / averageLength)) + frequency);
  weight *= fieldBoost;
  return Math.round(weight * 1000) / 1000;
}
