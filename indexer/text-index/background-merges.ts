/**
 * Runs the merges the tiered policy asks for (merge-policy.ts). Each round takes the current
 * snapshot, merges the selected groups in the worker pool from the files on disk (merge-segment.ts),
 * then swaps the merged segments in under the index's write lock, carrying over the deletions
 * made meanwhile (merge-swap.ts). Searches go on on the current snapshot and updates go on too:
 * only the swap waits for the lock.
 */
import type { MergePolicyOptions } from './merge-policy.ts';
import { selectMerges } from './merge-policy.ts';
import { deletedOrdinals, segmentsAfterMerge } from './merge-swap.ts';
import type { SegmentBuilderPool } from './segment-builder-pool.ts';
import type { StoredSegment } from './segment-files.ts';
import { liveCount, type LiveSegment, type SegmentSet } from './segment-set.ts';

export interface MergeReport {
  /** Groups of segments that were merged (each into one new segment, or dropped when empty). */
  merged: string[][];
  segmentsBefore: number;
  segmentsAfter: number;
}

/** What the merges need of the index. */
export interface MergeHost {
  directory: string;
  pool: SegmentBuilderPool;
  policy: MergePolicyOptions;
  current(): SegmentSet;
  newSegmentName(): string;
  /** Opens a segment the pool wrote (segment-files.ts `openSegment`). */
  openSegment(name: string): StoredSegment;
  /** Runs work under the index's write lock. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Writes and swaps in the next generation (called under the lock). */
  commit(segments: LiveSegment[]): Promise<void>;
  removeSegmentFiles(names: readonly string[]): Promise<void>;
}

export class BackgroundMerges {
  /** Set by close: merges finish the round they are in and start no other. */
  closing = false;
  /** Segments being merged, and the merged segments being written (their files must stay). */
  readonly busy = new Set<string>();
  private loop: Promise<void> | null = null;
  private wanted = false;

  constructor(private readonly host: MergeHost) {}

  /** Merges in the background until the policy is satisfied (after an update). */
  schedule(): void {
    if (this.closing) return;
    this.wanted = true;
    if (this.loop) return;
    this.loop = (async () => {
      while (this.wanted && !this.closing) {
        this.wanted = false;
        try {
          await this.rounds(false, false);
        } catch (error) {
          warnMergeFailed(error);
          return;
        }
      }
    })().finally(() => (this.loop = null));
  }

  /** Resolves once no background merge runs. */
  async settled(): Promise<void> {
    while (this.loop) await this.loop;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.settled();
  }

  /** Merge rounds until the policy selects nothing; `locked`: the caller holds the write lock. */
  async rounds(force: boolean, locked: boolean): Promise<MergeReport> {
    const segmentsBefore = this.host.current().segments.length;
    const merged: string[][] = [];
    while (!this.closing) {
      const groups = await this.round(force, locked);
      if (groups.length === 0) break;
      merged.push(...groups);
    }
    return { merged, segmentsBefore, segmentsAfter: this.host.current().segments.length };
  }

  /** One round: the groups the policy selects on the current snapshot, merged and swapped in as one generation. */
  private async round(force: boolean, locked: boolean): Promise<string[][]> {
    const { host } = this;
    const start = host.current();
    const summaries = start.segments
      .map((s) => ({ name: s.stored.postings.name, docCount: s.stored.postings.docIds.length, liveCount: liveCount(s) }))
      .filter((s) => !this.busy.has(s.name));
    const groups = selectMerges(summaries, host.policy, force);
    if (groups.length === 0) return [];
    const byName = new Map(start.segments.map((s) => [s.stored.postings.name, s]));
    const outputs = groups.map((group) => (group.some((name) => liveCount(byName.get(name)!) > 0) ? host.newSegmentName() : null));
    const written = outputs.filter((name) => name !== null);
    const busy = [...groups.flat(), ...written];
    for (const name of busy) this.busy.add(name);
    try {
      const jobs = groups.map((group, i) => {
        const sources = group.map((name) => ({ name, deletedOrdinals: deletedOrdinals(byName.get(name)!) }));
        const output = outputs[i];
        return output === null ? Promise.resolve(null) : host.pool.merge(host.directory, output, sources).then(() => host.openSegment(output));
      });
      const settled = await Promise.allSettled(jobs);
      const failure = settled.find((r) => r.status === 'rejected');
      if (failure) {
        await host.removeSegmentFiles(written);
        throw (failure as PromiseRejectedResult).reason;
      }
      const built = settled.map((r) => (r.status === 'fulfilled' ? r.value : null));
      const swap = () => this.swap(byName, groups, built);
      const committed = locked ? await swap() : await host.exclusive(swap);
      if (!committed) await host.removeSegmentFiles(written);
      return groups;
    } finally {
      for (const name of busy) this.busy.delete(name);
    }
  }

  /** False when a source is gone (a rebuild replaced it): the merge is dropped. */
  private async swap(started: ReadonlyMap<string, LiveSegment>, groups: readonly string[][], built: ReadonlyArray<StoredSegment | null>): Promise<boolean> {
    const segments = segmentsAfterMerge(this.host.current().segments, started, groups, built);
    if (!segments) return false;
    await this.host.commit(segments);
    return true;
  }
}

/** A failed merge leaves the index as it was; the next update tries again. */
export function warnMergeFailed(error: unknown): void {
  process.emitWarning(`text index merge failed: ${error instanceof Error ? error.message : String(error)}`, { code: 'LSE_INDEX_MERGE_FAILED' });
}
