/**
 * Typed-array parts of the supergraph (supergraph.ts): a growable integer list, the key order of
 * frontier candidates, and the merge of new edges into a CSR graph.
 */
import { buildGraph, type LinkGraph } from '../graph.ts';

/** A growable Int32Array. */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): number {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length] = value;
    return this.length++;
  }
  /** Empties the list, giving back the memory a large batch (a round's start) grew it to. */
  clear(): void {
    this.length = 0;
    if (this.data.length > 1 << 16) this.data = new Int32Array(1024);
  }
}

/** Key order: numbers as numbers, anything else (URLs) as strings compare. */
export const compareKeys = <K>(a: K, b: K): number => (typeof a === 'number' ? (a as number) - (b as unknown as number) : a < b ? -1 : a > b ? 1 : 0);

/**
 * `slots` in ascending order of their keys. Integer keys (offline page numbers) are sorted as
 * numbers packed with their position, without a comparator: the first view of a continuing
 * round sorts every candidate of a large F at once.
 */
export function sortByKey<K>(slots: number[], slotKeys: readonly K[]): number[] {
  const n = slots.length;
  let packable = n > 0;
  for (let i = 0; i < n && packable; i++) {
    const key = slotKeys[slots[i]];
    packable = typeof key === 'number' && Number.isInteger(key) && key >= 0 && key * n + n < Number.MAX_SAFE_INTEGER;
  }
  if (!packable) return slots.sort((a, b) => compareKeys(slotKeys[a], slotKeys[b]));
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = (slotKeys[slots[i]] as number) * n + i;
  packed.sort();
  return Array.from(packed, (value) => slots[value % n]);
}

/**
 * `graph` (rows sorted, without repeats or self-links) grown to `nodeCount` pages with the edges
 * `from[e] → to[e]` (`e < edgeCount`, any order, repeats and self-links allowed): the graph
 * buildGraph gives for all the edges, without sorting the old rows again.
 */
export function mergeEdges(graph: LinkGraph, nodeCount: number, from: ArrayLike<number>, to: ArrayLike<number>, edgeCount: number): LinkGraph {
  if (nodeCount < graph.nodeCount) throw new RangeError(`cannot shrink a graph of ${graph.nodeCount} pages to ${nodeCount}`);
  const added = buildGraph(nodeCount, from, to, edgeCount);
  const outOffsets = new Int32Array(nodeCount + 1);
  const outTargets = new Int32Array(graph.edgeCount + added.edgeCount);
  const { outOffsets: oldOffsets, outTargets: oldTargets } = graph;
  const { outOffsets: newOffsets, outTargets: newTargets } = added;
  let w = 0;
  for (let i = 0; i < nodeCount; i++) {
    let a = i < graph.nodeCount ? oldOffsets[i] : 0;
    const aEnd = i < graph.nodeCount ? oldOffsets[i + 1] : 0;
    let b = newOffsets[i];
    const bEnd = newOffsets[i + 1];
    if (b === bEnd || a === aEnd || oldTargets[aEnd - 1] < newTargets[b]) {
      // The usual case: no new links, or new links past the row's last (pages join in id order).
      while (a < aEnd) outTargets[w++] = oldTargets[a++];
      while (b < bEnd) outTargets[w++] = newTargets[b++];
    } else {
      while (a < aEnd || b < bEnd) {
        const t = b === bEnd || (a < aEnd && oldTargets[a] <= newTargets[b]) ? oldTargets[a++] : newTargets[b++];
        if (w === outOffsets[i] || outTargets[w - 1] !== t) outTargets[w++] = t;
      }
    }
    outOffsets[i + 1] = w;
  }
  return { nodeCount, edgeCount: w, outOffsets, outTargets: w === outTargets.length ? outTargets : outTargets.slice(0, w) };
}
