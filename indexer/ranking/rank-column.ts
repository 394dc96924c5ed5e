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

  /** The ids and their values, in the column's order: its own arrays, not to be changed. */
  arrays(): { ids: Int32Array; values: Float64Array } {
    return { ids: this.ids, values: this.values };
  }

  *keys(): IterableIterator<number> {
    yield* this.ids;
  }

  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let i = 0; i < this.ids.length; i++) yield [this.ids[i], this.values[i]];
  }
}

function* columnSteps(ids: ArrayLike<number>, values: ArrayLike<number>): Generator<void, { ids: Int32Array; values: Float64Array; positionOfId: Int32Array }> {
  // Copied in native code a slice per step (a million ranks at every rank refresh; from an array
  // of another type, `from` went through its iterator: 200 ms at once).
  const ownIds = yield* copySteps(new Int32Array(ids.length), ids);
  const ownValues = yield* copySteps(new Float64Array(values.length), values);
  const n = ownIds.length;
  let maxId = -1;
  for (let i = 0; i < n; i++) if (ownIds[i] > maxId) maxId = ownIds[i];
  const positionOfId = new Int32Array(maxId + 1).fill(-1);
  yield;
  // Writes all over a large array: a slice per step (a million at once held the event loop 90 ms).
  for (let start = 0; start < n; start += COPY_SLICE) {
    const end = Math.min(n, start + COPY_SLICE);
    for (let i = start; i < end; i++) if (ownIds[i] >= 0) positionOfId[ownIds[i]] = i;
    yield;
  }
  return { ids: ownIds, values: ownValues, positionOfId };
}

/** Entries copied into `into` per step. */
const COPY_SLICE = 1 << 18;

function* copySteps<T extends Int32Array | Float64Array>(into: T, from: ArrayLike<number>): Generator<void, T> {
  for (let start = 0; start < into.length; start += COPY_SLICE) {
    const end = Math.min(into.length, start + COPY_SLICE);
    // Native copies, from a typed array or a plain one (an element loop over an ArrayLike took 100 ms a slice).
    if (ArrayBuffer.isView(from)) into.set((from as unknown as T).subarray(start, end), start);
    else if (Array.isArray(from)) into.set(from.slice(start, end), start);
    else for (let i = start; i < end; i++) into[i] = from[i];
    yield;
  }
  return into;
}
