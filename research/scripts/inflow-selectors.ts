// Research selectors for research/docs/history.md, "Selection for the inflow" (research/scripts/inflow-selection.ts).
// A name `v:key=value,…` sets the parameters of one scoring + picking rule (defaults give OutlinkCount exactly):
//   mu    weight of a linker that is a crawled global page (local linkers weigh 1)            default 1
//   lam   extra weight of a crawled global linker that links into L ("reciprocal")            default 0
//   lamf  extra weight ∝ the share of a global linker's F-links that go into L                default 0
//   loc   extra weight of a local linker ∝ the in-links it gets from crawled global pages     default 0
//   gamma PF-Select's score added, scaled to the mean linker count                             default 0
//   rr    weight of each linker's return rate (share of its crawled global out-neighbours linking into L, smoothed with
//         rrp pseudo-counts at the overall rate, divided by that rate): w ← (1−rr)·w + rr·rate/overall   default 0
//   beta  sibling discount: a linker's weight becomes w / (1 + beta·u), u = candidates of this linker already picked
//         in this iteration (lazy greedy)                                                        default 0
import { outDegrees, type LinkGraph } from '../../indexer/graph.ts';
import { pageRankFlowScores } from '../../indexer/estimation/baseline-selectors.ts';
import { frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { frontierWorldModelOfInput } from '../../indexer/estimation/reciprocal-flow.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { candidateCount, topK, type PageSelector, type SelectionInput } from '../../indexer/estimation/selection.ts';

export interface Params {
  mu: number;
  lam: number;
  lamf: number;
  loc: number;
  gamma: number;
  beta: number;
  rr: number;
  rrp: number;
  /** Ties only: a secondary score `tie` × (the rr-weighted score) / 1e6, or, with `jit` = seed > 0, a random jitter. */
  tie: number;
  jit: number;
  /** Ties only: PF-Select's score (tpf=1), the summed F-in-degree of the linkers (tpf=2), or of the lamf weights (tpf=3). */
  tpf: number;
  /** Score = PF with each linker's term multiplied by its weight w (pfw=1) instead of the summed weights. */
  pfw: number;
  /** With pfw: the flow uses the frontier-world rank of F (W worth wpf·|frontier| pages) instead of F's PageRank. */
  wpf: number;
}

export function parseParams(name: string): Params {
  const p: Params = { mu: 1, lam: 0, lamf: 0, loc: 0, gamma: 0, beta: 0, rr: 0, rrp: 2, tie: 0, jit: 0, tpf: 0, pfw: 0, wpf: 0 };
  const body = name.replace(/^v:?/, '');
  for (const part of body.split(',').filter(Boolean)) {
    const [k, v] = part.split('=');
    if (!(k in p)) throw new Error(`unknown parameter ${k}`);
    (p as unknown as Record<string, number>)[k] = Number(v);
  }
  return p;
}

/** Per-linker weights over the pages of F. */
export function linkerWeights(input: SelectionInput, p: Params): Float64Array {
  const { graph, isLocal } = input;
  const size = graph.nodeCount;
  const w = new Float64Array(size);
  const inFromGlobal = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    let intoL = 0;
    const deg = graph.outOffsets[k + 1] - graph.outOffsets[k];
    for (let e = graph.outOffsets[k]; e < graph.outOffsets[k + 1]; e++) {
      const t = graph.outTargets[e];
      if (isLocal[t]) intoL++;
      if (!isLocal[k]) inFromGlobal[t]++;
    }
    if (isLocal[k]) w[k] = 1;
    else w[k] = p.mu + (intoL > 0 ? p.lam : 0) + (deg > 0 ? (p.lamf * intoL) / deg : 0);
  }
  if (p.rr !== 0) {
    // Return rate of each page's crawled global out-neighbours: the share of them that link back into L, smoothed
    // towards the rate over all crawled global pages with `rrp` pseudo-observations.
    let backs = 0;
    let globals = 0;
    const back = new Uint8Array(size);
    for (let k = 0; k < size; k++) {
      if (isLocal[k]) continue;
      globals++;
      for (let e = graph.outOffsets[k]; e < graph.outOffsets[k + 1]; e++) if (isLocal[graph.outTargets[e]]) { back[k] = 1; break; }
      backs += back[k];
    }
    const prior = globals > 0 ? (backs + 1) / (globals + 2) : 0.5;
    for (let j = 0; j < size; j++) {
      let n = 0;
      let b = 0;
      for (let e = graph.outOffsets[j]; e < graph.outOffsets[j + 1]; e++) {
        const t = graph.outTargets[e];
        if (!isLocal[t]) {
          n++;
          b += back[t];
        }
      }
      const rate = (b + p.rrp * prior) / (n + p.rrp);
      w[j] = w[j] * (1 - p.rr) + (p.rr * rate) / prior;
    }
  }
  if (p.loc !== 0) for (let k = 0; k < size; k++) if (isLocal[k]) w[k] += p.loc * inFromGlobal[k];
  return w;
}

export function baseScores(input: SelectionInput, p: Params, w: Float64Array): Float64Array {
  const count = candidateCount(input);
  const s = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    let sum = 0;
    for (let e = input.linkerOffsets[c]; e < input.linkerOffsets[c + 1]; e++) sum += w[input.linkers[e]];
    s[c] = sum;
  }
  if (p.gamma !== 0 && count > 0) {
    const pf = pageRankFlowScores(input);
    let a = 0;
    let b = 0;
    for (let c = 0; c < count; c++) {
      a += s[c];
      b += pf[c];
    }
    if (b > 0) for (let c = 0; c < count; c++) s[c] += (p.gamma * a * pf[c]) / b;
  }
  return s;
}

