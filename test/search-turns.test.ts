import { describe, expect, it } from 'vitest';
import { SearchTurns } from '../server/search-turns.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('searches take turns with background work', () => {
  it('lets searches straight through while no job runs', () => {
    const turns = new SearchTurns(() => false);
    const all = Array.from({ length: 5 }, () => turns.enter());
    expect(all.every((t) => t.ready === undefined)).toBe(true);
    for (const t of all) t.leave();
  });

  it('while a job runs: one search at a time, and the job’s callbacks run between any two', async () => {
    const turns = new SearchTurns(() => true);
    const order: string[] = [];
    const searches = Array.from({ length: 4 }, (_, i) => {
      const t = turns.enter();
      return (async () => {
        await t.ready;
        order.push(`search ${i}`);
        // The job's next step becomes ready while this search runs…
        setImmediate(() => order.push(`job after ${i}`));
        t.leave();
      })();
    });
    expect(turns.waiting).toBe(3);
    await Promise.all(searches);
    await turn();
    // …and runs before the next search starts.
    expect(order).toEqual(['search 0', 'job after 0', 'search 1', 'job after 1', 'search 2', 'job after 2', 'search 3', 'job after 3']);
  });

  it('drops a search that leaves before its turn, and keeps counting right', async () => {
    let busy = true;
    const turns = new SearchTurns(() => busy);
    const first = turns.enter();
    const gone = turns.enter();
    const third = turns.enter();
    gone.leave();
    gone.leave();
    expect(turns.waiting).toBe(1);
    await first.ready;
    first.leave();
    first.leave(); // twice: counted once
    await third.ready;
    await turn();
    const fourth = turns.enter();
    expect(turns.waiting).toBe(1); // third still runs
    third.leave();
    await fourth.ready;
    fourth.leave();
    busy = false;
    expect(turns.enter().ready).toBeUndefined();
  });
});
