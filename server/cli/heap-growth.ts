/**
 * The heap policy of a process that crawls. A crawl allocates a lot per page (the body, its
 * text, the parsed links, a store batch) and keeps little (URL ids, the frontier, the ordering):
 * on the 8,000-page multi-host benchmark ~1.3 GB allocated, ~50 MB live at the end. Left to
 * itself, V8 lets the old generation grow to several times what survived the last full
 * collection before it collects again (~200 MB of heap for those 50 MB). A growth factor of
 * 1 + percent/100 collects sooner — each full collection is incremental and takes a few
 * milliseconds here — and keeps the old generation within that factor of the live set.
 * `npm run bench -- crawl/multi` prints the default (50 %) beside V8's own policy
 * (`multi-host-v8-heap`): 233–260 against 286–317 MB peak RSS, for 4–9 % more CPU per page.
 */
import { setFlagsFromString } from 'node:v8';

let applied: number | undefined;

/** Sets V8's heap growing factor for this process (0 leaves V8's dynamic choice alone). */
export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growth must be a whole percentage ≥ 0, got ${percent}`);
  if (percent === 0 || applied === percent) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  applied = percent;
}
