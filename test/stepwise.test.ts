/**
 * Work in steps (indexer/stepwise.ts): the stable merge sort equals Array.prototype.sort, and a
 * suggestion index built beside a server lets the event loop run while it works, with the same
 * columns as one built at once.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { mergeSortSteps, runSteps, runStepsYielding } from '../indexer/stepwise.ts';
import { SuggestIndex, SuggestIndexBuilder, type SuggestSource } from '../indexer/suggest/suggest-index.ts';
import { countTurns } from './helpers/event-loop-turns.ts';

describe('work in steps', () => {
  it('sorts stably, as Array.prototype.sort does, whatever the run length', async () => {
    const random = seededRandom(5);
    const keys = Array.from({ length: 10_000 }, () => Math.floor(random() * 300));
    const items = Int32Array.from(keys, (_, i) => i);
    // Many equal keys: a stable sort keeps them in the order they came.
    const compare = (a: number, b: number) => keys[a] - keys[b];
    const expected = [...items].sort(compare);
    for (const run of [1, 7, 64, 4096, 20_000]) {
      expect([...runSteps(mergeSortSteps(items, compare, run))]).toEqual(expected);
      expect([...(await runStepsYielding(mergeSortSteps(items, compare, run)))]).toEqual(expected);
    }
    expect([...runSteps(mergeSortSteps(new Int32Array(0), compare))]).toEqual([]);
  });

  it('builds suggestions with the event loop turning, into the same columns', async () => {
    const random = seededRandom(9);
    const word = () => ['comet', 'orbit', 'galaxy', 'nebula', 'telescope', 'quasar', 'pulsar', 'lens'][Math.floor(random() * 8)] + Math.floor(random() * 50);
    const pages: SuggestSource[] = Array.from({ length: 20_000 }, (_, id) => ({ id, url: `https://s.example/${id}`, title: `${word()} ${word()}`, headings: [word()], text: Array.from({ length: 30 }, word).join(' ') }));
    const rankOf = (id: number) => (id % 97) / 97;
    const atOnce = new SuggestIndexBuilder(rankOf);
    for (const page of pages) atOnce.add(page);
    const turning = countTurns();
    const built = await SuggestIndex.build(pages, rankOf);
    const turns = turning.stop();
    // Pages of a list arrive as microtasks: before, the whole build ran in one turn of the loop.
    expect(turns).toBeGreaterThan(20);
    expect(built.toColumns()).toEqual(atOnce.done().toColumns());
  });
});
