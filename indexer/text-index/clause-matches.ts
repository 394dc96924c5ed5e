/**
 * Which documents of a segment a clause matches, without scoring: any of its terms in any of its
 * fields, its phrase, or every part of an identifier written apart.
 */
import { termNumber, termPostings, type CompactSegment } from './compact-segment.ts';
import { forEachPhraseMatch } from './phrase-match.ts';
import type { QueryBudget } from './query-budget.ts';
import type { ResolvedClause } from './scoring-plan.ts';

/** Documents matching a clause, marked 1 by ordinal. */
export function clauseMatches(segment: CompactSegment, clause: ResolvedClause, budget: QueryBudget): Uint8Array {
  const marks = new Uint8Array(segment.docIds.length);
  markClauseMatches(segment, clause, marks, budget);
  return marks;
}

export function markClauseMatches(segment: CompactSegment, clause: ResolvedClause, marks: Uint8Array, budget: QueryBudget): void {
  if (clause.phrases) {
    for (const words of clause.phrases) forEachPhraseMatch(segment, words, clause.fields, budget, (d) => (marks[d] = 1));
    return;
  }
  markTerms(segment, clause.terms, clause.fields, marks);
  if (!clause.parts) return;
  // An identifier written apart: every part somewhere in the page.
  const n = segment.docIds.length;
  const counts = new Uint16Array(n);
  const seen = new Uint8Array(n);
  for (const alternatives of clause.parts) {
    seen.fill(0);
    markTerms(segment, alternatives, clause.fields, seen);
    for (let d = 0; d < n; d++) counts[d] += seen[d];
  }
  for (let d = 0; d < n; d++) if (counts[d] === clause.parts.length) marks[d] = 1;
}

function markTerms(segment: CompactSegment, terms: readonly string[], fields: readonly number[], marks: Uint8Array): void {
  for (const term of terms) {
    const t = termNumber(segment, term);
    if (t < 0) continue;
    for (const f of fields) {
      const { docs } = termPostings(segment.fields[f], t);
      for (let p = 0; p < docs.length; p++) marks[docs[p]] = 1;
    }
  }
}

/** A clause matched by its terms alone (no phrase, no identifier parts): a union of postings lists. */
export function isTermClause(clause: ResolvedClause): boolean {
  return clause.phrases === null && clause.parts === undefined;
}
