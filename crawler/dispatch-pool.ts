/**
 * The crawl's dispatcher, apart from what a page is: one waiter on the politeness gate (no herd
 * of workers woken by every change) starts tasks while fewer than `concurrency` are being
 * fetched or processed. A task gets its host's slot and a `releaseHost` it may call early (once
 * the body is read) so the next request to the host goes out while the page is parsed.
 */
import type { PoliteGate } from './politeness.ts';

export interface DispatchSource<T> {
  /** Tops the host queues up from the ordering (called before every start and after every task). */
  refill(): void;
  /** The next task (a URL id, …) queued for a host the gate handed out. */
  take(host: string): T | undefined;
  /** No more tasks may start (page limit reached by stored + in-flight pages). */
  atLimit(inFlight: number): boolean;
  /** Runs one task; `releaseHost` gives the host's politeness slot back (idempotent). */
  run(host: string, task: T, releaseHost: () => void): Promise<void>;
  /** After every task (progress reports). */
  settled?(): void;
}

export class DispatchPool<T> {
  #inFlight = 0;
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;
  #onTaskDone: (() => void) | undefined;

  constructor(
    private readonly gate: PoliteGate,
    private readonly concurrency: number,
    private readonly source: DispatchSource<T>,
    private readonly signal?: AbortSignal,
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Dispatches until nothing is left or the limit is reached; rethrows the first task failure. */
  async run(): Promise<void> {
    this.source.refill();
    try {
      await this.#dispatch();
    } finally {
      while (this.#running.size > 0) await Promise.all(this.#running);
    }
    if (this.#failure) throw this.#failure.error;
  }

  #taskDone(): Promise<void> {
    return new Promise<void>((resolve) => (this.#onTaskDone = resolve));
  }

  async #dispatch(): Promise<void> {
    const { gate, source } = this;
    while (this.#failure === undefined) {
      source.refill();
      if (source.atLimit(this.#inFlight)) {
        // The limit is reached unless a page in flight is put back (429/503): wait and see.
        if (this.#inFlight === 0) return;
        await this.#taskDone();
        continue;
      }
      if (this.#inFlight >= this.concurrency) {
        await this.#taskDone();
        continue;
      }
      const host = await gate.acquireUnlessAborted(this.signal);
      if (host === undefined) return;
      if (host === null) {
        // Nothing waiting and no request out; pages still being parsed may bring new links.
        if (this.#inFlight === 0) return;
        await this.#taskDone();
        continue;
      }
      // Pages in flight may have reached the limit while this waited for a host (a redirect
      // followed stores one more record).
      const task = source.atLimit(this.#inFlight) ? undefined : source.take(host);
      if (task === undefined) {
        gate.release(host);
        continue;
      }
      this.#start(host, task);
    }
  }

  #start(host: string, work: T): void {
    let released = false;
    const releaseHost = () => {
      if (released) return;
      released = true;
      this.gate.release(host);
    };
    this.#inFlight++;
    const task = this.source
      .run(host, work, releaseHost)
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => {
        this.#inFlight--;
        this.source.refill();
        releaseHost();
        this.source.settled?.();
        this.#running.delete(task);
        const wake = this.#onTaskDone;
        this.#onTaskDone = undefined;
        wake?.();
      });
    this.#running.add(task);
  }
}