/** Lazy greedy with the sibling discount. */
function pickDiscounted(input: SelectionInput, w: Float64Array, base: Float64Array, p: Params, k: number): Int32Array {
  const count = base.length;
  const take = Math.min(k, count);
  const used = new Float64Array(w.length);
  // Max-heap of (score, candidate) with ties to the lower index.
  const hs = new Float64Array(count);
  const hc = new Int32Array(count);
  let size = 0;
  const better = (i: number, j: number) => hs[i] > hs[j] || (hs[i] === hs[j] && hc[i] < hc[j]);
  const swap = (i: number, j: number) => {
    const s = hs[i];
    hs[i] = hs[j];
    hs[j] = s;
    const c = hc[i];
    hc[i] = hc[j];
    hc[j] = c;
  };
  const up = (i: number) => {
    while (i > 0) {
      const q = (i - 1) >> 1;
      if (!better(i, q)) return;
      swap(i, q);
      i = q;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && better(l, m)) m = l;
      if (r < size && better(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let c = 0; c < count; c++) {
    hs[size] = base[c];
    hc[size] = c;
    up(size++);
  }
  const out: number[] = [];
  const current = (c: number) => {
    let sum = 0;
    for (let e = input.linkerOffsets[c]; e < input.linkerOffsets[c + 1]; e++) {
      const l = input.linkers[e];
      sum += w[l] / (1 + p.beta * used[l]);
    }
    return sum + (base[c] - rawSum(c));
  };
  const rawSum = (c: number) => {
    let sum = 0;
    for (let e = input.linkerOffsets[c]; e < input.linkerOffsets[c + 1]; e++) sum += w[input.linkers[e]];
    return sum;
  };
  while (out.length < take && size > 0) {
    const c = hc[0];
    const now = current(c);
    if (now >= hs[0] - 1e-12) {
      out.push(c);
      hs[0] = hs[size - 1];
      hc[0] = hc[size - 1];
      size--;
      down(0);
      for (let e = input.linkerOffsets[c]; e < input.linkerOffsets[c + 1]; e++) used[input.linkers[e]]++;
    } else {
      hs[0] = now;
      down(0);
    }
  }
  return Int32Array.from(out);
}

export function researchSelector(name: string): PageSelector {
  const p = parseParams(name);
  const random = seededRandom(p.jit);
  return {
    name,
    select(input, k) {
      const w = linkerWeights(input, p);
      const base = p.pfw > 0 ? weightedFlow(p.wpf > 0 ? { ...input, rank: worldRankOf(input, p.wpf) } : input, w) : baseScores(input, p, w);
      if (p.tie > 0) {
        const q = { ...p, rr: p.tie, tie: 0 };
        const second = baseScores(input, q, linkerWeights(input, q));
        for (let c = 0; c < base.length; c++) base[c] += second[c] * 1e-6;
      }
      if (p.tpf > 0) {
        let second: Float64Array;
        if (p.tpf === 1) second = pageRankFlowScores(input);
        else if (p.tpf === 2) {
          const indeg = new Float64Array(input.graph.nodeCount);
          for (let e = 0; e < input.graph.outTargets.length; e++) indeg[input.graph.outTargets[e]]++;
          second = baseScores(input, { ...p, gamma: 0 }, indeg);
        } else {
          const q = { ...p, lamf: 5, gamma: 0 };
          second = baseScores(input, q, linkerWeights(input, q));
        }
        let max = 0;
        for (let c = 0; c < base.length; c++) max = Math.max(max, second[c]);
        if (max > 0) for (let c = 0; c < base.length; c++) base[c] += (second[c] / max) * 1e-3;
      }
      if (p.jit > 0) for (let c = 0; c < base.length; c++) base[c] += random() * 1e-6;
      return p.beta > 0 ? pickDiscounted(input, w, base, p, k) : topK(base, k);
    },
  };
}

/** PF-Select's flow with linker weights: `Σ_{k→c} w[k]·f[k] / (o[k] + 1)`. */
export function weightedFlow(input: SelectionInput, w: Float64Array): Float64Array {
  const degree = outDegrees(input.graph);
  const count = candidateCount(input);
  const s = new Float64Array(count);
  for (let c = 0; c < count; c++) {
    let sum = 0;
    for (let e = input.linkerOffsets[c]; e < input.linkerOffsets[c + 1]; e++) {
      const k = input.linkers[e];
      sum += (w[k] * input.rank[k]) / (degree[k] + 1);
    }
    s[c] = sum;
  }
  return s;
}

/** The frontier-world rank of F built from the selection input alone (the model of frontier-world.ts). */
export function worldRankOf(input: SelectionInput, scale: number): Float64Array {
  return frontierWorldRank(frontierWorldModelOfInput(input), { alpha: input.alpha, tolerance: 1e-8, scale });
}

/**
 * Research only (reads the truth): frontier pages by the rank they send into L in the true graph,
 * `g[c]·(links of c into L)/o[c]`, OutlinkCount's score breaking ties (and ordering the rest).
 */
export function oracleSelector(graph: LinkGraph, truth: Float64Array, inL: Uint8Array, keysOf: () => readonly number[]): PageSelector {
  return {
    name: 'oracle',
    select(input, k) {
      const keys = keysOf();
      const count = candidateCount(input);
      const s = new Float64Array(count);
      for (let c = 0; c < count; c++) {
        const page = keys[c];
        let into = 0;
        const o = graph.outOffsets[page + 1] - graph.outOffsets[page];
        for (let e = graph.outOffsets[page]; e < graph.outOffsets[page + 1]; e++) if (inL[graph.outTargets[e]]) into++;
        s[c] = (o > 0 ? (truth[page] * into) / o : 0) * 1e6 + (input.linkerOffsets[c + 1] - input.linkerOffsets[c]) * 1e-9;
      }
      return topK(s, k);
    },
  };
}
