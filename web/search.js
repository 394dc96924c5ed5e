/**
 * The search page. The query, the result page and the ranking live in the URL
 * (`/?q=telescope&page=2&rank=blend`), so a search can be shared and reloaded; every new search
 * or page pushes a history entry, and back/forward render the URL they return to.
 *
 * Page titles, URLs and hosts are plain text (textContent only); the one HTML fragment, the
 * snippet, goes through insertTrustedSnippetHtml.
 */

const PAGE_SIZE = 10;
/** The engine ranks at most this many results of a query, so no page beyond it can be shown. */
const MAX_RESULT_POSITION = 1000;
const RANK_MODES = ['blend', 'text', 'global', 'local'];
const RANK_DESCRIPTIONS = {
  blend: 'text relevance blended with the estimated global PageRank',
  text: 'text relevance only',
  global: 'estimated global PageRank only',
  local: 'local PageRank (links inside this site) only',
};
const SUGGESTIONS = ['telescope', 'admissions', 'library hours', 'scholarship'];

const form = /** @type {HTMLFormElement} */ (document.getElementById('search-form'));
const queryInput = /** @type {HTMLInputElement} */ (document.getElementById('q'));
const rankSelect = /** @type {HTMLSelectElement} */ (document.getElementById('rank'));
const statusLine = /** @type {HTMLElement} */ (document.getElementById('status'));
const resultsSection = /** @type {HTMLElement} */ (document.getElementById('results'));
const messageBox = /** @type {HTMLElement} */ (document.getElementById('message'));
const resultList = /** @type {HTMLOListElement} */ (document.getElementById('result-list'));
const pagination = /** @type {HTMLElement} */ (document.getElementById('pagination'));

/** @typedef {{ q: string, page: number, rank: string }} SearchState */

/** @param {URL} url @returns {SearchState} */
function stateFromUrl(url) {
  const params = url.searchParams;
  const pageText = params.get('page') ?? '';
  const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : 1;
  const rank = params.get('rank') ?? '';
  return { q: (params.get('q') ?? '').trim(), page, rank: RANK_MODES.includes(rank) ? rank : 'blend' };
}

/** @param {SearchState} state */
function urlOf(state) {
  if (state.q === '') return state.rank === 'blend' ? '/' : `/?${new URLSearchParams({ rank: state.rank })}`;
  return `/?${new URLSearchParams({ q: state.q, page: String(state.page), rank: state.rank })}`;
}

/** @param {SearchState} state */
function navigate(state) {
  const url = urlOf(state);
  if (url !== location.pathname + location.search) history.pushState(null, '', url);
  return render(state);
}

/** The site's name, from /api/info ("Site search" until it answers). */
let siteTitle = 'Site search';

/** Names the page after the site it searches (the server knows it; the page is generic). */
async function loadSiteInfo() {
  try {
    const response = await fetch('/api/info');
    if (!response.ok) return;
    const info = await response.json();
    if (typeof info.name !== 'string' || info.name === '') return;
    siteTitle = `${info.name} search`;
    for (const element of document.querySelectorAll('[data-site-brand]')) element.textContent = siteTitle;
    for (const element of document.querySelectorAll('[data-site-label], [data-site-heading]')) element.textContent = `Search ${info.name}`;
    for (const element of document.querySelectorAll('[data-site-initial]')) element.textContent = info.name.trim().charAt(0).toUpperCase();
    if (!queryInput.value) document.title = siteTitle;
  } catch {
    // Offline or an older server: the generic names stay.
  }
}

/** The request in flight, cancelled when a newer one starts (its answer would be stale). */
let inFlight = /** @type {AbortController | null} */ (null);

/** @param {SearchState} state */
async function render(state) {
  queryInput.value = state.q;
  rankSelect.value = state.rank;
  inFlight?.abort();
  if (state.q === '') {
    document.title = siteTitle;
    showEmptyState();
    return;
  }
  document.title = `${state.q} – ${siteTitle}`;
  const controller = new AbortController();
  inFlight = controller;
  resultsSection.setAttribute('aria-busy', 'true');
  const params = new URLSearchParams({ q: state.q, page: String(state.page), size: String(PAGE_SIZE), rank: state.rank, explain: 'true' });
  let response;
  let body;
  try {
    response = await fetch(`/api/search?${params}`, { signal: controller.signal, headers: { accept: 'application/json' } });
    body = await response.json().catch(() => null);
  } catch (error) {
    if (controller.signal.aborted) return;
    showNetworkError(state);
    return;
  } finally {
    if (inFlight === controller) resultsSection.removeAttribute('aria-busy');
  }
  if (controller.signal.aborted) return;
  inFlight = null;
  if (!response.ok || body === null) {
    showApiError(response.status, body);
    return;
  }
  showResults(state, body);
}

