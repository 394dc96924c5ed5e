/**
 * The one link-graph type of the project: compressed sparse rows over typed arrays.
 *
 * Pages are dense ids `0 … nodeCount-1`. Out-links of page `i` are
 * `outTargets[outOffsets[i] … outOffsets[i+1])`, sorted ascending, with self-links and
 * duplicate links removed. In-links are derived on demand by
 * {@link inLinks} and cached on the graph, because PageRank (pull form) and the selectors
 * need them but loading and growing a graph does not.
 */
export interface LinkGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** Length `nodeCount + 1`. */
  readonly outOffsets: Int32Array;
  /** Length `edgeCount`; sorted within each row. */
  readonly outTargets: Int32Array;
}

/** In-links in CSR form: the sources linking to `j` are `sources[offsets[j] … offsets[j+1])`, sorted. */
export interface InLinks {
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
}

export class GraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphError';
  }
}

/**
 * Builds a graph from parallel source/target arrays (any order, may hold self-links and
 * duplicates, which are dropped). Cost O(n + m) plus a per-row sort.
 */
export function buildGraph(nodeCount: number, sources: ArrayLike<number>, targets: ArrayLike<number>, edgeCount = sources.length): LinkGraph {
  if (!Number.isInteger(nodeCount) || nodeCount < 0) throw new GraphError(`invalid node count ${nodeCount}`);
  if (targets.length < edgeCount || sources.length < edgeCount) throw new GraphError('sources and targets are shorter than the edge count');
  const counts = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) {
    const s = sources[e];
    const t = targets[e];
    if (!(s >= 0 && s < nodeCount && t >= 0 && t < nodeCount) || !Number.isInteger(s) || !Number.isInteger(t)) {
      throw new GraphError(`edge ${s} -> ${t} is outside 0..${nodeCount - 1}`);
    }
    if (s !== t) counts[s + 1]++;
  }
  for (let i = 0; i < nodeCount; i++) counts[i + 1] += counts[i];
  const fill = counts.slice(0, nodeCount);
  const raw = new Int32Array(counts[nodeCount]);
  for (let e = 0; e < edgeCount; e++) {
    const s = sources[e];
    const t = targets[e];
    if (s !== t) raw[fill[s]++] = t;
  }
  return compactRows(nodeCount, counts, raw);
}

/** Builds a graph from one adjacency list per page (entries may repeat or self-link). */
export function graphFromAdjacency(rows: ReadonlyArray<ArrayLike<number>>): LinkGraph {
  const nodeCount = rows.length;
  const counts = new Int32Array(nodeCount + 1);
  for (let i = 0; i < nodeCount; i++) counts[i + 1] = counts[i] + rows[i].length;
  const raw = new Int32Array(counts[nodeCount]);
  for (let i = 0; i < nodeCount; i++) {
    const row = rows[i];
    const base = counts[i];
    for (let k = 0; k < row.length; k++) {
      const t = row[k];
      if (!(t >= 0 && t < nodeCount) || !Number.isInteger(t)) throw new GraphError(`edge ${i} -> ${t} is outside 0..${nodeCount - 1}`);
      // Self-links become -1 and are dropped by compactRows.
      raw[base + k] = t === i ? -1 : t;
    }
  }
  return compactRows(nodeCount, counts, raw);
}

/** Sorts each row, drops duplicates and negative (removed) entries, and packs the rows. */
function compactRows(nodeCount: number, offsets: Int32Array, raw: Int32Array): LinkGraph {
  const outOffsets = new Int32Array(nodeCount + 1);
  let write = 0;
  for (let i = 0; i < nodeCount; i++) {
    const start = offsets[i];
    const end = offsets[i + 1];
    if (end - start > 1) raw.subarray(start, end).sort();
    let previous = -1;
    for (let e = start; e < end; e++) {
      const t = raw[e];
      if (t < 0 || t === previous) continue;
      raw[write++] = t;
      previous = t;
    }
    outOffsets[i + 1] = write;
  }
  const outTargets = write === raw.length ? raw : raw.slice(0, write);
  return { nodeCount, edgeCount: write, outOffsets, outTargets };
}

