/**
 * robots.txt: parsing and matching in the style of Google's robots.txt conformance tests
 * (google/robotstxt robots_test.cc), with RFC 9309 where the two differ, then the caching
 * policy with a fake fetch and a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { canonicalRobotsTxt, normalizeRobotsPath, parseRobotsTxt, productToken } from '../crawler/robots-rules.ts';
import { RobotsOptionError, RobotsPolicy, type RobotsFetchResponse } from '../crawler/robots.ts';

function allowed(robotsTxt: string | Uint8Array, agent: string, url: string): boolean {
  return parseRobotsTxt(robotsTxt, { userAgent: agent, origin: new URL(url).origin }).isAllowed(url);
}

describe('robots.txt line syntax', () => {
  it('recognises well-formed lines and ignores unknown keys', () => {
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed('foo: FooBot\nbar: /\n', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('accepts a missing colon, as Google does', () => {
    expect(allowed('user-agent FooBot\ndisallow /\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
  });

  it('treats directive names case-insensitively', () => {
    const url = 'http://foo.bar/a/';
    for (const robotsTxt of [
      'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n',
      'user-agent: FooBot\nallow: /x/\ndisallow: /\n',
      'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n',
    ]) {
      expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/x/b')).toBe(true);
      expect(allowed(robotsTxt, 'FooBot', url)).toBe(false);
    }
  });

  it('accepts common misspellings Google accepts', () => {
    expect(allowed('useragent: FooBot\ndissallow: /\n', 'FooBot', 'http://foo.bar/a')).toBe(false);
    expect(allowed('user agent: FooBot\ndisalow: /\n', 'FooBot', 'http://foo.bar/a')).toBe(false);
  });

  it('handles LF, CRLF, CR and a missing final newline', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const robotsTxt = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'].join(eol);
      expect(allowed(robotsTxt, 'bar', 'http://foo.bar/x')).toBe(false);
      expect(allowed(robotsTxt, 'foo', 'http://foo.bar/x')).toBe(true);
    }
    expect(allowed('User-Agent: foo\r\nDisallow: /a\nDisallow: /b\rDisallow: /c', 'foo', 'http://foo.bar/c')).toBe(false);
  });

  it('skips a UTF-8 byte-order mark, in text and in bytes', () => {
    expect(allowed('\uFEFFUser-Agent: foo\nDisallow: /AnyValue\n', 'foo', 'http://foo.bar/AnyValue')).toBe(false);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('User-Agent: foo\nDisallow: /AnyValue\n')]);
    expect(allowed(bytes, 'foo', 'http://foo.bar/AnyValue')).toBe(false);
  });

  it('ignores comments, whole-line and trailing', () => {
    const robotsTxt = '# Disallow: /\nUser-agent: FooBot # our bot\nDisallow: /foo/quz#qux\nAllow: /\n';
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/foo/bar')).toBe(true);
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/foo/quz')).toBe(false);
  });

  it('ignores rules before the first user-agent line', () => {
    expect(allowed('Disallow: /\nUser-agent: FooBot\nAllow: /x\n', 'FooBot', 'http://foo.bar/y')).toBe(true);
  });
});

describe('robots.txt groups', () => {
  const robotsTxt = [
    'allow: /foo/bar/',
    '',
    'user-agent: FooBot',
    'disallow: /',
    'allow: /x/',
    'user-agent: BarBot',
    'disallow: /',
    'allow: /y/',
    '',
    '',
    'allow: /w/',
    'user-agent: BazBot',
    '',
    'user-agent: FooBot',
    'allow: /z/',
    'disallow: /',
  ].join('\n');

  it('builds groups from consecutive user-agent lines, blank lines do not end them, same agents merge', () => {
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/x/b')).toBe(true);
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/z/d')).toBe(true);
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/y/c')).toBe(false);
    expect(allowed(robotsTxt, 'BarBot', 'http://foo.bar/y/c')).toBe(true);
    expect(allowed(robotsTxt, 'BarBot', 'http://foo.bar/w/a')).toBe(true);
    expect(allowed(robotsTxt, 'BarBot', 'http://foo.bar/z/d')).toBe(false);
    expect(allowed(robotsTxt, 'BazBot', 'http://foo.bar/z/d')).toBe(true);
    // Rules before any user-agent belong to no group.
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/foo/bar/')).toBe(false);
  });

  it('does not end a group at a Sitemap or unknown line (robots-parser would)', () => {
    const url = 'http://foo.bar/';
    expect(allowed('User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n', 'BarBot', url)).toBe(false);
    expect(allowed('User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n', 'FooBot', url)).toBe(false);
    expect(allowed('User-agent: FooBot\nSitemap: https://foo.bar/s.xml\nUser-agent: BarBot\nDisallow: /\n', 'FooBot', url)).toBe(false);
  });

  it('uses the * group only when no group names us', () => {
    const robotsTxt = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed(robotsTxt, 'BarBot', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'BarBot', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', 'FooBot', 'http://foo.bar/x/page')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', 'FooBot', 'http://foo.bar/y/page')).toBe(false);
  });

  it('an empty robots.txt allows everything', () => {
    expect(allowed('', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('an empty Disallow allows everything', () => {
    expect(allowed('user-agent: FooBot\ndisallow:\n', 'FooBot', 'http://foo.bar/x')).toBe(true);
    // …and a named group with only an empty Disallow still shadows the * group.
    expect(allowed('user-agent: *\ndisallow: /\nuser-agent: FooBot\ndisallow:\n', 'FooBot', 'http://foo.bar/x')).toBe(true);
  });
});

describe('robots.txt user-agent matching', () => {
  it('matches the product token case-insensitively (RFC 9309 §2.2.1)', () => {
    const robotsTxt = 'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n';
    expect(allowed(robotsTxt, 'Foo', 'http://foo.bar/x/y')).toBe(true);
    expect(allowed(robotsTxt, 'Foo', 'http://foo.bar/a/b')).toBe(false);
    expect(allowed(robotsTxt, 'foo', 'http://foo.bar/a/b')).toBe(false);
  });

  it('ignores a version or comment after the token, on both sides', () => {
    const robotsTxt = 'User-agent: LSE-Bot/2.1 (+https://example.org/bot)\nDisallow: /private\n';
    expect(allowed(robotsTxt, 'lse-bot', 'http://foo.bar/private/a')).toBe(false);
    expect(allowed(robotsTxt, 'lse-bot/0.1', 'http://foo.bar/private/a')).toBe(false);
  });

  it('does not match a longer or shorter token', () => {
    expect(allowed('User-agent: lse\nDisallow: /\n', 'lse-bot', 'http://foo.bar/a')).toBe(true);
    expect(allowed('User-agent: lse-bot-images\nDisallow: /\n', 'lse-bot', 'http://foo.bar/a')).toBe(true);
  });

  it('extracts product tokens', () => {
    expect(productToken('Googlebot/2.1')).toBe('googlebot');
    expect(productToken(' * ')).toBe('*');
    expect(productToken('Foo Bar')).toBe('foo');
    expect(productToken('/1.0')).toBeNull();
  });
});

describe('robots.txt rule matching', () => {
  it('Allow and Disallow values are case-sensitive', () => {
    expect(allowed('user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('the longest match wins, Allow wins ties', () => {
    const agent = 'FooBot';
    const base = 'http://foo.bar';
    expect(allowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', agent, `${base}/x/page.html`)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', agent, `${base}/page.html`)).toBe(false);
    expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', agent, `${base}/page`)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', agent, `${base}/x/page.html`)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', agent, `${base}/x/y.html`)).toBe(false);
    expect(allowed('user-agent: FooBot\nallow: /\ndisallow: /\n', agent, `${base}/`)).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', agent, `${base}/x`)).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', agent, `${base}/x/`)).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', agent, `${base}/x/abc`)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /$\ndisallow: /\n', agent, `${base}/`)).toBe(true);
    expect(allowed('user-agent: FooBot\nallow: /$\ndisallow: /\n', agent, `${base}/page.html`)).toBe(false);
  });

  it('handles * and $ wildcards', () => {
    const a = (robotsTxt: string, path: string) => allowed(`user-agent: FooBot\n${robotsTxt}`, 'FooBot', `http://foo.bar${path}`);
    const qux = 'Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n';
    expect(a(qux, '/foo/bar/quz')).toBe(false);
    expect(a(qux, '/foo/quz')).toBe(true);
    expect(a(qux, '/foo//quz')).toBe(true);
    expect(a(qux, '/foo/bax/quz')).toBe(true);
    const dollar = 'Disallow: /foo/bar$\nAllow: /foo/bar/qux\n';
    expect(a(dollar, '/foo/bar')).toBe(false);
    expect(a(dollar, '/foo/bar/qux')).toBe(true);
    expect(a(dollar, '/foo/bar/')).toBe(true);
    expect(a(dollar, '/foo/bar/baz')).toBe(true);
  });

  // Google's documentation examples (developers.google.com/search/docs/crawling-indexing/robots/robots_txt).
  it.each([
    ['/fish', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish']],
    ['/fish*', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/Fish.bar', '/catfish', '/?id=fish']],
    ['/fish/', ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'], ['/fish', '/fish.html', '/Fish/Salmon.asp']],
    ['/*.php', ['/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '/folder/any.php.file.html', '/filename.php/'], ['/', '/windows.PHP']],
    ['/*.php$', ['/filename.php', '/folder/filename.php'], ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP']],
    ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
  ])('Disallow: %s', (pattern, disallowed, stillAllowed) => {
    const robotsTxt = `user-agent: FooBot\ndisallow: ${pattern}\n`;
    for (const path of disallowed) expect(allowed(robotsTxt, 'FooBot', `http://foo.bar${path}`), path).toBe(false);
    for (const path of stillAllowed) expect(allowed(robotsTxt, 'FooBot', `http://foo.bar${path}`), path).toBe(true);
  });

  it('matches the query string too', () => {
    const robotsTxt = 'user-agent: FooBot\nallow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\ndisallow: /\n';
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par')).toBe(true);
    expect(allowed('user-agent: *\ndisallow: /*?sort=\n', 'FooBot', 'http://foo.bar/list?sort=asc')).toBe(false);
    expect(allowed('user-agent: *\ndisallow: /*?sort=\n', 'FooBot', 'http://foo.bar/list?page=2')).toBe(true);
  });

  it('always allows /robots.txt itself', () => {
    expect(allowed('user-agent: *\ndisallow: /\n', 'FooBot', 'http://foo.bar/robots.txt')).toBe(true);
  });
});

describe('robots.txt percent-encoding (RFC 9309 §2.2.2)', () => {
  const rules = (pattern: string) => `user-agent: FooBot\nallow: ${pattern}\ndisallow: /\n`;

  it('UTF-8 in a rule equals its percent-encoded form in the URL, and the raw URL', () => {
    expect(allowed(rules('/foo/bar/ツ'), 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    // Google's matcher expects pre-encoded URLs and says false here; WHATWG parsing encodes it.
    expect(allowed(rules('/foo/bar/ツ'), 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(true);
    expect(allowed(rules('/foo/bar/%E3%83%84'), 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    expect(allowed(rules('/foo/bar/%e3%83%84'), 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
  });

  it('escaped unreserved characters equal the characters (robots-parser misses this)', () => {
    expect(allowed(rules('/foo/bar/%62%61%7A'), 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(true);
    expect(allowed(rules('/foo/bar/%62%61%7A'), 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A')).toBe(true);
    expect(allowed(rules('/foo/bar/baz'), 'FooBot', 'http://foo.bar/foo/bar/%62%61%7a')).toBe(true);
    expect(allowed(rules('/~joe/'), 'FooBot', 'http://foo.bar/%7Ejoe/index.html')).toBe(true);
  });

  it('escaped reserved characters stay distinct from the characters', () => {
    expect(allowed(rules('/a%2Fb'), 'FooBot', 'http://foo.bar/a/b')).toBe(false);
    expect(allowed(rules('/a%2fb'), 'FooBot', 'http://foo.bar/a%2Fb')).toBe(true);
  });

  it('normalizeRobotsPath gives one spelling', () => {
    expect(normalizeRobotsPath('/%7e%41/%2f/ツ/it\'s a"b')).toBe('/~A/%2F/%E3%83%84/it%27s%20a%22b');
    expect(normalizeRobotsPath('/*.php$')).toBe('/*.php$');
    expect(normalizeRobotsPath('/100%')).toBe('/100%25');
  });
});

describe('robots.txt Crawl-delay, sitemaps and size', () => {
  const parse = (robotsTxt: string, agent = 'lse-bot') => parseRobotsTxt(robotsTxt, { userAgent: agent, origin: 'http://foo.bar' });

  it('reads Crawl-delay from our group, else from *', () => {
    expect(parse('User-agent: *\nCrawl-delay: 7\n').crawlDelaySeconds).toBe(7);
    expect(parse('User-agent: lse-bot\nCrawl-delay: 2.5\nUser-agent: *\nCrawl-delay: 7\n').crawlDelaySeconds).toBe(2.5);
    // Our group exists without a delay: the * delay does not apply.
    expect(parse('User-agent: lse-bot\nDisallow: /x\nUser-agent: *\nCrawl-delay: 7\n').crawlDelaySeconds).toBeUndefined();
    expect(parse('User-agent: *\nDisallow: /x\n').crawlDelaySeconds).toBeUndefined();
  });

  it('ignores Crawl-delay values that are not non-negative numbers', () => {
    expect(parse('User-agent: *\nCrawl-delay: soon\n').crawlDelaySeconds).toBeUndefined();
    expect(parse('User-agent: *\nCrawl-delay: -3\n').crawlDelaySeconds).toBeUndefined();
    expect(parse('User-agent: *\nCrawl-delay:\n').crawlDelaySeconds).toBeUndefined();
  });

  it('collects sitemaps from anywhere in the file', () => {
    expect(parse('Sitemap: http://foo.bar/a.xml\nUser-agent: *\nSitemap: http://foo.bar/b.xml\nDisallow: /\n').sitemaps).toEqual([
      'http://foo.bar/a.xml',
      'http://foo.bar/b.xml',
    ]);
  });

  it('parses only the first 500 KiB', () => {
    const filler = `# ${'x'.repeat(98)}\n`.repeat(5200); // 520,000 bytes of comments
    const robotsTxt = `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`;
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/early')).toBe(false);
    expect(allowed(robotsTxt, 'FooBot', 'http://foo.bar/late')).toBe(true);
    expect(allowed(Buffer.from(robotsTxt), 'FooBot', 'http://foo.bar/late')).toBe(true);
    expect(parseRobotsTxt(robotsTxt, { userAgent: 'x', origin: 'http://foo.bar', maxBytes: 2_000_000 }).isAllowed('http://foo.bar/late')).toBe(false);
  });

  it('canonicalRobotsTxt shows the rewriting', () => {
    const { canonical, sitemaps } = canonicalRobotsTxt('\uFEFFUser-Agent: Foo/1.0 bar # hi\nSitemap: s\nDisallow /%7Ea\nNoindex: /x\n');
    expect(canonical).toBe('user-agent: foo\ndisallow: /~a');
    expect(sitemaps).toEqual(['s']);
  });
});

/** A fake robots.txt server: responses per origin, counting calls. */
function fakeFetch(responses: Record<string, RobotsFetchResponse | 'throw'>) {
  const calls: string[] = [];
  const fetchRobots = async (origin: string): Promise<RobotsFetchResponse> => {
    calls.push(origin);
    const response = responses[origin];
    if (response === undefined || response === 'throw') throw new Error('ECONNREFUSED');
    return response;
  };
  return { calls, fetchRobots };
}

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('RobotsPolicy', () => {
  it('parses a 2xx robots.txt and caches it per origin', async () => {
    const { calls, fetchRobots } = fakeFetch({ 'http://a.test': { status: 200, body: 'User-agent: *\nDisallow: /private\n' } });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    expect(await policy.check('http://a.test/public')).toEqual({ allowed: true, reason: 'allowed', crawlDelayMs: undefined });
    expect(await policy.check('http://a.test/private/x')).toEqual({ allowed: false, reason: 'disallowed', crawlDelayMs: undefined });
    expect(calls).toEqual(['http://a.test']);
    expect(policy.peek('http://a.test')?.status).toBe('parsed');
  });

  it('keeps origins apart by scheme, host and port', async () => {
    const { calls, fetchRobots } = fakeFetch({
      'http://a.test': { status: 200, body: 'User-agent: *\nDisallow: /\n' },
      'https://a.test': { status: 404, body: '' },
      'http://a.test:8080': { status: 404, body: '' },
    });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    expect((await policy.check('http://a.test/x')).allowed).toBe(false);
    expect((await policy.check('https://a.test/x')).allowed).toBe(true);
    expect((await policy.check('http://a.test:8080/x')).allowed).toBe(true);
    expect((await policy.check('http://A.TEST:80/y')).allowed).toBe(false);
    expect(calls).toEqual(['http://a.test', 'https://a.test', 'http://a.test:8080']);
  });

  it.each([
    [404, true, 'unavailable'],
    [410, true, 'unavailable'],
    [401, true, 'unavailable'],
    [403, true, 'unavailable'],
    [301, true, 'unavailable'],
    [429, false, 'unreachable'],
    [500, false, 'unreachable'],
    [503, false, 'unreachable'],
  ])('status %i → allowed %s (%s)', async (status, isAllowed, kind) => {
    const { fetchRobots } = fakeFetch({ 'http://a.test': { status, body: 'User-agent: *\nDisallow: /\n' } });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    const decision = await policy.check('http://a.test/page');
    expect(decision.allowed).toBe(isAllowed);
    expect(policy.peek('http://a.test')?.status).toBe(kind);
    if (kind === 'unreachable') expect(decision.reason).toBe('unreachable');
  });

  it('disallows an unreachable host, then asks again after the retry interval', async () => {
    const responses: Record<string, RobotsFetchResponse | 'throw'> = { 'http://a.test': 'throw' };
    const { calls, fetchRobots } = fakeFetch(responses);
    const time = clock();
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots, now: time.now, unreachableRetryMs: 60_000 });
    expect(await policy.check('http://a.test/a')).toMatchObject({ allowed: false, reason: 'unreachable' });
    // The robots.txt itself may still be fetched.
    expect((await policy.check('http://a.test/robots.txt')).allowed).toBe(true);
    time.advance(59_999);
    expect((await policy.check('http://a.test/a')).allowed).toBe(false);
    expect(calls).toHaveLength(1);
    responses['http://a.test'] = { status: 200, body: '' };
    time.advance(2);
    expect(await policy.check('http://a.test/a')).toMatchObject({ allowed: true, reason: 'allowed' });
    expect(calls).toHaveLength(2);
  });

  it('refetches after the 24 h TTL', async () => {
    const responses: Record<string, RobotsFetchResponse> = { 'http://a.test': { status: 200, body: 'User-agent: *\nDisallow: /\n' } };
    const { calls, fetchRobots } = fakeFetch(responses);
    const time = clock();
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots, now: time.now });
    expect((await policy.check('http://a.test/a')).allowed).toBe(false);
    responses['http://a.test'] = { status: 200, body: 'User-agent: *\nAllow: /\n' };
    time.advance(24 * 3600 * 1000 - 1);
    expect((await policy.check('http://a.test/a')).allowed).toBe(false);
    time.advance(1);
    expect((await policy.check('http://a.test/a')).allowed).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('shares one fetch between concurrent checks', async () => {
    let release: () => void = () => {};
    let count = 0;
    const fetchRobots = async (): Promise<RobotsFetchResponse> => {
      count++;
      await new Promise<void>((resolve) => (release = resolve));
      return { status: 200, body: 'User-agent: *\nDisallow: /b\n' };
    };
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    const checks = Promise.all([policy.check('http://a.test/a'), policy.check('http://a.test/b'), policy.check('http://a.test/c')]);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await checks).map((d) => d.allowed)).toEqual([true, false, true]);
    expect(count).toBe(1);
  });

  it('honours Crawl-delay up to the cap', async () => {
    const { fetchRobots } = fakeFetch({
      'http://slow.test': { status: 200, body: 'User-agent: *\nCrawl-delay: 120\n' },
      'http://ok.test': { status: 200, body: 'User-agent: lse-bot\nCrawl-delay: 2\n' },
    });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    expect((await policy.check('http://slow.test/')).crawlDelayMs).toBe(30_000);
    expect((await policy.check('http://ok.test/')).crawlDelayMs).toBe(2000);
    expect(policy.crawlDelayMs('http://ok.test')).toBe(2000);
    expect(policy.crawlDelayMs('http://unknown.test')).toBeUndefined();
    const capped = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots, maxCrawlDelayMs: 5000 });
    expect((await capped.check('http://slow.test/')).crawlDelayMs).toBe(5000);
  });

  it('accepts byte bodies and matches our configured token', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('User-agent: LSE-Bot\nDisallow: /\nUser-agent: *\nAllow: /\n')]);
    const { fetchRobots } = fakeFetch({ 'http://a.test': { status: 200, body } });
    expect((await new RobotsPolicy({ userAgent: 'lse-bot/0.1', fetchRobots }).check('http://a.test/x')).allowed).toBe(false);
    expect((await new RobotsPolicy({ userAgent: 'other-bot', fetchRobots }).check('http://a.test/x')).allowed).toBe(true);
  });

  it('forgets the oldest origins beyond maxEntries', async () => {
    const { calls, fetchRobots } = fakeFetch({ 'http://a.test': { status: 404, body: '' }, 'http://b.test': { status: 404, body: '' } });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots, maxEntries: 1 });
    await policy.check('http://a.test/');
    await policy.check('http://b.test/');
    expect(policy.size).toBe(1);
    await policy.check('http://a.test/');
    expect(calls).toEqual(['http://a.test', 'http://b.test', 'http://a.test']);
  });

  it('refuses unparsable URLs and bad options', async () => {
    const { fetchRobots } = fakeFetch({});
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots });
    expect((await policy.check('not a url')).allowed).toBe(false);
    expect(() => new RobotsPolicy({ userAgent: '/1.0', fetchRobots })).toThrow(RobotsOptionError);
    expect(() => new RobotsPolicy({ userAgent: 'x', fetchRobots, cacheTtlMs: 0 })).toThrow(RobotsOptionError);
  });
});
