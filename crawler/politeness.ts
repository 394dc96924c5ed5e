/**
 * Per-host politeness. `HostScheduler` is a plain data structure (no timers, the caller passes
 * `now`): it knows which hosts have work, how many requests each has in flight, and when each may
 * start its next request. Rules:
 *   - at most `maxInFlightPerHost` requests in flight per host (default 1);
 *   - at least the host's delay between the *starts* of two requests to it: our default (1 s), or
 *     the robots.txt Crawl-delay when it is longer, never more than `maxDelayMs` (30 s) — a
 *     Crawl-delay shorter than our default does not make us faster;
 *   - `backOff(host, until)` (after 429/503 Retry-After) holds a host until a time.
 * Eligible hosts sit in a min-heap keyed by their next allowed start, so the host that can go
 * soonest is always found in O(log hosts) and every host with work stays busy.
 * `PoliteGate` adds the waiting: `acquire()` resolves with a host when one may start.
 */

import { setMaxListeners } from 'node:events';

export interface HostSchedulerOptions {
  readonly maxInFlightPerHost?: number;
  readonly defaultDelayMs?: number;
  readonly maxDelayMs?: number;
}

export const POLITENESS_DEFAULTS = {
  maxInFlightPerHost: 1,
  defaultDelayMs: 1000,
  maxDelayMs: 30_000,
  defaultBackOffMs: 60_000,
  maxBackOffMs: 60 * 60 * 1000,
} as const;

export type NextReady =
  | { readonly kind: 'ready'; readonly host: string }
  /** Hosts have work but must wait for their delay or back-off: ask again at `at`. */
  | { readonly kind: 'wait'; readonly at: number }
  /** Hosts have work but each is at its in-flight limit: ask again after a request finishes. */
  | { readonly kind: 'busy' }
  /** No host has work waiting. */
  | { readonly kind: 'idle' };

export class PolitenessOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolitenessOptionError';
  }
}

interface HostState {
  pending: number;
  inFlight: number;
  lastStart: number;
  /** Back-off: no start before this time. */
  heldUntil: number;
  delayMs: number;
  /** Bumped on every change; heap entries with an older version are stale. */
  version: number;
}

interface HeapEntry {
  readonly at: number;
  readonly sequence: number;
  readonly host: string;
  readonly version: number;
}

export class HostScheduler {
  readonly maxInFlightPerHost: number;
  readonly defaultDelayMs: number;
  readonly maxDelayMs: number;
  readonly #hosts = new Map<string, HostState>();
  readonly #heap: HeapEntry[] = [];
  #sequence = 0;
  #pending = 0;
  #inFlight = 0;

  constructor(options: HostSchedulerOptions = {}) {
    this.maxInFlightPerHost = options.maxInFlightPerHost ?? POLITENESS_DEFAULTS.maxInFlightPerHost;
    this.defaultDelayMs = options.defaultDelayMs ?? POLITENESS_DEFAULTS.defaultDelayMs;
    this.maxDelayMs = options.maxDelayMs ?? POLITENESS_DEFAULTS.maxDelayMs;
    if (!Number.isInteger(this.maxInFlightPerHost) || this.maxInFlightPerHost < 1) {
      throw new PolitenessOptionError(`maxInFlightPerHost must be a positive integer, got ${this.maxInFlightPerHost}`);
    }
    if (!(this.defaultDelayMs >= 0)) throw new PolitenessOptionError(`defaultDelayMs must be ≥ 0, got ${this.defaultDelayMs}`);
    if (!(this.maxDelayMs >= this.defaultDelayMs)) throw new PolitenessOptionError(`maxDelayMs must be ≥ defaultDelayMs, got ${this.maxDelayMs}`);
  }

  /** Requests waiting over all hosts. */
  get pending(): number {
    return this.#pending;
  }

  /** Requests in flight over all hosts. */
  get inFlight(): number {
    return this.#inFlight;
  }

  get hostCount(): number {
    return this.#hosts.size;
  }

