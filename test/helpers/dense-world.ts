/**
 * The frontier-world model of docs/estimation.md built densely from a global edge list, with no
 * Supergraph, selection or estimation code: the independent reference of the estimator tests.
 * Nodes are F (the local pages, then the crawled ones, in that order) and W (the frontier as one
 * node worth `scale · |frontier|` pages).
 */
import { buildGraph } from '../../indexer/graph.ts';
import { pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { Supergraph } from '../../indexer/estimation/supergraph.ts';
import { denseStationary, type EdgeList } from './random-graphs.ts';

export interface DenseWorld {
  /** The pages of F in supergraph order. */
  F: number[];
  /** Page → its index in F. */
  id: Map<number, number>;
  /** Each page's distinct out-links (self-links dropped). */
  out: Map<number, Set<number>>;
  frontier: Set<number>;
  /** The stationary vector restricted to F, renormalised to sum 1. */
  rank: number[];
}

export function denseWorld(list: EdgeList, local: number[], crawled: number[], scale = 1, alpha = 0.85): DenseWorld {
  const F = [...local, ...crawled];
  const id = new Map(F.map((p, i) => [p, i]));
  const out = new Map<number, Set<number>>();
  for (const [a, b] of list.edges) if (a !== b) (out.get(a) ?? out.set(a, new Set()).get(a)!).add(b);
  const frontier = new Set<number>();
  for (const p of F) for (const t of out.get(p) ?? []) if (!id.has(t)) frontier.add(t);
  const m = F.length;
  const W = m;
  const v = new Array(m + 1).fill(1 / (m + scale * frontier.size));
  v[W] = (scale * frontier.size) / (m + scale * frontier.size);
  const P = Array.from({ length: m + 1 }, () => new Array(m + 1).fill(0));
  const column = (col: number, weights: Map<number, number>) => {
    const total = [...weights.values()].reduce((a, b) => a + b, 0);
    for (let row = 0; row <= m; row++) P[row][col] = total === 0 ? v[row] : (1 - alpha) * v[row];
    if (total > 0) for (const [row, w] of weights) P[row][col] += (alpha * w) / total;
  };
  for (let i = 0; i < m; i++) {
    const weights = new Map<number, number>();
    for (const t of out.get(F[i]) ?? []) {
      const target = id.get(t) ?? W;
      weights.set(target, (weights.get(target) ?? 0) + 1);
    }
    column(i, weights);
  }
  // W's rank leaves along the links the crawled pages have into F.
  const worldOut = new Map<number, number>();
  if (frontier.size > 0) for (const p of crawled) for (const t of out.get(p) ?? []) if (id.has(t)) worldOut.set(id.get(t)!, (worldOut.get(id.get(t)!) ?? 0) + 1);
  column(W, worldOut);
  const x = denseStationary(P).slice(0, m);
  const sum = x.reduce((a, b) => a + b, 0);
  return { F, id, out, frontier, rank: x.map((value) => value / sum) };
}

/** The supergraph of `local` with `crawled` added, pages read from the edge list. */
export function supergraphOf(list: EdgeList, local: number[], crawled: number[]): Supergraph<number> {
  const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
  const supergraph = new Supergraph(local.map((p) => pageOfGraph(graph, p)));
  supergraph.addPages(crawled.map((p) => pageOfGraph(graph, p)));
  return supergraph;
}
