/**
 * The crawl's page limit counts every record a crawl stores: pages, failures and redirect hops.
 * A page in flight will store one record, and one more for each redirect it follows; the limit
 * counts both before they are stored, so that pages started together never end past it. A
 * redirect that would not fit is not followed (the caller stores it as a link to its target,
 * which the next run fetches).
 */

/** One page in flight, counted until `end()`. */
export interface PageInFlight {
  /** Whether one more redirect fits under the limit; counts it when it does. */
  mayFollowRedirect(): boolean;
  /** The page's records are stored (or it was put back): it stops counting as in flight. */
  end(): void;
}

export class PageLimit {
  #pages = 0;
  #redirects = 0;

  /** `stored`: the records stored so far (this run and earlier ones together). */
  constructor(
    readonly max: number,
    private readonly stored: () => number,
  ) {}

  /** Records stored, and those the pages in flight will store at most. */
  get committed(): number {
    return this.stored() + this.#pages + this.#redirects;
  }

  /** No page may start: the records stored and committed reach the limit. */
  get reached(): boolean {
    return this.committed >= this.max;
  }

  start(): PageInFlight {
    this.#pages++;
    let redirects = 0;
    let ended = false;
    return {
      mayFollowRedirect: () => {
        if (ended || this.reached) return false;
        redirects++;
        this.#redirects++;
        return true;
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.#pages--;
        this.#redirects -= redirects;
      },
    };
  }
}
