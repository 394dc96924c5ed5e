/**
 * Which segments to merge: a simplified form of Lucene's tiered merge policy. Updates add small
 * segments and deletions leave dead documents behind; merging packs small segments (smallest
 * first) into segments of at most `maxSegmentDocs` live documents and rewrites segments whose
 * share of deleted documents is too high. Pure: the index executes what this returns.
 */

export interface MergePolicyOptions {
  maxSegmentDocs: number;
  /** Natural merges start when more small segments than this have piled up. */
  segmentsPerTier: number;
  /** A segment with more than this share of deleted documents is rewritten. */
  maxDeletedShare: number;
}

export interface SegmentSummary {
  name: string;
  docCount: number;
  liveCount: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicyOptions = { maxSegmentDocs: 1_000, segmentsPerTier: 8, maxDeletedShare: 0.25 };

/**
 * Groups of segment names; each group becomes one segment (or none, when it has no live document).
 * `force` merges whatever can be merged now (the explicit `merge` command); otherwise only when
 * small segments exceed the tier or some segment carries too many deletions.
 */
export function selectMerges(segments: readonly SegmentSummary[], options: MergePolicyOptions, force = false): string[][] {
  const small = (s: SegmentSummary) => s.liveCount < options.maxSegmentDocs / 2;
  const tooManyDeleted = (s: SegmentSummary) => s.docCount > 0 && (s.docCount - s.liveCount) / s.docCount > options.maxDeletedShare;
  const smallCount = segments.filter(small).length;
  if (!force && smallCount <= options.segmentsPerTier && !segments.some(tooManyDeleted)) return [];

  const candidates = segments
    .filter((s) => small(s) || tooManyDeleted(s) || (force && s.liveCount < s.docCount))
    .sort((a, b) => a.liveCount - b.liveCount || a.name.localeCompare(b.name));
  const groups: SegmentSummary[][] = [];
  let group: SegmentSummary[] = [];
  let groupLive = 0;
  for (const segment of candidates) {
    if (group.length > 0 && groupLive + segment.liveCount > options.maxSegmentDocs) {
      groups.push(group);
      group = [];
      groupLive = 0;
    }
    group.push(segment);
    groupLive += segment.liveCount;
  }
  if (group.length > 0) groups.push(group);
  // A lone segment is worth rewriting only to drop its deleted documents.
  return groups.filter((g) => g.length > 1 || g[0].liveCount < g[0].docCount).map((g) => g.map((s) => s.name));
}
