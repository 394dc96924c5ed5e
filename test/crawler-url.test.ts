import { describe, expect, it } from 'vitest';
import { hasRepeatedSegments, normalizeLink, normalizePercentEncoding, normalizeUrl, resolveLink, urlRules, type UrlCheck } from '../crawler/url.ts';

// A fixed clock: calendar guards depend on the current year.
const rules = urlRules({ now: Date.UTC(2025, 5, 15) });

function accepted(input: string, overrides = {}): string {
  const result = normalizeUrl(input, { ...rules, ...overrides });
  if (!result.ok) throw new Error(`expected ${input} to be accepted, got ${result.reason}`);
  return result.url;
}

function rejection(input: string, overrides = {}): string | null {
  const result: UrlCheck = normalizeUrl(input, { ...rules, ...overrides });
  return result.ok ? null : result.reason;
}

describe('normalizeUrl: canonical form', () => {
  it.each([
    ['HTTP://WWW.Example.COM/', 'http://www.example.com/'],
    ['http://example.com', 'http://example.com/'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com:80/a', 'https://example.com:80/a'],
    ['http://example.com/a#section', 'http://example.com/a'],
    ['http://example.com/a/./b/../c', 'http://example.com/a/c'],
    ['http://example.com/a/%2e%2E/c', 'http://example.com/c'],
    ['http://example.com/../../x', 'http://example.com/x'],
    ['http://user:secret@example.com/a', 'http://example.com/a'],
    ['http://example.com./a', 'http://example.com/a'],
    ['http://example.com/%7euser/%41%62c', 'http://example.com/~user/Abc'],
    ['http://example.com/a%2fb%3f', 'http://example.com/a%2Fb%3F'],
    ['http://example.com/a?', 'http://example.com/a'],
    ['http://example.com/a?&&x=1&', 'http://example.com/a?x=1'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://bücher.example/straße', 'http://xn--bcher-kva.example/stra%C3%9Fe'],
    ['  http://example.com/padded  ', 'http://example.com/padded'],
    ['http://EXAMPLE.com/CaseKept?Q=Kept', 'http://example.com/CaseKept?Q=Kept'],
  ])('%s → %s', (input, expected) => {
    expect(accepted(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const input of [
      'HTTP://User:pw@WWW.Ex.COM.:80/a/./b/../c/%7e%41?b=1&utm_source=x&a=2#frag',
      "http://x.com/it's?q='x y'&z=%2f",
      'http://x.com/ツ?é=ü',
      'http://x.com/p;jsessionid=ABC?x=1',
    ]) {
      const once = accepted(input);
      expect(accepted(once)).toBe(once);
    }
  });

  it('keeps parameter order and raw encodings unless sorting is asked for', () => {
    expect(accepted('http://x.com/?b=2&a=1&a=0&c=%20+')).toBe('http://x.com/?b=2&a=1&a=0&c=%20+');
    expect(accepted('http://x.com/?b=2&a=1&a=0&C=3', { sortQuery: true })).toBe('http://x.com/?a=1&a=0&b=2&C=3');
  });
});

describe('normalizeUrl: tracking parameters and session ids', () => {
  it('drops click-tracking parameters by default', () => {
    expect(accepted('http://x.com/p?id=7&utm_source=news&UTM_Medium=mail&gclid=abc&fbclid=def&msclkid=1&_ga=2&mc_eid=3')).toBe('http://x.com/p?id=7');
  });

  it('keeps them when asked to', () => {
    expect(accepted('http://x.com/p?utm_source=a', { stripTracking: false })).toBe('http://x.com/p?utm_source=a');
  });

  it('drops session ids in the path and the query', () => {
    expect(accepted('http://x.com/cart;jsessionid=0A1B2C?item=4')).toBe('http://x.com/cart?item=4');
    expect(accepted('http://x.com/a;JSESSIONID=xyz/b')).toBe('http://x.com/a/b');
    expect(accepted('http://x.com/index.php?PHPSESSID=abcdef&page=2&sid=99&ASPSESSIONIDQQ=1')).toBe('http://x.com/index.php?page=2');
    expect(accepted('http://x.com/?sid=1', { stripSessionIds: false })).toBe('http://x.com/?sid=1');
  });

  it('does not drop parameters that merely contain a session or tracking name', () => {
    expect(accepted('http://x.com/?side=1&sidebar=2&my_utm_x=3')).toBe('http://x.com/?side=1&sidebar=2&my_utm_x=3');
  });
});

describe('normalizeUrl: rejections', () => {
  it.each([
    ['not a url', 'invalid'],
    ['http://', 'invalid'],
    ['ftp://example.com/file', 'scheme'],
    ['mailto:someone@example.com', 'scheme'],
    ['javascript:void(0)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['data:text/html,hi', 'scheme'],
  ])('%s → %s', (input, reason) => {
    expect(rejection(input)).toBe(reason);
  });

  it('rejects URLs longer than the maximum', () => {
    const url = `http://x.com/${'a'.repeat(100)}`;
    expect(rejection(url, { maxLength: 100 })).toBe('too-long');
    expect(rejection(url, { maxLength: 200 })).toBeNull();
  });

  it('rejects paths deeper than the maximum', () => {
    expect(rejection('http://x.com/1/2/3/4/5', { maxPathDepth: 4 })).toBe('too-deep');
    expect(rejection('http://x.com/1/2/3/4/', { maxPathDepth: 4 })).toBeNull();
  });

  it('rejects very long queries (measured after tracking parameters are gone)', () => {
    expect(rejection(`http://x.com/?q=${'z'.repeat(600)}`)).toBe('trap-query');
    expect(rejection(`http://x.com/?q=1&utm_content=${'z'.repeat(600)}`)).toBeNull();
  });

  it("skips dynamic URLs when asked to (the paper's ?, *, @, = rule)", () => {
    const skip = { skipDynamic: true };
    expect(rejection('http://x.com/page?x', skip)).toBe('query-skipped');
    expect(rejection('http://x.com/a*b', skip)).toBe('query-skipped');
    expect(rejection('http://x.com/~me@home', skip)).toBe('query-skipped');
    expect(rejection('http://x.com/a=b', skip)).toBe('query-skipped');
    expect(rejection('http://x.com/plain/page.html', skip)).toBeNull();
    // Credentials are removed before the check, and tracking-only queries vanish.
    expect(rejection('http://me@x.com/plain', skip)).toBeNull();
    expect(rejection('http://x.com/plain?utm_source=a', skip)).toBeNull();
    expect(rejection('http://x.com/page?x=1')).toBeNull();
  });
});

describe('normalizeUrl: spider traps', () => {
  it('rejects a segment repeated three times', () => {
    expect(rejection('http://x.com/a/b/a/b/a/b')).toBe('trap-repeat');
    expect(rejection('http://x.com/x/y/x/z/x')).toBe('trap-repeat');
    expect(rejection('http://x.com/x/x/x/')).toBe('trap-repeat');
    expect(rejection('http://x.com/x/x/')).toBeNull();
  });

  it('rejects a block of segments repeated back to back', () => {
    expect(rejection('http://x.com/docs/api/docs/api/')).toBe('trap-repeat');
    expect(rejection('http://x.com/p/a/b/c/a/b/c')).toBe('trap-repeat');
    expect(rejection('http://x.com/a/b/c/b/a')).toBeNull();
  });

  it('hasRepeatedSegments follows the limit', () => {
    expect(hasRepeatedSegments(['a', 'b', 'a', 'c', 'a'], 3)).toBe(true);
    expect(hasRepeatedSegments(['a', 'b', 'a', 'c', 'a'], 4)).toBe(false);
    expect(hasRepeatedSegments([], 3)).toBe(false);
  });

  it('rejects calendar pages far in the future or the distant past', () => {
    expect(rejection('http://x.com/calendar/2031/04/')).toBe('trap-calendar');
    expect(rejection('http://x.com/calendar/2031/4/12')).toBe('trap-calendar');
    expect(rejection('http://x.com/events/2040-01-01.html')).toBe('trap-calendar');
    expect(rejection('http://x.com/events/1901_12')).toBe('trap-calendar');
    expect(rejection('http://x.com/cal?year=2199&month=12')).toBe('trap-calendar');
    expect(rejection('http://x.com/cal?month=2&year=1850')).toBe('trap-calendar');
    expect(rejection('http://x.com/cal?date=2099-05-01')).toBe('trap-calendar');
  });

  it('keeps dates near now, blog archives, and numbers that are not dates', () => {
    expect(rejection('http://x.com/blog/2025/06/post')).toBeNull();
    expect(rejection('http://x.com/blog/2026/12/')).toBeNull();
    expect(rejection('http://x.com/archive/2004/03/old-post')).toBeNull();
    expect(rejection('http://x.com/item/20881123')).toBeNull();
    expect(rejection('http://x.com/products/2099/')).toBeNull();
    expect(rejection('http://x.com/isbn/2099/99')).toBeNull();
    expect(rejection('http://x.com/cal?year=2099')).toBeNull();
    expect(rejection('http://x.com/cal?year=2026&month=3')).toBeNull();
  });

  it('moves the window with the clock', () => {
    expect(rejection('http://x.com/calendar/2031/04/', { now: Date.UTC(2030, 0, 1) })).toBeNull();
    expect(rejection('http://x.com/calendar/2031/04/', { calendarYearsAhead: 10 })).toBeNull();
  });
});

describe('resolveLink and normalizeLink', () => {
  const page = 'http://x.com/dir/page.html?q=1';

  it.each([
    ['other.html', 'http://x.com/dir/other.html'],
    ['../up.html', 'http://x.com/up.html'],
    ['/root', 'http://x.com/root'],
    ['//cdn.example/lib.js', 'http://cdn.example/lib.js'],
    ['?q=2', 'http://x.com/dir/page.html?q=2'],
    ['#frag', 'http://x.com/dir/page.html?q=1'],
    ['', 'http://x.com/dir/page.html?q=1'],
    ['https://y.org/a#b', 'https://y.org/a'],
    ['  spaced.html\n', 'http://x.com/dir/spaced.html'],
    ['a\tb.html', 'http://x.com/dir/ab.html'],
  ])('%s against the page → %s', (href, expected) => {
    expect(resolveLink(href, page)).toBe(expected);
  });

  it('resolves against <base href>, itself resolved against the page', () => {
    expect(resolveLink('x.html', page, '/base/')).toBe('http://x.com/base/x.html');
    expect(resolveLink('x.html', page, 'https://other.org/b/c')).toBe('https://other.org/b/x.html');
    expect(resolveLink('/abs', page, 'https://other.org/b/')).toBe('https://other.org/abs');
    expect(resolveLink('x.html', page, '')).toBe('http://x.com/dir/x.html');
  });

  it('returns null for unresolvable input', () => {
    expect(resolveLink('http://[bad', page)).toBeNull();
    expect(resolveLink('x', 'not a page url')).toBeNull();
  });

  it('normalizeLink resolves, then applies the rules', () => {
    expect(normalizeLink('../a/./b.html#x', page, null, rules)).toEqual({ ok: true, url: 'http://x.com/a/b.html' });
    expect(normalizeLink('mailto:a@b.c', page, null, rules)).toEqual({ ok: false, reason: 'scheme' });
    expect(normalizeLink('http://[bad', page, null, rules)).toEqual({ ok: false, reason: 'invalid' });
    expect(normalizeLink('a/b/a/b/a/b', page, '/', rules)).toEqual({ ok: false, reason: 'trap-repeat' });
  });
});

describe('normalizePercentEncoding', () => {
  it('decodes unreserved escapes and upper-cases the rest', () => {
    expect(normalizePercentEncoding('%41%7a%2d%2e%5f%7e')).toBe('Az-._~');
    expect(normalizePercentEncoding('%2f%3a%c3%a9%20')).toBe('%2F%3A%C3%A9%20');
    expect(normalizePercentEncoding('100%')).toBe('100%');
  });
});
