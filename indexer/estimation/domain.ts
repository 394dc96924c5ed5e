/**
 * Local-domain specifications over a known web graph (`lse experiment --domain`):
 * `host:SUFFIX`, `prefix:URL`, `label:NAME`, `ids:FILE`, `ball:ID:R`.
 */
import { readFileSync } from 'node:fs';
import { outLinkBall } from '../graph.ts';
import type { WebGraph } from '../graph-files.ts';
import type { DomainKind } from './estimators.ts';

export class DomainSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DomainSpecError';
  }
}

export const DOMAIN_SPEC_FORMS = ['host:SUFFIX', 'prefix:URL', 'label:NAME', 'ids:FILE', 'ball:ID:R'] as const;

/**
 * The kind of domain a spec stands for, as rounds tell sites from topic crawls: a label (a topic community) and a
 * ball (a page's neighbourhood) are topic-like; hosts, prefixes and id lists are sites.
 */
export function domainKindOfSpec(spec: string): DomainKind {
  return spec.startsWith('label:') || spec.startsWith('ball:') ? 'topic' : 'site';
}

/** The pages of the domain, ascending. Throws {@link DomainSpecError} on a bad or empty spec. */
export function resolveDomain(spec: string, web: WebGraph): Int32Array {
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : spec;
  const value = colon > 0 ? spec.slice(colon + 1) : '';
  if (value === '') throw new DomainSpecError(`domain "${spec}" has no value; use one of ${DOMAIN_SPEC_FORMS.join(', ')}`);
  let pages: number[];
  switch (kind) {
    case 'host': {
      const hosts = need(web.hosts, spec, 'host names');
      const suffix = value.toLowerCase().replace(/^\./, '');
      pages = matching(hosts, (host) => {
        const h = host.toLowerCase();
        return h === suffix || h.endsWith(`.${suffix}`);
      });
      break;
    }
    case 'prefix': {
      const urls = need(web.urls, spec, 'URLs');
      const prefix = value.toLowerCase();
      pages = matching(urls, (url) => url.toLowerCase().startsWith(prefix));
      break;
    }
    case 'label': {
      const labels = need(web.labels, spec, 'labels');
      pages = matching(labels, (label) => label === value);
      break;
    }
    case 'ids': {
      pages = idsFromFile(value, web);
      break;
    }
    case 'ball': {
      const match = /^(\d+):(\d+)$/.exec(value);
      if (!match) throw new DomainSpecError(`domain "${spec}": expected ball:ID:R with a page id and a radius`);
      const center = pageOfId(web, Number(match[1]), spec);
      pages = Array.from(outLinkBall(web.graph, center, Number(match[2])));
      break;
    }
    default:
      throw new DomainSpecError(`unknown domain kind "${kind}" in "${spec}"; use one of ${DOMAIN_SPEC_FORMS.join(', ')}`);
  }
  if (pages.length === 0) throw new DomainSpecError(`domain "${spec}" selects no pages`);
  if (pages.length === web.graph.nodeCount) throw new DomainSpecError(`domain "${spec}" selects every page of the graph: nothing is left outside it`);
  return Int32Array.from(pages).sort();
}

function need<T>(column: readonly T[] | undefined, spec: string, what: string): readonly T[] {
  if (!column) throw new DomainSpecError(`domain "${spec}" needs ${what}: give the graph's nodes file (--nodes)`);
  return column;
}

function matching(values: readonly string[], test: (value: string) => boolean): number[] {
  const pages: number[] = [];
  values.forEach((value, page) => {
    if (test(value)) pages.push(page);
  });
  return pages;
}

function pageOfId(web: WebGraph, id: number, spec: string): number {
  const page = web.ids.indexOf(id);
  if (page < 0) throw new DomainSpecError(`domain "${spec}": page id ${id} is not in the graph`);
  return page;
}

function idsFromFile(path: string, web: WebGraph): number[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DomainSpecError(`cannot read the domain file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const position = new Map<number, number>();
  web.ids.forEach((id, page) => position.set(id, page));
  const pages = new Set<number>();
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const page = position.get(Number(trimmed));
    if (!/^\d+$/.test(trimmed) || page === undefined) {
      throw new DomainSpecError(`${path}:${index + 1}: "${trimmed.slice(0, 40)}" is not a page id of the graph`);
    }
    pages.add(page);
  });
  return [...pages];
}
