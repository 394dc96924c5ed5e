// @ts-check
/** What the page says instead of results: the empty state, no results, errors. */
import { byId, h } from '../lib/dom.js';
import { pageLink } from './state.js';

/** @typedef {import('./state.js').SearchState} SearchState */

const EXAMPLES = ['telescope', 'admissions', 'library hours', 'scholarship'];

const messageBox = () => byId('message');

/** Empties the result list, the pagination and the message. */
export function clearResults() {
  byId('result-list').replaceChildren();
  const pagination = byId('pagination');
  pagination.replaceChildren();
  pagination.hidden = true;
  const box = messageBox();
  box.replaceChildren();
  box.hidden = true;
  box.className = 'message';
  box.removeAttribute('role');
}

/**
 * @param {string} kind  a modifier class: empty, no-results, error
 * @param {Array<Node | string>} content
 */
export function showMessage(kind, content) {
  const box = messageBox();
  box.className = `message message-${kind}`;
  if (kind === 'error') box.setAttribute('role', 'alert');
  box.replaceChildren(...content);
  box.hidden = false;
}

/** @param {string} rank */
function exampleList(rank) {
  return h('ul', { class: 'suggestions' }, EXAMPLES.map((q) => h('li', {}, pageLink({ q, page: 1, rank }, q))));
}

/** @param {string} rank */
export function showEmptyState(rank) {
  clearResults();
  byId('status').textContent = '';
  showMessage('empty', [
    h('h2', {}, 'Start with a few words'),
    h('p', {}, 'Type a few words and press Enter. Every word must appear on a page; use "quotes" for a phrase, -word to leave a word out, and tele* for words that start with tele.'),
    h('p', {}, 'Try one of these:'),
    exampleList(rank),
  ]);
}

/** @param {SearchState} state */
export function showNoResults(state) {
  showMessage('no-results', [
    h('h2', {}, `No pages match “${state.q}”`),
    h('p', {}, 'Some ideas:'),
    h('ul', { class: 'hints' },
      h('li', {}, 'Check the spelling, or use fewer or more general words: every word must appear on a page.'),
      h('li', {}, 'Words are matched by their stem, so “telescopes” also finds “telescope”; tele* finds words that start with tele.'),
      h('li', {}, 'Or try: ', EXAMPLES.flatMap((q, i) => [i > 0 ? ', ' : '', pageLink({ q, page: 1, rank: state.rank }, q)]))),
  ]);
}

/** @param {() => void} retry */
export function showNetworkError(retry) {
  clearResults();
  byId('status').textContent = 'The search could not be run.';
  showMessage('error', [
    h('h2', {}, 'The search service could not be reached'),
    h('p', {}, 'Check the connection (or whether the server is running) and try again.'),
    h('button', { type: 'button', class: 'retry-button', onclick: retry }, 'Try again'),
  ]);
}

/**
 * @param {number} status
 * @param {unknown} body  the API's `{ statusCode, error, message }` when it answered one
 */
export function showApiError(status, body) {
  clearResults();
  byId('status').textContent = 'The search could not be run.';
  const message = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : '';
  const heading =
    status === 400 ? 'This search could not be understood' : status === 429 ? 'Too many searches at once' : `The search service answered with an error (${status})`;
  const help =
    status === 400
      ? 'Check the query: a word before a colon names a field (title:telescope; the fields are title, headings, body and url), and ^ and ~ need a number after them (telescope^2, telescop~1).'
      : status === 429
        ? 'Wait a minute and try again.'
        : 'Try again in a moment.';
  showMessage('error', [h('h2', {}, heading), message ? h('p', { class: 'error-detail' }, message) : '', h('p', {}, help)].filter((node) => node !== ''));
}
