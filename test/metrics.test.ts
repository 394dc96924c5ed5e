import { describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { compareRankings, kendallTauB, l1Distance, maxDistance, mean, median, restrictAndNormalise } from '../indexer/metrics.ts';

/** τ-b by counting every pair: the O(n²) definition. */
function bruteTauB(x: number[], y: number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiedXOnly = 0;
  let tiedYOnly = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiedXOnly++;
      else if (dy === 0) tiedYOnly++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  return (concordant - discordant) / Math.sqrt((concordant + discordant + tiedXOnly) * (concordant + discordant + tiedYOnly));
}

describe('Kendall τ-b', () => {
  it('matches the O(n²) count on random vectors with many ties', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(seed);
      const n = 2 + Math.floor(random() * 300);
      const levels = 1 + Math.floor(random() * 20);
      const x = Array.from({ length: n }, () => Math.floor(random() * levels));
      const y = x.map((v) => (random() < 0.7 ? v + Math.floor(random() * 3) : Math.floor(random() * levels)));
      const expected = bruteTauB(x, y);
      if (Number.isNaN(expected)) expect(kendallTauB(x, y)).toBeNaN();
      else expect(kendallTauB(x, y)).toBeCloseTo(expected, 12);
    }
  });

  it('is 1 for the same order, −1 for the reverse, NaN for a constant vector', () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
});

describe('distances', () => {
  it('L1 and L∞', () => {
    expect(l1Distance([0.5, 0.25, 0.25], [0.25, 0.5, 0.25])).toBeCloseTo(0.5, 15);
    expect(maxDistance([0.5, 0.25, 0.25], [0.2, 0.5, 0.3])).toBeCloseTo(0.3, 15);
    expect(() => l1Distance([1], [1, 2])).toThrow(RangeError);
    expect(compareRankings([0.1, 0.9], [0.1, 0.9])).toEqual({ l1: 0, linf: 0, tau: 1 });
  });

  it('restrictAndNormalise takes the entries of a page set and rescales them to sum 1', () => {
    const [a, b] = restrictAndNormalise([0.1, 0.2, 0.3, 0.4], [3, 1]);
    expect(a).toBeCloseTo(2 / 3, 15);
    expect(b).toBeCloseTo(1 / 3, 15);
  });
});

describe('median', () => {
  it('is the middle value, numerically sorted, and the mean of the two middle ones for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([10, 9, 1, 2])).toBe(5.5);
    expect(median([0.5])).toBe(0.5);
    expect(median([])).toBeNaN();
    const input = [3, 1, 2];
    median(input);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe('mean', () => {
  it('is the sum over the count, NaN when empty', () => {
    expect(mean([3, 1, 2])).toBe(2);
    expect(mean(Float64Array.from([0.5, 1.5, 4]))).toBe(2);
    expect(mean([])).toBeNaN();
  });
});
