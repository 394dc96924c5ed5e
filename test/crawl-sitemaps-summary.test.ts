import { describe, expect, it } from 'vitest';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { formatCrawlSummary } from '../server/cli/crawl-command.ts';

const summary = (sitemaps: CrawlSummary['sitemaps']): CrawlSummary => ({
  stoppedBecause: 'max-pages',
  stored: 10,
  fetchedThisRun: 10,
  storedIds: [],
  byState: { fetched: 10 },
  duplicates: 0,
  rejected: {},
  overBudget: 0,
  coverageBound: 0.5,
  sitemaps,
  diagnosis: [],
  frontier: 4,
  seconds: 1,
  pagesPerSecond: 10,
});

describe('the sitemap line of the crawl summary', () => {
  it('counts every skipped sitemap, not only the ones kept, and the files left unread', () => {
    const skipped = Array.from({ length: 20 }, (_, i) => ({ url: `http://s.test/${i}.xml`, reason: 'HTTP 500' }));
    const text = formatCrawlSummary(summary({ files: 3, listed: 40, inScope: 30, skipped, skippedCount: 25, cut: [], unread: 7 }));
    expect(text).toContain('  sitemaps: 3 read, 40 URLs listed, 30 in scope; 25 skipped (http://s.test/0.xml: HTTP 500;');
    expect(text).toContain('; 7 not read (the crawl stopped first)');
  });

  it('says nothing of skipped or unread files when there are none', () => {
    const text = formatCrawlSummary(summary({ files: 1, listed: 2, inScope: 2, skipped: [], skippedCount: 0, cut: [], unread: 0 }));
    expect(text).toMatch(/^  sitemaps: 1 read, 2 URLs listed, 2 in scope$/m);
  });
});
