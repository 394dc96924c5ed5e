import { describe, expect, it } from 'vitest';
import { changeRate, changesPerDay, planRevisits, type RevisitCandidate } from '../crawler/revisit-policy.ts';

describe('change-rate estimate', () => {
  it('is −log((N − X + 0.5)/(N + 0.5)) over the N visits after the first', () => {
    expect(changeRate(11, 0)).toBeCloseTo(-Math.log(10.5 / 10.5), 12);
    expect(changeRate(11, 5)).toBeCloseTo(-Math.log(5.5 / 10.5), 12);
    expect(changeRate(11, 10)).toBeCloseTo(-Math.log(0.5 / 10.5), 12);
    expect(changeRate(1, 0, 0.2)).toBe(0.2);
  });

  it('recovers the Poisson rate that X/N underestimates', () => {
    // Simulate visits of a page changing at λ per interval; compare the estimators.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const lambda = 1.2;
    const n = 4000;
    let changed = 0;
    for (let v = 0; v < n; v++) {
      // P(at least one change in an interval) = 1 − e^{−λ}
      if (random() < 1 - Math.exp(-lambda)) changed++;
    }
    const estimate = changeRate(n + 1, changed);
    expect(Math.abs(estimate - lambda)).toBeLessThan(0.08);
    expect(changed / n).toBeLessThan(lambda - 0.4);
  });
});

describe('revisit plans', () => {
  const pages: RevisitCandidate[] = [
    { id: 1, visits: 21, changes: 20, credit: 0 },
    { id: 2, visits: 21, changes: 5, credit: 0 },
    { id: 3, visits: 21, changes: 0, credit: 0 },
    { id: 4, visits: 21, changes: 1, credit: 0 },
  ];

  it('spends the budget ∝ √λ̂ over cycles, carrying credit', () => {
    const visits = new Map<number, number>();
    let candidates = pages;
    for (let cycle = 0; cycle < 200; cycle++) {
      const plan = planRevisits(candidates, 2);
      expect(plan.visit.length).toBeLessThanOrEqual(2);
      for (const id of plan.visit) visits.set(id, (visits.get(id) ?? 0) + 1);
      candidates = candidates.map((c) => ({ ...c, credit: plan.credit.get(c.id)! }));
    }
    // Page 1 would deserve more than one visit a cycle: it gets one every cycle, and the other
    // visit is shared by the rest ∝ √(changes per day); page 3, never seen changing, keeps only
    // the small floor prior/(visits+1).
    expect(visits.get(1)).toBe(200);
    const rest = [2, 3, 4].map((id) => ({ id, w: Math.sqrt(changesPerDay(pages.find((p) => p.id === id)!)) }));
    const total = rest.reduce((sum, r) => sum + r.w, 0);
    for (const { id, w } of rest) expect(Math.abs((visits.get(id) ?? 0) - (200 * w) / total)).toBeLessThanOrEqual(2);
    expect(visits.get(3) ?? 0).toBeLessThan(visits.get(4) ?? 0);
  });

  it('spends the whole budget from the first cycle, and divides λ̂ by the visit interval', () => {
    const fresh = [1, 2, 3, 4, 5].map((id) => ({ id, visits: 1, changes: 0, credit: 0 }));
    expect(planRevisits(fresh, 2).visit).toHaveLength(2);
    const daily = changesPerDay({ id: 1, visits: 11, changes: 5, intervalDays: 1, credit: 0 });
    const weekly = changesPerDay({ id: 2, visits: 11, changes: 5, intervalDays: 7, credit: 0 });
    expect(daily / weekly).toBeCloseTo(7, 10);
  });

  it('uniform gives every page the same share', () => {
    const plan = planRevisits(pages, 4, 'uniform');
    expect(plan.visit.sort()).toEqual([1, 2, 3, 4]);
  });
});
