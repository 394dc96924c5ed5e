/**
 * Topic (focused) crawling (Cho, Garcia-Molina & Page): a page belongs to the
 * local domain when its similarity IS(p, q) to the driving query q passes a threshold.
 *
 * IS(p, q) is the cosine of the query and page vectors in a tf-idf vector space:
 *   page weight   w(t, p) = (1 + ln tf(t, p)) · idf(t)   (sublinear tf: a word repeated by a
 *                                                          menu or a list does not swamp the rest)
 *   query weight  w(t, q) = idf(t) for each distinct query term
 *   idf(t)        = ln((1 + N) / (1 + df(t))) + 1, where N pages were seen so far and df(t) of
 *                   them contain t.
 * The whole web's idf is unknown to a crawler, so — as Cho et al. do — it is estimated from the
 * pages crawled so far (local and global alike). Before the first page every idf is 1 and IS is
 * the plain-tf cosine; the estimate sharpens as the crawl goes on.
 *
 * Words are the duplicates module's normalised words (NFKC, lower case, letters and digits),
 * with regular English plurals folded ("telescopes" → "telescope"), on both sides.
 *
 * Cho's hot queue: a link is hot when its anchor text or its URL contains a query term
 * ({@link hotLinkTest}); the crawl follows links only within a small distance of the last hot
 * page (a page whose similarity passes the threshold, or a hot link), see {@link linkDistance}.
 */
import { words } from './duplicates.ts';

export interface TopicSettings {
  /** The driving query terms (words; phrases are split into words). */
  readonly terms: readonly string[];
  /** A page is in the local domain when IS(p, q) ≥ threshold (0…1). */
  readonly threshold: number;
  /** Links are followed at most this many steps from the last hot page (default 2). */
  readonly maxDistance?: number;
}

export const DEFAULT_TOPIC_MAX_DISTANCE = 2;

export class TopicSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopicSettingsError';
  }
}

