import { describe, expect, it } from 'vitest';
import { HostScheduler, PoliteGate, PoliteGateAbortedError, PolitenessOptionError, type SchedulerClock } from '../crawler/politeness.ts';

describe('HostScheduler', () => {
  it('spaces the starts of requests to one host by its delay', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 1000 });
    scheduler.add('a.test', 3);
    expect(scheduler.nextReady(0)).toEqual({ kind: 'ready', host: 'a.test' });
    scheduler.started('a.test', 0);
    // One request in flight is the limit.
    expect(scheduler.nextReady(10)).toEqual({ kind: 'busy' });
    scheduler.finished('a.test', 100);
    expect(scheduler.nextReady(100)).toEqual({ kind: 'wait', at: 1000 });
    expect(scheduler.nextReady(999)).toEqual({ kind: 'wait', at: 1000 });
    expect(scheduler.nextReady(1000)).toEqual({ kind: 'ready', host: 'a.test' });
    scheduler.started('a.test', 1500);
    scheduler.finished('a.test', 3000);
    // A slow response does not add to the delay: it counts from the start.
    expect(scheduler.nextReady(3000)).toEqual({ kind: 'ready', host: 'a.test' });
    scheduler.started('a.test', 3000);
    scheduler.finished('a.test', 3001);
    expect(scheduler.nextReady(3001)).toEqual({ kind: 'idle' });
    expect(scheduler.pending).toBe(0);
    expect(scheduler.inFlight).toBe(0);
  });

  it('allows several requests in flight per host when configured', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 0, maxInFlightPerHost: 2 });
    scheduler.add('a.test', 3);
    scheduler.started('a.test', 0);
    expect(scheduler.nextReady(0)).toEqual({ kind: 'ready', host: 'a.test' });
    scheduler.started('a.test', 0);
    expect(scheduler.nextReady(0)).toEqual({ kind: 'busy' });
    expect(() => scheduler.started('a.test', 0)).toThrow(RangeError);
    scheduler.finished('a.test', 5);
    expect(scheduler.nextReady(5)).toEqual({ kind: 'ready', host: 'a.test' });
    expect(scheduler.inFlightOf('a.test')).toBe(1);
  });

  it('serves the host that may start soonest, first come first served on ties', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 1000 });
    scheduler.add('a.test', 2);
    scheduler.add('b.test', 2);
    scheduler.add('c.test', 2);
    const starts: Array<[number, string]> = [];
    let now = 0;
    while (scheduler.pending > 0) {
      const next = scheduler.nextReady(now);
      if (next.kind === 'wait') {
        now = next.at;
        continue;
      }
      if (next.kind !== 'ready') throw new Error(`unexpected ${next.kind}`);
      scheduler.started(next.host, now);
      scheduler.finished(next.host, now + 10);
      starts.push([now, next.host]);
    }
    expect(starts).toEqual([
      [0, 'a.test'],
      [0, 'b.test'],
      [0, 'c.test'],
      [1000, 'a.test'],
      [1000, 'b.test'],
      [1000, 'c.test'],
    ]);
  });

  it('uses the robots Crawl-delay when longer than the default, capped', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 1000, maxDelayMs: 30_000 });
    scheduler.setCrawlDelay('slow.test', 5000);
    scheduler.setCrawlDelay('snail.test', 120_000);
    scheduler.setCrawlDelay('eager.test', 10);
    scheduler.setCrawlDelay('plain.test', undefined);
    expect(scheduler.delayOf('slow.test')).toBe(5000);
    expect(scheduler.delayOf('snail.test')).toBe(30_000);
    expect(scheduler.delayOf('eager.test')).toBe(1000);
    expect(scheduler.delayOf('plain.test')).toBe(1000);
    expect(scheduler.delayOf('unknown.test')).toBe(1000);
    scheduler.add('slow.test', 2);
    scheduler.started('slow.test', 0);
    scheduler.finished('slow.test', 1);
    expect(scheduler.nextReady(1)).toEqual({ kind: 'wait', at: 5000 });
    // Learning a new delay later re-times the waiting host.
    scheduler.setCrawlDelay('slow.test', 2000);
    expect(scheduler.nextReady(1)).toEqual({ kind: 'wait', at: 2000 });
  });

  it('backs a host off until a time, never shortening a wait, while other hosts go on', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 100 });
    scheduler.add('a.test', 2);
    scheduler.add('b.test', 1);
    scheduler.backOff('a.test', 60_000);
    scheduler.backOff('a.test', 30_000);
    expect(scheduler.nextReady(0)).toEqual({ kind: 'ready', host: 'b.test' });
    scheduler.started('b.test', 0);
    scheduler.finished('b.test', 5);
    expect(scheduler.nextReady(5)).toEqual({ kind: 'wait', at: 60_000 });
    expect(scheduler.nextStartOf('a.test')).toBe(60_000);
    expect(scheduler.nextReady(60_000)).toEqual({ kind: 'ready', host: 'a.test' });
  });

  it('discards a host’s work and prunes idle hosts', () => {
    const scheduler = new HostScheduler({ defaultDelayMs: 100 });
    scheduler.add('a.test', 5);
    scheduler.add('b.test', 1);
    expect(scheduler.discard('a.test')).toBe(5);
    expect(scheduler.discard('nobody.test')).toBe(0);
    expect(scheduler.pending).toBe(1);
    expect(scheduler.nextReady(0)).toEqual({ kind: 'ready', host: 'b.test' });
    scheduler.started('b.test', 0);
    scheduler.finished('b.test', 1);
    scheduler.setCrawlDelay('c.test', 5000);
    expect(scheduler.prune(50)).toBe(1); // a.test; b.test must still wait, c.test has its own delay
    expect(scheduler.prune(100)).toBe(1);
    expect(scheduler.hostCount).toBe(1);
  });

  it('rejects misuse and bad options', () => {
    const scheduler = new HostScheduler();
    expect(() => scheduler.started('a.test', 0)).toThrow(RangeError);
    expect(() => scheduler.finished('a.test', 0)).toThrow(RangeError);
    expect(() => scheduler.add('a.test', -1)).toThrow(RangeError);
    expect(() => new HostScheduler({ maxInFlightPerHost: 0 })).toThrow(PolitenessOptionError);
    expect(() => new HostScheduler({ defaultDelayMs: 5000, maxDelayMs: 1000 })).toThrow(PolitenessOptionError);
  });

  it('agrees with a brute-force scan on random workloads', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    const hosts = Array.from({ length: 12 }, (_, i) => `h${i}.test`);
    const scheduler = new HostScheduler({ defaultDelayMs: 50, maxInFlightPerHost: 2, maxDelayMs: 400 });
    const lastStart = new Map<string, number>();
    const held = new Map<string, number>();
    const inFlight: Array<{ host: string; until: number }> = [];
    let now = 0;
    for (let step = 0; step < 5000; step++) {
      const action = random();
      const host = hosts[Math.floor(random() * hosts.length)];
      if (action < 0.25) scheduler.add(host, 1 + Math.floor(random() * 3));
      else if (action < 0.3) scheduler.setCrawlDelay(host, Math.floor(random() * 600));
      else if (action < 0.33) {
        const until = now + Math.floor(random() * 500);
        scheduler.backOff(host, until);
        held.set(host, Math.max(held.get(host) ?? -Infinity, until));
      } else if (action < 0.6 && inFlight.length > 0) {
        const done = inFlight.splice(Math.floor(random() * inFlight.length), 1)[0];
        scheduler.finished(done.host, now);
      } else if (action < 0.8) {
        now += Math.floor(random() * 40);
      } else {
        // Brute force: the eligible host with the smallest next start.
        let best: { host: string; at: number } | null = null;
        for (const h of hosts) {
          if (scheduler.pendingOf(h) === 0 || scheduler.inFlightOf(h) >= 2) continue;
          const at = Math.max((lastStart.get(h) ?? -Infinity) + scheduler.delayOf(h), held.get(h) ?? -Infinity);
          if (!best || at < best.at) best = { host: h, at };
        }
        const next = scheduler.nextReady(now);
        if (!best) {
          expect(next.kind === 'busy' || next.kind === 'idle').toBe(true);
        } else if (best.at > now) {
          expect(next).toEqual({ kind: 'wait', at: best.at });
        } else {
          expect(next.kind).toBe('ready');
          if (next.kind !== 'ready') continue;
          const at = Math.max((lastStart.get(next.host) ?? -Infinity) + scheduler.delayOf(next.host), held.get(next.host) ?? -Infinity);
          expect(at).toBe(best.at);
          scheduler.started(next.host, now);
          lastStart.set(next.host, now);
          inFlight.push({ host: next.host, until: now });
        }
      }
    }
  });
});