function clearResults() {
  resultList.replaceChildren();
  pagination.replaceChildren();
  pagination.hidden = true;
  messageBox.replaceChildren();
  messageBox.hidden = true;
  messageBox.className = 'message';
  messageBox.removeAttribute('role');
}

/**
 * @param {string} kind  a modifier class: empty, no-results, error
 * @param {Array<Node | string>} content
 */
function showMessage(kind, content) {
  messageBox.className = `message message-${kind}`;
  if (kind === 'error') messageBox.setAttribute('role', 'alert');
  messageBox.replaceChildren(...content);
  messageBox.hidden = false;
}

/**
 * Makes an element. Children given as strings become text nodes, never HTML.
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {Array<Node | string>} [children]
 */
function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A link inside the page that navigates without reloading (see the click handler). */
function pageLink(/** @type {SearchState} */ state, /** @type {Array<Node | string>} */ children, attributes = {}) {
  return element('a', { href: urlOf(state), 'data-nav': '', ...attributes }, children);
}

function suggestionList(/** @type {string} */ rank) {
  const items = SUGGESTIONS.map((q) => element('li', {}, [pageLink({ q, page: 1, rank }, [q])]));
  return element('ul', { class: 'suggestions' }, items);
}

function showEmptyState() {
  clearResults();
  statusLine.textContent = '';
  showMessage('empty', [
    element('h2', {}, ['Start with a few words']),
    element('p', {}, ['Type a few words and press Enter. Every word must appear on a page; use "quotes" for a phrase, -word to leave a word out, and tele* for words that start with tele.']),
    element('p', {}, ['Try one of these:']),
    suggestionList(rankSelect.value),
  ]);
}

/** @param {SearchState} state */
function showNoResults(state) {
  showMessage('no-results', [
    element('h2', {}, [`No pages match “${state.q}”`]),
    element('p', {}, ['Some ideas:']),
    element('ul', { class: 'hints' }, [
      element('li', {}, ['Check the spelling, or use fewer or more general words: every word must appear on a page.']),
      element('li', {}, ['Words are matched by their stem, so “telescopes” also finds “telescope”; tele* finds words that start with tele.']),
      element('li', {}, ['Or try: ', ...SUGGESTIONS.flatMap((q, i) => [i > 0 ? ', ' : '', pageLink({ q, page: 1, rank: state.rank }, [q])])]),
    ]),
  ]);
}

/** @param {SearchState} state */
function showNetworkError(state) {
  clearResults();
  statusLine.textContent = 'The search could not be run.';
  const retry = element('button', { type: 'button', class: 'retry-button' }, ['Try again']);
  retry.addEventListener('click', () => render(state));
  showMessage('error', [
    element('h2', {}, ['The search service could not be reached']),
    element('p', {}, ['Check the connection (or whether the server is running) and try again.']),
    retry,
  ]);
}

/**
 * @param {number} status
 * @param {unknown} body  the API's `{ statusCode, error, message }` when it answered one
 */
function showApiError(status, body) {
  clearResults();
  statusLine.textContent = 'The search could not be run.';
  const message = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : '';
  const heading =
    status === 400 ? 'This search could not be understood' : status === 429 ? 'Too many searches at once' : `The search service answered with an error (${status})`;
  const help =
    status === 400
      ? 'Check the query: a word before a colon names a field (title:telescope; the fields are title, headings, body and url), and ^ and ~ need a number after them (telescope^2, telescop~1).'
      : status === 429
        ? 'Wait a minute and try again.'
        : 'Try again in a moment.';
  showMessage('error', [element('h2', {}, [heading]), ...(message ? [element('p', { class: 'error-detail' }, [message])] : []), element('p', {}, [help])]);
}

/**
 * @param {SearchState} state
 * @param {{ total: number, page: number, size: number, tookMs: number, hits: Array<Hit>, correctedQuery?: string }} result
 */