/** Out-degree of every page inside the graph. */
export function outDegrees(graph: LinkGraph): Int32Array {
  const { nodeCount, outOffsets } = graph;
  const degree = new Int32Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) degree[i] = outOffsets[i + 1] - outOffsets[i];
  return degree;
}

/** In-degree of every page inside the graph. */
export function inDegrees(graph: LinkGraph): Int32Array {
  const degree = new Int32Array(graph.nodeCount);
  const targets = graph.outTargets;
  for (let e = 0; e < targets.length; e++) degree[targets[e]]++;
  return degree;
}

const inLinkCache = new WeakMap<LinkGraph, InLinks>();

/** The transpose of the graph (cached per graph object; graphs are immutable). */
export function inLinks(graph: LinkGraph): InLinks {
  const cached = inLinkCache.get(graph);
  if (cached) return cached;
  const { nodeCount, outOffsets, outTargets } = graph;
  const offsets = new Int32Array(nodeCount + 1);
  for (let e = 0; e < outTargets.length; e++) offsets[outTargets[e] + 1]++;
  for (let j = 0; j < nodeCount; j++) offsets[j + 1] += offsets[j];
  const fill = offsets.slice(0, nodeCount);
  const sources = new Int32Array(outTargets.length);
  // Sources are visited in ascending order, so every in-link row comes out sorted.
  for (let i = 0; i < nodeCount; i++) {
    for (let e = outOffsets[i]; e < outOffsets[i + 1]; e++) sources[fill[outTargets[e]]++] = i;
  }
  const result = { offsets, sources };
  inLinkCache.set(graph, result);
  return result;
}

/**
 * The subgraph induced by `pages` (ids of `graph`), renumbered `0 … pages.length-1` in the
 * order given. Links to pages outside the set are dropped.
 */
export function inducedSubgraph(graph: LinkGraph, pages: ArrayLike<number>): LinkGraph {
  const position = new Int32Array(graph.nodeCount).fill(-1);
  for (let k = 0; k < pages.length; k++) {
    const p = pages[k];
    if (position[p] !== -1) throw new GraphError(`page ${p} appears twice in the subgraph`);
    position[p] = k;
  }
  const n = pages.length;
  const outOffsets = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    const p = pages[k];
    let count = 0;
    for (let e = graph.outOffsets[p]; e < graph.outOffsets[p + 1]; e++) if (position[graph.outTargets[e]] >= 0) count++;
    outOffsets[k + 1] = outOffsets[k] + count;
  }
  const outTargets = new Int32Array(outOffsets[n]);
  for (let k = 0; k < n; k++) {
    const p = pages[k];
    let write = outOffsets[k];
    for (let e = graph.outOffsets[p]; e < graph.outOffsets[p + 1]; e++) {
      const q = position[graph.outTargets[e]];
      if (q >= 0) outTargets[write++] = q;
    }
    // Renumbering can reorder a row.
    if (outOffsets[k + 1] - outOffsets[k] > 1) outTargets.subarray(outOffsets[k], outOffsets[k + 1]).sort();
  }
  return { nodeCount: n, edgeCount: outTargets.length, outOffsets, outTargets };
}

/** Pages reachable from `start` within `radius` out-links (breadth-first), in visiting order. */
export function outLinkBall(graph: LinkGraph, start: number, radius: number): Int32Array {
  if (!(start >= 0 && start < graph.nodeCount)) throw new GraphError(`page ${start} is not in the graph`);
  const seen = new Uint8Array(graph.nodeCount);
  const order: number[] = [start];
  seen[start] = 1;
  let levelStart = 0;
  for (let level = 0; level < radius; level++) {
    const levelEnd = order.length;
    if (levelStart === levelEnd) break;
    for (let q = levelStart; q < levelEnd; q++) {
      const i = order[q];
      for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) {
        const t = graph.outTargets[e];
        if (!seen[t]) {
          seen[t] = 1;
          order.push(t);
        }
      }
    }
    levelStart = levelEnd;
  }
  return Int32Array.from(order);
}
