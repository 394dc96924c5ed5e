/**
 * A max-heap of (item, priority) with lazy updates: raising an item's priority pushes a new
 * entry, and stale entries are skipped when they reach the top. Ties go to the item pushed
 * first (a sequence number), so crawl order is deterministic.
 */
export class LazyMaxHeap {
  private items: number[] = [];
  private priorities: number[] = [];
  private sequence: number[] = [];
  private counter = 0;

  get entryCount(): number {
    return this.items.length;
  }

  push(item: number, priority: number): void {
    this.items.push(item);
    this.priorities.push(priority);
    this.sequence.push(this.counter++);
    this.up(this.items.length - 1);
  }

  /**
   * Removes and returns the best entry for which `isCurrent(item, priority)` holds, discarding
   * stale entries on the way; undefined when none is left.
   */
  pop(isCurrent: (item: number, priority: number) => boolean): { item: number; priority: number } | undefined {
    while (this.items.length > 0) {
      const item = this.items[0];
      const priority = this.priorities[0];
      this.removeTop();
      if (isCurrent(item, priority)) return { item, priority };
    }
    return undefined;
  }

  /** The best current entry without removing it (stale entries above it are dropped). */
  peek(isCurrent: (item: number, priority: number) => boolean): { item: number; priority: number } | undefined {
    while (this.items.length > 0) {
      if (isCurrent(this.items[0], this.priorities[0])) return { item: this.items[0], priority: this.priorities[0] };
      this.removeTop();
    }
    return undefined;
  }

  private better(a: number, b: number): boolean {
    const pa = this.priorities[a];
    const pb = this.priorities[b];
    return pa > pb || (pa === pb && this.sequence[a] < this.sequence[b]);
  }

  private swap(a: number, b: number): void {
    [this.items[a], this.items[b]] = [this.items[b], this.items[a]];
    [this.priorities[a], this.priorities[b]] = [this.priorities[b], this.priorities[a]];
    [this.sequence[a], this.sequence[b]] = [this.sequence[b], this.sequence[a]];
  }

  private up(index: number): void {
    let c = index;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (!this.better(c, p)) break;
      this.swap(c, p);
      c = p;
    }
  }

  private removeTop(): void {
    const last = this.items.length - 1;
    this.swap(0, last);
    this.items.pop();
    this.priorities.pop();
    this.sequence.pop();
    let p = 0;
    for (;;) {
      const l = 2 * p + 1;
      const r = l + 1;
      let m = p;
      if (l < this.items.length && this.better(l, m)) m = l;
      if (r < this.items.length && this.better(r, m)) m = r;
      if (m === p) return;
      this.swap(p, m);
      p = m;
    }
  }
}
