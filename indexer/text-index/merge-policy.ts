/**
 * Which segments to merge: a log-structured (tiered) policy like Lucene's. New segments are small
 * (at most `maxSegmentDocs` pages: fast to build, soon searchable). Segments fall into tiers by
 * their live pages: tier 0 holds up to `maxSegmentDocs`, tier t up to `maxSegmentDocs ·
 * segmentsPerTier^t`. When a tier holds `segmentsPerTier` segments, they merge into one segment of
 * the next tier, so the count of segments grows with the logarithm of the pages: 1M pages with the
 * defaults (1,000 · 10^t, at most 100,000 a segment) are ten segments of 100k plus at most nine of
 * each smaller tier. A segment past half of `maxMergedSegmentDocs` merges no more, except to drop
 * its deleted pages once they pass `maxDeletedShare`. Pure: the index executes what this returns.
 */

export interface MergePolicyOptions {
  /** Pages of a new segment (the size of tier 0). */
  maxSegmentDocs: number;
  /** Segments a tier holds before they merge into one of the next tier (the merge factor). */
  segmentsPerTier: number;
  /** Live pages a merge may produce at most (merges stop growing segments there). */
  maxMergedSegmentDocs: number;
  /** A segment with more than this share of deleted documents is rewritten. */
  maxDeletedShare: number;
}

export interface SegmentSummary {
  name: string;
  docCount: number;
  liveCount: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicyOptions = { maxSegmentDocs: 1_000, segmentsPerTier: 10, maxMergedSegmentDocs: 100_000, maxDeletedShare: 0.25 };

/** The tier of a segment with this many live pages. */
export function tierOf(liveCount: number, options: MergePolicyOptions): number {
  const factor = Math.max(2, options.segmentsPerTier);
  let tier = 0;
  for (let bound = Math.max(1, options.maxSegmentDocs); liveCount > bound; bound *= factor) tier++;
  return tier;
}

/**
 * Groups of segment names; each group becomes one segment (or none, when it has no live document).
 * Natural merges: each tier that holds `segmentsPerTier` mergeable segments merges its smallest
 * ones (as many as fit under `maxMergedSegmentDocs`, at most `segmentsPerTier`); segments with
 * too many deletions are rewritten. `force` (the explicit `merge` command) also merges tiers that
 * hold two or more segments, and rewrites every segment that has a deleted page.
 */
export function selectMerges(segments: readonly SegmentSummary[], options: MergePolicyOptions, force = false): string[][] {
  const factor = Math.max(2, options.segmentsPerTier);
  const maxMerged = Math.max(options.maxSegmentDocs, options.maxMergedSegmentDocs);
  const tooManyDeleted = (s: SegmentSummary) => s.docCount > 0 && (s.docCount - s.liveCount) / s.docCount > options.maxDeletedShare;
  const mergeable = (s: SegmentSummary) => s.liveCount <= maxMerged / 2;
  const groups: string[][] = [];
  const taken = new Set<string>();

  const tiers = new Map<number, SegmentSummary[]>();
  for (const segment of segments) {
    if (segment.liveCount === 0 || !mergeable(segment)) continue;
    const tier = tierOf(segment.liveCount, options);
    let list = tiers.get(tier);
    if (!list) tiers.set(tier, (list = []));
    list.push(segment);
  }
  for (const tier of [...tiers.keys()].sort((a, b) => a - b)) {
    const list = tiers.get(tier)!.sort((a, b) => a.liveCount - b.liveCount || a.name.localeCompare(b.name));
    // A tier merges once it is full (natural) or holds two segments (forced); the rest wait.
    while (list.length >= (force ? 2 : factor)) {
      const group: SegmentSummary[] = [];
      let live = 0;
      for (const segment of list) {
        if (group.length >= factor || live + segment.liveCount > maxMerged) break;
        group.push(segment);
        live += segment.liveCount;
      }
      if (group.length < 2) break;
      groups.push(group.map((s) => s.name));
      for (const s of group) taken.add(s.name);
      list.splice(0, group.length);
    }
  }
  // A lone segment is rewritten only to drop its deleted documents (or dropped when none is live).
  for (const segment of segments) {
    if (taken.has(segment.name)) continue;
    if (segment.liveCount === 0 || tooManyDeleted(segment) || (force && segment.liveCount < segment.docCount)) groups.push([segment.name]);
  }
  return groups;
}
