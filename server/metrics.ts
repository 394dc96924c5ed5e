/**
 * A small Prometheus text-format registry: counters, gauges computed on scrape, and one latency
 * histogram. Enough for /metrics without a dependency.
 */

type Labels = Record<string, string>;

const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`;
};

export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  ) {
    this.counts = new Array(buckets.length).fill(0);
  }
  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (seconds <= this.buckets[i]) this.counts[i]++;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.buckets.forEach((le, i) => lines.push(`${this.name}_bucket{le="${le}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${this.sum}`, `${this.name}_count ${this.count}`);
    return lines.join('\n');
  }
}

/** A gauge read when scraped: returns one value per label set. */
export class Gauge {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Promise<Array<{ labels?: Labels; value: number }>> | Array<{ labels?: Labels; value: number }>,
  ) {}
  async render(): Promise<string> {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const { labels, value } of await this.read()) lines.push(`${this.name}${labelText(labels ?? {})} ${value}`);
    return lines.join('\n');
  }
}

export class MetricsRegistry {
  readonly requests = new Counter('lse_http_requests_total', 'HTTP requests by route and status code.');
  readonly latency = new Histogram('lse_http_request_duration_seconds', 'HTTP request latency.');
  private readonly gauges: Gauge[] = [];

  gauge(gauge: Gauge): void {
    this.gauges.push(gauge);
  }

  async render(): Promise<string> {
    const parts = [this.requests.render(), this.latency.render(), ...(await Promise.all(this.gauges.map((g) => g.render())))];
    return parts.join('\n') + '\n';
  }
}
