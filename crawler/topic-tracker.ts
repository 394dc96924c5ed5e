/**
 * A topic crawl's bookkeeping in the crawl loop (Cho's focused crawling): a
 * fetched page is local when its similarity to the topic passes the threshold and global
 * otherwise (kept for its links), and a link is followed when it is within `maxDistance` steps
 * of the last hot page. The idf estimate is stored now and then so a resumed crawl scores alike.
 */
import type { CrawlStore, PageRole, WriteBatch } from '../indexer/store/crawl-store.ts';
import type { PageOutcome } from './page-fetch.ts';
import { distancesFromHotPages, DocumentFrequencies, linkDistance, TopicScope, TopicSettingsError, type DistanceLink, type DocumentFrequencySnapshot, type TopicSettings } from './topic.ts';

/** Meta key of the topic crawl's idf estimate (document frequencies), for resuming. */
export const TOPIC_FREQUENCIES_META = 'topic-document-frequencies';
/** Topic similarity reads the first this many characters of a page (a huge page's opening says what it is about). */
const TOPIC_TEXT_LIMIT = 256 * 1024;
/** Topic crawls store their idf estimate every this many scored pages (and at the end). */
const TOPIC_SNAPSHOT_EVERY = 500;

export class TopicTracker {
  /** Steps from the last hot page (0 for hot pages and seeds). */
  readonly #distanceOf = new Map<number, number>();
  #scoredSinceSnapshot = 0;
  /** Pages fetched by this run that passed the threshold (local) and that did not. */
  local = 0;
  global = 0;

  private constructor(private readonly scope: TopicScope) {}

  /** Opens the tracker with the idf estimate an earlier run stored; bad settings throw `TopicSettingsError`. */
  static async open(store: CrawlStore, settings: TopicSettings): Promise<TopicTracker> {
    const snapshot = await store.getMeta<DocumentFrequencySnapshot>(TOPIC_FREQUENCIES_META);
    return new TopicTracker(new TopicScope(settings, snapshot ? DocumentFrequencies.fromSnapshot(snapshot) : undefined));
  }

  get maxDistance(): number {
    return this.scope.maxDistance;
  }

  /**
   * Resuming: the distances the earlier runs saw, from the seeds and the stored local pages (the
   * hot pages) over the stored links; then each stored page's followed links are those within reach.
   */
  resume(hotPages: readonly number[], hotLinks: ReadonlyMap<number, DistanceLink[]>, storedLinks: ReadonlyMap<number, { follow: number[] }>): void {
    const maxDistance = this.scope.maxDistance;
    for (const [id, distance] of distancesFromHotPages(hotPages, (id) => hotLinks.get(id), maxDistance)) this.#distanceOf.set(id, distance);
    for (const [id, links] of storedLinks) {
      const from = this.#distanceOf.get(id);
      const candidates = hotLinks.get(id) ?? [];
      links.follow = from === undefined ? [] : candidates.filter((l) => linkDistance(from, l.hot) <= maxDistance).map((l) => l.to);
    }
  }

  /** Scores a fetched page: its role and whether it is hot. */
  judge(outcome: PageOutcome, pending: WriteBatch): { role: PageRole; hot: boolean } {
    if (outcome.kind !== 'page') return { role: 'global', hot: false };
    const text = `${outcome.page.title}\n${outcome.page.text}`;
    const hot = this.scope.isInDomain(this.scope.score(text.length > TOPIC_TEXT_LIMIT ? text.slice(0, TOPIC_TEXT_LIMIT) : text));
    if (hot) this.local++;
    else this.global++;
    if (++this.#scoredSinceSnapshot >= TOPIC_SNAPSHOT_EVERY) this.saveFrequencies(pending);
    return { role: hot ? 'local' : 'global', hot };
  }

  /** A fetched page's distance from the last hot page (0 when it is hot), recorded for its content id. */
  pageDistance(id: number, contentId: number, hot: boolean): number {
    const distance = hot ? 0 : (this.#distanceOf.get(id) ?? 0);
    this.#distanceOf.set(contentId, distance);
    return distance;
  }

  /** Whether a link of a page at `pageDistance` is followed; notes the link target's distance. */
  follows(target: number, pageDistance: number, hot: boolean): boolean {
    const distance = linkDistance(pageDistance, hot);
    if (distance > this.scope.maxDistance) return false;
    const known = this.#distanceOf.get(target);
    if (known === undefined || distance < known) this.#distanceOf.set(target, distance);
    return true;
  }

  saveFrequencies(pending: WriteBatch): void {
    this.#scoredSinceSnapshot = 0;
    pending.putMeta(TOPIC_FREQUENCIES_META, this.scope.frequencies.snapshot());
  }
}

export { TopicSettingsError };
