import { describe, expect, it } from 'vitest';
import { rankingSettingsSchema } from '../config/schema.ts';
import { blendScore, logRankPosition, logRankPrior, rankScale, rankScaleSteps, saturatedRank } from '../indexer/ranking/blend.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

describe('blended ranking', () => {
  const scale = rankScale([0.001, 0.01, 0.1, 0.889]);

  it('places ranks on the collection’s log scale', () => {
    expect(logRankPosition(0.001, scale)).toBe(0);
    expect(logRankPosition(0.889, scale)).toBe(1);
    expect(logRankPosition(Math.sqrt(0.001 * 0.889), scale)).toBeCloseTo(0.5, 12);
    expect(logRankPosition(0, scale)).toBe(0);
    expect(scale.mean).toBeCloseTo(0.25, 12);
  });

  it('weight 0 is text only and weight 1 is rank only (log-linear)', () => {
    const a = { textScore: 10, bestTextScore: 10, rank: 0.001 };
    const b = { textScore: 5, bestTextScore: 10, rank: 0.889 };
    expect(blendScore(a, scale, 'log-linear', 0).score).toBeGreaterThan(blendScore(b, scale, 'log-linear', 0).score);
    expect(blendScore(a, scale, 'log-linear', 1).score).toBeLessThan(blendScore(b, scale, 'log-linear', 1).score);
    expect(blendScore(b, scale, 'log-linear', 0.5)).toEqual({ score: 0.75, text: 0.5, link: 1 });
  });

  it('multiplicative: the rank is a prior, neutral at the mean', () => {
    expect(blendScore({ textScore: 4, bestTextScore: 8, rank: 0.25 }, scale, 'multiplicative', 0.7).score).toBeCloseTo(0.5, 12);
    expect(blendScore({ textScore: 4, bestTextScore: 8, rank: 2.5 }, scale, 'multiplicative', 1).score).toBeCloseTo(5, 12);
    expect(() => blendScore({ textScore: 1, bestTextScore: 1, rank: 1 }, scale, 'multiplicative', 2)).toThrow(RangeError);
  });

  it('saturating: the rank is added through r / (r + median), 0.5 at the median', () => {
    expect(rankScale([0.4, 0.1, 0.3, 0.2]).median).toBeCloseTo(0.25, 12);
    expect(rankScale([0, 0.5, 0.1, 0.2]).median).toBe(0.2);
    const even = rankScale([0.001, 0.01, 0.1, 0.889]);
    expect(even.median).toBeCloseTo(0.055, 12);
    expect(saturatedRank(0.055, even)).toBeCloseTo(0.5, 12);
    expect(saturatedRank(0, even)).toBe(0);
    const parts = blendScore({ textScore: 6, bestTextScore: 8, rank: 0.055 }, even, 'saturating', 0.2);
    expect(parts.text).toBe(0.75);
    expect(parts.link).toBeCloseTo(0.5, 12);
    expect(parts.score).toBeCloseTo(0.8 * 0.75 + 0.2 * 0.5, 12);
  });

  it('saturating: a hub gains at most w/2 over a median page, so it cannot pass a clearly better match', () => {
    const w = 0.2;
    const hub = blendScore({ textScore: 7, bestTextScore: 10, rank: 1e6 }, scale, 'saturating', w);
    const median = blendScore({ textScore: 10, bestTextScore: 10, rank: scale.median }, scale, 'saturating', w);
    expect(hub.score - (1 - w) * hub.text).toBeLessThan(w);
    expect(median.score).toBeGreaterThan(hub.score);
    // Between pages that match alike, the better linked one comes first.
    const better = blendScore({ textScore: 10, bestTextScore: 10, rank: 0.1 }, scale, 'saturating', w);
    const worse = blendScore({ textScore: 10, bestTextScore: 10, rank: 0.01 }, scale, 'saturating', w);
    expect(better.score).toBeGreaterThan(worse.score);
  });

  it('prior: ln(r / median) added to the raw text score, so strong matches move less', () => {
    const even = rankScale([0.001, 0.01, 0.1, 0.889]);
    expect(logRankPrior(even.median, even)).toBe(0);
    expect(logRankPrior(0, even)).toBe(0);
    expect(logRankPrior(even.median * Math.E, even)).toBeCloseTo(1, 12);
    const parts = blendScore({ textScore: 12, bestTextScore: 16, rank: even.median * Math.E ** 2 }, even, 'prior', 0.5);
    expect(parts.text).toBe(0.75);
    expect(parts.link).toBeCloseTo(2, 12);
    expect(parts.score).toBeCloseTo(13, 12);
    // The same ratio of text scores and the same ranks: on a weak match (scores ÷ 10) the hub
    // comes first, on a strong one the better match stays first.
    const order = (factor: number) => {
      const leaf = blendScore({ textScore: 10 * factor, bestTextScore: 10 * factor, rank: even.median / 10 }, even, 'prior', 0.5).score;
      const hub = blendScore({ textScore: 8 * factor, bestTextScore: 10 * factor, rank: even.median * 10 }, even, 'prior', 0.5).score;
      return leaf > hub ? 'leaf' : 'hub';
    };
    expect(order(0.1)).toBe('hub');
    expect(order(3)).toBe('leaf');
  });

  it('defaults to the prior at weight 0.5, the blend chosen on the judged documentation sets', () => {
    expect(rankingSettingsSchema.parse({})).toEqual({ blend: 'prior', weight: 0.5 });
    // A page e times the median rank gains half a BM25 point; one at the median, nothing.
    const even = rankScale([0.001, 0.01, 0.1, 0.889]);
    const { blend, weight } = rankingSettingsSchema.parse({});
    expect(blendScore({ textScore: 5, bestTextScore: 9, rank: even.median * Math.E }, even, blend, weight).score).toBeCloseTo(5.5, 12);
    expect(blendScore({ textScore: 5, bestTextScore: 9, rank: even.median }, even, blend, weight).score).toBe(5);
  });
});

describe('the median of the rank scale', () => {
  it('equals the sorted middle on random, repeated, sorted and reversed values', () => {
    const random = seededRandom(5);
    const cases: number[][] = [];
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(random() * 300);
      const kind = k % 4;
      const values = Array.from({ length: n }, () => (kind === 1 ? Math.floor(random() * 4) / 8 + 0.01 : random() ** 4));
      if (kind === 2) values.sort((a, b) => a - b);
      if (kind === 3) values.sort((a, b) => b - a);
      cases.push(values);
    }
    cases.push(Array(1000).fill(0.25));
    for (const values of cases) {
      const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
      const middle = sorted.length >> 1;
      const want = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
      expect(rankScale(values).median).toBe(want);
    }
  });

  it('is found in steps over a long vector, as at once', () => {
    const random = seededRandom(9);
    const values = Float64Array.from({ length: 400_001 }, (_, i) => (i % 11 === 0 ? 0 : random() ** 3));
    const sorted = [...values].filter((v) => v > 0).sort((a, b) => a - b);
    let steps = 0;
    const making = rankScaleSteps(values);
    let made = making.next();
    for (; !made.done; made = making.next()) steps++;
    expect(steps).toBeGreaterThan(4);
    expect(made.value.median).toBe(sorted[sorted.length >> 1]);
    expect(made.value).toEqual(rankScale(values));
  });
});