/** A clock whose time moves only when the test says so. */
class FakeClock implements SchedulerClock {
  time = 0;
  readonly #sleepers = new Set<{ at: number; resolve: () => void }>();

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const sleeper = { at: this.time + ms, resolve };
      this.#sleepers.add(sleeper);
      signal.addEventListener('abort', () => {
        this.#sleepers.delete(sleeper);
        resolve();
      });
    });
  }

  get nextWake(): number | undefined {
    let at: number | undefined;
    for (const sleeper of this.#sleepers) if (at === undefined || sleeper.at < at) at = sleeper.at;
    return at;
  }

  advanceTo(time: number): void {
    this.time = time;
    for (const sleeper of [...this.#sleepers]) {
      if (sleeper.at <= time) {
        this.#sleepers.delete(sleeper);
        sleeper.resolve();
      }
    }
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

describe('PoliteGate', () => {
  it('runs a small crawl with several workers, politely, and ends when work runs out', async () => {
    const clock = new FakeClock();
    const gate = new PoliteGate(new HostScheduler({ defaultDelayMs: 1000 }), { clock });
    gate.add('a.test', 3);
    gate.add('b.test', 2);
    const starts: Array<[number, string]> = [];
    const never = new AbortController().signal;
    const worker = async () => {
      for (;;) {
        const host = await gate.acquire();
        if (host === null) return;
        starts.push([clock.now(), host]);
        await clock.sleep(300, never); // the fetch
        // A page of b.test links to one more page of c.test.
        if (host === 'b.test' && !starts.some(([, h]) => h === 'c.test')) gate.add('c.test');
        gate.release(host);
      }
    };
    const workers = Promise.all([worker(), worker(), worker()]);
    let finished = false;
    void workers.then(() => (finished = true));
    for (let round = 0; round < 100 && !finished; round++) {
      await settle();
      const wake = clock.nextWake;
      if (wake !== undefined) clock.advanceTo(wake);
    }
    await workers;
    expect(starts).toEqual([
      [0, 'a.test'],
      [0, 'b.test'],
      [300, 'c.test'],
      [1000, 'a.test'],
      [1000, 'b.test'],
      [2000, 'a.test'],
    ]);
  });

  it('wakes a waiting worker when work arrives', async () => {
    const clock = new FakeClock();
    const gate = new PoliteGate(new HostScheduler({ defaultDelayMs: 1000 }), { clock });
    gate.add('a.test');
    const first = await gate.acquire();
    expect(first).toBe('a.test');
    // Nothing waiting but a request in flight: the worker must wait, not stop.
    let second: string | null | undefined;
    void gate.acquire().then((host) => (second = host));
    await settle();
    expect(second).toBeUndefined();
    gate.add('b.test');
    await settle();
    expect(second).toBe('b.test');
    gate.release('a.test');
    gate.release('b.test');
    expect(await gate.acquire()).toBeNull();
  });

  it('backs off after Retry-After, capped, with a default when none is given', async () => {
    const clock = new FakeClock();
    const gate = new PoliteGate(new HostScheduler({ defaultDelayMs: 10 }), { clock, defaultBackOffMs: 5000, maxBackOffMs: 60_000 });
    expect(gate.backOff('a.test', 120_000)).toBe(60_000);
    expect(gate.backOff('b.test', null)).toBe(5000);
    expect(gate.backOff('c.test', 2000)).toBe(2000);
    gate.add('a.test');
    gate.add('b.test');
    let host: string | null | undefined;
    void gate.acquire().then((h) => (host = h));
    await settle();
    expect(host).toBeUndefined();
    clock.advanceTo(5000);
    await settle();
    expect(host).toBe('b.test');
  });

  it('stops waiting when aborted', async () => {
    const clock = new FakeClock();
    const gate = new PoliteGate(new HostScheduler(), { clock });
    gate.add('a.test');
    gate.backOff('a.test', 10_000);
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    await settle();
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(PoliteGateAbortedError);
  });

  it('works with real timers', async () => {
    const gate = new PoliteGate(new HostScheduler({ defaultDelayMs: 60 }));
    gate.add('a.test', 3);
    const times: number[] = [];
    for (;;) {
      const host = await gate.acquire();
      if (host === null) break;
      times.push(performance.now());
      gate.release(host);
    }
    expect(times).toHaveLength(3);
    // Timers may fire a millisecond early by rounding; never much more.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(58);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(58);
  });
});

describe('PoliteGate.acquireUnlessAborted', () => {
  it('answers undefined when the wait is cancelled, null when the work is done, the host otherwise', async () => {
    const gate = new PoliteGate(new HostScheduler({ defaultDelayMs: 20_000 }));
    expect(await gate.acquireUnlessAborted()).toBeNull();
    gate.add('a.test', 2);
    expect(await gate.acquireUnlessAborted()).toBe('a.test');
    gate.release('a.test');
    const controller = new AbortController();
    const waiting = gate.acquireUnlessAborted(controller.signal);
    controller.abort();
    expect(await waiting).toBeUndefined();
  });
});
