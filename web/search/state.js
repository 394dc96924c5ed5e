// @ts-check
/**
 * The search page's state lives in the URL (`/?q=telescope&page=2&rank=blend&lang=de&type=pdf`),
 * so a search can be shared and reloaded. This module reads and writes it. `lang=all` records
 * that the visitor chose every language (no preselection of their own); `hl=de` the language
 * they chose on the site (its search form sends it, or the page they came from names it), which
 * comes before the browser's languages.
 */
import { h } from '../lib/dom.js';

export const PAGE_SIZE = 10;
/** The engine ranks at most this many results of a query, so no page beyond it can be shown. */
export const MAX_RESULT_POSITION = 1000;
export const RANK_MODES = ['blend', 'text', 'global', 'local'];
export const SORT_ORDERS = ['relevance', 'date'];
/** The filter dimensions, in the order the page shows them. */
export const FILTERS = /** @type {const} */ (['lang', 'section', 'type', 'host']);
/** @type {Record<string, string>} */
export const RANK_DESCRIPTIONS = {
  blend: 'text relevance blended with the estimated global PageRank',
  text: 'text relevance only',
  global: 'estimated global PageRank only',
  local: 'local PageRank (links inside this site) only',
};

/** @typedef {(typeof FILTERS)[number]} FilterName */
/**
 * @typedef {{ q: string, page: number, rank: string, sort?: string,
 *   filters?: Partial<Record<FilterName, string[]>>, allLanguages?: boolean, hl?: string }} SearchState
 */

/** A language tag's primary subtag (`de-CH` → `de`), or undefined for anything else. @param {string | null | undefined} tag */
export function primarySubtag(tag) {
  const match = tag ? /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag) : null;
  return match ? match[1].toLowerCase() : undefined;
}

/** @param {URL} url @returns {SearchState} */
export function stateFromUrl(url) {
  const params = url.searchParams;
  const pageText = params.get('page') ?? '';
  const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : 1;
  const rank = params.get('rank') ?? '';
  const sort = params.get('sort') ?? '';
  /** @type {Partial<Record<FilterName, string[]>>} */
  const filters = {};
  for (const name of FILTERS) {
    const values = [...new Set(params.getAll(name).filter((value) => value !== '' && value !== 'all'))];
    if (values.length > 0) filters[name] = values;
  }
  return {
    q: (params.get('q') ?? '').trim(),
    page,
    rank: RANK_MODES.includes(rank) ? rank : 'blend',
    sort: sort === 'date' ? 'date' : 'relevance',
    filters,
    allLanguages: params.getAll('lang').includes('all'),
    hl: primarySubtag(params.get('hl')),
  };
}

/** The filter and order parameters of a state, as the API and the page URL both take them. @param {SearchState} state */
export function filterParams(state) {
  /** @type {Array<[string, string]>} */
  const pairs = [];
  for (const name of FILTERS) for (const value of state.filters?.[name] ?? []) pairs.push([name, value]);
  if (state.sort === 'date') pairs.push(['sort', 'date']);
  if (state.hl) pairs.push(['hl', state.hl]);
  return pairs;
}

/** @param {SearchState} state */
export function urlOf(state) {
  if (state.q === '') return state.rank === 'blend' ? '/' : `/?${new URLSearchParams({ rank: state.rank })}`;
  const params = new URLSearchParams({ q: state.q, page: String(state.page), rank: state.rank });
  for (const [name, value] of filterParams(state)) params.append(name, value);
  if (state.allLanguages && !(state.filters?.lang?.length)) params.append('lang', 'all');
  return `/?${params}`;
}

/**
 * A link inside the page that navigates without reloading (the entry module's click handler).
 * @param {SearchState} state
 * @param {import('../lib/dom.js').Children} children
 * @param {import('../lib/dom.js').Attributes} [attributes]
 */
export function pageLink(state, children, attributes = {}) {
  return h('a', { href: urlOf(state), 'data-nav': '', ...attributes }, children);
}

/** The visitor's languages (the browser's, as it sends them in Accept-Language), primary subtags. */
export function visitorLanguages() {
  return [...new Set((navigator.languages ?? [navigator.language]).map((tag) => tag.toLowerCase().split('-')[0]))];
}

/**
 * The page the visitor came to the search from, when it may be a page of the site: the server
 * answers its language (`hl`). Not the search page itself, and not a bare origin (what browsers
 * send across origins by default: the home page's language says nothing of the visitor's).
 * @returns {string | undefined}
 */
export function referringPage() {
  let referrer;
  try {
    referrer = new URL(document.referrer);
  } catch {
    return undefined;
  }
  if (referrer.protocol !== 'http:' && referrer.protocol !== 'https:') return undefined;
  if (referrer.pathname === '/' && referrer.search === '') return undefined;
  if (referrer.origin === location.origin && referrer.pathname === location.pathname) return undefined;
  return referrer.href;
}
