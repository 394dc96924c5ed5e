/**
 * What a finished merge swaps in. A merge reads its sources as they were when it started; updates
 * may have deleted pages from them since (a page replaced or removed). Those pages are deleted
 * in the merged segment too, so no update is lost; if a source is gone altogether (a rebuild or
 * another merge replaced it), the merge is dropped.
 */
import type { StoredSegment } from './segment-files.ts';
import { liveCount, withDeletions, type LiveSegment } from './segment-set.ts';

/**
 * The segments of the next generation: `current` with each group replaced by its merged segment
 * (at the place of the group's first source; none when no page of it is live), or null when a
 * source is no longer in `current`.
 */
export function segmentsAfterMerge(
  current: readonly LiveSegment[],
  started: ReadonlyMap<string, LiveSegment>,
  groups: readonly string[][],
  built: ReadonlyArray<StoredSegment | null>,
): LiveSegment[] | null {
  const now = new Map(current.map((s) => [s.stored.postings.name, s]));
  if (groups.some((group) => group.some((name) => !now.has(name)))) return null;
  const replacements = new Map<string, LiveSegment | null>();
  groups.forEach((group, i) => {
    const carried = group.flatMap((name) => deletedSince(started.get(name)!, now.get(name)!));
    const segment = built[i] ? withDeletions(built[i]!, carried) : null;
    replacements.set(group[0], segment && liveCount(segment) > 0 ? segment : null);
  });
  const replaced = new Set(groups.flat());
  const segments: LiveSegment[] = [];
  for (const segment of current) {
    const name = segment.stored.postings.name;
    // Segments stay roughly in page order.
    const next = replaced.has(name) ? replacements.get(name) : segment;
    if (next) segments.push(next);
  }
  return segments;
}

/** Ordinals of a segment's deleted documents. */
export function deletedOrdinals(segment: LiveSegment): number[] {
  const ordinals: number[] = [];
  if (segment.deleted) segment.deleted.forEach((flag, ordinal) => flag && ordinals.push(ordinal));
  return ordinals;
}

/** Page ids deleted in `now` that were live in `before` (two views of one stored segment). */
function deletedSince(before: LiveSegment, now: LiveSegment): number[] {
  const ids: number[] = [];
  if (!now.deleted || now === before) return ids;
  const { docIds } = now.stored.postings;
  for (let i = 0; i < docIds.length; i++) if (now.deleted[i] && !before.deleted?.[i]) ids.push(docIds[i]);
  return ids;
}
