/**
 * URLs taken from the crawl ordering ahead of time, queued by host. A host is here only while it
 * has URLs queued; every queued host is also known to the politeness gate, which decides when the
 * host may be visited. `buffered` counts the URLs queued over all hosts.
 */
import type { PoliteGate } from './politeness.ts';

export class HostQueues {
  readonly #queues = new Map<string, number[]>();
  #buffered = 0;

  constructor(private readonly gate: PoliteGate) {}

  /** URLs queued over all hosts. */
  get buffered(): number {
    return this.#buffered;
  }

  /** Hosts with URLs queued. */
  get hosts(): number {
    return this.#queues.size;
  }

  /** Queues a URL on its host (at the front: a page put back); whether the host had none queued. */
  enqueue(host: string, id: number, atFront = false): boolean {
    const queue = this.#queues.get(host);
    if (!queue) this.#queues.set(host, [id]);
    else if (atFront) queue.unshift(id);
    else queue.push(id);
    this.#buffered++;
    this.gate.add(host);
    return queue === undefined;
  }

  /** The next URL of a host the gate handed out, or undefined when it has none. */
  take(host: string): number | undefined {
    const queue = this.#queues.get(host);
    const id = queue?.shift();
    if (id === undefined) return undefined;
    if (queue!.length === 0) this.#queues.delete(host);
    this.#buffered--;
    return id;
  }
}
