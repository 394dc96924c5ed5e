/**
 * Searches on a copy of the snapshot in which every segment has deleted pages, their results
 * thrown away. A segment with deleted pages takes paths of the search that one without never
 * takes (its live term counts, the deleted flags of its matches, its statistics), and an index
 * built whole has none. V8 compiles the search for what it has run: at a server's first update,
 * the first segments with deletions threw that code away (no type feedback on those paths) and the
 * searches beside the update ran uncompiled until it was made again, several times slower. Run
 * once while a server warms, these searches give those paths their feedback before anyone waits.
 * Nothing is shared with the real snapshot but the segments' stored postings and caches keyed by
 * them, which deletions do not change.
 */
import { MatchCollector } from './match-collector.ts';
import { searchSnapshot } from './search.ts';
import { makeSegmentSet, withDeletions, type LiveSegment, type SegmentSet } from './segment-set.ts';
import { nextTurn } from '../stepwise.ts';

/** One page in this many is deleted in the copy: few enough that lists gallop to them, enough that short lists check them by flag. */
const DELETED_EVERY = 64;

/** The snapshot with pages of each segment without deletions marked deleted; null when every segment has some already. */
export function rehearsalSnapshot(set: SegmentSet): SegmentSet | null {
  if (set.segments.every((segment) => segment.deleted !== null)) return null;
  return makeSegmentSet(set.generation, set.segments.map(withSomeDeleted));
}

/**
 * A segment with one page in {@link DELETED_EVERY} deleted, or its middle page when it has fewer
 * (a segment of one page is left whole, so that it stays live). A term's live count takes out the
 * deleted pages by looking them up in its list when they are few beside it, and by checking each
 * posting's flag otherwise: an update's deletions take both ways, and so does this.
 */
function withSomeDeleted(segment: LiveSegment): LiveSegment {
  const { docIds } = segment.stored.postings;
  if (segment.deleted !== null || docIds.length < 2) return segment;
  const deleted: number[] = [];
  for (let ordinal = DELETED_EVERY - 1; ordinal < docIds.length; ordinal += DELETED_EVERY) deleted.push(docIds[ordinal]);
  return withDeletions(segment.stored, deleted.length > 0 ? deleted : [docIds[docIds.length >> 1]]);
}

export interface DeletionsRehearsed {
  /** Searches run on the copy (those the query syntax refused included). */
  searches: number;
  /** Segments given deleted pages for them. */
  segments: number;
  /** Live term counts the searches made on those segments (the paths of deletions ran). */
  liveCounts: number;
}

/**
 * Runs `queries` on {@link rehearsalSnapshot} of `set` (ten hits, every match collected and
 * filtered, as the engine searches) and looks up the pages found, a turn of the event loop between
 * two, until `deadline` (a `performance.now()` time).
 */
export async function rehearseDeletions(set: SegmentSet, queries: readonly string[], deadline: number): Promise<DeletionsRehearsed> {
  const copy = rehearsalSnapshot(set);
  const rehearsed: DeletionsRehearsed = { searches: 0, segments: 0, liveCounts: 0 };
  if (copy === null) return rehearsed;
  const changed = copy.segments.filter((segment, i) => segment !== set.segments[i]);
  rehearsed.segments = changed.length;
  for (const q of queries) {
    if (performance.now() >= deadline) break;
    rehearsed.searches++;
    try {
      const result = searchSnapshot(copy, q, { limit: 10, collect: new MatchCollector(), accept: (id) => id >= 0 });
      for (const hit of result.hits) copy.locations.get(hit.id);
    } catch {
      // A query the syntax refuses still ran its parse: nothing else to rehearse.
    }
    await nextTurn();
  }
  for (const segment of changed) rehearsed.liveCounts += segment.liveFrequencies?.size ?? 0;
  return rehearsed;
}