  /** Registers `count` more requests waiting for `host`. */
  add(host: string, count = 1): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
    if (count === 0) return;
    const state = this.#state(host);
    state.pending += count;
    this.#pending += count;
    this.#changed(host, state);
  }

  /** Forgets every request waiting for `host` (e.g. the host is unreachable); returns how many. */
  discard(host: string): number {
    const state = this.#hosts.get(host);
    if (!state || state.pending === 0) return 0;
    const dropped = state.pending;
    state.pending = 0;
    this.#pending -= dropped;
    this.#changed(host, state);
    return dropped;
  }

  /** Sets the host's delay from its robots.txt Crawl-delay (undefined: our default). */
  setCrawlDelay(host: string, crawlDelayMs: number | undefined): void {
    const state = this.#state(host);
    const delay = Math.min(Math.max(this.defaultDelayMs, crawlDelayMs ?? 0), this.maxDelayMs);
    if (delay === state.delayMs) return;
    state.delayMs = delay;
    this.#changed(host, state);
  }

  delayOf(host: string): number {
    return this.#hosts.get(host)?.delayMs ?? this.defaultDelayMs;
  }

  /** Earliest time the host may start its next request. */
  nextStartOf(host: string): number {
    const state = this.#hosts.get(host);
    return state ? nextStart(state) : Number.NEGATIVE_INFINITY;
  }

  pendingOf(host: string): number {
    return this.#hosts.get(host)?.pending ?? 0;
  }

  inFlightOf(host: string): number {
    return this.#hosts.get(host)?.inFlight ?? 0;
  }

  /** Which host may start a request at `now` (the one that has been allowed to longest), without changing anything. */
  nextReady(now: number): NextReady {
    const top = this.#peek();
    if (top) return top.at <= now ? { kind: 'ready', host: top.host } : { kind: 'wait', at: top.at };
    return this.#pending > 0 ? { kind: 'busy' } : { kind: 'idle' };
  }

  /** A request to `host` starts at `now`. */
  started(host: string, now: number): void {
    const state = this.#hosts.get(host);
    if (!state || state.pending === 0) throw new RangeError(`no request is waiting for ${host}`);
    if (state.inFlight >= this.maxInFlightPerHost) throw new RangeError(`${host} already has ${state.inFlight} requests in flight`);
    state.pending--;
    this.#pending--;
    state.inFlight++;
    this.#inFlight++;
    state.lastStart = Math.max(state.lastStart, now);
    this.#changed(host, state);
  }

  /** A request to `host` is done (whatever its outcome). */
  finished(host: string, _now?: number): void {
    const state = this.#hosts.get(host);
    if (!state || state.inFlight === 0) throw new RangeError(`no request to ${host} is in flight`);
    state.inFlight--;
    this.#inFlight--;
    this.#changed(host, state);
  }

  /** Holds the host until `until` (Retry-After); never shortens an existing wait. */
  backOff(host: string, until: number): void {
    const state = this.#state(host);
    if (until <= state.heldUntil) return;
    state.heldUntil = until;
    this.#changed(host, state);
  }

  /** Forgets hosts with no work, nothing in flight, a default delay and no wait beyond `now`. */
  prune(now: number): number {
    let removed = 0;
    for (const [host, state] of this.#hosts) {
      if (state.pending === 0 && state.inFlight === 0 && state.delayMs === this.defaultDelayMs && nextStart(state) <= now) {
        this.#hosts.delete(host);
        removed++;
      }
    }
    return removed;
  }

  #state(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { pending: 0, inFlight: 0, lastStart: Number.NEGATIVE_INFINITY, heldUntil: Number.NEGATIVE_INFINITY, delayMs: this.defaultDelayMs, version: 0 };
      this.#hosts.set(host, state);
    }
    return state;
  }

  /** Re-files the host in the heap after any change (old entries become stale). */
  #changed(host: string, state: HostState): void {
    state.version++;
    if (state.pending > 0 && state.inFlight < this.maxInFlightPerHost) {
      this.#push({ at: nextStart(state), sequence: this.#sequence++, host, version: state.version });
    }
    // Stale entries are dropped lazily; rebuild when they dominate.
    if (this.#heap.length > 64 && this.#heap.length > 4 * this.#hosts.size) this.#rebuild();
  }

  #peek(): HeapEntry | undefined {
    while (this.#heap.length > 0) {
      const top = this.#heap[0];
      const state = this.#hosts.get(top.host);
      if (state && state.version === top.version) return top;
      this.#pop();
    }
    return undefined;
  }

  #rebuild(): void {
    const live = this.#heap.filter((entry) => this.#hosts.get(entry.host)?.version === entry.version);
    this.#heap.length = 0;
    for (const entry of live) this.#push(entry);
  }

  #push(entry: HeapEntry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && before(heap[left], heap[smallest])) smallest = left;
      if (right < heap.length && before(heap[right], heap[smallest])) smallest = right;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
      i = smallest;
    }
  }
}

