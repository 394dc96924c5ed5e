/**
 * Long work written as a generator that yields where it may stop for a moment: run at once
 * ({@link runSteps}), or with the event loop served between steps ({@link runStepsYielding}), so
 * a server keeps answering while a million items are sorted or indexed beside it.
 */

/** Runs every step at once; the generator's result. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Resolves on a later turn of the event loop, after the I/O (requests, timers) waiting now. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * For a loop over items of uneven cost: the function returned, awaited once per item, gives the
 * event loop a turn whenever `ms` of work have passed since the last one (else resolves at once).
 */
export function timeSlices(ms: number): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart <= ms) return undefined;
    return nextTurn().then(() => {
      sliceStart = performance.now();
    });
  };
}

/** Runs the steps with the event loop served at each yield; the generator's result. */
export async function runStepsYielding<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/**
 * A stable sort of `items` by `compare` (the order Array.prototype.sort gives): runs of `run`
 * items sorted, then merged pairwise, yielding after each run and every 4 × `run` items merged.
 */
export function* mergeSortSteps(items: Int32Array, compare: (a: number, b: number) => number, run = 4096): Generator<void, Int32Array<ArrayBuffer>> {
  let from = Int32Array.from(items);
  const n = from.length;
  for (let start = 0; start < n; start += run) {
    from.subarray(start, Math.min(n, start + run)).sort(compare);
    yield;
  }
  let to = new Int32Array(n);
  let sinceYield = 0;
  for (let width = run; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(n, left + width);
      const right = Math.min(n, left + 2 * width);
      let i = left;
      let j = middle;
      let k = left;
      while (k < right) {
        to[k++] = j >= right || (i < middle && compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
        if (++sinceYield === run * 4) {
          sinceYield = 0;
          yield;
        }
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
}
