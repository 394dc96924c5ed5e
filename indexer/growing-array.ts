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

  done(): A {
    return this.data.slice(0, this.length) as A;
  }
}
