// @ts-check
/** What the page says instead of results: the empty state, no results, errors. */
import { byId, h } from '../lib/dom.js';
import { pageLink } from './state.js';

/** @typedef {import('./state.js').SearchState} SearchState */

/** Example queries: the site's own (settings, else its popular queries), from /api/info; none until it answers. */
let examples = /** @type {string[]} */ ([]);

/** @param {readonly string[]} list */
export function setExamples(list) {
  examples = list.filter((q) => typeof q === 'string' && q.trim() !== '').slice(0, 8);
}

/** What the search does with the words, said the same way on the empty page and after no results. */
const HOW_IT_SEARCHES =
  'Pages with all your words come first; when no page has them all, pages with some of them are shown, and the page says which word no page has. ' +
  'Words are matched by their stem (“pages” finds “page”) and misspellings are corrected; use "quotes" for a phrase, -word to leave a word out, and inter* for words that start with inter.';

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
  return h('ul', { class: 'suggestions' }, examples.map((q) => h('li', {}, pageLink({ q, page: 1, rank }, q))));
}

/** @param {string} rank */
export function showEmptyState(rank) {
  clearResults();
  byId('status').textContent = '';
  showMessage('empty', [
    h('h2', {}, 'Start with a few words'),
    h('p', {}, `Type a few words and press Enter. ${HOW_IT_SEARCHES}`),
    ...(examples.length > 0 ? [h('p', {}, 'Try one of these:'), exampleList(rank)] : []),
  ]);
}

/** @param {SearchState} state */
export function showNoResults(state) {
  showMessage('no-results', [
    h('h2', {}, `No pages match “${state.q}”`),
    h('p', {}, 'Some ideas:'),
    h('ul', { class: 'hints' },
      h('li', {}, 'Check the spelling, or use other or more general words.'),
      h('li', {}, 'Words are matched by their stem, so “pages” also finds “page”; inter* finds words that start with inter.'),
      examples.length > 0 ? h('li', {}, 'Or try: ', examples.flatMap((q, i) => [i > 0 ? ', ' : '', pageLink({ q, page: 1, rank: state.rank }, q)])) : null),
  ]);
}

/**
 * "No page has *kubernetes*; showing results for *ets*": the words no page has (the API's
 * `unmatchedTerms`), and the rest of the query the results are for. Hidden when every word matched.
 * @param {string} query @param {readonly string[] | undefined} unmatched
 */
export function showQueryNotice(query, unmatched) {
  const notice = byId('query-notice');
  const missing = (unmatched ?? []).filter((word) => typeof word === 'string' && word !== '');
  if (missing.length === 0) {
    notice.replaceChildren();
    notice.hidden = true;
    return;
  }
  const lower = new Set(missing.map((word) => word.toLowerCase()));
  const rest = query.split(/\s+/).filter((word) => word !== '' && !lower.has(word.toLowerCase().replace(/^[-+"]+|["*]+$/g, ''))).join(' ');
  const words = missing.flatMap((word, i) => [i === 0 ? '' : i === missing.length - 1 ? ' or ' : ', ', h('em', {}, word)]);
  notice.replaceChildren(`No page has `, ...words, ...(rest ? ['; showing results for ', h('em', {}, rest)] : []), '.');
  notice.hidden = false;
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
