/**
 * An exact name ranks first. When the whole query is one word or identifier and a page defines
 * it — its `definitions` field holds the query's own term: a definition's name, or the last
 * parts of a qualified one (`getcontext` of `decimal.getcontext`), as Sphinx's object index
 * matches a full or last-part name — the page's score is raised by a bound on any page's text
 * score for the query. Every such page then ranks above every page that only mentions the name
 * (a module's source listing, a release note), and the pages of the tier keep their order by
 * text score. The bound is a per-query constant known before any posting is read, so the tier is
 * an ordinary additive term for top-k pruning: its upper bound is the bonus itself.
 */
import { FIELD_NAMES } from './document.ts';
import type { FieldPostings } from './compact-segment.ts';

export const DEFINITIONS_FIELD = FIELD_NAMES.indexOf('definitions');

/** What the tier needs of a resolved clause. */
export interface ExactNameClause {
  presence: 'optional' | 'required' | 'prohibited';
  terms: readonly string[];
  /** Terms the query did not name (expansions): never an exact name. */
  expanded?: ReadonlySet<string>;
  phrases: unknown;
  fields: readonly number[];
}

/**
 * The query's own terms when the query names one thing (a single word or identifier, searched in
 * the definitions field), else an empty list: no tier.
 */
export function exactNameTerms(clauses: readonly ExactNameClause[]): string[] {
  const positive = clauses.filter((clause) => clause.presence !== 'prohibited');
  if (positive.length !== 1) return [];
  const [clause] = positive;
  if (clause.phrases !== null || !clause.fields.includes(DEFINITIONS_FIELD)) return [];
  return clause.terms.filter((term) => !clause.expanded?.has(term));
}

/**
 * Adds `bonus` to the score of every page whose definitions hold one of `terms` (once per page,
 * however many of the terms it holds).
 */
export function addExactNameBonus(field: FieldPostings, termNumbers: readonly number[], bonus: number, deleted: Uint8Array | null, scores: Float64Array): void {
  if (termNumbers.length === 0) return;
  const raised = termNumbers.length > 1 ? new Uint8Array(scores.length) : null;
  const { offsets, docs } = field;
  for (const t of termNumbers) {
    for (let p = offsets[t], end = offsets[t + 1]; p < end; p++) {
      const d = docs[p];
      if ((deleted !== null && deleted[d]) || (raised !== null && raised[d])) continue;
      if (raised !== null) raised[d] = 1;
      scores[d] += bonus;
    }
  }
}
