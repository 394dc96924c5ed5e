// @ts-check
/** Previous, page numbers around the current one (with the first and last), next. */
import { byId, h } from '../lib/dom.js';
import { MAX_RESULT_POSITION, pageLink } from './state.js';

/** @typedef {import('./state.js').SearchState} SearchState */

/** @param {number} total @param {number} size */
export function lastPageOf(total, size) {
  return Math.max(1, Math.min(Math.ceil(total / size), Math.floor(MAX_RESULT_POSITION / size)));
}

/** @param {SearchState} state @param {number} lastPage */
export function renderPagination(state, lastPage) {
  if (lastPage <= 1) return;
  const pagination = byId('pagination');
  const current = Math.min(state.page, lastPage);
  const items = [];
  items.push(
    current > 1
      ? h('li', {}, pageLink({ ...state, page: current - 1 }, '‹ Previous', { rel: 'prev', class: 'page-step' }))
      : h('li', {}, h('span', { class: 'page-step', 'aria-disabled': 'true' }, '‹ Previous')),
  );
  let previous = 0;
  for (const page of pageNumbers(current, lastPage)) {
    if (page > previous + 1) items.push(h('li', { class: 'page-gap', 'aria-hidden': 'true' }, '…'));
    const attributes = page === current ? { 'aria-current': 'page', 'aria-label': `Page ${page}, current page` } : { 'aria-label': `Page ${page}` };
    items.push(h('li', {}, pageLink({ ...state, page }, String(page), { class: 'page-number', ...attributes })));
    previous = page;
  }
  items.push(
    current < lastPage
      ? h('li', {}, pageLink({ ...state, page: current + 1 }, 'Next ›', { rel: 'next', class: 'page-step' }))
      : h('li', {}, h('span', { class: 'page-step', 'aria-disabled': 'true' }, 'Next ›')),
  );
  pagination.replaceChildren(h('ul', {}, items));
  pagination.hidden = false;
}

/** @param {number} current @param {number} lastPage */
function pageNumbers(current, lastPage) {
  const pages = new Set([1, lastPage]);
  for (let page = current - 2; page <= current + 2; page++) if (page >= 1 && page <= lastPage) pages.add(page);
  return [...pages].sort((a, b) => a - b);
}
