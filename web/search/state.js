// @ts-check
/**
 * The search page's state lives in the URL (`/?q=telescope&page=2&rank=blend`), so a search can be
 * shared and reloaded. This module reads and writes it.
 */
import { h } from '../lib/dom.js';

export const PAGE_SIZE = 10;
/** The engine ranks at most this many results of a query, so no page beyond it can be shown. */
export const MAX_RESULT_POSITION = 1000;
export const RANK_MODES = ['blend', 'text', 'global', 'local'];
/** @type {Record<string, string>} */
export const RANK_DESCRIPTIONS = {
  blend: 'text relevance blended with the estimated global PageRank',
  text: 'text relevance only',
  global: 'estimated global PageRank only',
  local: 'local PageRank (links inside this site) only',
};

/** @typedef {{ q: string, page: number, rank: string }} SearchState */

/** @param {URL} url @returns {SearchState} */
export function stateFromUrl(url) {
  const params = url.searchParams;
  const pageText = params.get('page') ?? '';
  const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : 1;
  const rank = params.get('rank') ?? '';
  return { q: (params.get('q') ?? '').trim(), page, rank: RANK_MODES.includes(rank) ? rank : 'blend' };
}

/** @param {SearchState} state */
export function urlOf(state) {
  if (state.q === '') return state.rank === 'blend' ? '/' : `/?${new URLSearchParams({ rank: state.rank })}`;
  return `/?${new URLSearchParams({ q: state.q, page: String(state.page), rank: state.rank })}`;
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
