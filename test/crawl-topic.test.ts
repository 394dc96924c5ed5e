import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { generateDemoWeb, type DemoPage, type DemoWeb } from '../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer, type DemoWebServer } from '../crawler/demo-web/server.ts';
import { parseScope } from '../crawler/scope.ts';
import {
  distancesFromHotPages,
  DocumentFrequencies,
  hotLinkTest,
  linkDistance,
  termCounts,
  termKey,
  TopicScope,
  topicSimilarity,
  TopicSettingsError,
} from '../crawler/topic.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const plainTf = () => 1;

describe('topic similarity IS(p, q)', () => {
  it('folds regular plurals on both sides', () => {
    expect(termKey('telescopes')).toBe('telescope');
    expect(termKey('galaxies')).toBe('galaxy');
    expect(termKey('sandwiches')).toBe('sandwich');
    expect(termKey('boxes')).toBe('box');
    expect(termKey('glass')).toBe('glass');
    expect(termKey('bus')).toBe('bus');
    expect([...termCounts('Telescopes, a telescope; TELESCOPE!')]).toEqual([
      ['telescope', 3],
      ['a', 1],
    ]);
  });

  it('is the cosine of the query and page vectors: 0 without overlap, 1 for the query itself', () => {
    expect(topicSimilarity(['comet'], termCounts('bread and butter'), plainTf)).toBe(0);
    expect(topicSimilarity([], termCounts('comet'), plainTf)).toBe(0);
    expect(topicSimilarity(['comet'], new Map(), plainTf)).toBe(0);
    expect(topicSimilarity(['comet', 'orbit'], termCounts('comet orbit'), plainTf)).toBeCloseTo(1, 12);
    // One of two query terms, alone on the page: cos = 1/√2.
    expect(topicSimilarity(['comet', 'orbit'], termCounts('comet'), plainTf)).toBeCloseTo(Math.SQRT1_2, 12);
    const value = topicSimilarity(['comet'], termCounts('comet comet bread'), plainTf);
    // Sublinear tf: weights 1 + ln 2 and 1.
    const w = 1 + Math.log(2);
    expect(value).toBeCloseTo(w / Math.sqrt(w * w + 1), 12);
  });

  it('grows with the share of query terms on the page and stays within [0, 1]', () => {
    const query = ['comet', 'telescope'];
    const sparse = topicSimilarity(query, termCounts('comet bread butter cheese onion flour'), plainTf);
    const dense = topicSimilarity(query, termCounts('comet telescope bread butter'), plainTf);
    expect(dense).toBeGreaterThan(sparse);
    for (const text of ['comet', 'comet comet comet comet', 'telescope comet orbit', 'x']) {
      const s = topicSimilarity(query, termCounts(text), plainTf);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });

  it('weighs terms by idf: a rare page word counts more than a common one', () => {
    const frequencies = new DocumentFrequencies();
    for (let i = 0; i < 50; i++) frequencies.add(['the', i % 10 === 0 ? 'comet' : 'bread']);
    expect(frequencies.pages).toBe(50);
    expect(frequencies.idf('the')).toBeCloseTo(Math.log(51 / 51) + 1, 12);
    expect(frequencies.idf('comet')).toBeGreaterThan(frequencies.idf('bread'));
    expect(frequencies.idf('never-seen')).toBeGreaterThan(frequencies.idf('comet'));
    const idf = (term: string) => frequencies.idf(term);
    // "the" everywhere dilutes the page less than a rarer word does.
    const withCommon = topicSimilarity(['comet'], termCounts('comet the'), idf);
    const withRare = topicSimilarity(['comet'], termCounts('comet nebula'), idf);
    expect(withCommon).toBeGreaterThan(withRare);
  });

  it('keeps its document frequencies bounded and restores them from a snapshot', () => {
    const frequencies = new DocumentFrequencies(5);
    frequencies.add(['a', 'b', 'c']);
    frequencies.add(['a', 'b']);
    frequencies.add(['d', 'e', 'f']); // 6 terms > 5: those on one page only go
    expect(frequencies.terms).toBe(2);
    const copy = DocumentFrequencies.fromSnapshot(JSON.parse(JSON.stringify(frequencies.snapshot())));
    expect(copy.pages).toBe(3);
    expect(copy.idf('a')).toBe(frequencies.idf('a'));
    expect(copy.idf('zzz')).toBe(frequencies.idf('zzz'));
  });

  it('TopicScope: terms as words, threshold, hot links, idf counted as pages are scored', () => {
    expect(() => new TopicScope({ terms: ['  ', '!!'], threshold: 0.1 })).toThrow(TopicSettingsError);
    expect(() => new TopicScope({ terms: ['comet'], threshold: 2 })).toThrow(TopicSettingsError);
    expect(() => new TopicScope({ terms: ['comet'], threshold: 0.1, maxDistance: 0 })).toThrow(TopicSettingsError);
    const scope = new TopicScope({ terms: ['Comets', 'night sky'], threshold: 0.2 });
    expect(scope.terms).toEqual(['comet', 'night', 'sky']);
    expect(scope.maxDistance).toBe(2);
    const onTopic = scope.score('Comets cross the night sky; a comet tail');
    const offTopic = scope.score('Bread, butter and a sourdough recipe');
    expect(scope.frequencies.pages).toBe(2);
    expect(scope.isInDomain(onTopic)).toBe(true);
    expect(scope.isInDomain(offTopic)).toBe(false);
    expect(scope.isInDomain(0)).toBe(false);
    expect(scope.isHotLink('http://example.org/comets/halley.html')).toBe(true);
    expect(scope.isHotLink('http://example.org/a', 'Watching the Night Sky')).toBe(true);
    expect(scope.isHotLink('http://example.org/a', 'Recipes')).toBe(false);
  });

  it('hot links: URL or anchor text contains a term (plurals folded)', () => {
    const hot = hotLinkTest(['telescopes']);
    expect(hot('http://www.astronomytelescope.example/')).toBe(true);
    expect(hot('http://example.org/x', 'A new Telescope')).toBe(true);
    expect(hot('http://example.org/x', 'bread')).toBe(false);
    expect(hot('http://example.org/x')).toBe(false);
    expect(hotLinkTest([])('http://example.org/telescope')).toBe(false);
  });
});

describe('distance from the last hot page', () => {
  it('linkDistance: 1 after a hot page or over a hot link, else one more step', () => {
    expect(linkDistance(0, false)).toBe(1);
    expect(linkDistance(2, false)).toBe(3);
    expect(linkDistance(2, true)).toBe(1);
  });

  it('rebuilds the distances a crawl saw from the hot pages and stored links', () => {
    // 0 (hot) → 1 → 2 → 3 → 4; 3 --hot link--> 5; 5 → 6; 7 unreachable.
    const links = new Map<number, Array<{ to: number; hot: boolean }>>([
      [0, [{ to: 1, hot: false }]],
      [1, [{ to: 2, hot: false }]],
      [2, [{ to: 3, hot: false }, { to: 5, hot: true }]],
      [3, [{ to: 4, hot: false }]],
      [5, [{ to: 6, hot: false }, { to: 1, hot: false }]],
      [7, [{ to: 0, hot: false }]],
    ]);
    const distances = distancesFromHotPages([0], (id) => links.get(id), 2);
    expect(Object.fromEntries(distances)).toEqual({ 0: 0, 1: 1, 2: 2, 5: 1, 6: 2 });
    // A longer path found first is replaced by a shorter one through a hot link.
    const late = new Map<number, Array<{ to: number; hot: boolean }>>([
      [0, [{ to: 1, hot: false }]],
      [1, [{ to: 2, hot: false }]],
      [2, [{ to: 3, hot: true }]],
      [3, [{ to: 4, hot: false }]],
      [4, [{ to: 9, hot: false }]],
    ]);
    expect(Object.fromEntries(distancesFromHotPages([0], (id) => late.get(id), 3))).toEqual({ 0: 0, 1: 1, 2: 2, 3: 1, 4: 2, 9: 3 });
  });
});

describe('a topic crawl of the demo web (Cho: similarity, hot queue, distance)', () => {
  const TERMS = ['astronomy', 'telescope', 'planet', 'galaxy', 'star', 'comet', 'orbit'];
  let web: DemoWeb;
  let server: DemoWebServer;
  let astronomy: number;
  let dir: string;
  let summary: CrawlSummary;
  let pages: PageRecord[];
  let requests: number;

  const demoTopicOf = (url: string): number | undefined => {
    const resource = web.resources[web.urlIndex.get(url) ?? -1];
    return resource?.kind === 'page' ? resource.topic : undefined;
  };

  const crawl = async (maxPages: number) => {
    const settings = loadSettings({
      env: {},
      overrides: { crawler: { resolve: demoWebResolvePins(server.port), allowPrivateNetworks: true, delaySeconds: 0, concurrency: 8 } },
    });
    const store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    const astronomySite = web.sites.find((s) => s.topic === astronomy && s.kind === 'regular')!;
    const cookingSite = web.sites.find((s) => web.topics[s.topic]?.name === 'cooking' && s.kind === 'regular')!;
    const result = await stack.crawler.crawl({
      // The university, an astronomy site, and an off-topic site.
      seeds: [web.seedUrl, `http://${astronomySite.host}/`, `http://${cookingSite.host}/`],
      scope: parseScope('regex:^http://'),
      ordering: 'focused',
      maxPages,
      maxDepth: 50,
      hostPageBudget: 5000,
      concurrency: 8,
      topic: { terms: TERMS, threshold: 0.1 },
    });
    const stored: PageRecord[] = [];
    for await (const [, page] of store.pages()) stored.push(page);
    await stack.close();
    await store.close();
    return { result, stored };
  };

  beforeAll(async () => {
    web = generateDemoWeb({ hosts: 100, pages: 6000 });
    astronomy = web.topics.findIndex((t) => t.name === 'astronomy');
    server = await startDemoWebServer(web, { latencyScale: 0 });
    dir = mkdtempSync(join(tmpdir(), 'lse-topic-'));
    const before = server.requestLog.length;
    ({ result: summary, stored: pages } = await crawl(1000));
    requests = server.requestLog.length - before;
  }, 120_000);
  afterAll(async () => server?.close());

  it('stores as local pages of the topic, and hardly any of other topics', () => {
    const fetched = pages.filter((p) => p.state === 'fetched');
    const local = fetched.filter((p) => p.role === 'local');
    expect(summary.topicPages?.local).toBe(local.length);
    expect(local.length).toBeGreaterThan(300);
    const localOnTopic = local.filter((p) => demoTopicOf(p.url) === astronomy).length;
    expect(localOnTopic / local.length).toBeGreaterThan(0.95);
    const offTopic = fetched.filter((p) => {
      const topic = demoTopicOf(p.url);
      return topic !== undefined && topic >= 0 && topic !== astronomy;
    });
    expect(offTopic.length).toBeGreaterThan(50); // the crawl did look outside the topic
    expect(offTopic.filter((p) => p.role === 'local').length / offTopic.length).toBeLessThan(0.02);
    // Most astronomy pages it fetched passed the threshold.
    const onTopic = fetched.filter((p) => demoTopicOf(p.url) === astronomy);
    expect(local.length / onTopic.length).toBeGreaterThan(0.8);
  });

  it('keeps global pages for their links only (no text) and local pages with their text', () => {
    for (const page of pages.filter((p) => p.state === 'fetched')) {
      if (page.role === 'local') expect(page.text).toBeTruthy();
      else expect(page.text).toBeUndefined();
    }
  });

  it('follows links across hosts but stays near hot pages', () => {
    const hosts = new Set(pages.filter((p) => p.state === 'fetched').map((p) => p.host));
    expect(hosts.size).toBeGreaterThan(10);
    expect(requests).toBeLessThan(1100);
    // Astronomy is about a tenth of this web; the focused crawl's fetches are mostly astronomy.
    const fetched = pages.filter((p) => p.state === 'fetched');
    const share = fetched.filter((p) => demoTopicOf(p.url) === astronomy).length / fetched.length;
    const webShare = web.resources.filter((r): r is DemoPage => r.kind === 'page' && r.topic === astronomy).length / web.resources.filter((r) => r.kind === 'page').length;
    expect(share).toBeGreaterThan(3 * webShare);
  });

  it('resumes with the stored idf estimate and distances, fetching no stored page again', async () => {
    const storedUrls = new Set(pages.map((p) => p.url));
    const before = server.requestLog.length;
    const { result, stored } = await crawl(1400);
    const again = server.requestLog.slice(before).filter((r) => r.path !== '/robots.txt' && storedUrls.has(`http://${r.host}${r.path}`));
    expect(again).toEqual([]);
    expect(result.stored).toBe(1400);
    const added = stored.filter((p) => !storedUrls.has(p.url) && p.state === 'fetched');
    const addedLocal = added.filter((p) => p.role === 'local');
    expect(addedLocal.length).toBeGreaterThan(0);
    expect(addedLocal.filter((p) => demoTopicOf(p.url) === astronomy).length / addedLocal.length).toBeGreaterThan(0.95);
    const store = await CrawlStore.open(dir);
    const snapshot = await store.getMeta<{ pages: number }>('topic-document-frequencies');
    await store.close();
    expect(snapshot?.pages).toBeGreaterThan(1000);
  });
});
