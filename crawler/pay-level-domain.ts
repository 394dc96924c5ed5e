/**
 * Pay-level domains and their link graph, after IRLbot (Lee, Leonard, Wang & Loguinov 2008).
 *
 * A pay-level domain (PLD) is what one buys from a registrar: the registrable domain under the
 * ICANN section of the public suffix list (`www.amazon.co.uk` → `amazon.co.uk`). The private
 * section (`github.io`, `blogspot.com`) is ignored by default: subdomains handed out for free
 * cost a spammer nothing, which is exactly what PLD budgets guard against.
 *
 * The PLD graph has one node per PLD and an edge p → q when any page of p links to any page of
 * q (p ≠ q), duplicates removed: the project's one graph type (indexer/graph.ts). Rankings over
 * it are pure functions over typed arrays:
 *   IN     distinct in-neighbour PLDs (SUPP₁)
 *   WIN    weighted in-degree: Σ over in-neighbours i of 1/outdeg(i)
 *   SUPP₂  PLDs at distance exactly 2 along in-links (excluding itself and its in-neighbours)
 * and the budget allocator gives the top-R PLDs a large crawl budget and the rest a tiny one.
 */
import { getDomain } from 'tldts';
import { buildGraph, inDegrees, inLinks, outDegrees, type LinkGraph } from '../indexer/graph.ts';

export interface PayLevelDomainOptions {
  /** Also split at private-section suffixes (`a.github.io` → its own PLD). Default false. */
  readonly allowPrivateDomains?: boolean;
}

/**
 * The PLD of a host name. IP addresses, `localhost` and other names without a public suffix are
 * their own PLD. Case and a trailing dot are ignored.
 */
export function payLevelDomain(host: string, options: PayLevelDomainOptions = {}): string {
  const name = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  const domain = getDomain(name, { allowPrivateDomains: options.allowPrivateDomains ?? false });
  return domain ?? name;
}

export interface PldGraph {
  /** PLD names, indexed by node id (in order of first appearance). */
  readonly plds: readonly string[];
  readonly graph: LinkGraph;
}

export interface HostPldGraph extends PldGraph {
  /** The PLD node of every host id. */
  readonly hostPld: Int32Array;
}

/**
 * The PLD graph from host-level links given as host ids: `hosts[id]` names host `id`, and
 * `sources[e] → targets[e]` are host links (any order, duplicates and self-links allowed).
 */
export function pldGraphFromHostLinks(hosts: readonly string[], sources: ArrayLike<number>, targets: ArrayLike<number>, options: PayLevelDomainOptions = {}): HostPldGraph {
  if (sources.length !== targets.length) throw new RangeError('sources and targets differ in length');
  const ids = new Map<string, number>();
  const plds: string[] = [];
  const hostPld = new Int32Array(hosts.length);
  hosts.forEach((host, h) => {
    const pld = payLevelDomain(host, options);
    let id = ids.get(pld);
    if (id === undefined) {
      id = plds.length;
      ids.set(pld, id);
      plds.push(pld);
    }
    hostPld[h] = id;
  });
  const from = new Int32Array(sources.length);
  const to = new Int32Array(targets.length);
  for (let e = 0; e < sources.length; e++) {
    const s = sources[e];
    const t = targets[e];
    if (!(s >= 0 && s < hosts.length && t >= 0 && t < hosts.length)) throw new RangeError(`host link ${s} -> ${t} is outside 0..${hosts.length - 1}`);
    from[e] = hostPld[s];
    to[e] = hostPld[t];
  }
  // buildGraph drops the self-loops (links inside one PLD) and the duplicates.
  return { plds, hostPld, graph: buildGraph(plds.length, from, to) };
}

