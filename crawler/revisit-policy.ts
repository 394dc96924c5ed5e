/**
 * Which pages a re-crawl cycle revisits (Cho & Garcia-Molina; docs/operations.md).
 *
 * A page's change rate per visit interval is estimated from N visits of which X found a change:
 * `λ̂ = −log((N − X + 0.5) / (N + 0.5))` (the naive X/N is biased low: a page that changed twice
 * between visits shows one change). The budget of B visits per cycle is spread ∝ √λ̂, the
 * allocation that minimises the total delay. Pages cannot be visited a fractional number of times,
 * so each page carries a credit: every cycle it earns its share B·√λᵢ / Σ√λ (capped at one
 * visit), and the B pages with the most credit are visited and pay one visit back.
 */

/** λ̂ from visits and changes; a page never visited again (N ≤ 1) gets `prior`. */
export function changeRate(visits: number, changes: number, prior = 0.1): number {
  const n = Math.max(0, visits - 1); // the first visit cannot observe a change
  if (n === 0) return prior;
  const x = Math.min(Math.max(0, changes), n);
  return -Math.log((n - x + 0.5) / (n + 0.5));
}

export interface RevisitCandidate {
  id: number;
  visits: number;
  changes: number;
  /** Mean time between the page's visits, in days (unknown for a page visited once). */
  intervalDays?: number;
  /** Credit carried from earlier cycles. */
  credit: number;
}

/**
 * Changes per day of a candidate. λ̂ counts changes per visit interval, and pages are visited at
 * different intervals, so it is divided by the page's mean interval. A page never seen changing
 * keeps a floor that shrinks with the evidence (prior / (visits + 1)), so it is still revisited
 * now and then instead of never again.
 */
export function changesPerDay(candidate: RevisitCandidate, prior = 0.1): number {
  const perInterval = changeRate(candidate.visits, candidate.changes, prior);
  const rate = candidate.intervalDays && candidate.intervalDays > 0 && candidate.visits > 1 ? perInterval / candidate.intervalDays : perInterval;
  return Math.max(rate, prior / (candidate.visits + 1));
}

export interface RevisitPlan {
  /** Pages to visit this cycle, most credit first. */
  visit: number[];
  /** New credit of every candidate, after this cycle's payments. */
  credit: Map<number, number>;
}

export type RevisitPolicy = 'sqrt-rate' | 'uniform';

/**
 * `budget` visits split ∝ weights, but at most one per page (water-filling): pages whose share
 * would pass one visit get exactly one, and the rest is split again among the others.
 */
export function cappedShares(weights: readonly number[], budget: number): Float64Array {
  const shares = new Float64Array(weights.length);
  let remaining = Math.min(budget, weights.filter((w) => w > 0).length);
  let active = weights.map((w, i) => i).filter((i) => weights[i] > 0);
  while (active.length > 0 && remaining > 1e-12) {
    const total = active.reduce((sum, i) => sum + weights[i], 0);
    const capped = active.filter((i) => (remaining * weights[i]) / total >= 1);
    if (capped.length === 0) {
      for (const i of active) shares[i] = (remaining * weights[i]) / total;
      break;
    }
    for (const i of capped) shares[i] = 1;
    remaining -= capped.length;
    active = active.filter((i) => !capped.includes(i));
  }
  return shares;
}

/**
 * Plans one cycle of `budget` visits. `uniform` gives every page the same share (the baseline
 * the freshness comparison measures against).
 */
export function planRevisits(candidates: readonly RevisitCandidate[], budget: number, policy: RevisitPolicy = 'sqrt-rate', prior = 0.1): RevisitPlan {
  const weights = candidates.map((c) => (policy === 'uniform' ? 1 : Math.sqrt(changesPerDay(c, prior))));
  const shares = cappedShares(weights, budget);
  const credit = new Map<number, number>();
  candidates.forEach((c, i) => credit.set(c.id, c.credit + shares[i]));
  // The whole budget is spent every cycle, on the pages with the most credit (a page visited
  // ahead of its share goes below zero and waits longer next time).
  const order = candidates
    .map((c) => c.id)
    .filter((id) => credit.get(id)! > 0)
    .sort((a, b) => credit.get(b)! - credit.get(a)! || a - b)
    .slice(0, Math.max(0, Math.floor(budget)));
  for (const id of order) credit.set(id, credit.get(id)! - 1);
  return { visit: order, credit };
}
