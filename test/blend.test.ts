import { describe, expect, it } from 'vitest';
import { blendScore, logRankPosition, rankScale, saturatedRank } from '../indexer/ranking/blend.ts';

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
});
