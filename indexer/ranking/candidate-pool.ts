/**
 * How many text candidates a search ranks. Grouping (copies and translations make one hit) and
 * the visitor's language (a match in another language is ordered at a share of its score) need
 * more candidates than hits; 500 covered both, at the cost of 500 candidates blended, grouped and
 * given their matched terms on every query. When the text index returns candidates in blend
 * order (the prior as a static rank), a few times the page is enough unless grouping needs more:
 * the search starts small and takes the full pool only when the first groups could still change.
 */
import type { CandidateGroup, GroupTable } from './hit-groups.ts';

/** Candidates asked for first: this many, or four times the hits wanted. */
export const FIRST_POOL = 40;

/**
 * The candidates asked for first. On a plain site (every page its own group, one language) the
 * hits are the best candidates as they come, and one more tells whether the last hit is surely
 * above every match left out; top-k then raises its threshold sooner and scores fewer matches.
 */
export function firstPool(wanted: number, pool: number, plain = false): number {
  return Math.min(pool, plain ? wanted + 1 : Math.max(FIRST_POOL, wanted * 4));
}

/**
 * Whether the first `wanted` groups, ranked from the best `size` candidates by blend (`taken`
 * of them came back, `lowest` the last one's score), are those every match would give: a match
 * left out scores at most `lowest`, so it can neither pass the `wanted`-th group nor join one
 * of the first groups unless that group has matching pages outside the candidates.
 */
export function poolSuffices<C extends { id: number; score: number }>(
  table: GroupTable,
  groups: ReadonlyArray<CandidateGroup<C>>,
  wanted: number,
  size: number,
  taken: number,
  lowest: number,
  visitor: readonly number[],
  otherLanguageWeight: number,
  /** Whether a page is a match the page's filter accepts (one that could be a candidate). */
  couldBeCandidate: (id: number) => boolean,
): boolean {
  if (taken < size) return true;
  if (groups.length < wanted) return false;
  const facts = table.facts;
  const inVisitorLanguage = (id: number) => {
    const row = facts.rowOf(id);
    return row >= 0 && visitor.some((code) => table.hasLanguage(row, code));
  };
  // What a left-out match could be ordered by (a share of a negative score is larger).
  const outside = visitor.length > 0 ? Math.max(lowest, lowest * otherLanguageWeight) : lowest;
  const last = groups[wanted - 1];
  let key = -Infinity;
  for (const candidate of last.matched) {
    const value = visitor.length === 0 || inVisitorLanguage(candidate.id) ? candidate.score : candidate.score * otherLanguageWeight;
    if (value > key) key = value;
  }
  if (!(key > outside)) return false;
  const candidateIds = new Set<number>();
  for (const group of groups) for (const candidate of group.matched) candidateIds.add(candidate.id);
  for (let g = 0; g < wanted; g++) {
    if (groups[g].key < 0) continue;
    for (const row of facts.membersOf(groups[g].key)) {
      const id = facts.ids[row];
      if (facts.isIndexed(row) && !candidateIds.has(id) && couldBeCandidate(id)) return false;
    }
  }
  return true;
}