/** The PLD graph from links given as pairs of host names or absolute URLs. */
export function pldGraphFromLinks(links: Iterable<readonly [string, string]>, options: PayLevelDomainOptions = {}): PldGraph {
  const hostIds = new Map<string, number>();
  const hosts: string[] = [];
  const sources: number[] = [];
  const targets: number[] = [];
  const idOf = (value: string): number => {
    const host = hostOf(value);
    let id = hostIds.get(host);
    if (id === undefined) {
      id = hosts.length;
      hostIds.set(host, id);
      hosts.push(host);
    }
    return id;
  };
  for (const [from, to] of links) {
    sources.push(idOf(from));
    targets.push(idOf(to));
  }
  const { plds, graph } = pldGraphFromHostLinks(hosts, sources, targets, options);
  return { plds, graph };
}

function hostOf(value: string): string {
  if (!value.includes('/')) return value;
  try {
    return new URL(value).hostname;
  } catch {
    throw new RangeError(`"${value}" is neither a host name nor an absolute URL`);
  }
}

/** IN: the number of distinct PLDs linking to each PLD. */
export function inDegreeRanking(graph: LinkGraph): Int32Array {
  return inDegrees(graph);
}

/** WIN: one step of PageRank from all-ones without damping (Σ 1/outdeg over in-neighbours). */
export function weightedInDegreeRanking(graph: LinkGraph): Float64Array {
  const out = outDegrees(graph);
  const scores = new Float64Array(graph.nodeCount);
  for (let i = 0; i < graph.nodeCount; i++) {
    const share = 1 / out[i];
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) scores[graph.outTargets[e]] += share;
  }
  return scores;
}

/**
 * SUPP_D: for each node j, the number of nodes i with shortest-path distance d(i, j) exactly
 * `distance` (default 2, IRLbot's SUPP₂; distance 1 is IN). A backward breadth-first search to
 * depth `distance` from every node, with a stamp array instead of clearing: O(n + Σ work).
 */
export function supporterRanking(graph: LinkGraph, distance = 2): Int32Array {
  if (!Number.isInteger(distance) || distance < 1) throw new RangeError(`distance must be a positive integer, got ${distance}`);
  const n = graph.nodeCount;
  const { offsets, sources } = inLinks(graph);
  const seenBy = new Int32Array(n).fill(-1);
  const counts = new Int32Array(n);
  let level = new Int32Array(n);
  let next = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    seenBy[j] = j;
    level[0] = j;
    let levelSize = 1;
    for (let depth = 1; depth <= distance && levelSize > 0; depth++) {
      let nextSize = 0;
      for (let q = 0; q < levelSize; q++) {
        const k = level[q];
        for (let e = offsets[k]; e < offsets[k + 1]; e++) {
          const i = sources[e];
          if (seenBy[i] !== j) {
            seenBy[i] = j;
            next[nextSize++] = i;
          }
        }
      }
      [level, next] = [next, level];
      levelSize = nextSize;
    }
    counts[j] = levelSize;
  }
  return counts;
}

/** Node ids by descending score; ties go to the lower id (the PLD seen first). */
export function rankOrder(scores: ArrayLike<number>): Int32Array {
  const order = Int32Array.from({ length: scores.length }, (_, i) => i);
  return order.sort((a, b) => scores[b] - scores[a] || a - b);
}

export interface PldBudgetOptions {
  /** How many of the best-ranked PLDs get the large budget (IRLbot's R). */
  readonly topR: number;
  /** Pages (or requests) for each top-R PLD. */
  readonly topBudget: number;
  /** Pages for every other PLD. */
  readonly restBudget: number;
}

/**
 * Crawl budget of every PLD: the `topR` best by `scores` get `topBudget`, the rest
 * `restBudget`. A PLD with score 0 (no support at all) never counts as top, whatever R is:
 * a fresh spam domain has no in-links from other PLDs.
 */
export function allocatePldBudgets(scores: ArrayLike<number>, options: PldBudgetOptions): Int32Array {
  const { topR, topBudget, restBudget } = options;
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  const budgets = new Int32Array(scores.length).fill(restBudget);
  const order = rankOrder(scores);
  for (let r = 0; r < Math.min(topR, order.length); r++) {
    const pld = order[r];
    if (!(scores[pld] > 0)) break;
    budgets[pld] = topBudget;
  }
  return budgets;
}