/** A word with a regular English plural folded to its singular, so both forms count as one term. */
export function termKey(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:s|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The term keys of a text, in order. */
export function termsOf(text: string): string[] {
  return words(text).map(termKey);
}

/** How often each term occurs in a text. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of termsOf(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * Cho's IS(p, q): the cosine between the query terms and a page's term counts, weighted by
 * `idf` (see the module comment). 0 for an empty page or query; 1 when the page consists of the
 * query terms in the query's proportions.
 */
export function topicSimilarity(queryTerms: readonly string[], pageCounts: ReadonlyMap<string, number>, idf: (term: string) => number): number {
  const query = new Set(queryTerms);
  if (query.size === 0 || pageCounts.size === 0) return 0;
  let dot = 0;
  let queryNorm = 0;
  for (const term of query) {
    const weight = idf(term);
    queryNorm += weight * weight;
    const tf = pageCounts.get(term);
    if (tf !== undefined && tf > 0) dot += weight * (1 + Math.log(tf)) * weight;
  }
  if (dot === 0) return 0;
  let pageNorm = 0;
  for (const [term, tf] of pageCounts) {
    if (tf <= 0) continue;
    const weight = (1 + Math.log(tf)) * idf(term);
    pageNorm += weight * weight;
  }
  return Math.min(1, dot / Math.sqrt(queryNorm * pageNorm));
}

/**
 * Document frequencies of the pages seen so far, for the idf estimate. When the vocabulary grows
 * past `maxTerms`, terms seen on one page only are dropped: their idf stays (almost) the largest
 * either way, and the table stays bounded on a large crawl.
 */
export class DocumentFrequencies {
  private readonly counts = new Map<string, number>();
  private pageCount = 0;

  constructor(private readonly maxTerms = 200_000) {}

  get pages(): number {
    return this.pageCount;
  }

  get terms(): number {
    return this.counts.size;
  }

  /** Counts one page (its distinct terms). */
  add(pageTerms: Iterable<string>): void {
    this.pageCount++;
    for (const term of pageTerms) this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
    if (this.counts.size > this.maxTerms) {
      for (const [term, count] of this.counts) if (count <= 1) this.counts.delete(term);
    }
  }

  /** Smoothed idf: ln((1 + N) / (1 + df)) + 1 (1 for every term before any page). */
  idf(term: string): number {
    return Math.log((1 + this.pageCount) / (1 + (this.counts.get(term) ?? 0))) + 1;
  }

  /** A compact copy for the store (terms on at least `minCount` pages), to resume a crawl with. */
  snapshot(minCount = 2): DocumentFrequencySnapshot {
    const terms: Array<[string, number]> = [];
    for (const [term, count] of this.counts) if (count >= minCount) terms.push([term, count]);
    return { pages: this.pageCount, terms };
  }

  static fromSnapshot(snapshot: DocumentFrequencySnapshot, maxTerms?: number): DocumentFrequencies {
    const frequencies = new DocumentFrequencies(maxTerms);
    frequencies.pageCount = snapshot.pages;
    for (const [term, count] of snapshot.terms) frequencies.counts.set(term, count);
    return frequencies;
  }
}

/** JSON form of {@link DocumentFrequencies} (a type alias, so it is a plain JSON record). */
export type DocumentFrequencySnapshot = {
  pages: number;
  terms: Array<[string, number]>;
};

/**
 * Distance of a link's target from the last hot page: 1 for a hot link (its anchor text or URL
 * names a query term, so its target is likely hot itself) or a link on a hot page, else one more
 * than the page it is on. The crawl follows the link when this is ≤ maxDistance.
 */
export function linkDistance(pageDistance: number, linkIsHot: boolean): number {
  return linkIsHot ? 1 : pageDistance + 1;
}

/** The topic of a focused crawl: which pages are in the domain and which links are hot. */
export class TopicScope {
  readonly terms: readonly string[];
  readonly threshold: number;
  readonly maxDistance: number;

  constructor(
    settings: TopicSettings,
    /** The idf estimate; pass a restored one to resume a crawl. */
    readonly frequencies: DocumentFrequencies = new DocumentFrequencies(),
  ) {
    const terms = [...new Set(settings.terms.flatMap((term) => termsOf(term)))];
    if (terms.length === 0) throw new TopicSettingsError(`the topic has no words: ${JSON.stringify(settings.terms)}`);
    if (!(settings.threshold >= 0 && settings.threshold <= 1)) throw new TopicSettingsError(`the topic threshold must be in [0, 1], got ${settings.threshold}`);
    const maxDistance = settings.maxDistance ?? DEFAULT_TOPIC_MAX_DISTANCE;
    if (!Number.isInteger(maxDistance) || maxDistance < 1) throw new TopicSettingsError(`the topic's maxDistance must be a positive integer, got ${maxDistance}`);
    this.terms = terms;
    this.isHotLink = hotLinkTest(terms);
    this.threshold = settings.threshold;
    this.maxDistance = maxDistance;
  }

  /** IS(p, q) of a fetched page; the page is counted into the idf estimate first. */
  score(text: string): number {
    const counts = termCounts(text);
    this.frequencies.add(counts.keys());
    return topicSimilarity(this.terms, counts, (term) => this.frequencies.idf(term));
  }

  /** In the local domain: similarity at least the threshold (and something in common). */
  isInDomain(similarity: number): boolean {
    return similarity > 0 && similarity >= this.threshold;
  }

  /** Cho's hot link (see {@link hotLinkTest}). */
  readonly isHotLink: (url: string, anchorText?: string) => boolean;
}

/**
 * Cho's hot link: its URL or anchor text contains one of the terms (their term keys, as
 * substrings of the lower-cased text, so `astronomynews.example` and "Telescopes" both count
 * for "telescope").
 */
export function hotLinkTest(terms: readonly string[]): (url: string, anchorText?: string) => boolean {
  const keys = [...new Set(terms.flatMap((term) => termsOf(term)))];
  if (keys.length === 0) return () => false;
  const mentions = (text: string) => {
    const lower = text.toLowerCase();
    return keys.some((key) => lower.includes(key));
  };
  return (url, anchorText) => mentions(url) || (anchorText !== undefined && anchorText !== '' && mentions(anchorText));
}

export interface DistanceLink {
  readonly to: number;
  /** A hot link (see {@link hotLinkTest}). */
  readonly hot: boolean;
}

/**
 * Distances from the last hot page over a known graph, as a crawl that followed
 * {@link linkDistance} would have found them (to resume a topic crawl from the store): the hot
 * pages are at 0, and a page passes distances on through its links only while it is within
 * `maxDistance`. Pages out of reach are absent.
 */
export function distancesFromHotPages(
  hotPages: Iterable<number>,
  linksOf: (id: number) => readonly DistanceLink[] | undefined,
  maxDistance: number,
): Map<number, number> {
  const distance = new Map<number, number>();
  // A bucket queue over the few possible distances; a hot link can lower a page to 1 at any time.
  const buckets: number[][] = Array.from({ length: maxDistance + 1 }, () => []);
  const read = new Array<number>(maxDistance + 1).fill(0);
  for (const id of hotPages) {
    if (distance.has(id)) continue;
    distance.set(id, 0);
    buckets[0].push(id);
  }
  let level = 0;
  while (level <= maxDistance) {
    if (read[level] === buckets[level].length) {
      level++;
      continue;
    }
    const from = level;
    const id = buckets[from][read[from]++];
    if (distance.get(id) !== from) continue; // lowered since it was queued
    for (const link of linksOf(id) ?? []) {
      const next = linkDistance(from, link.hot);
      if (next > maxDistance) continue;
      const known = distance.get(link.to);
      if (known !== undefined && known <= next) continue;
      distance.set(link.to, next);
      buckets[next].push(link.to);
      if (next < level) level = next;
    }
  }
  return distance;
}
