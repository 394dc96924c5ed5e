/**
 * Searches take turns with background work. Crawls, re-crawls and rounds run on the thread that
 * answers searches (their fetching, parsing and storing are callbacks on its event loop); under
 * a steady search load each of a job's steps waited behind every search queued in the same turn
 * of the loop, and a re-crawl took five times as long as alone (docs/operations.md). While a job
 * runs, searches therefore run one at a time, each started on a fresh turn of the loop
 * (setImmediate), so the job's ready callbacks run between any two searches. With no job
 * running, searches pass straight through.
 */
/** One search's turn: `ready` resolves when it may run; `leave()` (once or more) ends it. */
export interface SearchTurn {
  ready: Promise<void> | undefined;
  leave(): void;
}

interface Waiting {
  state: 'waiting' | 'running' | 'left';
  start: () => void;
}

export class SearchTurns {
  #inFlight = 0;
  readonly #waiting: Waiting[] = [];

  /** `contended`: whether background work is running now. */
  constructor(
    private readonly contended: () => boolean,
    private readonly concurrency = 1,
  ) {}

  /** A turn for one search; a search that leaves before its turn came is dropped from the line. */
  enter(): SearchTurn {
    let entry: Waiting;
    let ready: Promise<void> | undefined;
    if (!this.contended() && this.#waiting.length === 0) {
      entry = { state: 'running', start: () => {} };
      this.#inFlight++;
    } else if (this.#inFlight < this.concurrency && this.#waiting.length === 0) {
      entry = { state: 'running', start: () => {} };
      this.#inFlight++;
      ready = new Promise((resolve) => setImmediate(resolve));
    } else {
      let start!: () => void;
      ready = new Promise<void>((resolve) => (start = resolve));
      entry = { state: 'waiting', start };
      this.#waiting.push(entry);
    }
    return { ready, leave: () => this.#leave(entry) };
  }

  /** Searches waiting for their turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #leave(entry: Waiting): void {
    if (entry.state === 'waiting') {
      this.#waiting.splice(this.#waiting.indexOf(entry), 1);
      entry.state = 'left';
      // Its handler may still run when the promise is resolved; nothing counts it.
      entry.start();
      return;
    }
    if (entry.state !== 'running') return;
    entry.state = 'left';
    this.#inFlight--;
    const next = this.#waiting.shift();
    if (next) {
      next.state = 'running';
      this.#inFlight++;
      setImmediate(next.start);
    }
  }
}
