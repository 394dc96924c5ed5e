/**
 * A rank vector as the search reads it: value by page id, in typed arrays (no Map entry per
 * page). Reads like a read-only Map in the order the ids were given.
 */
import { runSteps } from '../stepwise.ts';

export class RankColumn implements Iterable<[number, number]> {
  private readonly ids: Int32Array;
  private readonly values: Float64Array;
  /** Position of each id in `ids` (-1: none). */
  private readonly positionOfId: Int32Array;

  constructor(ids: ArrayLike<number>, values: ArrayLike<number>, made?: { ids: Int32Array; values: Float64Array; positionOfId: Int32Array }) {
    ({ ids: this.ids, values: this.values, positionOfId: this.positionOfId } = made ?? runSteps(columnSteps(ids, values)));
  }

  /** The column made in steps (a copy or a pass over a million ranks each), for a server's switch to new ranks. */
  static *steps(ids: ArrayLike<number>, values: ArrayLike<number>): Generator<void, RankColumn> {
    return new RankColumn(ids, values, yield* columnSteps(ids, values));
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

function* columnSteps(ids: ArrayLike<number>, values: ArrayLike<number>): Generator<void, { ids: Int32Array; values: Float64Array; positionOfId: Int32Array }> {
  // Typed arrays are copied in native code (a million ranks at every rank refresh).
  const ownIds = ids instanceof Int32Array ? ids.slice() : Int32Array.from(ids);
  yield;
  const ownValues = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  yield;
  const n = ownIds.length;
  let maxId = -1;
  for (let i = 0; i < n; i++) if (ownIds[i] > maxId) maxId = ownIds[i];
  const positionOfId = new Int32Array(maxId + 1).fill(-1);
  yield;
  for (let i = 0; i < n; i++) if (ownIds[i] >= 0) positionOfId[ownIds[i]] = i;
  return { ids: ownIds, values: ownValues, positionOfId };
}