function showResults(state, result) {
  clearResults();
  const took = result.tookMs < 1 ? '< 1' : String(Math.round(result.tookMs));
  const lastPage = lastPageOf(result.total, result.size);
  const countText = `${result.total.toLocaleString('en')} ${result.total === 1 ? 'result' : 'results'} in ${took} ms`;
  const pageText = lastPage > 1 && state.page <= lastPage ? ` · page ${state.page} of ${lastPage}` : '';
  const rankText = state.rank === 'blend' ? '' : ` · ordered by ${RANK_DESCRIPTIONS[/** @type {keyof typeof RANK_DESCRIPTIONS} */ (state.rank)]}`;
  const correctedText = result.correctedQuery ? ` · Showing results for “${result.correctedQuery}”` : '';
  statusLine.textContent = countText + pageText + rankText + correctedText;
  if (result.total === 0) {
    showNoResults(state);
    return;
  }
  if (result.hits.length === 0) {
    showMessage('no-results', [
      element('h2', {}, [`Page ${state.page} is past the last page of results`]),
      element('p', {}, ['Go to the ', pageLink({ ...state, page: 1 }, ['first page']), ' or the ', pageLink({ ...state, page: lastPage }, ['last page']), '.']),
    ]);
    return;
  }
  resultList.start = (result.page - 1) * result.size + 1;
  resultList.append(...result.hits.map((hit) => resultItem(hit)));
  renderPagination(state, lastPage);
}

function lastPageOf(/** @type {number} */ total, /** @type {number} */ size) {
  return Math.max(1, Math.min(Math.ceil(total / size), Math.floor(MAX_RESULT_POSITION / size)));
}

/**
 * @typedef {{ id: number, url: string, title: string, snippet: string, host: string, score: number,
 *   textScore: number, globalPageRank: number, localPageRank: number,
 *   explain?: Record<string, number | string> }} Hit
 */

/** @param {Hit} hit */
function resultItem(hit) {
  const snippet = element('p', { class: 'result-snippet' });
  insertTrustedSnippetHtml(snippet, hit.snippet);
  return element('li', { class: 'result' }, [
    element('article', {}, [
      element('p', { class: 'result-source' }, [
        element('span', { class: 'result-host' }, [hit.host]),
        element('cite', { class: 'result-url' }, [hit.url]),
      ]),
      element('h2', { class: 'result-title' }, [element('a', { href: hit.url }, [hit.title || hit.url])]),
      snippet,
      explanation(hit),
    ]),
  ]);
}

/**
 * Puts a snippet from the search API into `target`.
 *
 * Trust decision: the API builds each snippet from page text by HTML-escaping all of it and
 * adding only <mark> around the matched words (indexer/text-index/snippet.ts), so the snippet is
 * the one piece of the answer read as HTML. As a second line of defence it is parsed in an inert
 * <template> (nothing in it runs or loads) and only its text and <mark> elements are copied; any
 * other element is reduced to its text.
 * @param {HTMLElement} target
 * @param {string} snippetHtml
 */
function insertTrustedSnippetHtml(target, snippetHtml) {
  const template = document.createElement('template');
  template.innerHTML = snippetHtml;
  target.replaceChildren(...textAndMarks(template.content));
}

/** @param {Node} parent @returns {Node[]} */
function textAndMarks(parent) {
  return Array.from(parent.childNodes, (node) => {
    if (node.nodeName === 'MARK') return element('mark', {}, textAndMarks(node));
    return document.createTextNode(node.textContent ?? '');
  });
}

/** "Why this rank?": the parts the engine combined, from the API's explain record. */
function explanation(/** @type {Hit} */ hit) {
  const explain = hit.explain ?? {};
  const weight = Number(explain.weight ?? 0);
  const blend = String(explain.blend ?? 'log-linear');
  const rank = String(explain.rank ?? 'blend');
  const text = Number(explain.textNormalised ?? 0);
  const link = Number(explain.linkPart ?? 0);
  const terms = String(explain.matchedTerms ?? '').trim();
  const rows = [
    ['Text score', [formatNumber(hit.textScore), ` (${formatNumber(text)} of the best match)`]],
    ['Global PageRank estimate', [...formatRank(hit.globalPageRank), blend === 'log-linear' ? ` (${formatNumber(link)} on the site’s log scale)` : '']],
    ['Local PageRank', formatRank(hit.localPageRank)],
    ['Blend weight', [`${formatNumber(weight)} on global PageRank, ${blend}`]],
    ['Matched terms (stems)', [terms === '' ? '—' : terms]],
    ['Score', [formatNumber(hit.score)]],
  ];
  const list = element('dl', { class: 'why-parts' });
  for (const [name, value] of rows) list.append(element('div', {}, [element('dt', {}, [String(name)]), element('dd', {}, /** @type {Array<Node | string>} */ (value))]));
  return element('details', { class: 'why' }, [
    element('summary', {}, ['Why this rank?']),
    element('div', { class: 'why-body' }, [element('p', { class: 'why-formula' }, [formula(rank, blend, weight, text, link, hit.score)]), list]),
  ]);
}