function nextStart(state: HostState): number {
  return Math.max(state.lastStart + state.delayMs, state.heldUntil);
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.sequence < b.sequence);
}

/** Time for the gate: real timers in production, a fake clock in tests. */
export interface SchedulerClock {
  now(): number;
  /** Resolves after `ms`, or early (without error) when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }),
};

export class PoliteGateAbortedError extends Error {
  constructor() {
    super('aborted while waiting for a host');
    this.name = 'PoliteGateAbortedError';
  }
}

export interface PoliteGateOptions {
  readonly clock?: SchedulerClock;
  /** Back-off when a 429/503 carries no usable Retry-After. */
  readonly defaultBackOffMs?: number;
  /** Longest back-off honoured, whatever Retry-After asks. */
  readonly maxBackOffMs?: number;
}

/**
 * The async side of the scheduler, for crawl workers:
 *   const host = await gate.acquire();   // waits for politeness; null when all work is done
 *   try { …fetch a URL of host… } finally { gate.release(host); }
 * Any change (new work, a finished request, a back-off) wakes the waiters to look again.
 */
export class PoliteGate {
  readonly scheduler: HostScheduler;
  readonly #clock: SchedulerClock;
  readonly #defaultBackOffMs: number;
  readonly #maxBackOffMs: number;
  /** Made when a waiter needs it: every add and release notifies, and most find nobody waiting. */
  #wake: AbortController | undefined;

  constructor(scheduler: HostScheduler, options: PoliteGateOptions = {}) {
    this.scheduler = scheduler;
    this.#clock = options.clock ?? systemClock;
    this.#defaultBackOffMs = options.defaultBackOffMs ?? POLITENESS_DEFAULTS.defaultBackOffMs;
    this.#maxBackOffMs = options.maxBackOffMs ?? POLITENESS_DEFAULTS.maxBackOffMs;
  }

  add(host: string, count = 1): void {
    this.scheduler.add(host, count);
    this.#notify();
  }

  /**
   * Waits until some host may start a request, marks the start and returns the host. Returns
   * null when nothing is waiting and nothing is in flight (the crawl is over); while requests
   * are in flight it keeps waiting, since they may bring new work.
   */
  async acquire(signal?: AbortSignal): Promise<string | null> {
    // An abort wakes every waiter; the aborted one throws, the others look again.
    const onAbort = () => this.#notify();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (signal?.aborted) throw new PoliteGateAbortedError();
        const now = this.#clock.now();
        const next = this.scheduler.nextReady(now);
        if (next.kind === 'ready') {
          this.scheduler.started(next.host, now);
          return next.host;
        }
        if (next.kind === 'idle' && this.scheduler.inFlight === 0) return null;
        const wake = (this.#wake ??= wakeController()).signal;
        if (next.kind === 'wait') await this.#clock.sleep(next.at - now, wake);
        else await untilAborted(wake);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * `acquire` for crawl loops that stop when cancelled: `undefined` when the signal aborts the
   * wait (instead of throwing), `null` when the crawl is over, otherwise the host.
   */
  async acquireUnlessAborted(signal?: AbortSignal): Promise<string | null | undefined> {
    try {
      return await this.acquire(signal);
    } catch (error) {
      if (signal?.aborted && error instanceof PoliteGateAbortedError) return undefined;
      throw error;
    }
  }

  release(host: string): void {
    this.scheduler.finished(host, this.#clock.now());
    this.#notify();
  }

  /** Holds a host after 429/503: `retryAfterMs` from the response, else the default, capped. */
  backOff(host: string, retryAfterMs: number | null): number {
    const wait = Math.min(retryAfterMs ?? this.#defaultBackOffMs, this.#maxBackOffMs);
    const until = this.#clock.now() + wait;
    this.scheduler.backOff(host, until);
    this.#notify();
    return until;
  }

  setCrawlDelay(host: string, crawlDelayMs: number | undefined): void {
    this.scheduler.setCrawlDelay(host, crawlDelayMs);
    this.#notify();
  }

  discard(host: string): number {
    const dropped = this.scheduler.discard(host);
    this.#notify();
    return dropped;
  }

  #notify(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    // A reason of our own: the default one is a DOMException, costly to make on every wake-up.
    wake.abort(WAKE_UP);
  }
}

const WAKE_UP = Symbol('wake-up');

/** Every waiting worker listens on the wake signal: as many listeners as workers are expected. */
function wakeController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
