/**
 * A prior's levels (prior-levels.ts) bound every value from above, closely, whatever the values:
 * negatives, ties, infinities and NaN.
 */
import { describe, expect, it } from 'vitest';
import { prepareLevels, priorLevels } from '../indexer/text-index/prior-levels.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

function check(prior: Float64Array) {
  const { levels, values } = priorLevels(prior);
  expect(levels.length).toBe(prior.length);
  const finite = [...prior].filter(Number.isFinite);
  const step = finite.length > 0 ? (Math.max(...finite) - Math.min(...finite)) / 254 : 0;
  prior.forEach((v, d) => {
    const bound = values[levels[d]];
    if (Number.isNaN(v) || v === Infinity) expect(bound).toBeNaN();
    else {
      expect(bound).toBeGreaterThanOrEqual(v);
      // Close: within a level's width (an infinitely low prior gets the lowest finite value).
      if (v !== -Infinity) expect(bound - v).toBeLessThanOrEqual(step * (1 + 1e-9) + 1e-12);
    }
  });
}

describe('prior levels', () => {
  it('bound a PageRank-like prior from above within a level', () => {
    const random = seededRandom(7);
    check(Float64Array.from({ length: 20_000 }, (_, i) => 0.5 * Math.log((((i + 1) / 20_000) ** -0.9 * Math.exp(random() * 3 - 1.5)) / 3)));
  });

  it('bound negatives, ties, infinities and NaN', () => {
    check(Float64Array.from([0, 0, -1.5, 3.25, -Infinity, Infinity, NaN, 3.25, -1.5, 1e-9]));
    check(Float64Array.from([2, 2, 2]));
    check(Float64Array.from([-Infinity, -Infinity]));
    check(new Float64Array(0));
  });

  it('are made ahead in slices, the same as at first use', async () => {
    const random = seededRandom(3);
    const values = Array.from({ length: 10_000 }, () => (random() < 0.01 ? -Infinity : random() * 8 - 3));
    const ahead = Float64Array.from(values);
    let turns = 0;
    await prepareLevels(ahead, 1_000, async () => void turns++);
    expect(turns).toBeGreaterThanOrEqual(10);
    const made = priorLevels(ahead);
    const atUse = priorLevels(Float64Array.from(values));
    expect(made).not.toBe(atUse);
    expect(made.levels).toEqual(atUse.levels);
    expect(made.values).toEqual(atUse.values);
    // Prepared once: a second preparation takes no turn.
    const before = turns;
    await prepareLevels(ahead, 1_000, async () => void turns++);
    expect(turns).toBe(before);
    expect(priorLevels(ahead)).toBe(made);
  });

  it('are made once per prior array', () => {
    const prior = Float64Array.from([1, 2, 3]);
    expect(priorLevels(prior)).toBe(priorLevels(prior));
  });
});