function formula(/** @type {string} */ rank, /** @type {string} */ blend, /** @type {number} */ weight, /** @type {number} */ text, /** @type {number} */ link, /** @type {number} */ score) {
  if (rank !== 'blend') return `Ordered by ${RANK_DESCRIPTIONS[/** @type {keyof typeof RANK_DESCRIPTIONS} */ (rank)] ?? rank}; the text decides only which pages match.`;
  if (blend === 'multiplicative') {
    return `Score = text ${formatNumber(text)} × (PageRank ÷ site mean)^${formatNumber(weight)} ${formatNumber(link)} = ${formatNumber(score)}`;
  }
  return `Score = ${formatNumber(1 - weight)} × text ${formatNumber(text)} + ${formatNumber(weight)} × global PageRank ${formatNumber(link)} = ${formatNumber(score)}`;
}

function formatNumber(/** @type {number} */ value) {
  if (!Number.isFinite(value)) return '—';
  return Number(value.toPrecision(3)).toString();
}

/** PageRank values are tiny: 6.94 × 10⁻⁴ reads better than 0.000694 or 6.94e-4. */
function formatRank(/** @type {number} */ value) {
  if (!(value > 0)) return ['0'];
  const [mantissa, exponent] = value.toExponential(2).split('e');
  return [`${mantissa} × 10`, element('sup', {}, [String(Number(exponent)).replace('-', '−')])];
}

/**
 * Previous, page numbers around the current one (with the first and last), next.
 * @param {SearchState} state
 * @param {number} lastPage
 */
function renderPagination(state, lastPage) {
  if (lastPage <= 1) return;
  const current = Math.min(state.page, lastPage);
  const items = [];
  items.push(
    current > 1
      ? element('li', {}, [pageLink({ ...state, page: current - 1 }, ['‹ Previous'], { rel: 'prev', class: 'page-step' })])
      : element('li', {}, [element('span', { class: 'page-step', 'aria-disabled': 'true' }, ['‹ Previous'])]),
  );
  let previous = 0;
  for (const page of pageNumbers(current, lastPage)) {
    if (page > previous + 1) items.push(element('li', { class: 'page-gap', 'aria-hidden': 'true' }, ['…']));
    const attributes = page === current ? { 'aria-current': 'page', 'aria-label': `Page ${page}, current page` } : { 'aria-label': `Page ${page}` };
    items.push(element('li', {}, [pageLink({ ...state, page }, [String(page)], { class: 'page-number', ...attributes })]));
    previous = page;
  }
  items.push(
    current < lastPage
      ? element('li', {}, [pageLink({ ...state, page: current + 1 }, ['Next ›'], { rel: 'next', class: 'page-step' })])
      : element('li', {}, [element('span', { class: 'page-step', 'aria-disabled': 'true' }, ['Next ›'])]),
  );
  pagination.replaceChildren(element('ul', {}, items));
  pagination.hidden = false;
}

function pageNumbers(/** @type {number} */ current, /** @type {number} */ lastPage) {
  const pages = new Set([1, lastPage]);
  for (let page = current - 2; page <= current + 2; page++) if (page >= 1 && page <= lastPage) pages.add(page);
  return [...pages].sort((a, b) => a - b);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  navigate({ q: queryInput.value.trim(), page: 1, rank: rankSelect.value });
});

rankSelect.addEventListener('change', () => {
  const current = stateFromUrl(new URL(location.href));
  // A new ordering starts again at the first page; the typed query counts even if not yet sent.
  const q = queryInput.value.trim() || current.q;
  navigate({ q, page: 1, rank: rankSelect.value });
});

// Links inside the page (pagination, suggestions) change the URL without reloading the page.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-nav]') : null;
  if (!(link instanceof HTMLAnchorElement)) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const fromPagination = pagination.contains(link);
  navigate(stateFromUrl(new URL(link.href))).then(() => {
    if (!fromPagination) return;
    // A new page of results: start reading (and tabbing) from its top.
    resultsSection.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  });
});

window.addEventListener('popstate', () => render(stateFromUrl(new URL(location.href))));

// "/" anywhere but in a text field jumps to the search box, as on many search sites.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select'))) return;
  event.preventDefault();
  queryInput.focus();
  queryInput.select();
});

loadSiteInfo();
render(stateFromUrl(new URL(location.href)));
