/** The page limit's accounting: pages in flight and the redirects they follow count before they are stored. */
import { describe, expect, it } from 'vitest';
import { PageLimit } from '../crawler/page-limit.ts';

describe('PageLimit', () => {
  it('counts stored records, pages in flight and their redirects', () => {
    let stored = 3;
    const limit = new PageLimit(6, () => stored);
    const a = limit.start();
    const b = limit.start();
    expect(limit.committed).toBe(5);
    expect(limit.reached).toBe(false);
    expect(a.mayFollowRedirect()).toBe(true); // 6: the hop fits
    expect(limit.reached).toBe(true);
    expect(b.mayFollowRedirect()).toBe(false); // a 7th record would not
    expect(a.mayFollowRedirect()).toBe(false);
    // a stores its hop and its target; b its unfollowed redirect.
    stored += 2;
    a.end();
    stored += 1;
    b.end();
    expect(limit.committed).toBe(6);
    expect(limit.reached).toBe(true);
  });

  it('gives back what a page counted once, however often it ends', () => {
    const limit = new PageLimit(10, () => 0);
    const page = limit.start();
    page.mayFollowRedirect();
    page.mayFollowRedirect();
    expect(limit.committed).toBe(3);
    page.end();
    page.end();
    expect(limit.committed).toBe(0);
    expect(page.mayFollowRedirect()).toBe(false);
    expect(limit.committed).toBe(0);
  });
});
