/**
 * A rank vector as the search reads it: value by page id, in typed arrays (no Map entry per
 * page). Reads like a read-only Map in the order the ids were given.
 */
export class RankColumn implements Iterable<[number, number]> {
  private readonly ids: Int32Array;
  private readonly values: Float64Array;
  /** Position of each id in `ids` (-1: none). */
  private readonly positionOfId: Int32Array;

  constructor(ids: ArrayLike<number>, values: ArrayLike<number>) {
    // Typed arrays are copied in native code (a million ranks at every rank refresh).
    this.ids = ids instanceof Int32Array ? ids.slice() : Int32Array.from(ids);
    this.values = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
    const n = this.ids.length;
    let maxId = -1;
    for (let i = 0; i < n; i++) if (this.ids[i] > maxId) maxId = this.ids[i];
    this.positionOfId = new Int32Array(maxId + 1).fill(-1);
    for (let i = 0; i < n; i++) if (this.ids[i] >= 0) this.positionOfId[this.ids[i]] = i;
  }

  get size(): number {
    return this.ids.length;
  }

  get(id: number): number | undefined {
    const at = id >= 0 && id < this.positionOfId.length ? this.positionOfId[id] : -1;
    return at < 0 ? undefined : this.values[at];
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  *keys(): IterableIterator<number> {
    yield* this.ids;
  }

  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let i = 0; i < this.ids.length; i++) yield [this.ids[i], this.values[i]];
  }
}
