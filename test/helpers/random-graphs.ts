/**
 * Small random graphs and dense brute-force models: independent references for the fast,
 * sparse algorithms (they share no code with them).
 */
import { seededRandom } from '../../indexer/seeded-random.ts';

export interface EdgeList {
  pages: number;
  edges: Array<[number, number]>;
}

/** A random directed graph with some dangling pages, duplicate links and self-links mixed in. */
export function randomEdgeList(seed: number, pages: number, density: number, danglingShare = 0.2): EdgeList {
  const random = seededRandom(seed);
  const edges: Array<[number, number]> = [];
  for (let i = 0; i < pages; i++) {
    if (random() < danglingShare) continue;
    for (let j = 0; j < pages; j++) if (random() < density) edges.push([i, j]);
    if (random() < 0.1) edges.push([i, i]);
    if (edges.length > 0 && random() < 0.1) edges.push(edges[edges.length - 1]);
  }
  return { pages, edges };
}

/** Dense column-stochastic matrix P[row][col] of PageRank (self-links and repeats dropped). */
export function densePageRankMatrix(list: EdgeList, alpha: number, teleport?: number[]): number[][] {
  const n = list.pages;
  const v = teleport ?? new Array(n).fill(1 / n);
  const links = new Set(list.edges.filter(([a, b]) => a !== b).map(([a, b]) => `${a},${b}`));
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const key of links) {
    const [a, b] = key.split(',').map(Number);
    out[a].push(b);
  }
  const P = Array.from({ length: n }, () => new Array(n).fill(0));
  for (let col = 0; col < n; col++) {
    for (let row = 0; row < n; row++) P[row][col] = out[col].length === 0 ? v[row] : (1 - alpha) * v[row];
    for (const t of out[col]) P[t][col] += alpha / out[col].length;
  }
  return P;
}

/** The stationary vector of a dense column-stochastic matrix by iterating to 1e-15. */
export function denseStationary(P: number[][]): number[] {
  const n = P.length;
  let r = new Array(n).fill(1 / n);
  for (let it = 0; it < 100_000; it++) {
    const next = new Array(n).fill(0);
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) next[row] += P[row][col] * r[col];
    const change = next.reduce((s, x, i) => s + Math.abs(x - r[i]), 0);
    r = next;
    if (change < 1e-15) break;
  }
  const sum = r.reduce((a, b) => a + b, 0);
  return r.map((x) => x / sum);
}

/**
 * The brute-force SC-Select score (docs/estimation.md) for frontier page j linked from
 * `linkers`: build P_{F_j} densely, form S_j = F̃ + s̃ ũᵀ / (1 − w), return ‖E_L (S_j f − f)‖₁.
 */
export function bruteForceScScore(list: EdgeList, f: number[], local: number[], linkers: number[], alpha: number): number {
  const l = list.pages;
  const links = new Set(list.edges.filter(([a, b]) => a !== b).map(([a, b]) => `${a},${b}`));
  const out: number[][] = Array.from({ length: l }, () => []);
  const indeg = new Array(l).fill(0);
  for (const key of links) {
    const [a, b] = key.split(',').map(Number);
    out[a].push(b);
    indeg[b]++;
  }
  const totalIn = indeg.reduce((a, b) => a + b, 0);
  const s = indeg.map((d) => (totalIn > 0 ? d / totalIn : 1 / l));
  const size = l + 1;
  const P = Array.from({ length: size }, () => new Array(size).fill(0));
  const u = new Array(l).fill(0);
  for (const k of linkers) u[k] = 1;
  for (let k = 0; k < l; k++) {
    const degree = out[k].length + u[k];
    if (degree === 0) {
      for (let row = 0; row < size; row++) P[row][k] = 1 / size;
      continue;
    }
    for (let row = 0; row < size; row++) P[row][k] = (1 - alpha) / size;
    for (const t of out[k]) P[t][k] += alpha / degree;
    if (u[k]) P[l][k] += alpha / degree;
  }
  for (let row = 0; row < size; row++) P[row][l] = (1 - alpha) / size + (row < l ? alpha * s[row] : 0);
  const w = P[l][l];
  let score = 0;
  for (const k of local) {
    let value = 0;
    for (let c = 0; c < l; c++) value += (P[k][c] + (P[k][l] * P[l][c]) / (1 - w)) * f[c];
    score += Math.abs(value - f[k]);
  }
  return score;
}
