/** Rank vectors held as typed arrays read as the Map of the same ids and values did. */
import { describe, expect, it } from 'vitest';
import { RankColumn } from '../indexer/ranking/rank-column.ts';
import { rankSnapshot } from '../indexer/ranking/search-engine.ts';

describe('a rank column', () => {
  it('answers get, has, size and iteration as a Map of the same entries', () => {
    const ids = [7, 2, 40, 0, 13];
    const values = [0.1, 0.25, 1e-9, 0.5, 0];
    const column = new RankColumn(ids, values);
    const map = new Map(ids.map((id, i) => [id, values[i]]));
    expect([...column]).toEqual([...map]);
    expect([...column.keys()]).toEqual([...map.keys()]);
    expect(column.size).toBe(map.size);
    for (let id = -2; id < 45; id++) {
      expect(column.get(id)).toBe(map.get(id));
      expect(column.has(id)).toBe(map.has(id));
    }
  });

  it('is what a rank snapshot holds', () => {
    const snapshot = rankSnapshot(3, [5, 1], [0.3, 0.7], [0.4, 0.6]);
    expect(snapshot.global).toBeInstanceOf(RankColumn);
    expect(snapshot.global.get(1)).toBe(0.7);
    expect(snapshot.local.get(5)).toBe(0.4);
    expect(snapshot.global.get(2)).toBeUndefined();
  });

  it('is made in steps of a slice of the ranks, from arrays of any kind, equal to one made at once', () => {
    const n = 600_000;
    const ids = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const values = Float32Array.from({ length: n }, (_, i) => 1 / (1 + i));
    const steps = RankColumn.steps(ids, values);
    let taken = 0;
    let step = steps.next();
    while (!step.done) {
      taken++;
      step = steps.next();
    }
    // A copy of each array a slice at a time, then the positions: never a million entries at once.
    expect(taken).toBeGreaterThanOrEqual(6);
    const column = step.value;
    const direct = new RankColumn(Uint32Array.from(ids), Array.from(values));
    for (let id = 0; id < n; id += 997) expect(column.get(id)).toBe(direct.get(id));
    expect(column.size).toBe(n);
  });
});
