/**
 * The node-selection interface of FindGlobalPR (docs/estimation.md) and the selection helpers all
 * selectors share. A selector sees the current supergraph `F` as typed arrays and returns the
 * frontier candidates to crawl next, best first.
 */
import type { LinkGraph } from '../graph.ts';

export interface SelectionInput {
  /** `F`, internal links only. */
  readonly graph: LinkGraph;
  /** `f`, the PageRank of `F`. */
  readonly rank: Float64Array;
  /** 1 where the page of `F` belongs to the local domain `L`. */
  readonly isLocal: Uint8Array;
  /** Frontier candidates: candidate `c` is linked from `linkers[linkerOffsets[c] … linkerOffsets[c+1])`. */
  readonly linkerOffsets: Int32Array;
  readonly linkers: Int32Array;
  /** The PageRank damping factor used for `f`. */
  readonly alpha: number;
}

export interface PageSelector {
  readonly name: string;
  /** Up to `k` distinct candidate indices, best first. */
  select(input: SelectionInput, k: number): Int32Array;
  /**
   * Selectors that carry something from one iteration to the next (Random's generator): that
   * state as plain numbers, so that a later run restored from it selects what this one would.
   */
  saveState?(): SelectorState;
  restoreState?(state: SelectorState): void;
}

/** A selector's state (JSON-safe: it is stored with a round's supergraph). */
export type SelectorState = Readonly<Record<string, number>>;

export class SelectorStateError extends Error {
  constructor(selector: string, state: unknown) {
    super(`selector "${selector}" cannot continue from the stored state ${JSON.stringify(state)}`);
    this.name = 'SelectorStateError';
  }
}

/**
 * State passing for a selector built from others: each part's state under `part.key`. Parts
 * without state are left out; a part shared by two names is saved once.
 */
export function composedState(parts: Record<string, PageSelector>): Pick<PageSelector, 'saveState' | 'restoreState'> {
  const seen = new Set<PageSelector>();
  const stateful = Object.entries(parts).filter(([, part]) => part.saveState && part.restoreState && !seen.has(part) && seen.add(part));
  if (stateful.length === 0) return {};
  return {
    saveState() {
      const state: Record<string, number> = {};
      for (const [name, part] of stateful) for (const [key, value] of Object.entries(part.saveState!())) state[`${name}.${key}`] = value;
      return state;
    },
    restoreState(state) {
      for (const [name, part] of stateful) {
        const own: Record<string, number> = {};
        for (const [key, value] of Object.entries(state)) if (key.startsWith(`${name}.`)) own[key.slice(name.length + 1)] = value;
        part.restoreState!(own);
      }
    },
  };
}

export function candidateCount(input: Pick<SelectionInput, 'linkerOffsets'>): number {
  return input.linkerOffsets.length - 1;
}

/**
 * Indices of the `k` largest scores, best first; ties go to the lower index (the candidate
 * discovered first), NaN counts as lowest. A size-k min-heap: O(c log k).
 */
export function topK(scores: Float64Array, k: number): Int32Array {
  const count = Math.min(k, scores.length);
  if (count <= 0) return new Int32Array(0);
  const heap = new Int32Array(count);
  let size = 0;
  const score = (i: number) => (Number.isNaN(scores[i]) ? -Infinity : scores[i]);
  // `worse(a, b)`: a ranks below b.
  const worse = (a: number, b: number) => score(a) < score(b) || (score(a) === score(b) && a > b);
  const siftDown = (start: number) => {
    let p = start;
    for (;;) {
      const l = 2 * p + 1;
      const r = l + 1;
      let m = p;
      if (l < size && worse(heap[l], heap[m])) m = l;
      if (r < size && worse(heap[r], heap[m])) m = r;
      if (m === p) return;
      const t = heap[p];
      heap[p] = heap[m];
      heap[m] = t;
      p = m;
    }
  };
  for (let i = 0; i < scores.length; i++) {
    if (size < count) {
      heap[size] = i;
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!worse(heap[c], heap[p])) break;
        const t = heap[p];
        heap[p] = heap[c];
        heap[c] = t;
        c = p;
      }
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return Int32Array.from(heap).sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** A selector that crawls the candidates with the highest scores. */
export function scoringSelector(name: string, scoreCandidates: (input: SelectionInput) => Float64Array): PageSelector {
  return { name, select: (input, k) => topK(scoreCandidates(input), k) };
}

/**
 * Up to `k` distinct candidates, taken from two rankings: `first`'s best `firstCount`, then `second`'s best not yet
 * taken, then `first`'s if `second` ran short. A hedge: part of every iteration follows one selector whatever the other
 * prefers.
 */
export function combinedSelection(input: SelectionInput, k: number, first: PageSelector, second: PageSelector, firstCount: number): Int32Array {
  const count = Math.min(k, candidateCount(input));
  const taken = new Uint8Array(candidateCount(input));
  const picks: number[] = [];
  const take = (ranking: Int32Array, limit: number) => {
    for (let i = 0; i < ranking.length && picks.length < limit; i++) {
      if (taken[ranking[i]]) continue;
      taken[ranking[i]] = 1;
      picks.push(ranking[i]);
    }
  };
  // Both rankings are asked for every time, so that a selector with state (Random) advances as when used alone.
  const firstRanking = first.select(input, count);
  const secondRanking = second.select(input, count);
  take(firstRanking, Math.max(0, Math.min(count, firstCount)));
  take(secondRanking, count);
  take(firstRanking, count);
  return Int32Array.from(picks);
}
