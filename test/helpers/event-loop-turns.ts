/**
 * Counts the turns of the event loop while work runs: a callback that schedules itself with
 * setImmediate runs once per turn, so work that never yields leaves the count where it was.
 */
export function countTurns(): { readonly count: number; stop(): number } {
  let count = 0;
  let counting = true;
  const turn = () => {
    count++;
    if (counting) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    get count() {
      return count;
    },
    stop() {
      counting = false;
      return count;
    },
  };
}
