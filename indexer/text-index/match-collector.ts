/**
 * The page ids of every match of a query, handed over a segment at a time as typed arrays (the
 * search's facet counts and totals read them). At a million pages a query has tens of thousands
 * of matches; pushing them one by one into a growing array cost more than finding them.
 */
export class MatchCollector {
  private readonly chunks: Int32Array[] = [];
  private count = 0;
  private joined: Int32Array | undefined;

  /** Adds a segment's matches (the collector keeps the array). */
  add(ids: Int32Array): void {
    if (ids.length === 0) return;
    this.chunks.push(ids);
    this.count += ids.length;
    this.joined = undefined;
  }

  get length(): number {
    return this.count;
  }

  /** Every id added, in the order added. */
  ids(): Int32Array {
    if (this.joined === undefined) {
      if (this.chunks.length === 1) this.joined = this.chunks[0];
      else {
        const joined = new Int32Array(this.count);
        let at = 0;
        for (const chunk of this.chunks) {
          joined.set(chunk, at);
          at += chunk.length;
        }
        this.joined = joined;
      }
    }
    return this.joined;
  }
}
