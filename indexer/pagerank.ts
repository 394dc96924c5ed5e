/**
 * PageRank: `P = α·F·D⁻¹ + (1−α)·v·eᵀ`, dangling pages redistribute
 * their whole mass along the teleport vector `v`, power iteration until the L1 change is below
 * the tolerance. This is the reference method; faster solvers must agree with it.
 */
import { inLinks, outDegrees, type LinkGraph } from './graph.ts';

export interface PageRankOptions {
  /** Probability of following a link (default 0.85). */
  alpha?: number;
  /** Stop when ‖r⁽ⁱ⁾ − r⁽ⁱ⁻¹⁾‖₁ < tolerance (default 1e-6). */
  tolerance?: number;
  /** Give up after this many iterations (default 1000); `converged` is then false. */
  maxIterations?: number;
  /** Personalised teleport vector (non-negative, any positive sum; normalised). Default uniform. */
  teleport?: Float64Array;
  /** Warm start (non-negative, any positive sum; normalised). Default uniform. */
  start?: Float64Array;
}

export interface PageRankResult {
  /** The PageRank vector, summing to 1. */
  rank: Float64Array;
  /** Power iterations performed. */
  iterations: number;
  /** L1 change of the last iteration. */
  residual: number;
  converged: boolean;
}

export class PageRankOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageRankOptionError';
  }
}

export interface ResolvedPageRankOptions {
  alpha: number;
  tolerance: number;
  maxIterations: number;
  teleport: Float64Array | undefined;
  start: Float64Array | undefined;
}

/** Validates options against a graph of `n` pages and fills in defaults. */
export function resolvePageRankOptions(n: number, options: PageRankOptions = {}): ResolvedPageRankOptions {
  const alpha = options.alpha ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 1000;
  if (!(alpha >= 0 && alpha < 1)) throw new PageRankOptionError(`alpha must be in [0, 1), got ${alpha}`);
  if (!(tolerance > 0)) throw new PageRankOptionError(`tolerance must be positive, got ${tolerance}`);
  if (!(Number.isInteger(maxIterations) && maxIterations >= 1)) throw new PageRankOptionError(`maxIterations must be a positive integer, got ${maxIterations}`);
  return {
    alpha,
    tolerance,
    maxIterations,
    teleport: options.teleport && normalisedCopy(options.teleport, n, 'teleport'),
    start: options.start && normalisedCopy(options.start, n, 'start'),
  };
}

function normalisedCopy(vector: Float64Array, n: number, name: string): Float64Array {
  if (vector.length !== n) throw new PageRankOptionError(`${name} vector has ${vector.length} entries for ${n} pages`);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = vector[i];
    if (!(x >= 0) || !Number.isFinite(x)) throw new PageRankOptionError(`${name} vector has an invalid entry ${x} at ${i}`);
    sum += x;
  }
  if (!(sum > 0)) throw new PageRankOptionError(`${name} vector sums to 0`);
  const copy = new Float64Array(n);
  for (let i = 0; i < n; i++) copy[i] = vector[i] / sum;
  return copy;
}

/** `1/o[i]` for pages with out-links, 0 for dangling pages; plus the list of dangling pages. */
export function inverseOutDegrees(graph: LinkGraph): { inverse: Float64Array; dangling: Int32Array } {
  const degree = outDegrees(graph);
  const inverse = new Float64Array(graph.nodeCount);
  let danglingCount = 0;
  for (let i = 0; i < degree.length; i++) {
    if (degree[i] > 0) inverse[i] = 1 / degree[i];
    else danglingCount++;
  }
  const dangling = new Int32Array(danglingCount);
  for (let i = 0, d = 0; i < degree.length; i++) if (degree[i] === 0) dangling[d++] = i;
  return { inverse, dangling };
}

/**
 * Power iteration in pull form: each page gathers `r[i]/o[i]` over its in-links, so every
 * iteration reads the in-link array once, sequentially, and writes each rank once.
 */
export function pageRank(graph: LinkGraph, options: PageRankOptions = {}): PageRankResult {
  const n = graph.nodeCount;
  if (n === 0) return { rank: new Float64Array(0), iterations: 0, residual: 0, converged: true };
  const { alpha, tolerance, maxIterations, teleport, start } = resolvePageRankOptions(n, options);
  const { offsets, sources } = inLinks(graph);
  const { inverse, dangling } = inverseOutDegrees(graph);
  let rank: Float64Array = start ?? new Float64Array(n).fill(1 / n);
  let next: Float64Array = new Float64Array(n);
  const share = new Float64Array(n);
  let residual = Infinity;
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    let danglingMass = 0;
    for (let d = 0; d < dangling.length; d++) danglingMass += rank[dangling[d]];
    for (let i = 0; i < n; i++) share[i] = rank[i] * inverse[i];
    // Mass that leaves along v: the teleport part of every page plus the dangling pages' links.
    const spread = alpha * danglingMass + (1 - alpha);
    const uniform = spread / n;
    residual = 0;
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let e = offsets[j]; e < offsets[j + 1]; e++) sum += share[sources[e]];
      const value = alpha * sum + (teleport ? spread * teleport[j] : uniform);
      residual += Math.abs(value - rank[j]);
      next[j] = value;
    }
    const swap = rank;
    rank = next;
    next = swap;
    if (residual < tolerance) break;
  }
  normaliseInPlace(rank);
  return { rank, iterations, residual, converged: residual < tolerance };
}

/** Scales a non-negative vector to sum 1 (no-op on an all-zero vector). */
export function normaliseInPlace(vector: Float64Array): Float64Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i];
  if (sum > 0) for (let i = 0; i < vector.length; i++) vector[i] /= sum;
  return vector;
}
