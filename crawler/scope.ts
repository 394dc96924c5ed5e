/**
 * The local-domain scope of a crawl: which URLs belong to the community we index. The spec forms
 * match the offline domain specs (indexer/estimation/domain.ts) so one spec means the same thing
 * on a known graph and on the live web:
 *   `host:SUFFIX`  the host equals SUFFIX or ends with `.SUFFIX`
 *   `prefix:URL`   the URL starts with URL (case-insensitive)
 *   `regex:RE`     the URL matches RE (`regex:/RE/flags` to give flags)
 * A URL is local when any spec matches. Topic (focused) scopes come later.
 */

export class ScopeSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScopeSpecError';
  }
}

export const SCOPE_SPEC_FORMS = ['host:SUFFIX', 'prefix:URL', 'regex:RE'] as const;

export type ScopeRule =
  | { readonly kind: 'host'; readonly suffix: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'regex'; readonly pattern: RegExp };

export interface Scope {
  readonly rules: readonly ScopeRule[];
  /** True when the (normalised, absolute) URL belongs to the local domain. */
  isLocal(url: string): boolean;
}

/** Parses one or more specs. Throws {@link ScopeSpecError} naming the bad spec. */
export function parseScope(specs: string | readonly string[]): Scope {
  const list = typeof specs === 'string' ? [specs] : specs;
  if (list.length === 0) throw new ScopeSpecError(`no scope given; use one or more of ${SCOPE_SPEC_FORMS.join(', ')}`);
  const rules = list.map(parseScopeRule);
  // Parsing a URL is the costly part, and only host rules need it (it runs for every link found).
  const needsHost = rules.some((rule) => rule.kind === 'host');
  return {
    rules,
    isLocal(url: string): boolean {
      let host = '';
      if (!needsHost) {
        if (!URL.canParse(url)) return false;
      } else {
        try {
          host = new URL(url).hostname;
        } catch {
          return false;
        }
      }
      for (const rule of rules) if (ruleMatches(rule, url, host)) return true;
      return false;
    },
  };
}

export function parseScopeRule(spec: string): ScopeRule {
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon).trim().toLowerCase() : spec.trim();
  const value = colon > 0 ? spec.slice(colon + 1).trim() : '';
  if (value === '') throw new ScopeSpecError(`scope "${spec}" has no value; use one of ${SCOPE_SPEC_FORMS.join(', ')}`);
  switch (kind) {
    case 'host':
      return { kind: 'host', suffix: parseHostSuffix(value, spec) };
    case 'prefix':
      return { kind: 'prefix', prefix: parsePrefix(value, spec) };
    case 'regex':
      return { kind: 'regex', pattern: parseRegex(value, spec) };
    default:
      throw new ScopeSpecError(`unknown scope kind "${kind}" in "${spec}"; use one of ${SCOPE_SPEC_FORMS.join(', ')}`);
  }
}

function ruleMatches(rule: ScopeRule, url: string, host: string): boolean {
  switch (rule.kind) {
    case 'host':
      return host === rule.suffix || host.endsWith(`.${rule.suffix}`);
    case 'prefix':
      return url.toLowerCase().startsWith(rule.prefix);
    case 'regex':
      rule.pattern.lastIndex = 0;
      return rule.pattern.test(url);
  }
}

function parseHostSuffix(value: string, spec: string): string {
  // `*.example.org` and `.example.org` are common ways of writing the same suffix.
  const suffix = value.toLowerCase().replace(/^\*?\./, '');
  // Letters of any script are allowed (IDN); separators of a URL are not.
  if (!/^[^\s/:?#@*\\]+$/.test(suffix) || suffix.startsWith('.') || suffix.endsWith('.') || suffix.includes('..')) {
    throw new ScopeSpecError(`scope "${spec}": "${value}" is not a host name or suffix`);
  }
  try {
    // Puts an internationalised suffix into the punycode form that URL.hostname uses.
    const hostname = new URL(`http://${suffix}/`).hostname;
    if (hostname === '') throw new Error('empty host');
    return hostname;
  } catch {
    throw new ScopeSpecError(`scope "${spec}": "${value}" is not a host name or suffix`);
  }
}

function parsePrefix(value: string, spec: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ScopeSpecError(`scope "${spec}": "${value}" is not an absolute URL (write it with http:// or https://)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ScopeSpecError(`scope "${spec}": only http and https URLs can be crawled`);
  }
  // Compare against normalised URLs: WHATWG lower-cases the host and adds the root path, so
  // `prefix:http://Example.org` becomes `http://example.org/` (which also keeps
  // `http://example.org.evil.test/` out).
  return url.href.replace(/#.*$/, '').toLowerCase();
}

function parseRegex(value: string, spec: string): RegExp {
  // Only a trailing run of real flag letters makes it the /RE/flags form.
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(value);
  try {
    return literal ? new RegExp(literal[1], literal[2].replace(/[gy]/g, '')) : new RegExp(value);
  } catch (error) {
    throw new ScopeSpecError(`scope "${spec}": invalid regular expression: ${(error as Error).message}`);
  }
}
