/** A typed array that grows by doubling, for columns whose length is known only at the end. */

export type NumberArray = Int32Array | Uint16Array | Uint8Array | Float64Array;

/** Values pushed one at a time; `done` gives them as an array of their length. */
export class GrowingArray<A extends NumberArray> {
  private data: A;
  length = 0;

  constructor(private readonly make: (size: number) => A) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.data.length * 2);
    this.data[this.length++] = value;
  }

  /** Room for `capacity` values (the length expected), so that no doubling copies the array later. */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const larger = this.make(capacity);
    larger.set(this.data.subarray(0, this.length));
    this.data = larger;
  }

  at(index: number): number {
    return this.data[index];
  }

  /** The values: a view of the array when little of it is unused (it was reserved to about their number), else a copy. */
  done(): A {
    return fitted(this.data, this.length);
  }
}

/**
 * The first `length` values of `array`: a view when at most an eighth of it would be left over,
 * else a copy of their own. Copying a million-row column took 1-2 ms, dozens of them at the end of
 * a server's refresh; a view costs nothing and keeps the unused end alive.
 */
export function fitted<T extends NumberArray>(array: T, length: number): T {
  return (array.length - length <= array.length / 8 ? array.subarray(0, length) : array.slice(0, length)) as T;
}
