import { describe, expect, it } from 'vitest';
import { parseScope, parseScopeRule, ScopeSpecError } from '../crawler/scope.ts';

describe('parseScope', () => {
  it('host:SUFFIX matches the host and its subdomains only', () => {
    const scope = parseScope('host:example.org');
    expect(scope.isLocal('http://example.org/')).toBe(true);
    expect(scope.isLocal('https://www.example.org/a')).toBe(true);
    expect(scope.isLocal('http://a.b.example.org:8080/x')).toBe(true);
    expect(scope.isLocal('http://notexample.org/')).toBe(false);
    expect(scope.isLocal('http://example.org.evil.test/')).toBe(false);
    expect(scope.isLocal('http://example.com/')).toBe(false);
  });

  it('host specs accept upper case, a leading dot or *. and IDN', () => {
    expect(parseScopeRule('host:*.Example.ORG')).toEqual({ kind: 'host', suffix: 'example.org' });
    expect(parseScopeRule('host:.example.org')).toEqual({ kind: 'host', suffix: 'example.org' });
    expect(parseScope('host:bücher.example').isLocal('http://www.xn--bcher-kva.example/')).toBe(true);
  });

  it('prefix:URL matches case-insensitively on the normalised URL', () => {
    const scope = parseScope('prefix:http://Example.org/Docs/');
    expect(scope.isLocal('http://example.org/docs/a.html')).toBe(true);
    expect(scope.isLocal('http://example.org/DOCS/b')).toBe(true);
    expect(scope.isLocal('http://example.org/other/')).toBe(false);
    expect(scope.isLocal('https://example.org/docs/a.html')).toBe(false);
  });

  it('a bare-origin prefix does not leak into longer host names', () => {
    const scope = parseScope('prefix:http://example.org');
    expect(scope.isLocal('http://example.org/x')).toBe(true);
    expect(scope.isLocal('http://example.org.evil.test/x')).toBe(false);
  });

  it('regex:RE matches the URL; /RE/flags gives flags', () => {
    expect(parseScope('regex:^https?://[^/]*\\.edu/').isLocal('http://cs.utexas.edu/x')).toBe(true);
    expect(parseScope('regex:^https?://[^/]*\\.edu/').isLocal('http://cs.utexas.com/x')).toBe(false);
    expect(parseScope('regex:/PEOPLE/i').isLocal('http://x.org/people/')).toBe(true);
    expect(parseScope('regex:PEOPLE').isLocal('http://x.org/people/')).toBe(false);
    // A global flag would make test() stateful; it is dropped.
    const global = parseScope('regex:/a/g');
    expect(global.isLocal('http://x.org/a')).toBe(true);
    expect(global.isLocal('http://x.org/a')).toBe(true);
  });

  it('combines specs: local when any matches', () => {
    const scope = parseScope(['host:a.test', 'prefix:http://b.test/docs/', 'regex:/c\\.test/special']);
    expect(scope.isLocal('http://www.a.test/')).toBe(true);
    expect(scope.isLocal('http://b.test/docs/1')).toBe(true);
    expect(scope.isLocal('http://b.test/blog/1')).toBe(false);
    expect(scope.isLocal('http://c.test/special/1')).toBe(true);
    expect(scope.isLocal('http://c.test/')).toBe(false);
    expect(scope.rules.map((rule) => rule.kind)).toEqual(['host', 'prefix', 'regex']);
  });

  it('an unparsable URL is never local', () => {
    expect(parseScope('regex:.*').isLocal('not a url')).toBe(false);
  });

  it.each([
    [[], /no scope given/],
    ['example.org', /no value/],
    ['host:', /no value/],
    ['site:example.org', /unknown scope kind "site"/],
    ['host:http://example.org/', /not a host name/],
    ['host:exa mple.org', /not a host name/],
    ['host:a..b', /not a host name/],
    ['prefix:example.org/docs', /not an absolute URL/],
    ['prefix:ftp://example.org/', /only http and https/],
    ['regex:(unclosed', /invalid regular expression/],
  ])('rejects %j with a clear message', (spec, message) => {
    expect(() => parseScope(spec as string | string[])).toThrow(ScopeSpecError);
    expect(() => parseScope(spec as string | string[])).toThrow(message);
  });
});
